"""The checked model: typed expressions, the declarations of each layer, a ruleset's resolved model.

All frozen dataclasses, compared by identity (a model shares what it does not change). The checker
builds the expressions, the lowering (lower.py) the layers, the resolver one model per ruleset from
them; ir.to_ir writes a resolved model as the JSON IR.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    return _CHILDREN[type(e)](e)  # a table, not a match: every walk over every expression comes here


def _leaf(e: Lit | Var | Const | Member | Error) -> tuple[Expr, ...]:
    return ()


def _of(e: Field | Attr) -> tuple[Expr, ...]:
    return (e.of,)


def _args(e: Call | Builtin | Op) -> tuple[Expr, ...]:
    return e.args


def _if(e: If) -> tuple[Expr, ...]:
    return (e.cond, e.then, e.else_)


def _let(e: Let) -> tuple[Expr, ...]:
    return (e.value, e.body)


def _agg(e: Agg) -> tuple[Expr, ...]:
    return (e.over, e.body) if e.where is None else (e.over, e.where, e.body)


def _fields(e: RecordLit) -> tuple[Expr, ...]:
    return tuple(v for _, v in e.fields)


def _items(e: ListLit | SetLit) -> tuple[Expr, ...]:
    return e.items


_CHILDREN: dict[type, Callable[[Any], tuple[Expr, ...]]] = {
    Lit: _leaf, Var: _leaf, Const: _leaf, Member: _leaf, Error: _leaf, Field: _of, Attr: _of, Call: _args,
    Builtin: _args, Op: _args, If: _if, Let: _let, Agg: _agg, RecordLit: _fields, ListLit: _items, SetLit: _items,
}


def walk(e: Expr) -> list[Expr]:
    """e and every expression inside it, without recursion."""
    out: list[Expr] = []
    todo = [e]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(children(n))
    return out


def free_names(e: Expr) -> set[str]:
    """The names e reads from around it (an example's lets, a definition's parameters): every
    variable but those bound inside e by a `let` or an aggregate's own variable. Without recursion."""
    out: set[str] = set()
    todo: list[tuple[Expr, frozenset[str]]] = [(e, frozenset())]
    while todo:
        n, bound = todo.pop()
        if isinstance(n, Var):
            out |= {n.name} - bound
        elif isinstance(n, Let):
            todo += [(n.value, bound), (n.body, bound | {n.name})]
        elif isinstance(n, Agg):
            todo += [(n.over, bound)] + [(x, bound | {n.var}) for x in (n.where, n.body) if x is not None]
        else:
            todo += [(c, bound) for c in children(n)]
    return out


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
    """An override, as the item it changed lists it. set: the settings a change of a list value made.
    decides: what of the item it changed that an answer rests on ("when" and "value" of a row, "value"
    of a named number or definition, "bound" of a limit, the settings of a list value; none for a
    change of words). replaced: later layers' overrides changed again all it decides, so no answer
    rests on it and none cites it; the item still lists it, as the history a card shows."""

    layer: str
    notes: tuple[Note, ...]
    origin: Origin
    set: tuple[tuple[str, Value], ...] | None = None
    decides: tuple[str, ...] = ()
    replaced: bool = False


def cited_overrides(overridden_by: tuple[Cite, ...], attr: str | None = None) -> list[Cite]:
    """The overrides of an item an answer cites, oldest first: those still in force (not replaced);
    for a list value's setting `attr`, the last that set it. The interpreter and the generated
    modules both cite by this."""
    if attr is not None:
        setting = [ov for ov in overridden_by if attr in dict(ov.set or ())]
        return setting[-1:]
    return [ov for ov in overridden_by if not ov.replaced]


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
class Clause:
    number: str
    title: str | None
    text_only: bool
    texts: tuple[str, ...]
    notes: tuple[Note, ...]
    see: tuple[Ref, ...]
    origin: Origin
    overridden_by: tuple[Cite, ...] = ()
    illustrative: bool = False  # not quoted from a published source: marked on sheets, off player cards


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


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
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


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
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


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
class ConstDef:
    name: str
    title: str | None
    t: Type
    value: Expr
    origin: Origin
    overridden_by: tuple[Cite, ...] = ()
    says: str | None = None  # the phrase a card prints for the value (`says "..."`)


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
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
    says: str | None = None
    requires: Expr | None = None  # the inputs it answers (its domain): a call outside has no answer
    requires_says: str | None = None  # how a card words them (`requires ... says "..."`)


@dataclass(frozen=True, eq=False, slots=True)
class Row:
    label: str
    title: str | None
    when: Expr | None  # None: otherwise
    value: Expr
    origin: Origin
    exception: bool = False  # a row an `except` of another clause put ahead of the table's own
    overridden_by: tuple[Cite, ...] = ()
    says: str | None = None


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
class Table:
    name: str
    title: str | None
    params: tuple[Param, ...]
    returns: Type
    rows: tuple[Row, ...]
    origin: Origin
    says: str | None = None
    requires: Expr | None = None  # the inputs it answers (its domain): a call outside has no answer
    requires_says: str | None = None  # how a card words them (`requires ... says "..."`)
    overridden_by: tuple[Cite, ...] = ()  # later layers' overrides of the table itself (what it requires, its title)


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
    says: str | None = None


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
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


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
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
    says: str | None = None  # the phrase a card prints for the new value (`says "..."`)
    requires: Expr | None = None  # what a table or definition requires anew (`requires ...`)
    requires_says: str | None = None  # and how a card words it


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


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
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
    cards: tuple[Card, ...] = ()
    theme: ThemeRef | None = None


@dataclass(frozen=True, eq=False, slots=True)
class ThemeRef:
    """A layer's `theme "path"`: folder is where its files are, named as the rules files are."""

    path: str
    folder: str
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class Shown:
    """What a declared card shows: a clause (name None), one of its declarations, or its text ('text')."""

    number: str
    name: str | None
    origin: Origin


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    """A player aid card the designer lays out: its blocks in order, its size and columns (None: the
    defaults, a page of two columns). A later layer's card of the same name takes its place."""

    name: str
    title: str
    size: str | None
    columns: int | None
    shows: tuple[Shown, ...]
    origin: Origin
    illustrative: bool = False  # shows the illustrative clauses' values too, marked


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


@dataclass(frozen=True, eq=False, slots=True, weakref_slot=True)
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
    cards: tuple[Card, ...] = ()  # declared cards, in the order first declared; none: cards are packed
    theme: ThemeRef | None = None  # the cards' theme: the last layer's that has one


@contextmanager
def building() -> Iterator[None]:
    """Pause the garbage collector while a model is built: it would go over the model's objects
    many times as they are made, and none of them is garbage (a third of the time of checking,
    lowering and writing a large rulebook)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
