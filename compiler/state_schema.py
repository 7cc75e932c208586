"""The JSON Schema of a ruleset's game state (its records), generated from the rules."""

from __future__ import annotations

from typing import Any

from .model import Resolved
from .types import BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type

MAX_DIGITS = 1200  # of a number of game state, a part at a time (the modules' from_json: the same)

NUMBER = {
    "description": "An exact number: a JSON number, or a text such as \"1/2\" or \"2.5\" "
                   "(at most 1,200 digits a part).",
    "anyOf": [{"type": "number"},
              {"type": "string",
               "pattern": rf"^-?[0-9]{{1,{MAX_DIGITS}}}"
                          rf"(\.[0-9]{{1,{MAX_DIGITS}}}|/[1-9][0-9]{{0,{MAX_DIGITS - 1}}})?$"}],
}


def type_schema(t: Type, enums: dict[str, list[str]]) -> dict[str, Any]:
    match t:
        case ListT(item) | SetT(item):
            return {"type": "array", "items": type_schema(item, enums)}
        case EnumT(name):
            return {"enum": enums[name]}
        case RecordT(name):
            return {"$ref": f"#/$defs/{name}"}
        case NumberT():
            return dict(NUMBER)
        case BoolT():
            return {"type": "boolean"}
        case IntT():
            return {"type": "integer"}
        case TextT():
            return {"type": "string"}
    return {}


def state_schema(model: Resolved) -> dict[str, Any]:
    enums = {e.name: [mem.name for mem in e.members] for e in model.enums}
    defs: dict[str, Any] = {}
    for r in model.records:
        props = {}
        for f in r.fields:
            prop = type_schema(f.t, enums)
            if f.title:
                prop = {"description": f.title, **prop}
            props[f.name] = prop
        defs[r.name] = {
            "type": "object",
            "description": r.title or r.name,
            "properties": props,
            "required": [f.name for f in r.fields if f.required],
            "additionalProperties": False,
        }
    m = model.manifest
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Game state for {m.title} ({m.ruleset})",
        "description": "Named values for rulec eval --state: each property names a record of this ruleset "
                       "and gives its fields, as {\"h\": {\"record\": \"Hex\", \"value\": {...}}}.",
        "type": "object",
        "propertyNames": {"pattern": "^[A-Za-z][A-Za-z0-9_]*$"},
        "additionalProperties": {"oneOf": [
            {"type": "object", "required": ["record", "value"], "additionalProperties": False,
             "properties": {"record": {"const": name}, "value": {"$ref": f"#/$defs/{name}"}}}
            for name in defs]},
        "$defs": defs,
    }
