"""The designer's loop on the shipped rules: what an edit costs between saving a rules file and
having the outputs (and the printed cards) again.

Three kinds of figure:

* in this process, as `rulec build` runs again and again with its cache folder (the parser and
  the imports already made, everything else read from the cache): a no-op rebuild and a
  one-clause text edit, without printing; and the no-op again as a whole `rulec build` process,
  which imports only what finds it up to date;
* the same two under `rulec build --watch`, which keeps what it made in memory from one rebuild
  to the next (a no-op there is a look at the files that finds nothing changed);
* end to end, as whole `rulec build` processes with Chromium printing: a full build from an empty
  output folder and cache, and an edit that changes what one card shows (only that card is
  printed again);
* that edit again under `rulec build --watch`, which prints with one browser it keeps open.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .timing import Sample, wall

ROOT = Path(__file__).resolve().parent.parent
EDITED = ("ch4-general-concepts.rules", 'rule 4.5b "Negating ZOC" {')  # 4.5b is on one card: 'zoc'


@dataclass
class LoopFigures:
    noop: Sample
    one_clause: Sample
    watched_noop: Sample
    watched_edit: Sample
    printed_full: Sample | None  # None: no Chromium here
    one_card: Sample | None
    reprinted: int  # prints the one-card edit made (a card's Letter and A4 PDFs and its PNG: 3)
    watched_card: Sample | None = None  # the one-card edit under --watch, printing with its browser kept open
    noop_process: Sample | None = None  # the no-op as a whole rulec build process

    def to_json(self) -> dict[str, object]:
        def s(x: Sample | None) -> list[float] | None:
            return None if x is None else list(x.values)
        return {"noop": s(self.noop), "one_clause": s(self.one_clause), "watched_noop": s(self.watched_noop),
                "watched_edit": s(self.watched_edit), "printed_full": s(self.printed_full),
                "one_card": s(self.one_card), "reprinted": self.reprinted, "watched_card": s(self.watched_card),
                "noop_process": s(self.noop_process)}


def _copy(where: Path) -> Path:
    rules = where / "rules"
    shutil.copytree(ROOT / "rules", rules)
    return rules


def _editor(rules: Path) -> Callable[[], None]:
    """Each call changes the text of one clause (4.5b), a different text each time."""
    path = rules / "ocs" / EDITED[0]
    original = path.read_text(encoding="utf-8")
    head = original.index(EDITED[1])
    text_at = original.index('text "', head) + len('text "')
    state = {"n": 0}

    def edit() -> None:
        state["n"] += 1
        path.write_text(original[:text_at] + f"(Edit {state['n']}.) " + original[text_at:], encoding="utf-8")

    return edit


def _in_process(rules: Path, out: Path, cache: Path) -> Callable[[], None]:
    from rulec.cli import main

    def build() -> None:
        args = ["build", "--rules", str(rules), "--out", str(out), "--cache", str(cache), "--no-print"]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            if main(args) != 0:
                raise RuntimeError(f"rulec build failed:\n{err.getvalue()}")

    return build


def _process(rules: Path, out: Path, cache: Path, *more: str) -> Callable[[], None]:
    # As on a designer's machine, Python keeps the modules it compiles (__pycache__): this machine's
    # environment may say not to (PYTHONDONTWRITEBYTECODE), and each process would then compile rulec's
    # sources again, half a second that no designer pays.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def build() -> None:
        run = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(out),
                              "--cache", str(cache), *more], capture_output=True, text=True, timeout=600, env=env)
        if run.returncode != 0:
            raise RuntimeError(f"rulec build failed:\n{run.stderr}")

    return build


def _prints(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.suffix in (".pdf", ".png")}


def measure(repeats: int, progress: Callable[[str], None]) -> LoopFigures:
    from rulec import printing

    with tempfile.TemporaryDirectory(prefix="rulec-loop-") as tmp:
        where = Path(tmp)
        rules = _copy(where)
        out, cache = where / "generated", where / "cache"
        build = _in_process(rules, out, cache)
        build()  # the first build, and the parser and imports, made before anything is timed
        progress(f"loop: no-op rebuild x{repeats}")
        noop = wall(build, repeats)
        progress(f"loop: one-clause edit x{repeats}")
        one_clause = wall(build, repeats, setup=_editor(rules))
        build()  # the last edit built: what the processes below find up to date
        progress(f"loop: no-op rebuild as a process x{repeats}")
        noop_process = wall(_process(rules, out, cache, "--no-print"), repeats)
        watched_noop, watched_edit = _watched(rules, where / "watched", repeats, progress)
        if printing.find_chromium() is None:
            return LoopFigures(noop, one_clause, watched_noop, watched_edit, None, None, 0, noop_process=noop_process)
        printed_out, printed_cache = where / "printed", where / "printed-cache"
        full = _process(rules, printed_out, printed_cache)

        def empty() -> None:
            shutil.rmtree(printed_out, ignore_errors=True)
            shutil.rmtree(printed_cache, ignore_errors=True)

        progress(f"loop: full build with printing x{repeats}")
        printed_full = wall(full, repeats, setup=empty)
        progress(f"loop: one-card edit with printing x{repeats}")
        edit = _editor(rules)
        before: dict[str, bytes] = {}

        def edit_one_card() -> None:
            before.clear()
            before.update(_prints(printed_out))
            edit()

        one_card = wall(full, repeats, setup=edit_one_card)
        after = _prints(printed_out)
        reprinted = sum(1 for rel, data in after.items() if before.get(rel) != data)
        watched_card = _watched_printing(rules, where / "watched-printed", repeats, progress)
        return LoopFigures(noop, one_clause, watched_noop, watched_edit, printed_full, one_card, reprinted,
                           watched_card, noop_process)


def _watched(rules: Path, out: Path, repeats: int, progress: Callable[[str], None]) -> tuple[Sample, Sample]:
    """A look that finds nothing changed, and a one-clause text edit, under `rulec build --watch`
    (its Watcher, as the command runs it, after its first build)."""
    from rulec.watch import Watcher

    watcher = Watcher(rules, out, lambda line: None)
    watcher.poll()  # the first build

    def rebuilt() -> None:
        if not watcher.poll():
            raise RuntimeError("rulec build --watch did not see the edit")

    progress(f"loop: --watch, nothing changed x{repeats}")
    noop = wall(watcher.poll, repeats)
    progress(f"loop: --watch, one-clause edit x{repeats}")
    return noop, wall(rebuilt, repeats, setup=_editor(rules))


def _watched_printing(rules: Path, out: Path, repeats: int, progress: Callable[[str], None]) -> Sample:
    """The one-card edit under `rulec build --watch`, printing: its Watcher with the browser it keeps
    open, after a first build that prints every card (not timed)."""
    from rulec import printing
    from rulec.watch import Watcher

    kept = printing.KeptBrowser(printing.find_chromium() or "chromium")
    try:
        watcher = Watcher(rules, out, lambda line: None, printer=kept)
        watcher.poll()

        def rebuilt() -> None:
            if not watcher.poll():
                raise RuntimeError("rulec build --watch did not see the edit")

        progress(f"loop: --watch, one-card edit with printing x{repeats}")
        sample = wall(rebuilt, repeats, setup=_editor(rules))
        if kept.started != 1:
            raise RuntimeError(f"rulec build --watch started {kept.started} browsers, not one")
        return sample
    finally:
        kept.close()
