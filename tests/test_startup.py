"""What `rulec build` does before the compiler is imported: a no-op build finds it has nothing to do
with the standard library alone (manifest.py), and a build with work to do starts its browser
before it imports the compiler, so the browser's start-up and the import overlap (cli._build)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

# The compiler and the libraries it stands on: none of them is needed to find a build up to date.
HEAVY = ("rulec.build", "rulec.cache", "rulec.parser", "rulec.model", "rulec.sheets", "lark", "z3", "jinja2")

PROBE = """
import json, sys
from rulec import cli

seen = {}

def printer():  # where the build starts its browser
    seen["imported when the browser started"] = sorted(m for m in HEAVY if m in sys.modules)
    return None  # none here: the cards are not printed (RULEC_CHROMIUM names no browser)

cli._printer = printer
code = cli.main(sys.argv[1:])
seen["imported in all"] = sorted(m for m in HEAVY if m in sys.modules)
seen["exit"] = code
seen["also"] = sorted(m for m in ("z3.z3", "importlib.metadata") if m in sys.modules)
print(json.dumps(seen))
"""


def _build(tmp_path: Path, rules: Path) -> dict[str, object]:
    args = ["build", "--rules", str(rules), "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache")]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULEC_CHROMIUM": "no-such-chromium-for-rulec-tests"}
    done = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{PROBE}", *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_a_no_op_build_imports_none_of_the_compiler_and_a_build_starts_its_browser_before_it(
        tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "zoc-classes", rules)
    first = _build(tmp_path, rules)
    assert first["exit"] == 0
    assert first["imported when the browser started"] == []  # started before the compiler was imported
    assert set(HEAVY) <= set(first["imported in all"])  # type: ignore[arg-type]  # and then it was
    assert "importlib.metadata" not in first["also"]  # type: ignore[operator]  # no installed series named
    again = _build(tmp_path, rules)
    assert again == {"exit": 0, "imported in all": [], "also": []}  # up to date: no browser, no compiler


def test_a_build_after_an_edit_of_words_loads_neither_the_solver_nor_package_metadata(tmp_path: Path) -> None:
    """z3 (35 ms) is imported when first used (decide.imported_when_used), and an edit of a rule's
    words analyses no table; importlib.metadata (15 ms, and 25 ms to name the tools a compiled build's
    key holds) only when a project names an installed series or the last build was compiled."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "zoc-classes", rules)
    assert _build(tmp_path, rules)["exit"] == 0
    file = rules / "zoc.rules"
    file.write_text(file.read_text("utf-8").replace('text "Total', 'text "Edited. Total', 1), "utf-8")
    edited = _build(tmp_path, rules)
    assert edited["exit"] == 0 and "rulec.build" in edited["imported in all"]  # type: ignore[operator]
    assert edited["also"] == []
