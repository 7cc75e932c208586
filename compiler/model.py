"""The checked model: typed expressions and the declarations of each layer, as frozen dataclasses.

The checker builds the expressions, the lowering (lower.py) the layers, the resolver one model
per ruleset from them. `to_ir` writes any of them in the JSON form of the IR (the schema in
compiler/schemas/ir.schema.json), key for key as the later stages and other tools read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .types import ANY, Type

# ---- expressions ---------------------------------------------------------------------------
# One class per kind of the IR's expressions ("k"); `t` is the type the checker gave it.


@dataclass(frozen=True, eq=False, slots=True)
class Ref:
    """A rule cited: `see 4.5b`, `see 4.5a F`."""

    number: str
    item: str | None


@dataclass(frozen=True, eq=False, slots=True)
class Lit:
    t: Type
    v: bool | int | Fraction | str  # a number that is not whole is a Fraction


@dataclass(frozen=True, eq=False, slots=True)
class Var:
    """A parameter, a `let` or an aggregate's variable. see: the rules a read of a parameter
    cites (`negated: bool see 4.5b`)."""

    t: Type
    name: str
    see: tuple[Ref, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class Const:
    t: Type
    name: str


@dataclass(frozen=True, eq=False, slots=True)
class Member:
    """A value of a list (enum): `combat`, `Mode.combat`."""

    t: Type
    enum: str
    name: str


@dataclass(frozen=True, eq=False, slots=True)
class Field:
    """A field of a record: `u.mode`."""

    t: Type
    of: Expr
    name: str


@dataclass(frozen=True, eq=False, slots=True)
class Attr:
    """A setting of a list value: `u.type.combat`."""

    t: Type
    of: Expr
    enum: str
    name: str


@dataclass(frozen=True, eq=False, slots=True)
class Call:
    """A call of a definition, table or limits group (a define without parameters too)."""

    t: Type
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, slots=True)
class Builtin:
    """floor, ceil, abs, min, max, len, step (which alone says whether its list is cyclic)."""

    t: Type
    fn: str
    args: tuple[Expr, ...]
    cyclic: bool | None = None


@dataclass(frozen=True, eq=False, slots=True)
class Op:
    """and or not == != < <= > >= in, not in, + - * / neg."""

    t: Type
    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, slots=True)
class If:
    t: Type
    cond: Expr
    then: Expr
    else_: Expr


@dataclass(frozen=True, eq=False, slots=True)
class Let:
    t: Type
    name: str
    value: Expr
    body: Expr


@dataclass(frozen=True, eq=False, slots=True)
class Agg:
    """`sum(re_size(u) for u in h.units where is_combat(u))`: vart is the variable's type."""

    t: Type
    fn: str
    var: str
    vart: Type
    over: Expr
    where: Expr | None
    body: Expr


@dataclass(frozen=True, eq=False, slots=True)
class RecordLit:
    t: Type
    record: str
    fields: tuple[tuple[str, Expr], ...]  # sorted by name


@dataclass(frozen=True, eq=False, slots=True)
class ListLit:
    t: Type
    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, slots=True)
class SetLit:
    t: Type
    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False, slots=True)
class Error:
    """Where a mistake was reported: of any type, so it is reported once."""

    t: Type = ANY


Expr = (Lit | Var | Const | Member | Field | Attr | Call | Builtin | Op | If | Let | Agg | RecordLit | ListLit | SetLit
        | Error)


def children(e: Expr) -> tuple[Expr, ...]:
    """The expressions directly inside e, in the order the IR writes them."""
    match e:
        case Field(of=of) | Attr(of=of):
            return (of,)
        case Call(args=args) | Builtin(args=args) | Op(args=args):
            return args
        case If(cond=c, then=a, else_=b):
            return (c, a, b)
        case Let(value=v, body=b):
            return (v, b)
        case Agg(over=o, where=w, body=b):
            return (o, b) if w is None else (o, w, b)
        case RecordLit(fields=fields):
            return tuple(v for _, v in fields)
        case ListLit(items=items) | SetLit(items=items):
            return items
    return ()


def walk(e: Expr) -> list[Expr]:
    """e and every expression inside it, without recursion."""
    out: list[Expr] = []
    todo = [e]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(children(n))
    return out


# ---- the IR's JSON form --------------------------------------------------------------------

IR = dict[str, Any]


def ref_ir(r: Ref) -> IR:
    return {"number": r.number, "item": r.item}


def expr_ir(e: Expr) -> IR:
    """An expression as the IR writes it (keys in the order the later stages have always seen)."""
    t = str(e.t)
    match e:
        case Lit(v=v):
            return {"k": "lit", "t": t, "v": str(v) if isinstance(v, Fraction) else v}
        case Var(name=name, see=see):
            out: IR = {"k": "var", "t": t, "name": name}
            if see:
                out["see"] = [ref_ir(r) for r in see]
            return out
        case Const(name=name):
            return {"k": "const", "t": t, "name": name}
        case Member(enum=enum, name=name):
            return {"k": "member", "t": t, "enum": enum, "name": name}
        case Field(of=of, name=name):
            return {"k": "field", "t": t, "of": expr_ir(of), "name": name}
        case Attr(of=of, enum=enum, name=name):
            return {"k": "attr", "t": t, "of": expr_ir(of), "enum": enum, "name": name}
        case Call(fn=fn, args=args):
            return {"k": "call", "t": t, "fn": fn, "args": [expr_ir(a) for a in args]}
        case Builtin(fn=fn, args=args, cyclic=cyclic):
            out = {"k": "builtin", "t": t, "fn": fn, "args": [expr_ir(a) for a in args]}
            if cyclic is not None:
                out["cyclic"] = cyclic
            return out
        case Op(op=op, args=args):
            return {"k": "op", "t": t, "op": op, "args": [expr_ir(a) for a in args]}
        case If(cond=c, then=a, else_=b):
            return {"k": "if", "t": t, "cond": expr_ir(c), "then": expr_ir(a), "else": expr_ir(b)}
        case Let(name=name, value=v, body=b):
            return {"k": "let", "t": t, "name": name, "value": expr_ir(v), "body": expr_ir(b)}
        case Agg(fn=fn, var=var, vart=vart, over=over, where=where, body=body):
            return {"k": "agg", "t": t, "fn": fn, "var": var, "vart": str(vart), "over": expr_ir(over),
                    "where": None if where is None else expr_ir(where), "body": expr_ir(body)}
        case RecordLit(record=record, fields=fields):
            return {"k": "record", "t": t, "record": record, "fields": {n: expr_ir(v) for n, v in fields}}
        case ListLit(items=items):
            return {"k": "list", "t": t, "items": [expr_ir(i) for i in items]}
        case SetLit(items=items):
            return {"k": "set", "t": t, "items": [expr_ir(i) for i in items]}
        case Error():
            return {"k": "error", "t": t}


def opt_expr_ir(e: Expr | None) -> IR | None:
    return None if e is None else expr_ir(e)
