"""Writing the output folder: only the files whose bytes changed, and never a mix of two builds.

A build that finds its output folder already there compares each file it made with the file on
disk and writes only those that differ, so a one-file change in a tree of thousands of files
writes a handful. It stays all-or-nothing through a journal, as a database does:

1. Stage. The changed files are written into a fresh folder beside the output
   (`.generated.new-*`), with `journal.json`: which files replace or join the output's, which are
   removed. Everything is made durable (syncfs). Folders the new files need are made in the output
   (an empty folder is no file of either build).
2. Commit. The staging folder is renamed `.generated.commit-<pid>`, one atomic rename. Before it,
   any failure or interrupt leaves the output as it was and removes the staging folder.
3. Apply. With Ctrl-C and SIGTERM held, the removed files are unlinked and each changed file is
   renamed into place (each file whole: rename replaces it in one step), the result made durable,
   then the commit folder renamed `.generated.old-<pid>` (done) and removed. An error here is tried
   once more; an interrupt waits for the end.

Only a kill that cannot be held (SIGKILL, power loss) can stop the apply halfway. The output then
holds new and old files, and the commit folder that finishes it: the next build (any `rulec
build` into that folder, before it reads anything) applies the journal again, which is idempotent,
and so the output is the new one. A first build, into a folder that is not there yet, writes
everything into the staging folder and renames it into place.

One build at a time writes beside an output folder: a lock on the folder that holds it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import functools
import glob
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .cache import KeptText
from .compiled import is_compiled
from .tidy import interrupts_held, remove_tree

Content = str | bytes | KeptText  # text outputs (made, or kept by a build cache), and prints (PDF, PNG)
Known = Mapping[str, tuple[int, int, str]]  # a file as the last build left it: its size, mtime_ns and SHA-256

JOURNAL = "journal.json"  # in a staging or commit folder, beside its files/ folder


@dataclass(frozen=True)
class Written:
    """What write_atomic did: how many files the output folder now holds from the build, and
    which of them it added, rewrote or removed (paths relative to the folder, in path order)."""

    count: int
    added: tuple[str, ...] = ()
    rewritten: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    # each file that came kept (KeptText) and its SHA-256, which the folder now holds: for the next
    # build's `known`
    digests: tuple[tuple[str, str], ...] = ()

    @property
    def changed(self) -> int:
        """How many files the build added, rewrote or removed."""
        return len(self.added) + len(self.rewritten) + len(self.removed)

    def changes(self) -> list[str]:
        """One line per changed file, in path order: 'added x', 'wrote x' or 'removed x'."""
        said = [(rel, "added") for rel in self.added] + [(rel, "wrote") for rel in self.rewritten]
        said += [(rel, "removed") for rel in self.removed]
        return [f"{verb} {rel}" for rel, verb in sorted(said)]


class Unfinished(OSError):
    """The apply failed twice after the commit: the output holds old and new files until the next
    build finishes it from the commit folder."""


def differences(files: Mapping[str, Content] | Iterable[tuple[str, Content]], out_dir: Path) -> list[str]:
    """What `build` would change in out_dir: one line per file, in path order. files: a mapping,
    or (path, content) pairs compared as they come (none is kept)."""
    existing = set(_listing(out_dir)[0]) if out_dir.is_dir() else set()
    existing = {rel for rel in existing if not is_compiled(rel)}  # `rulec build --compiled`'s, not the rules'
    found: dict[str, str] = {}
    for rel, content in (files.items() if isinstance(files, Mapping) else files):
        if rel not in existing:
            found[rel] = f"missing: {rel}"
        elif not _same(out_dir / rel, _data(content)):
            found[rel] = f"differs: {rel}"
        else:
            found[rel] = ""
    for rel in existing - set(found):
        found[rel] = f"not produced by the rules: {rel}"
    return [found[rel] for rel in sorted(found) if found[rel]]


def write_atomic(files: Mapping[str, Content] | Iterable[tuple[str, Content]], out_dir: Path,
                 then: Callable[[], Mapping[str, Content]] | None = None, known: Known | None = None) -> Written:
    """Make out_dir hold exactly these files, writing only those that changed (see the module's
    docstring for how it stays all-or-nothing). files: a mapping (written in path order), or
    (path, content) pairs written as they come, so none is kept in memory; then: more files,
    asked for once those are written (the card prints, made from the HTML just written).
    known: the files as the last build left them (cache.BuildCache.known): a file that comes kept
    (KeptText) with the digest recorded for it, and whose size and mtime are still the recorded
    ones, is taken as it is without being read or its text unpacked (the stamps the no-op check
    trusts too); any other file is compared byte for byte."""
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with _writing_beside(out_dir):
        if out_dir.is_dir() and not out_dir.is_symlink():
            return _write_changes(_all(files, then), out_dir, known or {})
        return _write_first(_all(files, then), out_dir)


def finish_interrupted(out_dir: Path) -> bool:
    """Finish a build that was killed after its commit (see the module's docstring), and remove
    what killed builds left beside out_dir; True when one was finished. write_atomic does this
    first; here for `rulec` commands and tests that want it alone."""
    out_dir = out_dir.resolve()
    if not out_dir.parent.is_dir():
        return False
    with _writing_beside(out_dir) as finished:
        return finished


def _all(files: Mapping[str, Content] | Iterable[tuple[str, Content]],
         then: Callable[[], Mapping[str, Content]] | None) -> Iterator[tuple[str, Content]]:
    yield from (sorted(files.items()) if isinstance(files, Mapping) else files)
    yield from sorted((then() if then is not None else {}).items())


@contextlib.contextmanager
def _writing_beside(out_dir: Path) -> Iterator[bool]:
    """Hold a lock on out_dir's parent folder while writing. First finish a build that was killed
    after its commit, and remove the staging folders of builds killed before theirs (and the
    .old-* folders older versions of rulec left). Yields whether a build was finished."""
    fd = os.open(out_dir.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        finished = False
        for commit in sorted(out_dir.parent.glob(f".{glob.escape(out_dir.name)}.commit-*")):
            if commit.is_dir() and not commit.is_symlink():
                if out_dir.is_dir() and not out_dir.is_symlink():
                    _finish(commit, out_dir)
                    finished = True
                else:  # the output was removed since: there is nothing to finish
                    remove_tree(commit)
        for kind in ("new", "old"):
            for left in out_dir.parent.glob(f".{glob.escape(out_dir.name)}.{kind}-*"):
                if left.is_dir() and not left.is_symlink():
                    remove_tree(left)
        yield finished
    finally:
        os.close(fd)  # and the lock with it


def _write_first(files: Iterable[tuple[str, Content]], out_dir: Path) -> Written:
    """No output folder yet: everything into a staging folder, renamed into place."""
    stage = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    written: dict[str, None] = {}
    digests: dict[str, str] = {}
    try:
        for rel, content in files:
            _write_one(stage, rel, _data(content))
            written[rel] = None
            if isinstance(content, KeptText):
                digests[rel] = content.digest
        _make_durable(stage, list(written))
        os.rename(stage, out_dir)
    finally:
        if stage.exists():
            remove_tree(stage)
    return Written(len(written), added=tuple(sorted(written)), digests=tuple(sorted(digests.items())))


def _write_changes(files: Iterable[tuple[str, Content]], out_dir: Path, known: Known) -> Written:
    """Stage the files that differ from out_dir's, commit, apply (the module's docstring)."""
    existing, folders = _listing(out_dir)
    digests: dict[str, str] = {}
    stage = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    staged = stage / "files"
    changed: dict[str, None] = {}  # in the order made
    produced: set[str] = set()
    made: list[Path] = []  # folders made in out_dir before the commit, removed again if it fails
    try:
        for rel, content in files:
            produced.add(rel)
            if isinstance(content, KeptText):
                digests[rel] = content.digest
                if existing.get(rel) and _as_known(out_dir / rel, known.get(rel), content.digest):
                    if rel in changed:  # made twice, the second time as it already is
                        del changed[rel]
                        (staged / rel).unlink()
                    continue
            data = _data(content)
            if existing.get(rel) and _same(out_dir / rel, data):
                if rel in changed:  # made twice, the second time as it already is
                    del changed[rel]
                    (staged / rel).unlink()
                continue
            _write_one(staged, rel, data)
            changed[rel] = None
        removed = sorted(set(existing) - produced)
        new = sorted(changed)
        written = Written(len(produced), added=tuple(r for r in new if r not in existing),
                          rewritten=tuple(r for r in new if r in existing), removed=tuple(removed),
                          digests=tuple(sorted(digests.items())))
        if not new and not removed:
            return written
        _write_one(stage, JOURNAL, json.dumps({"changed": new, "removed": removed}, indent=0).encode("utf-8"))
        _make_durable(stage, [f"files/{rel}" for rel in new] + [JOURNAL])
        _make_folders(out_dir, new, folders, existing, made)
        commit = out_dir.with_name(f".{out_dir.name}.commit-{os.getpid()}")
        os.rename(stage, commit)  # the commit point: from here on, the output will be the new one
    except BaseException:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    finally:
        if stage.exists():
            remove_tree(stage)
    _finish(commit, out_dir)
    return written


def _finish(commit: Path, out_dir: Path) -> None:
    """Apply a committed journal with interrupts held, once more if it fails, then remove it."""
    done = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
    with interrupts_held():
        try:
            _apply(commit, out_dir)
            os.rename(commit, done)
        except OSError:
            try:
                _apply(commit, out_dir)
                os.rename(commit, done)
            except OSError as e:
                raise Unfinished(e.errno or 0, f"{e.strerror or e}; the next 'rulec build' finishes it from "
                                 f"{commit.name}", e.filename) from e
        remove_tree(done)  # what it cannot remove, the next build does (an .old-* folder is never applied)


def _apply(commit: Path, out_dir: Path) -> None:
    """Make out_dir what a committed journal says. Idempotent: a file already moved into place is
    not in the commit folder any more, a file already removed is not there to remove."""
    _sync_folder(commit.parent)  # the commit's rename on disk before the output changes
    journal = json.loads((commit / JOURNAL).read_text(encoding="utf-8"))
    removed, changed = journal["removed"], journal["changed"]
    for rel in removed:  # files and links (never a folder: there, a new file's folder was made)
        target = out_dir / rel
        if _real_parent(out_dir, rel) and not (target.is_dir() and not target.is_symlink()):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
    for rel in changed:
        source = commit / "files" / rel
        if not os.path.lexists(source):  # moved on an earlier try
            continue
        target = out_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not _real_parent(out_dir, rel):
            raise OSError(f"refusing to write through a link in the output folder: {rel}")
        if target.is_dir() and not target.is_symlink():  # a folder of the old output, a file of the new
            remove_tree(target)
        os.replace(source, target)
    for rel in removed:  # the folders the removed files leave empty
        parent = (out_dir / rel).parent
        while parent != out_dir and _real_parent(out_dir, parent.relative_to(out_dir).as_posix()):
            try:
                parent.rmdir()
            except OSError:
                break
            parent = parent.parent
    if not _syncfs(out_dir):
        for folder in sorted({os.path.dirname(rel) for rel in changed + removed}):
            with contextlib.suppress(OSError):
                _sync_folder(out_dir / folder)


def _listing(out_dir: Path) -> tuple[dict[str, bool], set[str]]:
    """Every entry of out_dir that is not a folder (True for a regular file, False for a link or
    anything odd, which is replaced or removed), and its folders; links are never followed."""
    entries: dict[str, bool] = {}
    folders: set[str] = set()

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as it:
            for e in it:
                rel = prefix + e.name
                if e.is_dir(follow_symlinks=False):
                    folders.add(rel)
                    walk(e.path, rel + "/")
                else:
                    entries[rel] = e.is_file(follow_symlinks=False)

    walk(str(out_dir), "")
    return entries, folders


def _as_known(path: Path, recorded: tuple[int, int, str] | None, digest: str) -> bool:
    """Whether the file at path is as the last build left it (its size and mtime_ns as recorded)
    and that build recorded this digest for it."""
    if recorded is None or recorded[2] != digest:
        return False
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return (st.st_size, st.st_mtime_ns) == recorded[:2]


def _same(path: Path, data: str | bytes) -> bool:
    """Whether the file at path holds exactly data's bytes (its size first where that is known
    without encoding a text: most changes change it), compared a chunk at a time."""
    try:
        size = os.stat(path, follow_symlinks=False).st_size
        if (isinstance(data, bytes) or data.isascii()) and size != len(data):
            return False
        with open(path, "rb") as fh:
            for chunk in _chunks(data):
                if fh.read(len(chunk)) != chunk:
                    return False
            return fh.read(1) == b""
    except OSError:
        return False


def _make_folders(out_dir: Path, rels: list[str], folders: set[str], existing: Mapping[str, bool],
                  made: list[Path]) -> None:
    """Make the folders these files need in out_dir, where nothing is in the way, each added to made
    as it is made. (Where an old file or link is in the way, the apply makes the folder once it is
    removed.)"""
    for rel in rels:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if folder in folders:
                continue
            if folder in existing:
                break
            (out_dir / folder).mkdir()
            folders.add(folder)
            made.append(out_dir / folder)


def _real_parent(out_dir: Path, rel: str) -> bool:
    """Whether the folders above out_dir/rel are real folders inside out_dir (no link on the way)."""
    parent = os.path.dirname(os.path.join(out_dir, rel))
    return os.path.realpath(parent) == os.path.normpath(parent)


def _data(content: Content) -> str | bytes:
    """What is written for content: a kept text's UTF-8 bytes, unpacked once for comparing and
    writing; a text as it is, encoded as it is compared or written (_chunks); a print's bytes."""
    return content.utf8() if isinstance(content, KeptText) else content


CHUNK = 1 << 20  # characters of a text encoded at a time


def _chunks(data: str | bytes) -> Iterator[bytes]:
    """data's UTF-8 bytes, a text's a megabyte or so at a time: a large rulebook's tables.json and IR
    are tens of MB, and encoded whole they would be held twice over, as text and as bytes. (The
    bytes are text.encode("utf-8")'s: a chunk ends between two characters, and a text that UTF-8
    cannot hold, a lone surrogate, fails as it does whole.)"""
    if isinstance(data, bytes):
        yield data
        return
    for at in range(0, len(data), CHUNK):
        yield data[at:at + CHUNK].encode("utf-8")


def _write_one(folder: Path, rel: str, data: str | bytes) -> None:
    """Write data at rel under folder, a staging folder this build made (mkdtemp) and alone writes
    into, so that no link is inside it: a path whose every part is a plain name stays inside. Told
    from its parts, not by resolving it (two resolves a file took 0.5 s of writing 8,000 files)."""
    if any(part in ("", ".", "..") for part in rel.split("/")):  # an absolute path's first part is ""
        raise RuntimeError(f"refusing to write outside the output folder: {rel}")
    target = folder / rel
    try:
        fh = open(target, "wb")
    except FileNotFoundError:  # the first file of its folder
        target.parent.mkdir(parents=True, exist_ok=True)
        fh = open(target, "wb")
    with fh:
        for chunk in _chunks(data):
            fh.write(chunk)


def _make_durable(folder: Path, names: list[str]) -> None:
    """Everything written under folder on disk: one syncfs() of its file system where Linux has it
    (a build writes thousands of files; one fsync each took most of the writing time), else an
    fsync of each file and of the folder."""
    if _syncfs(folder):
        return
    for rel in names:
        fd = os.open(folder / rel, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """The folder's entries (names made, renamed or removed in it) on disk."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _syncfs(folder: Path) -> bool:
    """Linux syncfs(2) on the file system holding folder; False where unsupported or it failed."""
    found = libc()
    syncfs = getattr(found, "syncfs", None) if found is not None else None
    if syncfs is None:
        return False
    fd = os.open(folder, os.O_RDONLY)
    try:
        return bool(syncfs(fd) == 0)
    finally:
        os.close(fd)


@functools.cache
def libc() -> ctypes.CDLL | None:
    """The C library, where ctypes finds one."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None
