"""The JSON Schema of a ruleset's game state (its records), generated from the rules.

The schema and the generated modules' `from_json` are one contract: a value of a record is
valid under the schema exactly when `from_json` reads it (tests/test_state_contract.py holds
them, and `rulec eval --state`, to it). So the schema carries the records' invariants too, as
standard JSON Schema (allOf, if/then, not, properties, required) where they can be said exactly,
and otherwise as the extension keyword `x-rulec-invariant` alone (see INVARIANT_KEYWORD).
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import model as m
from .interp import from_json
from .layercheck import _fields_read
from .model import Resolved
from .types import BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type

MAX_DIGITS = 1200  # of a number of game state, a part at a time (the modules' from_json: the same)
BOUND = 10 ** MAX_DIGITS  # a JSON number of game state is less than this in size (at most 1,200 digits)

INVARIANT_KEYWORD = "x-rulec-invariant"
"""The extension keyword on each invariant's subschema: the invariant's name, rule, title and
expression, the fields it checks, and `exact`: whether the subschema's standard keywords say it
exactly. When not (an invariant that calls a definition, compares two fields, or compares a
number field with a constant other than 0), the subschema holds nothing a standard validator
checks, and only `from_json` refuses a value that breaks it."""

NUMBER_DEF = "rulec:number"  # the $defs entries numbers refer to: no record can be named so
INT_DEF = "rulec:int"

# A number as a text: digits, a decimal point or a fraction bar, at most MAX_DIGITS digits a
# part; `(?![\s\S])` ends it where `$` would not (in Python a `$` also matches before a final
# newline, so "5\n" would pass).
NUMBER_TEXT = (rf"^-?[0-9]{{1,{MAX_DIGITS}}}(\.[0-9]{{1,{MAX_DIGITS}}}|/[1-9][0-9]{{0,{MAX_DIGITS - 1}}})?"
               r"(?![\s\S])")

NUMBER = {
    "description": "An exact number: a JSON number (one with a fraction, such as 0.1, is read as the decimal "
                   "it is written as), or a text such as \"1/2\", \"-3\" or \"2.5\" (at most 1,200 digits a part; "
                   "no exponent, so \"1e3\" is not a number, nor is NaN or Infinity).",
    "anyOf": [{"type": "number", "exclusiveMinimum": -BOUND, "exclusiveMaximum": BOUND,
               # NaN, which some JSON readers make: every comparison with it is false, so it alone
               # is both at least 0 and below 0 (no number is)
               "not": {"minimum": 0, "exclusiveMaximum": 0}},
              {"type": "string", "pattern": NUMBER_TEXT}],
}

INT = {
    "description": "A whole number (1, 1.0 and 1e3 are whole; at most 1,200 digits).",
    "type": "integer", "exclusiveMinimum": -BOUND, "exclusiveMaximum": BOUND,
}

# The sign of a valid number text (NUMBER_TEXT): it is 0 when the digits before any '/' are all 0.
_SIGN_TEXT = {
    ">": r"^[0.]*[1-9]",
    ">=": r"^([0-9]|-[0.]*(/|$))",
    "<": r"^-[0.]*[1-9]",
    "<=": r"^(-|[0.]*(/|$))",
    "==": r"^-?[0.]*(/|$)",
    "!=": r"^-?[0.]*[1-9]",
}
# ... and of a JSON number (these keywords test numbers only, the pattern above texts only)
_SIGN_NUMBER: dict[str, dict[str, Any]] = {
    ">": {"exclusiveMinimum": 0}, ">=": {"minimum": 0}, "<": {"exclusiveMaximum": 0},
    "<=": {"maximum": 0}, "==": {"minimum": 0, "maximum": 0},
}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}
_FLIPPED = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


def type_schema(t: Type, enums: dict[str, list[str]]) -> dict[str, Any]:
    match t:
        case ListT(item) | SetT(item):
            return {"type": "array", "items": type_schema(item, enums)}
        case EnumT(name):
            return {"enum": enums[name]}
        case RecordT(name):
            return {"$ref": f"#/$defs/{name}"}
        case NumberT():
            return {"$ref": f"#/$defs/{NUMBER_DEF}"}
        case BoolT():
            return {"type": "boolean"}
        case IntT():
            return {"$ref": f"#/$defs/{INT_DEF}"}
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
        checks = [invariant_schema(model, r, d) for d in model.defines
                  if d.invariant is not None and d.params[0].t == RecordT(r.name)]
        description = r.title or r.name
        if checks:
            description += (". Its invariants, in allOf (a field left out counts as its default): "
                            + "; ".join(c["description"] for c in checks))
        defs[r.name] = {
            "type": "object",
            "description": description,
            "properties": props,
            "required": [f.name for f in r.fields if f.required],
            "additionalProperties": False,
            **({"allOf": checks} if checks else {}),
        }
    m_ = model.manifest
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Game state for {m_.title} ({m_.ruleset})",
        "description": "Named values for rulec eval --state: each property names a record of this ruleset "
                       "and gives its fields, as {\"h\": {\"record\": \"Hex\", \"value\": {...}}}. A value is "
                       "valid exactly when the generated module's from_json reads it: its records' invariants "
                       f"are here too, each in its record's allOf, marked with \"{INVARIANT_KEYWORD}\".",
        "type": "object",
        "propertyNames": {"pattern": "^[A-Za-z][A-Za-z0-9_]*$"},
        "additionalProperties": {"oneOf": [
            {"type": "object", "required": ["record", "value"], "additionalProperties": False,
             "properties": {"record": {"const": name}, "value": {"$ref": f"#/$defs/{name}"}}}
            for name in defs]},
        "$defs": {**defs, **{name: schema for name, schema, t in ((NUMBER_DEF, NUMBER, NumberT), (INT_DEF, INT, IntT))
                             if any(_holds(f.t, t) for r in model.records for f in r.fields)}},
    }


def _holds(t: Type, kind: type) -> bool:
    """Whether a field of type t holds a value of that kind of type (in a list too)."""
    match t:
        case ListT(item) | SetT(item):
            return _holds(item, kind)
    return isinstance(t, kind)


# ---- invariants ---------------------------------------------------------------------------


def invariant_schema(model: Resolved, record: m.RecordDef, d: m.Define) -> dict[str, Any]:
    """The subschema of the values of record that meet invariant d, marked with INVARIANT_KEYWORD."""
    rule = d.origin.clause or d.origin.layer
    title = d.title or d.name
    expression = expr_text(d.body)
    try:
        body = _Invariant(model, record, d.params[0].name).holds(d.body, True)
        exact = True
    except _Inexact:
        body, exact = {}, False
    words = f"{d.name} ({rule}: {title}): {expression}"
    if not exact:
        words += (f" (not said in standard JSON Schema: only from_json checks it; see {INVARIANT_KEYWORD})")
    return {
        "description": words,
        INVARIANT_KEYWORD: {"name": d.name, "rule": rule, "title": title, "expression": expression,
                            "checks": list(d.invariant or ()), "exact": exact},
        **body,
    }


def invariant_parts(d: m.Define) -> tuple[tuple[str, m.Expr], ...]:
    """How input that breaks invariant d is blamed, when that depends on which part fails: each
    part of its top-level `and`, with the field blamed when that part is the first to fail (the
    first field of d.invariant, its `checks` field first, that the part reads). Empty when one
    field is blamed whatever fails (d.invariant[0])."""
    parts = _conjuncts(d.body)
    if not d.invariant or len(parts) < 2:
        return ()
    var = d.params[0].name
    out = []
    for part in parts:
        read = set(_fields_read(part, var))
        out.append((next((f for f in d.invariant if f in read), d.invariant[0]), part))
    if all(field == d.invariant[0] for field, _ in out):
        return ()
    return tuple(out)


def _conjuncts(e: m.Expr) -> list[m.Expr]:
    if isinstance(e, m.Op) and e.op == "and":
        return [p for a in e.args for p in _conjuncts(a)]
    return [e]


class _Inexact(Exception):
    """A condition standard JSON Schema cannot say exactly."""


class _Invariant:
    """An invariant's condition as JSON Schema of the record's JSON objects, a field left out
    counting as its default (as from_json reads it)."""

    def __init__(self, model: Resolved, record: m.RecordDef, var: str):
        self.model = model
        self.fields = {f.name: f for f in record.fields}
        self.enums = {e.name: e for e in model.enums}
        self.consts = {c.name: c for c in model.consts}
        self.var = var

    def holds(self, e: m.Expr, yes: bool) -> dict[str, Any]:
        """The schema of the objects on which condition e is `yes`."""
        match e:
            case m.Lit(v=bool(v)):
                return {} if v == yes else {"not": {}}
            case m.Op(op="not", args=(a,)):
                return self.holds(a, not yes)
            case m.Op(op="and" | "or", args=args):
                parts = [p for a in args for p in _flat(a, e.op)]
                if (e.op == "and") == yes:  # every part
                    schemas = [self.holds(p, yes) for p in parts]
                    return schemas[0] if len(schemas) == 1 else {"allOf": schemas}
                return self.some(parts, yes)
            case m.Field(of=m.Var(name=var), name=name) if var == self.var and isinstance(e.t, BoolT):
                return self.compare(name, "==", yes)
            case m.Attr(of=m.Field(of=m.Var(name=var), name=name), enum=enum, name=attr) \
                    if var == self.var and isinstance(e.t, BoolT):
                members = [mem.name for mem in self.enums[enum].members if dict(mem.attrs)[attr].value is yes]
                return self.compare(name, "in", tuple(members))
            case m.Op(op=written, args=(left, right)) if written in _NEGATED:
                op = written if yes else _NEGATED[written]
                if (field := self.field_of(left)) is not None:
                    return self.compare(field, op, self.constant(right))
                if (field := self.field_of(right)) is not None and op in _FLIPPED:
                    return self.compare(field, _FLIPPED[op], self.constant(left))
        raise _Inexact

    def some(self, parts: list[m.Expr], yes: bool) -> dict[str, Any]:
        """At least one of parts is `yes`: if the first is not, one of the others is."""
        if len(parts) == 1:
            return self.holds(parts[0], yes)
        return {"if": self.holds(parts[0], not yes), "then": self.some(parts[1:], yes)}

    def field_of(self, e: m.Expr) -> str | None:
        if isinstance(e, m.Field) and isinstance(e.of, m.Var) and e.of.name == self.var:
            return e.name
        return None

    def constant(self, e: m.Expr) -> Any:
        """A constant's value (a number exact, a list value by its name, a set or list a tuple)."""
        match e:
            case m.Lit(v=v):
                return v
            case m.Member(name=name):
                return name
            case m.Const(name=name) if name in self.consts:
                return self.constant(self.consts[name].value)
            case m.Op(op="neg", args=(a,)):
                v = self.constant(a)
                if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
                    return -v
            case m.Op(op="/", args=(a, b)):
                x, y = self.constant(a), self.constant(b)
                if all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in (x, y)) and y != 0:
                    return Fraction(x) / Fraction(y)
            case m.SetLit(items=items) | m.ListLit(items=items):
                return tuple(self.constant(i) for i in items)
        raise _Inexact

    def compare(self, name: str, op: str, c: Any) -> dict[str, Any]:
        """The objects whose field `name` (its default when left out) compares so with c."""
        f = self.fields[name]
        test = self.value_test(f.t, op, c)
        schema, holds = test
        obj: dict[str, Any] = {"properties": {name: schema}}
        if f.required or not holds(from_json(f.default, f.t)):
            obj["required"] = [name]
        return obj

    def value_test(self, t: Type, op: str, c: Any) -> tuple[dict[str, Any], Callable[[Any], bool]]:
        """A schema of a field's JSON values (valid ones: the field's own schema says which are) that
        compare so with c, and the same test on a value as the interpreter holds it."""
        if op in ("in", "not in"):
            if not isinstance(c, tuple) or isinstance(t, NumberT):
                raise _Inexact
            values = [v for v in dict.fromkeys(c)]
            inside = {"enum": values}
            if op == "in":
                return inside, lambda v: v in values
            return {"not": inside}, lambda v: v not in values
        if isinstance(t, EnumT):
            order = [mem.name for mem in self.enums[t.name].members]
            if c not in order:
                raise _Inexact
            if op in ("==", "!="):
                same = {"const": c}
                return (same, lambda v: v == c) if op == "==" else ({"not": same}, lambda v: v != c)
            if not self.enums[t.name].ordered or self.enums[t.name].cyclic:
                raise _Inexact
            at = order.index(c)
            members = [x for i, x in enumerate(order) if _compares(op, i, at)]
            return {"enum": members}, lambda v: v in members
        if isinstance(t, (BoolT, TextT)):
            if op not in ("==", "!=") or isinstance(c, tuple):
                raise _Inexact
            same = {"const": c}
            return (same, lambda v: v == c) if op == "==" else ({"not": same}, lambda v: v != c)
        if isinstance(t, IntT) and isinstance(c, (int, Fraction)) and not isinstance(c, bool):
            return _int_test(op, Fraction(c))
        if isinstance(t, NumberT) and isinstance(c, (int, Fraction)) and not isinstance(c, bool) and c == 0:
            return _sign_test(op)
        raise _Inexact


def _flat(e: m.Expr, op: str) -> list[m.Expr]:
    if isinstance(e, m.Op) and e.op == op:
        return [p for a in e.args for p in _flat(a, op)]
    return [e]


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _compares(op: str, a: Any, b: Any) -> bool:
    return bool(_COMPARE[op](a, b))


def _int_test(op: str, c: Fraction) -> tuple[dict[str, Any], Callable[[Any], bool]]:
    """A whole number compared with c: the bound rounded to the whole numbers it lets through."""
    def holds(v: Any) -> bool:
        return _compares(op, Fraction(v), c)

    whole = c.denominator == 1
    if op == "==":
        return ({"const": int(c)} if whole else {"not": {}}), holds
    if op == "!=":
        return ({"not": {"const": int(c)}} if whole else {}), holds
    if op in (">", ">="):
        least = math.floor(c) + 1 if op == ">" or not whole else int(c)  # the least whole number that passes
        return {"minimum": least}, holds
    most = math.ceil(c) - 1 if op == "<" or not whole else int(c)
    return {"maximum": most}, holds


def _sign_test(op: str) -> tuple[dict[str, Any], Callable[[Any], bool]]:
    """A number compared with 0, whether a JSON number or a text."""
    def holds(v: Any) -> bool:
        return _compares(op, v, 0)

    text = {"pattern": _SIGN_TEXT[op]}
    if op == "!=":
        return {"not": {"type": "number", **_SIGN_NUMBER["=="]}, **text}, holds
    return {**_SIGN_NUMBER[op], **text}, holds


# ---- an expression as the rules write it -----------------------------------------------------

_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
               "not in": 4, "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7}


def expr_text(e: m.Expr, outer: int = 0) -> str:
    """An expression in the rules language (for the schema's words: parenthesized where needed)."""
    text, own = _text(e)
    return f"({text})" if own < outer else text


def _is_op(e: m.Expr, op: str) -> bool:
    return isinstance(e, m.Op) and e.op == op


def _text(e: m.Expr) -> tuple[str, int]:
    match e:
        case m.Lit(v=v):
            if isinstance(v, bool):
                return ("true" if v else "false"), 9
            if isinstance(v, str):
                return json.dumps(v, ensure_ascii=False), 9
            return str(v), (9 if isinstance(v, int) else 6)
        case m.Var(name=name) | m.Const(name=name) | m.Member(name=name):
            return name, 9
        case m.Field(of=of, name=name) | m.Attr(of=of, name=name):
            return f"{expr_text(of, 9)}.{name}", 9
        case m.Call(fn=fn, args=args) | m.Builtin(fn=fn, args=args):
            return f"{fn}({', '.join(expr_text(a) for a in args)})", 9
        case m.Op(op="not", args=(a,)):
            return f"not {expr_text(a, 9 if isinstance(a, m.Op) else 3)}", 3
        case m.Op(op="neg", args=(a,)):
            return f"-{expr_text(a, 8)}", 7
        case m.Op(op="/", args=(m.Lit(v=int(x)), m.Lit(v=int(y)))) if not isinstance(x, bool) and y > 0:
            return f"{x}/{y}", 6  # a fraction, as one writes it
        case m.Op(op=op, args=(a, b)):
            p = _PRECEDENCE[op]
            left, right = (p + 1 if p == 4 else p), (p if op in ("and", "or", "+", "*") else p + 1)
            if op == "or":  # an `and` inside an `or` in parentheses, as one writes it
                left, right = (p if _is_op(x, "or") else 3 for x in (a, b))
            return f"{expr_text(a, left)} {op} {expr_text(b, right)}", p
        case m.If(cond=c, then=a, else_=b):
            return f"if {expr_text(c)} then {expr_text(a)} else {expr_text(b)}", 0
        case m.Let(name=name, value=v, body=b):
            return f"let {name} = {expr_text(v)}; {expr_text(b)}", 0
        case m.Agg(fn=fn, var=var, over=over, where=where, body=body):
            cond = "" if where is None else f" where {expr_text(where)}"
            return f"{fn}({expr_text(body)} for {var} in {expr_text(over)}{cond})", 9
        case m.RecordLit(record=record, fields=fields):
            return f"{record} {{ {', '.join(f'{k}: {expr_text(v)}' for k, v in fields)} }}", 9
        case m.ListLit(items=items):
            return f"[{', '.join(expr_text(i) for i in items)}]", 9
        case m.SetLit(items=items):
            return f"{{{', '.join(expr_text(i) for i in items)}}}", 9
    return "?", 9
