"""The build cache's own files, sealed, and the manifest of the last build: a no-op `rulec build`
does nothing, and finds that out importing nothing of the compiler (this module needs only the
standard library), so its browser can start before the compiler is imported (cli._build).

When neither the rules nor rulec itself changed since the last build into the same output folder,
and every file there is still the one that build wrote (same size and modification time), the
build is skipped. The key is a hash of content, so a stale entry is never used: it is not found.

The cache folder sits in the project, where a pull request can put files: so every file rulec
keeps there is sealed with an HMAC-SHA256 under a secret of the user's own (`cache-key` in the
user's cache folder, never in the project), over the file's name and its bytes. A file that is not
sealed by this user's rulec (planted, copied from another machine, damaged) is not read at all:
it is a miss, and the build makes what it would have held afresh. So the cache can make a build
faster and nothing else: it cannot put anything in an output that a fresh build would not.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import tempfile
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .tidy import alive

if TYPE_CHECKING:
    from .writing import Written


def user_cache_folder() -> Path | None:
    """rulec's folder in the user's cache ($XDG_CACHE_HOME/rulec or ~/.cache/rulec), made if need
    be; None where it cannot be."""
    try:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulec"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # RuntimeError: no home folder
        return None
    return folder


FORMAT = 2  # bump when what is stored changes shape
SEAL = b"rulec cache 2\n"  # the first bytes of every file kept, before its HMAC


@cache
def _secret() -> bytes:
    """This user's key for the cache's seals: 32 random bytes in the user's cache folder, made on
    first use, readable by the user alone. Where it cannot be kept, a key for this process only
    (the cache then serves the builds of one process: --watch)."""
    folder = user_cache_folder()
    if folder is None:
        return os.urandom(32)
    path = folder / "cache-key"
    try:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            key = path.read_bytes()
        else:
            key = os.urandom(32)
            with os.fdopen(fd, "wb") as fh:
                fh.write(key)
        if len(key) == 32:
            return key
    except OSError:
        pass
    return os.urandom(32)


def _mac(path: Path, data: bytes) -> bytes:
    label = f"{path.parent.name}/{path.name}".encode("utf-8", "surrogateescape")
    return hmac.new(_secret(), label + b"\0" + data, hashlib.sha256).digest()


def sealed(path: Path, data: bytes) -> bytes:
    """data as kept at path: the seal's mark, its HMAC, then data."""
    return SEAL + _mac(path, data) + data


def unsealed(path: Path, kept: bytes) -> bytes | None:
    """The data a file of the cache holds, if this user's rulec sealed it for this path; else None."""
    if not kept.startswith(SEAL):
        return None
    mac, data = kept[len(SEAL):len(SEAL) + 32], kept[len(SEAL) + 32:]
    return data if hmac.compare_digest(mac, _mac(path, data)) else None


def keep_sealed(path: Path, data: bytes) -> None:
    """Keep data at path, sealed (read_sealed reads it back); a file that cannot be written is only
    not kept."""
    _write_file(path, sealed(path, data))


def read_sealed(path: Path) -> bytes | None:
    try:
        return unsealed(path, path.read_bytes())
    except OSError:
        return None


@cache
def fingerprint() -> str:
    """rulec's own code, grammar, schemas and templates: a new rulec makes every entry stale."""
    h = hashlib.sha256(f"rulec-cache {FORMAT}".encode())
    package = Path(__file__).resolve().parent
    files = [p for p in package.rglob("*") if p.is_file() and p.suffix in (".py", ".lark", ".json", ".j2", ".css")]
    for p in sorted(files):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def tree_key(sources: dict[str, str], can_print: bool, rulesets: tuple[str, ...] = (),
             assets: dict[str, bytes] | None = None) -> str:
    """The build's key: rulec, the sources and the themes' files, whether cards can be printed here,
    and which rulesets are built."""
    h = hashlib.sha256(f"{fingerprint()} print={can_print} rulesets={','.join(rulesets)}".encode())
    for name in sorted(sources):
        data = sources[name].encode("utf-8", "surrogatepass")
        h.update(f"{name}\0{len(data)}\0".encode() + data)
    for name, blob in sorted((assets or {}).items()):
        h.update(f"asset {name}\0{len(blob)}\0".encode() + blob)
    return h.hexdigest()


class BuildCache:
    def __init__(self, folder: Path):
        self.folder = folder
        self.restamp = False  # up_to_date found a file touched since the last build: record stamps all
        self._read: dict[Path, dict[str, Any] | None] = {}  # each manifest as this run first read it

    # ---- the whole build -------------------------------------------------------------------

    def _manifest_path(self, out_dir: Path) -> Path:
        where = hashlib.sha256(str(out_dir.resolve()).encode()).hexdigest()[:16]
        return self.folder / f"build-{where}.json"

    def _manifest(self, out_dir: Path) -> dict[str, Any] | None:
        """The last build's manifest for out_dir, read once a run: up_to_date reads it before the
        build, record takes its stamps after (a read right after writing thousands of files can
        wait half a second on the disk)."""
        path = self._manifest_path(out_dir)
        if path not in self._read:
            data = read_sealed(path)
            try:
                manifest = json.loads(data) if data is not None else None
            except ValueError:
                manifest = None
            ok = isinstance(manifest, dict) and isinstance(manifest.get("files", {}), dict)
            self._read[path] = manifest if ok else None
        return self._read[path]

    def up_to_date(self, key: str, out_dir: Path) -> bool:
        """The last build into out_dir was of exactly these sources, and out_dir is as it left it."""
        manifest = self._manifest(out_dir)
        if manifest is None or manifest.get("key") != key or not out_dir.is_dir():
            return False
        files: dict[str, list[int]] = manifest.get("files", {})
        seen = 0
        for rel, stamp in _stamps(out_dir):
            if files.get(rel) != stamp:
                self.restamp = True  # a file was touched since: record stamps every file again
                return False
            seen += 1
        self.restamp = seen != len(files)
        return not self.restamp

    def known(self, out_dir: Path) -> dict[str, tuple[int, int, str]]:
        """Each file of out_dir the last build recorded with a digest (one it wrote from a kept
        text): its [size, mtime_ns] as that build left it, and the digest (writing.write_atomic)."""
        manifest = self._manifest(out_dir)
        if manifest is None:
            return {}
        files, digests = manifest.get("files", {}), manifest.get("digests", {})
        if not isinstance(digests, dict):
            return {}
        out = {}
        for rel, digest in digests.items():
            stamp = files.get(rel)
            if isinstance(digest, str) and isinstance(stamp, list) and len(stamp) == 2 \
                    and all(isinstance(x, int) for x in stamp):
                out[rel] = (stamp[0], stamp[1], digest)
        return out

    def was_compiled(self, out_dir: Path) -> bool:
        """The last build into out_dir was a compiled one (`rulec build --compiled`)."""
        manifest = self._manifest(out_dir)
        return manifest is not None and manifest.get("compiled") is True

    def record(self, key: str, out_dir: Path, written: Written | None = None, compiled: bool = False) -> None:
        """Stamp out_dir as the build of key left it. written: what the build changed in it, so
        only those files are stamped again and the others keep the last manifest's stamps (the
        writer has just read each and found it as this build makes it): after a one-file change,
        a handful of stat calls, not one per file (8,000 at 10,000 clauses, slow after a write).
        A stamp kept that is no longer the file's only makes the next no-op check build again;
        where the count does not come out as the build's, every file is stamped. The digest of each
        file the build wrote from a kept text is recorded too (known): the folder holds that text."""
        files: dict[str, list[int]] | None = None
        last = self._manifest(out_dir) if written is not None and not self.restamp else None
        if written is not None and last is not None:
            files = dict(last.get("files", {}))
            for rel in written.removed:
                files.pop(rel, None)
            for rel in (*written.added, *written.rewritten):
                try:
                    st = os.stat(out_dir / rel)
                    files[rel] = [st.st_size, st.st_mtime_ns]
                except OSError:
                    files = None
                    break
            if files is not None and len(files) != written.count:
                files = None
        if files is None:
            files = dict(_stamps(out_dir))
        digests = dict(written.digests) if written is not None else {}
        manifest = {"key": key, "files": files, "digests": digests, "compiled": compiled}
        path = self._manifest_path(out_dir)
        self._read[path] = manifest
        _write_file(path, sealed(path, json.dumps(manifest).encode()))
        sweep(self.folder)


def _write_file(path: Path, data: bytes) -> None:
    """Write by renaming a finished file into place (a reader never sees half of one), from a
    temporary file of its own (two builds sharing the cache never write into one). A cache that
    cannot be written is only slower."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem[:16]}.{os.getpid()}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def prune_folder(folder: Path, keep: set[str], suffixes: tuple[str, ...] = ("pickle",)) -> None:
    """Delete every entry of folder (<key>.<suffix>) whose key is not in keep, and temporary files
    left by a crash."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        stem, _, suffix = name.partition(".")
        if suffix in suffixes and stem not in keep:
            try:
                (folder / name).unlink()
            except OSError:
                pass
    sweep(folder)


_TEMPORARY = re.compile(r"\.[^/]*\.(\d+)\.[^./]*\.tmp")  # _write_file's: .<stem>.<pid>.<random>.tmp


def sweep(folder: Path) -> None:
    """Remove the temporary files a killed rulec left in folder: those of a process that is gone
    (the pid is in the name), and any an hour old (another machine's, on a shared folder)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.endswith(".tmp"):
            continue
        found = _TEMPORARY.fullmatch(name)
        path = folder / name
        if (found is not None and not alive(int(found.group(1)))) or _older_than(path, 3600):
            try:
                path.unlink()
            except OSError:
                pass


def _older_than(path: Path, seconds: float) -> bool:
    try:
        return path.stat().st_mtime < time.time() - seconds
    except OSError:
        return False


def _stamps(folder: Path) -> Iterator[tuple[str, list[int]]]:
    """Each file under folder by its path from there ('cards/ocs/x.html') and its [size, mtime_ns],
    as os.walk finds them (a link to a folder is not gone into; a link to a file is stamped as the
    file), read from os.scandir's entries: a 10,000-clause build's 8,000 output files are stamped
    after every build and looked at before it."""
    def walk(base: str, prefix: str) -> Iterator[tuple[str, list[int]]]:
        try:
            with os.scandir(base) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:  # a folder that cannot be read is left out, as os.walk leaves it
            return
        for e in entries:
            if e.is_dir():
                if not e.is_symlink():
                    yield from walk(e.path, f"{prefix}{e.name}/")
                continue
            try:
                st = e.stat()
                stamp = [st.st_size, st.st_mtime_ns]
            except OSError:  # a link to nothing: a stamp no file has, so the next build looks again
                stamp = [-1, -1]
            yield f"{prefix}{e.name}", stamp

    yield from walk(str(folder), "")
