"""rulec fmt: one canonical layout, idempotent, meaning-preserving, comments kept."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, RULES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec import ir
from rulec.build import compile_sources, find_sources
from rulec.fmt import WIDTH, FormatError, concrete_tree, format_text

SHIPPED = sorted(RULES.rglob("*.rules"))
NAMES = [p.relative_to(ROOT).as_posix() for p in SHIPPED]


def strip_origins(value: Any) -> Any:
    """The IR without source positions (formatting moves lines, nothing else)."""
    if isinstance(value, dict):
        return {k: strip_origins(v) for k, v in value.items() if k not in ("line", "col")}
    if isinstance(value, list):
        return [strip_origins(v) for v in value]
    return value


def models(sources: dict[str, str]) -> dict[str, Any]:
    result = compile_sources(sources)
    assert result.ok, [d.render(sources) for d in result.diagnostics]
    return strip_origins({name: ir.of(model) for name, model in result.models.items()})


@pytest.fixture(scope="module")
def shipped_sources() -> dict[str, str]:
    sources, errors = find_sources([RULES])
    assert not errors
    return sources


@pytest.fixture(scope="module")
def shipped_models(shipped_sources: dict[str, str]) -> dict[str, Any]:
    return models(shipped_sources)


# ---- the shipped rules ------------------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=NAMES)
def test_shipped_file_formats_idempotently(path: Path) -> None:
    once = format_text(path.read_text(encoding="utf-8"), str(path))
    assert format_text(once, str(path)) == once


def test_formatting_the_shipped_rules_leaves_the_ir_unchanged(shipped_sources: dict[str, str],
                                                              shipped_models: dict[str, Any]) -> None:
    formatted = {name: format_text(text, name) for name, text in shipped_sources.items()}
    assert models(formatted) == shipped_models


def test_formatted_lines_fit_the_width_unless_a_quoted_text_cannot(shipped_sources: dict[str, str]) -> None:
    for name, text in shipped_sources.items():
        out = format_text(text, name)
        tree, _ = concrete_tree(out)
        in_texts = {n for t in tree.scan_values(lambda v: getattr(v, "type", "") == "STRING")
                    for n in range(t.line, t.end_line + 1)}
        for number, line in enumerate(out.splitlines(), start=1):
            assert len(line) <= WIDTH or number in in_texts, f"{name}:{number}: {line}"


def test_the_shipped_rules_are_formatted() -> None:
    """CI runs `rulec fmt --check` too; this says which file, and how to fix it."""
    unformatted = [n for p, n in zip(SHIPPED, NAMES, strict=True)
                   if format_text(p.read_text(encoding="utf-8"), n) != p.read_text(encoding="utf-8")]
    assert unformatted == [], f"not formatted (run 'rulec fmt'): {', '.join(unformatted)}"


# ---- the layout ----------------------------------------------------------------------------


def test_the_canonical_layout() -> None:
    messy = (
        'series  X "X"\n'
        'rule 1.1 "A" { text "t"   see 1.2\n'
        '  enum E { - a "A" - b "B" { text "b" } }\n'
        '  define f(a: number) -> bool = a > 1 and a<3 or not(a==2)\n'
        '     example "e" {expect f(2.5)  expect 1/2 + 3 / 4 == 5/4 }}\n'
        'external 1.2 "B" at "x"\n'
        'override 1.1 f: false note "n"\n'
    )
    assert format_text(messy) == (
        'series X "X"\n'
        'rule 1.1 "A" {\n'
        '  text "t"\n'
        '  see 1.2\n'
        '  enum E {\n'
        '    - a "A"\n'
        '    - b "B" {\n'
        '        text "b"\n'
        '      }\n'
        '  }\n'
        '  define f(a: number) -> bool = a > 1 and a < 3 or not (a == 2)\n'
        '  example "e" {\n'
        '    expect f(2.5)\n'
        '    expect 1/2 + 3/4 == 5/4\n'
        '  }\n'
        '}\n'
        'external 1.2 "B" at "x"\n'
        'override 1.1 f: false\n'
        '  note "n"\n'
    )


def test_long_definitions_wrap_at_and_or_then_title() -> None:
    cond = " and ".join(f"u.flag_number_{i}" for i in range(12))
    text = f'define long_one(u: Unit) -> bool "A title that is long enough to matter here" = {cond}\n'
    out = format_text(text)
    lines = out.splitlines()
    assert lines[0] == 'define long_one(u: Unit) -> bool "A title that is long enough to matter here" ='
    assert lines[1].startswith("  u.flag_number_0 and")
    assert all(line.startswith("    and ") for line in lines[2:])
    assert all(len(line) <= WIDTH for line in lines)


def test_comments_stay_and_blank_lines_keep_at_most_one() -> None:
    text = (
        "# head\n\n\n\n"
        'series X "X"   # trailing\n'
        "rule 1.1 {  # after the brace\n"
        "\n"
        "  # above the text\n"
        '  text "t"\n'
        "  define f(a: number) -> bool = a > 1 and  # inside an expression\n"
        "    a < 3\n"
        "  # before the brace\n"
        "}\n"
        "# the end\n"
    )
    assert format_text(text) == (
        "# head\n\n"
        'series X "X"  # trailing\n'
        "rule 1.1 {  # after the brace\n"
        "  # above the text\n"
        '  text "t"\n'
        "  # inside an expression\n"
        "  define f(a: number) -> bool = a > 1 and a < 3\n"
        "  # before the brace\n"
        "}\n"
        "# the end\n"
    )


def test_long_texts_are_reindented_without_changing_them() -> None:
    text = 'rule 1.1 {\n      text """\n  one\n    two\n         """\n}\n'
    assert format_text(text) == 'rule 1.1 {\n  text """\n    one\n      two\n  """\n}\n'


def test_a_file_with_a_syntax_error_is_not_formatted() -> None:
    with pytest.raises(FormatError) as e:
        format_text('series X\nrule 1.1 "A" {\n', "bad.rules")
    assert e.value.diagnostics and e.value.diagnostics[0].code.startswith("R00")


# ---- properties over mutated and generated inputs ---------------------------------------------

SEPARATORS = [" ", "  ", "\n", "\n\n", "\n      ", "\t", " \n  "]


def relaid(text: str, seed: int, comments: bool) -> str:
    """The same tokens, laid out at random (and, if asked, with comments between them)."""
    rnd = random.Random(seed)
    tree, _ = concrete_tree(text)
    tokens = sorted(tree.scan_values(lambda v: hasattr(v, "start_pos")), key=lambda t: t.start_pos)
    out = []
    for i, tok in enumerate(tokens):
        sep = rnd.choice(SEPARATORS)
        if comments and rnd.randrange(20) == 0:
            sep = f"  # note {i}\n"
        out.append(sep if i else sep.lstrip())
        out.append(str(tok))
    return "".join(out) + "\n"


def without_comments(text: str) -> str:
    tree, comments = concrete_tree(text)
    for c in sorted(comments, key=lambda t: -t.start_pos):
        text = text[:c.start_pos] + text[c.end_pos:]
    return "\n".join(line for line in format_text(text).splitlines() if line.strip()) + "\n"


FIXTURE_CHECKS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@settings(max_examples=10, deadline=None, suppress_health_check=FIXTURE_CHECKS)
@given(index=st.integers(0, 100), seed=st.integers(0, 2**32))
def test_any_layout_of_the_same_tokens_formats_the_same(index: int, seed: int,
                                                         shipped_sources: dict[str, str]) -> None:
    name = sorted(shipped_sources)[index % len(shipped_sources)]
    original = shipped_sources[name]
    messy = relaid(original, seed, comments=True)
    once = format_text(messy, name)
    assert format_text(once, name) == once
    assert once.count("# note") == messy.count("# note")
    assert without_comments(once) == without_comments(original)


@settings(max_examples=5, deadline=None, suppress_health_check=FIXTURE_CHECKS)
@given(index=st.integers(0, 100), seed=st.integers(0, 2**32))
def test_formatting_any_layout_leaves_the_ir_unchanged(index: int, seed: int, shipped_sources: dict[str, str],
                                                       shipped_models: dict[str, Any]) -> None:
    name = sorted(shipped_sources)[index % len(shipped_sources)]
    once = format_text(relaid(shipped_sources[name], seed, comments=True), name)
    assert models({**shipped_sources, name: once}) == shipped_models


# Generated definitions: random expressions, long enough to need wrapping.
_names = st.sampled_from(["a", "b", "u.mode", "h.units", "x.flag_with_a_long_name", "combat"])
_numbers = st.sampled_from(["1", "2.5", "1/2", "10"])


def _expr(depth: int) -> st.SearchStrategy[str]:
    leaf = st.one_of(_names, _numbers, st.just("true"))
    if depth == 0:
        return leaf
    sub = _expr(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["and", "or", "+", "-", "*", "/", "==", "<=", "in"]), sub)
        .map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        sub.map(lambda e: f"not ({e})"),
        sub.map(lambda e: f"({e})"),
        st.lists(sub, min_size=0, max_size=4).map(lambda xs: f"some_function_name({', '.join(xs)})"),
        st.lists(sub, min_size=0, max_size=4).map(lambda xs: f"[{', '.join(xs)}]"),
        st.lists(sub, min_size=1, max_size=3).map(lambda xs: "{" + ", ".join(xs) + "}"),
        st.lists(sub, min_size=0, max_size=3).map(
            lambda xs: "Unit { " + ", ".join(f"field_{i}: {x}" for i, x in enumerate(xs)) + " }"),
        st.tuples(sub, sub, sub).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        st.tuples(sub, sub).map(lambda t: f"sum({t[0]} for u in h.units where {t[1]})"),
        st.tuples(sub, sub).map(lambda t: f"let v = {t[0]}; {t[1]}"),
    )


@settings(max_examples=60, deadline=None)
@given(body=_expr(4), seed=st.integers(0, 2**32))
def test_generated_definitions_format_idempotently(body: str, seed: int) -> None:
    text = (f'rule 1.1 "R" {{\n  define f(a: number, u: Unit, h: Hex) -> bool "A title" = {body}\n'
            '  example { expect f(1) }\n}\n')
    try:
        concrete_tree(text)
    except Exception:  # the grammar of the day has no such construct
        return
    messy = relaid(text, seed, comments=True)
    once = format_text(messy)  # also checks the tokens are the same
    assert format_text(once) == once
    assert once.count("# note") == messy.count("# note")


# ---- the command ---------------------------------------------------------------------------


def rulec(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, env=None, check=False)


def test_rulec_fmt_check_and_write(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    messy = tmp_path / "rules" / "x.rules"
    messy.write_text('series  X "X"\nrule 1.1 "A" { text "t" }\n', encoding="utf-8")
    clean = tmp_path / "rules" / "y.rules"
    clean.write_text("in X\n", encoding="utf-8")
    r = rulec("fmt", "--check", cwd=tmp_path)
    assert r.returncode == 1 and "would reformat rules/x.rules" in r.stderr
    assert "1 would be reformatted, 1 already formatted" in r.stdout
    r = rulec("fmt", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert messy.read_text(encoding="utf-8") == 'series X "X"\nrule 1.1 "A" {\n  text "t"\n}\n'
    assert rulec("fmt", "--check", cwd=tmp_path).returncode == 0


def test_rulec_fmt_diff_writes_nothing_and_prints_a_patch(tmp_path: Path) -> None:
    """--diff previews (as black's does): no file is written, the diff on standard output applies with
    `patch -p0` to give what `rulec fmt` writes, and the summary goes to standard error."""
    (tmp_path / "rules").mkdir()
    messy = tmp_path / "rules" / "x.rules"
    written = 'series  X "X"\nrule 1.1 "A" { const c "C" = 9.75 / 2 }\n'
    messy.write_text(written, encoding="utf-8")
    r = rulec("fmt", "--diff", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert messy.read_text(encoding="utf-8") == written
    assert r.stdout.startswith("--- rules/x.rules (as written)\n+++ rules/x.rules (formatted)\n")
    assert "1 would be reformatted, 0 already formatted" in r.stderr and "reformatted rules" not in r.stderr
    assert rulec("fmt", "--check", "--diff", cwd=tmp_path).returncode == 1
    if shutil.which("patch"):
        subprocess.run(["patch", "-p0", "--quiet"], cwd=tmp_path, input=r.stdout, text=True, check=True)
        patched = messy.read_text(encoding="utf-8")
        assert rulec("fmt", cwd=tmp_path).returncode == 0
        assert messy.read_text(encoding="utf-8") == patched


def test_rulec_fmt_stdin_and_errors(tmp_path: Path) -> None:
    r = rulec("fmt", "-", cwd=tmp_path, stdin='series  X  "X"')
    assert (r.returncode, r.stdout) == (0, 'series X "X"\n')
    r = rulec("fmt", "-", cwd=tmp_path, stdin="series X")
    assert r.returncode == 1 and "R003" in r.stderr
    assert rulec("fmt", "missing", cwd=tmp_path).returncode == 2
