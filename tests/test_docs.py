"""docs/: the reference's examples are quoted from the shipped rules (so it cannot go stale),
and the tutorial's commands run exactly as written, in a copy of the repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, RULES

from rulec.fmt import concrete_tree
from rulec.parser import grammar_text

REFERENCE = ROOT / "docs" / "reference.md"
TUTORIAL = ROOT / "docs" / "tutorial.md"


def blocks(path: Path, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)


def lines(text: str) -> str:
    """A text by its lines, each without its indentation."""
    return "\n".join(line.strip() for line in text.strip("\n").split("\n"))


def test_every_reference_example_is_quoted_from_the_shipped_rules() -> None:
    rules = "\n\n".join(lines(p.read_text(encoding="utf-8")) for p in sorted(RULES.rglob("*.rules")))
    examples = blocks(REFERENCE, "rulec")
    assert len(examples) >= 30
    stale = [b for b in examples if lines(b) not in rules]
    assert stale == [], "examples in docs/reference.md no longer in rules/:\n\n" + "\n---\n".join(stale)


def test_the_reference_syntax_shown_without_a_shipped_example_parses() -> None:
    for block in blocks(REFERENCE, "text"):
        concrete_tree(block)  # raises on a syntax error


def test_the_reference_covers_every_keyword_of_the_grammar() -> None:
    words = set(re.findall(r'"([a-z][a-z-]*)"', re.sub(r"//[^\n]*", "", grammar_text())))
    text = REFERENCE.read_text(encoding="utf-8")
    missing = {w for w in words if not re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)}
    assert missing == set()


def tutorial_script() -> str:
    return "\n".join(f"echo '>>> block {i}'\n{b}" for i, b in enumerate(blocks(TUTORIAL, "sh")))


def test_the_tutorial_has_the_steps_it_promises() -> None:
    script = tutorial_script()
    for step in ("pip install -e .", "override 4.5a D: not negatable", "rulec check", "rulec test",
                 "rulec eval NORTHRIDGE", "rulec build", "generated/cards/northridge"):
        assert step in script


IGNORED = shutil.ignore_patterns(".git", ".venv*", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                                 ".hypothesis", "*.egg-info", ".rulec-cache", "northridge*")


def test_the_tutorial_runs_as_written(tmp_path: Path) -> None:
    """A new user's session: a copy of the repository, a fresh virtual environment, every
    command of the tutorial in order in one shell, each one succeeding."""
    if shutil.which("python3") is None:
        pytest.skip("no python3 on PATH")
    repo = tmp_path / "rulec"
    shutil.copytree(ROOT, repo, ignore=IGNORED)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    venv_bin = os.environ.get("VIRTUAL_ENV")
    if venv_bin:  # the python3 a new user has, not the one of the environment running the tests
        env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                      if not p.startswith(venv_bin))
    (tmp_path / "tutorial.sh").write_text(tutorial_script(), encoding="utf-8")
    r = subprocess.run(["bash", "-euo", "pipefail", str(tmp_path / "tutorial.sh")], cwd=repo, env=env,
                       capture_output=True, text=True, timeout=900, check=False)
    assert r.returncode == 0, f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    out = r.stdout
    # what the tutorial says the commands show
    assert "ezoc_allows(D, true)  [OCS]  =  true" in out
    assert "ezoc_allows(D, true)  [NORTHRIDGE]  =  false" in out
    assert "overridden by NORTHRIDGE: In Northridge an enemy ZOC always blocks" in out
    assert "\nFalse\n" in out
    assert "0 would be reformatted, 1 already formatted" in out
    # the series' 4.5a example that D is negatable no longer holds in Northridge: superseded, not failed
    assert re.search(r"^\d+ passed, 0 failed, \d+ superseded$", out, re.M)
    assert re.search(r"^superseded: NORTHRIDGE: the example of 4\.5a .* is superseded by NORTHRIDGE 4\.5a D$",
                     out, re.M)
    cards = sorted((repo / "generated" / "cards" / "northridge").glob("card-*.html"))
    assert cards and any("always blocks Rail Transport" in c.read_text(encoding="utf-8") for c in cards)
    assert "| ✓ [4.5a D]" in (repo / "generated" / "sheets" / "northridge" / "_index.md").read_text(
        encoding="utf-8")


def test_the_readme_shows_the_diagnostic_rulec_check_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The README's sample diagnostic, a typo in DAK's override of 4.5a F, is what `rulec check`
    prints for it, caret and hint (the hint names the clause that has an F, 4.5a, not the nearest
    number, 4.5)."""
    from rulec import cli

    [sample] = re.findall(r"^```\n(\S+ error R105: .*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"),
                          re.S | re.M)
    shutil.copytree(RULES, tmp_path / "rules")
    dak = tmp_path / "rules" / "dak" / "dak.rules"
    dak.write_text(dak.read_text(encoding="utf-8").replace("override 4.5a F:", "override 4.5z F:"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "--rules", "rules"]) == 1
    assert sample in capsys.readouterr().err
