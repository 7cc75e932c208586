"""What checking knows of each layer: its items, the names it sees (its own and its ancestors'),
and what checking found (`Checked`), which lowering builds the typed layer from."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import ast
from . import model as m
from .diagnostics import Span
from .exprs import EnumInfo, Lowerer, Signature
from .model import Value
from .types import ANY, ListT, TextT, Type

if TYPE_CHECKING:
    from .checker import Checker

NOTE_KINDS = {
    "design": "Design Note",
    "play": "Play Note",
    "player": "Player Note",
    "game": "Specific Game Note",
    "reminder": "Reminder",
    "example": "Example",
    "encoding": "Encoding Note",  # for rulec's readers only (traceability.md), never printed on a sheet or card
}

Decl = ast.EnumDecl | ast.RecordDecl | ast.DefineDecl | ast.ConstDecl | ast.TableDecl | ast.LimitsDecl


@dataclass
class Checked:
    """What checking one layer found, which lowering builds the layer from. AST nodes are keyed by
    identity (an expression itself; the others by id(), as they live as long as their files)."""

    exprs: dict[ast.Expr, m.Expr] = field(default_factory=dict)  # every expression checked, typed
    values: dict[int, Value] = field(default_factory=dict)  # constants, by their setting, default or change
    rejected: set[int] = field(default_factory=set)  # refs, settings and exceptions refused (left out)
    invariants: dict[int, tuple[str, ...]] = field(default_factory=dict)  # the fields each invariant reads
    targets: dict[int, tuple[m.Target, str]] = field(default_factory=dict)  # overrides taken: target, layer


@dataclass
class LayerInfo:
    decl: ast.LayerDecl
    items: list[tuple[ast.Item, str | None]] = field(default_factory=list)  # (item, clause number)
    parent: LayerInfo | None = None
    decls: dict[str, tuple[Decl, str | None]] = field(default_factory=dict)
    clauses: dict[str, ast.Rule] = field(default_factory=dict)
    externals: dict[str, ast.External] = field(default_factory=dict)
    enums: dict[str, EnumInfo] = field(default_factory=dict)
    records: dict[str, dict[str, tuple[Type, bool]]] = field(default_factory=dict)
    sigs: dict[str, Signature] = field(default_factory=dict)
    const_types: dict[str, Type] = field(default_factory=dict)
    checked: Checked = field(default_factory=Checked)

    @property
    def name(self) -> str:
        return self.decl.name

    def chain(self) -> list[LayerInfo]:
        """This layer and its ancestors, nearest first."""
        out: list[LayerInfo] = []
        node: LayerInfo | None = self
        while node is not None and node not in out:
            out.append(node)
            node = node.parent
        return out


class ChainScope:
    """Names visible in a layer: its own and its ancestors'."""

    def __init__(self, checker: Checker, layer: LayerInfo, inferring: set[str] | None = None):
        self.checker = checker
        self.layer = layer
        self.layers = layer.chain()
        # Names whose type is being inferred, shared with the scopes made while inferring,
        # so that `define z = z` or `const a = b; const b = a` ends (and is reported as R109).
        self.inferring: set[str] = set() if inferring is None else inferring
        self._numbers: dict[str, None] = {}
        self._numbers_count = -1

    def find_decl(self, name: str) -> tuple[LayerInfo, Decl, str | None] | None:
        for lay in self.layers:
            if name in lay.decls:
                decl, clause = lay.decls[name]
                return lay, decl, clause
        return None

    def const_type(self, name: str) -> Type | None:
        found = self.find_decl(name)
        if found is None or not isinstance(found[1], ast.ConstDecl):
            return None
        lay, decl, _ = found
        assert isinstance(decl, ast.ConstDecl)
        if name not in lay.const_types:
            if name in self.inferring:
                return ANY
            self.inferring.add(name)
            lowerer = Lowerer(ChainScope(self.checker, lay, self.inferring))
            lay.const_types[name] = lowerer.lower(decl.value, {}).t
            self.inferring.discard(name)
        return lay.const_types[name]

    def signature(self, name: str) -> Signature | None:
        found = self.find_decl(name)
        if found is None:
            return None
        lay, decl, _ = found
        if not isinstance(decl, (ast.DefineDecl, ast.TableDecl, ast.LimitsDecl)):
            return None
        if name in lay.sigs:
            return lay.sigs[name]
        scope = ChainScope(self.checker, lay, self.inferring)
        params = tuple((p.name, self.checker.resolve_type(p.type, scope)) for p in (decl.params or ()))
        if isinstance(decl, ast.LimitsDecl):
            sig = Signature(params, ListT(TextT()), "limits")
        elif decl.returns is not None:
            sig = Signature(params, self.checker.resolve_type(decl.returns, scope),
                            "table" if isinstance(decl, ast.TableDecl) else "define")
        else:
            assert isinstance(decl, ast.DefineDecl)
            if name in self.inferring:
                return Signature(params, ANY, "define")
            self.inferring.add(name)
            returns = Lowerer(scope).lower(decl.body, dict(params)).t
            self.inferring.discard(name)
            sig = Signature(params, returns, "define")
        lay.sigs[name] = sig
        return sig

    def enum(self, name: str) -> EnumInfo | None:
        for lay in self.layers:
            if name in lay.enums:
                return lay.enums[name]
        return None

    def record(self, name: str) -> dict[str, tuple[Type, bool]] | None:
        for lay in self.layers:
            if name in lay.records:
                return lay.records[name]
        return None

    def enums_with_member(self, name: str) -> list[str]:
        return sorted(e.name for lay in self.layers for e in lay.enums.values() if name in e.members)

    def names(self) -> list[str]:
        out = [n for lay in self.layers for n in lay.decls]
        out += [m for lay in self.layers for e in lay.enums.values() for m in e.members]
        return out

    def clause(self, number: str) -> tuple[LayerInfo, ast.Rule] | None:
        for lay in self.layers:
            if number in lay.clauses:
                return lay, lay.clauses[number]
        return None

    def known_numbers(self) -> Collection[str]:
        """Every rule number the layer can cite (its own and its ancestors' clauses and externals);
        made again only when a layer gained one (it is asked once per reference)."""
        count = sum(len(lay.clauses) + len(lay.externals) for lay in self.layers)
        if self._numbers_count != count:
            self._numbers = {n: None for lay in self.layers for n in (*lay.clauses, *lay.externals)}
            self._numbers_count = count
        return self._numbers.keys()


@dataclass
class CheckedProgram:
    """Every layer checked (parents first), each with what checking found, and the rulesets to build."""

    checker: Checker
    layers: list[LayerInfo]
    rulesets: tuple[m.Ruleset, ...]
    # What checking the links (links.check_links) lowered and resolved, when it had links to check:
    # the build takes them up rather than lowering and resolving the same program again.
    lowered: m.Program | None = None
    resolved: dict[str, m.Resolved] = field(default_factory=dict)


def declared(lay: LayerInfo) -> list[tuple[Decl, str | None]]:
    """The declarations of a layer in the order written (each with the clause it is in), duplicates
    (already reported) left out."""
    out: list[tuple[Decl, str | None]] = []
    for item, _ in lay.items:
        if isinstance(item, (ast.Rule, ast.External)):
            out += [(d, item.number) for d in item.decls]
        elif isinstance(item, Decl):
            out.append((item, None))
    return [(d, clause) for d, clause in out if (known := lay.decls.get(d.name)) is not None and known[0] is d]


def origin(layer: str, clause: str | None, span: Span) -> m.Origin:
    return m.Origin(layer, clause, span.file, span.line, span.col)


def as_setting(ch: ast.Change) -> tuple[str, ast.Expr] | None:
    """A change of a list value's setting: `cost = 2`, or `negatable` / `not negatable`."""
    if ch.kind == "set" and ch.expr is not None:
        return ch.name, ch.expr
    e = ch.expr
    if ch.kind == "value" and isinstance(e, ast.Name):
        return e.name, ast.Bool(e.span, True)
    if ch.kind == "value" and isinstance(e, ast.Op) and e.op == "not" and isinstance(e.args[0], ast.Name):
        return e.args[0].name, ast.Bool(e.span, False)
    return None
