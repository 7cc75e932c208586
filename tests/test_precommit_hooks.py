""".pre-commit-hooks.yaml: each hook is well formed and its command does what the hook says,
run as pre-commit runs it (the entry, then the file names when it passes them)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

HOOKS = ROOT / ".pre-commit-hooks.yaml"
CLEAN = 'series G "A game" version "1"\n\nrule 1.1 "One" {\n  const cap "The cap" = 3\n}\n'
EXAMPLE = '\nrule 1.2 "Two" {\n  const two "Two" = 2\n\n  example "two" {\n    expect two == 2\n  }\n}\n'


def hooks() -> dict[str, dict[str, str]]:
    """The hooks by id (the file is a flat list of maps of plain scalars)."""
    out: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in HOOKS.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^(- |  )(\w+): (.*)$", line)
        if not m:
            continue
        if m.group(1) == "- ":
            current = {}
        current[m.group(2)] = m.group(3)
        if m.group(2) == "id":
            out[m.group(3)] = current
    return out


def run_hook(hook: dict[str, str], repo: Path, files: list[str]) -> subprocess.CompletedProcess[str]:
    entry = hook["entry"].split()
    assert entry[0] == "rulec"
    names = files if hook.get("pass_filenames", "true") != "false" else []
    return subprocess.run([sys.executable, "-m", "rulec", *entry[1:], *names], cwd=repo,
                          capture_output=True, text=True, check=False)


def test_the_hooks_are_well_formed() -> None:
    found = hooks()
    assert set(found) == {"rulec-check", "rulec-fmt", "rulec-fmt-write", "rulec-test", "rulec-build-check"}
    for hook in found.values():
        assert {"id", "name", "entry", "language", "files"} <= set(hook)
        assert hook["language"] == "python" and re.search(hook["files"], "rules/g/g.rules")


def test_the_hooks_pass_clean_rules_and_stop_bad_ones(tmp_path: Path) -> None:
    found = hooks()
    (tmp_path / "rules" / "g").mkdir(parents=True)
    f = tmp_path / "rules" / "g" / "g.rules"
    f.write_text(CLEAN, encoding="utf-8")
    files = ["rules/g/g.rules"]
    assert run_hook(found["rulec-check"], tmp_path, files).returncode == 0
    assert run_hook(found["rulec-fmt"], tmp_path, files).returncode == 0

    f.write_text(CLEAN.replace('  const cap "The cap" = 3', 'const  cap "The cap"=3'), encoding="utf-8")
    r = run_hook(found["rulec-fmt"], tmp_path, files)
    assert r.returncode == 1 and "would reformat rules/g/g.rules" in r.stderr and "+  const cap" in r.stdout
    assert run_hook(found["rulec-fmt-write"], tmp_path, files).returncode == 0
    assert f.read_text(encoding="utf-8") == CLEAN

    f.write_text(CLEAN + "rule 1.2 {\n  see 9.9\n}\n", encoding="utf-8")
    r = run_hook(found["rulec-check"], tmp_path, files)
    assert r.returncode == 1 and "rules/g/g.rules:7:7: error R102" in r.stderr


def test_the_test_and_build_check_hooks(tmp_path: Path) -> None:
    found = hooks()
    (tmp_path / "rules" / "g").mkdir(parents=True)
    f = tmp_path / "rules" / "g" / "g.rules"
    f.write_text(CLEAN + EXAMPLE, encoding="utf-8")
    files = ["rules/g/g.rules"]
    assert run_hook(found["rulec-test"], tmp_path, files).returncode == 0
    assert run_hook(found["rulec-build-check"], tmp_path, files).returncode == 1  # nothing built yet
    subprocess.run([sys.executable, "-m", "rulec", "build", "--no-print"], cwd=tmp_path, check=True,
                   capture_output=True)
    assert run_hook(found["rulec-build-check"], tmp_path, files).returncode == 0
    f.write_text(CLEAN + EXAMPLE.replace("two == 2", "two == 3"), encoding="utf-8")
    r = run_hook(found["rulec-test"], tmp_path, files)
    assert r.returncode == 1 and "R401" in r.stderr
    assert run_hook(found["rulec-build-check"], tmp_path, files).returncode == 1
