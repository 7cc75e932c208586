"""The same rules give the same generated/, byte for byte: whatever PYTHONHASHSEED, whatever order
the files were created in (and so listed in), from whatever working directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import RULES, files_of


def copy_tree(src: Path, dst: Path, reverse: bool) -> None:
    """Copy the rules, creating the files (and folders) in sorted or reversed order."""
    files = sorted(p for p in src.rglob("*.rules"))
    for f in reversed(files) if reverse else files:
        target = dst / f.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)


def build(rules: Path, out: Path, cwd: Path, seed: str) -> None:
    env = {**os.environ, "PYTHONHASHSEED": seed, "RULEC_CHROMIUM": "no-such-chromium-for-rulec-tests"}
    run = subprocess.run([sys.executable, "-m", "rulec", "build", "--no-print", "--rules", str(rules),
                          "--out", str(out), "--cache", str(cwd / "cache")], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "rules", tmp_path / "deep" / "er" / "b" / "rules"  # the folder's own name is in origins
    copy_tree(RULES, a, reverse=False)
    copy_tree(RULES, b, reverse=True)
    (tmp_path / "cwd1").mkdir()
    (tmp_path / "cwd2" / "x").mkdir(parents=True)
    build(a, tmp_path / "out1", tmp_path / "cwd1", "0")
    build(Path("../..") / b.relative_to(tmp_path), Path("../../out2"), tmp_path / "cwd2" / "x", "4242")  # relative
    one, two = files_of(tmp_path / "out1"), files_of(tmp_path / "out2")
    assert one and set(one) == set(two)
    assert [rel for rel in one if one[rel] != two[rel]] == []
    assert any(rel.startswith("python/") for rel in one) and any(rel.startswith("cards/") for rel in one)


def test_two_clean_builds_print_byte_identical_cards(tmp_path: Path) -> None:
    """With Chromium here, the prints too: PDFs (dates fixed) and PNGs, of a page card and a poker card."""
    import pytest

    from rulec import printing
    from tests.test_cards_declared import GAME, SERIES
    if printing.find_chromium() is None:
        pytest.skip("chromium is not installed (Debian package 'chromium'; .ci/run installs it)")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "s.rules").write_text(SERIES, encoding="utf-8")
    (rules / "g.rules").write_text(GAME, encoding="utf-8")
    trees = []
    for n in (1, 2):
        out = tmp_path / f"out{n}"
        run = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(out),
                              "--cache", str(tmp_path / f"cache{n}")], cwd=tmp_path, capture_output=True, text=True,
                             timeout=600)
        assert run.returncode == 0, run.stderr
        trees.append(files_of(out))
    one, two = trees
    prints = [rel for rel in one if rel.endswith((".pdf", ".png"))]
    assert len(prints) >= 5 and set(one) == set(two)  # the poker card's PDF, the page card's two, and PNGs
    assert [rel for rel in one if one[rel] != two[rel]] == []
