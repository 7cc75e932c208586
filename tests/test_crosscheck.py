"""compiler/crosscheck.py loads a generated module's text in pieces of whole statements (a large
module's syntax tree is fifty times its text): run in turn, the pieces must do what the whole does."""

from __future__ import annotations

import traceback

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
