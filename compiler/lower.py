"""Lower a checked program to its typed layers (model.py): what each series, game, scenario and option
declares and changes, every value with its origin.

Lowering reports nothing and cannot fail: checking (checker.py) has reported every mistake and
recorded (scope.Checked) what lowering needs (each expression's typed node, each constant's value, each override's
target, and what it refused, which is left out here).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import ast, themes, units
from . import model as m
from .diagnostics import Span
from .exprs import EnumInfo, Signature
from .scope import NOTE_KINDS, ChainScope, Checked, CheckedProgram, LayerInfo, as_setting, declared, origin
from .types import ANY, BoolT, Type


def lower(checked: CheckedProgram) -> m.Program:
    """Every layer of a checked program, typed (with errors or not: what checking refused is left out)."""
    with m.building():
        layers = {lay.name: LayerLowering(checked, lay).run() for lay in checked.layers}
    return m.Program(layers, checked.rulesets)


class LayerLowering:
    def __init__(self, checked: CheckedProgram, lay: LayerInfo):
        self.lay = lay
        self.scope = ChainScope(checked.checker, lay)  # signatures and types, all known once checked
        self.checked: Checked = lay.checked
        self.clauses: list[m.Clause] = []
        self.externals: list[m.External] = []
        self.enums: list[m.EnumDef] = []
        self.records: list[m.RecordDef] = []
        self.consts: list[m.ConstDef] = []
        self.defines: list[m.Define] = []
        self.tables: list[m.Table] = []
        self.limits: list[m.Limits] = []
        self.excepts: list[m.Except] = []
        self.overrides: list[m.Override] = []
        self.examples: list[m.Example] = []
        self.cards: list[m.Card] = []
        self.theme: m.ThemeRef | None = None

    def origin(self, clause: str | None, span: Span) -> m.Origin:
        return origin(self.lay.name, clause, span)

    def run(self) -> m.Layer:
        checker = self.scope.checker
        for item, _ in self.lay.items:
            taken = checker.reused.get(item.span.file)
            if taken is not None:  # a file whose unit the build takes up: its items as lowered then
                for kind, made in taken.items.get(units.place(item.span), ()):
                    self.put(kind, made)
                continue
            unit = checker.unit(item.span)
            before = self.counts()
            self.item(item)
            if unit is not None:
                unit.items[units.place(item.span)] = self.made_since(before)
        for decl, clause in declared(self.lay):
            taken = checker.reused.get(decl.span.file)
            if taken is not None:
                self.put(*taken.decls[units.place(decl.span)])
                continue
            unit = checker.unit(decl.span)
            before = self.counts()
            self.decl(decl, clause)
            if unit is not None:
                unit.decls[units.place(decl.span)] = self.made_since(before)[0]
        d = self.lay.decl
        return m.Layer(d.name, d.kind, d.title, d.version, d.parent, self.origin(None, d.span),
                       tuple(self.clauses), tuple(self.externals), tuple(self.enums), tuple(self.records),
                       tuple(self.consts), tuple(self.defines), tuple(self.tables), tuple(self.limits),
                       tuple(self.excepts), tuple(self.overrides), tuple(self.examples), tuple(self.cards),
                       self.theme)

    _KINDS = ("clauses", "externals", "enums", "records", "consts", "defines", "tables", "limits", "excepts",
              "overrides", "examples", "cards")

    def counts(self) -> tuple[int, ...]:
        return (*(len(getattr(self, kind)) for kind in self._KINDS), id(self.theme))

    def made_since(self, before: tuple[int, ...]) -> list[tuple[str, Any]]:
        """What lowering one item added to the layer (for its file's unit), in order within each kind."""
        made = [(kind, x) for kind, n in zip(self._KINDS, before, strict=False) for x in getattr(self, kind)[n:]]
        if id(self.theme) != before[-1]:
            made.append(("theme", self.theme))
        return made

    def put(self, kind: str, made: Any) -> None:
        if kind == "theme":
            self.theme = made
        else:
            getattr(self, kind).append(made)

    def item(self, item: ast.Item) -> None:
        """Lower one item of the layer (its declarations are lowered after, in the order written)."""
        if isinstance(item, ast.Rule):
            self.clauses.append(self.clause(item))
            self.excepts += [self.except_(exc, item.number) for exc in item.excepts]
            self.examples += [self.example(ex, item.number) for ex in item.examples]
            for ov in item.overrides:
                self.override(ov, item.number)
        elif isinstance(item, ast.External):
            self.externals.append(m.External(item.number, item.title, item.url))
        elif isinstance(item, (ast.ExceptTable, ast.ExceptLimit)):
            self.excepts.append(self.except_(item, None))
        elif isinstance(item, ast.Override):
            self.override(item, None)
        elif isinstance(item, ast.ThemeDecl):
            o = self.origin(None, item.span)
            self.theme = m.ThemeRef(item.path, themes.folder_of(o.file, item.path), o)
        elif isinstance(item, ast.Card):
            self.cards.append(m.Card(item.name, item.title, item.size, item.columns,
                                     tuple(m.Shown(x.number, x.name, self.origin(x.number, x.span))
                                           for x in item.shows), self.origin(None, item.span),
                                     illustrative=item.illustrative))

    def expr(self, e: ast.Expr) -> m.Expr:
        return self.checked.exprs[e]

    def signature(self, name: str) -> Signature:
        sig = self.scope.signature(name)
        assert sig is not None
        return sig

    def enum_info(self, name: str) -> EnumInfo:
        info = self.scope.enum(name)
        assert info is not None
        return info

    # ---- clauses ----------------------------------------------------------------

    def notes(self, notes: tuple[ast.Note, ...]) -> tuple[m.Note, ...]:
        """Notes, an unknown kind (reported) read as a plain note."""
        out = []
        for n in notes:
            kind = n.kind if n.kind in NOTE_KINDS else None
            out.append(m.Note(kind, NOTE_KINDS.get(kind or "", "Note"), n.text))
        return tuple(out)

    def refs(self, refs: tuple[ast.RuleRef, ...]) -> tuple[m.Ref, ...]:
        return tuple(m.Ref(r.number, r.item) for r in refs if id(r) not in self.checked.rejected)

    def clause(self, rule: ast.Rule) -> m.Clause:
        return m.Clause(rule.number, rule.title, rule.text_only, rule.texts, self.notes(rule.notes),
                        self.refs(rule.see), self.origin(rule.number, rule.span), illustrative=rule.illustrative)

    # ---- declarations -----------------------------------------------------------------

    def decl(self, decl: ast.Declaration, clause: str | None) -> None:
        o = self.origin(clause, decl.span)
        if isinstance(decl, ast.EnumDecl):
            self.enums.append(self.enum(decl, o))
        elif isinstance(decl, ast.RecordDecl):
            self.records.append(self.record(decl, o))
        elif isinstance(decl, ast.ConstDecl):
            value = self.expr(decl.value)
            self.consts.append(m.ConstDef(decl.name, decl.title, value.t, value, o, says=decl.says))
        elif isinstance(decl, ast.DefineDecl):
            sig = self.signature(decl.name)
            params = self.params(decl.params or (), sig)
            requires = None if decl.requires is None else self.expr(decl.requires)
            self.defines.append(m.Define(decl.name, decl.title, params, sig.returns,
                                         cite_reads(self.expr(decl.body), params), o,
                                         self.checked.invariants.get(id(decl)) if decl.invariant else None,
                                         says=decl.says, requires=requires, requires_says=decl.requires_says))
        elif isinstance(decl, ast.TableDecl):
            sig = self.signature(decl.name)
            params = self.params(decl.params, sig)
            rows = tuple(self.row(r, clause, params) for r in decl.rows)
            requires = None if decl.requires is None else self.expr(decl.requires)
            self.tables.append(m.Table(decl.name, decl.title, params, sig.returns, rows, o, says=decl.says,
                                       requires=requires, requires_says=decl.requires_says))
        else:
            self.limits.append(self.limits_(decl, o))

    def params(self, written: tuple[ast.Param, ...], sig: Signature) -> tuple[m.Param, ...]:
        return tuple(m.Param(name, t, self.refs(p.see) if p.see else None)
                     for p, (name, t) in zip(written, sig.params, strict=True))

    def value(self, owner: object) -> m.Value:
        return self.checked.values.get(id(owner))

    def enum(self, decl: ast.EnumDecl, o: m.Origin) -> m.EnumDef:
        info = self.enum_info(decl.name)
        attrs = []
        for a in decl.attrs:
            t = info.attrs[a.name]
            default: m.Value = None
            if a.default is not None:
                default = self.value(a)
            elif isinstance(t, BoolT):
                default = False
            attrs.append(m.EnumAttr(a.name, t, a.title, default))
        members = []
        for mb in decl.members:
            values = {a.name: m.AttrValue(a.default, None) for a in attrs}
            for s in mb.settings:
                if id(s) not in self.checked.rejected:
                    values[s.name] = m.AttrValue(self.value(s), self.origin(o.clause, s.span))
            members.append(m.EnumMember(mb.name, mb.title, tuple(values.items()), mb.texts, self.notes(mb.notes),
                                        self.refs(mb.see), self.origin(o.clause, mb.span)))
        return m.EnumDef(decl.name, decl.title, decl.ordered and not decl.cyclic, decl.cyclic, tuple(attrs),
                         tuple(members), o)

    def record(self, decl: ast.RecordDecl, o: m.Origin) -> m.RecordDef:
        types = self.scope.record(decl.name) or {}
        fields = []
        for f in decl.fields:
            t: Type = types.get(f.name, (ANY, False))[0]
            default = None if f.default is None else self.value(f)
            fields.append(m.RecordField(f.name, t, f.title, default, f.default is None))
        return m.RecordDef(decl.name, decl.title, tuple(fields), o)

    def row(self, r: ast.Row, clause: str | None, params: tuple[m.Param, ...] = ()) -> m.Row:
        when = None if r.when is None else cite_reads(self.expr(r.when), params)
        return m.Row(r.label, r.title, when, cite_reads(self.expr(r.value), params), self.origin(clause, r.span),
                     says=r.says)

    def limits_(self, decl: ast.LimitsDecl, o: m.Origin) -> m.Limits:
        unless = tuple(m.Condition(self.expr(u.cond), u.title, self.origin(o.clause, u.span)) for u in decl.unless)
        items = tuple(m.Limit(lim.name, lim.title, self.expr(lim.measure), self.expr(lim.bound),
                              self.origin(o.clause, lim.span), says=lim.says) for lim in decl.limits)
        return m.Limits(decl.name, decl.title, self.params(decl.params, self.signature(decl.name)), unless, items, o)

    # ---- exceptions and overrides -----------------------------------------------------------

    def except_(self, exc: ast.ExceptTable | ast.ExceptLimit, clause: str | None) -> m.Except:
        o = self.origin(clause, exc.span)
        if id(exc) in self.checked.rejected:
            return m.BadExcept(o)
        if isinstance(exc, ast.ExceptTable):
            return m.TableExcept(exc.target[0], tuple(self.row(r, clause) for r in exc.rows), o)
        return m.LimitExcept(exc.target, self.expr(exc.cond), exc.title, o)

    def override(self, ov: ast.Override, within: str | None) -> None:
        """An override: at top level it is cited as the clause it changes; inside a rule of this
        layer (`rule 13.7b { override 13.7 ... }`), as that rule."""
        taken = self.checked.targets.get(id(ov))
        if taken is None:
            return  # refused, and reported
        target, where = taken
        settings: dict[str, m.Value] = {}
        title: str | None = None
        says: str | None = None
        texts: list[str] = []
        notes: list[m.Note] = []
        see: list[m.Ref] = []
        value = when = bound = requires = None
        requires_says: str | None = None
        for ch in ov.changes:
            if ch.kind == "title":
                title = ch.text
            elif ch.kind == "says":
                says = ch.text
            elif ch.kind == "text":
                texts.append(ch.text)
            elif ch.kind == "note":
                notes += self.notes(() if ch.note is None else (ch.note,))
            elif ch.kind == "see":
                see += self.refs(ch.refs)
            elif ch.kind == "requires":
                requires, requires_says = self.expr(_written(ch.expr)), ch.text or None
            elif isinstance(target, m.MemberTarget):
                setting = as_setting(ch)
                assert setting is not None
                settings[setting[0]] = self.value(ch)
            elif isinstance(target, m.LimitTarget):
                bound = self.expr(_written(ch.expr))
            elif ch.kind == "row":
                when, value = self.expr(_written(ch.expr)), self.expr(_written(ch.expr2))
            else:
                value = self.expr(_written(ch.expr))
        self.overrides.append(m.Override(target, tuple(settings.items()), title, tuple(texts), tuple(notes),
                                         tuple(see), value, when, bound, self.origin(within or ov.number, ov.span),
                                         ov.number, where, says, requires, requires_says))

    # ---- examples ------------------------------------------------------------------------

    def example(self, ex: ast.Example, clause: str) -> m.Example:
        steps: list[m.LetStep | m.ExpectStep] = []
        for step in ex.steps:
            if isinstance(step, ast.Let):
                steps.append(m.LetStep(step.name, self.expr(step.value)))
            else:
                cited = tuple(m.CitedRule(r.layer, r.number, r.item) for r in step.cited
                              if id(r) not in self.checked.rejected)
                steps.append(m.ExpectStep(self.expr(step.expr), cited, self.origin(clause, step.span)))
        return m.Example(ex.title, clause, tuple(steps), self.origin(clause, ex.span))


def _written(e: ast.Expr | None) -> ast.Expr:
    assert e is not None  # a change checking took has its expressions
    return e


def cite_reads(e: m.Expr, params: tuple[m.Param, ...]) -> m.Expr:
    """e with each read of a parameter that cites rules (`negated: bool see 4.5b`) marked, so that
    an answer cites 4.5b only when the negation was looked at."""
    cites = {p.name: p.see for p in params if p.see}
    return _cite(e, cites, frozenset()) if cites else e


def _cite(e: m.Expr, cites: dict[str, tuple[m.Ref, ...]], shadowed: frozenset[str]) -> m.Expr:
    def go(x: m.Expr) -> m.Expr:
        return _cite(x, cites, shadowed)

    match e:
        case m.Var(name=name) if name in cites and name not in shadowed:
            return replace(e, see=cites[name])
        case m.Field() | m.Attr():
            return replace(e, of=go(e.of))
        case m.Call() | m.Builtin() | m.Op():
            return replace(e, args=tuple(go(a) for a in e.args))
        case m.If(cond=c, then=a, else_=b):
            return replace(e, cond=go(c), then=go(a), else_=go(b))
        case m.Let(value=v, body=b):
            return replace(e, value=go(v), body=go(b))  # a let does not hide a parameter, an aggregate does
        case m.Agg(var=var, over=over, where=where, body=body):
            inner = shadowed | {var}
            return replace(e, over=go(over), where=None if where is None else _cite(where, cites, inner),
                           body=_cite(body, cites, inner))
        case m.RecordLit(fields=fields):
            return replace(e, fields=tuple((n, go(v)) for n, v in fields))
        case m.ListLit() | m.SetLit():
            return replace(e, items=tuple(go(i) for i in e.items))
    return e
