"""The fast parse (compiler.fastparse, no parse tree) against the careful one (Lark's tree, then
every check): on every input, the same syntax tree and the same diagnostics.

The fast path gives up on anything unusual and the careful path then answers, so the diagnostics
are the careful path's by construction; what is checked here is that the fast path, when it does
answer, answers exactly as the careful path would, and that it does answer for plain files."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import corpus
from compiler import fastparse, parser
from compiler.limits import MAX_DEPTH, MAX_DIGITS, MAX_LIST, MAX_PARTS, MAX_RULENUM
from tests import fuzz
from tests.shapes import shape

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def careful_only() -> Iterator[None]:
    def unusual(*args: Any) -> Any:
        raise fastparse.Unusual
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fastparse, "parse_items", unusual)
        yield


def both(text: str, name: str = "t.rules") -> tuple[Any, Any]:
    fast_tree, fast_diags = parser.parse(text, name)
    with careful_only():
        tree, diags = parser.parse(text, name)
    return (shape(fast_tree), fast_diags), (shape(tree), diags)


def takes_fast_path(text: str, name: str = "t.rules") -> bool:
    try:
        fastparse.parse_items(parser.lark_parser(), text, name)
    except fastparse.Unusual:
        return False
    return True


@cache
def seed_files() -> list[tuple[str, str]]:
    """Every file of the fuzz corpus: the shipped rules whole and clause by clause, the fixtures."""
    files = {}
    for sources in fuzz.corpus().values():
        files.update(sources)
    return sorted(files.items())


@pytest.mark.parametrize("name, text", seed_files(), ids=[n for n, _ in seed_files()])
def test_the_same_on_every_seed_file(name: str, text: str) -> None:
    fast, careful = both(text, name)
    assert fast == careful


def test_the_shipped_rules_and_a_generated_rulebook_take_the_fast_path() -> None:
    files = {p.as_posix(): p.read_text(encoding="utf-8") for p in sorted((ROOT / "rules").rglob("*.rules"))}
    files.update(corpus.generate(200))
    for name, text in files.items():
        assert takes_fast_path(text, name), name
        fast, careful = both(text, name)
        assert fast == careful, name


@pytest.mark.parametrize("start", range(0, 600, 100))
def test_the_same_on_fuzz_inputs(start: int) -> None:
    """The fuzzer's inputs: mutated rules (a file at a time, the others left as they are), random
    tokens, absurd sizes."""
    seeds = {text for _, text in seed_files()}
    for index in range(start, start + 100):
        kind, item = fuzz.generate(7, index)
        if isinstance(item, bytes):
            continue
        for name, text in sorted(item.items()):
            if text not in seeds:
                fast, careful = both(text, name)
                assert fast == careful, (kind, index, name)


HEAD = 'series S "S"\n'


def nested(levels: int) -> str:
    """An expression whose tree is `levels` deep below the const (left-nested `or`s)."""
    return HEAD + "const x = " + " or ".join(["a"] * levels) + "\n"


def items(n: int) -> str:
    return HEAD + "const x = [" + ", ".join(["1"] * n) + "]\n"


EDGES = {
    "depth at the limit": (nested(MAX_DEPTH - 2), True),
    "depth past the limit": (nested(MAX_DEPTH + 5), False),
    "a list at the limit": (items(MAX_LIST), True),
    "a list past the limit": (items(MAX_LIST + 1), False),
    "a rule number at the limit": (HEAD + f'rule 1.{"a" * (MAX_RULENUM - 2)} "R" {{}}\n', True),
    "a rule number past the limit": (HEAD + f'rule 1.{"a" * (MAX_RULENUM - 1)} "R" {{}}\n', False),
    "a number at the limit": (HEAD + f"const x = {'9' * MAX_DIGITS}\n", True),
    "a number past the limit": (HEAD + f"const x = {'9' * (MAX_DIGITS + 1)}\n", False),
    "digits other than 0-9": (HEAD + "const x = \u0663\n", False),
    "known escapes": (HEAD + 'const x = "a\\"b\\\\c\\nd\\te"\n', True),
    "an escaped backslash before a letter": (HEAD + 'const x = "a\\\\q"\n', True),
    "an unknown escape": (HEAD + 'const x = "a\\qb"\n', False),
    "an unknown escape in a long text": (HEAD + 'rule 1.1 "R" {\n  text """\n    a \\q\n  """\n}\n', False),
    "a zero denominator": (HEAD + 'enum E { has w: number = 1/0\n  - a }\n', False),
    "a fraction": (HEAD + 'enum E { has w: number = -3/4\n  - a }\n', True),
    "brackets": (HEAD + "const x = ((a or b)) and (c)\n", True),
    "an empty file": ("", True),
    "only a comment": ("# nothing\n", True),
    "a syntax error": (HEAD + "const x = (a or\n", False),
}


@pytest.mark.parametrize("case", sorted(EDGES))
def test_the_same_at_each_limit(case: str) -> None:
    text, fast_path = EDGES[case]
    assert takes_fast_path(text) == fast_path
    fast, careful = both(text)
    assert fast == careful


def test_the_depth_limit_is_where_the_careful_path_puts_it() -> None:
    """The fast path gives up exactly where the careful path starts to complain (R008)."""
    for levels in range(MAX_DEPTH - 4, MAX_DEPTH + 4):
        text = nested(levels)
        _, diags = parser.parse(text, "t.rules")
        assert takes_fast_path(text) == (not diags), levels


def test_the_part_limit_is_where_the_careful_path_puts_it() -> None:
    """1 + 271 rules x (1 + 368 notes) = MAX_PARTS parts, and then one more."""
    assert 1 + 271 * (1 + 368) == MAX_PARTS
    notes = '  note "n"\n' * 368
    at_limit = "".join(f"rule 1.{i} {{\n{notes}}}\n" for i in range(271))
    past_limit = at_limit.replace("{\n", '{\n  note "n"\n', 1)
    assert takes_fast_path(at_limit) and parser.parse(at_limit, "t.rules")[0] is not None
    assert not takes_fast_path(past_limit)
    assert [d.code for d in parser.parse(past_limit, "t.rules")[1]] == ["R007"]


def too_deep_by_characters(text: str) -> tuple[int, int] | None:
    """The bracket check as a loop over every character (what parser._too_deep replaced)."""
    depth, line, col = 0, 1, 0
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif ch in "([{":
            depth += 1
            if depth > parser.MAX_NESTING:
                return line, col
        elif ch in ")]}":
            depth = max(0, depth - 1)
    return None


@settings(deadline=None, max_examples=300, derandomize=True)
@given(st.lists(st.sampled_from(["(", "[", "{", ")", "]", "}", "\n", "x", "\r", "\u2028", "(" * 40, "[{" * 20]),
                max_size=60).map("".join))
def test_the_bracket_check_finds_what_a_loop_over_every_character_finds(text: str) -> None:
    found = parser._too_deep(text, "t.rules")
    expected = too_deep_by_characters(text)
    assert (found.span.line, found.span.col) == expected if found else expected is None
