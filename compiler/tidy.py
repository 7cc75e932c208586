"""Cleaning up: removing a folder tree without letting an interrupt break it halfway, and telling
whether the process that left something is still there."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path


def remove_tree(path: Path | str) -> None:
    """shutil.rmtree, with Ctrl-C and SIGTERM held until it is done (they arrive right after): an
    interrupt raised inside it, as it closed a folder, made it close the folder again, and a build
    ended in 'Bad file descriptor' instead of being interrupted (found by tests/fuzz_faults.py)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        shutil.rmtree(path, ignore_errors=True)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def alive(pid: int) -> bool:
    """Whether process pid may still be running (when in doubt, yes: what it left is kept)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # PermissionError: another user's, alive
        return True
    return True
