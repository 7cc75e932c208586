"""A content-hash build cache (.rulec-cache/, never committed): a no-op `rulec build` does nothing.

When neither the rules nor rulec itself changed since the last build into the same output folder,
and every file there is still the one that build wrote (same size and modification time), the
build is skipped. The key is a hash of content, so a stale entry is never used: it is not found.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from functools import cache
from pathlib import Path

FORMAT = 1  # bump when what is stored changes shape


@cache
def fingerprint() -> str:
    """rulec's own code, grammar, schemas and templates: a new rulec makes every entry stale."""
    h = hashlib.sha256(f"rulec-cache {FORMAT}".encode())
    package = Path(__file__).resolve().parent
    files = [p for p in package.rglob("*") if p.is_file() and p.suffix in (".py", ".lark", ".json", ".j2", ".css")]
    grammar = package.parent / "grammar" / "rules.lark"
    if grammar.is_file():
        files.append(grammar)
    for p in sorted(files):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def tree_key(sources: dict[str, str], can_print: bool) -> str:
    """The build's key: rulec, the sources, and whether cards can be printed here."""
    h = hashlib.sha256(f"{fingerprint()} print={can_print}".encode())
    for name in sorted(sources):
        data = sources[name].encode("utf-8", "surrogatepass")
        h.update(f"{name}\0{len(data)}\0".encode() + data)
    return h.hexdigest()


class BuildCache:
    def __init__(self, folder: Path):
        self.folder = folder

    # ---- the whole build -------------------------------------------------------------------

    def _manifest_path(self, out_dir: Path) -> Path:
        where = hashlib.sha256(str(out_dir.resolve()).encode()).hexdigest()[:16]
        return self.folder / f"build-{where}.json"

    def up_to_date(self, key: str, out_dir: Path) -> bool:
        """The last build into out_dir was of exactly these sources, and out_dir is as it left it."""
        try:
            manifest = json.loads(self._manifest_path(out_dir).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if manifest.get("key") != key or not out_dir.is_dir():
            return False
        files: dict[str, list[int]] = manifest.get("files", {})
        seen = 0
        for path in _walk(out_dir):
            rel = path.relative_to(out_dir).as_posix()
            stamp = files.get(rel)
            if stamp is None:
                return False
            st = path.stat()
            if [st.st_size, st.st_mtime_ns] != stamp:
                return False
            seen += 1
        return seen == len(files)

    def record(self, key: str, out_dir: Path) -> None:
        files = {}
        for path in _walk(out_dir):
            st = path.stat()
            files[path.relative_to(out_dir).as_posix()] = [st.st_size, st.st_mtime_ns]
        self._write(self._manifest_path(out_dir), json.dumps({"key": key, "files": files}).encode())

    def _write(self, path: Path, data: bytes) -> None:
        """Write by renaming a finished file into place: a reader never sees half of one."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written is only slower


def _walk(folder: Path) -> Iterable[Path]:
    for base, _, names in os.walk(folder):
        for n in names:
            yield Path(base) / n
