"""The table analysis by proof (compiler/decide.py, analysis.TableAnalysis): every case of
tests/fixtures/analysis/ gives exactly its expected.txt, each input it reports reproduces on the
reference interpreter when pasted into a question, and what the solver cannot settle is a warning,
never a silent pass.

Each folder of tests/fixtures/analysis/ holds the .rules files of one table and expected.txt, what
`rulec check <folder>` prints on stderr. To regenerate them after a deliberate change in wording:

    RULEC_UPDATE_GOLDEN=1 python -m pytest tests/test_decide.py

and read every changed expected.txt before committing it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rulec import decide
from rulec import model as m
from rulec.analysis import analyse
from rulec.build import compile_sources, find_sources
from rulec.cli import main
from rulec.diagnostics import Diagnostic
from rulec.evaluate import EvalFailure, evaluate
from rulec.interp import EvalError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "analysis"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
UPDATE = os.environ.get("RULEC_UPDATE_GOLDEN") == "1"


def model_of(folder: Path, ruleset: str | None = None) -> m.Resolved:
    """The ruleset named, else the game over its series (the one of most layers)."""
    sources, _ = find_sources([folder])
    result = compile_sources(sources, keep_models=True)
    if ruleset is not None:
        return result.models[ruleset]
    return max(result.models.values(), key=lambda model: len(model.manifest.layers))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["check", str(case)])
    out, err = capsys.readouterr()
    expected = case / "expected.txt"
    if UPDATE:
        expected.write_text(err, encoding="utf-8", newline="\n")
    assert "Traceback" not in out + err
    assert err == expected.read_text(encoding="utf-8")
    assert rc == (1 if " error R" in err else 0)


# The inputs the findings name: `call(...)` in a message, as a designer would paste it.
_FOUND = re.compile(r"(?:R302: (?P<gap>\w+\(.*\)) matches no row"
                    r"|R306: (?P<stop>\w+\(.*\)) (?:divides by zero|cannot be worked out) in row"
                    r"|row '(?P<row>\w+)' \((?P<taken>\w+\(.*?\))\)(?= and row|$)"
                    r"|for (?P<clash>\w+\(.*\)): (?P<a>\S+) against (?P<b>\S+)$)")


def _findings(err: str) -> list[re.Match[str]]:
    out = []
    for line in err.splitlines():
        if re.match(r"^\S+:\d+:\d+: error R30[1236]: ", line):
            out += list(_FOUND.finditer(line))
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_reported_input_reproduces_when_pasted(case: Path) -> None:
    err = (case / "expected.txt").read_text(encoding="utf-8")
    model = model_of(case)
    for found in _findings(err):
        if found["gap"]:  # no row matches: the interpreter finds no answer, in the ruleset said or the series
            named = re.search(r" in (\w+); there", found.string)
            series = min(compile_sources(find_sources([case])[0], keep_models=True).models.values(),
                         key=lambda x: len(x.manifest.layers))
            with pytest.raises((EvalFailure, EvalError)):
                evaluate(model_of(case, named[1]) if named else series, found["gap"])
        elif found["stop"]:  # a row's condition cannot be worked out: the interpreter gives no answer
            with pytest.raises((EvalFailure, EvalError)):
                evaluate(model, found["stop"])
        elif found["taken"]:  # the row that takes it is the one that answers
            answer = evaluate(model, found["taken"])
            assert any(c.get("item") == found["row"] for c in answer.rules), (found["taken"], answer.rules)
        else:  # the two exceptions answer differently; the one in force gives one of the two answers
            answer = evaluate(model, found["clash"])
            assert answer.to_json()["value"] in (_json(found["a"]), _json(found["b"]))


def _json(shown: str) -> object:
    return int(shown) if shown.lstrip("-").isdigit() else shown


def test_the_cases_show_what_the_issue_asked_for() -> None:
    """No false R301 for rows bounded by a const; the gaps at u.ma = 16 (a definition), a = 7 (a
    square) and u.ma = 17 (two consts); R301 and R303 in a table that reads a text field."""
    def err(name: str) -> str:
        return (FIXTURES / name / "expected.txt").read_text(encoding="utf-8")

    assert "R30" not in err("const-bound-rows-both-match")
    assert "by_half(Unit { ma: 16 }) matches no row" in err("gap-through-a-definition")
    assert "squares(Unit { a: 7 }) matches no row" in err("gap-of-a-square")
    assert "by_consts(Unit { ma: 17 }) matches no row" in err("gap-between-two-consts")
    text = err("text-field-dead-row-and-clash")
    assert "error R301" in text and "error R303" in text and '"Jock Column"' in text
    assert "R304" not in err("wide-table-analysed") and "error R301" in err("wide-table-analysed")
    # a gap a game opens says what the series answers there, and the dead row points at the override
    opened = err("gap-a-game-opens")
    assert "re_size(Unit { size: regiment }) matches no row of 4.6 (re_size) in DAK; there, OCS answers 1" in opened
    assert "gap-a-game-opens/game.rules:4:3: error R301: row 'other'" in opened


def test_invariants_keep_invalid_states_out_of_the_gaps() -> None:
    folder = FIXTURES / "invariants-leave-out-invalid-states"
    text = (folder / "t.rules").read_text(encoding="utf-8")
    assert analyse(model_of(folder), examples=False) == []
    without = re.sub(r"^\s*invariant .*\n", "", text, flags=re.MULTILINE)
    assert "invariant" not in without
    result = compile_sources({"t.rules": without}, keep_models=True)
    [gap] = [d for d in analyse(result.models["OCS"], examples=False) if d.code == "R302"]
    assert "type: repl, mode: combat" in gap.message or "step_losses: -" in gap.message


HARD = '''series S "S"
record P "A point" {
  x: int = 1 "x"
  y: int = 1 "y"
  z: int = 1 "z"
}
rule 1.1 "Cubes" {
  table cube(p: P) -> int "Whether a sum of two cubes is a cube" {
    positive: when p.x <= 0 or p.y <= 0 or p.z <= 0 => 0 "Not all positive"
    fermat: when p.x * p.x * p.x + p.y * p.y * p.y == p.z * p.z * p.z => 1 "Never: Fermat's last theorem for cubes"
    other: otherwise => 2 "Otherwise"
  }
}
'''


def test_a_question_the_solver_cannot_settle_in_its_budget_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decide, "QUESTION_RLIMIT", 200_000)
    monkeypatch.setattr(decide, "TABLE_RLIMIT", 1_000_000)
    result = compile_sources({"t.rules": HARD}, keep_models=True)
    found = analyse(result.models["S"], examples=False)
    assert [(d.code, d.severity) for d in found] == [("R304", "warning")]
    assert "row 'fermat'" in found[0].message and "budget" in found[0].message
    again = analyse(compile_sources({"t.rules": HARD}, keep_models=True).models["S"], examples=False)
    assert [d.message for d in again] == [d.message for d in found]  # steps, not seconds: the same every time


def test_a_solver_that_disagrees_with_the_interpreter_is_a_bug_never_a_finding(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A miscompiled comparison (<= read as <) would make the solver see a gap that is not there;
    the interpreter's check of the input turns that into an internal error, never an R302."""
    real = decide.Translator.op

    def broken(self: decide.Translator, e: m.Op, env: dict[str, decide.Sym]) -> decide.Reading:
        if e.op == "<=":
            e = m.Op(e.t, "<", e.args)
        return real(self, e, env)

    monkeypatch.setattr(decide.Translator, "op", broken)
    folder = FIXTURES / "const-bound-rows-both-match"
    with pytest.raises(AssertionError, match="solver and its interpreter disagree"):
        analyse(model_of(folder), examples=False)


OPTIONS = FIXTURES / "options-change-one-limit"


def _sources(**changed: str) -> dict[str, str]:
    sources = {f"x/{p.name}": p.read_text(encoding="utf-8") for p in OPTIONS.glob("*.rules")}
    sources.update({f"x/{name}.rules": text for name, text in changed.items()})
    return sources


def test_two_options_that_change_one_answer_are_found_by_effect_with_the_input() -> None:
    """One option changes the const a limit reads, the other the limit: found though they name
    different things, with an input and each answer (the one in force is the later option's)."""
    [d] = [d for d in compile_sources(_sources()).diagnostics if d.code == "R303"]
    assert d.severity == "warning"
    assert "stacking(Hex { units: [Unit { re: 13 }] })" in d.message
    assert "(13 over 10) without them" in d.message and "(13 over 8) with crowded" in d.message
    assert "(13 over 12) with roomy, and combat_re broken (13 over 12) with both" in d.message


def test_options_that_change_different_answers_do_not_conflict() -> None:
    options = ('option crowded "Crowded" extends S\n\noverride 4.8 max_stack_re: 8\n\n'
               'option roomy "Roomy" extends S\n\n'
               'rule 4.8z "Room" {\n  define roomy_hex(h: Hex) -> bool = len(h.units) < 2\n}\n')
    assert [d for d in compile_sources(_sources(options=options)).diagnostics if d.code == "R303"] == []
    same = ('option crowded "Crowded" extends S\n\noverride 4.8 max_stack_re: 8\n\n'
            'option roomy "Roomy" extends S\n\noverride 4.8 stacking.combat_re: at most 8\n')
    assert [d for d in compile_sources(_sources(options=same)).diagnostics if d.code == "R303"] == []  # alike


def test_a_scenario_and_an_option_that_change_one_answer_conflict() -> None:
    options = ('scenario tight "Tight" extends S\n\noverride 4.8 max_stack_re: 8\n\n'
               'option roomy "Roomy" extends S\n\noverride 4.8 stacking.combat_re: at most 12\n')
    rulesets = 'ruleset tight_roomy "Tight and roomy" = tight with roomy\n'
    [d] = [d for d in compile_sources(_sources(options=options, rulesets=rulesets)).diagnostics if d.code == "R303"]
    assert d.message.startswith("tight and roomy both change what stacking (4.8) answers")


def test_an_exception_of_one_option_over_a_row_another_option_overrode_is_a_warning() -> None:
    folder = FIXTURES / "except-takes-from-an-override"
    series = (folder / "series.rules").read_text(encoding="utf-8")
    options = ('option thin "Thin battalions" extends OCS\n\n'
               'override 4.6 re_size.battalion: when u.size == battalion => 1/3\n\n'
               'option jock "Jock Columns" extends OCS\n\n'
               'rule 4.6b "Jock Columns" {\n  except re_size {\n'
               '    jock_column: when u.formation == "Jock Column" => 1/2 "A Jock Column unit is 1/2 RE"\n  }\n}\n'
               'ruleset OCS_both "Both" = OCS with thin, jock\n')
    found = [d for d in compile_sources({"s.rules": series, "o.rules": options}).diagnostics if d.code == "R303"]
    mine = [d for d in found if "takes" in d.message]
    assert [(d.severity, d.span.line) for d in mine] == [("warning", 9)]
    assert 're_size(Unit { size: battalion, formation: "Jock Column" })' in mine[0].message
    assert mine[0].message.endswith("which thin overrode: 1/2 against 1/3")


def test_one_const_changed_two_ways_is_shown_once_with_an_input() -> None:
    options = ('option crowded "Crowded" extends S\n\noverride 4.8 max_stack_re: 8\n\n'
               'option roomy "Roomy" extends S\n\noverride 4.8 max_stack_re: 12\n')
    [d] = [d for d in compile_sources(_sources(options=options)).diagnostics if d.code == "R303"]
    assert "for stacking(Hex { units: [Unit { re: " in d.message  # by effect, with an input
    words = options.replace('override 4.8 max_stack_re: 12', 'override 4.8 max_stack_re: 12\n\n'
                            'override 4.8: title "Stacking, roomy"')
    found = [d.message for d in compile_sources(_sources(options=words)).diagnostics if d.code == "R303"]
    assert len(found) == 1 and found[0].startswith("crowded and roomy both change what stacking")


def test_a_table_no_input_of_which_is_valid_has_no_dead_rows() -> None:
    """Invariants that exclude each other leave no valid input: there is nothing for a row to match,
    and no row is reported as never matching (the otherwise row least of all)."""
    text = ('series S "S"\nrecord U "U" {\n  a: int = 0 "A"\n}\n'
            'invariant big(u: U) "Big" = u.a > 1\ninvariant small(u: U) "Small" = u.a < 1\n'
            'rule 1.1 "T" {\n  table t(u: U) -> int "T" {\n    one: when u.a == 2 => 1\n'
            '    other: otherwise => 0\n  }\n}\n')
    result = compile_sources({"t.rules": text}, keep_models=True)
    assert analyse(result.models["S"], examples=False) == []


def _odds(rows: str, more: str = "") -> list[Diagnostic]:
    """The findings on a table of odds whose rows divide an attack by a defense that may be 0."""
    text = ('series S "S" version "1"\nrecord Attack "An attack" {\n  attack: number = 1 "Attack"\n'
            f'  defense: number = 1 "Defense"\n}}\n{more}rule 4.2 "Odds" {{\n'
            f'  table column(a: Attack) -> int "Odds column" {{\n{rows}  }}\n}}\n')
    result = compile_sources({"a.rules": text}, keep_models=True)
    assert not [d for d in result.diagnostics if d.code[:3] not in ("R30", "R40")], result.diagnostics
    return analyse(result.models["S"], examples=False)


_LOW = '    low: when a.attack / a.defense < 1 => 0 "Below 1:1"\n'
_REST = '    rest: when a.attack / a.defense >= 1 => 1 "1:1 or more"\n'


def test_a_row_that_divides_by_zero_is_reported_so_not_as_an_input_no_row_matches() -> None:
    """The interpreter stops at a row whose condition divides by zero, with no answer: the solver
    once read such a row as false, and reported its input as matching no row (R302)."""
    [d] = _odds(_LOW + _REST)
    assert d.code == "R306" and (d.span.line, d.span.col) == (8, 5)
    assert d.message == "column(Attack { attack: 1, defense: 0 }) divides by zero in row 'low' of 4.2 (column)"
    assert d.hint is not None and "`a.defense != 0 and ...`" in d.hint and "invariant on Attack" in d.hint


def test_a_division_by_zero_is_reported_above_an_otherwise_row_which_it_keeps_from_the_input() -> None:
    """An otherwise row does not answer the input: the interpreter stopped at the division above it."""
    found = _odds(_LOW + _REST + '    other: otherwise => 2 "Other"\n')
    assert [(d.code, d.span.line) for d in sorted(found)] == [("R306", 8), ("R301", 10)]
    assert "divides by zero in row 'low'" in sorted(found)[0].message


def test_a_division_after_a_row_that_passes_over_its_input_is_found_there() -> None:
    [d] = _odds('    big: when a.attack > 5 => 2 "Big"\n' + _LOW + '    rest: otherwise => 1 "1:1 or more"\n')
    assert d.code == "R306" and "divides by zero in row 'low'" in d.message


@pytest.mark.parametrize("rows, more", [
    ('    none: when a.defense == 0 => 0 "No defense"\n' + _LOW + _REST, ""),
    ('    low: when a.defense > 0 and a.attack / a.defense < 1 => 0 "Below 1:1"\n'
     '    rest: otherwise => 1 "1:1 or more"\n', ""),
    ('    low: when (if a.defense == 0 then false else a.attack / a.defense < 1) => 0 "Below 1:1"\n'
     '    rest: otherwise => 1 "1:1 or more"\n', ""),
    (_LOW + _REST, 'rule 4.1 "Defense" {\n  invariant defended(a: Attack) checks defense "Defended" = '
                   'a.defense > 0\n}\n'),
], ids=["a row above for the zero", "and", "if", "an invariant"])
def test_a_division_guarded_from_zero_is_not_reported(rows: str, more: str) -> None:
    assert _odds(rows, more) == []


def _chain(n: int, first: str, second: str, rows: int = 1) -> str:
    """Definitions that each call the one before twice (2**n calls written out), read by a table."""
    lines = ['series S "s" version "1"', 'rule 1.1 "x" {', "  define f0(x: int) -> int = x + 1"]
    lines += [f"  define f{i}(x: int) -> int = f{i - 1}({first}) + f{i - 1}({second})" for i in range(1, n)]
    lines.append('  table t(x: int) -> int "t" {')
    lines += [f'    r{k}: when f{n - 1}(x) > {k} => {k} "r{k}"' for k in range(rows)]
    lines += ['    rest: otherwise => 0 "rest"', "  }", "}"]
    return "\n".join(lines) + "\n"


def test_a_definition_called_again_with_the_same_arguments_is_translated_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """f59(x) calls f0 2**59 times, but on only 60 different arguments (x, x + 1, ...): decided
    whole, with no warning (it ran for hours before). The translation is bounded to a few hundred parts."""
    counted: list[int] = []
    real = decide.Translator.read

    def read(self: decide.Translator, e: m.Expr, env: dict[str, decide.Sym]) -> decide.Reading:
        counted.append(1)
        return real(self, e, env)

    monkeypatch.setattr(decide.Translator, "read", read)
    result = compile_sources({"t.rules": _chain(60, "x", "x + 1")})
    assert [d.code for d in result.diagnostics] == []
    assert 0 < len(counted) < 20_000


def test_conditions_that_grow_without_end_are_a_warning_not_a_hang() -> None:
    """(x + 1) + 2 and (x + 2) + 1 are different terms, so f39 has 2**39 different calls: the
    translator stops at MAX_READS and says so on each row, and the build goes on."""
    result = compile_sources({"t.rules": _chain(40, "x + 1", "x + 2", rows=2)}, keep_models=True)
    warned = [d for d in result.diagnostics if d.code == "R304"]
    assert [d.severity for d in warned] == ["warning", "warning"]
    assert all(f"grow past {decide.MAX_READS:,} parts" in d.message for d in warned)
    assert [(d.span.line, d.span.col) for d in warned] == [(44, 5), (45, 5)]  # rows r0 and r1


def test_a_build_whose_analyses_spend_every_step_still_writes_its_module(tmp_path: Path) -> None:
    """The probes of the table run the interpreter on f29 (2**29 calls) until the build's step
    bound is spent; the module's constant parts are worked out under their own bound (they
    failed with 'cannot compile Lit', exit 3)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "s.rules").write_text(_chain(30, "x", "x + 1"), encoding="utf-8")
    assert main(["build", "--rules", str(rules), "--out", str(tmp_path / "out"), "--no-cache", "--no-print"]) == 0
    assert "def f29(x: int) -> int:" in (tmp_path / "out" / "python" / "s.py").read_text(encoding="utf-8")
