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
    while not list(tmp.glob("rulec-chromium-*")):  # printing has started
        assert proc.poll() is None, "the build ended before it printed"
        assert time.monotonic() < deadline, "the build never started its browser"
        time.sleep(0.05)
    time.sleep(0.5)
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
