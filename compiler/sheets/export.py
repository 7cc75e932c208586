"""The card tables as CSV and JSON, for nanDECK, Squib, InDesign data merge or a VASSAL module."""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import MutableMapping
from typing import Any

from ..interp_ir import EvalError, Interpreter, to_json
from ..ir import dumps
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


def _changed_by(item: dict[str, Any]) -> str:
    return " ".join(c["layer"] for c in item["changed"])


def _notes(item: dict[str, Any]) -> str:
    return " ".join(f"{n['label']}: {n['text']}" for c in item["changed"] for n in c["notes"])


def block_csv(b: dict[str, Any]) -> tuple[str, str] | None:
    """(file name, CSV text) for a card block that is a table, else None."""
    if b["kind"] == "marks":  # a column per setting: yes/no, or the value as the rules write it (1/4, -2, full)
        cols = [c["name"] for c in b["columns"]]
        rows = [[r["rule"], r["key"], r["title"],
                 *[("yes" if c["value"] else "no") if c["kind"] == "mark" else c["data"] for c in r["cells"]],
                 _changed_by(r), _notes(r)] for r in b["rows"]]
        return f"{b['number']}-{b['name']}.csv", _csv(["rule", "key", "title", *cols, "changed_by", "note"], rows)
    if b["kind"] == "sizes":
        rows = [[r["rule"], r["key"], r["title"], r["plain_value"], "yes" if r["exception"] else "no",
                 _changed_by(r), _notes(r)] for r in b["rows"]]
        return f"{b['number']}-{b['name']}.csv", _csv(
            ["rule", "key", "title", "value", "exception", "changed_by", "note"], rows)
    if b["kind"] == "limits":
        rows = [[i["rule"], i["key"], i["title"], i["plain_bound"],
                 " | ".join(f"{x['text']} ({x['rule']})" for x in i["exempt"]), _changed_by(i), _notes(i)]
                for i in b["items"]]
        rows += [[u["rule"], "unless", u["text"], "", "", "", ""] for u in b["unless"]]
        return f"{b['number']}-{b['name']}.csv", _csv(
            ["rule", "key", "title", "at_most", "not_enforced_when", "changed_by", "note"], rows)
    return None


def _json_block(b: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in b.items() if k != "est"}


Values = tuple[list[str], list[list[Any]]] | None


def tables(model: dict[str, Any], cards: list[dict[str, Any]],
           memo: MutableMapping[str, Values] | None = None) -> dict[str, str]:
    """tables.json (every card block), a CSV per card table, and per-unit values of record tables.
    memo: each table's values under its Interpreter.closure_key, shared by the rulesets of a build."""
    out: dict[str, str] = {}
    for card in cards:
        for b in card["blocks"]:
            found = block_csv(b)
            if found is not None:
                out[found[0]] = found[1]
    doc = {
        "manifest": model["manifest"],
        "cards": [{"name": c["name"], "title": c["title"], "topics": c["topics"],
                   "blocks": [_json_block(b) for b in c["blocks"]]} for c in cards],
        "values": {},
    }
    memo = {} if memo is None else memo
    interp = Interpreter(model)
    for t in model["tables"]:
        key = interp.closure_key(t)
        if key not in memo:
            memo[key] = unit_values(model, t)
        values = memo[key]
        if values is not None:
            header, rows = values
            out[f"{t['origin']['clause']}-{t['name']}-values.csv"] = _csv(header, rows)
            doc["values"][t["name"]] = [dict(zip(header, r, strict=True)) for r in rows]
    out["tables.json"] = dumps(doc)
    return out


def _compared_fields(node: Any, var: str, found: list[str]) -> None:
    """Fields of the record parameter that a table's conditions look at."""
    if isinstance(node, dict):
        if node.get("k") == "field" and node["of"].get("k") == "var" and node["of"]["name"] == var:
            if node["name"] not in found:
                found.append(node["name"])
        for v in node.values():
            _compared_fields(v, var, found)
    elif isinstance(node, list):
        for v in node:
            _compared_fields(v, var, found)


def unit_values(model: dict[str, Any], table: dict[str, Any]) -> Values:
    """A table over one record, evaluated for every combination of the list-valued fields its rows test
    (other fields at their defaults): e.g. the RE size of each unit type and size, for a VASSAL module."""
    if len(table["params"]) != 1 or not table["params"][0]["t"].startswith("record "):
        return None
    param = table["params"][0]
    record = next(r for r in model["records"] if r["name"] == param["t"][7:])
    found: list[str] = []
    for r in table["rows"]:
        _compared_fields(r["when"], param["name"], found)
    enums = {e["name"]: e for e in model["enums"]}
    fields = [f for f in record["fields"] if f["name"] in found and f["t"].startswith("enum ")]
    if not fields or any(f["required"] and f not in fields for f in record["fields"]):
        return None  # a field with no default (a record holding a Unit) has no value to show it at
    domains = [[m["name"] for m in enums[f["t"][5:]]["members"]] for f in fields]
    total = 1
    for d in domains:
        total *= len(d)
    if total > MAX_VALUE_ROWS:
        return None
    interp = Interpreter(model)
    rows = []
    for combo in itertools.product(*domains):
        unit = interp.default_record(record["name"], dict(zip((f["name"] for f in fields), combo, strict=True)))
        try:
            value = to_json(interp.call(table["name"], [unit]))
        except (EvalError, KeyError, ZeroDivisionError):
            continue
        numeric = table["returns"] in ("int", "number") and not isinstance(value, bool)
        rows.append([*combo, number_words(value) if numeric else value])
    return [f["name"] for f in fields] + [table["name"]], rows
