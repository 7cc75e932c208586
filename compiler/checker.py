"""Check the syntax trees of all files: layers, names, rule numbers, types, overrides, rulesets.

Every mistake is reported here, as a diagnostic. What checking finds out about each layer (the
typed node of every expression, the value of every constant, the target of every override, and
what it refused) is kept in its `Checked`, from which lower.py builds the typed layers.
"""

from __future__ import annotations

import keyword
import re
import sys
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from . import ast
from . import model as m
from .diagnostics import Diagnostic, Span, did_you_mean
from .exprs import EnumInfo, Lowerer, Signature, literal_value
from .model import Value
from .types import ANY, BOOL, NUMBER, EnumT, ListT, RecordT, SetT, TextT, Type, parse_type

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


# ---- pass 3: each layer's clauses, declarations, exceptions, overrides and examples ----------


class LayerCheck:
    """Checks the items of one layer, recording what it finds in the layer's `Checked`."""

    def __init__(self, checker: Checker, lay: LayerInfo):
        self.checker = checker
        self.lay = lay
        self.scope = ChainScope(checker, lay)
        self.lowerer = Lowerer(self.scope, checker.diags)
        self.out = lay.checked
        self.changed: dict[tuple[str, ...], Span] = {}  # R106: one change of a thing per layer

    def run(self) -> None:
        for item, _ in self.lay.items:
            if isinstance(item, ast.Rule):
                self.notes(item.notes)
                self.refs(item.see)
                for decl in item.decls:
                    self.decl(decl, item.number)
                for exc in item.excepts:
                    self.except_(exc)
                for ex in item.examples:
                    self.example(ex)
                for ov in item.overrides:
                    self.override(ov)
            elif isinstance(item, (ast.ExceptTable, ast.ExceptLimit)):
                self.except_(item)
            elif isinstance(item, ast.Override):
                self.override(item)
            elif isinstance(item, Decl):
                self.decl(item, None)

    # ---- expressions ---------------------------------------------------------------------

    def lower(self, expr: ast.Expr, local: dict[str, Type]) -> m.Expr:
        node = self.out.exprs[expr] = self.lowerer.lower(expr, local)
        return node

    def expect(self, expr: ast.Expr, want: Type, local: dict[str, Type], what: str) -> m.Expr:
        node = self.out.exprs[expr] = self.lowerer.expect(expr, want, local, what)
        return node

    def constant(self, owner: object, expr: ast.Expr, t: Type, what: str) -> None:
        """A value written where a plain value is wanted (a default, a setting), kept by its owner."""
        node = self.lowerer.expect(expr, t, {}, what)
        try:
            self.out.values[id(owner)] = literal_value(node)
        except ValueError:
            if not isinstance(node, m.Error):
                self.checker.error(expr.span, "R205", f"{what} must be a plain value, not a calculation")
            self.out.values[id(owner)] = None

    # ---- clauses ---------------------------------------------------------------------------

    def notes(self, notes: tuple[ast.Note, ...]) -> None:
        for n in notes:
            if n.kind is not None and n.kind not in NOTE_KINDS:
                self.checker.error(n.span, "R112", f"unknown kind of note '{n.kind}'",
                                   hint=did_you_mean(n.kind, NOTE_KINDS) or f"one of: {', '.join(NOTE_KINDS)}")

    def refs(self, refs: tuple[ast.RuleRef, ...]) -> None:
        for r in refs:
            if not self.ref_ok(r):
                self.out.rejected.add(id(r))

    def ref_ok(self, r: ast.RuleRef) -> bool:
        scope = self.scope
        if r.layer is not None and r.layer not in [x.name for x in scope.layers]:
            self.checker.error(r.span, "R107", f"'{r.layer}' is not {self.lay.name} or a layer it extends",
                               hint=did_you_mean(r.layer, [x.name for x in scope.layers]))
            return False
        if r.number not in scope.known_numbers():
            self.checker.error(r.span, "R102", f"no rule {r.number} in {self.lay.name}",
                               hint=did_you_mean(r.number, list(scope.known_numbers()))
                               or f"declare it with: external {r.number} \"Title\" at \"link\"")
            return False
        if r.item is not None:
            found = scope.clause(r.number)
            items = []
            if found:
                _, rule = found
                items = [mb.name for d in rule.decls if isinstance(d, ast.EnumDecl) for mb in d.members]
                items += [d.name for d in rule.decls]
            if r.item not in items:
                self.checker.error(r.span, "R102", f"rule {r.number} has no item '{r.item}'",
                                   hint=did_you_mean(r.item, items))
                return False
        return True

    # ---- declarations -------------------------------------------------------------------------

    def decl(self, decl: Decl, clause: str | None) -> None:
        known = self.lay.decls.get(decl.name)
        if known is None or known[0] is not decl:
            return  # a duplicate, already reported
        if isinstance(decl, ast.EnumDecl):
            self.enum(decl)
        elif isinstance(decl, ast.RecordDecl):
            types = self.scope.record(decl.name) or {}
            for f in decl.fields:
                if f.default is not None:
                    t = types.get(f.name, (ANY, False))[0]
                    self.constant(f, f.default, t, f"the default of '{f.name}'")
        elif isinstance(decl, ast.ConstDecl):
            self.lower(decl.value, {})
        elif isinstance(decl, ast.DefineDecl):
            sig = self.signature(decl.name)
            body = self.expect(decl.body, sig.returns, dict(sig.params), f"the result of {decl.name}")
            self.params(decl.params or ())
            if decl.invariant:
                self.out.invariants[id(decl)] = self.invariant_fields(decl, sig.params, body)
        elif isinstance(decl, ast.TableDecl):
            sig = self.signature(decl.name)
            for r in decl.rows:
                self.row(r, sig)
            seen: set[str] = set()
            for r in decl.rows:
                if r.label in seen:
                    self.checker.error(r.span, "R104", f"table {decl.name} has two rows labelled '{r.label}'")
                seen.add(r.label)
            self.params(decl.params)
        elif isinstance(decl, ast.LimitsDecl):
            self.limits(decl)

    def signature(self, name: str) -> Signature:
        sig = self.scope.signature(name)
        assert sig is not None
        return sig

    def params(self, params: tuple[ast.Param, ...]) -> None:
        for p in params:
            self.refs(p.see)

    def invariant_fields(self, decl: ast.DefineDecl, params: tuple[tuple[str, Type], ...],
                         body: m.Expr) -> tuple[str, ...]:
        """The fields an invariant reads, the first named when input breaks it."""
        record = params[0][1] if len(params) == 1 else None
        if not isinstance(record, RecordT):
            self.checker.error(decl.span, "R201", f"invariant {decl.name} must take one record",
                               hint=f"for example: invariant {decl.name}(u: Unit) \"...\" = u.step_losses >= 0")
            return ()
        found = _fields_read(body, params[0][0])
        if decl.checks is not None:
            fields = self.scope.record(record.name) or {}
            if decl.checks not in fields:
                self.checker.error(decl.span, "R203", f"{record.name} has no field '{decl.checks}'",
                                   hint=did_you_mean(decl.checks, fields))
            else:
                found = [decl.checks] + [f for f in found if f != decl.checks]
        return tuple(found)

    def enum(self, decl: ast.EnumDecl) -> None:
        info = self.scope.enum(decl.name)
        assert info is not None
        for a in decl.attrs:
            if a.default is not None:
                self.constant(a, a.default, info.attrs[a.name], f"the default of '{a.name}'")
        for mb in decl.members:
            for s in mb.settings:
                if s.name not in info.attrs:
                    self.checker.error(s.span, "R203", f"{decl.name} has no attribute '{s.name}'",
                                       hint=did_you_mean(s.name, info.attrs)
                                       or f"declare it in the list: has {s.name}: bool")
                    self.out.rejected.add(id(s))
                    continue
                self.constant(s, s.value, info.attrs[s.name], f"'{s.name}'")
            self.notes(mb.notes)
            self.refs(mb.see)

    def row(self, r: ast.Row, sig: Signature) -> None:
        local = dict(sig.params)
        if r.when is not None:
            self.expect(r.when, BOOL, local, "a row condition")
        self.expect(r.value, sig.returns, local, f"the value of row '{r.label}'")

    def limits(self, decl: ast.LimitsDecl) -> None:
        local = dict(self.signature(decl.name).params)
        for u in decl.unless:
            self.expect(u.cond, BOOL, local, "an 'unless' condition")
        for lim in decl.limits:
            measure = self.lower(lim.measure, local)
            if not isinstance(measure, m.Error) and not (isinstance(measure, m.Agg) and measure.fn in ("sum", "count")):
                self.checker.error(lim.measure.span, "R201", "a limit measures a sum(...) or count(...) "
                                   "over the units it limits", hint="for example: count(u for u in h.units "
                                   "where u.kind == port) at most 1")
            self.expect(lim.bound, NUMBER, local, "a limit")
        names = [lim.name for lim in decl.limits]
        for lim in decl.limits:
            if names.count(lim.name) > 1:
                self.checker.error(lim.span, "R104", f"{decl.name} has two limits named '{lim.name}'")
                break
        self.params(decl.params)

    # ---- exceptions and overrides -----------------------------------------------------------------

    def except_(self, exc: ast.ExceptTable | ast.ExceptLimit) -> None:
        if not self._except_ok(exc):
            self.out.rejected.add(id(exc))

    def _except_ok(self, exc: ast.ExceptTable | ast.ExceptLimit) -> bool:
        target = exc.target
        found = self.scope.find_decl(target[0])
        if isinstance(exc, ast.ExceptTable):
            if found is None or not isinstance(found[1], ast.TableDecl) or len(target) != 1:
                self._missing(exc.span, ".".join(target), "table", ast.TableDecl)
                return False
            sig = self.signature(target[0])
            for r in exc.rows:
                self.row(r, sig)
            return True
        if found is None or not isinstance(found[1], ast.LimitsDecl) or len(target) > 2:
            self._missing(exc.span, ".".join(target), "limits", ast.LimitsDecl)
            return False
        decl = found[1]
        if len(target) == 2 and target[1] not in [lim.name for lim in decl.limits]:
            self.checker.error(exc.span, "R101", f"{decl.name} has no limit '{target[1]}'",
                               hint=did_you_mean(target[1], [lim.name for lim in decl.limits]))
            return False
        self.expect(exc.cond, BOOL, dict(self.signature(decl.name).params), "an exception's condition")
        return True

    def _missing(self, span: Span, name: str, kind: str, cls: type) -> None:
        names = [n for lay in self.scope.layers for n, (d, _) in lay.decls.items() if isinstance(d, cls)]
        self.checker.error(span, "R101", f"no {kind} named '{name}'", hint=did_you_mean(name, names))

    def override(self, ov: ast.Override) -> None:
        """An override changes a clause of a layer this one extends, at most once per layer."""
        found = self.scope.clause(ov.number)
        if found is None or found[0] is self.lay:
            hint = did_you_mean(ov.number, [n for x in self.scope.layers[1:] for n in x.clauses])
            if found is not None:
                hint = "an override changes a clause of the layer this one extends; edit the clause itself"
            self.checker.error(ov.number_span or ov.span, "R105", f"override of rule {ov.number}, which "
                               f"{'is in this same layer' if found else 'does not exist'}", hint=hint)
            return
        where, rule = found
        target = self._target(ov, rule)
        if target is None or not self._changes(ov, target):
            return
        key = m.target_key(target)
        first = self.changed.get(key)
        if first is not None:
            self.checker.error(_head_span(ov), "R106", f"{self.lay.name} overrides {m.target_label(target)} twice "
                               f"(first at {first.file}:{first.line}:{first.col})",
                               hint="put both changes in one override")
            return
        self.changed[key] = ov.span
        self.out.targets[id(ov)] = (target, where.name)

    def _target(self, ov: ast.Override, rule: ast.Rule) -> m.Target | None:
        path = ov.target
        members = {mb.name: d for d in rule.decls if isinstance(d, ast.EnumDecl) for mb in d.members}
        decls = {d.name: d for d in rule.decls}
        if not path:
            return m.ClauseTarget(ov.number)
        head = path[0]
        if len(path) == 1 and head in members:
            return m.MemberTarget(ov.number, members[head].name, head)
        decl = decls.get(head)
        if decl is None:
            self.checker.error(ov.target_span or ov.span, "R105", f"rule {ov.number} has no '{head}' to override",
                               hint=did_you_mean(head, list(members) + list(decls)))
            return None
        if len(path) == 1 and isinstance(decl, (ast.ConstDecl, ast.DefineDecl)):
            return m.NameTarget("const" if isinstance(decl, ast.ConstDecl) else "define", ov.number, head)
        if len(path) == 2 and isinstance(decl, ast.TableDecl):
            labels = [r.label for r in decl.rows]
            if path[1] not in labels:
                self.checker.error(ov.target_span or ov.span, "R105", f"table {head} has no row '{path[1]}'",
                                   hint=did_you_mean(path[1], labels))
                return None
            return m.RowTarget(ov.number, head, path[1])
        if len(path) == 2 and isinstance(decl, ast.LimitsDecl):
            names = [lim.name for lim in decl.limits]
            if path[1] not in names:
                self.checker.error(ov.target_span or ov.span, "R105", f"{head} has no limit '{path[1]}'",
                                   hint=did_you_mean(path[1], names))
                return None
            return m.LimitTarget(ov.number, head, path[1])
        self.checker.error(ov.target_span or ov.span, "R105",
                           f"cannot override '{'.'.join(path)}' of rule {ov.number}",
                           hint="name a list value (4.5a F), a const or definition, a table row "
                                "(re_size.battalion) or a limit (stacking.combat_re)")
        return None

    def _changes(self, ov: ast.Override, target: m.Target) -> bool:
        ok = True
        for ch in ov.changes:
            if ch.kind in ("title", "text", "note", "see"):
                if ch.kind == "note" and ch.note is not None:
                    self.notes((ch.note,))
                elif ch.kind == "see":
                    self.refs(ch.refs)
                continue
            ok = self._change(ch, target) and ok
        return ok

    def _change(self, ch: ast.Change, target: m.Target) -> bool:
        match target:
            case m.MemberTarget(enum=enum):
                info = self.scope.enum(enum)
                assert info is not None
                setting = as_setting(ch)
                if setting is None:
                    return self._misfit(ch, "a value of a list takes settings such as 'negatable', "
                                        "'not negatable' or 'cost = 2'")
                attr, expr = setting
                if attr not in info.attrs:
                    self.checker.error(ch.span, "R203", f"{enum} has no attribute '{attr}'",
                                       hint=did_you_mean(attr, info.attrs))
                    return False
                self.constant(ch, expr, info.attrs[attr], f"'{attr}'")
                return True
            case m.NameTarget(kind="const", name=name) if ch.kind == "value" and ch.expr is not None:
                self.expect(ch.expr, self.scope.const_type(name) or ANY, {}, f"the new value of {name}")
                return True
            case m.NameTarget(name=name) if ch.kind == "value" and ch.expr is not None:
                sig = self.signature(name)
                self.expect(ch.expr, sig.returns, dict(sig.params), f"the new result of {name}")
                return True
            case m.RowTarget(table=table) if ch.kind in ("value", "row") and ch.expr is not None:
                sig = self.signature(table)
                local = dict(sig.params)
                if ch.kind == "row":
                    assert ch.expr2 is not None
                    self.expect(ch.expr, BOOL, local, "a row condition")
                    self.expect(ch.expr2, sig.returns, local, "the row's new value")
                else:
                    self.expect(ch.expr, sig.returns, local, "the row's new value")
                return True
            case m.LimitTarget(limits=limits) if ch.kind == "bound" and ch.expr is not None:
                self.expect(ch.expr, NUMBER, dict(self.signature(limits).params), "a limit")
                return True
        kind = m.target_key(target)[0]
        expected = {"clause": "title, text, note or see", "const": "a new value",
                    "define": "a new result expression", "row": "'when ... => ...' or a new value",
                    "limit": "'at most N'", "member": ""}[kind]
        return self._misfit(ch, f"an override of a {kind} takes {expected}")

    def _misfit(self, ch: ast.Change, message: str) -> bool:
        self.checker.error(ch.span, "R110", "this change does not fit what it overrides", hint=message)
        return False

    # ---- examples ------------------------------------------------------------------------------

    def example(self, ex: ast.Example) -> None:
        local: dict[str, Type] = {}
        for step in ex.steps:
            if isinstance(step, ast.Let):
                local[step.name] = self.lower(step.value, local).t
            else:
                self.expect(step.expr, BOOL, local, "what an example expects")
                self.refs(step.cited)


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


def _head_span(ov: ast.Override) -> Span:
    """The rule number and target of an override (`4.5a F`), where they are written."""
    first = ov.number_span or ov.span
    last = ov.target_span or first
    return Span(first.file, first.line, first.col, last.end_line, last.end_col)


def _fields_read(body: m.Expr, var: str) -> list[str]:
    """The fields of record variable var that body reads, breadth first in the order the IR writes
    an expression's parts (a list of parts is one level further down, as it is in the JSON)."""
    found: list[str] = []
    todo: deque[m.Expr | tuple[m.Expr, ...]] = deque([body])
    while todo:
        n = todo.popleft()
        if isinstance(n, tuple):
            todo.extend(n)
            continue
        if isinstance(n, m.Field) and isinstance(n.of, m.Var) and n.of.name == var and n.name not in found:
            found.append(n.name)
        match n:
            case m.Call(args=parts) | m.Builtin(args=parts) | m.Op(args=parts) | m.ListLit(items=parts) \
                    | m.SetLit(items=parts):
                todo.append(parts)
            case m.RecordLit(fields=fields):
                todo.append(tuple(v for _, v in fields))
            case _:
                todo.extend(m.children(n))
    return found


# ---- the whole program -------------------------------------------------------------------------


def check(files: list[ast.File]) -> tuple[CheckedProgram, list[Diagnostic]]:
    """Check every file together: every mistake is a diagnostic; the rest is for lower.lower."""
    checker = Checker()
    with m.building():
        layers, rulesets = checker.assign(files)
        ordered = checker.link(layers)
        for lay in ordered:
            checker.declare(lay)
        for lay in ordered:
            checker.resolve_types(lay)
        for lay in ordered:
            LayerCheck(checker, lay).run()
        _check_cycles(checker, ordered)
        return CheckedProgram(checker, ordered, _rulesets(checker, layers, rulesets)), checker.diags


def declared(lay: LayerInfo) -> list[tuple[Decl, str | None]]:
    """The declarations of a layer in the order written (each with the clause it is in), duplicates
    (already reported) left out."""
    out: list[tuple[Decl, str | None]] = []
    for item, _ in lay.items:
        if isinstance(item, ast.Rule):
            out += [(d, item.number) for d in item.decls]
        elif isinstance(item, Decl):
            out.append((item, None))
    return [(d, clause) for d, clause in out if (known := lay.decls.get(d.name)) is not None and known[0] is d]


def _check_cycles(checker: Checker, layers: list[LayerInfo]) -> None:
    """Definitions, tables and consts may not depend on themselves: every check must end."""
    graph: dict[str, tuple[set[str], Span]] = {}
    for lay in layers:
        decls = [d for d, _ in declared(lay)]
        for kind in (ast.DefineDecl, ast.TableDecl, ast.ConstDecl):
            for d in decls:
                if not isinstance(d, kind):
                    continue
                roots: list[ast.Expr | None] = []
                if isinstance(d, ast.DefineDecl):
                    roots.append(d.body)
                elif isinstance(d, ast.ConstDecl):
                    roots.append(d.value)
                elif isinstance(d, ast.TableDecl):
                    roots += [x for r in d.rows for x in (r.when, r.value)]
                calls: set[str] = set()
                for root in roots:
                    if root is None:
                        continue
                    for node in m.walk(lay.checked.exprs[root]):
                        if isinstance(node, m.Call):
                            calls.add(node.fn)
                        elif isinstance(node, m.Const):
                            calls.add(node.name)
                graph[d.name] = (calls, d.span)
    reported: set[frozenset[str]] = set()
    for start in sorted(graph):
        path = _find_cycle(start, graph)
        if path and frozenset(path) not in reported:
            reported.add(frozenset(path))
            at = graph[start][1]
            span = Span(at.file, at.line, at.col, at.line, at.col + 1)
            checker.error(span, "R109", f"'{start}' depends on itself: {' -> '.join(path + [start])}",
                          hint="rules must not be defined in terms of themselves")


def _find_cycle(start: str, graph: dict[str, tuple[set[str], Span]]) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph[node][0] if node in graph else ()):
            if nxt == start:
                return path + [node] if path else [node]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [node]))
    return None


def _hides_python(name: str) -> bool:
    """A ruleset's module, python/<name>.py, must not stand in for a standard module (a ruleset
    Fractions made a fractions.py that imported itself) nor be a keyword no import can name."""
    low = name.lower()
    return low in sys.stdlib_module_names or keyword.iskeyword(low) or keyword.issoftkeyword(low)


def origin(layer: str, clause: str | None, span: Span) -> m.Origin:
    return m.Origin(layer, clause, span.file, span.line, span.col)


def _rulesets(checker: Checker, layers: dict[str, LayerInfo], decls: list[ast.Ruleset]) -> tuple[m.Ruleset, ...]:
    """Every series, game and scenario builds on its own; a ruleset adds options."""
    out = [m.Ruleset(n, lay.decl.title, n, (), None)
           for n, lay in sorted(layers.items()) if lay.decl.kind != "option"]
    taken = {r.name.lower() for r in out}
    for span, name in [(layers[r.name].decl.span, r.name) for r in out] + [(rs.span, rs.name) for rs in decls]:
        if _hides_python(name):
            checker.error(span, "R111", f"'{name}' would compile to python/{name.lower()}.py, which hides "
                          f"Python's own module or keyword '{name.lower()}'", hint="choose another name")
    for rs in decls:
        base = layers.get(rs.base)
        if base is None or base.decl.kind == "option":
            checker.error(rs.span, "R111", f"ruleset {rs.name} is built on '{rs.base}', "
                          "which is not a series, game or scenario",
                          hint=did_you_mean(rs.base, [n for n, x in layers.items() if x.decl.kind != "option"]))
            continue
        chain = [x.name for x in base.chain()]
        ok = True
        for opt, span in zip(rs.options, rs.option_spans, strict=False):
            lay = layers.get(opt)
            if lay is None or lay.decl.kind != "option":
                checker.error(span, "R111", f"'{opt}' is not an option",
                              hint=did_you_mean(opt, [n for n, x in layers.items() if x.decl.kind == "option"]))
                ok = False
            elif lay.decl.parent not in chain:
                checker.error(span, "R111", f"option {opt} extends {lay.decl.parent}, "
                              f"which is not part of {rs.base}")
                ok = False
            else:
                chain.insert(0, opt)
        if rs.name.lower() in taken:
            checker.error(rs.span, "R111", f"ruleset name '{rs.name}' is already used",
                          hint="names of series, games, scenarios and rulesets must differ (ignoring case)")
            ok = False
        if ok:
            taken.add(rs.name.lower())
            out.append(m.Ruleset(rs.name, rs.title, rs.base, tuple(rs.options), origin(rs.base, None, rs.span)))
    return tuple(out)
