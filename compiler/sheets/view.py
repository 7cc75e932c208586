"""What a sheet or card shows, read off the resolved models: plain data for the templates and exports.

Nothing here knows a game.  Which blocks a card holds follows from the kinds of
declarations in the IR: a list whose values carry settings becomes a table with a
column per setting (a mark for yes/no, a number or fraction, a signed modifier, a
value of another list), a table becomes a value table, a `limits` group a list of
caps with their exceptions, and a titled clause that defines a true/false test of
a unit or hex, or works something out from the game's state or values, a
definition: its text, with what it computes (named numbers, and definitions in
words, or by their title when too long to read).  Blocks are grouped by rule
section and packed onto as many one-page cards as they need.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..ir import target_label
from .text import (
    RULE_NUMBER,
    Words,
    blocks,
    chapter_of,
    flat,
    hugo_anchor,
    lower_first,
    number_words,
    per_model,
    rule_key,
    section_of,
)

# Block heights are estimated in CSS pixels (96 per inch) of the card's 8.4pt type,
# measured once in Chromium: a heading bar, a line of text, a table row.  A card has
# two columns about 900 px tall (259 mm less header and footer); blocks are packed
# into them in rule order, up to COLUMN_HEIGHT each, so every card prints on one page.
COLUMN_HEIGHT = 810
BLOCK_GAP = 12  # the 3 mm below every block
CHARS_PER_LINE = 72
HEAD, LINE, ROW = 28, 13, 20


def layer_label(model: dict[str, Any], layer: str) -> str:
    return layer


def manifest_line(model: dict[str, Any]) -> dict[str, Any]:
    """The ruleset manifest as the header of every sheet and card shows it."""
    m = model["manifest"]
    parts = []
    for kind in ("series", "game", "scenario"):
        lay = m[kind]
        if lay is not None:
            parts.append({"kind": kind, "name": lay["name"], "title": lay["title"], "version": lay["version"]})
    options = [{"name": o["name"], "title": o["title"], "version": o["version"]} for o in m["options"]]
    return {"ruleset": m["ruleset"], "title": m["title"], "layers": parts, "options": options}


def bool_attrs(enum: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in enum["attrs"] if a["t"] == "bool"]


def mark_label(attr: dict[str, Any]) -> str:
    """The short name of a true/false setting: the words before ':' in its title ('<Negation>')."""
    title = str(attr["title"] or attr["name"])
    return title.split(":")[0].strip() or str(attr["name"])


def plain_label(attr: dict[str, Any]) -> str:
    """The setting's name as a word: '<Negation>' -> 'negation'."""
    return mark_label(attr).strip("<>").strip().lower()


# ---- which model came before a layer ---------------------------------------------------


def model_before(models: dict[str, dict[str, Any]], model: dict[str, Any], layer: str) -> dict[str, Any] | None:
    """The model built from the layers below `layer` in this model's chain (the series under a game)."""
    chain = model["manifest"]["layers"]
    if layer not in chain:
        return None
    prefix = chain[:chain.index(layer)]
    for other in models.values():
        if other["manifest"]["layers"] == prefix:
            return other
    return None


# ---- items a change can target, and what they say ----------------------------------------


def find_target(model: dict[str, Any], target: dict[str, Any]) -> dict[str, Any] | None:
    kind = target["kind"]
    first = per_model(model, "items by name", _items_by_name)
    if kind == "clause":
        return first["clauses"].get(target["number"])
    if kind == "member":
        e = first["enums"].get(target["enum"])
        return None if e is None else next((m for m in e["members"] if m["name"] == target["member"]), None)
    if kind in ("const", "define"):
        return first[kind + "s"].get(target["name"])
    if kind == "row":
        t = first["tables"].get(target["table"])
        return None if t is None else next(
            (r for r in t["rows"] if r["label"] == target["row"] and not r["exception"]), None)
    if kind == "limit":
        g = first["limits"].get(target["limits"])
        return None if g is None else next((i for i in g["items"] if i["name"] == target["limit"]), None)
    return None


def _items_by_name(model: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """The first clause of each number and the first item of each name, kind by kind."""
    out: dict[str, dict[str, dict[str, Any]]] = {"clauses": {}}
    for c in model["clauses"]:
        out["clauses"].setdefault(c["number"], c)
    for kind in ("enums", "consts", "defines", "tables", "limits"):
        out[kind] = {}
        for item in model[kind]:
            out[kind].setdefault(item["name"], item)
    return out


def describe(model: dict[str, Any], target: dict[str, Any]) -> str:
    """What the targeted item says in this model, in the words a card uses."""
    item = find_target(model, target)
    if item is None:
        return "(not in these rules)"
    words = Words(model)
    kind = target["kind"]
    if kind == "member":
        enum = next(e for e in model["enums"] if e["name"] == target["enum"])
        parts = [str(item["title"] or item["name"])]
        for a in enum["attrs"]:
            v = item["attrs"].get(a["name"], {}).get("value")
            if a["t"] == "bool":
                parts.append(f"{mark_label(a)}: {'yes' if v else 'no'}")
            else:
                parts.append(f"{a['title'] or a['name']}: {v}")
        return "; ".join(parts + [flat(t) for t in item["texts"]])
    if kind == "clause":
        head = " ".join(x for x in (item["number"], item["title"]) if x)
        return head + (": " + " ".join(flat(t) for t in item["texts"]) if item["texts"] else "")
    if kind == "row":
        return f"{item['title'] or item['label']}: {words.value(item['value'], pretty=False)}"
    if kind == "limit":
        return f"{item['title'] or item['name']}: at most {words.value(item['bound'], pretty=False)}"
    if kind == "const":
        return f"{item['title'] or item['name']} = {words.value(item['value'], pretty=False)}"
    return f"{item['title'] or item['name']} = {words.expr(item['body'], pretty=False)}"


def changes(models: dict[str, dict[str, Any]], model: dict[str, Any]) -> list[dict[str, Any]]:
    """Every override in force in this model, with the text before it (the series') beside its own."""
    out = []
    for ov in model["overrides"]:
        layer = ov["origin"]["layer"]
        before = model_before(models, model, layer)
        out.append({
            "key": target_label(ov["target"]),
            "number": ov["target"]["number"],
            "layer": layer,
            "base_layer": ov["of_layer"],
            "before": describe(before, ov["target"]) if before is not None else "(not built on its own)",
            "after": describe(model, ov["target"]),
            "notes": [{"label": n["label"], "text": n["text"]} for n in ov["notes"]],
            "source": f"{ov['origin']['file']}:{ov['origin']['line']}",
        })
    return sorted(out, key=lambda c: (rule_key(c["number"]), c["key"]))


# ---- links between rules ---------------------------------------------------------------


def chapter_titles(model: dict[str, Any]) -> dict[str, str]:
    """Each chapter's title: its N.0 clause's, else its first clause's."""
    titles: dict[str, str] = {}
    for c in sorted(model["clauses"], key=lambda c: rule_key(c["number"])):
        ch = chapter_of(c["number"])
        if c["number"] == f"{ch}.0" and c["title"]:
            titles[ch] = c["title"]
        titles.setdefault(ch, c["title"] or f"Chapter {ch}")
    return titles


def anchors(model: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Rule number -> (chapter, the id of the heading it sits under on the chapter's page)."""
    return per_model(model, "anchors", _anchors)


def _anchors(model: dict[str, Any]) -> dict[str, tuple[str, str]]:
    by_number = {c["number"]: c for c in model["clauses"]}
    out = {}
    for number in by_number:
        ch = chapter_of(number)
        sec = section_of(number)
        head = by_number.get(sec)
        if head is None or sec == f"{ch}.0":
            out[number] = (ch, "")
        else:
            out[number] = (ch, hugo_anchor(f"{sec} {head['title'] or ''}"))
    return out


class Links(Mapping[str, str]):
    """Rule number -> link, as seen from chapter page `here` (None: from outside the chapter pages).
    Each link is worked out when a text asks for it: a whole table for every page made the sheets
    quadratic in the number of clauses."""

    def __init__(self, model: dict[str, Any], pages: dict[str, str], here: str | None):
        self.externals: dict[str, str] = {e["number"]: e["url"] for e in model["externals"]}
        self.anchors = anchors(model)
        self.pages = pages
        self.here = here

    def __getitem__(self, number: str) -> str:
        if number not in self.anchors:
            return self.externals[number]
        ch, anchor = self.anchors[number]
        frag = f"#{anchor}" if anchor else ""
        return (frag or "#") if ch == self.here else f"../{self.pages[ch]}/{frag}"

    def __contains__(self, number: object) -> bool:
        return number in self.anchors or number in self.externals

    def __iter__(self) -> Iterator[str]:
        yield from (n for n in self.externals if n not in self.anchors)
        yield from self.anchors

    def __len__(self) -> int:
        return len(self.anchors) + sum(1 for n in self.externals if n not in self.anchors)


def link_table(model: dict[str, Any], pages: dict[str, str], here: str | None) -> Links:
    return Links(model, pages, here)


def cited(item: dict[str, Any], text: str) -> list[str]:
    """The rules an item's `see` names that its text does not already cite (shown as 'See ...')."""
    in_text = set(RULE_NUMBER.findall(text))
    return [r["number"] for r in item.get("see", []) if r["number"] not in in_text]


# ---- cards ---------------------------------------------------------------------------


def _lines(text: str, width: int = CHARS_PER_LINE) -> int:
    return max(1, -(-len(text) // width))


def _head(number: str | None, title: str | None, subtitle: str | None = None) -> int:
    """A heading bar, taller by a line for every line its title and subtitle wrap to."""
    text = " ".join(x for x in (number, title, subtitle) if x)
    return HEAD + 18 * (_lines(text, 50) - 1)


def _changed(item: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"layer": o["layer"], "notes": [{"label": n["label"], "text": n["text"]} for n in o["notes"]]}
            for o in item.get("overridden_by", [])]


def _walk(node: Any) -> Any:
    """Every expression node inside a declaration (dicts with a 'k'), depth first."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            if "k" in n:
                yield n
            todo.extend(v for k, v in n.items() if k != "origin")
        elif isinstance(n, list):
            todo.extend(n)


def _declarations(model: dict[str, Any]) -> list[tuple[str, Any]]:
    """(clause, declaration) for everything a clause declares that the rules compute with, in rule order."""
    return per_model(model, "declarations", _sorted_declarations)


def _sorted_declarations(model: dict[str, Any]) -> list[tuple[str, Any]]:
    out = []
    for kind in ("defines", "tables", "limits", "consts"):
        for d in model[kind]:
            if d["origin"]["clause"]:
                out.append((d["origin"]["clause"], d))
    return sorted(out, key=lambda cd: rule_key(cd[0]))


def list_clause(model: dict[str, Any], enum: dict[str, Any]) -> str | None:
    """The clause a list is cited by on a card (see _list_clause)."""
    known: dict[str, str | None] = per_model(model, "list clauses", lambda m: {})
    if enum["name"] not in known:
        known[enum["name"]] = _list_clause(model, enum)
    return known[enum["name"]]


def _list_clause(model: dict[str, Any], enum: dict[str, Any]) -> str | None:
    """The clause a list is cited by on a card: the clause it is declared in.

    A list declared outside every clause (series vocabulary: unit types, ZOC classes) is
    cited by the first clause, in rule order, whose definitions read one of its settings:
    that is where a player meets the numbers (a ZOC class's supply multiplier is looked up
    for the combat-supply rule).  Failing that, by the first clause that uses the list at all;
    a list no clause uses is not on a card.  Citing the layer instead would leave the table
    outside the rule sections a card is packed by."""
    if enum["origin"]["clause"]:
        return str(enum["origin"]["clause"])
    name = enum["name"]
    used = None
    for number, d in _declarations(model):
        for n in _walk(d):
            if n["k"] == "attr" and n.get("enum") == name:
                return number
            if used is None and (n["k"] == "member" and n.get("enum") == name or n.get("t") == f"enum {name}"):
                used = number
        if used is None and any(p["t"].endswith(f"enum {name}") for p in d.get("params", [])):
            used = number
    return used


def _words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def keys_say_more(enum: dict[str, Any]) -> bool:
    """Whether a list's value names tell a player more than its titles: letter codes ('A', 'F'), or
    names that are not just the title's words ('combat_cost' for 'Combat').  When every name only
    repeats its title ('no_zoc' for 'No ZOC'), the card leaves the name column out."""
    for m in enum["members"]:
        title = _words_of(str(m["title"] or ""))
        for part in _words_of(m["name"]):
            if not any(w.startswith(part) or part.startswith(w) for w in title if min(len(w), len(part)) >= 2
                       or w == part):
                return True
    return False


def signed_column(values: list[Any]) -> bool:
    return any(isinstance(v, int) and not isinstance(v, bool) and v < 0 for v in values)


def setting_words(words: Words, attr: dict[str, Any], value: Any, signed: bool) -> str:
    """A list value's setting as a card shows it: ½, +1 / −2 (a column with minus signs), a value's title."""
    t = attr["t"]
    if value is None:
        return "—"
    if t == "int":
        v = int(value)
        return (f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0") if signed else str(v)
    if t == "number":
        return number_words(value, pretty=True)
    if t.startswith("enum "):
        return words.member(t[5:], str(value))
    return str(value)


def setting_label(attr: dict[str, Any]) -> str:
    """A column head for a setting: the words before ':' in its title, else its name in words."""
    if attr["t"] == "bool":
        return mark_label(attr)
    title = str(attr["title"] or "")
    if ":" in title and title.split(":")[0].strip():
        return title.split(":")[0].strip()
    name = str(attr["name"]).replace("_", " ")
    return name[:1].upper() + name[1:]


def shows_list(enum: dict[str, Any]) -> bool:
    """A list is a card table when its values carry settings and have titles; one declared outside
    every clause (series vocabulary) only when a setting is a number or a value of another list:
    yes/no classes of the vocabulary ('a combat unit') are stated by the clause that reads them."""
    if not enum["attrs"] or not any(m["title"] for m in enum["members"]):
        return False
    return bool(enum["origin"]["clause"]) or any(a["t"] != "bool" for a in enum["attrs"])


def mark_tables(model: dict[str, Any], before: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A table per list whose values carry settings: a column per setting (marks for yes/no)."""
    clauses = {c["number"]: c for c in model["clauses"]}
    words = Words(model)
    out = []
    texts_shown: set[str] = set()
    for enum in model["enums"]:
        if not shows_list(enum):
            continue
        number = list_clause(model, enum)
        if number is None:
            continue
        attrs = enum["attrs"]
        clause = clauses.get(number, {})
        old = _old_members(before, enum["name"])
        signed = {a["name"]: signed_column([m["attrs"][a["name"]]["value"] for m in enum["members"]]) for a in attrs}
        rows = []
        for m in enum["members"]:
            cells = []
            for a in attrs:
                raw = m["attrs"][a["name"]]["value"]
                was_raw = old.get(m["name"], {}).get(a["name"], raw)
                if a["t"] == "bool":
                    cells.append({"name": a["name"], "label": mark_label(a), "kind": "mark", "value": bool(raw),
                                  "was": bool(was_raw), "changed": bool(was_raw) != bool(raw),
                                  "data": "true" if raw else "false"})
                else:
                    text = setting_words(words, a, raw, signed[a["name"]])
                    cells.append({"name": a["name"], "label": setting_label(a), "kind": "value", "value": text,
                                  "was": setting_words(words, a, was_raw, signed[a["name"]]),
                                  "changed": was_raw != raw, "data": "" if raw is None else str(raw)})
            notes = [{"label": n["label"], "text": n["text"]} for n in m["notes"] if n.get("layer")]
            rows.append({"key": m["name"], "rule": f"{number} {m['name']}", "title": m["title"] or m["name"],
                         "cells": cells, "marks": [c for c in cells if c["kind"] == "mark"],
                         "changed": _changed(m), "notes": notes, "see": [r["number"] for r in m["see"]]})
        # The clause's text and what it computes open the first table of the clause (and the clause
        # then has no separate definition block).
        first = number not in texts_shown
        texts_shown.add(number)
        intro = flat(" ".join(clause.get("texts", []))) if first else ""
        formulas = clause_formulas(model, number) if first else []
        columns = [{"name": a["name"], "label": setting_label(a), "kind": "mark" if a["t"] == "bool" else "value",
                    "numeric": a["t"] in ("int", "number")} for a in attrs]
        legend = [{"kind": "mark" if a["t"] == "bool" else "value", "label": setting_label(a),
                   "not": lower_first(setting_label(a)), "text": a["title"] or a["name"]} for a in attrs
                  if a["t"] == "bool" or (a["title"] and a["title"] != setting_label(a))]
        show_keys = keys_say_more(enum)
        title_width = 48 if show_keys else 60
        value_cols = sum(1 for a in attrs if a["t"] != "bool")
        header = max(_lines(c["label"], 8) for c in columns) - 1  # long column names wrap in the header
        legend_text = "; ".join(f"{x['label']}: {x['text']}" for x in legend)
        est = (_head(number, clause.get("title") or enum["title"]) + LINE * (_lines(intro) if intro else 0)
               + 20 + LINE * header + (LINE * _lines(legend_text, 75) if legend else 0)
               + sum(ROW + LINE * (_lines(r["title"], title_width - 8 * value_cols) - 1
                                   + sum(_lines(n["text"], 45) for c in r["changed"] for n in c["notes"]))
                     for r in rows)
               + formulas_height(formulas))
        out.append({"kind": "marks", "number": number, "name": enum["name"], "title": clause.get("title"),
                    "subtitle": enum["title"], "intro": intro, "show_keys": show_keys,
                    "declared": bool(enum["origin"]["clause"]), "legend": legend,
                    "columns": columns, "rows": rows, "formulas": formulas, "est": est})
    return out


def _old_members(before: dict[str, Any] | None, enum: str) -> dict[str, dict[str, Any]]:
    if before is None:
        return {}
    for e in before["enums"]:
        if e["name"] == enum:
            return {m["name"]: {k: v["value"] for k, v in m["attrs"].items()} for m in e["members"]}
    return {}


def size_tables(model: dict[str, Any]) -> list[dict[str, Any]]:
    words = Words(model)
    clauses = {c["number"]: c for c in model["clauses"]}
    out = []
    for t in model["tables"]:
        number = t["origin"]["clause"]
        if not number:
            continue
        rows = []
        for r in t["rows"]:
            cond = words.expr(r["when"]) if r["when"] is not None else "otherwise"
            const = r["value"]["v"] if r["value"]["k"] == "lit" and t["returns"] == "bool" else None
            value = words.value(r["value"])
            rows.append({"key": r["label"], "rule": r["origin"]["clause"] or number,
                         "title": r["title"] or cond, "value": value, "yes": const,
                         "long": const is None and len(value) > LONG_VALUE,
                         "plain_value": words.value(r["value"], pretty=False), "exception": r["exception"],
                         "changed": _changed(r)})
        est = _head(number, clauses.get(number, {}).get("title"), t["title"] or t["name"]) + sum(
            ROW + LINE * (max(_lines(r["title"], 30), _lines(r["value"], 26)) - 1 if r["long"]
                          else _lines(r["title"], max(24, 64 - int(1.4 * len(r["value"])))) - 1) for r in rows)
        out.append({"kind": "sizes", "number": number, "name": t["name"],
                    "numeric": t["returns"] in ("int", "number"), "lookup": t["returns"].startswith("enum "),
                    "title": clauses.get(number, {}).get("title"),
                    "subtitle": t["title"] or t["name"], "rows": rows, "est": est})
    return out


def limit_lists(model: dict[str, Any]) -> list[dict[str, Any]]:
    words = Words(model)
    clauses = {c["number"]: c for c in model["clauses"]}
    out = []
    for g in model["limits"]:
        number = g["origin"]["clause"]
        if not number:
            continue

        def cond(c: dict[str, Any], number: str = number) -> dict[str, Any]:
            return {"text": c["title"] or words.expr(c["cond"]), "rule": c["origin"]["clause"] or number}

        items = [{"key": i["name"], "rule": i["origin"]["clause"] or number, "title": i["title"] or i["name"],
                  "bound": words.value(i["bound"]), "plain_bound": words.value(i["bound"], pretty=False),
                  "exempt": [cond(x) for x in i["exempt"]], "changed": _changed(i)} for i in g["items"]]
        unless = [cond(u) for u in g["unless"]]
        est = _head(number, clauses.get(number, {}).get("title"), g["title"] or g["name"]) + sum(
            LINE + 3 + LINE * (_lines(u["text"]) - 1) for u in unless) + sum(
            ROW + LINE * sum(_lines(x["text"], 55) for x in i["exempt"]) for i in items)
        out.append({"kind": "limits", "number": number, "name": g["name"],
                    "title": clauses.get(number, {}).get("title"), "subtitle": g["title"] or g["name"],
                    "unless": unless, "items": items, "est": est})
    return out


def _tests(model: dict[str, Any]) -> list[tuple[str | None, dict[str, Any]]]:
    """(clause, declaration) for every true/false test of a unit or hex: definitions, tables and their rows."""
    out = []
    for d in model["defines"] + model["tables"]:
        if d["returns"] == "bool" and any(p["t"].startswith("record ") for p in d["params"]):
            out.append((d["origin"]["clause"], d))
            out += [(r["origin"]["clause"], d) for r in d.get("rows", [])]
    return out


def _game_valued(t: str) -> bool:
    """A parameter type that is game state or a game's values: a record, a list value, or lists of them."""
    return "record " in t or "enum " in t


def _shown_consts(model: dict[str, Any]) -> frozenset[str]:
    """Named numbers a table or a cap already shows (the 10 of 'at most 10 RE'). Every clause asks."""
    return per_model(model, "shown constants", lambda m: frozenset(
        n["name"] for d in m["tables"] + m["limits"] for n in _walk(d) if n["k"] == "const"))


def _lookups(model: dict[str, Any]) -> list[str]:
    """Clauses with something a player works out at the table: a definition over the game's state or
    values (a stack, a unit, a ZOC class, a list of modifiers), or a named number of its own."""
    shown = _shown_consts(model)
    out = [d["origin"]["clause"] for d in model["defines"]
           if d["origin"]["clause"] and any(_game_valued(p["t"]) for p in d["params"])]
    out += [c["origin"]["clause"] for c in model["consts"]
            if c["origin"]["clause"] and c.get("title") and c["name"] not in shown]
    return out


FORMULA_WORDS = 130  # longer than this, a definition is shown by its title (the clause text says it)
LONG_VALUE = 28  # a value longer than this wraps in its own wider column


def clause_formulas(model: dict[str, Any], number: str) -> list[dict[str, Any]]:
    """What a clause computes, one line each: its named numbers with their values, and its definitions
    of a number or a value (not the yes/no tests, which its text states) in words.  A sum of counted
    conditions lists the conditions; a definition too long to read in words shows its title only."""
    words = Words(model)
    conditions = Words(model, field_titles=True)
    shown = _shown_consts(model)
    consts, defines = _by_clause(model)
    out = []
    for c in consts.get(number, []):
        if c.get("title") and c["name"] not in shown:
            value = words.value(c["value"])
            out.append({"key": c["name"], "title": c["title"], "value": value, "items": [],
                        "long": len(value) > LONG_VALUE, "changed": _changed(c)})
    for d in defines.get(number, []):
        if d["returns"] == "bool":
            continue
        items = conditions.outline(d["body"]) or []
        value = "" if items else words.expr(d["body"])
        if len(value) > FORMULA_WORDS:
            value = ""
        out.append({"key": d["name"], "title": d["title"] or d["name"].replace("_", " "), "value": value,
                    "items": items, "long": len(value) > LONG_VALUE, "changed": _changed(d)})
    return out


def _by_clause(model: dict[str, Any]) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """The model's constants and definitions by the clause that declares them, in model order."""
    def make(m: dict[str, Any]) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
        consts: dict[str, list[dict[str, Any]]] = {}
        defines: dict[str, list[dict[str, Any]]] = {}
        for kind, into in (("consts", consts), ("defines", defines)):
            for d in m[kind]:
                into.setdefault(d["origin"]["clause"], []).append(d)
        return consts, defines
    return per_model(model, "by clause", make)


def formulas_height(formulas: list[dict[str, Any]]) -> int:
    """The lines of what a clause computes: a long value wraps beside its title, a short one
    (set in bold, on one line) leaves the title the rest of the width."""
    def title_width(f: dict[str, Any]) -> int:
        return 30 if f["long"] else max(20, 62 - int(1.4 * len(f["value"])))
    return sum(ROW + LINE * (max(_lines(f["title"], title_width(f)), _lines(f["value"], 30)) - 1)
               + LINE * sum(_lines(i, 60) for i in f["items"]) for f in formulas)


def definitions(model: dict[str, Any], texts: frozenset[str] = frozenset(),
                blocked: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Titled clauses that define (or add a case to) a true/false test of a unit or hex, or that work
    out something from the game's state or values and have no other block (`blocked`: a table, caps
    or a list): their title, text and what they compute.  Clauses whose text already opens a list's
    table (`texts`) get no second block."""
    clauses = {c["number"]: c for c in model["clauses"]}
    seen: dict[str, dict[str, Any]] = {}
    wanted = [n for n, _ in _tests(model)] + [n for n in _lookups(model) if n not in blocked]
    for number in wanted:
        clause = clauses.get(number or "")
        if clause is None or not clause["title"] or clause["number"] in seen or clause["number"] in texts:
            continue
        formulas = clause_formulas(model, clause["number"])
        if not clause["texts"] and not formulas:
            continue
        paras = blocks("\n\n".join(clause["texts"]))
        est = _head(clause["number"], clause["title"]) + 4 * (len(paras) - 1) + LINE * sum(
            _lines(b["text"]) if b["kind"] == "p" else sum(_lines(i, 64) for i in b["items"]) for b in paras
        ) + formulas_height(formulas)
        seen[clause["number"]] = {"kind": "definition", "number": clause["number"], "title": clause["title"],
                                  "blocks": paras, "formulas": formulas, "changed": _changed(clause), "est": est}
    return list(seen.values())


def change_block(entries: list[dict[str, Any]], model: dict[str, Any]) -> list[dict[str, Any]]:
    if not entries:
        return []
    est = HEAD + 20 + sum(16 + LINE * max(_lines(c["before"], 30), _lines(c["after"], 30) + sum(
        _lines(n["text"], 30) for n in c["notes"])) for c in entries)
    return [{"kind": "changes", "number": None, "title": None, "entries": entries, "est": est}]


def cards(models: dict[str, dict[str, Any]], model: dict[str, Any]) -> list[dict[str, Any]]:
    """The model's card blocks, grouped by section and packed onto one-page cards."""
    layers = model["manifest"]["layers"]
    before = model_before(models, model, layers[-1]) if len(layers) > 1 else None
    lists = mark_tables(model, before)
    others = lists + size_tables(model) + limit_lists(model)
    texts = frozenset(b["number"] for b in lists if b["intro"] or b["formulas"])
    found = others + definitions(model, texts, frozenset(b["number"] for b in others))
    found.sort(key=lambda b: (rule_key(b["number"]), b["kind"]))
    topics: dict[str, list[dict[str, Any]]] = {}
    for b in found:
        topics.setdefault(section_of(b["number"]), []).append(b)
    groups = [(sec, topics[sec]) for sec in sorted(topics, key=rule_key)]
    groups += [("changes", change_block(changes(models, model), model))] if model["overrides"] else []
    return _pack(model, groups)


# Which blocks a card gets first, chapter by chapter: what a player looks up at the table
# (lists with their settings, caps, tables of numbers or list values), then the definitions,
# then other tables; the game's changes come after every chapter.
PRIORITY = {"marks": 0, "limits": 1, "numbers": 2, "definition": 3, "sizes": 4}


def _priority(b: dict[str, Any]) -> tuple[Any, ...]:
    if b["number"] is None:
        return (1, ())
    kind = "numbers" if b["kind"] == "sizes" and (b.get("numeric") or b.get("lookup")) else b["kind"]
    return (0, rule_key(chapter_of(b["number"])), PRIORITY.get(kind, 9), rule_key(b["number"]))


def _pack(model: dict[str, Any], groups: list[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """First fit, in order of priority, into the two columns of as many cards as it takes;
    each column then lists its blocks in rule order."""
    titles = {c["number"]: c["title"] for c in model["clauses"]}
    chapters = chapter_titles(model)
    found = [(sec, b) for sec, bs in groups for b in bs]
    cards: list[list[list[tuple[str, dict[str, Any]]]]] = []
    heights: list[list[int]] = []  # of each card's columns, kept as blocks go in (not summed each time)
    # Cards that may still take a block: one whose columns are all too full for the smallest block
    # is never looked at again (every block tried every card made packing quadratic).
    smallest = min((b["est"] + BLOCK_GAP for _, b in found), default=0)
    open_cards: list[int] = []
    for sec, b in sorted(found, key=lambda sb: _priority(sb[1])):
        need = b["est"] + BLOCK_GAP
        for n in open_cards:
            used = heights[n]
            i = 0 if used[0] + need <= COLUMN_HEIGHT else 1 if used[1] + need <= COLUMN_HEIGHT else None
            if i is not None:
                cards[n][i].append((sec, b))
                used[i] += need
                if min(used) + smallest > COLUMN_HEIGHT:
                    open_cards.remove(n)
                break
        else:
            cards.append([[(sec, b)], []])
            heights.append([need, 0])
            open_cards.append(len(cards) - 1)
    for columns in cards:
        for col in columns:
            col.sort(key=lambda sb: (sb[1]["number"] is None, rule_key(sb[1]["number"] or "0.0")))
    out = [_card([c for c in columns if c], titles, chapters) for columns in cards]
    for i, card in enumerate(out, 1):
        card["index"] = i
        card["count"] = len(out)
        card["name"] = f"card-{i}"
    return out


def _card(columns: list[list[tuple[str, dict[str, Any]]]], titles: dict[str, str | None],
          chapters: dict[str, str]) -> dict[str, Any]:
    secs: list[str] = []
    for col in columns:
        for sec, _ in col:
            if sec != "changes" and sec not in secs:
                secs.append(sec)
    secs.sort(key=rule_key)
    chs: list[str] = []
    for sec in secs:
        # A chapter is named by its heading clause, numbered 'N.0' (OCS style) or 'N'; a chapter
        # the rules give no heading is left out of the title rather than named after its first clause.
        ch = chapter_of(sec)
        head = next((n for n in (f"{ch}.0", ch) if titles.get(n)), None)
        if head is None:
            continue
        name = f"{head} {titles[head]}"
        if name not in chs:
            chs.append(name)
    if not chs and secs:
        chs = [f"Rules {secs[0]}–{secs[-1]}" if len(secs) > 1 else f"Rule {secs[0]}"]
    cols = [[b for _, b in col] for col in columns]
    return {"title": " · ".join(chs) if chs else "Changes",
            "topics": [{"number": sec, "title": titles.get(sec)} for sec in secs],
            "columns": cols, "blocks": [b for col in cols for b in col],
            "est": max(sum(b["est"] + BLOCK_GAP for b in col) for col in cols)}


def _games_of(models: dict[str, dict[str, Any]], series: str) -> list[dict[str, Any]]:
    out = []
    for m in models.values():
        man = m["manifest"]
        if man["game"] is not None and man["scenario"] is None and not man["options"] \
                and man["series"] is not None and man["series"]["name"] == series:
            out.append(m)
    return sorted(out, key=lambda m: str(m["manifest"]["game"]["name"]))


def matrix(models: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """For each series, a row for every clause some game of it changes and a column per game."""
    out = []
    for s in sorted(models.values(), key=lambda m: str(m["manifest"]["ruleset"])):
        man = s["manifest"]
        if man["layers"] != [man["series"]["name"] if man["series"] else None]:
            continue
        games = _games_of(models, man["series"]["name"])
        targets: dict[str, dict[str, Any]] = {}
        for g in games:
            for ov in g["overrides"]:
                targets.setdefault(target_label(ov["target"]), ov["target"])
        rows = []
        for key in sorted(targets, key=lambda k: (rule_key(targets[k]["number"]), k)):
            t = targets[key]
            cells = []
            for g in games:
                hit = any(target_label(ov["target"]) == key for ov in g["overrides"])
                cells.append({"changed": hit, "text": describe(g, t) if hit else ""})
            rows.append({"key": key, "number": t["number"], "series": describe(s, t), "cells": cells})
        out.append({"name": man["series"]["name"], "title": man["series"]["title"], "version": man["series"]["version"],
                    "games": [{"name": g["manifest"]["game"]["name"], "title": g["manifest"]["game"]["title"],
                               "version": g["manifest"]["game"]["version"], "changes": len(g["overrides"])}
                              for g in games],
                    "rows": rows})
    return out


__all__ = ["cards", "changes", "describe", "manifest_line", "number_words", "target_label"]
