"""Check a resolved model by enumeration: table rows that never match, cases no row
covers, exceptions that contradict each other, and the worked examples.

The domains are small and finite (list values, true/false), so every case a
table's conditions can tell apart is tried.  Numbers are sampled around the
constants the conditions compare them with.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Collection, Iterable, MutableMapping, Sequence
from typing import Any

from . import decide
from . import model as m
from .collector import keep_freed_heap
from .crosscheck import CrossChecked, Disagreement, disagreement_diagnostic, plain, show
from .decide import z3  # imported when first used
from .diagnostics import Diagnostic, Span
from .interp import Cite, EvalError, Interpreter, Record, from_json, index, out_of_steps
from .pyexpr import _binds, _substitute, is_constant
from .types import ListT, RecordT, SetT


def span_of(o: m.Origin) -> Span:
    return Span(o.file, o.line, o.col, o.line, o.col + 1)


def analyse(model: m.Resolved, memo: MutableMapping[str, list[Diagnostic]] | None = None,
            examples: bool = True, below: Sequence[m.Resolved] = (),
            module_key: str | None = None) -> list[Diagnostic]:
    """Every finding on one resolved model. memo, shared between the rulesets of a build (and kept
    by the build cache between builds), holds each table's findings under a hash of everything
    they depend on: a table a game takes unchanged from its series is analysed once. examples:
    run the worked examples too (on the interpreter alone). below: the rulesets of the layers
    beneath (the series of a game), whose answers an input no row of a changed table matches is
    shown with. module_key: the hash the ruleset's generated module is kept under (build.module_key),
    which holds everything constant_errors reads (every value the module works out as it is
    imported, and where each is written): its findings are kept in memo under it."""
    keep_freed_heap()  # each table's solver context is made and freed: the heap keeps its memory
    diags: list[Diagnostic] = []
    interp = Interpreter(model)
    memo = {} if memo is None else memo
    if module_key is None:
        diags += constant_errors(model, interp)
    else:
        key = f"constants of the module {module_key}"
        if key not in memo:
            memo[key] = constant_errors(model, interp)
        diags += memo[key]
    beneath: dict[str, list[tuple[m.Resolved, m.Table]]] = {}  # each table of the layers below, by name
    for b in below:
        for t in b.tables:
            beneath.setdefault(t.name, []).append((b, t))
    for table in model.tables:
        key = interp.closure_key(table)
        lower = beneath.get(table.name, [])
        lower = [(b, t) for b, t in lower if Interpreter(b).closure_key(t) != key]
        key = "|".join([key, *(Interpreter(b).closure_key(t) for b, t in lower)])
        if key not in memo:
            memo[key] = TableAnalysis(model, interp, table, lower).run()
        diags += memo[key]
    failing = {(x.span.file, x.span.line, x.span.col) for x in diags if x.code == "R305"}
    for d in model.defines:
        if not d.params or d.invariant is not None:
            continue  # a definition of no input is worked out whole (constant_errors); an invariant is a test of input
        if (d.origin.file, d.origin.line, d.origin.col) in failing or not decide.can_fail(interp, [d.body]):
            continue  # a part of it fails whatever the input (R305: said already), or nothing in it can fail
        key = f"R308 {interp.closure_key(d)}"
        if key not in memo:
            memo[key] = DefinitionAnalysis(model, interp, d).run()
        diags += memo[key]
    if examples:
        diags += run_examples(model)
    return diags


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
        todo += [(e, d.origin) for e in (d.requires, d.body) if e is not None]
    for t in model.tables:
        if t.requires is not None:
            todo.append((t.requires, t.origin))
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


class TableAnalysis:
    """A table's rows put to the solver (compiler/decide.py): R301 for a row that can never match,
    with every row above that takes its cases; R302 for an input no row matches; R303 for two
    exceptions of one layer that answer one input differently; R304 (a warning) for a part of a
    condition that could not be decided; R306 for an input that reaches a row whose condition
    cannot be worked out (a division by zero), where the table stops with no answer. Every input
    the solver gives is checked on the interpreter first, so a finding is never the solver's word alone."""

    def __init__(self, model: m.Resolved, interp: Interpreter, table: m.Table,
                 below: Sequence[tuple[m.Resolved, m.Table]] = ()):
        self.model = model
        self.interp = interp
        self.table = table
        self.below = below  # the table as the layers beneath have it, where they have it otherwise
        self.records = index(model).records  # made once per model: a table is one of thousands
        self.invariants = index(model).invariants

    def run(self) -> list[Diagnostic]:
        t, rows = self.table, self.table.rows
        if self._seen_whole():
            return []
        exprs = [e for r in rows for e in (r.when, r.value if r.exception else None) if e is not None]
        n, capped = decide.representatives(self.interp, exprs)
        tr = decide.Translator(self.model, self.interp, n)
        try:
            params = {p.name: tr.fresh(p.t, p.name) for p in t.params}
        except decide.Undecided as u:
            return [self._undecided(t.origin, None, u)]
        diags: list[Diagnostic] = []
        domain = tr.true  # the inputs the table answers: its `requires`, which every question assumes
        if t.requires is not None:
            try:
                got = tr.read(t.requires, params)
                domain = z3.And(got.ok, got.v)
            except decide.Undecided as u:  # then a finding outside it is dropped when it is verified
                diags.append(self._undecided(t.origin, None, u))
        holds: list[z3.BoolRef] = []
        oks: list[z3.BoolRef] = []  # when each row's condition can be worked out (no division by zero)
        reads: list[frozenset[str]] = []  # the input fields each row's condition reads
        for i, row in enumerate(rows):
            tr.touched = set()
            ok = tr.true
            if row.when is None:
                holds.append(tr.true)
            else:
                try:
                    got = tr.read(row.when, params)
                    holds.append(z3.And(got.ok, got.v))
                    ok = got.ok
                except decide.Undecided as u:
                    diags.append(self._undecided(row.origin, row, u))
                    holds.append(z3.Bool(f"row {i} undecided", tr.ctx))  # either answer: what is proved holds for both
                    self.unsure = True
            oks.append(ok)
            reads.append(frozenset(tr.touched))
        # when each row's value can be worked out, for the values that may fail (a division by zero,
        # a first, min or max of nothing: decide.can_fail), and the fields each reads
        value_oks: list[z3.BoolRef] = []
        self.value_reads: list[frozenset[str]] = []
        for row in rows:
            tr.touched = set()
            ok = tr.true
            if decide.can_fail(self.interp, [row.value]):
                try:
                    ok = tr.read(row.value, params).ok
                except decide.Undecided:
                    try:  # the first of a list of records: whether there is one, if not which
                        ok = tr.read_ok(row.value, params)
                    except decide.Undecided:
                        pass  # a value the solver is not given: a worked example that reaches it fails
            value_oks.append(ok)
            self.value_reads.append(frozenset(tr.touched))
        self.tr = tr
        self.oks = oks
        self.reads = reads
        self.solver = decide.Solver(tr, params, t.params)
        self.solver.s.add(domain)
        if self.solver.check(tr.true) == "unsat":
            return diags  # no input is valid (the records' invariants exclude each other): nothing to match
        # what the solver finds absent is absent, unless an input list is read through too few
        # representatives or a sum, min, max or first goes over one
        exact = not (capped and tr.inputs.lists_read) and not tr.inputs.inexact
        # "no row above i matches", made once for every i: written out for each row it made the
        # questions of a 1,000-row table 500,000 terms, 20 s before the solver was asked anything.
        # The interpreter reaches row i only where each row above was worked out and is false: a
        # row that cannot be worked out (a division by zero) stops the table there, with no answer.
        self.nots = [z3.Not(h) for h in holds]
        self.none_before = [tr.true]
        for ok, h in zip(oks, self.nots, strict=True):
            self.none_before.append(z3.And(self.none_before[-1], h) if ok is tr.true
                                    else z3.And(self.none_before[-1], ok, h))
        for i, row in enumerate(rows):
            diags += self._dead(i, row, holds, exact)
        diags += self._gap(holds)
        diags += self._stops(oks)
        diags += self._value_stops(holds, value_oks)
        diags += self._clashes(params, holds)
        return diags

    oks: list[z3.BoolRef]  # oks[i]: row i's condition can be worked out (no division by zero), made by run()
    nots: list[z3.BoolRef]  # Not(holds[i]), made by run()
    none_before: list[z3.BoolRef]  # none_before[i]: no row above row i matches, made by run()
    unsure = False  # a row's condition not given to the solver (its findings are checked all the same)

    # -- the three questions

    def _dead(self, i: int, row: m.Row, holds: list[z3.BoolRef], exact: bool) -> list[Diagnostic]:
        verdict = self.solver.check(z3.And(holds[i], self.none_before[i]))
        if verdict == "sat":
            return []
        where = f"row '{row.label}' of {self.table.name} ({self._clause(row.origin)})"
        if verdict != "unsat" or not exact:
            why = ("the solver ran out of its budget" if verdict != "unsat" else
                   "it reads a sum, min, max or first over an input list, which rulec does not decide exactly")
            return [Diagnostic(span_of(self._written(row)), "R304", f"{where} may never match, but rulec cannot tell: "
                               f"{why}", severity="warning", hint="simplify the condition, or split the table")]
        if self.solver.check(holds[i]) == "unsat":
            return [Diagnostic(span_of(self._written(row)), "R301",
                               f"{where} can never match: its condition is never true")]
        takers = []
        for j in range(i):
            state = self._state(z3.And(holds[i], holds[j], self.none_before[j]), [i, *range(j + 1)],
                                _taken_by(j, i))
            if state is not None:
                takers.append((j, state))
        if not takers:  # proved, but the rows above are not all decided: which of them take it is not known
            return [Diagnostic(span_of(self._written(row)), "R301", f"{where} can never match: every case it covers is "
                               "taken first by the rows above it", hint="move it up, or narrow their conditions")]
        by = " and ".join(f"row '{self.table.rows[j].label}' ({self._call(s)})" for j, s in takers)
        one = len(takers) == 1
        if row.when is None:  # an otherwise row goes last: moving it is no answer
            failing = [r.label for r, ok in zip(self.table.rows[:i], self.oks, strict=False) if ok is not self.tr.true]
            hint = (f"the rows above answer every input they can work out, and where row '{failing[0]}' cannot "
                    "(a division by zero: R306) the table stops there, before 'otherwise': guard that row, or "
                    "put a row for that case above it" if failing else
                    "the rows above answer every input: remove it, or narrow their conditions")
        else:
            hint = ("move it above that row, or narrow that row's condition" if one else
                    "move it above those rows, or narrow their conditions")
        return [Diagnostic(span_of(self._written(row)), "R301", f"{where} can never match: every case it covers is "
                           f"taken first by {by}", hint=hint)]

    def _gap(self, holds: list[z3.BoolRef]) -> list[Diagnostic]:
        state = self._state(self.none_before[len(holds)],
                            range(len(holds)), _none)
        if state is None:
            return []
        o = self.table.origin
        return [Diagnostic(span_of(o), "R302", f"{self._call(state)} matches no row of {self._clause(o)} "
                           f"({self.table.name}){self._beneath(state)}",
                           hint="add a row for it, or an 'otherwise' row")]

    def _stops(self, oks: list[z3.BoolRef]) -> list[Diagnostic]:
        """For each row whose condition cannot always be worked out, an input that reaches it (every
        row above is false) where it cannot: the interpreter stops there, and the table has no
        answer, whatever the rows below say (an `otherwise` row too)."""
        out = []
        for i, (row, ok) in enumerate(zip(self.table.rows, oks, strict=True)):
            if ok is self.tr.true:
                continue
            state = self._state(z3.And(self.none_before[i], z3.Not(ok)), range(i + 1), _stops_at(i))
            if state is not None:
                out.append(self._stop(row, state))
        return out

    def _stop(self, row: m.Row, state: decide.State) -> Diagnostic:
        """R306 for a row whose condition cannot be worked out for a state: what the interpreter says."""
        where = f"row '{row.label}' of {self._clause(row.origin)} ({self.table.name})"
        assert row.when is not None  # an `otherwise` row is always worked out
        why = self._failure(row.when, state) or "no answer"  # not None: _stops_at made sure it fails
        needed = _callee_requires(row.when, why, self.interp, self._params)
        if needed is not None:
            fn, cond, _ = needed
            return Diagnostic(span_of(self._written(row)), "R306", f"{self._call(state)} cannot be worked out "
                              f"in {where}: {why}", hint=f"the table stops there with no answer, whatever the rows "
                              f"below say; ask {fn} only where it answers (`{cond} and ...`), or put a row for this "
                              "case above it")
        if why != "division by zero":
            return Diagnostic(span_of(self._written(row)), "R306", f"{self._call(state)} cannot be worked out "
                              f"in {where}: {why}", hint="the table stops there with no answer, whatever the rows "
                              "below say; guard that part of the condition, or put a row for this case above it")
        return Diagnostic(span_of(self._written(row)), "R306", f"{self._call(state)} divides by zero in {where}",
                          hint=_guard_hint(row.when, state, self.interp, self._params))

    def _value_stops(self, holds: list[z3.BoolRef], value_oks: list[z3.BoolRef]) -> list[Diagnostic]:
        """For each row whose value cannot always be worked out, an input for which it is the first
        row that matches and its value cannot be: the table has no answer there (R307)."""
        out = []
        for i, (row, ok) in enumerate(zip(self.table.rows, value_oks, strict=True)):
            if ok is self.tr.true:
                continue
            state = self._state(z3.And(self.none_before[i], holds[i], z3.Not(ok)), range(i + 1), _first(i),
                                fails=row.value)
            if state is not None:
                state.read = state.read | self.value_reads[i]
                out.append(self._value_stop(row, state))
        return out

    def _value_stop(self, row: m.Row, state: decide.State) -> Diagnostic:
        """R307 (a warning) for a row whose value cannot be worked out for a state that reaches it:
        the table has no answer there, which a designer may mean (a case the rules leave open), where
        a condition that cannot be worked out (R306) hides the rows below it."""
        where = f"the value of row '{row.label}' of {self._clause(row.origin)} ({self.table.name})"
        why = self._failure(row.value, state) or "no answer"
        needed = _callee_requires(row.value, why, self.interp, self._params)
        if needed is not None:
            fn, cond, of_params = needed
            return Diagnostic(span_of(self._written(row)), "R307", f"{self._call(state)} cannot be worked out "
                              f"in {where}: {why}", severity="warning",
                              hint=f"the table gives no answer there: ask {fn} only where it answers (`if {cond} "
                              "then ... else ...`), or put a row for this case above it" + (
                                  f"; if the table is never asked otherwise, say so first in it (`requires {cond}`)"
                                  if of_params else ""))
        if why != "division by zero":
            return Diagnostic(span_of(self._written(row)), "R307", f"{self._call(state)} cannot be worked out "
                              f"in {where}: {why}", severity="warning",
                              hint="the table gives no answer there: put a row for this case above it, write the "
                              "value so that it has one (if ... then ... else ...), or say with `requires` that the "
                              "table is not asked there")
        return Diagnostic(span_of(self._written(row)), "R307", f"{self._call(state)} divides by zero in {where}",
                          severity="warning",
                          hint=_guard_hint(row.value, state, self.interp, self._params, in_value=True))

    def _failure(self, e: m.Expr, state: decide.State) -> str | None:
        """Why the interpreter cannot work e out for a state; None where it can."""
        try:
            self.interp.eval(e, state)
        except (EvalError, TypeError, KeyError, ZeroDivisionError) as err:
            return str(err)
        return None

    @property
    def _params(self) -> set[str]:
        return {p.name for p in self.table.params}

    def _beneath(self, state: decide.State) -> str:
        """What the layers beneath answer for an input (where they have the table otherwise)."""
        said = []
        for model, table in self.below:
            try:
                value = Interpreter(model).call(table.name, [state[p.name] for p in table.params])
                said.append(f"{model.manifest.ruleset} answers {show(plain(value))}")
            except (EvalError, TypeError, KeyError, ZeroDivisionError):
                said.append(f"{model.manifest.ruleset} has no answer either")
        return f" in {self.model.manifest.ruleset}; there, {', and '.join(said)}" if said else ""

    def _clashes(self, params: dict[str, Any], holds: list[z3.BoolRef]) -> list[Diagnostic]:
        """Two exception rows from different clauses of one layer that both match and disagree (R303),
        and an exception row that takes a case from a row another change overrode, answering it
        differently: an error where the exception and the override are of one layer, a warning
        where they are of two options (which are not ordered; a later layer's exception over an
        earlier layer's override is what layers are for)."""
        rows = self.table.rows
        own = [i for i, r in enumerate(rows) if not r.exception]
        contradictions, takings = self._clash_pairs()
        out = []
        for a, b in contradictions:
            ra, rb = rows[a], rows[b]
            found = self._differently(params, holds, a, b, z3.And(holds[a], holds[b]), _both(a, b))
            if isinstance(found, Diagnostic):
                out.append(found)
            elif found is not None:
                state, (va, vb) = found
                out.append(Diagnostic(span_of(rb.origin), "R303", f"{self._clause(ra.origin)} and "
                           f"{self._clause(rb.origin)} contradict each other for {self._call(state)}: {va} "
                           f"against {vb}",
                           hint=f"which one is in force depends on file order; narrow one of the conditions "
                                f"of {self.table.name}"))
        for a, b, same in takings:
            ra, rb = rows[a], rows[b]
            first_a = z3.And(holds[a], self.none_before[a])
            first_own_b = z3.And(holds[b], *(self.nots[k] for k in own if k < b))
            found = self._differently(params, holds, a, b, z3.And(first_a, first_own_b), _takes_from(a, b, own))
            if isinstance(found, Diagnostic):
                out.append(found)
            elif found is not None:
                state, (va, vb) = found
                by = ", ".join(sorted({c.layer for c in rb.overridden_by}))
                out.append(Diagnostic(span_of(ra.origin), "R303", f"the exception '{ra.label}' of "
                           f"{self._clause(ra.origin)} ({ra.origin.layer}) takes {self._call(state)} from row "
                           f"'{rb.label}', which {by} overrode: {va} against {vb}",
                           severity="error" if same else "warning",
                           hint="narrow the exception, or make the override say what the exception says"))
        return out

    def _clash_pairs(self) -> tuple[list[tuple[int, int]], list[tuple[int, int, bool]]]:
        """The rows that may contradict each other: two exceptions of different clauses of one layer;
        and an exception with a row a change overrode, where both are of one layer (True) or of two
        options (False)."""
        rows = self.table.rows
        exc = [i for i, r in enumerate(rows) if r.exception]
        options = {o.name for o in self.model.manifest.options}
        contradictions = [(a, b) for a, b in itertools.combinations(exc, 2)
                          if rows[a].origin.layer == rows[b].origin.layer
                          and rows[a].origin.clause != rows[b].origin.clause]
        takings = []
        for a in exc:
            layer = rows[a].origin.layer
            for b, rb in enumerate(rows):
                layers = {c.layer for c in rb.overridden_by}
                if rb.exception or not layers:
                    continue
                if layer in layers or layer in options and layers & options - {layer}:
                    takings.append((a, b, layer in layers))
        return contradictions, takings

    def _seen_whole(self) -> bool:
        """Whether a few plain inputs, tried on the interpreter, already show all there is to show:
        each row is the first to match one of them, the last row is `otherwise` (so every input
        matches a row), and no two rows may contradict each other. Then the solver has nothing to
        prove, and is not started (its start is most of the time of a small table)."""
        rows = self.table.rows
        if not rows or rows[-1].when is not None or any(self._clash_pairs()):
            return False
        if decide.can_fail(self.interp, [e for r in rows for e in (r.when, r.value) if e is not None]):
            return False  # a row may stop the table with no answer (R306, R307): only the solver can tell where
        unseen = set(range(len(rows)))
        try:
            for state in decide.probes(self.model, self.interp, self.table):
                first = next((i for i, row in enumerate(rows) if self._matches(row, state)), None)
                if first in unseen and self._valid_whole(state):
                    unseen.discard(first)
                    if not unseen:
                        return True
        except decide.Undecided:  # an input of a kind that has no plain value: the solver decides
            pass
        return False

    def _valid_whole(self, state: dict[str, Any]) -> bool:
        """Whether a state is one the table answers (its `requires`) and every record of it, at any
        depth, meets every invariant of its kind."""
        if self.table.requires is not None:
            try:
                if not self.interp.eval(self.table.requires, state):
                    return False
            except (EvalError, TypeError, KeyError, ZeroDivisionError):
                return False
        todo = [(state[p.name], p.t) for p in self.table.params]
        while todo:
            value, t = todo.pop()
            if isinstance(t, (ListT, SetT)):
                todo += [(x, t.item) for x in value]
            elif isinstance(t, RecordT):
                for d in self.invariants.get(t.name, ()):
                    try:
                        if not self.interp.eval(d.body, {d.params[0].name: value}):
                            return False
                    except (EvalError, TypeError, KeyError, ZeroDivisionError):
                        return False
                todo += [(value[f.name], f.t) for f in self.records[t.name].fields]
        return True

    def _differently(self, params: dict[str, Any], holds: list[z3.BoolRef], a: int, b: int, both: z3.BoolRef,
                     claim: Callable[[list[int]], bool]) -> tuple[decide.State, tuple[str, str]] | Diagnostic | None:
        """An input where `both` holds and rows a and b answer differently, with the two answers
        shown; an R304 warning where an answer is beyond what rulec decides; None if there is none."""
        ra, rb = self.table.rows[a], self.table.rows[b]
        try:
            va, vb = self.tr.read(ra.value, params), self.tr.read(rb.value, params)
            differ = z3.Not(self.tr.equal(va.v, vb.v, ra.value))
        except decide.Undecided as u:
            return self._undecided(rb.origin, rb, u)
        state = self._state(z3.And(both, va.ok, vb.ok, differ), [a, b], claim, differ=(a, b))
        if state is None:
            return None
        answers = [show(plain(self.interp.eval(self.table.rows[k].value, state))) for k in (a, b)]
        return state, (answers[0], answers[1])

    # -- helpers

    def _state(self, formula: z3.BoolRef, rows: Iterable[int], claim: Callable[[list[int]], bool],
               differ: tuple[int, int] | None = None, fails: m.Expr | None = None) -> decide.State | None:
        """An input for which formula holds, checked on the interpreter (claim: what the rows that
        match it must be; differ: two rows whose answers must differ; fails: a row's value that
        must not be worked out), then made as plain as the claim allows: each field that is not its
        default is put back to it where the claim still holds. It shows the fields the rows read
        (rows) and those that are not their default."""
        state = self.solver.state(formula)
        if state is None or not self._verified(state, claim):
            return None
        if differ is not None and not self._differ(state, differ):
            self._verified(state, _none_of_it)  # the solver said they differ: a bug unless unsure
            return None
        if fails is not None and self._failure(fails, state) is None:
            return None  # the solver's reading of the value was not exact for this state: no finding
        for p in self.table.params:
            if isinstance(p.t, RecordT):
                self._plain(state, [p.name], p.t.name, claim, differ, fails)
        state.read = frozenset(f for r in rows for f in self.reads[r])
        return state

    def _plain(self, state: decide.State, at: list[str], record: str, claim: Callable[[list[int]], bool],
               differ: tuple[int, int] | None, fails: m.Expr | None) -> None:
        holder: Any = state
        for key in at[:-1]:
            holder = holder[key]
        rec = holder[at[-1]]
        for f in self.records[record].fields:
            value = rec[f.name]
            if isinstance(f.t, RecordT) and isinstance(value, dict):
                self._plain(state, [*at, f.name], f.t.name, claim, differ, fails)
                continue
            if f.default is None:
                continue
            default = from_json(f.default, f.t)
            if value == default and type(value) is type(default):
                continue
            trial = Record(rec)
            trial[f.name] = default
            holder[at[-1]] = trial
            holds = (claim(self._hits(state)) and (differ is None or self._differ(state, differ))
                     and (fails is None or self._failure(fails, state) is not None))
            if holds and self._valid_whole(state):
                rec = trial
            else:
                holder[at[-1]] = rec

    def _differ(self, state: decide.State, rows: tuple[int, int]) -> bool:
        try:
            a, b = (self.interp.eval(self.table.rows[k].value, state) for k in rows)
        except (EvalError, TypeError, KeyError, ZeroDivisionError):
            return False
        return bool(plain(a) != plain(b))

    def _hits(self, state: decide.State) -> list[int]:
        """The rows whose conditions a state meets, in order; a row whose condition cannot be worked
        out for it (a division by zero: the interpreter stops there) is there as ~i, a negative number."""
        out = []
        for i, row in enumerate(self.table.rows):
            matched = self._matches(row, state)
            if matched is None:
                out.append(~i)
            elif matched:
                out.append(i)
        return out

    def _verified(self, state: decide.State, claim: Callable[[list[int]], bool]) -> bool:
        """Whether the interpreter agrees with what the solver found for a state: claim is given the
        rows that match it, in order. Where it does not, the solver's part was not exact (an undecided
        row, an invariant not given to it, an irrational number it gave, which the state only comes
        near): the finding is not made. Anything else is a bug in rulec."""
        if not self._valid_whole(state):
            return False
        hits = self._hits(state)
        if claim(hits):
            return True
        if self.unsure or state.approximate or self.tr.inputs.unassumed or out_of_steps():
            return False
        raise AssertionError(f"rulec's solver and its interpreter disagree on table {self.table.name} for "
                             f"{self._call(state)}: rows matching {hits}")

    def _matches(self, row: m.Row, case: dict[str, Any]) -> bool | None:
        """Whether a row's condition holds for a case; None where it cannot be worked out."""
        if row.when is None:
            return True
        try:
            return bool(self.interp.eval(row.when, case))
        except (EvalError, TypeError, KeyError, ZeroDivisionError):
            return None

    def _call(self, state: decide.State) -> str:
        """The state as a call a designer can paste into an example: `re_size(Unit { size: regiment })`."""
        args = ", ".join(decide.literal(state[p.name], p.t, self.records, p.name, state.read)
                         for p in self.table.params)
        return f"{self.table.name}({args})"

    def _written(self, row: m.Row) -> m.Origin:
        """Where a row's condition was last written: the last change of it that gave a new
        condition, else the row itself."""
        conditions = {id(ov.origin) for ov in self.model.overrides if ov.when is not None}
        return next((c.origin for c in reversed(row.overridden_by) if id(c.origin) in conditions), row.origin)

    def _clause(self, o: m.Origin) -> str:
        return str(o.clause or o.layer)

    def _undecided(self, o: m.Origin, row: m.Row | None, u: decide.Undecided) -> Diagnostic:
        where = f"row '{row.label}' of {self.table.name}" if row is not None else f"table {self.table.name}"
        part = f", in `{decide.source(u.expr)}`" if u.expr is not None else ""
        return Diagnostic(span_of(o), "R304", f"{where} ({self._clause(o)}) is checked only in part: rulec does "
                          f"not decide {u.why}{part}", severity="warning",
                          hint="the other rows were checked as if this condition could be true or false")


class DefinitionAnalysis(TableAnalysis):
    """R308 (a warning): an input a definition answers (its `requires`, the records' invariants) for
    which its value cannot be worked out (a division by zero, the first, min or max of nothing, a
    call outside another's `requires`), so that the definition, and every rule that asks it there,
    has no answer. The definition is read as a table of one `otherwise` row, whose value is its
    body: R307's question, and the same check of every input on the interpreter."""

    def __init__(self, model: m.Resolved, interp: Interpreter, d: m.Define):
        row = m.Row(d.name, None, None, d.body, d.origin)
        super().__init__(model, interp, m.Table(d.name, d.title, d.params, d.returns, (row,), d.origin,
                                                requires=d.requires))
        self.define = d

    def run(self) -> list[Diagnostic]:
        if not decide.can_fail(self.interp, [self.define.body]):
            return []  # nothing in it can stop with no answer: no solver is started
        return [d for d in super().run() if d.code == "R308"]

    def _value_stop(self, row: m.Row, state: decide.State) -> Diagnostic:
        d = self.define
        where = f"{d.name} ({self._clause(d.origin)})"
        why = self._failure(d.body, state) or "no answer"
        hint = _definition_hint(d, state, self.interp, why)
        if why == "division by zero":
            return Diagnostic(span_of(d.origin), "R308", f"{self._call(state)} divides by zero in {where}",
                              severity="warning", hint=hint)
        return Diagnostic(span_of(d.origin), "R308", f"{self._call(state)} cannot be worked out in {where}: {why}",
                          severity="warning", hint=hint)


def _definition_hint(d: m.Define, state: decide.State, interp: Interpreter, why: str) -> str:
    """How to give a definition an answer for every input it is asked, or say which it is not."""
    said = "the definition gives no answer there, nor does any rule that asks it"
    needed = _callee_requires(d.body, why, interp, {p.name for p in d.params})
    if needed is not None:
        fn, cond, of_params = needed
        out = f"{said}: ask {fn} only where it answers (`if {cond} then ... else ...`)"
        return out + (f", or, if {d.name} is never asked otherwise, say so before its '=' (`requires {cond}`)"
                      if of_params else "")
    zero = _zero_divisor(d.body, state, interp)
    if zero is not None:
        divisor = decide.source(zero)
        return (f"{said}: write it `if {divisor} != 0 then ... else ...`, or, if it is never asked with "
                f"{divisor} = 0, say so before its '=' (`requires {divisor} != 0`)")
    return (f"{said}: write it so that it has one (if ... then ... else ...), or say before its '=' which "
            "inputs it answers (`requires ...`)")


def _callee_requires(e: m.Expr, why: str, interp: Interpreter,
                     params: set[str]) -> tuple[str, str, bool] | None:
    """Where e stops at a call outside what the callee requires ("f answers only where ..."): the
    callee, that requirement in the caller's words (the callee's parameters replaced by the call's
    arguments), which a guard would test, and whether it reads the caller's parameters alone (so
    that the caller's own `requires` could say it). None where it is another failure, or the words
    cannot be put so (an argument would be taken by a variable of the requirement's own)."""
    for x in m.walk(e):
        if not isinstance(x, m.Call) or not why.startswith(f"{x.fn} answers only where "):
            continue
        callee = interp.defines.get(x.fn) or interp.tables.get(x.fn)
        if callee is None or callee.requires is None:
            return None
        bound = {b for b in map(_binds, m.walk(callee.requires)) if b is not None}
        if any(isinstance(n, m.Var) and n.name in bound for a in x.args for n in m.walk(a)):
            return None
        cond = _substitute(callee.requires, {p.name: a for p, a in zip(callee.params, x.args, strict=True)})
        free = {n.name for a in x.args for n in m.walk(a) if isinstance(n, m.Var)}
        return x.fn, decide.source(cond), free <= params
    return None


def _taken_by(j: int, i: int) -> Callable[[list[int]], bool]:
    """Row j is the first to match, and row i matches too."""
    return lambda hits: bool(hits) and hits[0] == j and i in hits


def _both(a: int, b: int) -> Callable[[list[int]], bool]:
    return lambda hits: a in hits and b in hits


def _takes_from(a: int, b: int, own: list[int]) -> Callable[[list[int]], bool]:
    """Row a is the first to match, and row b the first of the table's own rows."""
    return lambda hits: bool(hits) and hits[0] == a and [h for h in hits if h in own][:1] == [b]


def _none(hits: list[int]) -> bool:
    return not hits


def _first(i: int) -> Callable[[list[int]], bool]:
    """Row i is the first to match."""
    return lambda hits: hits[:1] == [i]


def _stops_at(i: int) -> Callable[[list[int]], bool]:
    """No row above row i matches, and row i's condition cannot be worked out (it is there as ~i)."""
    return lambda hits: hits[:1] == [~i]


def _guard_hint(when: m.Expr, state: decide.State, interp: Interpreter, params: Collection[str],
                in_value: bool = False) -> str:
    """How to keep a row's condition (or, in_value, its value) from dividing by zero: test the divisor
    first, or give the zero a row of its own above, or (for a field that is never zero) say so with
    an invariant, which the analysis assumes. The divisor is named where it is one of the row's own
    that is 0 for the state."""
    zero = _zero_divisor(when, state, interp)
    if zero is not None:
        d = decide.source(zero)
        hint = (f"put a row for `{d} == 0` above this one, or write the value `if {d} != 0 then ... else "
                "...`: the table gives no answer there" if in_value else
                f"guard it (`{d} != 0 and ...`), or put a row for `{d} == 0` above this one: the table "
                "gives no answer there, even with an 'otherwise' row below")
        match zero:
            case m.Field(of=m.Var(name=var, t=RecordT(name=record))):
                hint += (f"; if {d} is never 0, say so with an invariant on {record} "
                         f"(`invariant ...({var}: {record}) = {d} > 0`)")
            case m.Var(name=var) if var in params:
                hint += (f"; if the table is never asked with {d} = 0, say so first in the table "
                         f"(`requires {d} > 0`)")
        return hint
    if in_value:
        return ("put a row for a zero divisor above this one, or test the divisor in the value (if ... then ... "
                "else ...): the table gives no answer there")
    return ("guard the division (test its divisor first), or put a row for a zero divisor above this one: "
            "the table gives no answer there, even with an 'otherwise' row below")


def _zero_divisor(e: m.Expr, state: decide.State, interp: Interpreter) -> m.Expr | None:
    """The first divisor in e that is 0 for the state, where it can be worked out on its own (not one
    that reads a variable of a let or an aggregate)."""
    for x in m.walk(e):
        if isinstance(x, m.Op) and x.op == "/":
            try:
                if interp.eval(x.args[1], state) == 0:
                    return x.args[1]
            except (EvalError, TypeError, KeyError, ZeroDivisionError):
                continue
    return None


def _none_of_it(hits: list[int]) -> bool:
    return False


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# ---- worked examples ------------------------------------------------------------------


ExampleCites = dict[tuple[str, int, int], list[Cite]]  # an example's origin: the rules its run used


def _cannot_compute_hint(said: str) -> str:
    """What to do about a value an example's line reaches that the rules cannot compute."""
    if said in ("min of nothing", "max of nothing"):
        return (f"{said[:3]} over a list with nothing in it has no value: say what holds then in the rules "
                f"(if len(xs) == 0 then 0 else {said[:3]}(...)), or give the example a state with items")
    if said.startswith("first of nothing"):
        return "no item passes first's 'where': test for one first (if any(...) then first(...) else ...)"
    if said == "division by zero":
        return "a divisor is 0 for this state: guard it in the rules (d != 0 and ...), or change the example"
    if " answers only where " in said:
        return ("the example asks it outside the inputs it answers (its `requires`): change the example, "
                "or widen what the rules require")
    return "a 'let' or 'expect' line may use a value the rules cannot compute"


def run_examples(model: m.Resolved, module: types.ModuleType | None = None,
                 cites: ExampleCites | None = None) -> list[Diagnostic]:
    """Evaluate every example of the model; each failure points at its own line. With the ruleset's
    generated module, every call an example makes is also put to the module (R900 where it differs).
    With cites, each example's run leaves there the rules it used (for traceability.md)."""
    diags = []
    for ex in model.examples:
        _, found, used = run_example_traced(model, ex, module)
        diags += found
        if cites is not None:
            cites[(ex.origin.file, ex.origin.line, ex.origin.col)] = used
    return diags


def run_example(model: m.Resolved, ex: m.Example, module: types.ModuleType | None = None) -> list[Diagnostic]:
    return run_example_traced(model, ex, module)[1]


def run_example_traced(model: m.Resolved, ex: m.Example, module: types.ModuleType | None = None,
                       ) -> tuple[str, list[Diagnostic], list[Cite]]:
    """Run one example: 'pass', 'fail' or 'superseded', its diagnostics, and every rule its steps used.
    An example of a lower layer whose expectation does not hold in a ruleset where a later layer
    changed a rule it used (an override, an exception of the game) is 'superseded': it still holds
    where it was written, and the game restates it if it wants. The rules of the later layers that
    changed it then end the list. With the ruleset's generated module, each call is answered by the
    module too; a difference is R900. An expectation that reads a `let` counts the rules that let's
    value used as its own: for being superseded, for the rules it cites, and in its hint."""
    env: dict[str, Any] = {}
    let_rules: dict[str, list[Cite]] = {}  # each let of the example: the rules its value used
    superseded: list[Cite] = []
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
                let_rules[step.name] = _rules_of(step.value, interp.trace, let_rules)
                used += interp.trace
                continue
            ok = interp.eval(step.expr, env)
        except (EvalError, ZeroDivisionError, KeyError, TypeError) as e:
            out.append(Diagnostic(span_of(where), "R402", f"example of {ex.clause} could not be evaluated: {e}",
                                  hint=_cannot_compute_hint(str(e))))
            break
        finally:
            out += [disagreement_diagnostic(span_of(where), ruleset, ex.clause, d) for d in found]
        used += interp.trace
        trace = _rules_of(step.expr, interp.trace, let_rules)
        later = later_layers(model, ex.origin.layer, trace) if not ok else []
        if later:  # a later layer changed what the example relies on: it holds where it was written
            superseded += [c for c in later if c not in superseded]
            continue
        if not ok:
            out.append(Diagnostic(span_of(step.origin), "R401", f"example of {ex.clause} fails for "
                       f"{ruleset}: {_why_false(model, step.expr, env)}",
                       hint=f"rules used: {', '.join(str(c) for c in trace) or 'none'}"))
            continue
        missing = _missing_citations(step.cited, trace)
        if missing:
            out.append(Diagnostic(span_of(step.origin), "R401", f"example of {ex.clause} holds for "
                       f"{ruleset}, but not by {', '.join(missing)}",
                       hint=f"rules used: {', '.join(str(c) for c in trace)}"))
    if out:
        return "fail", out, used
    if superseded:  # the cites of the later layers that changed it, last in the trace
        return "superseded", out, used + superseded
    return "pass", out, used


_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"})


def _why_false(model: m.Resolved, expr: m.Expr, env: dict[str, Any]) -> str:
    """What a failing expect computed: both sides of a comparison ('the left side is 2, the right
    side 3'); for `not`, `and` and `or`, the part that decided it; for a call, what it answered."""
    try:
        return _why(Interpreter(model), expr, env)
    except (EvalError, ZeroDivisionError, KeyError, TypeError):
        return "this is false"


def _why(interp: Interpreter, expr: m.Expr, env: dict[str, Any]) -> str:
    if isinstance(expr, m.Op) and expr.op in _COMPARISONS and len(expr.args) == 2:
        left, right = (interp.eval(a, env) for a in expr.args)
        return f"the left side is {show(plain(left))}, the right side {show(plain(right))}"
    if isinstance(expr, m.Op) and expr.op == "not":
        inner = expr.args[0]
        if isinstance(inner, m.Call):
            return f"{inner.fn}(...) answers true"
        return "what follows 'not' is true"
    if isinstance(expr, m.Op) and expr.op == "and":
        for i, part in enumerate(expr.args, 1):
            if interp.eval(part, env) is False:
                return f"part {i} of the 'and' is false: {_why(interp, part, env)}"
    if isinstance(expr, m.Op) and expr.op == "or":
        return "every part of the 'or' is false: " + "; ".join(_why(interp, p, env) for p in expr.args)
    if isinstance(expr, m.Call):
        return f"{expr.fn}(...) answers false"
    return "this is false"


def _rules_of(expr: m.Expr, own: list[Cite], let_rules: dict[str, list[Cite]]) -> list[Cite]:
    """The rules a step's value rests on: those of the example's lets it reads (each of which holds
    the rules of the lets it read in turn), then the ones its own evaluation cited, each once.
    A let's value is computed on its own line, so without this an expectation reading it would
    seem to use no rule, and could not be superseded by a later layer's change to one."""
    if not let_rules:  # no let before it (most examples): its own, each once already
        return list(own)
    read = m.free_names(expr)
    inherited = [c for name, cites in let_rules.items() if name in read for c in cites]
    return list(dict.fromkeys([*inherited, *own]))


def later_layers(model: m.Resolved, layer: str, cites: list[Cite]) -> list[Cite]:
    """The cites of layers of the model above the given one."""
    layers = model.manifest.layers
    mine = layers.index(layer)
    return [c for c in cites if c.layer in layers and layers.index(c.layer) > mine]


def _missing_citations(cited: tuple[m.CitedRule, ...], trace: list[Cite]) -> list[str]:
    missing = []
    for c in cited:
        found = any(t.clause == c.number and (c.item is None or t.item == c.item)
                    and (c.layer is None or t.layer == c.layer) for t in trace)
        if not found:
            missing.append(" ".join(x for x in (c.layer, c.number, c.item) if x))
    return missing


__all__ = ["analyse", "run_examples", "from_json"]
