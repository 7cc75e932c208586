"""A limits check in an expression (a definition, a worked example) is the names of the limits it
finds broken, a list of text, as the checker types it. Both implementations took it for the list of
violations a program gets from the module: `"infantry" in stacking(h)` type-checked and answered
false with the infantry limit broken, and `expect stacking(h) == []` failed with "the left side is
[], the right side []" (a list of violations against an empty list literal)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from conftest import compile_text

from rulec import cli

RULES = '''series S "Stack" version "1"

enum Arm "Arm" {
  - inf "Infantry"
  - art "Artillery"
}

record Unit "A unit" {
  arm: Arm = inf "Arm"
  sp: int = 1 "Strength points"
}

record Hex "A hex" {
  units: list of Unit = [] "Units"
}

rule 2.1 "Stacking" {
  text "No more than 8 infantry SP and 10 artillery SP may stack in a hex."
  limits stacking(h: Hex) "Stacking limits" {
    infantry "Infantry SP": sum(u.sp for u in h.units where u.arm == inf) at most 8
    artillery "Artillery SP": sum(u.sp for u in h.units where u.arm == art) at most 10
  }
  define crowded(h: Hex) -> bool "Too many infantry SP" = "infantry" in stacking(h)
  define broken(h: Hex) -> list of text "The limits broken" = stacking(h)
  example "a full hex" {
    let h = Hex { units: [Unit { sp: 5 }, Unit { sp: 4 }] }
    expect crowded(h)
    expect "infantry" in stacking(h)
    expect stacking(h) == ["infantry"]
    expect broken(Hex { units: [Unit { sp: 9 }, Unit { arm: art, sp: 11 }] }) == ["infantry", "artillery"]
    expect stacking(Hex { units: [Unit { sp: 8 }] }) == []
    expect not crowded(Hex { units: [Unit { arm: art, sp: 11 }] })
  }
}
'''


def test_the_examples_pass_on_the_interpreter_and_the_module(tmp_path: Path) -> None:
    """`rulec build` runs each example on both (a difference is R900): each must pass on each."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "s.rules").write_text(RULES, encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["build", "--rules", str(tmp_path / "rules"), "--out", str(out), "--no-print",
                     "--no-cache"]) == 0
    spec = importlib.util.spec_from_file_location("limits_module", out / "python" / "s.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["limits_module"] = module
    try:
        spec.loader.exec_module(module)
        full = module.Hex(units=(module.Unit(sp=5), module.Unit(sp=4)))
        assert module.crowded(full) is True
        assert module.broken(full) == ("infantry",)
        [violation] = module.stacking(full)  # a program still gets the violations, with what was counted
        assert (violation.limit, violation.total, violation.bound) == ("infantry", 9, 8)
    finally:
        del sys.modules["limits_module"]


def test_a_limits_check_where_a_condition_is_wanted_says_what_it_answers() -> None:
    result = compile_text(RULES.replace("expect crowded(h)\n", "expect stacking(h)\n"))
    [d] = [d for d in result.diagnostics if d.code == "R201"]
    assert d.hint == ('a limits check answers the names of the limits it finds broken: stacking(...) == [] '
                      'when none is, or "name" in stacking(...) for one of them')


def test_rulec_eval_shows_a_check_alone_as_its_violations_and_inside_a_question_as_names() -> None:
    from rulec.crosscheck import plain
    from rulec.evaluate import evaluate

    model = compile_text(RULES).models["S"]
    full = "Hex { units: [Unit { sp: 5 }, Unit { sp: 4 }] }"
    answers = []
    for on_module in (False, True):
        alone = evaluate(model, f"stacking({full})", on_module=on_module)
        [violation] = alone.value
        fields = dict(plain(violation)[1])
        assert (fields["limit"], fields["total"], fields["bound"]) == ("infantry", 9, 8)
        answers.append(plain(alone.value))
        assert evaluate(model, f'"infantry" in stacking({full})', on_module=on_module).value is True
        assert evaluate(model, f"stacking({full}) == []", on_module=on_module).value is False
    assert answers[0] == answers[1]  # the interpreter and the module give the same violations
