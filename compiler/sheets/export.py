"""The card tables as CSV and JSON, for nanDECK, Squib, InDesign data merge or a VASSAL module."""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Callable, Iterator, MutableMapping
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .. import model as m
from ..cache import KeptText, pack, text_of, unpack
from ..interp import EvalError, Interpreter, to_json
from ..ir import dumps_one, dumps_written
from ..types import EnumT, IntT, NumberT, RecordT
from .text import number_words

MAX_VALUE_ROWS = 2_000


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([_cell(h) for h in header])
    w.writerows([_cell(c) for c in r] for r in rows)
    return buf.getvalue()


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A cell a spreadsheet would read as a formula (text starting =, +, -, @, a tab or a carriage
    return) starts with an apostrophe instead, as OWASP advises: Excel and LibreOffice show the
    text and run nothing. Numbers are numbers, never quoted (-1 is a number, not a formula)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


_EXACT = re.compile(r"-?[0-9]+(?:/[1-9][0-9]*)?")


def number_cells(plain: str) -> list[Any]:
    """A value as a spreadsheet should read it: [decimal, numerator, denominator, rules text].
    A constant number ('1/4', '3') gives its decimal (0.25; a fraction with no finite decimal, such
    as 1/3, to 6 places) and its exact numerator and denominator, and no rules text; anything else
    (u.printed_re - u.step_losses) only the rules text. Never a '1/2' a spreadsheet would read as a
    date."""
    if not _EXACT.fullmatch(plain):
        return ["", "", "", plain]
    q = Fraction(plain)
    return [_decimal(q), q.numerator, q.denominator, ""]


def _decimal(q: Fraction) -> int | str:
    if q.denominator == 1:
        return q.numerator
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    exact = Decimal(q.numerator) / Decimal(q.denominator)
    if d == 1:  # a finite decimal: written in full (1/8 -> 0.125)
        return f"{exact:f}"
    # no finite decimal: 6 places (never a tie, so how .5 rounds cannot matter); the exact value is
    # in the numerator and denominator columns
    return f"{exact.quantize(Decimal('0.000001'), rounding=ROUND_HALF_UP):f}"


NUMBER_HEADER = ["value", "numerator", "denominator", "rules_text"]


def _changed_by(item: dict[str, Any]) -> str:
    return " ".join(c["layer"] for c in item["changed"])


def _notes(item: dict[str, Any]) -> str:
    return " ".join(f"{n['label']}: {n['text']}" for c in item["changed"] for n in c["notes"])


def block_csv(b: dict[str, Any]) -> tuple[str, str] | None:
    """(file name, CSV text) for a card block that is a table, else None."""
    if b["kind"] == "marks":  # a column per setting: yes/no, a number, or the value as the rules write it (full)
        header = ["rule", "key", "title"]
        cells: list[list[Any]] = [[r["rule"], r["key"], r["title"]] for r in b["rows"]]
        for i, col in enumerate(b["columns"]):
            column = [r["cells"][i] for r in b["rows"]]
            data = [c["data"] for c in column]
            if col["kind"] == "mark":
                header.append(col["name"])
                for row, c in zip(cells, column, strict=True):
                    row.append("yes" if c["value"] else "no")
            elif col["numeric"] and all(_EXACT.fullmatch(d) or d == "" for d in data):
                # a number (0.25, -2), its exact parts where one is a fraction, and as the card shows it (¼, -2)
                exact = any("/" in d for d in data)
                header += [col["name"], *([f"{col['name']}_numerator", f"{col['name']}_denominator"] if exact else []),
                           f"{col['name']}_display"]
                for row, c in zip(cells, column, strict=True):
                    decimal, num, den, _ = number_cells(c["data"]) if c["data"] else ["", "", "", ""]
                    row += [decimal, *([num, den] if exact else []), c["value"]]
            else:
                header.append(col["name"])
                for row, c in zip(cells, column, strict=True):
                    row.append(c["data"])
        rows = [row + [_changed_by(r), _notes(r)] for row, r in zip(cells, b["rows"], strict=True)]
        return f"{b['number']}-{b['name']}.csv", _csv(header + ["changed_by", "note"], rows)
    if b["kind"] == "sizes":
        rows = [[r["rule"], r["key"], r["title"], *number_cells(r["plain_value"]), r["value"],
                 "yes" if r["exception"] else "no", _changed_by(r), _notes(r)] for r in b["rows"]]
        return f"{b['number']}-{b['name']}.csv", _csv(
            ["rule", "key", "title", *NUMBER_HEADER, "display", "exception", "changed_by", "note"], rows)
    if b["kind"] == "limits":
        rows = [[i["rule"], i["key"], i["title"], *number_cells(i["plain_bound"]), i["bound"],
                 " | ".join(f"{x['text']} ({x['rule']})" for x in i["exempt"]), _changed_by(i), _notes(i)]
                for i in b["items"]]
        rows += [[u["rule"], "unless", u["text"], "", "", "", "", "", "", "", ""] for u in b["unless"]]
        return f"{b['number']}-{b['name']}.csv", _csv(
            ["rule", "key", "title", *(f"at_most_{h}" if h != "value" else "at_most" for h in NUMBER_HEADER),
             "display", "not_enforced_when", "changed_by", "note"], rows)
    return None


def _json_block(b: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in b.items() if k not in ("est", "origin")}  # the layout's, not the table's


Values = tuple[list[str], list[list[Any]]] | None
# What a build keeps of a table's values, by its closure key: its CSV file and its line of tables.json,
# compressed (cache.pack); None for a table that has none.
Kept = tuple[KeptText, bytes] | None  # a table's values: its CSV file, and its tables.json entry compressed


def _layer_ref(r: m.LayerRef | None) -> dict[str, Any] | None:
    return None if r is None else {"name": r.name, "title": r.title, "version": r.version}


def manifest_doc(model: m.Resolved) -> dict[str, Any]:
    """The ruleset's manifest as tables.json writes it."""
    mf = model.manifest
    return {"ruleset": mf.ruleset, "title": mf.title, "series": _layer_ref(mf.series),
            "game": _layer_ref(mf.game), "scenario": _layer_ref(mf.scenario),
            "options": [_layer_ref(o) for o in mf.options], "layers": list(mf.layers)}


def tables(model: m.Resolved, cards: list[dict[str, Any]],
           memo: MutableMapping[str, Kept] | None = None) -> dict[str, str]:
    """tables.json (every card block), a CSV per card table, and per-unit values of record tables.
    memo: each table's values under its Interpreter.closure_key, shared by the rulesets of a build."""
    return {rel: text_of(t) for rel, t in iter_tables(model, cards, memo)}


CardTables = tuple[str, list[tuple[str, str]]]  # a card's line of tables.json, and its tables' CSV files


def card_tables(card: dict[str, Any]) -> CardTables:
    """What one card gives tables.json (its line) and the CSV file of each table it shows."""
    line = dumps_one({"name": card["name"], "title": card["title"], "topics": card["topics"],
                      "blocks": [_json_block(b) for b in card["blocks"]]})
    return line, [found for b in card["blocks"] if (found := block_csv(b)) is not None]


def iter_tables(model: m.Resolved, cards: list[dict[str, Any]],
                memo: MutableMapping[str, Kept] | None = None,
                tables_of: Callable[[dict[str, Any]], CardTables] = card_tables,
                ) -> Iterator[tuple[str, str | KeptText]]:
    """tables' files one at a time, each let go once written; tables.json last, from its parts
    written as they come (a large rulebook's is tens of MB: its dicts are never all held at once).
    tables_of: card_tables, or what a build kept of it."""
    seen: set[str] = set()
    card_lines = []
    for card in cards:
        line, csvs = tables_of(card)
        card_lines.append(line)
        for found in csvs:
            if found[0] not in seen:  # a block shown twice is one file
                seen.add(found[0])
                yield found
    value_lines: dict[str, str] = {}
    memo = {} if memo is None else memo
    interp = Interpreter(model)
    for t in model.tables:
        key = interp.closure_key(t)
        kept = memo.get(key)
        if kept is None and key not in memo:
            values = unit_values(model, t)
            if values is not None:
                header, rows = values
                lines = dumps_one([dict(zip(header, r, strict=True)) for r in rows])
                kept = KeptText.of(_csv(header, rows)), pack(lines)
            memo[key] = kept
        if kept is not None:
            yield f"{t.origin.clause}-{t.name}-values.csv", kept[0]
            value_lines[t.name] = unpack(kept[1])
    text = dumps_written({"manifest": manifest_doc(model)}, lists={"cards": card_lines},
                         objects={"values": value_lines})
    del card_lines, value_lines  # not held beside the text while it is written
    yield "tables.json", text


def _compared_fields(e: m.Expr | None, var: str, found: list[str]) -> None:
    """Fields of the record parameter that a table's conditions look at (in the order they are read)."""
    if e is None:
        return
    if isinstance(e, m.Field) and isinstance(e.of, m.Var) and e.of.name == var and e.name not in found:
        found.append(e.name)
    for c in m.children(e):
        _compared_fields(c, var, found)


def unit_values(model: m.Resolved, table: m.Table) -> Values:
    """A table over one record, evaluated for every combination of the list-valued fields its rows test
    (other fields at their defaults): e.g. the RE size of each unit type and size, for a VASSAL module."""
    if len(table.params) != 1 or not isinstance(table.params[0].t, RecordT):
        return None
    param = table.params[0]
    assert isinstance(param.t, RecordT)
    record_name = param.t.name
    record = next(r for r in model.records if r.name == record_name)
    found: list[str] = []
    for r in table.rows:
        _compared_fields(r.when, param.name, found)
    enums = {e.name: e for e in model.enums}
    fields = [f for f in record.fields if f.name in found and isinstance(f.t, EnumT)]
    if not fields or any(f.required and f not in fields for f in record.fields):
        return None  # a field with no default (a record holding a Unit) has no value to show it at
    domains = [[mb.name for mb in enums[str(f.t).removeprefix("enum ")].members] for f in fields]
    total = 1
    for d in domains:
        total *= len(d)
    if total > MAX_VALUE_ROWS:
        return None
    interp = Interpreter(model)
    rows = []
    shown: dict[tuple[type, Any], list[Any]] = {}  # each number's cells, worked out once: a table's values repeat
    for combo in itertools.product(*domains):
        unit = interp.default_record(record.name, dict(zip((f.name for f in fields), combo, strict=True)))
        try:
            value = to_json(interp.call(table.name, [unit]))
        except (EvalError, KeyError, ZeroDivisionError):
            continue
        numeric = isinstance(table.returns, (IntT, NumberT)) and not isinstance(value, bool)
        if numeric:  # the decimal, the exact numerator and denominator, and the value as a card shows it
            cells = shown.get((type(value), value))
            if cells is None:
                cells = shown[type(value), value] = [*number_cells(number_words(value))[:3],
                                                     number_words(value, pretty=True)]
            rows.append([*combo, *cells])
        else:
            rows.append([*combo, value])
    names = [f.name for f in fields]
    if isinstance(table.returns, (IntT, NumberT)):
        return names + [table.name, f"{table.name}_numerator", f"{table.name}_denominator",
                        f"{table.name}_display"], rows
    return names + [table.name], rows
