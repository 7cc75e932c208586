"""`rulec diff OLD NEW`: changes between two rule trees or git revisions, in a designer's words."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rulec import diff
from rulec.build import find_sources
from rulec.cli import main
from rulec.model import Resolved
from tests.conftest import RULES

OVERRIDE = 'override 4.5a F: not negatable\n  note game "In either edition of DAK, units do not negate EZOCs ' \
           'for Port Operations (F)."\n'


def without_dak_override(dest: Path) -> Path:
    """A copy of the shipped rules with DAK's one override taken out."""
    tree = dest / "rules"
    shutil.copytree(RULES, tree)
    dak = tree / "dak" / "dak.rules"
    text = dak.read_text(encoding="utf-8")
    assert OVERRIDE in text
    dak.write_text(text.replace(OVERRIDE, ""), encoding="utf-8")
    return tree


def models_of(tree: Path) -> dict[str, Resolved]:
    sources, errors = find_sources([tree])
    assert not errors
    models, diags = diff.resolve_all(sources)
    assert models, [d.message for d in diags]
    return models


def test_removing_the_dak_override_is_exactly_one_change(tmp_path: Path) -> None:
    old = models_of(without_dak_override(tmp_path))
    new = models_of(RULES)
    on_dak = {name for name, m in new.items() if "DAK" in m.manifest.layers}  # DAK, and rulesets over it
    changes = diff.diff_models(old, new)
    assert {(c.key, c.what) for c in changes} == {("4.5a F", "negation removed")}
    assert {c.ruleset for c in changes} == on_dak and "DAK" in on_dak
    assert all(c.where is not None and c.where.endswith("rules/dak/dak.rules:6") for c in changes)
    back = diff.diff_models(new, old)
    assert {(c.key, c.what) for c in back} == {("4.5a F", "negation added")}
    assert diff.diff_models(new, new) == []


def test_the_command_prints_the_change_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = without_dak_override(tmp_path)
    assert main(["diff", str(old), str(RULES)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    assert re.fullmatch(r"4\.5a F: negation removed  \(DAK(, \w+)*; rules/dak/dak\.rules:6\)", out[1])
    assert out[2].startswith("1 change; unchanged: ") and "OCS" in out[2]
    assert main(["diff", str(old), str(RULES), "--exit-code"]) == 1
    assert main(["diff", str(RULES), str(RULES), "--exit-code"]) == 0


def test_two_git_revisions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], check=True)
    without_dak_override(repo)
    subprocess.run([*git, "add", "rules"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "series only"], check=True)
    shutil.copy(RULES / "dak" / "dak.rules", repo / "rules" / "dak" / "dak.rules")
    subprocess.run([*git, "commit", "-q", "-am", "DAK 4.5a F"], check=True)
    monkeypatch.chdir(repo)
    assert main(["diff", "HEAD~1", "HEAD"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("rulec diff HEAD~1 (") and lines[2].startswith("1 change;")
    assert re.fullmatch(r"4\.5a F: negation removed  \(DAK(, \w+)*; rules/dak/dak\.rules:6\)", lines[1])
    assert main(["diff", "no-such-revision", "HEAD"]) == 2


def test_other_kinds_of_change_read_as_a_designer_would(tmp_path: Path) -> None:
    new_tree = tmp_path / "new" / "rules"
    shutil.copytree(RULES, new_tree)
    ch4 = new_tree / "ocs" / "ch4-general-concepts.rules"
    text = ch4.read_text(encoding="utf-8")
    edits = [
        ('battalion: when u.size == battalion => 1/2', 'battalion: when u.size == battalion => 1'),
        ('ports "Ports": count(u for u in h.units where u.type == port) at most 1',
         'ports "Ports": count(u for u in h.units where u.type == port) at most 2'),
        ('note design "The RE concept has its roots in the GDW Europa games."', ''),
        ('- K "Repl Rebuilds"', '- K "Repl Rebuilds" negatable'),
    ]
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    ch4.write_text(text, encoding="utf-8")
    changes = diff.diff_models(models_of(RULES), models_of(new_tree))
    ocs = {(c.key, c.what) for c in changes if c.ruleset == "OCS"}
    assert ("4.6 re_size.battalion", "value 1/2 → 1") in ocs
    assert ("4.8 stacking.ports", "at most 1 → 2") in ocs
    assert ("4.6", 'design note "The RE concept has its roots in the GDW Europa games." removed') in ocs
    assert ("4.5a K", "negation added") in ocs
    assert {"OCS", "DAK"} <= {c.ruleset for c in changes}  # a series change shows in every game built on it


def test_sheets_mark_changed_clauses_with_a_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = without_dak_override(tmp_path)
    out = tmp_path / "marked"
    assert main(["diff", str(old), str(RULES), "--sheets", str(out)]) == 0
    dak = (out / "dak" / "4-0-general-concepts.md").read_text(encoding="utf-8")
    ocs = (out / "ocs" / "4-0-general-concepts.md").read_text(encoding="utf-8")
    assert "* ✓ **F) Port Operations - Trace Supply.**" in dak
    assert "✓ **4.5a Actions not allowed in an enemy ZOC.**" in dak
    assert "* ✓" not in ocs and "✓ **4.5a" not in ocs
    assert "✓ marks a clause that changed since " in dak
