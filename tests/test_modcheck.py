"""compiler/modcheck.py: every module a build makes is compiled whole (by a second Python beside the
build) before the output folder is committed; one that does not compile is rulec's own bug (exit 3),
and generated/ stays as it was. A plain build runs only the part its worked examples call, so a
line the emitter got wrong elsewhere reached generated/ unseen before (progen seed 1136 found one)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import files_of

from rulec import build, cli, modcheck
from rulec.watch import Watcher

RULES = '''series N "Checked" version "1"

record Unit "A unit" {
  sp: int = 1 "Strength"
}

rule 1.1 "Strength" {
  text "A unit's strength, and its strength less one."
  define strength(u: Unit) -> int "Strength" = u.sp
  define weaker(u: Unit) -> int "Weaker" = u.sp - 1
  example "strength" {
    expect strength(Unit { sp: 3 }) == 3
  }
}
'''

BROKEN = "\n\ndef never_called(:\n    return 1\n"  # a syntax error in a function no example calls


def large_module(extra: str = "") -> str:
    """A module over modcheck.PIECE characters, compiled in pieces; extra goes near its end."""
    lines = ['"""A large module."""', "", "from __future__ import annotations", ""]
    n = 0
    while sum(len(x) + 1 for x in lines) < 3 * modcheck.PIECE:
        lines += [f"def f{n}(x: int) -> int:", f"    return x + {n}", ""]
        n += 1
    return "\n".join(lines) + extra + "\n\ndef last() -> int:\n    return 0\n"


def test_a_large_module_is_compiled_by_a_second_python(monkeypatch: pytest.MonkeyPatch) -> None:
    def in_the_build(source: str, rel: str) -> None:
        raise AssertionError(f"{rel} was compiled in the build, not by the second Python")

    monkeypatch.setattr(modcheck, "problem", in_the_build)  # the second Python has its own
    check = modcheck.ModuleCheck()
    check.add("python/good.py", large_module())
    assert check._proc is not None  # really beside the build, not in it
    # and the text is not held to the end of the build (a 10k module's is 10 MB: the build's peak)
    assert not isinstance(check._sent["python/good.py"], str)
    text = large_module(BROKEN)
    check.add("python/bad.py", text)
    [found] = check.problems()
    assert (found.rel, found.line) == ("python/bad.py", text.split("\n").index("def never_called(:") + 1)
    assert "def never_called(:" in str(found)
    assert check._proc is None  # closed with its files


def test_without_a_second_python_the_build_compiles_them_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    check = modcheck.ModuleCheck()
    check.add("python/good.py", large_module())
    check.add("python/bad.py", large_module(BROKEN))
    check.add("python/small.py", "def f(:\n")  # a small one is always compiled in the build
    assert check._proc is None
    assert [(b.rel, b.message) for b in check.problems()] == [("python/bad.py", "invalid syntax"),
                                                              ("python/small.py", "invalid syntax")]


def test_a_second_python_that_dies_leaves_no_module_unchecked() -> None:
    check = modcheck.ModuleCheck()
    check.add("python/bad.py", large_module(BROKEN))
    assert check._proc is not None
    check._proc.kill()
    assert [b.rel for b in check.problems()] == ["python/bad.py"]


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "n.rules").write_text(RULES, encoding="utf-8")
    return rules, tmp_path / "out"


def _breaking(monkeypatch: pytest.MonkeyPatch) -> None:
    """The emitter, broken as progen once found it: a syntax error where no example looks."""
    real = build.emit_python

    def emit(model: Any, verify: bool = True, whole: bool = False) -> dict[str, str]:
        return {rel: text + BROKEN for rel, text in real(model, verify=False, whole=whole).items()}

    monkeypatch.setattr(build, "emit_python", emit)


@pytest.mark.parametrize("beside", [False, True])
def test_a_build_whose_module_does_not_compile_fails_and_leaves_the_output_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], beside: bool) -> None:
    rules, out = _tree(tmp_path)
    argv = ["build", "--rules", str(rules), "--out", str(out), "--no-print", "--no-cache"]
    assert cli.main(argv) == 0
    before = files_of(out)
    (rules / "n.rules").write_text(RULES.replace("u.sp - 1", "u.sp - 2"), encoding="utf-8")
    _breaking(monkeypatch)
    if beside:  # the module compiled by the second Python (as any module over 64 KB is)
        monkeypatch.setattr(modcheck, "PIECE", 0)
    capsys.readouterr()
    assert cli.main(argv) == cli.EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "a bug in rulec, not in the rules: the Python it generated does not compile (python/n.py, line " in err
    assert "def never_called(:" in err and f"{out}/ was left as it was" in err
    assert files_of(out) == before
    assert not list(tmp_path.glob(".out.*"))  # no staging folder left beside it
    # rulec build --check compiles each module in the build, as before: the same bug, found there
    capsys.readouterr()
    assert cli.main([*argv[:-2], "--check"]) == cli.EXIT_INTERNAL


def test_the_watcher_writes_no_module_that_does_not_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, out = _tree(tmp_path)
    said: list[str] = []
    _breaking(monkeypatch)
    w = Watcher(rules, out, said.append)
    assert w.poll()
    assert not out.exists()
    assert any("the Python it generated does not compile (python/n.py" in line for line in said)
    monkeypatch.undo()  # the emitter mended: the next build makes the module again, not the broken one kept
    said.clear()
    w.build([])
    assert (out / "python" / "n.py").is_file() and "never_called" not in (out / "python" / "n.py").read_text()


def test_a_killed_builds_check_folder_is_removed_by_the_next_build(tmp_path: Path) -> None:
    import subprocess

    from rulec import printing

    check = modcheck.ModuleCheck()
    check.add("python/good.py", large_module())
    assert check._folder is not None and Path(check._folder).name.startswith(f"rulec-modcheck-{os.getpid()}-")
    check.close()
    dead = subprocess.Popen(["true"])  # a process that has ended: its pid names no rulec running
    dead.wait()
    left = tmp_path / f"rulec-modcheck-{dead.pid}-abc123"
    left.mkdir()
    (left / "1.py").write_text("x = 1\n", encoding="utf-8")
    alive = tmp_path / f"rulec-modcheck-{os.getpid()}-abc123"
    alive.mkdir()
    assert printing.clean_leftovers([tmp_path]) == [left]
    assert not left.exists() and alive.exists()


def test_the_watcher_keeps_no_broken_module_from_a_build_the_rules_failed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The series is clean, so its module is made (its examples run on it) while the game's file has
    a mistake: the module is checked all the same, not kept unchecked for the next build."""
    rules, out = _tree(tmp_path)
    game = rules / "g.rules"
    game.write_text('game G "G" extends N\noverride 1.1 weaker: u.nope - 1\n', encoding="utf-8")
    said: list[str] = []
    _breaking(monkeypatch)
    w = Watcher(rules, out, said.append)
    assert w.poll()
    assert any("the Python it generated does not compile (python/n.py" in line for line in said)
    monkeypatch.undo()
    game.write_text('game G "G" extends N\noverride 1.1 weaker: u.sp - 3\n', encoding="utf-8")
    said.clear()
    w.build([game])
    assert any(line.startswith("built G, N") for line in said), said
    assert "never_called" not in (out / "python" / "n.py").read_text(encoding="utf-8")
