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




# A limits group whose sum's table is written out in the loop (emit_fused_totals: rows_in_place)
# and whose counts go on as the sum's elif: a row the sum's test rules out is left out, a row that
# reads more than the tested field stays; counts of another field (sides) keep their own if, as
# the sum's test proves nothing about them. GUNS: a kind both summed and counted keeps its own if.
IN_PLACE = """
series S "S"
enum Kind "Kind" {
  has heavy: bool = false "Heavy"
  - tank "Tank" heavy
  - gun "Gun" heavy
  - truck "Truck"
  - depot "Depot"
  - dump "Dump"
}
enum Side "Side" {
  - red "Red"
  - blue "Blue"
}
record Piece "Piece" {
  kind: Kind = tank "Kind"
  side: Side = red "Side"
  steps: int = 1 "Steps"
  worn: bool = false "Worn"
}
record Place "Place" {
  pieces: list of Piece = [] "Pieces"
  busy: bool = false "Busy"
}
rule 1.1 "Weights" {
  define is_heavy(p: Piece) -> bool "Heavy" = p.kind.heavy
  table weight(p: Piece) -> number "Weight" {
    light: when not is_heavy(p) => 0 "Not heavy"
    gun: when p.kind == gun and p.worn => 1/4 "A worn gun"
    steps: when p.steps > 2 => p.steps - 1/2 "Many steps"
    other: otherwise => 1 "Other"
  }
  limits crowding(s: Place) "Crowding" {
    heavy "Heavy pieces": sum(weight(p) for p in s.pieces where is_heavy(p)) at most 3
    depots "Depots": count(p for p in s.pieces where p.kind == depot) at most 1
    dumps "Dumps": count(p for p in s.pieces where p.kind == dump) at most 1
    reds "Red pieces": count(p for p in s.pieces where p.side == red) at most 2
    blues "Blue pieces": count(p for p in s.pieces where p.side == blue) at most 2
  }
}
rule 1.2 "Busy places" {
  except crowding.heavy when s.busy "Not while busy"
}
"""
GUNS = IN_PLACE.replace('dumps "Dumps": count(p for p in s.pieces where p.kind == dump) at most 1',
                        'guns "Guns": count(p for p in s.pieces where p.kind == gun) at most 2')


@pytest.fixture(scope="module", params=[IN_PLACE, GUNS], ids=["in-place", "guns"])
def in_place(request: Any) -> tuple[m.Resolved, str, Any]:
    from conftest import compile_text

    from rulec.crosscheck import load_module
    from rulec.emit_python import emit_python

    result = compile_text(request.param)
    assert result.ok, [d.message for d in result.diagnostics]
    model = result.models["S"]
    source = next(iter(emit_python(model).values()))
    return model, source, load_module(source, "S")


def test_a_summed_tables_rows_are_written_in_the_loop(in_place: tuple[m.Resolved, str, Any]) -> None:
    _, source, _ = in_place
    code = source[source.index("\ndef crowding("):source.index("\ndef _t_crowding(")]
    assert "_s_weight(" not in code and "# rule: weight(p), its rows written out in place:" in code
    assert "# light:" not in code  # a heavy piece is never `not is_heavy(p)`
    assert "# gun: 1.1" in code and "# steps: 1.1" in code and "# other: 1.1" in code
    assert "\n        if _p_side == 'red':" in code and "elif _p_side == 'blue':" in code
    if "guns" in code:  # a gun is summed and counted: the kinds' chain is not an elif of the sum
        assert "\n        if _p_kind == 'depot':" in code and "elif _p_kind == 'gun':" in code
    else:
        assert "\n        elif _p_kind == 'depot':" in code and "elif _p_kind == 'dump':" in code


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_rows_in_the_loop_agree_with_the_interpreter(in_place: tuple[m.Resolved, str, Any], data: Any) -> None:
    model, _, module = in_place
    d = model.limits[0]
    t = d.params[0].t
    place = data.draw(value_strategy(model, t))
    expected = run_interpreter(model, d.name, [place])
    got = run_compiled(module, d, [to_module(module, model, t, place)])
    assert (got[0], plain(got[1]), got[2]) == (expected[0], plain(expected[1]), expected[2]), place
