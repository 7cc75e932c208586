"""One parser: one grammar file, shipped in the package; one place the Lark parser is made, with
Lark's own features only and its cache outside the package; one unquote."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from rulec import parser
from rulec.astbuild import unquote

ROOT = Path(__file__).resolve().parent.parent


def repository_files(pattern: str) -> list[str]:
    """The files of the working tree matching pattern, tracked or not (ignored ones left out)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", pattern],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    return sorted(set(done.stdout.split()))


def test_the_repository_has_exactly_one_grammar_file() -> None:
    assert repository_files("*.lark") == ["compiler/rules.lark"]


def test_the_grammar_is_read_from_the_package() -> None:
    packaged = resources.files("rulec").joinpath("rules.lark").read_text(encoding="utf-8")
    assert packaged == (ROOT / "compiler" / "rules.lark").read_text(encoding="utf-8") == parser.grammar_text()


def test_a_wheel_ships_the_grammar() -> None:
    """The grammar is package data: a non-editable install has it beside the code."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "rulec" in config["packages"] and config["package-dir"]["rulec"] == "compiler"
    assert "rules.lark" in config["package-data"]["rulec"]


# ---- one parser -------------------------------------------------------------------------------


def compiler_sources() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "compiler").rglob("*.py"))}


def test_the_lark_parser_is_made_in_exactly_one_place() -> None:
    made = [(name, line) for name, text in compiler_sources().items()
            for line in text.splitlines() if re.search(r"\bLark\(", line)]
    assert [name for name, _ in made] == ["compiler/parser.py"], made  # parser._made, cached


def test_no_lark_internals_are_used() -> None:
    """Speed comes from what Lark supports (an inline transformer, its cache), not from driving its
    parser by hand: no parse_interactive, no replaced parse configuration or callbacks."""
    for name, text in compiler_sources().items():
        for internal in ("parse_interactive", "parse_conf", "parser_state", ".callbacks", "lark.grammar"):
            assert internal not in text, (name, internal)
    assert importlib.util.find_spec("rulec.fastparse") is None


def test_the_parser_is_built_once_per_mode() -> None:
    assert parser.lark_parser("ast") is parser.lark_parser("ast")
    assert parser.lark_parser() is parser.lark_parser("tree") is not parser.lark_parser("ast")


def run_parse(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = ("from rulec.parser import parse\n"
            "tree, diags = parse('series S \"S\"\\nrule 1.1 \"A\" { text \"a\" }\\n', 's.rules')\n"
            "assert tree is not None and not diags, diags\n"
            "print('parsed')\n")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, check=False)


def test_lark_keeps_its_tables_in_the_users_cache_folder(tmp_path: Path) -> None:
    before = sorted(p.name for p in (ROOT / "compiler").iterdir())
    first = run_parse({"XDG_CACHE_HOME": str(tmp_path)})
    assert first.stdout == "parsed\n", first.stderr
    kept = sorted(p.name for p in (tmp_path / "rulec").iterdir())
    assert [name.split("-")[1] for name in kept] == ["ast"]
    again = run_parse({"XDG_CACHE_HOME": str(tmp_path)})  # read back from the cache
    assert again.stdout == "parsed\n", again.stderr
    assert sorted(p.name for p in (tmp_path / "rulec").iterdir()) == kept
    assert sorted(p.name for p in (ROOT / "compiler").iterdir()) == before  # nothing written into the package


def test_a_cache_folder_that_cannot_be_written_only_costs_time(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    done = run_parse({"XDG_CACHE_HOME": str(tmp_path / "file")})
    assert done.stdout == "parsed\n", done.stderr
    damaged = tmp_path / "cache"
    assert run_parse({"XDG_CACHE_HOME": str(damaged)}).stdout == "parsed\n"
    for entry in (damaged / "rulec").iterdir():
        entry.write_bytes(b"\x00 damaged")
    done = run_parse({"XDG_CACHE_HOME": str(damaged)})
    assert done.stdout == "parsed\n", done.stderr


# ---- one unquote ------------------------------------------------------------------------------


@pytest.mark.parametrize("raw, value, unknown", [
    ('"plain"', "plain", []),
    ('"a\\"b\\\\c\\nd\\te"', 'a"b\\c\nd\te', []),
    ('"a\\\\q"', "a\\q", []),
    ('"a\\qb\\w"', "a\\qb\\w", [2, 5]),
    ('"""\n    one\n      two \\"x\\"\n    """', 'one\n  two "x"', []),
    ('"""\n    a \\q\n  """', "a \\q", [10]),
])
def test_unquote_decodes_and_finds_unknown_escapes(raw: str, value: str, unknown: list[int]) -> None:
    assert unquote(raw) == (value, unknown)


def test_the_parse_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import parse as bench_parse

    assert bench_parse.main(["--clauses", "20", "--rounds", "1", "--cpu"]) == 0
    out = capsys.readouterr().out
    assert "CPU seconds" in out and "parse()" in out and "Lark alone" in out
