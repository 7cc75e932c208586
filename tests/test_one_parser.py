"""One grammar file, in the package."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from compiler import parser

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
    packaged = resources.files("compiler").joinpath("rules.lark").read_text(encoding="utf-8")
    assert packaged == (ROOT / "compiler" / "rules.lark").read_text(encoding="utf-8") == parser.grammar_text()


def test_a_wheel_ships_the_grammar() -> None:
    """The grammar is package data: a non-editable install has it beside the code."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "compiler" in config["packages"]
    assert "rules.lark" in config["package-data"]["compiler"]
