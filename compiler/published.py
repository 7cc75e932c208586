"""The generated files docs/ holds a copy of: docs/traceability.md is generated/traceability.md,
byte for byte. The build writes generated/ first (atomically, as ever), then copies the file into
docs/ beside it (a temporary file renamed into place), so a failed build leaves both as they were.
Only where out_dir has a docs/ folder beside it (the project's generated/ and docs/): a build into
another folder writes nothing else. The standard library alone: a no-op `rulec build` publishes too.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

TRACEABILITY = "traceability.md"  # under generated/ (traceability.py), and copied to docs/
PUBLISHED = {TRACEABILITY: "traceability.md"}  # generated/ file -> docs/ file


def docs_dir(out_dir: Path) -> Path | None:
    found = out_dir.resolve().parent / "docs"
    return found if found.is_dir() else None


def publish_docs(out_dir: Path) -> list[str]:
    """Copy the generated files docs/ holds from out_dir into docs/ where they differ; returns the
    docs/ files written."""
    docs = docs_dir(out_dir)
    written: list[str] = []
    if docs is None:
        return written
    for rel, name in sorted(PUBLISHED.items()):
        source = out_dir / rel
        if not source.is_file():
            continue
        data = source.read_bytes()
        target = docs / name
        if target.is_file() and not target.is_symlink() and target.read_bytes() == data:
            continue
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.new-", dir=docs)
        try:
            os.fchmod(fd, (target.stat().st_mode & 0o777) if target.is_file() else 0o644)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        written.append(f"{docs.name}/{name}")
    return written


def docs_differences(texts: Mapping[str, str], out_dir: Path) -> list[str]:
    """What publish_docs would change in docs/, given the generated texts (by generated/ path)."""
    docs = docs_dir(out_dir)
    if docs is None:
        return []
    found = []
    for rel, name in sorted(PUBLISHED.items()):
        if rel not in texts:
            continue
        target = docs / name
        if not target.is_file():
            found.append(f"missing: {docs.name}/{name}")
        elif target.read_bytes() != texts[rel].encode("utf-8"):
            found.append(f"differs: {docs.name}/{name}")
    return found


