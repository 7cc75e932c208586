"""A build killed while printing leaves nothing behind for long: the next run removes its
temporary folders, and no browser outlives it (the kernel kills Chromium with its parent).
SIGTERM ends a build as Ctrl-C does, cleaning up on the way out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulec import printing

ROOT = Path(__file__).resolve().parent.parent

needs_chromium = pytest.mark.skipif(printing.find_chromium() is None,
                                    reason="chromium is not installed (.ci/run installs it)")


def _start_build(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path]:
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "rulec", "build", "--no-cache", "--rules", str(ROOT / "rules"),
                             "--out", str(tmp_path / "out")], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    # Printing is under way: the browser was started with the build, which hands it the cards as soon
    # as the rules are resolved (build.feed_cards) and prints them while it goes on, and the build has
    # begun writing its staging folder (after its modules and examples), seconds before the last print.
    while not (list(tmp.glob("rulec-chromium-*")) and list(tmp_path.glob(".out.new-*"))):
        assert proc.poll() is None, "the build ended before it printed"
        assert time.monotonic() < deadline, "the build never started printing"
        time.sleep(0.02)
    return proc, tmp


def _browsers_on(tmp: Path) -> list[int]:
    found = []
    for n in os.listdir("/proc"):
        if n.isdigit():
            try:
                args = Path(f"/proc/{n}/cmdline").read_bytes()
            except OSError:
                continue
            if f"--user-data-dir={tmp}/rulec-chromium-".encode() in args:
                found.append(int(n))
    return found


@needs_chromium
def test_a_build_killed_while_printing_leaves_no_browser_and_the_next_run_removes_its_folders(
        tmp_path: Path) -> None:
    proc, tmp = _start_build(tmp_path)
    proc.kill()
    proc.wait()
    left = sorted(p.name for p in tmp.iterdir())
    assert any(n.startswith(f"rulec-chromium-{proc.pid}-") for n in left)
    deadline = time.monotonic() + 10
    while _browsers_on(tmp) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _browsers_on(tmp) == [], "a browser outlived the build that started it"
    (tmp / f"rulec-print-{os.getpid()}-alive").mkdir()  # a running rulec's folder is left alone
    (tmp / "rulec-print-notapid-x").mkdir()  # and so is anything not named as rulec names its own
    removed = printing.clean_leftovers([tmp])
    assert sorted(p.name for p in removed) == sorted(n for n in left if n.startswith("rulec-"))
    assert sorted(p.name for p in tmp.iterdir()) == sorted([f"rulec-print-{os.getpid()}-alive",
                                                            "rulec-print-notapid-x"])


@needs_chromium
def test_sigterm_while_printing_cleans_up_and_exits_130(tmp_path: Path) -> None:
    proc, tmp = _start_build(tmp_path)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"rulec: interrupted" in err and b"internal error" not in err, err.decode()
    assert list(tmp.iterdir()) == []
    assert _browsers_on(tmp) == []
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


@needs_chromium
def test_a_build_closes_its_browser_whether_it_printed_or_not(tmp_path: Path) -> None:
    """A build starts its browser as it starts (cli._printer) and closes it as it ends: after a build
    that prints its cards, and after one whose edit changes no card (a comment), which started the
    browser for nothing, no browser is left on its profile and no folder of rulec's in the temporary
    folder."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "zoc.rules").write_text((ROOT / "rules" / "zoc-classes" / "zoc.rules").read_text("utf-8"), "utf-8")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT)}
    build = [sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(tmp_path / "out"),
             "--cache", str(tmp_path / "cache")]
    first = subprocess.run(build, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert list((tmp_path / "out").rglob("*.pdf")), "the first build printed nothing"
    assert _browsers_on(tmp) == [] and list(tmp.iterdir()) == [], (_browsers_on(tmp), list(tmp.rglob("*")))
    with (rules / "zoc.rules").open("a", encoding="utf-8") as f:
        f.write("\n# a comment, on no card\n")
    pdfs = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*.pdf")}
    second = subprocess.run(build, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "up to date" not in second.stdout  # the edit was built, with a browser started for it
    assert {p: p.read_bytes() for p in (tmp_path / "out").rglob("*.pdf")} == pdfs
    assert _browsers_on(tmp) == [] and list(tmp.iterdir()) == [], (_browsers_on(tmp), list(tmp.rglob("*")))
