"""What a sheet or card shows, read off the resolved models: plain data for the templates and exports.

Nothing here knows a game.  Which blocks a card holds follows from the kinds of
declarations in the typed model: a list whose values carry settings becomes a table with a
column per setting (a mark for yes/no, a number or fraction, a signed modifier, a
value of another list), a table becomes a value table, a `limits` group a list of
caps with their exceptions, and a titled clause that defines a true/false test of
a unit or hex, or works something out from the game's state or values, a
definition: its text, with what it computes (named numbers, and definitions in
words, or by their title when too long to read).  Blocks are grouped by rule
section and packed onto as many one-page cards as they need.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .. import model as m
from .. import papers
from ..interp import item_exprs
from ..model import target_label
from ..types import BoolT, EnumT, IntT, NumberT, RecordT, Type
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
    remember,
    rule_key,
    section_of,
)


class _HasName(Protocol):
    @property
    def name(self) -> str: ...


_Named = TypeVar("_Named", bound=_HasName)

# Block heights are estimated in CSS pixels (96 per inch) of the card's 8.4pt type,
# measured once in Chromium: a heading bar, a line of text, a table row.  A card has
# two columns about 900 px tall (259 mm less header and footer); blocks are packed
# into them in rule order, up to COLUMN_HEIGHT each, so every card prints on one page.
COLUMN_HEIGHT = 810
BLOCK_GAP = 12  # the 3 mm below every block
CHARS_PER_LINE = 72
HEAD, LINE, ROW = 28, 13, 20


def layer_label(model: m.Resolved, layer: str) -> str:
    return layer


def _layer_line(kind: str, lay: m.LayerRef) -> dict[str, Any]:
    return {"kind": kind, "name": lay.name, "title": lay.title, "version": lay.version}


def manifest_line(model: m.Resolved) -> dict[str, Any]:
    """The ruleset manifest as the header of every sheet and card shows it."""
    mf = model.manifest
    parts = [_layer_line(kind, lay) for kind, lay in (("series", mf.series), ("game", mf.game),
                                                       ("scenario", mf.scenario)) if lay is not None]
    options = [{"name": o.name, "title": o.title, "version": o.version} for o in mf.options]
    return {"ruleset": mf.ruleset, "title": mf.title, "layers": parts, "options": options}


def bool_attrs(enum: m.EnumDef) -> list[m.EnumAttr]:
    return [a for a in enum.attrs if isinstance(a.t, BoolT)]


def mark_label(attr: m.EnumAttr) -> str:
    """The short name of a true/false setting: the words before ':' in its title ('<Negation>')."""
    title = str(attr.title or attr.name)
    return title.split(":")[0].strip() or str(attr.name)


def plain_label(attr: m.EnumAttr) -> str:
    """The setting's name as a word: '<Negation>' -> 'negation'."""
    return mark_label(attr).strip("<>").strip().lower()


def attr_value(member: m.EnumMember, name: str) -> m.Value:
    """A list value's setting (every value has every setting of its list)."""
    return next(v.value for n, v in member.attrs if n == name)


def notes_view(notes: tuple[m.Note, ...]) -> list[dict[str, Any]]:
    """Notes as sheets and cards show them; encoding notes are for traceability.md only."""
    return [{"label": n.label, "text": n.text} for n in notes if n.kind != "encoding"]


# ---- which model came before a layer ---------------------------------------------------


def model_before(models: Mapping[str, m.Resolved], model: m.Resolved, layer: str) -> m.Resolved | None:
    """The model built from the layers below `layer` in this model's chain (the series under a game)."""
    chain = model.manifest.layers
    if layer not in chain:
        return None
    prefix = chain[:chain.index(layer)]
    for other in models.values():
        if other.manifest.layers == prefix:
            return other
    return None


# ---- items a change can target, and what they say ----------------------------------------

Targeted = m.Clause | m.EnumMember | m.ConstDef | m.Define | m.Table | m.Row | m.Limit


@dataclass(frozen=True)
class _ByName:
    """The first clause of each number and the first item of each name, kind by kind."""

    clauses: dict[str, m.Clause]
    enums: dict[str, m.EnumDef]
    consts: dict[str, m.ConstDef]
    defines: dict[str, m.Define]
    tables: dict[str, m.Table]
    limits: dict[str, m.Limits]


def _first(items: tuple[_Named, ...]) -> dict[str, _Named]:
    out: dict[str, _Named] = {}
    for item in items:
        out.setdefault(item.name, item)
    return out


def _items_by_name(model: m.Resolved) -> _ByName:
    clauses: dict[str, m.Clause] = {}
    for c in model.clauses:
        clauses.setdefault(c.number, c)
    return _ByName(clauses, _first(model.enums), _first(model.consts), _first(model.defines),
                   _first(model.tables), _first(model.limits))


def find_target(model: m.Resolved, target: m.Target) -> Targeted | None:
    first = per_model(model, "items by name", _items_by_name)
    match target:
        case m.ClauseTarget(number):
            return first.clauses.get(number)
        case m.MemberTarget(_, enum, member):
            e = first.enums.get(enum)
            return None if e is None else next((mb for mb in e.members if mb.name == member), None)
        case m.NameTarget("const", _, name):
            return first.consts.get(name)
        case m.NameTarget("define", _, name):
            return first.defines.get(name)
        case m.NameTarget("table", _, name):
            return first.tables.get(name)
        case m.RowTarget(_, table, row):
            t = first.tables.get(table)
            return None if t is None else next((r for r in t.rows if r.label == row and not r.exception), None)
        case m.LimitTarget(_, limits, limit):
            g = first.limits.get(limits)
            return None if g is None else next((i for i in g.items if i.name == limit), None)
    return None


def describe(model: m.Resolved, target: m.Target, pretty: bool = False) -> str:
    """What the targeted item says in this model: as rule sheets list it (a definition as written,
    for the designer), or with pretty, as a card says it to players (a definition in words)."""
    item = find_target(model, target)
    if item is None:
        return "(not in these rules)"
    words = Words(model)
    match item:
        case m.EnumMember():
            assert isinstance(target, m.MemberTarget)
            enum = next(e for e in model.enums if e.name == target.enum)
            values = dict(item.attrs)
            parts = [str(item.title or item.name)]
            for a in enum.attrs:
                found = values.get(a.name)
                v = None if found is None else found.value
                if isinstance(a.t, BoolT):
                    parts.append(f"{mark_label(a)}: {'yes' if v else 'no'}")
                else:
                    parts.append(f"{a.title or a.name}: {v}")
            return "; ".join(parts + [flat(t) for t in item.texts])
        case m.Clause():
            head = " ".join(x for x in (item.number, item.title) if x)
            return head + (": " + " ".join(flat(t) for t in item.texts) if item.texts else "")
        case m.Row():
            return f"{item.title or item.label}: {words.value(item.value, pretty=pretty)}"
        case m.Limit():
            return f"{item.title or item.name}: at most {words.value(item.bound, pretty=pretty)}"
        case m.ConstDef():
            return f"{item.title or item.name} = {words.value(item.value, pretty=pretty)}"
        case m.Define():  # a yes/no test: 'Moves: mode = Move' (not 'Moves = mode = Move'), 'May it ...? no'
            head = str(item.title or item.name)
            sep = " = " if not isinstance(item.returns, BoolT) else " " if head.endswith("?") else ": "
            only = _only_where(item, words, pretty)
            return f"{head}{sep}{words.expr(item.body, pretty=pretty)}" + (f" ({only})" if only else "")
        case m.Table():  # what a table's own override changes: what it requires
            return f"{item.title or item.name}: {_only_where(item, words, pretty) or 'every input'}"


def _only_where(item: m.Define | m.Table, words: Words, pretty: bool) -> str | None:
    """'only where ...': what a definition or table requires, in its words where it has them."""
    if item.requires is None:
        return None
    return f"only where {item.requires_says or words.expr(item.requires, pretty=pretty)}"


def player_label(model: m.Resolved, target: m.Target) -> str:
    """How a card names what a change targets: its rule number, with a list value's letter code where
    the rulebook prints one (4.5a F) or its title, and a row's table or a limit's group by its title;
    never the rules' own spelling of it (4.6 re_size.battalion). What it was and is (describe) opens
    with the item's own title."""
    first = per_model(model, "items by name", _items_by_name)
    group: m.Table | m.Limits | None = None
    match target:
        case m.MemberTarget(number, _, member):
            found = find_target(model, target)
            short = "_" not in member and len(member) <= 3
            return f"{number} {member if short or found is None else found.title or member}"
        case m.RowTarget(_, table, _):
            group = first.tables.get(table)
        case m.LimitTarget(_, limits, _):
            group = first.limits.get(limits)
    return f"{target.number} {group.title}" if group is not None and group.title else target.number


def changes(models: Mapping[str, m.Resolved], model: m.Resolved) -> list[dict[str, Any]]:
    """Every override in force in this model, with the text before it (the series') beside its own,
    as a card shows them to players."""
    mf = model.manifest
    titles = {ref.name: ref.title for ref in (mf.series, mf.game, mf.scenario, *mf.options) if ref is not None}
    several = len({ov.origin.layer for ov in model.overrides}) > 1  # each change then says whose it is
    chain = mf.layers
    out = []
    for ov in model.overrides:
        layer = ov.origin.layer
        before = model_before(models, model, layer)
        # what this layer made it: a later layer may change it again, in a row of its own
        later = chain[chain.index(layer) + 1:] if layer in chain else ()
        made = (model_before(models, model, later[0]) if later else None) or model
        out.append({
            "key": target_label(ov.target),  # the designer's name for it, for tools (data-key)
            "label": player_label(model, ov.target),
            "by": titles.get(layer, layer) if several else None,
            "number": ov.target.number,
            "layer": layer,
            "base_layer": ov.of_layer,
            "before": describe(before, ov.target, pretty=True) if before is not None else "(not built on its own)",
            "after": describe(made, ov.target, pretty=True),
            "notes": notes_view(ov.notes),
            "source": f"{ov.origin.file}:{ov.origin.line}",
            "written_in": ov.origin.clause,
        })
    return sorted(out, key=lambda c: (rule_key(c["number"]), c["key"]))


# ---- what each layer changes: the index's "What X changes" and the matrix ------------------------
#
# Every layer above the series (a game, a scenario, an option) changes the rules beneath it in five
# ways, each found in the resolved model by the layer its item comes from: an override (of a clause,
# a list value, a const, a definition, a table row, a limit), an exception row (`except TABLE`), an
# exception to a limit or to a whole limits group (`except LIMITS.LIMIT when ...`), and a clause of
# its own.  Each change is listed with the rule it is cited by, what the rules beneath said, what
# they say now, the notes the designer wrote and where it is written.

_KIND_ORDER = {"override": 0, "exception row": 1, "limit exception": 2, "added clause": 3}


def change_heading(layer: str) -> str:
    """The heading of a layer's changes on the index page (links.py reads the page's anchors off it)."""
    return f"What {layer} changes"


def changing_layers(model: m.Resolved) -> list[dict[str, Any]]:
    """The layers of a model above its series, in order, each with its kind and the layer beneath it."""
    mf = model.manifest
    refs = [("series", mf.series), ("game", mf.game), ("scenario", mf.scenario), *(("option", o) for o in mf.options)]
    by_name = {ref.name: (kind, ref) for kind, ref in refs if ref is not None}
    out = []
    for i, name in enumerate(mf.layers[1:], 1):
        kind, ref = by_name.get(name, ("layer", m.LayerRef(name, name, None)))
        below = mf.layers[i - 1]
        out.append({"name": name, "kind": kind, "title": ref.title, "version": ref.version,
                    "heading": change_heading(name), "below": below,
                    "below_kind": by_name.get(below, ("layer", None))[0], "beneath": list(mf.layers[:i])})
    return out


def said(model: m.Resolved | None, change: dict[str, Any], layers: str) -> str:
    """What `model` (the rules beneath a change) says of what the change targets: a clause, list
    value, const, definition, row or limit, or (an exception to a whole limits group) every limit
    of the group."""
    if model is None:
        return "(not built on its own)"
    target = change["target"]
    if isinstance(target, m.LimitTarget) and not target.limit:
        group = next((g for g in model.limits if g.name == target.limits), None)
        if group is None:
            return f"(not in {layers})"
        return "; ".join(describe(model, m.LimitTarget(target.number, group.name, i.name)) for i in group.items)
    if find_target(model, target) is None:
        return f"(not in {layers})"
    return describe(model, target)


def layer_changes(models: Mapping[str, m.Resolved], model: m.Resolved, layer: str) -> list[dict[str, Any]]:
    """Every change `layer` makes in this model, in rule order: overrides, exception rows, exceptions
    to limits, and the clauses the layer adds.  Each has the rule number it is listed and linked by,
    a key naming what it changes ('4.5a F', '4.6 re_size.jock_column'), its kind ('override' ...),
    the clause it is written in when that is another, what the rules beneath said and what this
    model says, the designer's notes, and its source line."""
    before = model_before(models, model, layer)
    chain = model.manifest.layers
    beneath = ", ".join(chain[:chain.index(layer)]) if layer in chain else ""
    words = Words(model)
    out: list[dict[str, Any]] = []

    def add(kind: str, target: m.Target, after: str, notes: list[dict[str, Any]], origin: m.Origin,
            written_in: str | None) -> None:
        number = target.number
        key = f"{number} {target.limits}" if isinstance(target, m.LimitTarget) and not target.limit \
            else target_label(target)
        change = {"kind": kind, "key": key.strip(), "number": number, "target": target, "layer": layer,
                  "in": written_in if written_in and written_in != number else None,
                  "after": after, "notes": notes, "source": f"{origin.file}:{origin.line}"}
        change["before"] = said(before, change, beneath)
        out.append(change)

    for ov in model.overrides:
        if ov.origin.layer == layer:
            add("override", ov.target, describe(model, ov.target), notes_view(ov.notes), ov.origin, ov.clause)
    for t in model.tables:
        if t.origin.layer == layer:
            continue  # the layer's own table: its rows are no change of the rules beneath
        for r in t.rows:
            if r.exception and r.origin.layer == layer:
                cond = "" if r.when is None else f" when {words.expr(r.when)}"
                add("exception row", m.RowTarget(t.origin.clause or "", t.name, r.label),
                    f"{r.label}: {words.value(r.value, pretty=False)}{cond} (ahead of the table's own rows)",
                    [{"label": "", "text": r.title}] if r.title else [], r.origin, r.origin.clause)
    for g in model.limits:
        if g.origin.layer == layer:
            continue
        number = g.origin.clause or ""
        for u in g.unless:
            if u.origin.layer == layer:
                add("limit exception", m.LimitTarget(number, g.name, ""),
                    f"{g.title or g.name}: no limit applies when {words.expr(u.cond)}",
                    [{"label": "", "text": u.title}] if u.title else [], u.origin, u.origin.clause)
        for item in g.items:
            for x in item.exempt:
                if x.origin.layer == layer:
                    add("limit exception", m.LimitTarget(number, g.name, item.name),
                        f"{item.title or item.name}: does not apply when {words.expr(x.cond)}",
                        [{"label": "", "text": x.title}] if x.title else [], x.origin, x.origin.clause)
    for c in model.clauses:
        if c.origin.layer == layer:
            add("added clause", m.ClauseTarget(c.number), describe(model, m.ClauseTarget(c.number)),
                notes_view(c.notes), c.origin, None)
    return sorted(out, key=lambda c: (rule_key(c["number"] or "0"), c["key"], _KIND_ORDER[c["kind"]],
                                      c["source"]))


def layer_change_groups(models: Mapping[str, m.Resolved], model: m.Resolved) -> list[dict[str, Any]]:
    """The index page's change sections: one per layer above the series, with its changes."""
    return [{**lay, "changes": layer_changes(models, model, lay["name"])} for lay in changing_layers(model)]


# ---- links between rules ---------------------------------------------------------------


def chapter_titles(model: m.Resolved) -> dict[str, str]:
    """Each chapter's title: its N.0 clause's, else its first clause's."""
    titles: dict[str, str] = {}
    for c in sorted(model.clauses, key=lambda c: rule_key(c.number)):
        ch = chapter_of(c.number)
        if c.number == f"{ch}.0" and c.title:
            titles[ch] = c.title
        titles.setdefault(ch, c.title or f"Chapter {ch}")
    return titles


def anchors(model: m.Resolved) -> dict[str, tuple[str, str]]:
    """Rule number -> (chapter, the id of the heading it sits under on the chapter's page)."""
    return per_model(model, "anchors", _anchors)


def _anchors(model: m.Resolved) -> dict[str, tuple[str, str]]:
    by_number = {c.number: c for c in model.clauses}
    out = {}
    for number in by_number:
        ch = chapter_of(number)
        sec = section_of(number)
        head = by_number.get(sec)
        if head is None or sec == f"{ch}.0":
            out[number] = (ch, "")
        else:
            out[number] = (ch, hugo_anchor(f"{sec} {head.title or ''}"))
    return out


class Links(Mapping[str, str]):
    """Rule number -> link, as seen from chapter page `here` (None: from outside the chapter pages).
    Each link is worked out when a text asks for it: a whole table for every page made the sheets
    quadratic in the number of clauses."""

    def __init__(self, model: m.Resolved, pages: dict[str, str], here: str | None):
        self.model = model
        self.externals: dict[str, str] = {e.number: e.url for e in model.externals}
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

    def render_key(self) -> str:
        """Everything a page can read through these links, for the key of its rendered text
        (sheets.render): the model's numbering (digested once per model), the pages and `here`."""
        numbering = per_model(self.model, "links_digest", lambda model: hashlib.sha256(json.dumps(
            [self.externals, anchors(model)], sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")
        ).hexdigest())
        return json.dumps([numbering, self.pages, self.here], sort_keys=True, ensure_ascii=False)


def link_table(model: m.Resolved, pages: dict[str, str], here: str | None) -> Links:
    return Links(model, pages, here)


def cited(item: m.Clause | m.EnumMember, text: str) -> list[str]:
    """The rules an item's `see` names that its text does not already cite (shown as 'See ...')."""
    in_text = set(RULE_NUMBER.findall(text))
    return [r.number for r in item.see if r.number not in in_text]


# ---- cards ---------------------------------------------------------------------------


def _lines(text: str, width: int = CHARS_PER_LINE) -> int:
    return max(1, -(-len(text) // width))


def _head(number: str | None, title: str | None, subtitle: str | None = None) -> int:
    """A heading bar, taller by a line for every line its title and subtitle wrap to."""
    text = " ".join(x for x in (number, title, subtitle) if x)
    return HEAD + 18 * (_lines(text, 50) - 1)


def _changed(item: m.Clause | m.EnumMember | m.ConstDef | m.Define | m.Row | m.Limit) -> list[dict[str, Any]]:
    return [{"layer": o.layer, "notes": notes_view(o.notes)} for o in item.overridden_by]


Declaration = m.Define | m.Table | m.Limits | m.ConstDef


def _exprs(d: Declaration) -> list[m.Expr]:
    """Every expression inside a declaration."""
    return [n for e in item_exprs(d) for n in m.walk(e)]


def _declarations(model: m.Resolved) -> list[tuple[str, Declaration]]:
    """(clause, declaration) for everything a clause declares that the rules compute with, in rule order."""
    return per_model(model, "declarations", _sorted_declarations)


def _sorted_declarations(model: m.Resolved) -> list[tuple[str, Declaration]]:
    out: list[tuple[str, Declaration]] = []
    for kind in (model.defines, model.tables, model.limits, model.consts):
        for d in kind:
            if d.origin.clause:
                out.append((d.origin.clause, d))
    return sorted(out, key=lambda cd: rule_key(cd[0]))


def list_clause(model: m.Resolved, enum: m.EnumDef) -> str | None:
    """The clause a list is cited by on a card (see _list_clause)."""
    known: dict[str, str | None] = per_model(model, "list clauses", lambda _: {})
    if enum.name not in known:
        known[enum.name] = _list_clause(model, enum)
    return known[enum.name]


def _list_clause(model: m.Resolved, enum: m.EnumDef) -> str | None:
    """The clause a list is cited by on a card: the clause it is declared in.

    A list declared outside the printed clauses (series vocabulary: unit types, in external 3.3) is
    cited by the first clause, in rule order, whose definitions read one of its settings:
    that is where a player meets the numbers (a ZOC class's supply multiplier is looked up
    for the combat-supply rule).  Failing that, by the first clause that uses the list at all;
    a list no clause uses is not on a card.  Citing the layer instead would leave the table
    outside the rule sections a card is packed by."""
    own = printed_clause(model, enum)
    if own:
        return own
    name = enum.name
    used = None
    for number, d in _declarations(model):
        for n in _exprs(d):
            if isinstance(n, m.Attr) and n.enum == name:
                return number
            if used is None and (isinstance(n, m.Member) and n.enum == name
                                 or isinstance(n.t, EnumT) and n.t.name == name):
                used = number
        params = () if isinstance(d, m.ConstDef) else d.params
        if used is None and any(str(p.t).endswith(f"enum {name}") for p in params):
            used = number
    return used


def _words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def keys_say_more(enum: m.EnumDef) -> bool:
    """Whether a list's value names tell a player more than its titles: letter codes ('A', 'F', 'B1')
    do, as the rulebook prints them; a name written the rules' way ('combat_cost', 'no_effect') never
    does, as a player reads the title beside it. When every name only repeats its title ('no_zoc'
    for 'No ZOC'), the card leaves the name column out."""
    if any("_" in mb.name or len(mb.name) > 3 for mb in enum.members):
        return False
    for mb in enum.members:
        title = _words_of(str(mb.title or ""))
        for part in _words_of(mb.name):
            if not any(w.startswith(part) or part.startswith(w) for w in title if min(len(w), len(part)) >= 2
                       or w == part):
                return True
    return False


def signed_column(values: list[Any]) -> bool:
    return any(isinstance(v, int) and not isinstance(v, bool) and v < 0 for v in values)


def setting_words(words: Words, attr: m.EnumAttr, value: Any, signed: bool) -> str:
    """A list value's setting as a card shows it: ½, +1 / −2 (a column with minus signs), a value's title."""
    t = attr.t
    if value is None:
        return "—"
    if isinstance(t, IntT):
        v = int(value)
        return (f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0") if signed else str(v)
    if isinstance(t, NumberT):
        return number_words(value, pretty=True)
    if isinstance(t, EnumT):
        return words.member(t.name, str(value))
    return str(value)


def setting_label(attr: m.EnumAttr) -> str:
    """A column head for a setting: the words before ':' in its title, else its name in words."""
    if isinstance(attr.t, BoolT):
        return mark_label(attr)
    title = str(attr.title or "")
    if ":" in title and title.split(":")[0].strip():
        return title.split(":")[0].strip()
    name = str(attr.name).replace("_", " ")
    return name[:1].upper() + name[1:]


def printed_clause(model: m.Resolved, enum: m.EnumDef) -> str | None:
    """The clause of these sheets a list is declared in; None for one declared outside every clause
    or in an `external` one (3.3's unit types: the sheets do not print that clause)."""
    clause = enum.origin.clause
    if clause is None or clause in per_model(model, "externals", lambda x: {e.number for e in x.externals}):
        return None
    return str(clause)


def shows_list(model: m.Resolved, enum: m.EnumDef) -> bool:
    """A list is a card table when its values carry settings and have titles; one declared outside
    the printed clauses (series vocabulary) only when a setting is a number or a value of another
    list: yes/no classes of the vocabulary ('a combat unit') are stated by the clause that reads them."""
    if not enum.attrs or not any(mb.title for mb in enum.members):
        return False
    return bool(printed_clause(model, enum)) or any(not isinstance(a.t, BoolT) for a in enum.attrs)


def mark_tables(model: m.Resolved, before: m.Resolved | None) -> list[dict[str, Any]]:
    """A table per list whose values carry settings: a column per setting (marks for yes/no)."""
    clauses = {c.number: c for c in model.clauses}
    words = Words(model)
    out = []
    texts_shown: set[str] = set()
    for enum in model.enums:
        if not shows_list(model, enum):
            continue
        number = list_clause(model, enum)
        if number is None:
            continue
        attrs = enum.attrs
        clause = clauses.get(number)
        old = _old_members(before, enum.name)
        signed = {a.name: signed_column([attr_value(mb, a.name) for mb in enum.members]) for a in attrs}
        rows: list[dict[str, Any]] = []
        for mb in enum.members:
            values = {n: v.value for n, v in mb.attrs}
            cells = []
            for a in attrs:
                raw = values[a.name]
                was_raw = old.get(mb.name, {}).get(a.name, raw)
                if isinstance(a.t, BoolT):
                    cells.append({"name": a.name, "label": mark_label(a), "kind": "mark", "value": bool(raw),
                                  "was": bool(was_raw), "changed": bool(was_raw) != bool(raw),
                                  "data": "true" if raw else "false"})
                else:
                    text = setting_words(words, a, raw, signed[a.name])
                    cells.append({"name": a.name, "label": setting_label(a), "kind": "value", "value": text,
                                  "was": setting_words(words, a, was_raw, signed[a.name]),
                                  "changed": was_raw != raw, "data": "" if raw is None else str(raw)})
            notes = notes_view(tuple(n for n in mb.notes if n.layer))
            rows.append({"key": mb.name, "rule": f"{number} {mb.name}", "title": mb.title or mb.name,
                         "cells": cells, "marks": [c for c in cells if c["kind"] == "mark"],
                         "changed": _changed(mb), "notes": notes, "see": [r.number for r in mb.see]})
        # The clause's text and what it computes open the first table of the clause (and the clause
        # then has no separate definition block).
        first = number not in texts_shown
        texts_shown.add(number)
        intro = flat(" ".join(clause.texts if clause is not None else ())) if first else ""
        formulas = clause_formulas(model, number) if first else []
        columns: list[dict[str, Any]] = [
            {"name": a.name, "label": setting_label(a), "kind": "mark" if isinstance(a.t, BoolT) else "value",
             "numeric": isinstance(a.t, (IntT, NumberT))} for a in attrs]
        legend: list[dict[str, Any]] = [
            {"kind": "mark" if isinstance(a.t, BoolT) else "value", "label": setting_label(a),
             "not": lower_first(setting_label(a)), "text": a.title or a.name} for a in attrs
            if isinstance(a.t, BoolT) or (a.title and a.title != setting_label(a))]
        show_keys = keys_say_more(enum)
        title_width = 48 if show_keys else 60
        value_cols = sum(1 for a in attrs if not isinstance(a.t, BoolT))
        header = max(_lines(c["label"], 8) for c in columns) - 1  # long column names wrap in the header
        legend_text = "; ".join(f"{x['label']}: {x['text']}" for x in legend)
        clause_title = clause.title if clause is not None else None
        est = (_head(number, clause_title or enum.title) + LINE * (_lines(intro) if intro else 0)
               + 20 + LINE * header + (LINE * _lines(legend_text, 75) if legend else 0)
               + sum(ROW + LINE * (_lines(r["title"], title_width - 8 * value_cols) - 1
                                   + sum(_lines(n["text"], 45) for c in r["changed"] for n in c["notes"]))
                     for r in rows)
               + formulas_height(formulas))
        out.append({"kind": "marks", "number": number, "name": enum.name, "title": clause_title, "origin": enum.origin,
                    "subtitle": enum.title, "intro": intro, "show_keys": show_keys,
                    "declared": bool(enum.origin.clause), "legend": legend,
                    "columns": columns, "rows": rows, "formulas": formulas, "est": est})
    return out


def _old_members(before: m.Resolved | None, enum: str) -> dict[str, dict[str, Any]]:
    if before is None:
        return {}
    for e in before.enums:
        if e.name == enum:
            return {mb.name: {k: v.value for k, v in mb.attrs} for mb in e.members}
    return {}


def _clause_title(clauses: dict[str, m.Clause], number: str) -> str | None:
    clause = clauses.get(number)
    return None if clause is None else clause.title


def size_tables(model: m.Resolved) -> list[dict[str, Any]]:
    """A block per table of a clause: its rows in words, each with its value (made once per model;
    the callers copy a block before they add to it)."""
    return per_model(model, "size tables", _size_tables)


def _size_tables(model: m.Resolved) -> list[dict[str, Any]]:
    words = Words(model)
    ill = illustrative_clauses(model)
    clauses = {c.number: c for c in model.clauses}
    out = []
    for t in model.tables:
        number = t.origin.clause
        if not number:
            continue
        rows: list[dict[str, Any]] = []
        for r in t.rows:
            cond = words.expr(r.when) if r.when is not None else "otherwise"
            const = r.value.v if isinstance(r.value, m.Lit) and isinstance(t.returns, BoolT) else None
            value = r.says or words.value(r.value)  # `says "..."`: the designer's phrase for it
            rows.append({"key": r.label, "rule": r.origin.clause or number,
                         "illustrative": (r.origin.clause or number) in ill,
                         "title": r.title or cond, "value": value, "yes": const,
                         "long": const is None and len(value) > LONG_VALUE,
                         "plain_value": words.value(r.value, pretty=False), "exception": r.exception,
                         "changed": _changed(r)})
        requires = None if t.requires is None else t.requires_says or words.expr(t.requires)  # the inputs it answers
        est = _head(number, _clause_title(clauses, number), t.title or t.name) + (ROW if requires else 0) + sum(
            ROW + LINE * (max(_lines(r["title"], 30), _lines(r["value"], 26)) - 1 if r["long"]
                          else _lines(r["title"], max(24, 64 - int(1.4 * len(r["value"])))) - 1) for r in rows)
        out.append({"kind": "sizes", "number": number, "name": t.name, "origin": t.origin,
                    "numeric": isinstance(t.returns, (IntT, NumberT)), "lookup": isinstance(t.returns, EnumT),
                    "title": _clause_title(clauses, number),
                    "subtitle": t.says or t.title or t.name, "rows": rows, "est": est,
                    **({"requires": requires} if requires else {})})  # the inputs it answers, where it says
    return out


def limit_lists(model: m.Resolved) -> list[dict[str, Any]]:
    """A block per group of caps of a clause (made once per model, as size_tables)."""
    return per_model(model, "limit lists", _limit_lists)


def _limit_lists(model: m.Resolved) -> list[dict[str, Any]]:
    words = Words(model)
    ill = illustrative_clauses(model)
    clauses = {c.number: c for c in model.clauses}
    out = []
    for g in model.limits:
        number = g.origin.clause
        if not number:
            continue

        def cond(c: m.Condition, number: str = number) -> dict[str, Any]:
            return {"text": c.title or words.expr(c.cond), "rule": c.origin.clause or number,
                    "illustrative": (c.origin.clause or number) in ill}

        items: list[dict[str, Any]] = [{"key": i.name, "rule": i.origin.clause or number, "title": i.title or i.name,
                  "illustrative": (i.origin.clause or number) in ill,
                  "bound": i.says or words.value(i.bound), "plain_bound": words.value(i.bound, pretty=False),
                  "exempt": [cond(x) for x in i.exempt], "changed": _changed(i)} for i in g.items]
        unless: list[dict[str, Any]] = [cond(u) for u in g.unless]
        est = _head(number, _clause_title(clauses, number), g.title or g.name) + sum(
            LINE + 3 + LINE * (_lines(u["text"]) - 1) for u in unless) + sum(
            ROW + LINE * sum(_lines(x["text"], 55) for x in i["exempt"]) for i in items)
        out.append({"kind": "limits", "number": number, "name": g.name, "origin": g.origin,
                    "title": _clause_title(clauses, number), "subtitle": g.title or g.name,
                    "unless": unless, "items": items, "est": est})
    return out


def _tests(model: m.Resolved) -> list[str | None]:
    """The clause of every true/false test of a unit or hex: definitions, tables and their rows."""
    out: list[str | None] = []
    tests: tuple[m.Define | m.Table, ...] = (*model.defines, *model.tables)
    for d in tests:
        if isinstance(d.returns, BoolT) and any(isinstance(p.t, RecordT) for p in d.params):
            out.append(d.origin.clause)
            if isinstance(d, m.Table):
                out += [r.origin.clause for r in d.rows]
    return out


def _game_valued(t: Type) -> bool:
    """A parameter type that is game state or a game's values: a record, a list value, or lists of them."""
    text = str(t)
    return "record " in text or "enum " in text


def _shown_consts(model: m.Resolved) -> frozenset[str]:
    """Named numbers a table or a cap already shows (the 10 of 'at most 10 RE'). Every clause asks."""
    return per_model(model, "shown constants", _consts_shown)


def _consts_shown(model: m.Resolved) -> frozenset[str]:
    shown: tuple[m.Table | m.Limits, ...] = (*model.tables, *model.limits)
    return frozenset(n.name for d in shown for n in _exprs(d) if isinstance(n, m.Const))


def _lookups(model: m.Resolved) -> list[str]:
    """Clauses with something a player works out at the table: a definition over the game's state or
    values (a stack, a unit, a ZOC class, a list of modifiers), or a named number of its own."""
    shown = _shown_consts(model)
    out = [d.origin.clause for d in model.defines
           if d.origin.clause and any(_game_valued(p.t) for p in d.params)]
    out += [c.origin.clause for c in model.consts
            if c.origin.clause and c.title and c.name not in shown]
    return out


FORMULA_WORDS = 130  # longer than this, a definition is shown by its title (the clause text says it)
LONG_VALUE = 28  # a value longer than this wraps in its own wider column


def clause_formulas(model: m.Resolved, number: str) -> list[dict[str, Any]]:
    """What a clause computes, one line each: its named numbers with their values, and its definitions
    of a number or a value in words (a yes/no test only with its `says` phrase: without one, the
    clause's text states it).  A sum of counted
    conditions lists the conditions; a definition too long to read in words shows its title only.
    Made once per model for every clause (a card asks for each clause's)."""
    return list(per_model(model, "formulas", _all_formulas).get(number, []))


def _all_formulas(model: m.Resolved) -> dict[str, list[dict[str, Any]]]:
    consts, defines = _by_clause(model)
    numbers = [n for n in {**consts, **defines} if n is not None]
    return {n: found for n in numbers if (found := _clause_formulas(model, n))}


def _clause_formulas(model: m.Resolved, number: str) -> list[dict[str, Any]]:
    words = Words(model)
    conditions = Words(model, field_titles=True)
    shown = _shown_consts(model)
    consts, defines = _by_clause(model)
    out: list[dict[str, Any]] = []
    for c in consts.get(number, []):
        if c.title and c.name not in shown:
            value = c.says or words.value(c.value)
            out.append({"key": c.name, "title": c.title, "value": value, "items": [],
                        "long": len(value) > LONG_VALUE, "changed": _changed(c)})
    for d in defines.get(number, []):
        if isinstance(d.returns, BoolT) and not d.says:
            continue
        items = [] if d.says else conditions.outline(d.body) or []
        value = d.says or ("" if items else words.expr(d.body))
        if len(value) > FORMULA_WORDS and not d.says:
            value = ""
        if d.requires is not None:  # the inputs it answers, as a table's card says them
            items = [*items, f"Only where {d.requires_says or words.expr(d.requires)}"]
        out.append({"key": d.name, "title": d.title or d.name.replace("_", " "), "value": value,
                    "items": items, "long": len(value) > LONG_VALUE, "changed": _changed(d)})
    return out


ByClause = tuple[dict[str | None, list[m.ConstDef]], dict[str | None, list[m.Define]]]


def _by_clause(model: m.Resolved) -> ByClause:
    """The model's constants and definitions by the clause that declares them, in model order."""
    def make(md: m.Resolved) -> ByClause:
        consts: dict[str | None, list[m.ConstDef]] = {}
        defines: dict[str | None, list[m.Define]] = {}
        for c in md.consts:
            consts.setdefault(c.origin.clause, []).append(c)
        for d in md.defines:
            defines.setdefault(d.origin.clause, []).append(d)
        return consts, defines
    return per_model(model, "by clause", make)


def formulas_height(formulas: list[dict[str, Any]]) -> int:
    """The lines of what a clause computes: a long value wraps beside its title, a short one
    (set in bold, on one line) leaves the title the rest of the width."""
    def title_width(f: dict[str, Any]) -> int:
        return 30 if f["long"] else max(20, 62 - int(1.4 * len(f["value"])))
    return sum(ROW + LINE * (max(_lines(f["title"], title_width(f)), _lines(f["value"], 30)) - 1)
               + LINE * sum(_lines(i, 60) for i in f["items"]) for f in formulas)


# ---- what a build keeps of the cards' views ------------------------------------------------------
# The size tables, the caps and every clause's formulas read the model's values, names and titles, all
# of which the module's key hashes (build.module_key: the IR less its wording, ir.module_part), and
# besides them only what card_parts_reads digests. They are most of the time of the cards' views of a
# large rulebook, so a build keeps them under those two (build.card_fit): after an edit of a rule's
# wording they are taken up, not made again.

CARD_PARTS = ("size tables", "limit lists", "formulas", "shown constants")  # their names in per_model


def card_parts(model: m.Resolved) -> dict[str, Any]:
    """The model's size tables, caps and formulas, as the cards' views have them, and the named
    numbers those show (made here if not yet)."""
    return {"size tables": size_tables(model), "limit lists": limit_lists(model),
            "formulas": per_model(model, "formulas", _all_formulas), "shown constants": _shown_consts(model)}


def take_card_parts(model: m.Resolved, parts: dict[str, Any]) -> None:
    """The parts a build kept (card_parts of a model with the same keys), taken as this model's."""
    for what in CARD_PARTS:
        remember(model, what, parts[what])


def card_parts_reads(model: m.Resolved) -> str:
    """A digest of what the card parts read beyond the module's key: the phrases players read
    (`says`) and which clauses are illustrative."""
    h = hashlib.sha256(b"card parts 1")
    for t in model.tables:
        h.update(repr((t.name, t.says, [r.says for r in t.rows])).encode("utf-8", "surrogatepass"))
    for g in model.limits:
        h.update(repr((g.name, [i.says for i in g.items])).encode("utf-8", "surrogatepass"))
    h.update(repr([c.says for c in model.consts] + [d.says for d in model.defines]).encode("utf-8", "surrogatepass"))
    h.update(repr(sorted(illustrative_clauses(model))).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def definitions(model: m.Resolved, texts: frozenset[str] = frozenset(),
                blocked: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Titled clauses that define (or add a case to) a true/false test of a unit or hex, that work out
    something from the game's state or values, or that have a text and another block (`blocked`: a
    table, caps or a list): their title, text and what they compute, above their other blocks, as a
    card that shows the clause (`show 4.2`) has them. Clauses whose text already opens a list's
    table (`texts`) get no second block."""
    clauses = {c.number: c for c in model.clauses}
    seen: dict[str, dict[str, Any]] = {}
    worded = [n for n in sorted(blocked, key=rule_key) if n in clauses and clauses[n].texts]
    wanted = _tests(model) + _lookups(model) + worded
    for number in wanted:
        clause = clauses.get(number or "")
        if clause is None or not clause.title or clause.number in seen or clause.number in texts:
            continue
        formulas = clause_formulas(model, clause.number)
        if not clause.texts and not formulas:
            continue
        seen[clause.number] = definition_block(clause, formulas)
    return list(seen.values())


def definition_block(clause: m.Clause, formulas: list[dict[str, Any]], text: bool = True) -> dict[str, Any]:
    """A clause's title, its text (unless text is False) and what it computes (formulas)."""
    paras = blocks("\n\n".join(clause.texts)) if text else []
    est = _head(clause.number, clause.title) + 4 * max(0, len(paras) - 1) + LINE * sum(
        _lines(b["text"]) if b["kind"] == "p" else sum(_lines(i, 64) for i in b["items"]) for b in paras
    ) + formulas_height(formulas)
    return {"kind": "definition", "number": clause.number, "title": clause.title, "origin": clause.origin,
            "blocks": paras, "formulas": formulas, "changed": _changed(clause), "est": est}


def change_block(entries: list[dict[str, Any]], model: m.Resolved) -> list[dict[str, Any]]:
    if not entries:
        return []
    est = HEAD + 20 + sum(16 + LINE * max(_lines(c["before"], 30), _lines(c["after"], 30) + sum(
        _lines(n["text"], 30) for n in c["notes"])) for c in entries)
    return [{"kind": "changes", "number": None, "title": None, "entries": entries, "est": est}]


def cards(models: Mapping[str, m.Resolved], model: m.Resolved) -> list[dict[str, Any]]:
    """The model's card blocks, grouped by section and packed onto one-page cards (made once per model:
    `rulec check` measures them, the build prints them)."""
    return per_model(model, "cards", lambda md: _cards(models, md))


def _cards(models: Mapping[str, m.Resolved], model: m.Resolved) -> list[dict[str, Any]]:
    layers = model.manifest.layers
    before = model_before(models, model, layers[-1]) if len(layers) > 1 else None
    lists = mark_tables(model, before)
    kept = size_tables(model) + limit_lists(model)  # made once per model: copied, as what follows adds to each
    others = lists + [dict(b) for b in kept]
    texts = frozenset(b["number"] for b in lists if b["intro"] or b["formulas"])
    found = others + definitions(model, texts, frozenset(b["number"] for b in others))
    found.sort(key=lambda b: (rule_key(b["number"]), b["kind"]))
    ill = illustrative_clauses(model)
    for b in found:
        b["illustrative"] = b["number"] in ill
    plain = [x for x in (for_players(b) for b in found) if x is not None]
    declared = [declared_card(model, card, found if card.illustrative else plain) for card in model.cards]
    shown = {_block_key(b) for card in declared for b in card["blocks"]}
    topics: dict[str, list[dict[str, Any]]] = {}
    for b in _not_shown(model, plain, [b for card in declared for b in card["blocks"]]):
        if _block_key(b) in shown:
            continue
        topics.setdefault(section_of(b["number"]), []).append(b)
    groups = [(sec, topics[sec]) for sec in sorted(topics, key=rule_key)]
    told = [c for c in changes(models, model) if c["written_in"] not in ill]
    groups += [("changes", change_block(told, model))] if told else []
    out = declared + _pack(model, groups)
    changed = values_changed(model)
    for card in out:
        for b in card["blocks"]:
            b["text_from"] = changed.get(b["number"] or "")
            b.setdefault("illustrative", False)
    for i, card in enumerate(out, 1):
        card["index"] = i
        card["count"] = len(out)
    return out


def values_changed(model: m.Resolved) -> dict[str, dict[str, Any]]:
    """The clauses whose text is the series' (or an earlier layer's) while a later layer changed one of
    their values: a card says whose text it prints, so "no more than three" above a game's ✓ 2 reads
    as the series' words, not as the rule in force."""
    items: list[m.ConstDef | m.Define | m.Row | m.Limit | m.EnumMember] = [*model.consts, *model.defines]
    items += [r for t in model.tables for r in t.rows] + [i for g in model.limits for i in g.items]
    items += [mb for e in model.enums for mb in e.members]
    out: dict[str, dict[str, Any]] = {}
    clauses = {c.number: c for c in model.clauses}
    for item in items:
        clause = clauses.get(item.origin.clause or "")
        if clause is None or clause.overridden_by or not clause.texts:
            continue
        by = [c.layer for c in item.overridden_by if c.layer != clause.origin.layer]
        if by:
            entry = out.setdefault(clause.number, {"layer": clause.origin.layer, "by": []})
            entry["by"] += [x for x in by if x not in entry["by"]]
    return out


def illustrative_clauses(model: m.Resolved) -> frozenset[str]:
    """The clauses marked `illustrative`: what they give is not quoted from a published source."""
    return frozenset(c.number for c in model.clauses if c.illustrative)


def for_players(b: dict[str, Any]) -> dict[str, Any] | None:
    """A block as a player's card shows it: without what illustrative clauses give (their blocks,
    the rows and caps they add to other clauses' tables), which only a card that asks for them shows."""
    if b.get("illustrative"):
        return None
    if b["kind"] == "sizes" and any(r["illustrative"] for r in b["rows"]):
        return {**b, "rows": [r for r in b["rows"] if not r["illustrative"]]}
    if b["kind"] == "limits" and any(i["illustrative"] or any(x["illustrative"] for x in i["exempt"])
                                     for i in b["items"]):
        items = [{**i, "exempt": [x for x in i["exempt"] if not x["illustrative"]]}
                 for i in b["items"] if not i["illustrative"]]
        return {**b, "items": items}
    return b


def _not_shown(model: m.Resolved, blocks: list[dict[str, Any]],
               declared: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The blocks with what declared cards show already taken out of each clause's definition block
    (its text, each of its lines), so that the numbered cards show the rest of a clause a declared
    card shows in part (`show 1.1 doubled`) and not the whole clause again; a block left with
    nothing is dropped."""
    text_shown: set[str] = set()
    lines_shown: dict[str, set[str]] = {}
    for b in declared:
        if b["kind"] == "definition":
            if b["blocks"]:
                text_shown.add(b["number"])
            lines_shown.setdefault(b["number"], set()).update(f["key"] for f in b["formulas"])
    if not text_shown and not lines_shown:
        return blocks
    clauses = {c.number: c for c in model.clauses}
    out = []
    for b in blocks:
        number = b["number"]
        if b["kind"] != "definition" or number not in clauses or (
                number not in text_shown and not lines_shown.get(number)):
            out.append(b)
            continue
        formulas = [f for f in b["formulas"] if f["key"] not in lines_shown.get(number, set())]
        text = bool(b["blocks"]) and number not in text_shown
        if formulas or text:
            out.append({**definition_block(clauses[number], formulas, text=text),
                        "illustrative": b.get("illustrative", False)})
    return out


def _block_key(b: dict[str, Any]) -> tuple[Any, ...]:
    """What a block is, to show it once: a definition block by what it holds (a clause's text, some of
    its formulas), any other by its declaration."""
    if b["kind"] == "definition":
        return (b["number"], b["kind"], tuple(f["key"] for f in b["formulas"]), bool(b["blocks"]))
    return (b["number"], b["kind"], b.get("name"))


# ---- cards the designer declares ----------------------------------------------------------------

_KIND_ORDER_ON_CARD = {"definition": 0, "marks": 1, "limits": 2, "sizes": 3}  # its text first, then its tables


def declared_card(model: m.Resolved, card: m.Card, found: list[dict[str, Any]]) -> dict[str, Any]:
    """A `card` declaration: the blocks it shows, in its order, laid into its columns in that order."""
    clauses = {c.number: c for c in model.clauses}
    picked: list[dict[str, Any]] = []
    for shown in card.shows:
        for b in shown_blocks(model, shown, found, clauses):
            if all(_block_key(b) != _block_key(x) for x in picked):
                picked.append(b)
    size = papers.SIZES[card.size] if card.size else papers.PAGE
    n = card.columns or (2 if size.width_mm > 120 else 1)
    columns = _fill_columns(picked, n)
    secs: list[str] = []
    for b in picked:
        if b["number"] is not None and section_of(b["number"]) not in secs:
            secs.append(section_of(b["number"]))
    est = max((sum(b["est"] + BLOCK_GAP for b in col) for col in columns), default=0)
    return {"title": card.title, "name": f"card-{card.name}", "declared": card.name, "ncols": n,
            "size": size.name, "size_title": size.title, "paged": card.size is None, **_sized(size),
            "topics": [{"number": sec, "title": clauses[sec].title if sec in clauses else None} for sec in secs],
            "columns": columns, "blocks": picked, "est": est, "capacity": card_capacity(size, n),
            "origin": card.origin}


def shown_blocks(model: m.Resolved, shown: m.Shown, found: list[dict[str, Any]],
                 clauses: dict[str, m.Clause]) -> list[dict[str, Any]]:
    """The blocks one `show` names: every block of a clause (its text, when it has no other), one
    declaration's (a table, list or caps; a named number or definition as a line of the clause's
    block), or the clause's text alone."""
    clause = clauses.get(shown.number)
    own = sorted((b for b in found if b["number"] == shown.number),
                 key=lambda b: _KIND_ORDER_ON_CARD.get(b["kind"], 9))
    made = _shown_blocks(model, shown, own, clause)
    for b in made:
        b.setdefault("illustrative", clause is not None and clause.illustrative)
    return made


def _shown_blocks(model: m.Resolved, shown: m.Shown, own: list[dict[str, Any]],
                  clause: m.Clause | None) -> list[dict[str, Any]]:
    if shown.name is None:
        if clause is None:
            return own
        texts_shown = any(b["kind"] == "definition" or b.get("intro") for b in own)
        formulas = clause_formulas(model, clause.number)
        if texts_shown or not (clause.texts or formulas):
            return own
        return [definition_block(clause, formulas), *own]  # its text and what it computes first
    named = [b for b in own if b.get("name") == shown.name]
    if named or clause is None:
        return named
    if shown.name == "text":
        return [definition_block(clause, [])]
    formulas = [f for f in clause_formulas(model, clause.number) if f["key"] == shown.name]
    return [definition_block(clause, formulas, text=not formulas)]


def _fill_columns(picked: list[dict[str, Any]], n: int) -> list[list[dict[str, Any]]]:
    """The blocks in order, down the first column and on into the next: the split into at most n
    columns whose tallest column is the shortest (the designer's order is kept, only where a column
    breaks is chosen)."""
    heights = [b["est"] + BLOCK_GAP for b in picked]
    bounds = [0, *_split(heights, 0, n, {})[1], len(picked)]
    return [picked[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a] or [[]]


def _split(heights: list[int], start: int, left: int,
           best: dict[tuple[int, int], tuple[int, list[int]]]) -> tuple[int, list[int]]:
    """The tallest column and the column breaks of the blocks from start on in `left` columns (best:
    those found so far). A function of its own, not one inside _fill_columns: an inner function that
    calls itself is a cycle, kept to the build's end where the cards' views are frozen (lasting)."""
    if (start, left) not in best:
        rest = sum(heights[start:])
        options: list[tuple[int, list[int]]] = [(rest, [])]
        if left > 1:
            run = 0
            for end in range(start + 1, len(heights)):
                run += heights[end - 1]
                tallest, breaks = _split(heights, end, left - 1, best)
                options.append((max(run, tallest), [end, *breaks]))
        best[start, left] = min(options, key=lambda o: (o[0], len(o[1])))
    return best[start, left]


def card_overflows(models: Mapping[str, m.Resolved], model: m.Resolved) -> list[tuple[m.Origin, str]]:
    """The declared cards whose blocks are estimated taller than the card holds, and the blocks taller
    than a column of the card they are on, each with what to say."""
    out = []
    for card in cards(models, model):
        for b in card["blocks"]:
            if b["est"] + BLOCK_GAP > card["capacity"] and b.get("origin") is not None:
                what = f"{b['number']} {b.get('name') or b['title'] or ''}".strip()
                out.append((b["origin"], f"{what} is estimated taller than a column of a {card['size_title']}: "
                            "no card of that size can hold it"))
        if card["declared"] is not None and card["est"] > card["capacity"]:
            over = round(100 * card["est"] / card["capacity"]) - 100
            out.append((card["origin"], f"card '{card['declared']}' is about {over}% too full for a "
                        f"{card['size_title']} in {model.manifest.ruleset} (its tallest column, estimated)"))
    return out


def _sized(size: papers.Size) -> dict[str, Any]:
    """What a card of its own size needs to lay itself out: the page (trim and bleed), the inset of its
    text from the page's edge, and its type sizes (papers.Size.type_pt, a heading 2 pt larger)."""
    w, h = size.page_mm
    return {"page_w": _mm(w), "page_h": _mm(h), "inset": _mm(size.bleed_mm + size.margin_mm),
            "margin_mm": _mm(size.margin_mm), "font_pt": _mm(size.type_pt), "font_head": _mm(size.type_pt + 2),
            "font_foot": "5.4" if size.width_mm < 100 else "6.2"}


def _mm(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


SHEET_MARGIN_MM = 5  # the paper's edge a home printer leaves white
GUTTER_MM = 5  # between cards: room for both cards' crop marks (nine poker cards on A4, six on Letter)
MARK_GAP_MM, MARK_MM = 0.5, 2  # a crop mark starts this far from the card's corner and is this long


def imposed(card_list: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards of their own size (poker, tarot, ...) laid out several to a page of Letter and of A4,
    cut to their trim with crop marks in the gutters: one sheet per size and paper."""
    out = []
    sized = [c for c in card_list if not c["paged"]]
    for name in sorted({c["size"] for c in sized}, key=list(papers.SIZES).index):
        size = papers.SIZES[name]
        mine = [c for c in sized if c["size"] == name]
        for paper in (papers.SIZES["letter"], papers.SIZES["a4"]):
            cols, rows = (max(1, int((room - 2 * SHEET_MARGIN_MM + GUTTER_MM) // (trim + GUTTER_MM)))
                          for room, trim in ((paper.width_mm, size.width_mm), (paper.height_mm, size.height_mm)))
            left = (paper.width_mm - cols * size.width_mm - (cols - 1) * GUTTER_MM) / 2
            top = (paper.height_mm - rows * size.height_mm - (rows - 1) * GUTTER_MM) / 2
            pages: list[list[dict[str, Any]]] = []
            marks: list[list[dict[str, str]]] = []
            for i, card in enumerate(mine):
                n = i % (cols * rows)
                if n == 0:
                    pages.append([])
                    marks.append([])
                x = left + (n % cols) * (size.width_mm + GUTTER_MM)
                y = top + (n // cols) * (size.height_mm + GUTTER_MM)
                pages[-1].append({"x": _mm(x), "y": _mm(y), "file": f"{card['name']}.html", "title": card["title"]})
                marks[-1] += _crop_marks(x, y, size.width_mm, size.height_mm)
            out.append({"name": f"sheet-{name}-{paper.name}", "size": name, "size_title": size.title,
                        "paper": paper.name, "paper_title": paper.title, "paper_w": _mm(paper.width_mm),
                        "paper_h": _mm(paper.height_mm), "trim_w": _mm(size.width_mm), "trim_h": _mm(size.height_mm),
                        "bleed": _mm(size.bleed_mm), "per_page": cols * rows, "mark": _mm(MARK_MM),
                        "page_w": _mm(size.page_mm[0]), "page_h": _mm(size.page_mm[1]),
                        "pages": pages, "marks": marks, "cards": [{"file": f"{c['name']}.html"} for c in mine]})
    return out


def _crop_marks(x: float, y: float, w: float, h: float) -> list[dict[str, str]]:
    """Two short lines at each corner of a card's trim, outside it, along its edges."""
    marks = []
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            hx = cx + MARK_GAP_MM if sx > 0 else cx - MARK_GAP_MM - MARK_MM
            vy = cy + MARK_GAP_MM if sy > 0 else cy - MARK_GAP_MM - MARK_MM
            marks.append({"d": "h", "x": _mm(hx), "y": _mm(cy)})
            marks.append({"d": "v", "x": _mm(cx), "y": _mm(vy)})
    return marks


def card_capacity(size: papers.Size, columns: int = 2) -> int:
    """About how tall (in the estimates' units: CSS pixels of a page's column, 8.4pt type) one column of
    a card of this size may be. A page's column is COLUMN_HEIGHT; a card's column is as much shorter as
    the card is, and holds more or less as its column is wider or narrower and its type smaller."""
    if size.is_page and columns == 2:
        return COLUMN_HEIGHT
    header_mm = 22 if size.width_mm < 100 else 45  # the header and footer above and below the columns
    page_text_mm = 214  # the height of a page's columns (COLUMN_HEIGHT)
    page_column_mm = 92.5
    width = (size.width_mm - 2 * size.margin_mm - 2.5 * (columns - 1)) / columns
    type_ratio = 1.0 if size.is_page else size.type_pt / papers.PAGE_TYPE_PT
    height = COLUMN_HEIGHT * (size.height_mm - 2 * size.margin_mm - header_mm) / page_text_mm
    return int(height * width / (page_column_mm * type_ratio ** 2))


# Which blocks a card gets first, chapter by chapter: what a player looks up at the table
# (lists with their settings, caps, tables of numbers or list values), then the definitions,
# then other tables; the game's changes come after every chapter.
PRIORITY = {"marks": 0, "limits": 1, "numbers": 2, "definition": 3, "sizes": 4}


def _priority(b: dict[str, Any]) -> tuple[Any, ...]:
    if b["number"] is None:
        return (1, ())
    kind = "numbers" if b["kind"] == "sizes" and (b.get("numeric") or b.get("lookup")) else b["kind"]
    return (0, rule_key(chapter_of(b["number"])), PRIORITY.get(kind, 9), rule_key(b["number"]))


def _pack(model: m.Resolved, groups: list[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """First fit, in order of priority, into the two columns of as many cards as it takes;
    each column then lists its blocks in rule order, a clause's text before its tables."""
    titles = {c.number: c.title for c in model.clauses}
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
            col.sort(key=lambda sb: (sb[1]["number"] is None, rule_key(sb[1]["number"] or "0.0"),
                                     _KIND_ORDER_ON_CARD.get(sb[1]["kind"], 9)))
    out = [_card([c for c in columns if c], titles, chapters) for columns in cards]
    for i, card in enumerate(out, 1):
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
    return {"title": " · ".join(chs) if chs else "Changes", "declared": None, "size": papers.PAGE.name,
            "ncols": len(cols),
            "size_title": papers.PAGE.title, "paged": True, "capacity": COLUMN_HEIGHT, "origin": None,
            "topics": [{"number": sec, "title": titles.get(sec)} for sec in secs],
            "columns": cols, "blocks": [b for col in cols for b in col],
            "est": max(sum(b["est"] + BLOCK_GAP for b in col) for col in cols)}


def _layers_of(models: Mapping[str, m.Resolved], series: str) -> list[tuple[m.Resolved, dict[str, Any]]]:
    """Every game, scenario and option built on a series, each with the model its changes are read
    from: its own ruleset (a game's, a scenario's), else the first ruleset, by name, that has it (an
    option's).  Games in name order, each followed by its scenarios, then the options."""
    found: dict[str, tuple[m.Resolved, dict[str, Any]]] = {}
    for md in sorted(models.values(), key=lambda md: (len(md.manifest.layers), str(md.manifest.ruleset))):
        if md.manifest.series is None or md.manifest.series.name != series:
            continue
        for lay in changing_layers(md):
            if lay["name"] not in found:
                found[lay["name"]] = (md, lay)

    def order(name: str) -> tuple[int, str, int, str]:
        lay = found[name][1]
        if lay["kind"] == "option":
            return (1, name, 0, "")
        if lay["kind"] == "scenario" and lay["below_kind"] == "game":
            return (0, lay["below"], 1, name)
        return (0, name, 0, "")

    return [found[name] for name in sorted(found, key=order)]


def _column_name(lay: dict[str, Any]) -> str:
    head = f"{lay['name']} {lay['version']}" if lay["version"] else lay["name"]
    return head if lay["kind"] == "game" else f"{head} ({lay['kind']})"


def matrix(models: Mapping[str, m.Resolved]) -> list[dict[str, Any]]:
    """For each series, a row for every change some layer built on it makes (an override, an exception
    row, an exception to a limit, a clause of its own) and a column per game, scenario and option:
    the series' text, each layer's text, and the notes the designers wrote."""
    out = []
    for s in sorted(models.values(), key=lambda md: str(md.manifest.ruleset)):
        series = s.manifest.series
        if series is None or s.manifest.layers != (series.name,):
            continue
        columns = _layers_of(models, series.name)
        per_layer = [layer_changes(models, md, lay["name"]) for md, lay in columns]
        first: dict[tuple[str, str], dict[str, Any]] = {}
        by_row: list[dict[tuple[str, str], list[dict[str, Any]]]] = []  # each layer's changes by row, in order
        for changes in per_layer:
            by_row.append({})
            for c in changes:
                first.setdefault((c["key"], c["kind"]), c)
                by_row[-1].setdefault((c["key"], c["kind"]), []).append(c)
        rows = []
        for (key, kind), c in sorted(first.items(), key=lambda kc: (rule_key(kc[1]["number"] or "0"), kc[0][0],
                                                                    _KIND_ORDER[kc[0][1]])):
            cells = []
            notes = []
            for (_, lay), found in zip(columns, by_row, strict=True):
                hits = found.get((key, kind), [])
                cells.append({"changed": bool(hits), "text": "; ".join(x["after"] for x in hits)})
                notes += [{"layer": lay["name"], **n} for x in hits for n in x["notes"]]
            rows.append({"key": key, "number": c["number"], "kind": None if kind == "override" else kind,
                         "series": said(s, c, series.name), "cells": cells, "notes": notes})
        out.append({"name": series.name, "title": series.title, "version": series.version,
                    "games": [{"name": lay["name"], "kind": lay["kind"], "title": lay["title"],
                               "version": lay["version"], "column": _column_name(lay),
                               "ruleset": md.manifest.ruleset, "own": md.manifest.ruleset == lay["name"],
                               "changes": len(changes)}
                              for (md, lay), changes in zip(columns, per_layer, strict=True)],
                    "rows": rows})
    return out


__all__ = ["cards", "changes", "describe", "manifest_line", "number_words", "target_label"]
