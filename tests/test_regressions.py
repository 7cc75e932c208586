"""Valid rules that rulec once got wrong, each a folder of tests/fixtures/regressions/: each now
checks, builds, passes `rulec test` (the examples run on the generated module too), gives
`mypy --strict` nothing to say, and answers as the rules say when a program imports it.

A folder whose files say `in OCS` is built over a copy of the shipped OCS series."""

from __future__ import annotations

import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from compiled import load_generated
from conftest import RULES

from rulec.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "regressions"


def _built(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    rules = tmp_path / "rules"
    src = FIXTURES / case
    if any("in OCS" in f.read_text() for f in src.glob("*.rules")):
        shutil.copytree(RULES / "ocs", rules / "ocs")
    shutil.copytree(src, rules / case)
    out = tmp_path / "out"
    assert main(["test", "--rules", str(rules)]) == 0, capsys.readouterr().err
    assert main(["build", "--no-print", "--no-cache", "--rules", str(rules), "--out", str(out)]) == 0, \
        capsys.readouterr().err
    capsys.readouterr()
    return out / "python"


def _mypy(folder: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(folder)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def _module(folder: Path, ruleset: str) -> Any:
    return load_generated(ruleset, folder)


def test_whole_number_list_literals_are_scaled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`modified(x, [3])` once passed 3 unscaled where numbers are carried times SCALE: 3/2, not 3."""
    python = _built("list-literals", tmp_path, capsys)
    ls = _module(python, "LS")
    assert ls.tripled(1) == 3
    assert ls.halved(8) == 4
    assert ls.one_or_two(2) is True
    assert ls.not_one(1) is False
    _mypy(python)


def test_whole_numbers_stand_where_numbers_are_wanted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Lists and sets of whole numbers passed, returned, compared and stored where numbers are wanted."""
    python = _built("whole-numbers-as-numbers", tmp_path, capsys)
    nb = _module(python, "NB")
    assert nb.whole([1, 2]) == 3
    assert nb.pick(True, [1], [Fraction(1, 2)]) == (1,)
    assert nb.pick(False, [1], [Fraction(1, 2)]) == (Fraction(1, 2),)
    assert nb.has(nb.Box(s=frozenset({Fraction(1, 2), 3})), 3) is True
    assert nb.among(2, [1, 2]) is True
    assert nb.among(Fraction(3, 2), [1, 2]) is False
    assert nb.boxed(2) == nb.Box(xs=(2, Fraction(1, 2)), s=frozenset({2}), n=2)
    assert nb.total(nb.boxed(2).xs) == Fraction(5, 2)
    assert nb.same([1], [Fraction(1, 2)]) is False
    assert nb.doubled([3]) == (3,)
    _mypy(python)


def test_a_table_over_a_record_holding_a_unit_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A table over a record whose Unit field has no default once crashed the build (internal error)."""
    python = _built("record-holding-unit", tmp_path, capsys)
    ocs = _module(python, "OCS")
    change = ocs.Change
    assert ocs.choice(change(unit=ocs.Unit(mode="combat"), to="move")) is True
    assert ocs.choice(change(unit=ocs.Unit(mode="dg"), to="move")) is False
    assert ocs.choice(change(unit=ocs.Unit(mode="move"), to="move")) is False


def test_a_definition_inlined_after_a_narrowing_test_passes_mypy(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`u.mode == exploit and combat_side(u)`: combat_side, written in place, tests u.mode == combat
    after mypy has narrowed u.mode to 'exploit' (once: error: Non-overlapping equality check)."""
    python = _built("inlined-narrowed-mode", tmp_path, capsys)
    ocs = _module(python, "OCS")
    assert ocs.marker_ma(ocs.Unit(mode="exploit", oriented_to_combat=True, move_ma=6)) == 6
    assert ocs.marker_ma(ocs.Unit(mode="combat", move_ma=6)) == 0
    _mypy(python)
