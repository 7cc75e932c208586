"""The generated modules by the project's own linters (issue #16, item 4): mypy --strict clean and ruff
clean under the project's configuration (CI runs both): no line over 120 characters (E501, compiler/wrap.py),
no unused import (F401), no f((x for x in y)) (UP034), no ambiguous name (E741)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing_in_the_generated_modules() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it is in the test extra)")
    done = subprocess.run([ruff, "check", "--output-format", "concise", "generated/python"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
