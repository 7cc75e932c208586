"""rulec build --watch prints the cards that change, with one Chromium kept open between builds."""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from conftest import ROOT, files_of

from rulec import printing
from rulec.cli import main
from rulec.watch import Watcher

pytestmark = pytest.mark.skipif(printing.find_chromium() is None,
                                reason="chromium is not installed (Debian package 'chromium'; .ci/run installs it)")

EDITED = "Total combat supply required for an attack"  # a clause's text that one card of ZCS shows


def _tree(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "zoc-classes", rules / "zoc-classes")
    return rules


def _edit(rules: Path, n: int) -> None:
    f = rules / "zoc-classes" / "zoc.rules"
    text = f.read_text(encoding="utf-8")
    text = re.sub(r"(\(Edit \d+\.\) )?" + EDITED, f"(Edit {n}.) {EDITED}", text, count=1)
    f.write_text(text, encoding="utf-8")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))  # a coarse clock still sees it


def _built(rules: Path, out: Path) -> dict[str, bytes]:
    """What a plain `rulec build` (printing) makes of the rules."""
    shutil.rmtree(out, ignore_errors=True)
    assert main(["build", "--rules", str(rules), "--out", str(out), "--no-cache"]) == 0
    return files_of(out)


def test_the_watcher_prints_only_the_changed_cards_with_one_browser(tmp_path: Path) -> None:
    rules = _tree(tmp_path)
    kept = printing.KeptBrowser(printing.find_chromium() or "")
    said: list[str] = []
    w = Watcher(rules, tmp_path / "watched", said.append, printer=kept)

    def built_by_watcher() -> None:  # a build that did not print says so, and is not compared
        assert w.poll()
        assert not [line for line in said if "was left as it was" in line], said

    try:
        built_by_watcher()
        first = files_of(w.out)
        assert first == _built(rules, tmp_path / "built")  # every print, byte for byte as a build makes it
        prints = sorted(rel for rel in first if rel.endswith((".pdf", ".png")))
        assert len(prints) >= 6
        mtimes = {rel: (w.out / rel).stat().st_mtime_ns for rel in prints}

        _edit(rules, 1)
        built_by_watcher()
        second = files_of(w.out)
        cards = {rel for rel in first if printing.is_card(rel) and first[rel] != second[rel]}
        assert len(cards) == 1, cards  # the edit shows on one card
        card = cards.pop()[:-len(".html")]
        again = {rel for rel in prints if first[rel] != second[rel]}
        assert again == {rel for rel in prints if rel.startswith(card + ".")}  # its PDFs and PNG, no other
        assert all((w.out / rel).stat().st_mtime_ns == mtimes[rel] for rel in prints if rel not in again)
        assert second == _built(rules, tmp_path / "built")
        assert kept.started == 1  # one browser for both builds

        _edit(rules, 2)
        built_by_watcher()
        assert kept.started == 1
        assert files_of(w.out) == _built(rules, tmp_path / "built")
        assert not any("skipped" in line for line in said)
    finally:
        kept.close()
    assert kept.browser is None


def test_a_browser_that_died_between_builds_is_started_again(tmp_path: Path) -> None:
    rules = _tree(tmp_path)
    kept = printing.KeptBrowser(printing.find_chromium() or "")
    w = Watcher(rules, tmp_path / "watched", lambda line: None, printer=kept)
    try:
        assert w.poll()
        assert kept.browser is not None
        profile = Path(kept.browser.profile)
        os.kill(kept.browser.proc.pid, signal.SIGKILL)
        kept.browser.proc.wait()
        _edit(rules, 1)
        assert w.poll()
        assert kept.started == 2
        assert not profile.exists()  # the dead one's profile is removed
        assert files_of(w.out) == _built(rules, tmp_path / "built")
    finally:
        kept.close()


def test_a_browser_that_fails_leaves_the_output_as_it_was(tmp_path: Path) -> None:
    rules = _tree(tmp_path)
    said: list[str] = []
    failing = printing.KeptBrowser(shutil.which("false") or "false")  # a "browser" that exits at once
    w = Watcher(rules, tmp_path / "watched", said.append, printer=failing)
    assert w.poll()
    assert any(line.startswith("rulec: cannot print the cards:") for line in said)
    assert not w.out.exists()  # nothing written, not even the text outputs


def test_rulec_build_watch_prints_and_closes_its_browser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _tree(tmp_path)
    out = tmp_path / "watched"
    assert main(["build", "--watch", "--rules", str(rules), "--out", str(out), "--iterations", "1"]) == 0
    said = capsys.readouterr().out
    assert "the cards that change are printed again" in said
    assert {rel for rel in files_of(out) if rel.endswith(".pdf")}  # printed
    for tmp in {Path(tempfile.gettempdir()), Path(printing.SHORT_TMP)}:  # closed, its profile removed
        assert not list(tmp.glob(f"rulec-chromium-{os.getpid()}-*"))
    assert not _browsers_of(os.getpid())

    plain = tmp_path / "plain"
    assert main(["build", "--watch", "--no-print", "--rules", str(rules), "--out", str(plain),
                 "--iterations", "1"]) == 0
    assert "cards are not printed" in capsys.readouterr().out
    assert not {rel for rel in files_of(plain) if rel.endswith((".pdf", ".png"))}


def _browsers_of(pid: int) -> list[int]:
    """Chromium processes started on a profile of this process (rulec-chromium-<pid>-...)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if f"rulec-chromium-{pid}-".encode() in f.read():
                    found.append(int(name))
        except OSError:
            continue
    return found
