"""The analysis of a resolved model (compiler/analysis.py) on the typed model: its findings, in their
order, and what a table's rows read of its parameters."""

from __future__ import annotations

import pytest
from conftest import compile_text

from rulec import decide
from rulec import model as m
from rulec.analysis import analyse, constant_errors, span_of
from rulec.build import compile_sources
from rulec.crosscheck import to_module
from rulec.interp import Interpreter
from rulec.testing import coverage_items
from rulec.types import INT, ListT, RecordT

SIZES = '''series S "S"
enum Size "Size" {
  - company "Company"
  - battalion "Battalion"
}
record Unit "Unit" {
  size: Size = company "Size"
  strength: int = 1 "Strength"
}
rule 1.1 "One" {
  define big(u: Unit) -> bool = u.size == battalion
  table re(u: Unit, doubled: bool) -> int {
    small: when not big(u) => 1
    large: otherwise => 2
    never: when u.size == company => 3
  }
}
'''


def model_of(*texts: str) -> m.Resolved:
    result = compile_sources({f"t{i}.rules": t for i, t in enumerate(texts)}, keep_models=True)
    [model] = result.models.values()
    return model


def test_span_of_takes_an_origin() -> None:
    span = span_of(m.Origin("S", "1.1", "t.rules", 3, 5))
    assert (span.file, span.line, span.col, span.end_line, span.end_col) == ("t.rules", 3, 5, 3, 6)


def test_a_row_taken_first_is_reported_with_the_case_in_words() -> None:
    model = model_of(SIZES)
    [d] = analyse(model)
    assert d.code == "R301"
    assert d.message == ("row 'never' of re (1.1) can never match: every case it covers is taken first by row "
                         "'small' (re(Unit { size: company }, false))")


def test_representatives_count_the_tests_of_an_item() -> None:
    """An input list is stood for by 2**k items for the k different tests of an item the rows make
    (calls followed; the same test twice, under any variable name, counts once)."""
    model = model_of(SIZES.replace("rule 1.1", 'record Hex "Hex" {\n  units: list of Unit = [] "Units"\n}\nrule 1.1')
                     .replace("large: otherwise => 2",
                              "some: when any(big(x) for x in h.units) and any(big(y) for y in h.units) => 4\n"
                              "    many: when count(x for x in h.units where x.strength > 2) > 1 => 5\n"
                              "    large: otherwise => 2")
                     .replace("doubled: bool", "doubled: bool, h: Hex"))
    [table] = model.tables
    exprs = [r.when for r in table.rows if r.when is not None]
    assert decide.representatives(Interpreter(model), exprs) == (4, False)  # big(x); x.strength > 2


def test_constant_errors_come_last_declaration_first() -> None:
    model = model_of('series S "S"\nrule 1.1 "One" {\n  define a(x: int) -> number = x + 1 / 0\n'
                     '  define b(x: int) -> number = x + 2 / 0\n}\n')
    interp = Interpreter(model)
    assert [d.span.line for d in constant_errors(model, interp)] == [4, 3]


def test_coverage_items_of_a_typed_model() -> None:
    model = model_of(SIZES)
    items = coverage_items(model)
    assert [(i.kind, i.item, i.words) for i in items] == [
        ("clause", None, "1.1 One"), ("row", "small", "re: row small"), ("row", "large", "re: row large"),
        ("row", "never", "re: row never")]


def test_to_module_makes_the_module_records_from_types() -> None:
    class Unit:
        def __init__(self, **kw: object) -> None:
            self.kw = kw

    class Module:
        _RECORD_CLASSES = {"Unit": Unit}
        _RENAMED = {"type"}
        _FIELDS = {"Unit": (("type", "int", ()), ("size", "list of int", ()))}

    got = to_module(Module, ListT(RecordT("Unit")), ({"type": 1, "size": [2, 3]},))  # type: ignore[arg-type]
    assert isinstance(got, tuple) and got[0].kw == {"type_": 1, "size": (2, 3)}
    assert to_module(Module, INT, 4) == 4  # type: ignore[arg-type]


def test_option_clash_compares_changes_by_what_they_say() -> None:
    series = 'series S "S"\nrule 1.1 "One" {\n  const cap "Cap" = 10\n  example { expect cap >= 10 }\n}\n'

    def option(name: str, number: str, value: str) -> str:
        return (f'option {name} "{name}" extends S\n'
                f'rule {number} "{name}" {{ override 1.1 cap: {value}  example {{ expect cap >= 10 }} }}\n')

    same = compile_text(series, option("a", "9.1", "10 + 3 * 2"), option("b", "9.2", "10 + 3 * 2"),
                        'ruleset both "Both" = S with a, b\n')
    assert [d.code for d in same.diagnostics] == []
    other = compile_text(series, option("a", "9.1", "10 + 3 * 2"), option("b", "9.2", "10 + 2 * 3"),
                         'ruleset both "Both" = S with a, b\n')
    assert [d.code for d in other.diagnostics] == ["R303"]


def test_an_otherwise_row_that_never_matches_is_told_why_not_to_move_it() -> None:
    """R301's hint for a row taken by the rows above is to move it up; an `otherwise` row goes last,
    and where a row above divides by zero the designer added it for that case, which the table
    never reaches (it stops at that row, R306): the hint says so."""
    table = ('series N "N" version "1"\nrule 1.1 "Odds" {{\n  table ratio(a: int, d: int) -> int "Ratio" {{\n'
             '    big: when {big} => 2 "Two or more"\n    small: when {small} => 1 "Less"\n'
             '    none: otherwise => 0 "No defender"\n  }}\n}}\n')
    dividing = compile_text(table.format(big="a / d >= 2", small="a / d < 2"))
    [d] = [d for d in dividing.diagnostics if d.code == "R301"]
    assert d.hint is not None and d.hint.startswith(
        "the rows above answer every input they can work out, and where row 'big' cannot (a division by zero")
    plain = compile_text(table.format(big="a >= 2 * d", small="a < 2 * d"))
    [d] = [d for d in plain.diagnostics if d.code == "R301"]
    assert d.hint == "the rows above answer every input: remove it, or narrow their conditions"


def test_the_analysis_lets_the_heap_keep_the_solver_contexts_memory() -> None:
    """Each table's solver context (some 8 MB) is made and freed: glibc gave it back to the system
    as it was freed and faulted it in again for the next table once a build's heap had grown (2.7 ms
    a context against 0.4 ms). The analysis asks the heap to keep what it frees (collector.py)."""
    import platform

    from rulec import collector

    collector.keep_freed_heap.cache_clear()
    analyse(model_of(SIZES))
    assert collector.keep_freed_heap.cache_info().currsize == 1  # asked once, and kept
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert collector.keep_freed_heap() is True


def test_a_number_written_as_a_fraction_cannot_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """`=> 1/2` divides by a number that is never 0: a table of such values is still shown whole by a
    few plain inputs, without the solver (every synthetic table of the benchmark went to the solver
    once the analysis read the rows' values: a third of the analysis' time at 1,000 clauses). A
    division by an input still may fail, and goes to the solver."""
    made: list[object] = []
    original = decide.Translator.__init__

    def counted(self: decide.Translator, *args: object, **kwargs: object) -> None:
        made.append(self)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(decide.Translator, "__init__", counted)
    fractions = (SIZES.replace("-> int {", "-> number {").replace("=> 2", "=> 3/2")
                 .replace("    never: when u.size == company => 3\n", ""))
    model = model_of(fractions)
    [table] = model.tables
    assert decide.can_fail(Interpreter(model), [r.value for r in table.rows]) is False
    assert analyse(model_of(fractions)) == [] and made == []
    halved = fractions.replace("=> 3/2", "=> u.strength / 2")
    assert analyse(model_of(halved)) == [] and made == []
    divided = fractions.replace("=> 3/2", "=> 3 / u.strength")
    assert [d.code for d in analyse(model_of(divided))] == ["R307"] and made
