"""A build interrupted at any write leaves the output folder wholly old or wholly new.

write_atomic writes every file into a fresh folder beside the output and swaps the two in one
step (renameat2 RENAME_EXCHANGE; two renames where that is missing).  Here an OSError is
injected at the k-th write operation (a file opened for writing, a write, an fsync, a folder
made, a rename or the exchange), for every k, and after each the output must be exactly the old
tree or exactly the new one, with no temporary folder left beside it.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rulec import build, cli

OLD = {"ir/ocs.json": "{}\n", "python/ocs.py": "OLD = 1\n", "sheets/ocs/_index.md": "---\ntitle: old\n---\n",
       "cards/ocs/card-1.png": b"\x89PNG old", "only-old.txt": "gone in the new build\n"}
NEW = {"ir/ocs.json": '{"new": true}\n', "python/ocs.py": "NEW = 2\n", "sheets/ocs/_index.md": "---\ntitle: new\n---\n",
       "sheets/ocs/4-0-general-concepts.md": "new page\n", "cards/ocs/card-1.png": b"\x89PNG new",
       "cards/ocs/card-2.png": b"\x89PNG new 2"}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def as_bytes(files: dict[str, str | bytes]) -> dict[str, bytes]:
    return {k: v.encode() if isinstance(v, str) else v for k, v in files.items()}


class Injected(OSError):
    pass


@contextmanager
def fail_at(k: int, monkeypatch: pytest.MonkeyPatch, exchange: bool = True) -> Iterator[list[str]]:
    """Make the k-th write operation of write_atomic raise (k = 0: none does); yields the operations seen."""
    seen: list[str] = []

    def counted(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def op(*args: Any, **kwargs: Any) -> Any:
            seen.append(name)
            if len(seen) == k:
                raise Injected(f"injected failure at {name} (operation {k})")
            return real(*args, **kwargs)
        return op

    real_open = builtins.open

    class Handle:
        def __init__(self, fh: Any):
            self.fh = fh

        def __enter__(self) -> Handle:
            return self

        def __exit__(self, *exc: object) -> None:
            self.fh.close()

        def write(self, data: bytes) -> int:
            return int(counted("write", self.fh.write)(data))

        def flush(self) -> None:
            self.fh.flush()

        def fileno(self) -> int:
            return int(self.fh.fileno())

    def opener(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        fh = counted("open", real_open)(path, mode, *args, **kwargs)
        return Handle(fh) if "w" in mode else fh

    monkeypatch.setattr(build, "open", opener, raising=False)
    monkeypatch.setattr(build.os, "fsync", counted("fsync", os.fsync))
    monkeypatch.setattr(build, "_syncfs", counted("syncfs", build._syncfs))
    monkeypatch.setattr(build.os, "rename", counted("rename", os.rename))
    monkeypatch.setattr(build.Path, "mkdir", counted("mkdir", build.Path.mkdir))
    real_exchange = build._exchange if exchange else (lambda a, b: False)
    monkeypatch.setattr(build, "_exchange", counted("exchange", real_exchange))
    try:
        yield seen
    finally:
        monkeypatch.undo()


def beside(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p != out)


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_a_failure_at_any_write_leaves_the_old_tree_or_the_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               exchange: bool) -> None:
    out = tmp_path / "generated"
    build.write_atomic(OLD, out)
    build.write_atomic(OLD, tmp_path / "probe")
    with fail_at(0, monkeypatch, exchange) as seen:  # count the operations of writing NEW over OLD
        build.write_atomic(NEW, tmp_path / "probe")
    total = len(seen)
    assert seen[-1] == ("exchange" if exchange else "rename")
    assert total >= 2 * len(NEW) + 2, seen  # open and write per file, the folders, the sync and the swap
    assert "syncfs" in seen or seen.count("fsync") == len(NEW), seen
    outcomes = []
    for k in range(1, total + 1):
        build.write_atomic(OLD, out)
        with fail_at(k, monkeypatch, exchange) as seen:
            try:
                build.write_atomic(NEW, out)
                outcomes.append("new")
            except Injected:
                outcomes.append("old")
        got = snapshot(out)
        assert got in (as_bytes(OLD), as_bytes(NEW)), f"a failure at {seen[-1]} (operation {k}) left a mixed tree"
        assert got == as_bytes(NEW if outcomes[-1] == "new" else OLD)
        assert beside(out) == ["probe"], f"a failure at operation {k} left {beside(out)}"
    assert outcomes == ["old"] * total  # the swap is the last operation: nothing fails after it


def test_a_first_build_that_fails_leaves_no_output_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "generated"
    with fail_at(0, monkeypatch) as seen:
        build.write_atomic(NEW, tmp_path / "probe")
    for k in range(1, len(seen) + 1):
        with fail_at(k, monkeypatch), pytest.raises(Injected):
            build.write_atomic(NEW, out)
        assert not out.exists() and beside(out) == ["probe"]


def test_rulec_build_interrupted_at_a_write_keeps_the_old_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "s.rules").write_text('series S "S" version "1"\nrule 1.1 "R" { text "t" }\n', encoding="utf-8")
    out = tmp_path / "out"
    args = ["build", "--no-print", "--rules", str(rules), "--out", str(out), "--cache", str(tmp_path / "cache")]
    assert cli.main(args) == 0
    before = snapshot(out)
    (rules / "s.rules").write_text('series S "S" version "2"\nrule 1.1 "R" { text "t" }\n', encoding="utf-8")
    with fail_at(5, monkeypatch):
        assert cli.main(args) == 1  # an OS error at write time is a located message, not a bug in rulec
    err = capsys.readouterr().err
    assert f"rulec: cannot write {out}/: injected failure" in err and "was left as it was" in err
    assert "internal error" not in err
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "out", "rules"]
    assert cli.main(args) == 0
    assert snapshot(out) != before


def test_without_syncfs_every_file_is_synced_before_the_swap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(build, "_syncfs", lambda folder: False)

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(build.os, "fsync", fsync)
    build.write_atomic(NEW, tmp_path / "generated")
    assert sorted(Path(p).name for p in synced) == sorted(Path(rel).name for rel in NEW)
    assert snapshot(tmp_path / "generated") == as_bytes(NEW)


def test_files_streamed_as_they_are_made_and_a_last_batch_land_as_one_swap(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    build.write_atomic(OLD, out)
    texts = {rel: c for rel, c in NEW.items() if isinstance(c, str)}
    prints = {rel: c for rel, c in NEW.items() if isinstance(c, bytes)}
    seen_before_prints: list[str] = []

    def last_batch() -> dict[str, build.Content]:
        seen_before_prints.extend(sorted(p.name for p in tmp_path.iterdir()))
        return dict(prints)

    count = build.write_atomic(iter(texts.items()), out, then=last_batch)
    assert count == len(NEW) and snapshot(out) == as_bytes(NEW)
    assert "generated" in seen_before_prints  # the old output stayed in place until the swap
    assert build.differences(iter(NEW.items()), out) == build.differences(NEW, out) == []
    assert build.differences(iter(OLD.items()), out) == build.differences(OLD, out) != []


def test_a_full_disk_is_a_message_and_the_old_output_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "s.rules").write_text('series S "S" version "1"\nrule 1.1 "R" { text "t" }\n', encoding="utf-8")
    out = tmp_path / "out"
    args = ["build", "--no-print", "--no-cache", "--rules", str(rules), "--out", str(out)]
    assert cli.main(args) == 0
    before = snapshot(out)

    def full(*_: Any, **__: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(build, "_write_one", full)
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    assert snapshot(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["out", "rules"]


def test_what_a_killed_build_left_beside_the_output_is_removed_by_the_next(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    for left in (".generated.new-abc123", ".generated.old-4242"):
        (tmp_path / left / "python").mkdir(parents=True)
        (tmp_path / left / "python" / "x.py").write_text("half written\n")
    (tmp_path / ".other.new-keep").mkdir()
    build.write_atomic(NEW, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.new-keep", "generated"]
