"""Check the syntax trees of all files: layers, names, rule numbers, types, overrides.

The output is one checked layer per series/game/scenario/option, its declarations
lowered to the IR's JSON form, each carrying its origin (layer, clause, file, line).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from . import ast
from .diagnostics import Diagnostic, Span, did_you_mean
from .exprs import IR, EnumInfo, Lowerer, Signature, literal_value
from .types import ANY, EnumT, ListT, RecordT, SetT, TextT, Type, assignable, describe, parse_type

NOTE_KINDS = {
    "design": "Design Note",
    "play": "Play Note",
    "player": "Player Note",
    "game": "Specific Game Note",
    "reminder": "Reminder",
    "example": "Example",
}
# A link a rule sheet or card may carry: a web address, or a path with no scheme (never javascript:),
# in characters that cannot end a Markdown link or an HTML attribute.
_SAFE_LINK = re.compile(r"(?:(?:https?|mailto):|(?![A-Za-z][A-Za-z0-9+.-]*:))[A-Za-z0-9._~/?#@!$&*+,;=%:-]*")

PARENT_KINDS = {"series": (), "game": ("series",), "scenario": ("game", "series"),
                "option": ("series", "game", "scenario")}
Decl = ast.EnumDecl | ast.RecordDecl | ast.DefineDecl | ast.ConstDecl | ast.TableDecl | ast.LimitsDecl


def origin(layer: str, clause: str | None, span: Span) -> dict[str, Any]:
    return {"layer": layer, "clause": clause, "file": span.file, "line": span.line, "col": span.col}


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
class Program:
    """Every layer checked, and the rulesets to build."""

    layers: dict[str, dict[str, Any]]
    rulesets: list[dict[str, Any]]


class Checker:
    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, code, message, hint=hint))

    # ---- pass 1: which layer each item belongs to ---------------------------------

    def assign(self, files: list[ast.File]) -> tuple[dict[str, LayerInfo], list[ast.Ruleset]]:
        layers: dict[str, LayerInfo] = {}
        pending: list[tuple[str, ast.Item, Span]] = []
        rulesets: list[ast.Ruleset] = []
        for f in files:
            current: str | None = None
            for item in f.items:
                if isinstance(item, ast.LayerDecl):
                    if item.name in layers:
                        first = layers[item.name].decl.span
                        self.error(item.span, "R104", f"layer '{item.name}' is declared twice (first at {first})",
                                   hint=f"to add to it from another file, write: in {item.name}")
                    else:
                        layers[item.name] = LayerInfo(item)
                    current = item.name
                elif isinstance(item, ast.InLayer):
                    current = item.name
                    pending.append((item.name, item, item.span))
                elif isinstance(item, ast.Ruleset):
                    rulesets.append(item)
                elif current is None:
                    self.error(_span_of(item), "R107", "this belongs to no layer",
                               hint="start the file with a series, game, scenario or option line, or 'in NAME'")
                else:
                    pending.append((current, item, _span_of(item)))
        for name, item, span in pending:
            if name not in layers:
                if isinstance(item, ast.InLayer):
                    self.error(span, "R107", f"unknown layer '{name}'", hint=did_you_mean(name, layers))
                continue
            if not isinstance(item, ast.InLayer):
                layers[name].items.append((item, None))
        return layers, rulesets

    def link(self, layers: dict[str, LayerInfo]) -> list[LayerInfo]:
        """Connect each layer to its parent; return them parents first."""
        # Circles first: every edge of one may be of a kind no layer can extend (a game
        # extending a game), and the circle is the mistake to report, once.
        in_circle: set[str] = set()
        for lay in sorted(layers.values(), key=lambda x: x.name):
            path: list[str] = []
            name: str | None = lay.name
            while name is not None and name in layers and name not in path:
                path.append(name)
                name = layers[name].decl.parent
            if name is not None and name in path:
                circle = path[path.index(name):]
                if not in_circle & set(circle):
                    names = " -> ".join(circle + [name])
                    self.error(layers[circle[0]].decl.span, "R108",
                               f"layers extend each other in a circle: {names}",
                               hint="a game extends a series, a scenario a game or a series, "
                                    "an option any of them")
                in_circle.update(circle)
        for lay in layers.values():
            d = lay.decl
            if d.parent is None or d.name in in_circle:
                continue
            parent = layers.get(d.parent)
            if parent is None:
                self.error(d.span, "R107", f"{d.name} extends unknown layer '{d.parent}'",
                           hint=did_you_mean(d.parent, layers))
            elif parent.decl.kind not in PARENT_KINDS[d.kind]:
                self.error(d.span, "R107", f"a {d.kind} cannot extend a {parent.decl.kind} ({d.parent})",
                           hint=f"a {d.kind} extends a {' or a '.join(PARENT_KINDS[d.kind])}")
            else:
                lay.parent = parent
        ordered: list[LayerInfo] = []
        for lay in sorted(layers.values(), key=lambda x: x.name):
            chain = []
            node: LayerInfo | None = lay
            while node is not None and node not in chain:
                chain.append(node)
                node = node.parent
            if node is not None:  # the walk came back to a layer: a cycle
                names = " -> ".join(n.name for n in chain + [node])
                self.error(lay.decl.span, "R108", f"layers extend each other in a circle: {names}")
                lay.parent = None
        seen: set[str] = set()

        def visit(x: LayerInfo) -> None:
            if x.name in seen:
                return
            if x.parent:
                visit(x.parent)
            seen.add(x.name)
            ordered.append(x)

        for lay in sorted(layers.values(), key=lambda x: x.name):
            visit(lay)
        return ordered

    # ---- pass 2: declarations and rule numbers --------------------------------------------

    def declare(self, lay: LayerInfo) -> None:
        scope = ChainScope(self, lay)
        for item, _ in lay.items:
            if isinstance(item, ast.Rule):
                self._declare_rule(lay, scope, item)
                for decl in item.decls:
                    self._declare(lay, scope, decl, item.number)
            elif isinstance(item, ast.External):
                if item.number in scope.known_numbers():
                    self.error(item.span, "R103", f"rule number {item.number} is declared twice")
                if not _SAFE_LINK.fullmatch(item.url):
                    self.error(item.span, "R113", f"the link of {item.number} is not a web address or a relative "
                               f"path: {item.url!r}", hint="write https://... or a path such as "
                               "../3-0-units/#31-ground-units, without spaces, quotes, brackets or a javascript: "
                               "scheme; the link goes onto rule sheets and cards")
                lay.externals[item.number] = item
            elif isinstance(item, Decl):
                self._declare(lay, scope, item, None)

    def _declare_rule(self, lay: LayerInfo, scope: ChainScope, rule: ast.Rule) -> None:
        found = scope.clause(rule.number)
        if found is not None:
            where, first = found
            hint = (f"to change {where.name}'s clause write: override {rule.number} ..."
                    if where is not lay else None)
            self.error(rule.span, "R103", f"rule number {rule.number} is declared twice "
                       f"(first at {first.span})", hint=hint)
            return
        lay.clauses[rule.number] = rule

    def _declare(self, lay: LayerInfo, scope: ChainScope, decl: Decl, clause: str | None) -> None:
        found = scope.find_decl(decl.name)
        if found is not None:
            where, first, _ = found
            hint = (f"to change {where.name}'s '{decl.name}' use an override"
                    if where is not lay else "each name is declared once")
            self.error(decl.span, "R104", f"'{decl.name}' is already declared at {first.span}", hint=hint)
            return
        lay.decls[decl.name] = (decl, clause)
        if isinstance(decl, ast.EnumDecl):
            members = []
            for m in decl.members:
                if m.name in members:
                    self.error(m.span, "R104", f"{decl.name} lists '{m.name}' twice")
                members.append(m.name)
            lay.enums[decl.name] = EnumInfo(decl.name, tuple(members), {}, decl.ordered, decl.cyclic)

    def resolve_types(self, lay: LayerInfo) -> None:
        """Field and attribute types, once every type name is known."""
        scope = ChainScope(self, lay)
        for name, (decl, _) in lay.decls.items():
            if isinstance(decl, ast.EnumDecl):
                attrs = {a.name: self.resolve_type(a.type, scope) for a in decl.attrs}
                lay.enums[name] = EnumInfo(name, lay.enums[name].members, attrs, decl.ordered, decl.cyclic)
            elif isinstance(decl, ast.RecordDecl):
                fields: dict[str, tuple[Type, bool]] = {}
                for f in decl.fields:
                    if f.name in fields:
                        self.error(f.span, "R104", f"{name} has two fields named '{f.name}'")
                    fields[f.name] = (self.resolve_type(f.type, scope), f.default is not None)
                lay.records[name] = fields

    def resolve_type(self, t: ast.TypeRef, scope: ChainScope) -> Type:
        if t.kind in ("list", "set"):
            assert t.item is not None
            item = self.resolve_type(t.item, scope)
            return ListT(item) if t.kind == "list" else SetT(item)
        if t.kind != "named":
            return parse_type(t.kind)
        if scope.enum(t.name):
            return EnumT(t.name)
        found = scope.find_decl(t.name)
        if found is not None and isinstance(found[1], ast.RecordDecl):
            return RecordT(t.name)
        types = [n for lay in scope.layers for n, (d, _) in lay.decls.items()
                 if isinstance(d, (ast.EnumDecl, ast.RecordDecl))]
        self.error(t.span, "R101", f"unknown type '{t.name}'",
                   hint=did_you_mean(t.name, types + ["bool", "int", "number", "text"]))
        return ANY


def _span_of(item: Any) -> Span:
    span = item.span
    assert isinstance(span, Span)
    return span


def change_key(target: dict[str, Any]) -> str:
    return json.dumps(target, sort_keys=True)


__all__ = ["Checker", "ChainScope", "LayerInfo", "Program", "origin", "NOTE_KINDS", "assignable",
           "describe", "literal_value", "IR"]
