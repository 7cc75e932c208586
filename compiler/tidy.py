"""Cleaning up: removing a folder tree without letting an interrupt break it halfway, and telling
whether the process that left something is still there."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType


def remove_tree(path: Path | str) -> None:
    """shutil.rmtree, with Ctrl-C and SIGTERM held until it is done (they arrive right after): an
    interrupt raised inside it, as it closed a folder, made it close the folder again, and a build
    ended in 'Bad file descriptor' instead of being interrupted (found by tests/fuzz_faults.py)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        shutil.rmtree(path, ignore_errors=True)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait until the block is done, then arrive as they would have
    (rulec's handler raises KeyboardInterrupt; a default one ends the process). For work that must
    not stop halfway, such as moving a committed build's files into place. The handlers are
    swapped, not the signal mask, so a signal delivered to another thread waits too; off the main
    thread, where handlers cannot be set, the mask of this thread is used."""
    if threading.current_thread() is not threading.main_thread():
        held = signal.pthread_sigmask(signal.SIG_BLOCK, set(HELD))
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        return
    arrived: list[int] = []

    def later(signum: int, frame: FrameType | None) -> None:
        arrived.append(signum)

    previous = {sig: signal.signal(sig, later) for sig in HELD}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        if arrived:
            signal.raise_signal(arrived[0])


def alive(pid: int) -> bool:
    """Whether process pid may still be running (when in doubt, yes: what it left is kept)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # PermissionError: another user's, alive
        return True
    return True
