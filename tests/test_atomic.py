"""A build interrupted at any write leaves the output folder wholly old or wholly new.

writing.write_atomic writes only the files that changed: it stages them with a journal beside the
output, commits by renaming the staging folder, and applies the journal (writing.py's docstring).
Here an OSError is injected at the k-th write operation (a file opened, a write, an fsync, a
syncfs, a folder made, a rename, a replace or an unlink), for every k, and after each the output
must be exactly the old tree or exactly the new one, with nothing left beside it; a process killed
at each operation leaves the old tree, the new one, or a commit the next build finishes.
"""

from __future__ import annotations

import builtins
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import files_of
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulec import cli, writing

SAME = {"python/same.py": "SAME = 0\n", "sheets/ocs/same.md": "unchanged\n"}
OLD = {"ir/ocs.json": "{}\n", "python/ocs.py": "OLD = 1\n", "sheets/ocs/_index.md": "---\ntitle: old\n---\n",
       "cards/ocs/card-1.png": b"\x89PNG old", "only-old.txt": "gone in the new build\n",
       "sheets/ocs/gone/page.md": "a folder the new build does not have\n",
       "cards/ocs/extra": "a file where the new build has a folder\n", **SAME}
NEW = {"ir/ocs.json": '{"new": true}\n', "python/ocs.py": "NEW = 2\n", "sheets/ocs/_index.md": "---\ntitle: new\n---\n",
       "sheets/ocs/4-0-general-concepts.md": "new page\n", "cards/ocs/card-1.png": b"\x89PNG new",
       "cards/ocs/card-2.png": b"\x89PNG new 2", "sheets/ocs/new/deep/page.md": "in folders of its own\n",
       "cards/ocs/extra/a.txt": "a folder where the old build had a file\n", **SAME}


def as_bytes(files: dict[str, str | bytes]) -> dict[str, bytes]:
    return {k: v.encode() if isinstance(v, str) else v for k, v in files.items()}


class Injected(OSError):
    pass


@contextmanager
def fail_at(k: int, monkeypatch: pytest.MonkeyPatch, until: int | None = None,
            fail: Callable[[str, int], Any] | None = None) -> Iterator[list[str]]:
    """Make the write operations k to until (k alone by default; k = 0: none) of write_atomic raise
    Injected, or call fail(name, k) instead; yields the operations seen."""
    seen: list[str] = []
    last = k if until is None else until

    def counted(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def op(*args: Any, **kwargs: Any) -> Any:
            seen.append(name)
            if k and k <= len(seen) <= last:
                if fail is not None:
                    fail(name, len(seen))
                raise Injected(f"injected failure at {name} (operation {len(seen)})")
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

    def opener(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        fh = counted("open" if "w" in mode else "read", real_open)(path, mode, *args, **kwargs)
        return Handle(fh) if "w" in mode else fh

    monkeypatch.setattr(writing, "open", opener, raising=False)
    for name in ("fsync", "rename", "replace", "unlink"):
        monkeypatch.setattr(writing.os, name, counted(name, getattr(os, name)))
    monkeypatch.setattr(writing, "_syncfs", counted("syncfs", writing._syncfs))
    monkeypatch.setattr(writing.Path, "mkdir", counted("mkdir", writing.Path.mkdir))
    try:
        yield seen
    finally:
        monkeypatch.undo()


def fresh(files: dict[str, str | bytes], out: Path) -> None:
    """out made anew with files, so that writing NEW over it takes the operations the probe took."""
    shutil.rmtree(out, ignore_errors=True)
    writing.write_atomic(files, out)


def beside(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p != out)


def operations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """The operations of writing NEW over OLD, and the number of the commit (the first rename)."""
    probe = tmp_path / "probe"
    writing.write_atomic(OLD, probe)
    with fail_at(0, monkeypatch) as seen:
        writing.write_atomic(NEW, probe)
    assert seen.count("rename") == 2, seen  # the commit, and the commit folder marked done
    return seen, seen.index("rename") + 1


def test_a_failure_at_any_write_leaves_the_old_tree_or_the_new(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "generated"
    seen, commit = operations(tmp_path, monkeypatch)
    assert {"read", "open", "write", "syncfs", "mkdir", "rename", "replace", "unlink", "fsync"} <= set(seen), seen
    changed = len(NEW) - len(SAME)
    assert seen.count("write") == changed + 1 and seen.count("replace") == changed, seen  # + the journal
    outcomes = []
    for k in range(1, len(seen) + 1):
        fresh(OLD, out)
        with fail_at(k, monkeypatch) as ops:
            try:
                writing.write_atomic(NEW, out)
                outcomes.append("new")
            except Injected:
                outcomes.append("old")
        got = files_of(out)
        assert got in (as_bytes(OLD), as_bytes(NEW)), f"a failure at {ops[k - 1]} (operation {k}) left a mixed tree"
        assert got == as_bytes(NEW if outcomes[-1] == "new" else OLD)
        left = [n for n in beside(out) if n != "probe"]  # only a done folder that could not all be removed
        assert all(n.startswith(".generated.old-") for n in left), f"a failure at operation {k} left {left}"
        writing.finish_interrupted(out)
        assert beside(out) == ["probe"] and files_of(out) == got
    # up to the commit, a failure leaves the old output (a file that cannot be read to compare is
    # written); after it, the apply is tried again
    assert outcomes == ["new" if op == "read" else "old" for op in seen[:commit]] + ["new"] * (len(seen) - commit)


def test_an_apply_that_fails_twice_is_finished_by_the_next_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "generated"
    seen, commit = operations(tmp_path, monkeypatch)
    done = commit + seen[commit:].index("rename") + 1  # the commit folder renamed as done
    for k in range(commit + 1, done + 1):
        fresh(OLD, out)
        with fail_at(k, monkeypatch, until=10**6), pytest.raises(writing.Unfinished) as e:
            writing.write_atomic(NEW, out)
        assert "the next 'rulec build' finishes it" in str(e.value)
        assert [n for n in beside(out) if n.startswith(".generated.commit-")], beside(out)
        assert writing.finish_interrupted(out)
        assert files_of(out) == as_bytes(NEW) and beside(out) == ["probe"]


def test_a_build_killed_at_any_write_is_old_new_or_finished_by_the_next(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL cannot be held: a process that dies at operation k, for every k."""
    out = tmp_path / "generated"
    seen, commit = operations(tmp_path, monkeypatch)
    finished = 0
    for k in range(1, len(seen) + 1):
        fresh(OLD, out)
        pid = os.fork()
        if pid == 0:  # the child dies at operation k, as a kill would end it
            try:
                with fail_at(k, monkeypatch, fail=lambda name, n: os._exit(9)):
                    writing.write_atomic(NEW, out)
            finally:
                os._exit(0)
        assert os.waitpid(pid, 0)[1] >> 8 == 9
        got = files_of(out)
        committed = [n for n in beside(out) if n.startswith(".generated.commit-")]
        if not committed:
            assert got == as_bytes(OLD if k <= commit else NEW), f"a kill at {seen[k - 1]} (operation {k})"
        finished += writing.finish_interrupted(out)
        want = OLD if k <= commit else NEW
        assert files_of(out) == as_bytes(want), f"after a kill at {seen[k - 1]} (operation {k}) and the next build"
        assert beside(out) == ["probe"]
    done = commit + seen[commit:].index("rename") + 1
    assert finished == done - commit  # every kill from the commit to its end left a commit the next build finished


def test_only_the_files_that_changed_are_written(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    writing.write_atomic(OLD, out)
    before = {rel: os.stat(out / rel) for rel in OLD}
    folder = os.stat(out).st_ino
    done = writing.write_atomic(NEW, out)
    assert files_of(out) == as_bytes(NEW)
    assert os.stat(out).st_ino == folder  # the output folder is not made again
    for rel in SAME:
        now = os.stat(out / rel)
        assert (now.st_ino, now.st_mtime_ns) == (before[rel].st_ino, before[rel].st_mtime_ns), rel
    assert done.count == len(NEW)
    assert set(done.rewritten) == {rel for rel in NEW if rel in OLD and rel not in SAME}
    assert set(done.added) == set(NEW) - set(OLD) and set(done.removed) == set(OLD) - set(NEW)
    assert "added sheets/ocs/new/deep/page.md" in done.changes() and "removed only-old.txt" in done.changes()
    assert not (out / "sheets/ocs/gone").exists()  # a folder the removed files left empty goes too
    again = writing.write_atomic(NEW, out)
    assert again == writing.Written(len(NEW)) and again.changes() == [] and beside(out) == []


def test_a_link_in_the_output_is_replaced_not_followed(tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "generated", tmp_path / "elsewhere"
    writing.write_atomic(OLD, out)
    elsewhere.mkdir()
    (elsewhere / "ocs.py").write_text("not rulec's\n")
    writing.write_atomic({}, out)
    (out / "python").symlink_to(elsewhere, target_is_directory=True)
    (out / "ir").mkdir()
    (out / "ir" / "ocs.json").symlink_to(elsewhere / "ocs.py")
    writing.write_atomic(NEW, out)
    assert files_of(out) == as_bytes(NEW)
    assert not (out / "python").is_symlink() and not (out / "ir" / "ocs.json").is_symlink()
    assert files_of(elsewhere) == {"ocs.py": b"not rulec's\n"}


def built_then_edited(tmp_path: Path, *build_args: str) -> tuple[Path, list[str], dict[str, bytes]]:
    """A one-clause series built into tmp_path/out, then edited (version 2), not yet built again:
    the output folder, the build's arguments and what the first build wrote."""
    rules, out = tmp_path / "rules", tmp_path / "out"
    rules.mkdir()
    (rules / "s.rules").write_text('series S "S" version "1"\nrule 1.1 "R" { text "t" }\n', encoding="utf-8")
    args = ["build", "--no-print", *build_args, "--rules", str(rules), "--out", str(out)]
    assert cli.main(args) == 0
    before = files_of(out)
    (rules / "s.rules").write_text('series S "S" version "2"\nrule 1.1 "R" { text "t" }\n', encoding="utf-8")
    return out, args, before


def test_rulec_build_interrupted_at_a_write_keeps_the_old_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out, args, before = built_then_edited(tmp_path, "--cache", str(tmp_path / "cache"))
    probe = tmp_path / "probe"  # the same build on copies, to find its first write into the output
    shutil.copytree(out, probe / "out")
    shutil.copytree(tmp_path / "cache", probe / "cache")
    on_copies = [probe / "cache" if a == str(tmp_path / "cache") else probe / "out" if a == str(out) else a
                 for a in args]
    with fail_at(0, monkeypatch) as seen:
        assert cli.main([str(a) for a in on_copies]) == 0
    shutil.rmtree(probe)
    capsys.readouterr()
    with fail_at(seen.index("open") + 1, monkeypatch):  # not the cache's own writes, which only slow a build
        assert cli.main(args) == 1  # an OS error at write time is a located message, not a bug in rulec
    err = capsys.readouterr().err
    assert f"rulec: cannot write {out}/: injected failure" in err and "was left as it was" in err
    assert "internal error" not in err
    assert files_of(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "out", "rules"]
    assert cli.main(args) == 0
    assert files_of(out) != before
    assert capsys.readouterr().out.endswith("changed)\n")


def test_rulec_build_that_cannot_finish_says_the_next_build_will(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out, args, _ = built_then_edited(tmp_path, "--no-cache")
    want = tmp_path / "want"
    assert cli.main([*args[:-1], str(want)]) == 0
    probe = tmp_path / "probe"
    shutil.copytree(out, probe)
    with fail_at(0, monkeypatch) as seen:
        assert cli.main([*args[:-1], str(probe)]) == 0
    capsys.readouterr()
    with fail_at(seen.index("replace") + 1, monkeypatch, until=10**6):  # the apply fails, and its second try
        assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert f"rulec: cannot finish writing {out}/:" in err and "the next 'rulec build' finishes it" in err
    assert "Traceback" not in err
    assert cli.main(args) == 0
    assert files_of(out) == files_of(want)


def test_without_syncfs_every_file_is_synced_before_the_swap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(writing, "_syncfs", lambda folder: False)

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(writing.os, "fsync", fsync)
    writing.write_atomic(NEW, tmp_path / "generated")
    files = sorted(Path(p).name for p in synced if not Path(p).is_dir() and ".generated.new-" not in Path(p).name)
    assert files == sorted(Path(rel).name for rel in NEW)
    assert files_of(tmp_path / "generated") == as_bytes(NEW)
    synced.clear()
    writing.write_atomic(OLD, tmp_path / "generated")  # the changed files, the journal and the folders
    changed = {Path(rel).name for rel in OLD if rel not in SAME} | {writing.JOURNAL}
    names = {Path(p).name for p in synced if not Path(p).is_dir()}
    assert changed == {n for n in names if not n.startswith(".generated.new-")}
    assert str(tmp_path) in synced and str(tmp_path / "generated") in synced
    assert files_of(tmp_path / "generated") == as_bytes(OLD)


def test_files_streamed_as_they_are_made_and_a_last_batch_land_at_once(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    writing.write_atomic(OLD, out)
    texts = {rel: c for rel, c in NEW.items() if isinstance(c, str)}
    prints = {rel: c for rel, c in NEW.items() if isinstance(c, bytes)}
    seen_before_prints: dict[str, bytes] = {}

    def last_batch() -> dict[str, writing.Content]:
        seen_before_prints.update(files_of(out))
        return dict(prints)

    done = writing.write_atomic(iter(texts.items()), out, then=last_batch)
    assert done.count == len(NEW) and files_of(out) == as_bytes(NEW)
    assert seen_before_prints == as_bytes(OLD)  # the old output stayed as it was until the commit
    assert writing.differences(iter(NEW.items()), out) == writing.differences(NEW, out) == []
    assert writing.differences(iter(OLD.items()), out) == writing.differences(OLD, out) != []


def test_a_full_disk_is_a_message_and_the_old_output_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out, args, before = built_then_edited(tmp_path, "--no-cache")

    def full(*_: Any, **__: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing, "_write_one", full)
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    assert files_of(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["out", "rules"]


def test_what_a_killed_build_left_beside_the_output_is_removed_or_finished_by_the_next(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    writing.write_atomic(OLD, out)
    for left in (".generated.new-abc123", ".generated.old-4242"):
        (tmp_path / left / "python").mkdir(parents=True)
        (tmp_path / left / "python" / "x.py").write_text("half written\n")
    (tmp_path / ".other.new-keep").mkdir()
    commit = tmp_path / ".generated.commit-77"  # killed halfway through its apply: one file moved in
    (commit / "files" / "python").mkdir(parents=True)
    (commit / "files" / "python" / "ocs.py").write_text("NEW = 2\n")
    (commit / writing.JOURNAL).write_text(json.dumps({"changed": ["ir/ocs.json", "python/ocs.py"],
                                                      "removed": ["only-old.txt"]}))
    (out / "ir" / "ocs.json").write_text('{"new": true}\n')
    writing.write_atomic(NEW, out)  # a different build, after the killed one was finished
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.new-keep", "generated"]
    assert files_of(out) == as_bytes(NEW)
    writing.write_atomic(OLD, out)
    (commit / "files" / "python").mkdir(parents=True)
    (commit / "files" / "python" / "ocs.py").write_text("NEW = 2\n")
    (commit / writing.JOURNAL).write_text(json.dumps({"changed": ["python/ocs.py"], "removed": ["only-old.txt"]}))
    assert writing.finish_interrupted(out) and not commit.exists()
    finished = {k: v for k, v in OLD.items() if k != "only-old.txt"} | {"python/ocs.py": "NEW = 2\n"}
    assert files_of(out) == as_bytes(finished)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(old=st.text(max_size=40), new=st.text(max_size=40))
@example(old="\u00e9 and more", new="\u00e9")  # a file that runs on past the text
def test_a_text_is_written_and_compared_a_chunk_at_a_time_as_it_is_encoded_whole(
        old: str, new: str, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A text is encoded a chunk at a time as it is written and compared (a large rulebook's
    tables.json and IR are tens of MB, never held as text and bytes at once): the file holds
    text.encode("utf-8") across every seam, whatever characters meet there, and a file is the same
    as a text exactly when its bytes are that text's."""
    monkeypatch.setattr(writing, "CHUNK", 3)
    assert all(len(chunk) <= 3 * 4 for chunk in writing._chunks(new))
    out = tmp_path_factory.mktemp("out") / "generated"
    writing.write_atomic({"a.md": old, "b.md": new}, out)
    assert (out / "a.md").read_bytes() == old.encode("utf-8") and (out / "b.md").read_bytes() == new.encode("utf-8")
    assert writing._same(out / "a.md", new) == (old.encode("utf-8") == new.encode("utf-8"))
    assert writing._same(out / "b.md", new) and writing._same(out / "b.md", new.encode("utf-8"))
    written = writing.write_atomic({"a.md": new, "b.md": new}, out)
    assert written.rewritten == (() if old == new else ("a.md",))
    assert (out / "a.md").read_bytes() == new.encode("utf-8")
