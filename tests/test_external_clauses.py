"""Declarations inside an `external` clause: what a clause printed elsewhere states, cited by its
number and title (issue 15: `combat_or_dg_combat` was cited as a bare "OCS")."""

from __future__ import annotations

from conftest import codes, compile_text

from rulec.build import compile_sources
from rulec.crosscheck import load_module
from rulec.emit_python import emit_python
from rulec.fmt import format_text
from rulec.interp import Interpreter

SERIES = '''series S "S"
external 5.10e "DG Mode Orientation" at "../5-0-modes/#510" {
  define oriented(n: int) -> bool "Oriented toward Combat Mode" = n > 1
  enum Side "Side" {
    - front "Front"
    - back "Back"
  }
}
rule 1.1 "Rebuilding" {
  see 5.10e oriented
  define may(n: int) -> bool "May rebuild" = oriented(n) and n < 9
  example "e" {
    expect may(2)
    expect not may(1)
  }
}
'''


def model() -> object:
    result = compile_sources({"t.rules": SERIES}, keep_models=True)
    assert result.ok, [d.message for d in result.diagnostics]
    return result.models["S"]


def test_a_declaration_in_an_external_clause_is_of_that_clause() -> None:
    m = model()
    oriented = next(d for d in m.defines if d.name == "oriented")  # type: ignore[attr-defined]
    side = next(e for e in m.enums if e.name == "Side")  # type: ignore[attr-defined]
    assert oriented.origin.clause == "5.10e" and side.origin.clause == "5.10e"


def test_an_answer_cites_the_external_clause_by_number_and_title() -> None:
    m = model()
    interp = Interpreter(m)  # type: ignore[arg-type]
    interp.trace = []
    assert interp.call("may", [2]) is True
    assert [(c.clause, c.layer) for c in interp.trace] == [("1.1", "S"), ("5.10e", "S")]
    module = load_module(emit_python(m)["python/s.py"], "S")  # type: ignore[arg-type]
    answer = module.explain_may(2)
    assert answer.value is True
    assert [(c.clause, c.title) for c in answer.rules] == [("1.1", "Rebuilding"), ("5.10e", "DG Mode Orientation")]


def test_see_names_an_item_of_an_external_clause() -> None:
    assert codes(compile_text(SERIES)) == []
    bad = SERIES.replace("see 5.10e oriented", "see 5.10e nothing")
    assert codes(compile_text(bad)) == ["R102"]


def test_a_name_declared_in_an_external_clause_and_again_is_r104() -> None:
    twice = SERIES + 'define oriented(n: int) -> bool = n > 2\n'
    assert "R104" in codes(compile_text(twice))


def test_the_formatter_keeps_the_block() -> None:
    text = SERIES.replace("  define oriented", "    define   oriented")
    out = format_text(text)
    assert "external 5.10e \"DG Mode Orientation\" at \"../5-0-modes/#510\" {\n  define oriented(n: int)" in out
    assert format_text(out) == out
