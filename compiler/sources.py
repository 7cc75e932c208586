"""Read a rules file as text: only a regular file, only inside its folder, never more than the limit."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .limits import MAX_FILE_BYTES


def read_asset(f: Path, inside: Path, limit: int) -> bytes | None:
    """A theme's file (a style sheet, a logo, a font): its bytes, or None when it is not a regular file
    inside the rules folder once links are followed, or larger than limit. Never a pipe or a device."""
    try:
        if not f.resolve().is_relative_to(inside) or not stat.S_ISREG(f.stat().st_mode):
            return None
        fd = os.open(f, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            data = handle.read(limit + 1)
    except (OSError, RuntimeError):
        return None
    return data if len(data) <= limit else None


def read_rules_file(f: Path, inside: Path | None = None) -> str | tuple[str, str]:
    """A rules file's text, or (code, why not): not a regular file, outside `inside` once links are
    followed, larger than the limit (found while reading, so a huge file is never held), not UTF-8."""
    try:
        if inside is not None and not f.resolve().is_relative_to(inside):
            return "R004", "it is a link to a file outside the rules folder"
    except RuntimeError:  # Python 3.11's resolve() on a link that leads back to itself
        return "R004", "it is a link that leads back to itself"
    except OSError as e:
        return "R004", e.strerror or type(e).__name__
    try:
        if not stat.S_ISREG(f.stat().st_mode):
            return "R004", "it is not a regular file (a folder, a pipe or a device)"
        fd = os.open(f, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped for a pipe since
                return "R004", "it is not a regular file (a folder, a pipe or a device)"
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        return "R004", e.strerror or type(e).__name__
    if len(data) > MAX_FILE_BYTES:
        return "R005", f"it is larger than {MAX_FILE_BYTES:,} bytes; split the rules into several files"
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "R004", "it is not UTF-8 text"
