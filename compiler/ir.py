"""The JSON IR: validated against the schema kept in compiler/schemas, written byte-stable."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jsonschema


@cache
def schema() -> dict[str, Any]:
    text = resources.files("compiler").joinpath("schemas/ir.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema  # only a check on rulec itself needs it (--check, tests): a build does not load it

    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    validator: jsonschema.protocols.Validator = cls(schema())
    return validator


def validation_errors(model: dict[str, Any]) -> list[str]:
    """Where the model breaks the schema: one line per error, with its JSON path."""
    errors = sorted(_validator().iter_errors(model), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors]


def nodes(value: Any) -> list[dict[str, Any]]:
    """Every object (dict) anywhere inside a piece of IR, without recursion."""
    out: list[dict[str, Any]] = []
    todo = [value]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            out.append(n)
            todo += [v for v in n.values() if isinstance(v, (dict, list))]
        elif isinstance(n, list):
            todo += n
    return out


def target_label(target: dict[str, Any]) -> str:
    """How a designer names the thing a change targets: '4.5a F', '4.6 re_size.battalion'."""
    kind, number = target["kind"], target["number"]
    if kind == "member":
        return f"{number} {target['member']}"
    if kind == "row":
        return f"{number} {target['table']}.{target['row']}"
    if kind == "limit":
        return f"{number} {target['limits']}.{target['limit']}"
    if kind in ("const", "define"):
        return f"{number} {target['name']}"
    return str(number)


def canonical(value: Any) -> bytes:
    """One byte string for one JSON value, whatever the order of its keys: what a content hash reads."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass")


def dumps_pretty(model: dict[str, Any]) -> str:
    """Stable text: sorted keys, two-space indent, a final newline (for small documents)."""
    return json.dumps(model, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def dumps(doc: dict[str, Any]) -> str:
    """Stable text for a large document: sorted keys, and each top-level key, and each item of a
    top-level list or object, on a line of its own (a diff shows the clause or table that changed).
    Each line is written by json's C encoder (an indented dump goes through its pure-Python one,
    five times slower: a tenth of a large build), and the pieces are joined once (a large IR is
    tens of MB: each copy of it counts in a build's memory)."""
    one = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": ")).encode
    pieces = ["{"]
    for n, key in enumerate(sorted(doc)):
        value = doc[key]
        pieces.append(",\n  " if n else "\n  ")
        pieces.append(one(key))
        if isinstance(value, list) and value:
            pieces.append(": [")
            for i, item in enumerate(value):
                pieces.append(",\n    " if i else "\n    ")
                pieces.append(one(item))
            pieces.append("\n  ]")
        elif isinstance(value, dict) and value:
            pieces.append(": {")
            for i, k in enumerate(sorted(value)):
                pieces.append(",\n    " if i else "\n    ")
                pieces.append(f"{one(k)}: {one(value[k])}")
            pieces.append("\n  }")
        else:
            pieces.append(f": {one(value)}")
    pieces.append("\n}\n")
    return "".join(pieces)
