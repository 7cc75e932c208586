"""The input limits (rulec.limits): where each one starts, and the reductions' quick look at a
parse (limits.near, limits.token_passes), which must never miss a limit the exact walk over the
concrete parse tree (limits.tree_errors) finds. Replaces the fast path's comparison with the
careful one: there is one path now, and only its look at the limits has a short cut."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from bench import corpus
from rulec import limits, parser
from rulec.limits import MAX_DEPTH, MAX_DIGITS, MAX_LIST, MAX_PARTS, MAX_RULENUM
from tests import fuzz

ROOT = Path(__file__).resolve().parent.parent


def near(text: str, name: str = "t.rules") -> bool:
    """Whether the reductions saw the parse come near a limit (raises on a syntax error)."""
    _, build = parser._reduce(text, name, "start")
    return build.near_limit


def exact(text: str, name: str = "t.rules") -> list[str]:
    tree, _ = parser.concrete_tree(text)
    return [d.code for d in limits.tree_errors(tree, name, 1, parser.kept_terminals())]


def codes(text: str) -> list[str]:
    return [d.code for d in parser.parse(text, "t.rules")[1]]


@cache
def seed_files() -> list[tuple[str, str]]:
    """Every file of the fuzz corpus: the shipped rules whole and clause by clause, the fixtures."""
    files = {}
    for sources in fuzz.corpus().values():
        files.update(sources)
    return sorted(files.items())


def test_plain_files_are_not_looked_at_again() -> None:
    """The shipped rules and a generated rulebook come nowhere near a limit: no second parse."""
    files = {p.as_posix(): p.read_text(encoding="utf-8") for p in sorted((ROOT / "rules").rglob("*.rules"))}
    files.update(corpus.generate(200))
    for name, text in files.items():
        assert not near(text, name), name


@pytest.mark.parametrize("start", range(0, 600, 100))
def test_the_quick_look_never_misses_a_limit(start: int) -> None:
    """On the fuzzer's inputs (mutated rules, random tokens, absurd sizes) and the seed files: a
    parse the reductions found nowhere near a limit passes none."""
    inputs = list(seed_files()) if start == 0 else []
    for index in range(start, start + 100):
        _, item = fuzz.generate(7, index)
        if not isinstance(item, bytes):
            inputs += sorted(item.items())
    for name, text in inputs:
        if limits.too_large(text, name) or limits.too_deep(text, name):
            continue
        try:
            seen = near(text, name)
        except UnexpectedInput:
            continue
        assert seen or not exact(text, name), (name, text[:200])


HEAD = 'series S "S"\n'


def nested(levels: int) -> str:
    """An expression of `levels` names joined by `or` (left-nested): the tree is levels + 2 deep."""
    return HEAD + "const x = " + " or ".join(["a"] * levels) + "\n"


def items(n: int) -> str:
    return HEAD + "const x = [" + ", ".join(["1"] * n) + "]\n"


def enum_values(n: int) -> str:
    return HEAD + 'enum E "E" {\n' + "".join(f'  - v{i} "V{i}"\n' for i in range(n)) + "}\n"


def table_rows(n: int) -> str:
    rows = "".join(f"    r{i}: when u > {i} => 1\n" for i in range(n))
    return HEAD + f'rule 1.1 "R" {{\n  table t(u: int) -> int "T" {{\n{rows}  }}\n}}\n'


EDGES = {
    "depth at the limit": (nested(MAX_DEPTH - 2), []),
    "depth past the limit": (nested(MAX_DEPTH - 1), ["R008"]),
    "depth in brackets at the limit": (HEAD + "const x = " + "(" * 30 + nested(MAX_DEPTH - 2)[22:-1]
                                       + ")" * 30 + "\n", []),
    "a list at the limit": (items(MAX_LIST), []),
    "a list past the limit": (items(MAX_LIST + 1), ["R007"]),
    # the list is what follows the name, title, parameters and type (999 values with a title were
    # "more than 1,000 items": found by tests/fuzz_faults.py)
    "an enum with a title at the limit": (enum_values(MAX_LIST), []),
    "an enum with a title past the limit": (enum_values(MAX_LIST + 1), ["R007"]),
    "a table at the limit": (table_rows(MAX_LIST), []),
    "a table past the limit": (table_rows(MAX_LIST + 1), ["R007"]),
    "arguments at the limit": (HEAD + "const x = f(" + ", ".join(["1"] * MAX_LIST) + ")\n", []),
    "arguments past the limit": (HEAD + "const x = f(" + ", ".join(["1"] * (MAX_LIST + 1)) + ")\n", ["R007"]),
    "rule references past the limit": (HEAD + 'rule 1.1 "R" {\n  see ' + ", ".join(["1.1"] * (MAX_LIST + 1))
                                       + "\n}\n", ["R007"]),
    "a rule number at the limit": (HEAD + f'rule 1.{"a" * (MAX_RULENUM - 2)} "R" {{}}\n', []),
    "a rule number past the limit": (HEAD + f'rule 1.{"a" * (MAX_RULENUM - 1)} "R" {{}}\n', ["R006"]),
    "a number at the limit": (HEAD + f"const x = {'9' * MAX_DIGITS}\n", []),
    "a number with a point at the limit": (HEAD + f"const x = {'9' * 50}.{'9' * 50}\n", []),
    "a number past the limit": (HEAD + f"const x = {'9' * (MAX_DIGITS + 1)}\n", ["R006"]),
    "a number too long to read": (HEAD + f"enum E {{ has w: number = -1/{'0' * 5000}\n  - a }}\n", ["R006"]),
    "digits other than 0-9": (HEAD + "const x = \u0663\n", ["R002"]),
    "known escapes": (HEAD + 'const x = "a\\"b\\\\c\\nd\\te"\n', []),
    "an escaped backslash before a letter": (HEAD + 'const x = "a\\\\q"\n', []),
    "an unknown escape": (HEAD + 'const x = "a\\qb"\n', ["R001"]),
    "an unknown escape in a long text": (HEAD + 'rule 1.1 "R" {\n  text """\n    a \\q\n  """\n}\n', ["R001"]),
    "a zero denominator": (HEAD + 'enum E { has w: number = 1/0\n  - a }\n', ["R205"]),
    "a fraction": (HEAD + 'enum E { has w: number = -3/4\n  - a }\n', []),
    "an empty file": ("", []),
    "only a comment": ("# nothing\n", []),
}


@pytest.mark.parametrize("case", sorted(EDGES))
def test_each_limit_starts_where_it_says(case: str) -> None:
    text, expected = EDGES[case]
    assert codes(text) == expected
    limit_codes = [c for c in expected if c in ("R002", "R006", "R007", "R008")]
    assert exact(text) == limit_codes
    assert near(text) or not limit_codes


def test_the_depth_limit() -> None:
    for levels in range(MAX_DEPTH - 6, MAX_DEPTH + 4):
        assert codes(nested(levels)) == ([] if levels + 2 <= MAX_DEPTH else ["R008"]), levels


def test_the_part_limit() -> None:
    """1 + 271 rules x (1 + 368 notes) = MAX_PARTS parts, and then one more."""
    assert 1 + 271 * (1 + 368) == MAX_PARTS
    notes = '  note "n"\n' * 368
    at_limit = "".join(f"rule 1.{i} {{\n{notes}}}\n" for i in range(271))
    past_limit = at_limit.replace("{\n", '{\n  note "n"\n', 1)
    assert not near(at_limit) and parser.parse(at_limit, "t.rules")[0] is not None
    assert near(past_limit)
    assert codes(past_limit) == ["R007"]


def too_deep_by_characters(text: str) -> tuple[int, int] | None:
    """The bracket check as a loop over every character (what limits.too_deep replaced)."""
    depth, line, col = 0, 1, 0
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif ch in "([{":
            depth += 1
            if depth > limits.MAX_NESTING:
                return line, col
        elif ch in ")]}":
            depth = max(0, depth - 1)
    return None


@settings(deadline=None, max_examples=300, derandomize=True)
@given(st.lists(st.sampled_from(["(", "[", "{", ")", "]", "}", "\n", "x", "\r", "\u2028", "(" * 40, "[{" * 20]),
                max_size=60).map("".join))
def test_the_bracket_check_finds_what_a_loop_over_every_character_finds(text: str) -> None:
    found = limits.too_deep(text, "t.rules")
    expected = too_deep_by_characters(text)
    assert (found.span.line, found.span.col) == expected if found else expected is None


@pytest.mark.parametrize("col", [1, 50, 150, 500_000, 999_990, 1_000_000])
def test_a_diagnostic_on_a_long_line_shows_the_place_not_the_whole_line(col: int) -> None:
    """A file of one 1,000,000-character line echoed the whole line (2 MB on the terminal, and
    whatever the line held); the place is shown with the characters around it and the caret under it."""
    from rulec.diagnostics import SHOWN_LINE, Diagnostic, Span

    text = "".join(chr(ord("a") + i % 26) for i in range(1_000_000))
    shown = Diagnostic(Span("t.rules", 1, col, 1, col + 3), "R001", "here").render({"t.rules": text})
    _, source, caret = shown.split("\n")
    assert len(source) <= len("    1 | ") + SHOWN_LINE + 2
    at = caret.index("^")
    assert source[at] == text[col - 1] and caret.count("^") == min(3, len(text) - col + 1)
    assert source[at:at + 3] == text[col - 1:col + 2]
