"""A table's `requires`: the inputs it answers, stated in the rules (OCS 4.2's odds: attack and defense
above 0, which its title said in words alone). A call outside them has no answer, from the interpreter
and the module alike; the table analysis assumes it, and R307 finds a row whose value cannot be worked
out (a division by zero, the max of nothing) for an input the table answers and that reaches it
(R307, a warning: the rules may leave a case open on purpose)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from conftest import compile_text

from rulec import ir
from rulec.analysis import run_examples
from rulec.cli import main
from rulec.crosscheck import load_module
from rulec.emit_python import emit_python
from rulec.fmt import format_text
from rulec.interp import EvalError, Interpreter

ODDS = '''series T "Tables" version "1"

record Unit "A unit" {
  sp: int = 1 "Strength"
  steps: int = 2 "Steps"
}

rule 1 "Odds" {
  table odds(attack: number, defense: number) -> number "Combat odds" {REQUIRES
    attacker: when attack >= defense => floor(attack / defense + 1/2)
    defender: otherwise => 1 / floor(defense / attack + 1/2)
  }
  example "15 to 6 is 3:1" {
    expect odds(15, 6) == 3
    expect odds(1, 3) == 1/3
  }
}

rule 2 "Steps" {
  table per_step(u: Unit) -> number "Strength per step" {REQUIRES2
    big: when u.sp > 10 => u.sp / u.steps
    other: when u.sp <= 10 => 1
  }
}
'''

WITH = ODDS.replace("REQUIRES2", "\n    requires u.steps > 0").replace("REQUIRES",
                                                                  "\n    requires attack > 0 and defense > 0")
WITHOUT = ODDS.replace("REQUIRES2", "").replace("REQUIRES", "")


def test_without_requires_r307_warns_of_each_value_that_divides_by_zero() -> None:
    result = compile_text(WITHOUT)
    found = sorted((d.code, d.span.line, d.message) for d in result.diagnostics)
    assert found == [
        ("R307", 10, "odds(0, 0) divides by zero in the value of row 'attacker' of 1 (odds)"),
        ("R307", 11, "odds(0, 1/4) divides by zero in the value of row 'defender' of 1 (odds)"),
        ("R307", 21, "per_step(Unit { sp: 11, steps: 0 }) divides by zero in the value of row 'big' of 2 "
                     "(per_step)"),
    ]
    hints = {d.span.line: d.hint for d in result.diagnostics}
    assert hints[10] == ("put a row for `defense == 0` above this one, or write the value `if defense != 0 then ... "
                         "else ...`: the table gives no answer there; if the table is never asked with defense = 0, "
                         "say so first in the table (`requires defense > 0`)")
    assert "say so with an invariant on Unit (`invariant ...(u: Unit) = u.steps > 0`)" in hints[21]


def test_with_requires_the_analysis_assumes_it() -> None:
    """No R307 inside the domain, and no R302 for the inputs outside it (per_step has no row for
    u.sp > 10 with no steps, and need not have)."""
    result = compile_text(WITH)
    assert result.diagnostics == []


@pytest.mark.parametrize("query", ["odds(0, 0)", "odds(2, 0)", "per_step(Unit { sp: 11, steps: 0 })"])
def test_a_call_outside_it_has_no_answer_from_either(query: str) -> None:
    result = compile_text(WITH)
    model = result.models["T"]
    table = query.split("(")[0]
    with pytest.raises(EvalError, match=rf"^{table} answers only where "):
        Interpreter(model).call(table, _args(model, query))
    [source] = emit_python(model, whole=True).values()
    module = load_module(source, "T")
    args = [module.Unit(sp=11, steps=0)] if table == "per_step" else [int(x) for x in query[5:-1].split(", ")]
    for fn in (getattr(module, table), getattr(module, "explain_" + table)):
        with pytest.raises(module.RuleError, match=rf"^{table} answers only where "):
            fn(*args)
    assert run_examples(model, module) == []  # and the examples inside it agree on both


def _args(model: object, query: str) -> list[object]:
    from rulec.interp import Record
    if query.startswith("per_step"):
        return [Record(sp=11, steps=0)]
    return [int(x) for x in query[5:-1].split(", ")]


def test_rulec_eval_says_why_there_is_no_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t.rules").write_text(WITH, encoding="utf-8")
    for module in ([], ["--module"]):
        assert main(["eval", "--rules", str(tmp_path), *module, "T", "odds(0, 0)"]) == 1
        err = capsys.readouterr().err
        assert err == "rulec: the rules give no answer: odds answers only where attack > 0 and defense > 0\n"


def test_requires_must_be_a_condition_on_the_parameters() -> None:
    result = compile_text(WITH.replace("requires attack > 0 and defense > 0", "requires attack + 1"))
    assert [(d.code, d.span.line) for d in result.diagnostics if d.severity == "error"] == [("R201", 10)]
    result = compile_text(WITH.replace("requires attack > 0 and defense > 0", "requires u.sp > 0"))
    assert [d.code for d in result.diagnostics if d.severity == "error"] == ["R101"]  # u: not a parameter


def test_the_ir_has_it_and_the_schema_takes_it() -> None:
    model = compile_text(WITH).models["T"]
    document = json.loads(ir.text(model))
    odds, per_step = document["tables"]
    assert odds["name"] == "odds" and odds["requires"]["op"] == "and"
    jsonschema.validate(document, ir.schema())
    without = json.loads(ir.text(compile_text(WITHOUT).models["T"]))
    assert all("requires" not in t for t in without["tables"])  # only where written


def test_the_formatter_keeps_it_on_the_table_line() -> None:
    messy = WITH.replace("\n    requires attack > 0 and defense > 0\n", " requires attack>0   and defense>0\n")
    assert format_text(messy) == WITH


def test_the_card_says_where_the_table_answers(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "t.rules").write_text(WITH, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--rules", str(tmp_path / "rules"), "--out", str(out), "--no-print", "--no-cache"]) == 0
    html = "".join(p.read_text(encoding="utf-8") for p in (out / "cards" / "t").glob("*.html"))
    assert '<span class="tag">Only where</span> attack &gt; 0 and defense &gt; 0</span>' in html


def test_a_call_to_a_table_that_requires_is_never_written_in_place() -> None:
    """A small table is written in place of its call, and a call that cannot fail may be folded: a
    table with `requires` may answer nothing, so neither (progen seed 1149, programs 6 and 96: the
    module answered 10 where the interpreter had no answer)."""
    result = compile_text('''series S "S" version "1"

rule 1 "One" {
  table t1(c: number) -> int "T1" {
    requires c < 0
    other: otherwise => 10
  }
  define g(c: number) -> int "G" = max(t1(c), 10)
  example "inside" {
    expect g(-1) == 10
  }
}
''')
    assert result.ok, result.diagnostics
    model = result.models["S"]
    [source] = emit_python(model, whole=True).values()
    module = load_module(source, "S")
    with pytest.raises(EvalError, match="^t1 answers only where c < 0$"):
        Interpreter(model).call("g", [1])
    for fn in (module.g, module.explain_g):
        with pytest.raises(module.RuleError, match="^t1 answers only where c < 0$"):
            fn(1)
    assert module.g(-1) == 10


# ---- a definition's requires, and a card's words for either ----------------------------------------

DENSITY = '''series S "S" version "1"

record Unit "A unit" {
  sp: int = 1 "Strength"
  steps: int = 2 "Steps"
}

rule 1 "Density" {
  define per_step(u: Unit) -> number "Strength per step" requires u.steps > 0 says "the unit has steps left" =
    u.sp / u.steps
  define third_up(x: number) -> number "Above a third" requires x > 1/3 = x
  define doubled(u: Unit) -> number "Twice it" = per_step(u) * 2
  example "Per step" {
    expect per_step(Unit { sp: 6, steps: 2 }) == 3
    expect doubled(Unit { sp: 6, steps: 3 }) == 4
    expect third_up(1/2) == 1/2
  }
}
'''


@pytest.mark.parametrize("fn, args, words", [
    ("per_step", "steps0", r"per_step answers only where the unit has steps left \(u.steps > 0\)"),
    ("doubled", "steps0", r"per_step answers only where the unit has steps left \(u.steps > 0\)"),  # not in place
    ("third_up", "third", "third_up answers only where x > 1/3"),  # 1/3 compared exactly in the scaled module
])
def test_a_definition_outside_its_requires_has_no_answer_from_either(fn: str, args: str, words: str) -> None:
    from fractions import Fraction

    from rulec.interp import Record
    result = compile_text(DENSITY)
    # doubled asks per_step outside what it requires, for a unit with no steps: R308 says so
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("R308", "doubled(Unit { sp: 1, steps: 0 }) cannot be worked out in doubled (1): per_step answers only where "
                 "the unit has steps left (u.steps > 0)")]
    model = result.models["S"]
    mine = [Record(sp=6, steps=0)] if args == "steps0" else [Fraction(1, 3)]
    with pytest.raises(EvalError, match=f"^{words}$"):
        Interpreter(model).call(fn, mine)
    [source] = emit_python(model, whole=True).values()
    module = load_module(source, "S")
    theirs = [module.Unit(sp=6, steps=0)] if args == "steps0" else [Fraction(1, 3)]
    for f in (getattr(module, fn), getattr(module, "explain_" + fn)):
        with pytest.raises(module.RuleError, match=f"^{words}$"):
            f(*theirs)
    assert module.third_up(Fraction(1, 3) + Fraction(1, 1000)) == Fraction(1, 3) + Fraction(1, 1000)
    assert run_examples(model, module) == []


def test_a_tables_analysis_reads_the_requires_of_a_definition_it_calls() -> None:
    """A row whose condition calls a definition outside its requires stops the table (R306), as a
    division by zero does; the table's own `requires` keeps the call inside it."""
    table = '''
rule 2 "Dense" {
  table dense(u: Unit) -> bool "Dense" {REQUIRES
    yes: when per_step(u) > 2 => true
    no: otherwise => false
  }
}
'''
    found = [d for d in compile_text(DENSITY + table.replace("REQUIRES", "")).diagnostics if d.code != "R308"]
    assert [(d.code, d.message) for d in found] == [
        ("R306", "dense(Unit { sp: 1, steps: 0 }) cannot be worked out in row 'yes' of 2 (dense): "
                 "per_step answers only where the unit has steps left (u.steps > 0)")]
    found = compile_text(DENSITY + table.replace("REQUIRES", "\n    requires u.steps > 0")).diagnostics
    assert [d.code for d in found] == ["R308"]  # doubled's, as above


def test_the_card_prints_its_words_or_the_condition(tmp_path: Path) -> None:
    text = DENSITY + '''
rule 2 "Odds" {
  table odds(attack: number, defense: number) -> number "Combat odds" {
    requires attack > 0 and defense > 0 says "both sides have strength"
    attacker: when attack >= defense => floor(attack / defense + 1/2)
    defender: otherwise => 1 / floor(defense / attack + 1/2)
  }
}
'''
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "t.rules").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--rules", str(tmp_path / "rules"), "--out", str(out), "--no-print", "--no-cache"]) == 0
    html = "".join(p.read_text(encoding="utf-8") for p in (out / "cards" / "s").glob("*.html"))
    assert '<li>Only where the unit has steps left</li>' in html  # the definition's words
    assert '<li>Only where x &gt; 1 / 3</li>' in html  # no words: the condition
    assert '<span class="tag">Only where</span> both sides have strength</span>' in html  # the table's words
    document = json.loads((out / "ir" / "s.json").read_text(encoding="utf-8"))
    per_step = next(d for d in document["defines"] if d["name"] == "per_step")
    assert per_step["requires"]["op"] == ">" and per_step["requires_says"] == "the unit has steps left"
    assert "requires" not in next(d for d in document["defines"] if d["name"] == "doubled")
    jsonschema.validate(document, ir.schema())


def test_the_formatter_puts_a_long_requires_on_a_line_of_its_own() -> None:
    messy = DENSITY.replace('requires u.steps > 0 says "the unit has steps left" =\n',
                            'requires u.steps>0   says "the unit has steps left"=\n')
    assert format_text(messy) == DENSITY
    long = DENSITY.replace('"Strength per step"', '"' + "Strength per step, " * 4 + 'and more"')
    lines = format_text(long).splitlines()
    at = next(i for i, x in enumerate(lines) if "define per_step" in x)
    assert lines[at + 1].strip().startswith('"Strength per step, ')
    assert lines[at + 2].strip() == 'requires u.steps > 0 says "the unit has steps left" ='
    assert format_text(format_text(long)) == format_text(long)


def test_r307_finds_the_first_of_a_list_of_records_that_may_have_none() -> None:
    """The solver holds no choice between two records, so the value of `first(u for u in ...)` was
    not read, and a row whose first has nothing to give was never reported (OCS 4.9a's
    shown_combat_unit, for a hex with no combat unit). Whether there is a first is read now."""
    text = '''series S "S" version "1"

record Unit "A unit" {
  combat: bool = false "Combat"
}

record Hex "A hex" {
  units: list of Unit = [] "Units"
}

rule 1 "Top" {
  table top(h: Hex) -> Unit "The top unit" {REQUIRES
    first_combat: when len(h.units) > 0 => first(u for u in h.units where u.combat)
    none: otherwise => Unit { }
  }
}
'''
    found = compile_text(text.replace("REQUIRES", "")).diagnostics
    assert [(d.code, d.message) for d in found] == [
        ("R307", "top(Hex { units: [Unit { combat: false }] }) cannot be worked out in the value of row "
                 "'first_combat' of 1 (top): first of nothing: no item passes 'where'")]
    text = text.replace("REQUIRES", "\n    requires all(u.combat for u in h.units)")
    assert compile_text(text).diagnostics == []


def test_what_a_requires_calls_is_part_of_the_key_work_is_kept_under() -> None:
    """A table's analysis (and a card's values) is kept under a hash of everything it reads, its
    calls followed: a call made only in a `requires` was not followed, so a game that changed
    that definition took its series' findings for the table."""
    from rulec.build import compile_sources
    series = '''series S "S" version "1"

rule 1 "One" {
  define big(x: int) -> bool "Big" = x > 2
  table t(x: int) -> int "T" {
    requires big(x)
    other: otherwise => 1
  }
  define u(x: int) -> int "U" requires big(x) = 1
}
'''
    game = 'game G "G" extends S "1"\noverride 1 big: x > 3\n'
    result = compile_sources({"s.rules": series, "g.rules": game}, keep_models=True)
    s, g = result.models["S"], result.models["G"]
    for kind in ("tables", "defines"):
        a = next(x for x in getattr(s, kind) if x.name in ("t", "u"))
        b = next(x for x in getattr(g, kind) if x.name in ("t", "u"))
        assert Interpreter(s).closure_key(a) != Interpreter(g).closure_key(b), kind


# ---- R308: a definition with no answer for an input it answers ------------------------------------

R308 = '''series S "S" version "1"

record Unit "A unit" {
  sp: int = 1 "Strength"
  steps: int = 2 "Steps"
}

record Hex "A hex" {
  units: list of Unit = [] "Units"
}

rule 1 "Defs" {
  define per_step(u: Unit) -> number "Per step"PER_STEP = u.sp / u.steps
  define strongest(h: Hex) -> int "Strongest"STRONGEST = max(u.sp for u in h.units)
  define guarded(h: Hex) -> int "Guarded" = if len(h.units) == 0 then 0 else max(u.sp for u in h.units)
  define whole(x: int) -> int "Whole" = floor(x / 2)
}
'''


def _r308(text: str) -> list[str]:
    return [d.message for d in compile_text(text).diagnostics if d.code == "R308"]


def test_r308_finds_each_definition_with_no_answer_for_an_input_it_answers() -> None:
    assert _r308(R308.replace("PER_STEP", "").replace("STRONGEST", "")) == [
        "per_step(Unit { sp: 1, steps: 0 }) divides by zero in per_step (1)",
        "strongest(Hex { units: [] }) cannot be worked out in strongest (1): max of nothing"]
    # what it requires, an invariant on the record, or a guard (guarded, whole) keeps it quiet
    assert _r308(R308.replace("PER_STEP", " requires u.steps > 0")
                 .replace("STRONGEST", " requires len(h.units) > 0")) == []
    invariant = R308.replace("PER_STEP", "").replace("STRONGEST", " requires len(h.units) > 0") + \
        'rule 2 "Steps" {\n  invariant has_steps(u: Unit) "A unit has steps" = u.steps > 0\n}\n'
    assert _r308(invariant) == []


def test_r308_is_a_warning_and_strict_makes_it_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t.rules").write_text(R308.replace("PER_STEP", "").replace("STRONGEST", ""), encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 0
    assert main(["check", "--strict", str(tmp_path)]) == 1
    assert "warning R308" in capsys.readouterr().err


def test_a_definition_a_constant_part_of_which_fails_is_not_reported_twice() -> None:
    text = R308.replace("PER_STEP", "").replace("STRONGEST", " requires len(h.units) > 0").replace(
        "floor(x / 2)", "floor(x / 2 + 1 / (2 - 2))")
    found = [(d.code, d.span.line) for d in compile_text(text).diagnostics if d.code in ("R305", "R308")]
    assert sorted(found) == [("R305", 16), ("R308", 13)]  # whole: R305 alone; per_step: R308


def test_the_message_of_a_requires_with_words_gives_them_first() -> None:
    model = compile_text(DENSITY).models["S"]
    from rulec.interp import Record
    words = r"^per_step answers only where the unit has steps left \(u\.steps > 0\)$"
    with pytest.raises(EvalError, match=words):
        Interpreter(model).call("per_step", [Record(sp=6, steps=0)])
    [source] = emit_python(model, whole=True).values()
    module = load_module(source, "S")
    with pytest.raises(module.RuleError, match=words):
        module.per_step(module.Unit(sp=6, steps=0))


def test_a_call_outside_a_requires_gets_a_hint_in_the_callers_words() -> None:
    """Where a rule stops at a call outside what the callee requires, the hint gives that requirement
    with the call's arguments in place of the callee's parameters: the guard or `requires` to write."""
    more = '''
rule 2 "Dense" {
  table dense(u: Unit) -> bool "Dense" {
    yes: when per_step(u) > 2 => true
    no: otherwise => false
  }
  table dense2(u: Unit) -> number "Dense" {
    big: when u.sp > 3 => per_step(u)
    no: otherwise => 0
  }
}
'''
    hints = {d.code: d.hint for d in compile_text(DENSITY + more).diagnostics}
    assert hints["R306"] == ("the table stops there with no answer, whatever the rows below say; ask per_step only "
                             "where it answers (`u.steps > 0 and ...`), or put a row for this case above it")
    assert hints["R307"] == ("the table gives no answer there: ask per_step only where it answers (`if u.steps > 0 "
                             "then ... else ...`), or put a row for this case above it; if the table is never asked "
                             "otherwise, say so first in it (`requires u.steps > 0`)")
    assert hints["R308"] == ("the definition gives no answer there, nor does any rule that asks it: ask per_step only "
                             "where it answers (`if u.steps > 0 then ... else ...`), or, if doubled is never asked "
                             "otherwise, say so before its '=' (`requires u.steps > 0`)")


# ---- a later layer changes what a table or definition requires -----------------------------------

OVERRUN_S = """series S "S" version "1"

record Unit "A unit" {
  sp: int = 1 "Strength"
  steps: int = 2 "Steps"
}

rule 4.2 "Odds" {
  table odds(attack: number, defense: number) -> number "Combat odds" {
    requires attack > 0 and defense > 0 says "both sides have strength"
    attacker: when attack >= defense => floor(attack / defense + 1/2) "N to 1"
    defender: otherwise => 1 / floor(defense / attack + 1/2) "1 to N"
  }
  define per_step(u: Unit) -> number "Strength per step" requires u.steps > 0 = u.sp / u.steps
  example "15 to 6 is 3:1" {
    expect odds(15, 6) == 3
    expect per_step(Unit { sp: 4, steps: 2 }) == 2
  }
}
"""

OVERRUN_G = """game G "G" extends S "1"

rule 1.1 "Overruns" {
  override 4.2 odds: requires attack > 0 says "the attacker has strength"
    note game "An undefended hex is overrun."
  except odds {
    overrun: when defense == 0 => 10 "An undefended hex: 10 to 1"
  }
  override 4.2 per_step: if u.steps == 0 then u.sp else u.sp / u.steps
    requires true
    note game "A unit with no steps counts its whole strength."
  example "An undefended hex is overrun" {
    expect odds(5, 0) == 10
    expect per_step(Unit { sp: 3, steps: 0 }) == 3
  }
}
"""


def test_a_game_changes_what_a_table_and_a_definition_require() -> None:
    """A game widens what its series' odds require (an undefended hex is overrun: an exception row
    answers it) and drops per_step's requirement (`requires true`): the game answers where the series
    has none, from the interpreter and the module alike; the IR and the cards say so."""
    from rulec.build import compile_sources
    from rulec.sheets.view import changes
    result = compile_sources({"s.rules": OVERRUN_S, "g.rules": OVERRUN_G}, keep_models=True)
    assert result.diagnostics == [], result.diagnostics
    s, g = result.models["S"], result.models["G"]
    with pytest.raises(EvalError, match="^odds answers only where both sides have strength"):
        Interpreter(s).call("odds", [5, 0])
    assert Interpreter(g).call("odds", [5, 0]) == 10
    from rulec.interp import Record
    assert Interpreter(g).call("per_step", [Record(sp=3, steps=0)]) == 3
    [source] = emit_python(g, whole=True).values()
    module = load_module(source, "G")
    assert module.odds(5, 0) == 10 and module.per_step(module.Unit(sp=3, steps=0)) == 3
    with pytest.raises(module.RuleError, match="^odds answers only where the attacker has strength"):
        module.odds(0, 5)
    odds = next(t for t in g.tables if t.name == "odds")
    assert odds.requires_says == "the attacker has strength"
    assert next(d for d in g.defines if d.name == "per_step").requires is None  # `requires true`: every input
    document = json.loads(ir.text(g))
    jsonschema.validate(document, ir.schema())
    assert [(o["target"]["kind"], o.get("requires_says")) for o in document["overrides"]] == [
        ("table", "the attacker has strength"), ("define", None)]
    assert format_text(OVERRUN_G) == OVERRUN_G  # a requires change on a line of its own
    shown = {c["key"]: (c["before"], c["after"]) for c in changes(result.models, g)}
    assert shown["4.2 odds"] == ("Combat odds: only where both sides have strength",
                                 "Combat odds: only where the attacker has strength")
    assert shown["4.2 per_step"][0].endswith("(only where steps > 0)")
    assert "only where" not in shown["4.2 per_step"][1]
    # words that end in a bracket keep it
    g2 = OVERRUN_G.replace('"the attacker has strength"', '"the attacker has strength (any)"')
    result = compile_sources({"s.rules": OVERRUN_S, "g.rules": g2}, keep_models=True)
    after = {c["key"]: c["after"] for c in changes(result.models, result.models["G"])}
    assert after["4.2 odds"] == "Combat odds: only where the attacker has strength (any)"


@pytest.mark.parametrize("change, code, hint", [
    ("override 4.2 odds: 3", "R110", "an override of a table takes 'requires ...' (its rows are overridden one by one"),
    ('override 4.2 odds: says "x"', "R110", "a phrase ('says') is for a named number"),
    ("override 4.2 odds: requires attack + 1", "R201", None),
    ("override 4.2 odds: requires u.sp > 0", "R101", None),
])
def test_what_an_override_of_a_table_may_change(change: str, code: str, hint: str | None) -> None:
    from rulec.build import compile_sources
    game = 'game G "G" extends S "1"\n' + change + "\n"
    found = [d for d in compile_sources({"s.rules": OVERRUN_S, "g.rules": game}).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == [code], found
    if hint is not None:
        assert found[0].hint is not None and found[0].hint.startswith(hint)


def test_rulec_diff_says_when_what_a_table_or_definition_requires_changed() -> None:
    from rulec.build import compile_sources
    from rulec.diff import diff_models
    old = compile_sources({"s.rules": OVERRUN_S}, keep_models=True).models
    new_text = OVERRUN_S.replace('requires attack > 0 and defense > 0 says "both sides have strength"',
                                 "requires attack > 0").replace("requires u.steps > 0 ", "")
    new = compile_sources({"s.rules": new_text}, keep_models=True).models
    found = {(c.key, c.what) for c in diff_models(old, new)}
    assert found == {("4.2 odds", "requires attack > 0 and defense > 0 → attack > 0"),
                     ("4.2 per_step", "requires u.steps > 0 → nothing")}


def test_a_value_after_a_requires_read_as_a_call_is_explained() -> None:
    """`requires ok (x + 1) / 2`: a space does not part two expressions, so `ok (...)` is a call; the
    message says `ok` is a value, and the hint to write the new value first."""
    from rulec.build import compile_sources
    series = ('series S "S" version "1"\n\nrule 1 "One" {\n'
              '  define f(x: int, ok: bool) -> number "F" = x / 2\n}\n')
    game = 'game G "G" extends S "1"\noverride 1 f: requires ok (x + 1) / 2\n'
    found = [d for d in compile_sources({"s.rules": series, "g.rules": game}).diagnostics if d.code == "R101"]
    assert [d.message for d in found] == ["'ok' is a value, not a definition or table to call"]
    assert found[0].hint is not None and "write the value first" in found[0].hint
    fixed = 'game G "G" extends S "1"\noverride 1 f: (x + 1) / 2 requires ok\n'
    assert compile_sources({"s.rules": series, "g.rules": fixed}).diagnostics == []


def test_an_answer_cites_the_layer_that_changed_what_the_table_requires() -> None:
    """odds(5, 0) has an answer in G only because G changed what odds requires: the answer cites
    that change beside the rows, from the interpreter and the module alike (it once cited the rows
    alone). A scenario that sets the requirement again replaces it: its answers cite the scenario's
    change, not G's; coverage asks an example for the change in force only."""
    from rulec.build import compile_sources
    from rulec.crosscheck import plain
    from rulec.evaluate import evaluate
    from rulec.testing import coverage_items

    scenario = ('scenario dawn "Dawn" extends G\n'
                'override 4.2 odds: requires attack > 0 or defense == 0 says "an attack, or no defender"\n')
    result = compile_sources({"s.rules": OVERRUN_S, "g.rules": OVERRUN_G, "d.rules": scenario},
                             keep_models=True)
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics

    def cites(model: str, query: str) -> list[str]:
        mine = evaluate(result.models[model], query)
        module = evaluate(result.models[model], query, on_module=True)
        assert plain(mine.value) == plain(module.value)
        assert [r["text"] for r in mine.rules] == [r["text"] for r in module.rules]
        return [r["text"] for r in mine.rules]

    def by(model: str, query: str) -> list[str]:
        return [c.split("(overridden by ")[1].split(":")[0].rstrip(")") for c in cites(model, query)
                if "(overridden by" in c]

    assert cites("G", "odds(5, 0)")[:2] == ["4.2 Odds", "1.1 Overruns (overridden by G: An undefended hex is overrun.)"]
    assert by("G", "odds(15, 6)") == ["G"]  # every answer of the table: the game set what it answers
    assert by("S", "odds(15, 6)") == []
    assert by("dawn", "odds(15, 6)") == ["dawn"]  # G's requirement no longer decides anything: dawn set it again
    odds = next(t for t in result.models["dawn"].tables if t.name == "odds")
    assert [(c.layer, c.decides, c.replaced) for c in odds.overridden_by] == [
        ("G", ("requires",), True), ("dawn", ("requires",), False)]
    asked = {it.words for it in coverage_items(result.models["dawn"]) if it.kind == "override"}
    assert "dawn override of odds" in asked and "G override of odds" not in asked
    document = json.loads(ir.text(result.models["dawn"]))
    jsonschema.validate(document, ir.schema())
    table = next(t for t in document["tables"] if t["name"] == "odds")
    assert [(c["layer"], c.get("replaced", False)) for c in table["overridden_by"]] == [("G", True), ("dawn", False)]
    from rulec.diff import items
    assert items(result.models["dawn"])["4.2 odds"]["_where"] == "dawn; d.rules:2"  # rulec diff: where it was last set
