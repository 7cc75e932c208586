"""Check the items of one layer: its clauses, declarations, exceptions, overrides and worked examples.

Every mistake is reported; what is found (each expression's typed node, each constant's value,
each override's target, and what is refused) goes into the layer's `Checked`.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from . import ast, papers, units
from . import model as m
from .diagnostics import Span, did_you_mean
from .exprs import Lowerer, Signature, literal_value
from .scope import NOTE_KINDS, ChainScope, Decl, LayerInfo, as_setting
from .types import ANY, BOOL, NUMBER, RecordT, Type
from .units import Unit

if TYPE_CHECKING:
    from .checker import Checker


class LayerCheck:
    """Checks the items of one layer, recording what it finds in the layer's `Checked`."""

    def __init__(self, checker: Checker, lay: LayerInfo):
        self.checker = checker
        self.lay = lay
        self.scope = ChainScope(checker, lay)
        self.lowerer = Lowerer(self.scope, checker.diags)
        self.out = lay.checked
        self.changed: dict[tuple[str, ...], Span] = {}  # R106: one change of a thing per layer
        self.cards: dict[str, Span] = {}  # R104: one card of a name per layer
        self.theme: Span | None = None  # R104: one theme per layer

    def run(self) -> None:
        for item, _ in self.lay.items:
            taken = self.checker.reused.get(item.span.file)
            if taken is not None:
                self.take_up(item, taken)
                continue
            unit = self.checker.unit(item.span)
            before = len(self.checker.diags)
            self.item(item)
            if unit is not None:
                unit.diags += self.checker.diags[before:]

    def take_up(self, item: ast.Item, unit: Unit) -> None:
        """An item of a file whose unit the build takes up (units.py), given as its skeleton: not
        checked again, but its marks on the layer made, as checking it made them (a card's name, the
        theme, what an override it took changes), for the items after it to be checked against."""
        if isinstance(item, ast.Card):
            self.cards.setdefault(item.name, item.span)
        elif isinstance(item, ast.ThemeDecl):
            self.theme = item.span
        overrides = item.overrides if isinstance(item, ast.Rule) else (item,) if isinstance(item, ast.Override) else ()
        for ov in overrides:
            key = unit.changed.get(units.place(ov.span))
            if key is not None:
                self.changed[key] = ov.span

    def item(self, item: ast.Item) -> None:
        """Check one item of the layer, recording what it finds in the layer's `Checked`."""
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
        elif isinstance(item, ast.External):
            for decl in item.decls:
                self.decl(decl, item.number)
        elif isinstance(item, (ast.ExceptTable, ast.ExceptLimit)):
            self.except_(item)
        elif isinstance(item, ast.Override):
            self.override(item)
        elif isinstance(item, Decl):
            self.decl(item, None)
        elif isinstance(item, ast.Card):
            self.card(item)
        elif isinstance(item, ast.ThemeDecl):
            if self.theme is not None:
                self.checker.error(item.span, "R104", f"{self.lay.name} has a theme already (at {self.theme})",
                                   hint="a layer has one theme folder; a later layer's replaces it")
            self.theme = item.span

    # ---- cards ---------------------------------------------------------------------------

    def card(self, card: ast.Card) -> None:
        """A declared card: one of its name in the layer, a known size and column count, and only
        clauses (and their declarations) the layer can see."""
        first = self.cards.setdefault(card.name, card.span)
        if first is not card.span:
            self.checker.error(card.span, "R104", f"card '{card.name}' is declared twice in {self.lay.name} "
                               f"(first at {first})", hint="a later layer's card of the same name replaces this "
                               "one; within a layer, give each card its own name")
        if card.size is not None and card.size not in papers.SIZES:
            close = did_you_mean(card.size, papers.SIZES)
            self.checker.error(card.size_span or card.span, "R120", f"unknown card size '{card.size}'",
                               hint=f"{close + ' ' if close else ''}the sizes are {papers.size_names()}")
        if card.columns is not None and card.columns not in papers.COLUMNS:
            self.checker.error(card.columns_span or card.span, "R120", "a card has 1, 2 or 3 columns")
        for shown in card.shows:
            self.shown(shown)

    def shown(self, shown: ast.Shown) -> None:
        if shown.number not in self.scope.known_numbers():
            self.checker.error(shown.span, "R120", f"the card shows {shown.number}, which is no clause of "
                               f"{self.lay.name} or the layers below it",
                               hint=did_you_mean(shown.number, list(self.scope.known_numbers())))
            return
        if shown.name is None or shown.name == "text":
            return
        found = self.scope.find_decl(shown.name)
        if found is None or found[2] != shown.number:
            here = sorted(n for lay in self.scope.layers for n, (_, c) in lay.decls.items() if c == shown.number)
            where = f" (it is declared in {found[2]})" if found is not None and found[2] else ""
            self.checker.error(shown.span, "R120", f"{shown.number} declares no '{shown.name}'{where}",
                               hint=(f"{shown.number} declares {', '.join(here)}; or write 'show {shown.number} "
                                     "text' for its text") if here else
                               f"write 'show {shown.number}' for the clause, or 'show {shown.number} text'")

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

    def refs(self, refs: tuple[ast.RuleRef, ...], cited: bool = False) -> None:
        """`see` references, or with cited the rules an example's `by` names (whose item is what an
        answer cites: cited_items)."""
        for r in refs:
            if not self.ref_ok(r, cited):
                self.out.rejected.add(id(r))

    def ref_ok(self, r: ast.RuleRef, cited: bool = False) -> bool:
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
            decls: tuple[ast.Declaration, ...] = found[1].decls if found else next(
                (lay.externals[r.number].decls for lay in scope.layers if r.number in lay.externals), ())
            items = cited_items(decls) if cited else declared_items(decls)
            if r.item not in items:
                named = next((d for d in decls if d.name == r.item), None)
                if named is not None:  # answers cite what a table, a named number or a definition holds
                    self.checker.error(r.span, "R102", f"answers cite {r.item} of rule {r.number} by its rule "
                                       "number alone", hint=_by_hint(r, named))
                    return False
                self.checker.error(r.span, "R102", f"rule {r.number} has no item '{r.item}'",
                                   hint=did_you_mean(r.item, items))
                return False
        return True

    # ---- declarations -------------------------------------------------------------------------

    def decl(self, decl: Decl, clause: str | None) -> None:
        known = self.lay.decls.get(decl.name)
        if known is None or known[0] is not decl:
            return  # a duplicate, already reported
        if clause is None:
            self.unnumbered(decl)
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
            if decl.requires is not None:
                self.expect(decl.requires, BOOL, dict(sig.params), f"what {decl.name} requires")
            body = self.expect(decl.body, sig.returns, dict(sig.params), f"the result of {decl.name}")
            self.params(decl.name, decl.params or ())
            if decl.invariant:
                self.out.invariants[id(decl)] = self.invariant_fields(decl, sig.params, body)
        elif isinstance(decl, ast.TableDecl):
            sig = self.signature(decl.name)
            if decl.requires is not None:
                self.expect(decl.requires, BOOL, dict(sig.params), f"what {decl.name} requires")
            for r in decl.rows:
                self.row(r, sig)
            seen: set[str] = set()
            for r in decl.rows:
                if r.label in seen:
                    self.checker.error(r.span, "R104", f"table {decl.name} has two rows labelled '{r.label}'")
                seen.add(r.label)
            self.params(decl.name, decl.params)
        elif isinstance(decl, ast.LimitsDecl):
            self.limits(decl)

    def unnumbered(self, decl: Decl) -> None:
        """R117: a declaration that answers cite, outside every numbered clause, would be cited by its
        layer's name alone ("because Combat unit (OCS)"). Records (the shape of the game state) and
        lists without settings (names of values) are never cited, so they may stand on their own."""
        if isinstance(decl, ast.RecordDecl) or (isinstance(decl, ast.EnumDecl) and not decl.attrs):
            return
        kind = {ast.EnumDecl: "the list", ast.ConstDecl: "the const", ast.TableDecl: "the table",
                ast.LimitsDecl: "the limits"}.get(type(decl), "the definition")
        if isinstance(decl, ast.DefineDecl) and decl.invariant:
            kind = "the invariant"
        self.checker.warning(decl.span, "R117", f"{kind} {decl.name} is outside every numbered clause, so "
                             f"answers would cite it as '{self.lay.name}' alone",
                             hint="declare it inside the rule it belongs to, or inside an "
                                  "`external NUMBER \"Title\" at \"...\" { ... }` clause printed elsewhere")

    def signature(self, name: str) -> Signature:
        sig = self.scope.signature(name)
        assert sig is not None
        return sig

    def params(self, name: str, params: tuple[ast.Param, ...]) -> None:
        seen: dict[str, ast.Param] = {}
        for p in params:
            if p.name in seen:  # the rules could not tell them apart, nor could the generated function
                first = seen[p.name].span
                self.checker.error(p.span, "R104", f"{name} names two parameters '{p.name}' (the first at "
                                   f"{first.line}:{first.col})", hint="give each parameter a name of its own")
            seen.setdefault(p.name, p)
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
        self.params(decl.name, decl.params)

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
            clauses = {n: rule for x in self.scope.layers[1:] for n, rule in x.clauses.items()}
            # an override of an item (4.5z F) is most likely meant for a clause that has that item
            holding = [n for n, rule in clauses.items() if ov.target and ov.target[0] in declared_items(rule.decls)]
            hint = did_you_mean(ov.number, holding) or did_you_mean(ov.number, clauses)
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
        unit = self.checker.unit(ov.span)
        if unit is not None:
            unit.changed[units.place(ov.span)] = key
        self.out.targets[id(ov)] = (target, where.name)
        if isinstance(target, m.RowTarget) and not any(ch.kind == "title" for ch in ov.changes):
            self.stale_title(ov, rule, target)

    def stale_title(self, ov: ast.Override, rule: ast.Rule, target: m.RowTarget) -> None:
        """R115: an override that changes what a titled row decides but keeps the series' title, which
        then describes a row that is no longer there (the row goes untitled in answers and cards)."""
        table = next(d for d in rule.decls if isinstance(d, ast.TableDecl) and d.name == target.table)
        row = next(r for r in table.rows if r.label == target.row)
        if row.title and any(ch.kind in ("value", "row") for ch in ov.changes):
            self.checker.warning(_head_span(ov), "R115", f"{self.lay.name} changes row '{target.row}' of "
                                 f"{target.table} but not its title \"{row.title}\", which describes the "
                                 f"series' row: answers and cards print the row without a title",
                                 hint='give the new row its own words: add  title "..."  to the override')

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
        if len(path) == 1 and isinstance(decl, ast.TableDecl):  # what it requires (its rows one by one)
            return m.NameTarget("table", ov.number, head)
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
                           hint="name a list value (4.5a F), a const or definition, a table (for what it "
                                "requires) or one of its rows (re_size.battalion), or a limit (stacking.combat_re)")
        return None

    def _changes(self, ov: ast.Override, target: m.Target) -> bool:
        ok = True
        for ch in ov.changes:
            if ch.kind == "says":
                if isinstance(target, (m.ClauseTarget, m.MemberTarget)) or \
                        isinstance(target, m.NameTarget) and target.kind == "table":
                    ok = self._misfit(ch, "a phrase ('says') is for a named number, a definition, a table "
                                      "row or a limit: the value a card prints") and ok
                continue
            if ch.kind in ("text", "see") and not isinstance(target, (m.ClauseTarget, m.MemberTarget)):
                ok = self._misfit(ch, f"a {'text' if ch.kind == 'text' else 'reference (see)'} is for a clause or "
                                  "a list value; a note on the change says why it was made, and `title` "
                                  "or `says` words the new value") and ok
                continue
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
            case m.NameTarget(kind="table" | "define", name=name) if ch.kind == "requires" and ch.expr is not None:
                self.expect(ch.expr, BOOL, dict(self.signature(name).params), f"what {name} requires")
                return True
            case m.NameTarget(kind="const", name=name) if ch.kind == "value" and ch.expr is not None:
                self.expect(ch.expr, self.scope.const_type(name) or ANY, {}, f"the new value of {name}")
                return True
            case m.NameTarget(kind="define", name=name) if ch.kind == "value" and ch.expr is not None:
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
                    "define": "a new result expression or 'requires ...'",
                    "table": "'requires ...' (its rows are overridden one by one: re_size.battalion)",
                    "row": "'when ... => ...' or a new value", "limit": "'at most N'", "member": ""}[kind]
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
                self.refs(step.cited, cited=True)


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
            case m.Let(name=name, value=value) | m.Agg(var=name, over=value) if name == var:
                todo.append(value)  # past here var names the let's value or the loop's item, not the record
            case m.Call(args=parts) | m.Builtin(args=parts) | m.Op(args=parts) | m.ListLit(items=parts) \
                    | m.SetLit(items=parts):
                todo.append(parts)
            case m.RecordLit(fields=fields):
                todo.append(tuple(v for _, v in fields))
            case _:
                todo.extend(m.children(n))
    return found


def _list_values(decls: tuple[ast.Declaration, ...]) -> list[str]:
    return [mb.name for d in decls if isinstance(d, ast.EnumDecl) for mb in d.members]


def declared_items(decls: tuple[ast.Declaration, ...]) -> list[str]:
    """What a clause declares, and so what `see NUMBER ITEM` and an override may name: a value of one
    of its lists (4.5a F), a const, definition, table or limits."""
    return _list_values(decls) + [d.name for d in decls]


def cited_items(decls: tuple[ast.Declaration, ...]) -> list[str]:
    """What an answer cites within a clause, after its number, and so what `by NUMBER ITEM` may name:
    a value of one of its lists (4.5a F), a row of one of its tables (4.6 battalion) and a limit
    (4.8 combat_re). A named number, definition or table is cited by the clause's number alone."""
    items = _list_values(decls)
    items += [r.label for d in decls if isinstance(d, ast.TableDecl) for r in d.rows]
    items += [lim.name for d in decls if isinstance(d, ast.LimitsDecl) for lim in d.limits]
    return items


def _by_hint(r: ast.RuleRef, named: ast.Declaration) -> str:
    """How to write a `by` that names what an answer from this declaration cites."""
    whole = " ".join(x for x in (r.layer, r.number) if x)
    if isinstance(named, ast.TableDecl) and named.rows:
        return f"write 'by {whole}', or name the row that answered: 'by {whole} {named.rows[0].label}'"
    if isinstance(named, ast.LimitsDecl) and named.limits:
        return f"write 'by {whole}', or name the limit: 'by {whole} {named.limits[0].name}'"
    return f"write 'by {whole}'"
