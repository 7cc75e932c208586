"""Two options (or a scenario and an option) of one ruleset that change the same answer differently.

Each is a change to the rules beneath it; a designer who turns both on expects both to hold. Where
they touch the same answer (one option changes the const a limit reads, the other the limit
itself; one changes a table row, the other the definition the row calls), only one of them can
be in force, and which one follows from the order the ruleset lists them in. Found by effect, not
by name: for each check (a table, a definition with parameters, a limits group) that both change,
the solver (compiler/decide.py) is asked for an input where the check answers three ways, without
either change, with the one and with the other; such an input is checked on the interpreter and
reported as a warning (R303) with the input and the four answers.
"""

from __future__ import annotations

import itertools
from typing import Any

from . import decide, ir
from . import model as m
from .crosscheck import plain, show
from .decide import z3  # imported when first used
from .diagnostics import Diagnostic, Span
from .interp import EvalError, Interpreter, item_exprs
from .resolver import layer_chain, resolve

Check = m.Define | m.Table | m.Limits


def option_conflicts(program: m.Program, rulesets: list[m.Ruleset], models: dict[str, m.Resolved]) -> list[Diagnostic]:
    """Every conflict of the rulesets' options: by effect, with an input, and of one thing changed
    two ways (same_target_clashes)."""
    out: list[Diagnostic] = []
    shown: dict[str, set[tuple[str, str]]] = {rs.name: set() for rs in rulesets}
    done: set[tuple[str, str, str]] = set()
    resolved: dict[tuple[str, tuple[str, ...]], m.Resolved] = {}

    def model(base: str, options: tuple[str, ...]) -> m.Resolved:
        key = (base, options)
        if key not in resolved:
            resolved[key] = resolve(program, m.Ruleset(f"{base}+{'+'.join(options)}", base, base, options, None))
        return resolved[key]

    for rs in rulesets:
        for a, b, base, with_a, with_b in _pairs(program, rs):
            none = model(base, ())
            one = model(*with_a)
            other = model(*with_b)
            for check in _checks(none):
                name = check.name
                if (a, b, name) in done or not _changed(check, none, one) or not _changed(check, none, other):
                    continue
                done.add((a, b, name))
                found = _conflict(check, none, one, other)
                if found is not None:
                    out.append(_diagnostic(rs, models[rs.name], a, b, check, found, (none, one, other)))
                    shown[rs.name].add((a, b))
    for rs in rulesets:
        out += same_target_clashes(models[rs.name], shown[rs.name])
    return out


Pick = tuple[str, tuple[str, ...]]  # a base layer and the options over it


def _pairs(program: m.Program, rs: m.Ruleset) -> list[tuple[str, str, str, Pick, Pick]]:
    """The pairs of changes of a ruleset: (a, b, the base without either, a alone, b alone)."""
    out: list[tuple[str, str, str, Pick, Pick]] = []
    base = rs.base
    for a, b in itertools.combinations(rs.options, 2):
        out.append((a, b, base, (base, (a,)), (base, (b,))))
    scenario = program.layers[base]
    if scenario.kind == "scenario" and scenario.parent is not None:
        below = layer_chain(program, m.Ruleset("", "", scenario.parent, (), None))
        for o in rs.options:
            if program.layers[o].parent in below:  # an option that does not build on the scenario itself
                out.append((base, o, scenario.parent, (base, ()), (scenario.parent, (o,))))
    return out


def _checks(model: m.Resolved) -> list[Check]:
    return [*(t for t in model.tables), *(d for d in model.defines if d.params and d.invariant is None),
            *model.limits]


def _item(model: m.Resolved, check: Check) -> Check | None:
    pool: tuple[Check, ...] = model.tables if isinstance(check, m.Table) else \
        model.limits if isinstance(check, m.Limits) else model.defines
    return next((x for x in pool if x.name == check.name), None)


def _changed(check: Check, before: m.Resolved, after: m.Resolved) -> bool:
    other = _item(after, check)
    return other is None or Interpreter(before).closure_key(check) != Interpreter(after).closure_key(other)


def _conflict(check: Check, *models: m.Resolved) -> dict[str, Any] | None:
    """An input where the check answers differently in each pair of models, checked on the
    interpreter; None if the solver shows there is none (or cannot tell)."""
    items = [_item(model, check) for model in models]
    if any(i is None for i in items):
        return None
    interps = [Interpreter(model) for model in models]
    exprs = [e for item in items for e in item_exprs(item)]  # type: ignore[arg-type]
    n, _ = decide.representatives(interps[0], exprs)
    first = decide.Translator(models[0], interps[0], n)
    try:
        params = {p.name: first.fresh(p.t, p.name) for p in check.params}
        answers = []
        for model, interp, item in zip(models, interps, items, strict=True):
            tr = decide.Translator(model, interp, n, first.ctx)
            tr.inputs = first.inputs  # one input, three rulebooks
            answers.append(_answer(tr, item, [params[p.name] for p in check.params]))  # type: ignore[arg-type]
        differ = [_differ(first, x, y) for x, y in itertools.combinations(answers, 2)]
    except decide.Undecided:
        return None
    state = decide.Solver(first, params, check.params).state(z3.And(*differ))
    if state is None:
        return None
    values = [_value(interp, check, state) for interp in interps]
    shown = [plain(v) for v in values]
    if any(v is _NONE for v in values) or len({repr(v) for v in shown}) < 3:
        return None  # the interpreter does not see three answers: nothing to report
    return {"state": state, "values": values}


def _answer(tr: decide.Translator, item: Check, args: list[Any]) -> Any:
    match item:
        case m.Define():
            return tr.call_define(item, args)
        case m.Table():
            return tr.call_table(item, args)
        case m.Limits():
            return tr.call_limits(item, args)


def _differ(tr: decide.Translator, x: Any, y: Any) -> z3.BoolRef:
    """Two answers can both be worked out and are not the same."""
    if isinstance(x, decide.Reading):
        return z3.And(x.ok, y.ok, z3.Not(tr.equal(x.v, y.v, None)))
    names = sorted(x.keys() | y.keys())
    oks = [x[n][3] for n in names if n in x] + [y[n][3] for n in names if n in y]
    parts = []
    for n in names:
        if n not in x or n not in y:
            parts.append(x[n][0] if n in x else y[n][0])
            continue
        (bx, tx, lx, _), (by, ty, ly, _) = x[n], y[n]
        parts.append(z3.Or(bx != by, z3.And(bx, by, z3.Or(z3.Not(tr.equal(tx, ty, None)),
                                                           z3.Not(tr.equal(lx, ly, None))))))
    return z3.And(*oks, z3.Or(*parts)) if parts else tr.false


_NONE = object()


def _value(interp: Interpreter, check: Check, state: dict[str, Any]) -> Any:
    try:
        value = interp.call(check.name, [state[p.name] for p in check.params])
    except (EvalError, TypeError, KeyError, ZeroDivisionError):
        return _NONE
    if isinstance(check, m.Limits):  # what a program reads of a breach: which limit, the total, the bound
        return [(b["limit"], b["total"], b["bound"]) for b in value]
    return value


def _diagnostic(rs: m.Ruleset, model: m.Resolved, a: str, b: str, check: Check, found: dict[str, Any],
                models: tuple[m.Resolved, ...]) -> Diagnostic:
    state = found["state"]
    records = {r.name: r for r in model.records}
    args = (decide.literal(state[p.name], p.t, records, p.name, state.read) for p in check.params)
    call = f"{check.name}({', '.join(args)})"
    none, with_a, with_b = (_words(v, check) for v in found["values"])
    in_force = _words(_value(Interpreter(model), check, state), check)
    changes = [ov for ov in model.overrides if ov.origin.layer == b]
    o = changes[0].origin if changes else check.origin
    span = Span(o.file, o.line, o.col, o.line, o.col + 1)
    clause = check.origin.clause or check.origin.layer
    return Diagnostic(span, "R303", f"{a} and {b} both change what {check.name} ({clause}) "
                      f"answers, differently, in ruleset {rs.name}: for {call} it is {none} without them, {with_a} "
                      f"with {a}, {with_b} with {b}, and {in_force} with both", severity="warning",
                      hint=f"which one is in force depends on the order of 'with {a}, {b}'; make one extend the "
                           "other, or agree on one change")


def _words(value: Any, check: Check) -> str:
    if value is _NONE:
        return "no answer"
    if isinstance(check, m.Limits):
        if not value:
            return "no limit broken"
        return "; ".join(f"{name} broken ({show(plain(total))} over {show(plain(bound))})"
                         for name, total, bound in value)
    return show(plain(value))


def same_target_clashes(model: m.Resolved, shown: set[tuple[str, str]]) -> list[Diagnostic]:
    """Two options of one ruleset that change the same thing differently: the later one wins, as the
    ruleset lists them, but a designer should know that order decides it (a warning). Left out where
    the two differ only in what answers follow from it and a warning by effect already shows an
    input they answer differently (shown: those pairs of options)."""
    options = {o.name for o in model.manifest.options}
    seen: dict[tuple[str, ...], m.Override] = {}
    out = []
    for ov in model.overrides:
        if ov.origin.layer not in options:
            continue
        first = seen.setdefault(m.target_key(ov.target), ov)
        if first is not ov and not _same_change(first, ov):
            a, b = first.origin.layer, ov.origin.layer
            if (a, b) in shown and first.title == ov.title and first.texts == ov.texts:
                continue
            what = m.target_label(ov.target)
            o = ov.origin
            out.append(Diagnostic(Span(o.file, o.line, o.col, o.line, o.col + 1), "R303",
                                  f"options {a} and {b} both change {what}, differently, in ruleset "
                                  f"{model.manifest.ruleset}", severity="warning",
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
