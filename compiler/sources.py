"""Read the rules files and the themes' files of the rules folders: only a regular file, only inside
its folder, never more than the limit; each named from its folder's name down."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from . import themes
from .diagnostics import Diagnostic, Span

MAX_FILE_BYTES = 2_000_000  # a rules file's size at most (limits.py holds the other bounds)


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


def find_sources(paths: list[Path], labels: list[str] | None = None) -> tuple[dict[str, str], list[Diagnostic]]:
    """Read every .rules file under the paths, named for display and for origins.

    A folder's files are named from the folder's own name down (rules/ocs/x.rules), or from its
    label where one is given (a project names two folders called rules/ by where they are),
    so the names, and every output, are the same from any working directory. Only regular files
    are read, and a file found in a folder only if it is inside that folder once links are
    followed: a link to /proc/self/environ, a pipe or a device is refused, never read."""
    sources: dict[str, str] = {}
    diags: list[Diagnostic] = []
    for i, root in enumerate(paths):
        label = labels[i] if labels is not None else None
        if root.is_dir():
            inside: Path | None = root.resolve()
            files = sorted(root.rglob("*.rules"))
            named = [(f, source_name(root, f, label)) for f in files]
        else:
            inside, named = None, [(root, _display(root.as_posix()))]
        for f, name in named:
            text = read_rules_file(f, inside)
            if isinstance(text, str):
                sources[name] = text
            else:
                diags.append(Diagnostic(Span(name, 1, 1, 1, 1), text[0], f"cannot read {name}: {text[1]}"))
    return sources, diags


def find_assets(paths: list[Path], labels: list[str] | None = None) -> dict[str, bytes]:
    """The files a theme may use (themes.ASSET_SUFFIXES) under the rules folders, named as the rules
    files are (rules/dak/theme/card.css); read as the rules are, never outside their folder."""
    assets: dict[str, bytes] = {}
    for i, root in enumerate(paths):
        if not root.is_dir():
            continue
        inside = root.resolve()
        for f in sorted(root.rglob("*")):
            if f.suffix.lower() in themes.ASSET_SUFFIXES:
                data = read_asset(f, inside, themes.MAX_ASSET)
                if data is not None:
                    assets[source_name(root, f, labels[i] if labels is not None else None)] = data
    return assets


def source_name(root: Path, f: Path, label: str | None = None) -> str:
    """The name of file f of folder root: from the folder's own name (or its label) down (rules/ocs/x.rules)."""
    return _display(f"{label or root.resolve().name}/{f.relative_to(root).as_posix()}")


def _display(name: str) -> str:
    """A file's name as diagnostics, origins and generated comments show it: a line break, control
    character or bidi mark in a file name is written as an escape (\\n, \\u202e), never as itself."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in name)
