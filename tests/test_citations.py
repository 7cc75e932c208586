"""What an answer cites (issue 15, item 2): the clause that defines what decided it, the override
with its own words, and the clause that makes a condition apply. Each case is asked of the
reference interpreter and of the generated module, which must say the same."""

from __future__ import annotations

from typing import Any

import pytest
from compiled import load_generated, to_module, value_strategy
from conftest import compile_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.build import compile_sources
from rulec.evaluate import evaluate, explanation

SERIES = '''series S "S"
rule 4.6 "Regimental Equivalents" {
  enum Size "Unit size" {
    - battalion "Battalion"
    - regiment "Regiment"
  }
  record Unit "A unit" {
    size: Size = regiment
  }
  table re_size(u: Unit) -> number "RE size" {
    battalion: when u.size == battalion => 1/2 "Battalions are 1/2 RE"
    other: otherwise => 1 "All other sizes count as 1 RE"
  }
  table rail_size(u: Unit) -> number "Rail size" {
    battalion: when u.size == battalion => 1 "A battalion takes a whole car"
    other: otherwise => 2 "Others take two"
  }
  example "e" {
    expect re_size(Unit { size: battalion }) == 1/2
    expect re_size(Unit {}) == 1
    expect rail_size(Unit { size: battalion }) == 1
    expect rail_size(Unit {}) == 2
  }
}
rule 4.8 "Stacking" {
  enum Moment "When" {
    - end "End of a phase"
    - moving "During movement"
    - overrun "In an overrun"
  }
  record Hex "A hex" {
    units: list of Unit = []
    moment: Moment = end
  }
  const max_stack_re "The most RE in a hex" = 2
  limits stacking(h: Hex) "Stacking" {
    combat_re "Combat units (RE)": sum(re_size(u) for u in h.units) at most max_stack_re
  }
  example "e" {
    expect len(stacking(Hex { units: [Unit {}, Unit {}, Unit {}] })) == 1
  }
}
rule 4.8a "Overstacking" {
  except stacking.combat_re when h.moment == moving "Units can temporarily overstack during movement."
  example "e" {
    expect len(stacking(Hex { units: [Unit {}, Unit {}, Unit {}], moment: moving })) == 0
  }
}
'''

GAME = '''game G "G" extends S
override 4.6 re_size.battalion: 1/3
override 4.8 stacking.combat_re: at most 3
  note "Three RE in this game."
rule 1.1 "G" {
  example "e" {
    expect re_size(Unit { size: battalion }) == 1/3
    expect len(stacking(Hex { units: [Unit {}, Unit {}, Unit {}] })) == 0
    expect len(stacking(Hex { units: [Unit {}, Unit {}, Unit {}, Unit {}], moment: overrun })) == 1
  }
}
'''


def _models() -> dict[str, Any]:
    result = compile_sources({"s.rules": SERIES, "g.rules": GAME}, keep_models=True)
    assert result.ok, [d.message for d in result.diagnostics]
    return result.models


def ask(ruleset: str, query: str) -> tuple[list[str], list[str]]:
    """The cites of one answer in words: from the interpreter, and from the generated module."""
    model = _models()[ruleset]
    return ([r["text"] for r in evaluate(model, query).rules],
            [r["text"] for r in evaluate(model, query, on_module=True).rules])


OVER3 = "stacking(Hex { units: [Unit {}, Unit {}, Unit {}], moment: overrun })"
OVER4 = "stacking(Hex { units: [Unit {}, Unit {}, Unit {}, Unit {}], moment: overrun })"
BATTALION = "re_size(Unit { size: battalion })"


def test_an_overrun_stacking_answer_cites_the_clause_that_makes_the_limit_apply() -> None:
    """4.8a: units can overstack during movement "except when conducting an overrun"."""
    interp, module = ask("S", OVER3)
    assert interp == module
    assert module[-2:] == ["4.8a Overstacking", "4.8 combat_re Combat units (RE)"]


def test_an_overridden_limit_is_cited_with_the_layer_and_its_note() -> None:
    interp, module = ask("G", OVER4)
    assert interp == module
    assert module[-1] == "4.8 combat_re Combat units (RE) (overridden by G: Three RE in this game.)"


def test_an_override_without_a_note_is_not_cited_as_overridden_overridden() -> None:
    interp, module = ask("G", BATTALION)
    assert interp == module
    # the series' title described the series' row (1/2): the overridden row is cited without it (R115)
    assert module[-2:] == ["4.6 battalion", "4.6 battalion (overridden by G)"]
    assert not any("overridden)" in c or "Battalions are 1/2 RE" in c for c in module)


def test_two_rows_of_one_label_in_one_clause_are_each_cited_with_their_own_title() -> None:
    assert ask("S", BATTALION)[1][-1] == "4.6 battalion Battalions are 1/2 RE"
    assert ask("S", "rail_size(Unit { size: battalion })")[1][-1] == "4.6 battalion A battalion takes a whole car"


def test_the_r115_warning_names_the_stale_title() -> None:
    result = compile_text(SERIES, GAME)
    assert [(d.code, d.severity) for d in result.diagnostics] == [("R115", "warning")]


@pytest.mark.parametrize(("query", "expected"), [
    ("may_detrain", "13.3g rail_repair C) Rail Repair units detrain in any railroad hex"),
    ("may_entrain", "13.3g rail_repair B, C) Rail Repair units entrain in any railroad hex"),
])
def test_shipped_rows_of_one_label_are_cited_with_their_own_title(query: str, expected: str) -> None:
    """The audit's finding: may_detrain's rail_repair row was cited with may_entrain's title."""
    ocs = load_generated("ocs")
    unit = ocs.from_json("Unit", {"type": "rail_repair", "mode": "combat"})
    hex_ = ocs.from_json("RailHex", {"in_ezoc": False})
    cites = [str(c) for c in getattr(ocs, f"explain_{query}")(unit, hex_).rules]
    assert any(c.startswith(expected) for c in cites), cites


def test_a_series_example_a_game_override_changes_is_superseded_not_failed(tmp_path: Any) -> None:
    """Issue 15, item 3: `override 4.8 stacking.combat_re: at most 3` made the series' 4.8 examples
    fail for the game. They still hold where they were written; in the game they are listed as
    superseded by the override, and the game states its own."""
    import subprocess
    import sys

    (tmp_path / "s.rules").write_text(SERIES)
    (tmp_path / "g.rules").write_text(GAME)
    run = subprocess.run([sys.executable, "-m", "rulec", "test", "--rules", str(tmp_path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    folder = tmp_path.name
    assert run.stdout.splitlines() == [
        f"superseded: G: the example of 4.6 'e' ({folder}/s.rules:18) is superseded by G 4.6 battalion",
        f"superseded: G: the example of 4.8 'e' ({folder}/s.rules:39) is superseded by G 4.8 combat_re",
        "4 passed, 0 failed, 2 superseded",
    ]
    # an override that changes nothing the failing expectation used is no excuse: that is a failure
    broken = GAME.replace("expect re_size(Unit { size: battalion }) == 1/3", "expect re_size(Unit {}) == 2")
    (tmp_path / "g.rules").write_text(broken)
    run = subprocess.run([sys.executable, "-m", "rulec", "test", "--rules", str(tmp_path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "R401" in run.stderr and "the left side is 1, the right side 2" in run.stderr


LET_SERIES = '''series S "S" version "1"
rule 1.1 "Bonus" {
  define bonus(x: int) -> int "Bonus" = x + 1
  example "via let" {
    let r = bonus(1)
    expect r == 2
  }
  example "via nested lets" {
    let r = bonus(1)
    let s = r * 2
    expect s == 4 by 1.1
  }
  example "direct" { expect bonus(1) == 2 }
}
'''
LET_GAME = '''game G "G" extends S "1"
override 1.1 bonus: x + 2
'''


@pytest.mark.parametrize("with_module", [False, True], ids=["interpreter", "module"])
def test_an_example_that_reaches_an_overridden_rule_through_a_let_is_superseded(with_module: bool) -> None:
    """A newcomer's trial: `let r = bonus(1)` then `expect r == 2` failed for a game that overrides
    bonus, where `expect bonus(1) == 2` was superseded. The rules a let's value used are the rules of
    the expectation that reads it, through lets of lets too, and count for its `by` as well."""
    from rulec.testing import run_tests

    result = compile_sources({"t0.rules": LET_SERIES, "t1.rules": LET_GAME}, keep_models=True,
                             crosscheck=with_module)
    assert result.ok, [d.render(result.sources) for d in result.diagnostics]
    assert sorted(result.modules) == (["G", "S"] if with_module else [])
    report = run_tests(result.models, result.modules if with_module else None)
    assert (report.passed, report.failed, report.failures) == (3, 0, [])
    assert [line.split(": ", 1)[1] for line in report.superseded] == [
        f"the example of 1.1 '{title}' (t0.rules:{line}) is superseded by G 1.1"
        for title, line in (("via let", 4), ("via nested lets", 8), ("direct", 13))]


def test_only_the_expectations_that_read_a_let_take_its_rules() -> None:
    """A genuine failure through a let is still a failure, and its hint names the rules the let used;
    an expectation that does not read the let (or binds its own of that name) does not take them."""
    from rulec.analysis import run_example_traced

    series = '''series S "S" version "1"
rule 1.1 "Bonus" {
  define bonus(x: int) -> int "Bonus" = x + 1
}
rule 1.2 "Double" {
  define double(x: int) -> int "Double" = x + x
  example "e" {
    let r = bonus(1)
    expect double(r) == 5
    expect double(1) == 3
    expect (let r = 5; r) == 6
  }
}
'''
    for crosscheck in (False, True):
        result = compile_sources({"t0.rules": series}, crosscheck=crosscheck)
        hints = [(d.span.line, d.hint) for d in result.diagnostics if d.code == "R401"]
        assert hints == [(9, "rules used: 1.1, 1.2"), (10, "rules used: 1.2"), (11, "rules used: none")]
    # in a game that overrides bonus, the first is superseded; the others still fail, as they did
    result = compile_sources({"t0.rules": series, "t1.rules": LET_GAME}, keep_models=True, crosscheck=True)
    model = result.models["G"]
    for module in (None, result.modules["G"]):
        outcome, diags, _ = run_example_traced(model, model.examples[0], module)
        assert outcome == "fail"
        assert [(d.span.line, d.hint) for d in diags] == [(10, "rules used: 1.2"), (11, "rules used: none")]


BY_ITEMS = '''series S "S" version "1"
ordered enum Size "Size" { - battalion "Battalion"  - regiment "Regiment" }
record Unit "A unit" { size: Size = regiment "Size" }
rule 4.6 "Regimental Equivalents" {
  table re_size(u: Unit) -> number "RE size" {
    battalion: when u.size == battalion => 1/2 "Battalions are 1/2 RE"
    other: otherwise => 1 "Others are 1 RE"
  }
  const cap "Cap" = 10
}
game G "G" extends S "1"
override 4.6 re_size.battalion: when u.size == battalion => 1/3 title "Battalions are 1/3 RE"
override 4.6 cap: 8
rule 1.1 "G" {
  example "e" {
    expect re_size(Unit { size: battalion }) == 1/3 by G 4.6 BY
    expect cap == 8 by G 4.6 CAP
  }
}
'''


@pytest.mark.parametrize(("row", "cap", "expected"), [
    ("battalion", "", []),  # what answers cite: a row by its label, a named number by its rule alone
    ("re_size", "", [(16, "answers cite re_size of rule 4.6 by its rule number alone",
                      "write 'by G 4.6', or name the row that answered: 'by G 4.6 battalion'")]),
    ("battalion", "cap", [(17, "answers cite cap of rule 4.6 by its rule number alone", "write 'by G 4.6'")]),
    ("batallion", "", [(16, "rule 4.6 has no item 'batallion'", "did you mean 'battalion'?")]),
])
def test_by_names_what_answers_cite(row: str, cap: str, expected: list[tuple[int, str, str]]) -> None:
    """`by G 4.6 battalion` holds when G's row battalion answered, as the answer cites it ("4.6
    battalion"); a table's, a named number's or a definition's own name is never cited, so a `by`
    naming one could never hold: it is R102 at check time, with the `by` that would (a newcomer's
    trial found 'by G 4.6 battalion' refused and 'by G 4.6 cap' failing as an example instead)."""
    result = compile_sources({"t.rules": BY_ITEMS.replace("BY", row).replace(" CAP", f" {cap}".rstrip())},
                             crosscheck=True)
    assert [(d.span.line, d.message, d.hint) for d in result.diagnostics] == expected
    assert result.ok == (not expected)


# ---- every answer of every shipped check names a rule -------------------------------------------

def _shipped_checks() -> list[tuple[str, str]]:
    from conftest import RULES

    from rulec.build import find_sources
    sources, _ = find_sources([RULES])
    models = compile_sources(sources).models
    return [(rs, d.name) for rs in sorted(models)
            for d in [*models[rs].defines, *models[rs].tables, *models[rs].limits]]


@pytest.mark.parametrize(("ruleset", "check"), _shipped_checks())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_answer_cites_a_numbered_rule(shipped: Any, ruleset: str, check: str, data: Any) -> None:
    """Issue 15, item 2: no answer rests on nothing, and none on a bare layer ("because combat_unit",
    "Hedgehog (OCS)"): each cite names a clause, numbered or external."""
    model = shipped.models[ruleset]
    module = load_generated(ruleset)
    d = next(x for x in [*model.defines, *model.tables, *model.limits] if x.name == check)
    params = [p.t for p in d.params]
    args = data.draw(st.tuples(*(value_strategy(model, t) for t in params)))
    name = d.name if hasattr(module, d.name) else d.name + "_"
    try:
        answer = getattr(module, f"explain_{name}")(*[to_module(module, model, t, a)
                                                      for t, a in zip(params, args, strict=True)])
    except module.RuleError:
        return
    assert answer.rules, f"{check}{args}: an answer that cites no rule"
    bare = [str(c) for c in answer.rules if c.clause is None]
    assert not bare, f"{check}{args}: cites without a rule number: {bare}"


def test_a_failing_example_says_what_it_computed() -> None:
    """Issue 15, item 4: not "this is false" but the values or the part that decided it."""
    series = '''series S "S"
rule 1.1 "R" {
  define f(n: int) -> bool "F" = n > 1
  example "e" {
    expect not f(3)
    expect f(3) and f(0)
    expect f(0) or 1 > 2
    expect f(0) == true
  }
}
'''
    result = compile_text(series)
    assert [d.message.split(": ", 1)[1] for d in result.diagnostics if d.code == "R401"] == [
        "f(...) answers true",
        "part 2 of the 'and' is false: f(...) answers false",
        "every part of the 'or' is false: f(...) answers false; the left side is 1, the right side 2",
        "the left side is false, the right side true",
    ]


# ---- what would change a no, list inputs included (item 4) -------------------------------------------

def _bool_checks() -> list[tuple[str, str]]:
    from conftest import RULES

    from rulec.build import find_sources
    from rulec.types import BoolT
    sources, _ = find_sources([RULES])
    models = compile_sources(sources).models
    return [(rs, d.name) for rs in ("OCS", "ZCS", "ACW") for d in [*models[rs].defines, *models[rs].tables]
            if isinstance(d.returns, BoolT) and d.params and getattr(d, "invariant", None) is None]


@pytest.mark.parametrize(("ruleset", "check"), _bool_checks())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_what_would_change_a_no_is_the_same_from_both(shipped: Any, ruleset: str, check: str, data: Any) -> None:
    """The interpreter (rulec eval) and the module's explain_ name the same single changes, in one order:
    yes/no and list values, a record's fields, and the items of a list (removed, changed, one more)."""
    from rulec import model as m
    from rulec.evaluate import _would_change_on
    from rulec.interp import EvalError, Interpreter

    model = shipped.models[ruleset]
    module = load_generated(ruleset.lower())
    d = next(x for x in [*model.defines, *model.tables] if x.name == check)
    args = data.draw(st.tuples(*(value_strategy(model, p.t) for p in d.params)))
    interp = Interpreter(model)
    try:
        if interp.call(d.name, list(args)) is not False:
            return
        node = m.Call(d.returns, d.name, tuple(m.Var(p.t, f"a{i}") for i, p in enumerate(d.params)))
        expected = _would_change_on(interp, node, {f"a{i}": a for i, a in enumerate(args)})
    except (EvalError, ZeroDivisionError):
        return
    name = d.name if hasattr(module, d.name) else d.name + "_"
    answer = getattr(module, f"explain_{name}")(*[to_module(module, model, p.t, a)
                                                  for p, a in zip(d.params, args, strict=True)])
    assert list(answer.would_change) == expected
    # and both say it in one sentence
    assert answer.explanation == explanation(False, [str(c) for c in answer.rules], expected)


def test_a_no_over_a_list_says_which_unit_would_make_it_a_yes() -> None:
    """zoc_negated and all_stacks_screened take lists: the unit to change, remove or add."""
    ocs = load_generated("ocs")
    h = ocs.from_json("Hex", {"units": [{"will_spend_mp": True}, {"type": "sp"}]})
    changes = ocs.explain_zoc_negated(h).would_change
    assert changes[0] == "h.units[0].will_spend_mp = false"
    assert "h.units[1].type = hq" in changes and changes[-1] == "h.units had one more Unit {}"
    assert ocs.explain_zoc_negated(ocs.from_json("Hex", {})).would_change == ("h.units had one more Unit {}",)
    zcs = load_generated("zcs")
    assert "enemies[0] removed" in zcs.explain_all_stacks_screened(("partial",), ("full", "partial")).would_change


@pytest.mark.parametrize("query", [
    "ezoc_allows(F, true)", "re_size(Unit { size: battalion })", "stacking(Hex {})",
    "stacking(Hex { units: [Unit { multi_step: true, printed_re: 6 }, Unit { multi_step: true, printed_re: 6 }],"
    " moment: overrun })",
])
def test_an_answer_reads_as_a_sentence_a_player_would_say(shipped: Any, query: str) -> None:
    model = shipped.models["DAK"]
    interp, module = evaluate(model, query), evaluate(model, query, on_module=True)
    assert interp.explanation == module.explanation
    assert module.explanation.endswith(".") and ", because of " in module.explanation
    first = module.explanation.split(", because of ")[0]
    assert first in ("No", "1/2", "None", "Combat units (RE): 12 where at most 10 (4.8)")
