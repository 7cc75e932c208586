"""The JSON Schema of a ruleset's game state (its records), generated from the rules."""

from __future__ import annotations

from typing import Any

from . import ir
from .model import Resolved

NUMBER = {
    "description": "An exact number: a JSON number, or a text such as \"1/2\" or \"2.5\".",
    "anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+|/[1-9][0-9]*)?$"}],
}


def type_schema(t: str, enums: dict[str, list[str]]) -> dict[str, Any]:
    if t.startswith("list of ") or t.startswith("set of "):
        return {"type": "array", "items": type_schema(t.split(" of ", 1)[1], enums)}
    if t.startswith("enum "):
        return {"enum": enums[t[5:]]}
    if t.startswith("record "):
        return {"$ref": f"#/$defs/{t[7:]}"}
    if t == "number":
        return dict(NUMBER)
    return {"bool": {"type": "boolean"}, "int": {"type": "integer"}, "text": {"type": "string"}}.get(t, {})


def state_schema(model: Resolved | dict[str, Any]) -> dict[str, Any]:
    model = ir.bridge(model)
    enums = {e["name"]: [m["name"] for m in e["members"]] for e in model["enums"]}
    defs: dict[str, Any] = {}
    for r in model["records"]:
        props = {}
        for f in r["fields"]:
            prop = type_schema(f["t"], enums)
            if f["title"]:
                prop = {"description": f["title"], **prop}
            props[f["name"]] = prop
        defs[r["name"]] = {
            "type": "object",
            "description": r["title"] or r["name"],
            "properties": props,
            "required": [f["name"] for f in r["fields"] if f["required"]],
            "additionalProperties": False,
        }
    m = model["manifest"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Game state for {m['title']} ({m['ruleset']})",
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
