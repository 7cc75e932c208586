"""The JSON IR: validated against the schema kept in compiler/schemas, written byte-stable."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema


@cache
def schema() -> dict[str, Any]:
    text = resources.files("compiler").joinpath("schemas/ir.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _validator() -> jsonschema.protocols.Validator:
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


def dumps(model: dict[str, Any]) -> str:
    """Stable text: sorted keys, two-space indent, a final newline."""
    return json.dumps(model, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
