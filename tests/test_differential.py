"""The compiled check functions and the reference interpreter agree, value and rules,
on random game states drawn from each ruleset's own types (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from compiled import load_generated, plain, to_module, value_strategy
from conftest import RULES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec import model as m
from rulec.build import compile_sources, find_sources
from rulec.interp import EvalError, Interpreter

Check = m.Define | m.Table | m.Limits


def checks(model: m.Resolved) -> list[Check]:
    return [*model.defines, *model.tables, *model.limits]


def run_interpreter(model: m.Resolved, fn: str, args: list[Any]) -> tuple[str, Any, list[Any]]:
    interp = Interpreter(model)
    try:
        value = interp.call(fn, args)
    except (EvalError, ZeroDivisionError):
        return "error", None, []
    if fn in interp.limits:
        value = [{k: v for k, v in viol.items()} for viol in value]
    return "ok", value, [(c.layer, c.clause, c.item, c.note, c.title) for c in interp.trace]


def run_compiled(module: Any, d: Check, args: list[Any]) -> tuple[str, Any, list[Any]]:
    name = d.name if hasattr(module, d.name) else d.name + "_"
    try:
        value = getattr(module, name)(*args)
        answer = getattr(module, f"explain_{name}")(*args)
    except module.RuleError:
        return "error", None, []
    assert plain(answer.value) == plain(value), "explain_ and the plain check disagree"
    if isinstance(d, m.Limits):
        value = [{"limit": v.limit, "title": v.title, "rule": v.rule, "total": v.total, "bound": v.bound,
                  "excess": v.excess, "units": v.units} for v in value]
    # an item's title as the ruleset has it (a clause's title the interpreter leaves to the module)
    return "ok", value, [(c.layer, c.clause, c.item, c.note, c.title if c.item else None) for c in answer.rules]


def _cases() -> list[tuple[str, str]]:
    """Every check of every ruleset in rules/: each game, and each ruleset with options."""
    sources, _ = find_sources([RULES])
    models = compile_sources(sources).models
    return [(rs, d.name) for rs in sorted(models) for d in checks(models[rs])]


@pytest.mark.parametrize(("ruleset", "check"), _cases())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_check_agrees_with_the_interpreter(shipped: Any, ruleset: str, check: str, data: Any) -> None:
    model = shipped.models[ruleset]
    module = _module(ruleset)
    d = next(x for x in checks(model) if x.name == check)
    params = [p.t for p in d.params]
    args = data.draw(st.tuples(*(value_strategy(model, t) for t in params)))
    expected = run_interpreter(model, d.name, list(args))
    compiled_args = [to_module(module, model, t, a) for t, a in zip(params, args, strict=True)]
    got = run_compiled(module, d, compiled_args)
    assert got[0] == expected[0], f"{d.name}{args}: {got[0]} != {expected[0]}"
    assert plain(got[1]) == plain(expected[1]), f"{d.name}{args}"
    assert got[2] == expected[2], f"{d.name}{args}: rules differ"


_MODULES: dict[str, Any] = {}


def _module(ruleset: str) -> Any:
    if ruleset not in _MODULES:
        _MODULES[ruleset] = load_generated(ruleset)
    return _MODULES[ruleset]


def test_the_differential_test_can_fail(shipped: Any) -> None:
    """A compiled function that is wrong is caught: break one and check the comparison sees it."""
    model: m.Resolved = shipped.models["DAK"]
    module = load_generated("DAK")
    args = ["F", True]
    expected = run_interpreter(model, "ezoc_allows", args)
    assert expected[1] is False
    wrong = run_interpreter(_every_action_negatable(model), "ezoc_allows", args)
    got = run_compiled(module, next(d for d in model.defines if d.name == "ezoc_allows"), args)
    assert plain(got[1]) == plain(expected[1])
    assert plain(got[1]) != plain(wrong[1])


def _every_action_negatable(model: m.Resolved) -> m.Resolved:
    """The model with every EzocAction negatable (as if an override had been lost)."""
    def member(mem: m.EnumMember) -> m.EnumMember:
        return replace(mem, attrs=tuple((n, m.AttrValue(True, None) if n == "negatable" else v) for n, v in mem.attrs))

    return replace(model, enums=tuple(replace(e, members=tuple(member(mem) for mem in e.members))
                                      if e.name == "EzocAction" else e for e in model.enums))
