"""Check a resolved model by enumeration: table rows that never match, cases no row
covers, exceptions that contradict each other, and the worked examples.

The domains are small and finite (list values, true/false), so every case a
table's conditions can tell apart is tried.  Numbers are sampled around the
constants the conditions compare them with.
"""

from __future__ import annotations

import itertools
import operator
import types
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import ir
from . import model as m
from .crosscheck import CrossChecked, Disagreement, disagreement_diagnostic, plain, show
from .diagnostics import Diagnostic, Span
from .interp import Cite, EvalError, Interpreter, from_json
from .pyexpr import is_constant
from .types import BoolT, EnumT, IntT, NumberT, RecordT, Type

MAX_CASES = 20_000


def span_of(o: m.Origin) -> Span:
    return Span(o.file, o.line, o.col, o.line, o.col + 1)


def analyse(model: m.Resolved, memo: MutableMapping[str, list[Diagnostic]] | None = None,
            examples: bool = True) -> list[Diagnostic]:
    """Every finding on one resolved model. memo, shared between the rulesets of a build (and kept
    by the build cache between builds), holds each table's findings under a hash of everything
    they depend on: a table a game takes unchanged from its series is analysed once. examples:
    run the worked examples too (on the interpreter alone)."""
    diags: list[Diagnostic] = []
    interp = Interpreter(model)
    diags += constant_errors(model, interp)
    memo = {} if memo is None else memo
    for table in model.tables:
        key = interp.closure_key(table)
        if key not in memo:
            memo[key] = TableAnalysis(model, interp, table).run()
        diags += memo[key]
    diags += option_clashes(model)
    if examples:
        diags += run_examples(model)
    return diags


def option_clashes(model: m.Resolved) -> list[Diagnostic]:
    """Two options of one ruleset that change the same thing differently: the later one wins, as the
    ruleset lists them, but a designer should know that order decides it (a warning)."""
    options = {o.name for o in model.manifest.options}
    seen: dict[tuple[str, ...], m.Override] = {}
    out = []
    for ov in model.overrides:
        if ov.origin.layer not in options:
            continue
        first = seen.setdefault(m.target_key(ov.target), ov)
        if first is not ov and not _same_change(first, ov):
            a, b = first.origin.layer, ov.origin.layer
            what = m.target_label(ov.target)
            out.append(Diagnostic(span_of(ov.origin), "R303", f"options {a} and {b} both change {what}, "
                                  f"differently, in ruleset {model.manifest.ruleset}", severity="warning",
                                  hint=f"which one is in force depends on the order of 'with {a}, {b}'; "
                                       "make one option extend the other, or agree on one change"))
    return out


def _same_change(a: m.Override, b: m.Override) -> bool:
    """Whether two overrides change their target alike: the same settings, value, condition, bound,
    title and texts (expressions compared as the IR writes them: the model's classes compare by
    identity)."""
    return (dict(a.set) == dict(b.set) and a.title == b.title and a.texts == b.texts
            and all(ir.opt_expr_ir(x) == ir.opt_expr_ir(y) for x, y in ((a.value, b.value), (a.when, b.when),
                                                                      (a.bound, b.bound))))


def constant_errors(model: m.Resolved, interp: Interpreter) -> list[Diagnostic]:
    """Every constant part of a declaration that cannot be computed (1/0, a number of thousands of
    digits), and every constant that cannot (first of nothing): the Python emitter works both out
    ahead, and the module computes every constant as it is imported, so each is a mistake to report here."""
    out = []
    # Each expression with the origin of the declaration (row, limit, condition) it is part of; the
    # walk goes last item first, last part first (the order the findings have always come in).
    todo: list[tuple[m.Expr, m.Origin]] = []
    for c in model.consts:  # a const reads no input: the whole of it is worked out ahead
        try:
            interp.eval(c.value, {})
        except (EvalError, ArithmeticError, TypeError, KeyError, ValueError) as err:
            out.append(Diagnostic(span_of(c.origin), "R305", f"constant {c.name} cannot be computed: {err}",
                                  hint="a constant is worked out when the rules are loaded; give it a value "
                                       "that can be computed"))
            continue
        todo.append((c.value, c.origin))
    for d in model.defines:
        todo.append((d.body, d.origin))
    for t in model.tables:
        for r in t.rows:
            todo += [(e, r.origin) for e in (r.when, r.value) if e is not None]
    for g in model.limits:
        todo += [(u.cond, u.origin) for u in g.unless]
        for i in g.items:
            todo += [(i.measure, i.origin), (i.bound, i.origin)]
            todo += [(x.cond, x.origin) for x in i.exempt]
    while todo:
        e, origin = todo.pop()
        if not isinstance(e, (m.Lit, m.Member)) and is_constant(e):
            try:
                interp.eval(e, {})
            except (EvalError, ArithmeticError, TypeError, KeyError, ValueError) as err:
                out.append(Diagnostic(span_of(origin), "R305", f"a value here cannot be computed: {err}",
                                      hint="a constant part of this declaration fails whatever the input"))
            continue
        todo += [(c, origin) for c in m.children(e)]
    return out


@dataclass(frozen=True)
class Axis:
    """One thing a case varies: a parameter, or a field of a record parameter."""

    param: str
    field: str | None
    t: Type
    values: tuple[Any, ...]


class TableAnalysis:
    def __init__(self, model: m.Resolved, interp: Interpreter, table: m.Table):
        self.model = model
        self.interp = interp
        self.table = table
        self.enums = {e.name: e for e in model.enums}

    def run(self) -> list[Diagnostic]:
        axes = self.axes()
        if axes is None:
            return []
        total = 1
        for a in axes:
            total *= len(a.values)
        if total > MAX_CASES:
            o = self.table.origin
            return [Diagnostic(span_of(o), "R304", f"table {self.table.name} has {total:,} cases to try, "
                               f"more than the {MAX_CASES:,} rulec tries, so its rows were not checked",
                               severity="warning",
                               hint="split it into smaller tables, each deciding on fewer things")]
        rows = self.table.rows
        first_hits: dict[int, int] = {i: 0 for i in range(len(rows))}
        matched_any: dict[int, int] = {}  # row -> the first row of the first case it matched
        uncovered: str | None = None
        clashes: list[Diagnostic] = []
        deciders = [self.decider(row, axes) for row in rows]
        exceptions = sum(1 for r in rows if r.exception) > 1
        for combo in itertools.product(*(a.values for a in axes)):
            hits = [i for i, decide in enumerate(deciders) if decide(combo)]
            if not hits:
                uncovered = uncovered or self.words(axes, combo)
                continue
            first_hits[hits[0]] += 1
            for i in hits:
                matched_any.setdefault(i, hits[0])
            if exceptions and not clashes:
                clashes += self.clash(rows, hits, self.case(axes, combo), axes, combo)
        diags = []
        for i, row in enumerate(rows):
            if first_hits[i]:
                continue
            o = row.origin
            where = f"row '{row.label}' of {self.table.name} ({self._clause(o)})"
            if i in matched_any:
                by = rows[matched_any[i]]
                diags.append(Diagnostic(span_of(o), "R301", f"{where} can never match: every case it covers "
                             f"is taken first by row '{by.label}'",
                             hint="move it above that row, or narrow that row's condition"))
            else:
                diags.append(Diagnostic(span_of(o), "R301", f"{where} can never match: its condition is "
                             "never true"))
        if uncovered is not None:
            o = self.table.origin
            diags.append(Diagnostic(span_of(o), "R302", f"{uncovered} matches no row of {self._clause(o)} "
                         f"({self.table.name})", hint="add a row for it, or an 'otherwise' row"))
        return diags + clashes[:1]

    def _clause(self, o: m.Origin) -> str:
        return str(o.clause or o.layer)

    def matches(self, row: m.Row, case: dict[str, Any]) -> bool:
        if row.when is None:
            return True
        try:
            return bool(self.interp.eval(row.when, case))
        except (EvalError, TypeError, KeyError, ZeroDivisionError):
            return False

    def clash(self, rows: tuple[m.Row, ...], hits: list[int], case: dict[str, Any],
              axes: list[Axis], combo: tuple[Any, ...]) -> list[Diagnostic]:
        """Two exception rows from different clauses of one layer that both match and disagree."""
        exc = [rows[i] for i in hits if rows[i].exception]
        for a, b in itertools.combinations(exc, 2):
            oa, ob = a.origin, b.origin
            if oa.layer != ob.layer or oa.clause == ob.clause:
                continue
            try:
                va, vb = self.interp.eval(a.value, case), self.interp.eval(b.value, case)
            except (EvalError, TypeError, KeyError, ZeroDivisionError):
                continue
            if va != vb:
                return [Diagnostic(span_of(ob), "R303", f"{self._clause(oa)} and {self._clause(ob)} contradict "
                        f"each other for {self.words(axes, combo)}: {_show(va)} against {_show(vb)}",
                        hint=f"which one is in force depends on file order; narrow one of the conditions "
                             f"of {self.table.name}")]
        return []

    def decider(self, row: m.Row, axes: list[Axis]) -> Callable[[tuple[Any, ...]], bool]:
        """Whether the row matches a case, worked out once for each combination of the axes its
        condition reads: a row that reads two of a table's six axes is evaluated on their few
        combinations, then looked up for every case of the table."""
        if row.when is None:
            return lambda combo: True
        reads = self.reads(row.when)
        idx = [j for j, a in enumerate(axes) if (a.param, a.field) in reads or (a.param, None) in reads]
        if not idx:
            value = self.matches(row, self.case(axes, tuple(a.values[0] for a in axes)))
            return lambda combo: value
        get = operator.itemgetter(*idx)
        yes = set()
        for sub in itertools.product(*(axes[j].values for j in idx)):
            combo = [a.values[0] for a in axes]
            for j, v in zip(idx, sub, strict=True):
                combo[j] = v
            if self.matches(row, self.case(axes, tuple(combo))):
                yes.add(get(combo))
        return lambda combo: get(combo) in yes

    def reads(self, when: m.Expr) -> set[tuple[str, str | None]]:
        """What a condition reads of the table's parameters: (param, field), or (param, None) for a
        parameter read whole. Calls are followed into definitions and tables (their conditions and
        values); a parameter handed anywhere else counts as read whole, so this never misses a read."""
        out: set[tuple[str, str | None]] = set()
        self._reads([when], {p.name: p.name for p in self.table.params}, out, set())
        return out

    def _callee(self, fn: str) -> m.Define | m.Table | None:
        return self.interp.defines.get(fn) or self.interp.tables.get(fn)

    def _reads(self, exprs: list[m.Expr], alias: dict[str, str], out: set[tuple[str, str | None]],
               seen: set[tuple[str, tuple[tuple[str, str], ...]]]) -> None:
        for e in exprs:
            match e:
                case m.Field(of=m.Var(name=name), name=field) if name in alias:
                    out.add((alias[name], field))
                    continue
                case m.Var(name=name) if name in alias:
                    out.add((alias[name], None))
                    continue
                case m.Call(fn=fn, args=args) if (callee := self._callee(fn)) is not None:
                    inner: dict[str, str] = {}
                    for arg, p in zip(args, callee.params, strict=False):
                        if isinstance(arg, m.Var) and arg.name in alias:
                            inner[p.name] = alias[arg.name]
                        else:
                            self._reads([arg], alias, out, seen)
                    key = (fn, tuple(sorted(inner.items())))
                    if key not in seen:
                        seen.add(key)
                        self._reads(_evaluated(callee, values=True), inner, out, seen)
                    continue
            self._reads(list(m.children(e)), alias, out, seen)

    # -- the cases ------------------------------------------------------------------------

    def axes(self) -> list[Axis] | None:
        used = self.fields_used()
        axes: list[Axis] = []
        for p in self.table.params:
            t = p.t
            if isinstance(t, RecordT):
                rec = self.interp.records[t.name]
                for f in rec.fields:
                    if f.required and (p.name, f.name) not in used:
                        return None  # no default to put there (a record holding a Unit)
                    if (p.name, f.name) in used:
                        values = self.values(f.t, p.name, f.name)
                        if values is None:
                            return None
                        axes.append(Axis(p.name, f.name, f.t, values))
            else:
                values = self.values(t, p.name, None)
                if values is None:
                    return None
                axes.append(Axis(p.name, None, t, values))
        return axes

    def values(self, t: Type, param: str, field: str | None) -> tuple[Any, ...] | None:
        match t:
            case BoolT():
                return (False, True)
            case EnumT(name):
                return tuple(mem.name for mem in self.enums[name].members)
            case IntT() | NumberT():
                points = {Fraction(0), Fraction(1)}
                for c in self.constants():
                    points |= {c - 1, c, c + 1, c - Fraction(1, 2), c + Fraction(1, 2)}
                return tuple(sorted(int(x) if x.denominator == 1 else x for x in points
                                    if isinstance(t, NumberT) or x.denominator == 1))
        return None  # lists and texts: not enumerable

    def constants(self) -> set[Fraction]:
        out: set[Fraction] = set()
        for row in self.table.rows:
            if row.when is None:
                continue
            for e in m.walk(row.when):
                if isinstance(e, m.Lit) and isinstance(e.t, (IntT, NumberT)):
                    out.add(Fraction(e.v))
        return out

    def fields_used(self) -> set[tuple[str, str]]:
        """(param, field) pairs the row conditions read, following calls into definitions."""
        used: set[tuple[str, str]] = set()
        seen: set[tuple[str, tuple[str | None, ...]]] = set()
        params = [p.name for p in self.table.params]
        for row in self.table.rows:
            if row.when is not None:
                self._collect(row.when, {p: p for p in params}, used, seen)
        return used

    def _collect(self, e: m.Expr, alias: dict[str, str], used: set[tuple[str, str]],
                 seen: set[tuple[str, tuple[str | None, ...]]]) -> None:
        match e:
            case m.Field(of=m.Var(name=name), name=field) if name in alias:
                used.add((alias[name], field))
            case m.Call(fn=fn, args=args) if (callee := self._callee(fn)) is not None:
                roots = [a.name if isinstance(a, m.Var) and a.name in alias else None for a in args]
                key = (fn, tuple(alias.get(r) if r else None for r in roots))
                if key not in seen:
                    seen.add(key)
                    inner = {p.name: alias[r] for p, r in zip(callee.params, roots, strict=False) if r}
                    for b in _evaluated(callee, values=False):
                        self._collect(b, inner, used, seen)
        for c in m.children(e):
            self._collect(c, alias, used, seen)

    def case(self, axes: list[Axis], combo: tuple[Any, ...]) -> dict[str, Any]:
        env: dict[str, Any] = {}
        fields: dict[str, dict[str, Any]] = {}
        for a, v in zip(axes, combo, strict=False):
            if a.field is None:
                env[a.param] = v
            else:
                fields.setdefault(a.param, {})[a.field] = v
        for p in self.table.params:
            if isinstance(p.t, RecordT):
                env[p.name] = self.interp.default_record(p.t.name, fields.get(p.name, {}))
        return env

    def words(self, axes: list[Axis], combo: tuple[Any, ...]) -> str:
        """A case in a designer's words: 'a Unit with mode Reserve, type Repl'."""
        parts: dict[str, list[str]] = {}
        for a, v in zip(axes, combo, strict=False):
            shown = self._title(a.t, v)
            label = a.field.replace("_", " ") if a.field else a.param
            parts.setdefault(a.param, []).append(f"{label} {shown}")
        out = []
        for p in self.table.params:
            if p.name in parts:
                written = str(p.t)  # 'record Unit', 'enum Mode': the name after the kind
                noun = written.split(" ", 1)[1] if " " in written else p.name
                out.append(f"a {noun} with {', '.join(parts[p.name])}")
        return " and ".join(out) or "every case"

    def _title(self, t: Type, v: Any) -> str:
        if isinstance(t, EnumT):
            for mem in self.enums[t.name].members:
                if mem.name == v:
                    return str(mem.title or mem.name)
        return _show(v)


def _evaluated(callee: m.Define | m.Table, values: bool) -> list[m.Expr]:
    """What a call evaluates: a definition's body; a table's row conditions, and with values their values."""
    match callee:
        case m.Define(body=body):
            return [body]
        case m.Table(rows=rows):
            return [e for r in rows for e in (r.when, r.value if values else None) if e is not None]


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# ---- worked examples ------------------------------------------------------------------


def run_examples(model: m.Resolved, module: types.ModuleType | None = None) -> list[Diagnostic]:
    """Evaluate every example of the model; each failure points at its own line. With the ruleset's
    generated module, every call an example makes is also put to the module (R900 where it differs)."""
    diags = []
    for ex in model.examples:
        diags += run_example(model, ex, module)
    return diags


def run_example(model: m.Resolved, ex: m.Example, module: types.ModuleType | None = None) -> list[Diagnostic]:
    return run_example_traced(model, ex, module)[1]


def run_example_traced(model: m.Resolved, ex: m.Example, module: types.ModuleType | None = None,
                       ) -> tuple[str, list[Diagnostic], list[Cite]]:
    """Run one example: 'pass' or 'fail', its diagnostics, and every rule its steps used. With the
    ruleset's generated module, each call is answered by the module too; a difference is R900."""
    env: dict[str, Any] = {}
    out: list[Diagnostic] = []
    used: list[Cite] = []
    ruleset = model.manifest.ruleset
    for step in ex.steps:
        found: list[Disagreement] = []
        interp = Interpreter(model) if module is None else CrossChecked(model, module, found)
        where = step.origin if isinstance(step, m.ExpectStep) else ex.origin
        try:
            if isinstance(step, m.LetStep):
                env[step.name] = interp.eval(step.value, env)
                used += interp.trace
                continue
            ok = interp.eval(step.expr, env)
        except (EvalError, ZeroDivisionError, KeyError, TypeError) as e:
            out.append(Diagnostic(span_of(where), "R402", f"example of {ex.clause} could not be evaluated: {e}",
                                  hint="a 'let' or 'expect' line may use a value the rules cannot compute"))
            break
        finally:
            out += [disagreement_diagnostic(span_of(where), ruleset, ex.clause, d) for d in found]
        used += interp.trace
        if not ok and _changed_later(model, ex, interp):
            continue  # a later layer overrides what the example relies on: it holds where it was written
        if not ok:
            out.append(Diagnostic(span_of(step.origin), "R401", f"example of {ex.clause} fails for "
                       f"{ruleset}: {_why_false(model, step.expr, env)}",
                       hint=f"rules used: {', '.join(str(c) for c in interp.trace) or 'none'}"))
            continue
        missing = _missing_citations(step.cited, interp)
        if missing:
            out.append(Diagnostic(span_of(step.origin), "R401", f"example of {ex.clause} holds for "
                       f"{ruleset}, but not by {', '.join(missing)}",
                       hint=f"rules used: {', '.join(str(c) for c in interp.trace)}"))
    return ("fail" if out else "pass"), out, used


_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"})


def _why_false(model: m.Resolved, expr: m.Expr, env: dict[str, Any]) -> str:
    """What a failing expect computed: both sides of a comparison ('the left side is 2, the right
    side 3'), else just that it is false."""
    if isinstance(expr, m.Op) and expr.op in _COMPARISONS and len(expr.args) == 2:
        try:
            left, right = (Interpreter(model).eval(a, env) for a in expr.args)
        except (EvalError, ZeroDivisionError, KeyError, TypeError):
            return "this is false"
        return f"the left side is {show(plain(left))}, the right side {show(plain(right))}"
    return "this is false"


def _changed_later(model: m.Resolved, ex: m.Example, interp: Interpreter) -> bool:
    layers = model.manifest.layers
    mine = layers.index(ex.origin.layer)
    return any(layers.index(c.layer) > mine for c in interp.trace if c.layer in layers)


def _missing_citations(cited: tuple[m.CitedRule, ...], interp: Interpreter) -> list[str]:
    missing = []
    for c in cited:
        found = any(t.clause == c.number and (c.item is None or t.item == c.item)
                    and (c.layer is None or t.layer == c.layer) for t in interp.trace)
        if not found:
            missing.append(" ".join(x for x in (c.layer, c.number, c.item) if x))
    return missing


__all__ = ["analyse", "run_examples", "from_json"]
