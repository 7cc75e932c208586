"""Checker regressions: mistakes that once crashed the checker or were reported wrongly."""

from __future__ import annotations

from pathlib import Path

from conftest import codes, compile_text

from rulec import model as m
from rulec.cli import main
from rulec.interp import Interpreter
from rulec.types import INT

SERIES = 'series OCS "Operational Combat Series"\n'


def test_a_definition_of_itself_is_r109_not_a_crash() -> None:
    result = compile_text(SERIES + 'rule 4.1 "A" {\n  define z = z\n}\n')
    assert codes(result) == ["R109"]
    (d,) = result.diagnostics
    assert d.message == "'z' depends on itself: z -> z"
    assert (d.span.line, d.span.col) == (3, 3)


def test_constants_defined_by_each_other_are_r109_not_a_crash() -> None:
    result = compile_text(SERIES + 'rule 4.1 "A" {\n  const a = b\n  const b = a + 1\n}\n')
    assert codes(result) == ["R109"]
    assert result.diagnostics[0].message == "'a' depends on itself: a -> b -> a"


def test_a_negative_fraction_is_a_plain_default() -> None:
    result = compile_text(SERIES + "record Unit {\n  drm: number = -1/2\n  shift: int = -2\n}\n")
    assert result.ok, codes(result)
    (record,) = result.models["OCS"].records
    assert [(f.name, f.default) for f in record.fields] == [("drm", "-1/2"), ("shift", -2)]


def test_a_calculation_is_still_not_a_default() -> None:
    result = compile_text(SERIES + "record Unit {\n  drm: number = -1/2 + 1\n  x: number = 1/0\n}\n")
    assert codes(result) == ["R205", "R205"]


def test_a_layer_extending_itself_is_a_circle() -> None:
    result = compile_text('game DAK "Deutsches Afrika Korps" extends DAK\n')
    assert codes(result) == ["R108"]
    assert result.diagnostics[0].message == "layers extend each other in a circle: DAK -> DAK"


def test_a_circle_is_reported_once_and_layers_outside_it_are_not_blamed() -> None:
    result = compile_text(SERIES + 'game A "A" extends B\ngame B "B" extends A\noption x "X" extends A\n')
    assert codes(result) == ["R108"]
    assert result.diagnostics[0].message == "layers extend each other in a circle: A -> B -> A"


def test_a_game_extending_a_game_without_a_circle_is_r107() -> None:
    result = compile_text(SERIES + 'game A "A" extends OCS\ngame B "B" extends A\n')
    assert codes(result) == ["R107"]
    assert result.diagnostics[0].message == "a game cannot extend a game (A)"


def test_override_of_a_missing_row_points_at_the_row() -> None:
    result = compile_text(
        SERIES + 'rule 4.6 "RE" {\n  table re_size(n: int) -> number {\n    other: otherwise => 1\n  }\n}\n'
        'game DAK "D" extends OCS\noverride 4.6 re_size.othr: 2\n'
    )
    (d,) = result.diagnostics
    assert (d.code, d.message, d.hint) == ("R105", "table re_size has no row 'othr'", "did you mean 'other'?")
    assert (d.span.line, d.span.col, d.span.end_col) == (8, 14, 26)


def test_comparing_a_list_value_with_a_number_names_the_values() -> None:
    result = compile_text(SERIES + 'enum Mode {\n  - combat\n  - move\n}\nrecord Unit {\n  mode: Mode = combat\n}\n'
                          "define f(u: Unit) -> bool = u.mode == 2\n")
    (d,) = [d for d in result.diagnostics if d.code != "R117"]  # f is outside every clause: a warning
    assert (d.code, d.message, d.hint) == ("R201", "cannot compare a Mode with a whole number",
                                           "a Mode is one of: combat, move")


def test_an_override_that_uses_what_it_changes_is_r109_at_the_override() -> None:
    """`override 1 cap: cap + 1` once passed check and then crashed the build (found by progen)."""
    result = compile_text('series S "S" version "1"\nrule 1 "Cap" {\n  const cap = 2\n}\n',
                          'game G "G" extends S version "1"\noverride 1 cap: cap + 1\n')
    [d] = result.diagnostics
    assert (d.code, d.span.file, d.span.line) == ("R109", "t1.rules", 2)
    assert "'cap' depends on itself through this change: cap -> cap" in d.message


def test_an_exception_row_that_calls_its_own_table_is_r109() -> None:
    result = compile_text('series S "S" version "1"\n'
                          'rule 1 "T" {\n  table t(x: int) -> int { a: when x > 5 => 2  b: otherwise => 1 }\n'
                          '  define u(x: int) -> int = t(x) + 1\n}\n'
                          'rule 2 "E" {\n  except t { g: when u(x) < 2 => 1 }\n}\n')
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("R109", 7)]
    assert "t -> u -> t" in result.diagnostics[0].message


def test_an_override_using_another_value_is_fine() -> None:
    result = compile_text('series S "S" version "1"\nrule 1 "Cap" {\n  const cap = 2\n  const base = 3\n}\n',
                          'game G "G" extends S version "1"\noverride 1 cap: base + 1\n')
    assert result.ok, [d.message for d in result.diagnostics]
    assert Interpreter(result.models["G"]).eval(m.Const(INT, "cap"), {}) == 4


def test_a_failing_expect_says_what_each_side_computed() -> None:
    """R401 names the values, not only 'this is false': both sides of a comparison, in rules words."""
    result = compile_text('series S "s"\n\n'
                          'rule 1 "R" {\n'
                          '  enum Mode {\n    - combat\n    - move\n  }\n'
                          '  record Unit {\n    mode: Mode = combat\n    re: number = 1\n  }\n'
                          '  define half(x: number) -> number = x / 2\n'
                          '  define modes() -> list of Mode = [move]\n'
                          '  define yes() -> bool = true\n'
                          '  example {\n'
                          '    expect half(3) == 1\n'
                          '    expect combat in modes()\n'
                          '    expect Unit { re: half(1) } == Unit { mode: move }\n'
                          '    expect half(4) >= 5/2\n'
                          '    expect not yes()\n'
                          '  }\n'
                          '}\n')
    said = [d.message.split(": ", 1)[1] for d in result.diagnostics if d.code == "R401"]
    assert said == ["the left side is 3/2, the right side 1",
                     "the left side is combat, the right side [move]",
                     "the left side is { mode: combat, re: 1/2 }, the right side { mode: move, re: 1 }",
                     "the left side is 2, the right side 5/2",
                     "yes(...) answers true"]  # not just "this is false"


def test_a_ruleset_name_too_long_for_a_file_name_is_r111_at_check_not_a_failed_build(tmp_path: Path) -> None:
    """A 251-character series name passed `rulec check` and failed `rulec build` (file name too long)."""
    text = 'series S{} "s" version "1"\nrule 1.1 "x" {{\n  define a(x: int) -> int = x\n}}\n'
    (tmp_path / "s.rules").write_text(text.format("x" * 250), encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 1
    (tmp_path / "s.rules").write_text(text.format("x" * 63), encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 0
    assert main(["build", "--rules", str(tmp_path), "--out", str(tmp_path / "out"), "--no-cache", "--no-print"]) == 0


def test_a_parameter_named_twice_is_r104_at_the_second() -> None:
    """Found by tests/test_fuzz.py: `define halves(next: number, next: number)` passed the checker, and
    the module's function had two parameters of one name, which Python refuses (a SyntaxError in
    generated code). A definition, a table or a limits block naming a parameter twice is an error."""
    result = compile_text('series S "S" version "1"\n\nrule 1 "Names" {\n'
                          '  define halves(next: number, next: number) -> number = next / 2\n'
                          '  table t(a: number, a: number) -> number {\n'
                          '    big: when a > 1 => 2\n'
                          '    small: otherwise => 1\n'
                          '  }\n'
                          '  limits l(h: number, b: number, h: number) "L" {\n'
                          '    x "X": h at most 1\n'
                          '  }\n'
                          '}\n')
    found = [(d.code, d.span.line, d.span.col, d.message) for d in result.diagnostics if d.code == "R104"]
    assert found == [("R104", 4, 31, "halves names two parameters 'next' (the first at 4:17)"),
                     ("R104", 5, 22, "t names two parameters 'a' (the first at 5:11)"),
                     ("R104", 9, 34, "l names two parameters 'h' (the first at 9:12)")]


def test_words_from_other_languages_get_the_rules_language_s_own() -> None:
    """A newcomer's first tries: a 'string' type, a list's value in quotes, && and || (R002 hints)."""
    from rulec.parser import parse

    head = 'series T "T" version "1"\nenum Mode "Mode" {\n  - combat "Combat"\n  - move "Move"\n}\n' \
        'record Unit "U" {\n  mode: Mode = combat "Mode"\n}\n'
    result = compile_text(head + 'rule 1.1 "A" {\n  define n(u: Unit) -> string "N" = "x"\n}\n')
    [d] = [d for d in result.diagnostics if d.code == "R101"]
    assert (d.message, d.hint) == ("unknown type 'string'", "did you mean 'text'?")
    result = compile_text(head + 'rule 1.1 "A" {\n  define n(u: Unit) -> whatever "N" = 1\n}\n')
    [d] = [d for d in result.diagnostics if d.code == "R101"]
    assert d.hint is not None and d.hint.startswith("the types are bool, int, number")
    result = compile_text(head + 'rule 1.1 "A" {\n  define m(u: Unit) -> bool "M" = u.mode == move\n'
                          '  example "e" {\n    expect m(Unit { mode: "move" })\n  }\n}\n')
    [d] = [d for d in result.diagnostics if d.code == "R201"]
    assert d.hint == "write move without quotes: a value of Mode, not a text"
    for op, word in (("&&", "'and'"), ("||", "'or'")):
        _, [d] = parse(head + f'rule 1.1 "A" {{\n  define m(u: Unit) -> bool "M" = true {op} false\n}}\n', "t.rules")
        assert d.code == "R002" and d.hint is not None and d.hint.startswith(f"write {word}")


def test_an_example_that_reaches_a_value_the_rules_cannot_compute_is_told_which_and_what_to_do() -> None:
    head = ('series T "T" version "1"\nrecord Unit "U" {\n  sp: int = 1 "Strength"\n}\n'
            'record Stack "S" {\n  units: list of Unit = [] "Units"\n}\nrule 1.1 "A" {\n'
            '  define best(s: Stack) -> int "Best" = max(u.sp for u in s.units)\n'
            '  define big(s: Stack) -> int "Big" = first(u.sp for u in s.units where u.sp > 5)\n'
            '  define share(s: Stack, n: int) -> number "Share" = len(s.units) / n\n')
    hints = {}
    for call in ("best(Stack { })", "big(Stack { })", "share(Stack { }, 0)"):
        result = compile_text(head + f'  example "e" {{\n    expect {call} == 0\n  }}\n}}\n')
        [d] = [d for d in result.diagnostics if d.code == "R402"]
        hints[call.split("(")[0]] = d.hint
    assert hints["best"].startswith("max over a list with nothing in it has no value")
    assert hints["big"].startswith("no item passes first's 'where'")
    assert hints["share"].startswith("a divisor is 0 for this state")
