"""compiler/crosscheck.py loads a generated module's text in pieces of whole statements (a large
module's syntax tree is fifty times its text): run in turn, the pieces must do what the whole does."""

from __future__ import annotations

import dataclasses
import traceback
import types
from typing import Any

from rulec import crosscheck, modcheck


def _large_source() -> str:
    """A module over modcheck.PIECE characters: a docstring, a future import, many functions,
    and at the end a function whose annotation names nothing defined (fine only under the
    module's `from __future__ import annotations`) and one that raises."""
    lines = ['"""A large module."""', "", "from __future__ import annotations", "", "import math", ""]
    n = 0
    while sum(len(x) + 1 for x in lines) < 3 * modcheck.PIECE:
        lines += [f"def f{n}(x: int) -> int:", f"    return x + {n}  # {'padding ' * 8}", ""]
        n += 1
    lines += ["def late(u: NotDefinedAnywhere) -> Undefined[int]:", "    return math.floor(u)", ""]
    lines += ["def fails() -> int:", "    return 1 // 0", ""]
    return "\n".join(lines)


def test_a_large_module_is_compiled_in_pieces_that_keep_future_imports() -> None:
    source = _large_source()
    codes = list(modcheck.compiled(source, "<big>"))
    assert len(codes) > 1  # really in pieces
    assert all(c.co_flags & modcheck._FUTURE_FLAGS for c in codes)
    module = crosscheck.load_module(source, "BIG")
    assert module.late(2.5) == 2  # its annotations were never evaluated
    assert module.f0(1) == 1 and module.f100(1) == 101


def test_a_piece_reports_the_line_of_the_whole_module() -> None:
    source = _large_source()
    module = crosscheck.load_module(source, "BIG")
    try:
        module.fails()
    except ZeroDivisionError as err:
        line = traceback.extract_tb(err.__traceback__)[-1].lineno
    else:
        raise AssertionError("fails() did not raise")
    assert source.splitlines()[line - 1] == "    return 1 // 0"


def test_the_lines_of_a_module_are_splitlines_one_at_a_time() -> None:
    """_statements reads a module a line at a time (_lines), ending lines where str.splitlines
    does: a rule's text may put any of its line breaks in a string."""
    import random

    pieces = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "a", " ", '"']
    rng = random.Random("lines")
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 16)))
        assert list(modcheck._lines(text)) == text.splitlines(keepends=True), repr(text)


CITED = '''series S "Cited" version "1"

record Unit "A unit" {
  sp: int = 1 "Strength points"
  moved: bool = false "Moved"
}

rule 3.1 "Strength" {
  define strong(u: Unit) -> bool "Strong" = u.sp >= 3
}

rule 3.2 "Ready" {
  define ready(u: Unit) -> bool "Ready" = strong(u) and not u.moved
  example "a strong unit that has not moved is ready" {
    let u = Unit { sp: 4 }
    expect ready(u) and strong(u)
  }
}
'''


def _cited_model_and_module() -> tuple[Any, types.ModuleType]:
    from conftest import compile_text

    from rulec.emit_python import emit_python
    result = compile_text(CITED)
    assert not [d for d in result.diagnostics if d.severity == "error"]
    model = result.models["S"]
    [source] = emit_python(model, whole=True).values()
    return model, crosscheck.load_module(source, "S")


def test_the_examples_rules_agree_on_both_when_the_module_is_loaded_whole() -> None:
    from rulec.analysis import run_examples
    model, module = _cited_model_and_module()
    assert run_examples(model, module) == []


def test_an_explain_twin_citing_other_rules_than_the_interpreter_is_r900() -> None:
    """The worked examples ask the module's explain_ twins too (rulec test loads it whole): an answer
    with the right value and the wrong rules is a disagreement, as a wrong value is."""
    from rulec.analysis import run_examples
    model, module = _cited_model_and_module()
    explain = module.explain_ready

    def forgets_a_rule(u: Any) -> Any:
        answer = explain(u)
        return dataclasses.replace(answer, rules=answer.rules[1:])

    module.explain_ready = forgets_a_rule
    [d] = run_examples(model, module)
    assert d.code == "R900"
    assert d.message == ("rulec disagrees with itself on an example of 3.2 for S: ready({ moved: false, sp: 4 }) "
                         "is true, citing S 3.1 in the generated module, true, citing S 3.2 and S 3.1 in the "
                         "reference interpreter")


def test_rulec_test_loads_the_explain_twins_the_examples_call() -> None:
    """`rulec test` (keep_models) asks the module for each answer's rules too (a build, whose examples
    run on every build, asks for the values alone: the twins would double what it compiles)."""
    from rulec.build import compile_sources
    tested = compile_sources({"s.rules": CITED}, keep_models=True, crosscheck=True)
    assert tested.ok
    assert callable(tested.modules["S"].explain_ready) and callable(tested.modules["S"].explain_strong)
