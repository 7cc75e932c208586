"""The compiled check functions and the reference interpreter agree, value and rules,
on random game states drawn from each ruleset's own types (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from compiled import load_generated, plain, to_module, value_strategy
from conftest import RULES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler import ir
from compiler.build import compile_sources, find_sources
from compiler.interp_ir import EvalError, Interpreter


def checks(model: dict[str, Any]) -> list[dict[str, Any]]:
    return [*model["defines"], *model["tables"], *model["limits"]]


def run_interpreter(model: dict[str, Any], fn: str, args: list[Any]) -> tuple[str, Any, list[Any]]:
    interp = Interpreter(model)
    try:
        value = interp.call(fn, args)
    except (EvalError, ZeroDivisionError):
        return "error", None, []
    if fn in interp.limits:
        value = [{k: v for k, v in viol.items()} for viol in value]
    return "ok", value, [(c.layer, c.clause, c.item, c.note) for c in interp.trace]


def run_compiled(module: Any, d: dict[str, Any], args: list[Any]) -> tuple[str, Any, list[Any]]:
    name = d["name"] if hasattr(module, d["name"]) else d["name"] + "_"
    try:
        value = getattr(module, name)(*args)
        answer = getattr(module, f"explain_{name}")(*args)
    except module.RuleError:
        return "error", None, []
    assert plain(answer.value) == plain(value), "explain_ and the plain check disagree"
    if "items" in d:
        value = [{"limit": v.limit, "title": v.title, "rule": v.rule, "total": v.total, "bound": v.bound,
                  "excess": v.excess, "units": v.units} for v in value]
    return "ok", value, [(c.layer, c.clause, c.item, c.note) for c in answer.rules]


def _cases() -> list[tuple[str, str]]:
    """Every check of every ruleset in rules/: each game, and each ruleset with options."""
    sources, _ = find_sources([RULES])
    models = {n: ir.of(r) for n, r in compile_sources(sources).models.items()}
    return [(rs, d["name"]) for rs in sorted(models) for d in checks(models[rs])]


@pytest.mark.parametrize(("ruleset", "check"), _cases())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_check_agrees_with_the_interpreter(shipped: Any, ruleset: str, check: str, data: Any) -> None:
    model = ir.of(shipped.models[ruleset])
    module = _module(ruleset)
    d = next(x for x in checks(model) if x["name"] == check)
    params = [p["t"] for p in d["params"]]
    args = data.draw(st.tuples(*(value_strategy(model, t) for t in params)))
    expected = run_interpreter(model, d["name"], list(args))
    compiled_args = [to_module(module, model, t, a) for t, a in zip(params, args, strict=True)]
    got = run_compiled(module, d, compiled_args)
    assert got[0] == expected[0], f"{d['name']}{args}: {got[0]} != {expected[0]}"
    assert plain(got[1]) == plain(expected[1]), f"{d['name']}{args}"
    assert got[2] == expected[2], f"{d['name']}{args}: rules differ"


_MODULES: dict[str, Any] = {}


def _module(ruleset: str) -> Any:
    if ruleset not in _MODULES:
        _MODULES[ruleset] = load_generated(ruleset)
    return _MODULES[ruleset]


def test_the_differential_test_can_fail(shipped: Any) -> None:
    """A compiled function that is wrong is caught: break one and check the comparison sees it."""
    model = ir.of(shipped.models["DAK"])
    module = load_generated("DAK")
    args = ["F", True]
    expected = run_interpreter(model, "ezoc_allows", args)
    assert expected[1] is False
    wrong = run_interpreter({**model, "enums": [
        {**e, "members": [{**m, "attrs": {**m["attrs"], "negatable": {"value": True, "origin": None}}}
                          for m in e["members"]]} if e["name"] == "EzocAction" else e
        for e in model["enums"]]}, "ezoc_allows", args)
    got = run_compiled(module, next(d for d in model["defines"] if d["name"] == "ezoc_allows"), args)
    assert plain(got[1]) == plain(expected[1])
    assert plain(got[1]) != plain(wrong[1])
