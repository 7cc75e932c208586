"""Options in one ruleset: each applied in turn, and a clash between two of them reported."""

from __future__ import annotations

from conftest import codes, compile_text

SERIES = '''series S "S"
rule 1.1 "One" {
  const cap "Cap" = 10
  example { expect cap >= 10 }
}
'''


def option(name: str, number: str, value: int) -> str:
    return (f'option {name} "{name}" extends S\n'
            f'rule {number} "{name}" {{ override 1.1 cap: {value}  example {{ expect cap == {value} }} }}\n')


def test_two_options_changing_one_thing_differently_clash() -> None:
    result = compile_text(SERIES, option("a", "9.1", 12), option("b", "9.2", 14),
                          'ruleset both "Both" = S with a, b\n')
    assert codes(result) == ["R303"] and result.ok
    [d] = result.diagnostics
    assert d.severity == "warning"
    assert d.message == "options a and b both change 1.1 cap, differently, in ruleset both"
    assert (d.span.file, d.span.line) == ("t2.rules", 2)


def test_two_options_agreeing_do_not_clash_and_each_builds_alone() -> None:
    result = compile_text(SERIES, option("a", "9.1", 12), option("b", "9.2", 12),
                          'ruleset both "Both" = S with a, b\nruleset just_a "A" = S with a\n')
    assert result.ok, [d.message for d in result.diagnostics]
    assert sorted(result.models) == ["S", "both", "just_a"]
