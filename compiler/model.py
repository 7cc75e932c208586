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


# ---- declarations ----------------------------------------------------------------------------
# What a layer declares, and (the fields after `origin`) what resolving a ruleset adds to it.

Value = bool | int | str | list["Value"] | None  # a constant as the IR writes it ('p/q' for a fraction)


@dataclass(frozen=True, eq=False, slots=True)
class Origin:
    """Where a value comes from: the layer, the clause it is cited as, and the place it is written."""

    layer: str
    clause: str | None
    file: str
    line: int
    col: int


@dataclass(frozen=True, eq=False, slots=True)
class Note:
    kind: str | None  # design, play, ... or None for a plain note
    label: str
    text: str
    layer: str | None = None  # the layer whose override added the note (or quotes it)


@dataclass(frozen=True, eq=False, slots=True)
class Cite:
    """An override, as the item it changed lists it. set: the settings a change of a list value made."""

    layer: str
    notes: tuple[Note, ...]
    origin: Origin
    set: tuple[tuple[str, Value], ...] | None = None


@dataclass(frozen=True, eq=False, slots=True)
class Clause:
    number: str
    title: str | None
    text_only: bool
    texts: tuple[str, ...]
    notes: tuple[Note, ...]
    see: tuple[Ref, ...]
    origin: Origin
    overridden_by: tuple[Cite, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class External:
    number: str
    title: str | None
    url: str


@dataclass(frozen=True, eq=False, slots=True)
class EnumAttr:
    """A setting every value of a list has: `has negatable: bool = false`."""

    name: str
    t: Type
    title: str | None
    default: Value


@dataclass(frozen=True, eq=False, slots=True)
class AttrValue:
    value: Value
    origin: Origin | None  # None: the default


@dataclass(frozen=True, eq=False, slots=True)
class EnumMember:
    name: str
    title: str | None
    attrs: tuple[tuple[str, AttrValue], ...]  # every setting of the list, in its order
    texts: tuple[str, ...]
    notes: tuple[Note, ...]
    see: tuple[Ref, ...]
    origin: Origin
    overridden_by: tuple[Cite, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class EnumDef:
    name: str
    title: str | None
    ordered: bool
    cyclic: bool
    attrs: tuple[EnumAttr, ...]
    members: tuple[EnumMember, ...]
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class RecordField:
    name: str
    t: Type
    title: str | None
    default: Value
    required: bool


@dataclass(frozen=True, eq=False, slots=True)
class RecordDef:
    name: str
    title: str | None
    fields: tuple[RecordField, ...]
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class Param:
    name: str
    t: Type
    see: tuple[Ref, ...] | None = None  # None: written without `see`


@dataclass(frozen=True, eq=False, slots=True)
class ConstDef:
    name: str
    title: str | None
    t: Type
    value: Expr
    origin: Origin
    overridden_by: tuple[Cite, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class Define:
    """A define, or an invariant (invariant: the record fields it reads, the first one blamed)."""

    name: str
    title: str | None
    params: tuple[Param, ...]
    returns: Type
    body: Expr
    origin: Origin
    invariant: tuple[str, ...] | None = None
    overridden_by: tuple[Cite, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class Row:
    label: str
    title: str | None
    when: Expr | None  # None: otherwise
    value: Expr
    origin: Origin
    exception: bool = False  # a row an `except` of another clause put ahead of the table's own
    overridden_by: tuple[Cite, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class Table:
    name: str
    title: str | None
    params: tuple[Param, ...]
    returns: Type
    rows: tuple[Row, ...]
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class Condition:
    """An `unless` of a limits group, or an exception to one limit."""

    cond: Expr
    title: str | None
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class Limit:
    name: str
    title: str | None
    measure: Expr
    bound: Expr
    origin: Origin
    exempt: tuple[Condition, ...] = ()
    overridden_by: tuple[Cite, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class Limits:
    name: str
    title: str | None
    params: tuple[Param, ...]
    unless: tuple[Condition, ...]
    items: tuple[Limit, ...]
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class TableExcept:
    """`except re_size { rows }`: rows that go ahead of the table's own."""

    target: str
    rows: tuple[Row, ...]
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class LimitExcept:
    """`except stacking.combat_re when ...` (or `except stacking when ...`, an unless)."""

    target: tuple[str, ...]
    cond: Expr
    title: str | None
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class BadExcept:
    """An exception the checker rejected, kept for where it is written."""

    origin: Origin


Except = TableExcept | LimitExcept | BadExcept


@dataclass(frozen=True, eq=False, slots=True)
class ClauseTarget:
    number: str


@dataclass(frozen=True, eq=False, slots=True)
class MemberTarget:
    number: str
    enum: str
    member: str


@dataclass(frozen=True, eq=False, slots=True)
class NameTarget:
    """A const or a define."""

    kind: str  # const | define
    number: str
    name: str


@dataclass(frozen=True, eq=False, slots=True)
class RowTarget:
    number: str
    table: str
    row: str


@dataclass(frozen=True, eq=False, slots=True)
class LimitTarget:
    number: str
    limits: str
    limit: str


Target = ClauseTarget | MemberTarget | NameTarget | RowTarget | LimitTarget


def target_key(t: Target) -> tuple[str, ...]:
    """What a target names, for telling two changes of one thing apart."""
    match t:
        case ClauseTarget(number):
            return ("clause", number)
        case MemberTarget(number, enum, member):
            return ("member", number, enum, member)
        case NameTarget(kind, number, name):
            return (kind, number, name)
        case RowTarget(number, table, row):
            return ("row", number, table, row)
        case LimitTarget(number, limits, limit):
            return ("limit", number, limits, limit)


def target_label(t: Target) -> str:
    """How a designer names the thing a change targets: '4.5a F', '4.6 re_size.battalion'."""
    match t:
        case ClauseTarget(number):
            return number
        case MemberTarget(number, _, member):
            return f"{number} {member}"
        case NameTarget(_, number, name):
            return f"{number} {name}"
        case RowTarget(number, table, row):
            return f"{number} {table}.{row}"
        case LimitTarget(number, limits, limit):
            return f"{number} {limits}.{limit}"


@dataclass(frozen=True, eq=False, slots=True)
class Override:
    """A later layer's change of a clause of an earlier one (`override 4.5a F: not negatable`)."""

    target: Target
    set: tuple[tuple[str, Value], ...]
    title: str | None
    texts: tuple[str, ...]
    notes: tuple[Note, ...]
    see: tuple[Ref, ...]
    value: Expr | None
    when: Expr | None
    bound: Expr | None
    origin: Origin
    clause: str
    of_layer: str


@dataclass(frozen=True, eq=False, slots=True)
class CitedRule:
    """`by DAK 4.5a F` in an example."""

    layer: str | None
    number: str
    item: str | None


@dataclass(frozen=True, eq=False, slots=True)
class LetStep:
    name: str
    value: Expr


@dataclass(frozen=True, eq=False, slots=True)
class ExpectStep:
    expr: Expr
    cited: tuple[CitedRule, ...]
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class Example:
    title: str | None
    clause: str
    steps: tuple[LetStep | ExpectStep, ...]
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class Layer:
    """A series, game, scenario or option: what it declares and what it changes."""

    name: str
    kind: str  # series | game | scenario | option
    title: str
    version: str | None
    parent: str | None
    origin: Origin
    clauses: tuple[Clause, ...]
    externals: tuple[External, ...]
    enums: tuple[EnumDef, ...]
    records: tuple[RecordDef, ...]
    consts: tuple[ConstDef, ...]
    defines: tuple[Define, ...]
    tables: tuple[Table, ...]
    limits: tuple[Limits, ...]
    excepts: tuple[Except, ...]
    overrides: tuple[Override, ...]
    examples: tuple[Example, ...]


@dataclass(frozen=True, eq=False, slots=True)
class Ruleset:
    """What is in force: a base layer (series, game or scenario) and the options enabled."""

    name: str
    title: str
    base: str
    options: tuple[str, ...]
    origin: Origin | None  # None: a series, game or scenario, a ruleset of its own


@dataclass(frozen=True, eq=False)
class Program:
    """Every layer checked and lowered, and the rulesets to build."""

    layers: dict[str, Layer]
    rulesets: tuple[Ruleset, ...]


# ---- the resolved model of one ruleset ---------------------------------------------------------


@dataclass(frozen=True, eq=False, slots=True)
class LayerRef:
    name: str
    title: str
    version: str | None


@dataclass(frozen=True, eq=False, slots=True)
class Manifest:
    """What is in force in a ruleset: its series, game, scenario and options, and the layers in order."""

    ruleset: str
    title: str
    series: LayerRef | None
    game: LayerRef | None
    scenario: LayerRef | None
    options: tuple[LayerRef, ...]
    layers: tuple[str, ...]


@dataclass(frozen=True, eq=False, slots=True)
class Resolved:
    """One ruleset: its layers' items, later layers' overrides and exceptions applied."""

    manifest: Manifest
    clauses: tuple[Clause, ...]
    externals: tuple[External, ...]
    enums: tuple[EnumDef, ...]
    records: tuple[RecordDef, ...]
    consts: tuple[ConstDef, ...]
    defines: tuple[Define, ...]
    tables: tuple[Table, ...]
    limits: tuple[Limits, ...]
    examples: tuple[Example, ...]
    overrides: tuple[Override, ...]


IR_VERSION = 1


# ---- declarations in the IR's JSON form ----------------------------------------------------------


def to_ir(model: Resolved) -> IR:
    """The resolved model of a ruleset as the IR's JSON document, which the schema validates and the
    later stages read (each key where it has always been)."""
    m = model.manifest
    return {
        "rulec_ir": IR_VERSION,
        "manifest": {"ruleset": m.ruleset, "title": m.title, "series": _layer_ref(m.series),
                     "game": _layer_ref(m.game), "scenario": _layer_ref(m.scenario),
                     "options": [_layer_ref(o) for o in m.options], "layers": list(m.layers)},
        **_items_ir(model),
        "examples": [example_ir(e) for e in model.examples],
        "overrides": [override_ir(o) for o in model.overrides],
    }


def layer_ir(layer: Layer) -> IR:
    """A layer, before resolving, in the same form (what a layer holds, and its exceptions)."""
    return {
        "name": layer.name, "kind": layer.kind, "title": layer.title, "version": layer.version,
        "parent": layer.parent, "origin": origin_ir(layer.origin), **_items_ir(layer),
        "excepts": [except_ir(x) for x in layer.excepts],
        "overrides": [override_ir(o) for o in layer.overrides],
        "examples": [example_ir(e) for e in layer.examples],
    }


def _items_ir(x: Layer | Resolved) -> IR:
    return {
        "clauses": [clause_ir(c) for c in x.clauses],
        "externals": [{"number": e.number, "title": e.title, "url": e.url} for e in x.externals],
        "enums": [enum_ir(e) for e in x.enums],
        "records": [record_ir(r) for r in x.records],
        "consts": [const_ir(c) for c in x.consts],
        "defines": [define_ir(d) for d in x.defines],
        "tables": [table_ir(t) for t in x.tables],
        "limits": [limits_ir(g) for g in x.limits],
    }


def _layer_ref(r: LayerRef | None) -> IR | None:
    return None if r is None else {"name": r.name, "title": r.title, "version": r.version}


def origin_ir(o: Origin) -> IR:
    return {"layer": o.layer, "clause": o.clause, "file": o.file, "line": o.line, "col": o.col}


def note_ir(n: Note) -> IR:
    out: IR = {"kind": n.kind, "label": n.label, "text": n.text}
    if n.layer is not None:
        out["layer"] = n.layer
    return out


def cite_ir(c: Cite) -> IR:
    out: IR = {"layer": c.layer, "notes": [note_ir(n) for n in c.notes], "origin": origin_ir(c.origin)}
    if c.set is not None:
        out["set"] = dict(c.set)
    return out


def _cites(cites: tuple[Cite, ...]) -> list[IR]:
    return [cite_ir(c) for c in cites]


def clause_ir(c: Clause) -> IR:
    return {"number": c.number, "title": c.title, "text_only": c.text_only, "texts": list(c.texts),
            "notes": [note_ir(n) for n in c.notes], "see": [ref_ir(r) for r in c.see],
            "origin": origin_ir(c.origin), "overridden_by": _cites(c.overridden_by)}


def enum_ir(e: EnumDef) -> IR:
    return {"name": e.name, "title": e.title, "ordered": e.ordered, "cyclic": e.cyclic,
            "attrs": [{"name": a.name, "t": str(a.t), "title": a.title, "default": a.default} for a in e.attrs],
            "members": [member_ir(m) for m in e.members], "origin": origin_ir(e.origin)}


def member_ir(m: EnumMember) -> IR:
    return {"name": m.name, "title": m.title,
            "attrs": {n: {"value": v.value, "origin": None if v.origin is None else origin_ir(v.origin)}
                      for n, v in m.attrs},
            "texts": list(m.texts), "notes": [note_ir(n) for n in m.notes], "see": [ref_ir(r) for r in m.see],
            "origin": origin_ir(m.origin), "overridden_by": _cites(m.overridden_by)}


def record_ir(r: RecordDef) -> IR:
    return {"name": r.name, "title": r.title,
            "fields": [{"name": f.name, "t": str(f.t), "title": f.title, "default": f.default,
                        "required": f.required} for f in r.fields],
            "origin": origin_ir(r.origin)}


def params_ir(params: tuple[Param, ...]) -> list[IR]:
    out = []
    for p in params:
        entry: IR = {"name": p.name, "t": str(p.t)}
        if p.see is not None:
            entry["see"] = [ref_ir(r) for r in p.see]
        out.append(entry)
    return out


def const_ir(c: ConstDef) -> IR:
    out: IR = {"name": c.name, "title": c.title, "t": str(c.t), "value": expr_ir(c.value),
               "origin": origin_ir(c.origin)}
    if c.overridden_by:
        out["overridden_by"] = _cites(c.overridden_by)
    return out


def define_ir(d: Define) -> IR:
    out: IR = {"name": d.name, "title": d.title, "params": params_ir(d.params), "returns": str(d.returns),
               "body": expr_ir(d.body), "origin": origin_ir(d.origin)}
    if d.invariant is not None:
        out["invariant"] = list(d.invariant)
    if d.overridden_by:
        out["overridden_by"] = _cites(d.overridden_by)
    return out


def row_ir(r: Row) -> IR:
    return {"label": r.label, "title": r.title, "when": opt_expr_ir(r.when), "value": expr_ir(r.value),
            "origin": origin_ir(r.origin), "exception": r.exception, "overridden_by": _cites(r.overridden_by)}


def table_ir(t: Table) -> IR:
    return {"name": t.name, "title": t.title, "params": params_ir(t.params), "returns": str(t.returns),
            "rows": [row_ir(r) for r in t.rows], "origin": origin_ir(t.origin)}


def condition_ir(c: Condition) -> IR:
    return {"cond": expr_ir(c.cond), "title": c.title, "origin": origin_ir(c.origin)}


def limits_ir(g: Limits) -> IR:
    return {"name": g.name, "title": g.title, "params": params_ir(g.params),
            "unless": [condition_ir(u) for u in g.unless],
            "items": [{"name": i.name, "title": i.title, "measure": expr_ir(i.measure), "bound": expr_ir(i.bound),
                       "origin": origin_ir(i.origin), "exempt": [condition_ir(c) for c in i.exempt],
                       "overridden_by": _cites(i.overridden_by)} for i in g.items],
            "origin": origin_ir(g.origin)}


def except_ir(x: Except) -> IR:
    match x:
        case TableExcept(target, rows, origin):
            return {"kind": "table", "target": target, "rows": [row_ir(r) for r in rows], "origin": origin_ir(origin)}
        case LimitExcept(target, cond, title, origin):
            return {"kind": "limit", "target": list(target), "cond": expr_ir(cond), "title": title,
                    "origin": origin_ir(origin)}
        case BadExcept(origin):
            return {"kind": "error", "origin": origin_ir(origin)}


def target_ir(t: Target) -> IR:
    match t:
        case ClauseTarget(number):
            return {"kind": "clause", "number": number}
        case MemberTarget(number, enum, member):
            return {"kind": "member", "number": number, "enum": enum, "member": member}
        case NameTarget(kind, number, name):
            return {"kind": kind, "number": number, "name": name}
        case RowTarget(number, table, row):
            return {"kind": "row", "number": number, "table": table, "row": row}
        case LimitTarget(number, limits, limit):
            return {"kind": "limit", "number": number, "limits": limits, "limit": limit}


def override_ir(o: Override) -> IR:
    return {"target": target_ir(o.target), "set": dict(o.set), "title": o.title, "texts": list(o.texts),
            "notes": [note_ir(n) for n in o.notes], "see": [ref_ir(r) for r in o.see],
            "value": opt_expr_ir(o.value), "when": opt_expr_ir(o.when), "bound": opt_expr_ir(o.bound),
            "origin": origin_ir(o.origin), "clause": o.clause, "of_layer": o.of_layer}


def example_ir(e: Example) -> IR:
    steps: list[IR] = []
    for s in e.steps:
        match s:
            case LetStep(name, value):
                steps.append({"k": "let", "name": name, "value": expr_ir(value)})
            case ExpectStep(expr, cited, origin):
                steps.append({"k": "expect", "expr": expr_ir(expr),
                              "cited": [{"layer": c.layer, "number": c.number, "item": c.item} for c in cited],
                              "origin": origin_ir(origin)})
    return {"title": e.title, "clause": e.clause, "steps": steps, "origin": origin_ir(e.origin)}


def ruleset_ir(r: Ruleset) -> IR:
    return {"name": r.name, "title": r.title, "base": r.base, "options": list(r.options),
            "origin": None if r.origin is None else origin_ir(r.origin)}
