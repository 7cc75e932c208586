"""The syntax tree of a rules file: frozen dataclasses, each with its source span."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .diagnostics import Span

# ---- expressions -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Expr:
    span: Span


@dataclass(frozen=True, eq=False)
class Number(Expr):
    value: Fraction
    text: str


@dataclass(frozen=True, eq=False)
class Text(Expr):
    value: str


@dataclass(frozen=True, eq=False)
class Bool(Expr):
    value: bool


@dataclass(frozen=True, eq=False)
class Name(Expr):
    name: str


@dataclass(frozen=True, eq=False)
class Field(Expr):
    of: Expr
    name: str


@dataclass(frozen=True, eq=False)
class Call(Expr):
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Comprehension(Expr):
    """`sum(re_size(u) for u in h.units where combat_unit(u))`"""

    fn: str
    body: Expr
    var: str
    source: Expr
    where: Expr | None


@dataclass(frozen=True, eq=False)
class Op(Expr):
    """Unary and binary operators: and or not == != < <= > >= in notin + - * / neg."""

    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class If(Expr):
    cond: Expr
    then: Expr
    else_: Expr


@dataclass(frozen=True, eq=False)
class LetIn(Expr):
    """`let n = count(...); n >= 3`: a name for a value inside one expression."""

    name: str
    value: Expr
    body: Expr


@dataclass(frozen=True, eq=False)
class RecordLit(Expr):
    record: str
    fields: tuple[tuple[str, Expr, Span], ...]


@dataclass(frozen=True, eq=False)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class SetLit(Expr):
    items: tuple[Expr, ...]


# ---- types --------------------------------------------------------------------


@dataclass(frozen=True)
class TypeRef:
    """A type as written: bool, int, number, text, a name, or list/set of a type."""

    kind: str  # bool | int | number | text | named | list | set
    span: Span
    name: str = ""
    item: TypeRef | None = None


# ---- pieces of clauses ----------------------------------------------------------


@dataclass(frozen=True)
class RuleRef:
    number: str
    item: str | None
    span: Span
    layer: str | None = None


@dataclass(frozen=True)
class Note:
    kind: str | None
    text: str
    span: Span


@dataclass(frozen=True)
class Param:
    name: str
    type: TypeRef
    span: Span
    see: tuple[RuleRef, ...] = ()


@dataclass(frozen=True)
class Setting:
    """A setting on an enum member: `negatable`, `not negatable`, `cost = 2`."""

    name: str
    value: Expr
    span: Span


@dataclass(frozen=True)
class Member:
    name: str
    title: str | None
    settings: tuple[Setting, ...]
    see: tuple[RuleRef, ...]
    texts: tuple[str, ...]
    notes: tuple[Note, ...]
    span: Span


@dataclass(frozen=True)
class EnumAttr:
    name: str
    type: TypeRef
    default: Expr | None
    title: str | None
    span: Span


@dataclass(frozen=True)
class RecordField:
    name: str
    type: TypeRef
    default: Expr | None
    title: str | None
    span: Span


@dataclass(frozen=True)
class Row:
    label: str
    when: Expr | None  # None: otherwise
    value: Expr
    title: str | None
    span: Span
    says: str | None = None  # the phrase a card prints for the value


@dataclass(frozen=True)
class Limit:
    name: str
    title: str | None
    measure: Expr
    bound: Expr
    span: Span
    says: str | None = None


@dataclass(frozen=True)
class Unless:
    cond: Expr
    title: str | None
    span: Span


# ---- declarations ----------------------------------------------------------------


@dataclass(frozen=True)
class Decl:
    name: str
    span: Span


@dataclass(frozen=True)
class EnumDecl(Decl):
    title: str | None
    ordered: bool
    attrs: tuple[EnumAttr, ...]
    members: tuple[Member, ...]
    cyclic: bool = False


@dataclass(frozen=True)
class RecordDecl(Decl):
    title: str | None
    fields: tuple[RecordField, ...]


@dataclass(frozen=True)
class DefineDecl(Decl):
    params: tuple[Param, ...] | None  # None: written without parentheses
    returns: TypeRef | None
    title: str | None
    body: Expr
    invariant: bool = False
    checks: str | None = None  # an invariant's field to blame
    says: str | None = None
    requires: Expr | None = None  # the inputs it answers: `requires b != 0`
    requires_says: str | None = None  # how a card words them


@dataclass(frozen=True)
class ConstDecl(Decl):
    title: str | None
    value: Expr
    says: str | None = None


@dataclass(frozen=True)
class TableDecl(Decl):
    params: tuple[Param, ...]
    returns: TypeRef
    title: str | None
    rows: tuple[Row, ...]
    says: str | None = None
    requires: Expr | None = None  # the inputs it answers: `requires attack > 0 and defense > 0`
    requires_says: str | None = None  # how a card words them: `requires ... says "..."`


@dataclass(frozen=True)
class LimitsDecl(Decl):
    params: tuple[Param, ...]
    title: str | None
    unless: tuple[Unless, ...]
    limits: tuple[Limit, ...]


@dataclass(frozen=True)
class ExceptTable:
    target: tuple[str, ...]
    rows: tuple[Row, ...]
    span: Span


@dataclass(frozen=True)
class ExceptLimit:
    target: tuple[str, ...]
    cond: Expr
    title: str | None
    span: Span


@dataclass(frozen=True)
class Let:
    name: str
    value: Expr
    span: Span


@dataclass(frozen=True)
class Expect:
    expr: Expr
    cited: tuple[RuleRef, ...]
    span: Span


@dataclass(frozen=True)
class Example:
    title: str | None
    steps: tuple[Let | Expect, ...]
    span: Span


Except = ExceptTable | ExceptLimit
Declaration = EnumDecl | RecordDecl | DefineDecl | ConstDecl | TableDecl | LimitsDecl


@dataclass(frozen=True)
class Rule:
    number: str
    title: str | None
    text_only: bool
    texts: tuple[str, ...]
    notes: tuple[Note, ...]
    see: tuple[RuleRef, ...]
    decls: tuple[Declaration, ...]
    excepts: tuple[Except, ...]
    examples: tuple[Example, ...]
    span: Span
    overrides: tuple[Override, ...] = ()
    illustrative: bool = False  # not quoted from a published source


@dataclass(frozen=True)
class External:
    number: str
    title: str | None
    url: str
    span: Span
    decls: tuple[Declaration, ...] = ()  # what that clause states, cited by its number


# ---- overrides ----------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One change an override makes.

    kind: value (a bare expression), set (`name = expr`), row (`when c => v`),
    bound (`at most n`), requires (`requires c [says "..."]`: expr, and text for its words),
    title, says, text, note, see.
    """

    kind: str
    span: Span
    name: str = ""
    expr: Expr | None = None
    expr2: Expr | None = None
    text: str = ""
    note: Note | None = None
    refs: tuple[RuleRef, ...] = ()


@dataclass(frozen=True)
class Override:
    number: str
    target: tuple[str, ...]
    changes: tuple[Change, ...]
    span: Span
    number_span: Span | None = None  # where the rule number is written
    target_span: Span | None = None  # where the target (F, re_size.battalion) is written


# ---- layers and files ------------------------------------------------------------------


@dataclass(frozen=True)
class LayerDecl:
    """`series OCS "..." version "4.3"`, `game DAK "..." extends OCS "4.3" version "II"`, ..."""

    kind: str  # series | game | scenario | option
    name: str
    title: str
    parent: str | None
    version: str | None  # the layer's own version
    span: Span
    parent_version: str | None = None  # the version of the parent it is written for (checked, R118)


@dataclass(frozen=True)
class InLayer:
    name: str
    span: Span


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    base: str
    options: tuple[str, ...]
    span: Span
    option_spans: tuple[Span, ...] = field(default=())


@dataclass(frozen=True)
class Shown:
    """`show 4.5`, `show 4.6 re_size`, `show 4.5 text`: a clause, a declaration of it, or its text."""

    number: str
    name: str | None
    span: Span


@dataclass(frozen=True)
class Card:
    """`card zoc "Zones of Control" size poker columns 1 { show 4.5, 4.5a }`: a player aid card laid out
    by the designer."""

    name: str
    title: str
    size: str | None
    columns: int | None
    shows: tuple[Shown, ...]
    span: Span
    size_span: Span | None = None
    columns_span: Span | None = None
    illustrative: bool = False  # shows the illustrative clauses' values too


@dataclass(frozen=True)
class ThemeDecl:
    """`theme "theme"`: a folder beside the file, with card.css, a logo and fonts."""

    path: str
    span: Span


Item = (LayerDecl | InLayer | Ruleset | Card | ThemeDecl | Rule | External | Override | ExceptTable | ExceptLimit
        | Declaration)


@dataclass(frozen=True)
class File:
    path: str
    items: tuple[Item, ...]
