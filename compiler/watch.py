"""`rulec build --watch`: rebuild on save, print the diagnostics, rewrite only what changed.

The rules folder is polled (modification time and size, then a hash of the content, so a save
that changes nothing rebuilds nothing). A changed file is parsed first on its own: a syntax
error is reported at once without compiling the rest. A build writes only the output files
whose content differs and removes the ones the rules no longer produce, all or nothing, as
`rulec build` does (writing.py). The cards whose HTML changed are printed again, as a plain build
prints them, by one Chromium kept open while watching (printing.KeptBrowser; none with --no-print
or where there is no Chromium: then the prints of a changed card are left out until a plain
`rulec build` makes them).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from . import modcheck, printing, themes
from .build import compile_sources, iter_outputs, prints_of, source_name, with_bom
from .cache import Work, text_of
from .diagnostics import Diagnostic
from .project import Root, read, read_assets
from .sources import read_asset, read_rules_file
from .writing import Content, Known, Written, write_atomic

Snapshot = dict[Path, tuple[int, int, str]]  # file -> (mtime_ns, size, sha256)


def snapshot(root: Path, previous: Snapshot | None = None) -> Snapshot:
    """Every .rules file under root, and every file a theme may use (a theme's edit rebuilds the cards);
    the content is hashed only when mtime or size moved."""
    previous = previous or {}
    out: Snapshot = {}
    watched = (".rules", *themes.ASSET_SUFFIXES)
    for f in sorted(f for f in root.rglob("*") if f.suffix.lower() in watched) if root.is_dir() else []:
        try:
            st = f.stat()
        except OSError:
            continue
        old = previous.get(f)
        if old and old[:2] == (st.st_mtime_ns, st.st_size):
            out[f] = old
            continue
        # never a pipe, a device or a link out of the folder
        if f.suffix == ".rules":
            data = repr(read_rules_file(f, root.resolve())).encode("utf-8", "surrogatepass")
        else:
            data = read_asset(f, root.resolve(), themes.MAX_ASSET) or b""
        digest = hashlib.sha256(data).hexdigest()
        out[f] = (st.st_mtime_ns, st.st_size, digest)
    return out


def changed_files(old: Snapshot, new: Snapshot) -> list[Path]:
    return sorted(f for f in set(old) | set(new) if (old.get(f) or ())[2:] != (new.get(f) or ())[2:])


class Watcher:
    """The rules folders and their output folder; `poll` rebuilds when a file changed."""

    def __init__(self, rules: Path | Sequence[Root], out: Path, say: Callable[[str], None],
                 csv_bom: bool = False, printer: printing.KeptBrowser | None = None) -> None:
        # a folder alone is named from its own name down, as the build names it
        self.roots = [Root(rules, rules.resolve().name)] if isinstance(rules, Path) else list(rules)
        self.out, self.say, self.csv_bom = out, say, csv_bom
        self.printer = printer  # the browser kept open to print the cards; None: they are not printed
        self.state: Snapshot = {}
        self.builds = 0
        self.work = Work(None)  # parses, analyses and modules kept in memory from one build to the next
        self.known: Known = {}  # the files written from kept texts, as the last build left them (write_atomic)

    def poll(self) -> bool:
        """Look once; rebuild if anything changed. True when a build ran."""
        new: Snapshot = {}
        for root in self.roots:
            new.update(snapshot(root.path, self.state))
        changed = changed_files(self.state, new)
        first = not self.state and not self.builds
        self.state = new
        if not changed and not first:
            return False
        if not first:
            self.say("changed: " + ", ".join(self.name(f) for f in changed))
        self.build([f for f in changed if f in new])
        return True

    def build(self, changed: list[Path]) -> None:
        self.builds += 1
        sources, read_errors = read(self.roots)
        syntax: list[Diagnostic] = []
        for f in changed:  # the changed files first, on their own: a typo is reported at once
            name = self.name(f)
            if name in sources:
                syntax += self.work.parses.parse(sources[name], name)[1]
        if syntax or read_errors:
            self.report(syntax + read_errors, sources)
            self.say(f"build failed; {self.out}/ was left as it was")
            return
        with modcheck.checking() as check:  # each module made, compiled whole beside the build
            result = compile_sources(sources, work=self.work, crosscheck=True, assets=read_assets(self.roots))
            self.report(result.diagnostics, sources)
            made = dict(with_bom(iter_outputs(result, validate=False, work=self.work), self.csv_bom)) \
                if result.ok else {}
            # Asked even when the rules have a mistake: a module made now is kept for the next build,
            # which takes it as it is.
            broken = check.problems()
        if broken:  # rulec's own mistake: nothing is written, and no module made this time is kept
            self.work.modules.clear()
            self.say(f"rulec: {modcheck.ModulesBroken(broken)}; {self.out}/ was left as it was")
            return
        if not result.ok:
            self.say(f"build failed; {self.out}/ was left as it was")
            return
        cards = {rel: text_of(t) for rel, t in made.items()  # what the prints are made from
                 if printing.is_card(rel) or printing.is_sheet(rel)}
        try:
            prints, notes = prints_of(cards, self.out, self.printer is not None, result, self.printer)
        except printing.PrintError as e:  # the next build starts a new browser
            self.say(f"rulec: cannot print the cards: {e}; {self.out}/ was left as it was")
            return
        files: dict[str, Content] = {**made, **prints}
        self.work.finish()
        written = write_atomic(files, self.out, known=self.known)
        self.known = self.remembered(written)
        done = written.changes()
        shown = done if len(done) <= 10 else done[:10] + [f"... and {len(done) - 10} more"]
        for line in shown:
            self.say(f"  {line}")
        for note in notes if self.printer is not None else ():  # without a browser, none is printed: no news
            self.say(note)
        self.say(f"built {', '.join(sorted(result.models))}: {len(done)} of {len(files)} files changed")

    def remembered(self, written: Written) -> Known:
        """What the next build may take as it is (write_atomic's known): each file written from a kept
        text, its size and mtime as they are now and its digest. Stamped again only where this build
        wrote it or its digest is new; a file touched since it was stamped is only compared again."""
        wrote = {*written.added, *written.rewritten}
        known: dict[str, tuple[int, int, str]] = {}
        for rel, digest in written.digests:
            last = self.known.get(rel)
            if rel in wrote or last is None or last[2] != digest:
                try:
                    st = (self.out / rel).stat(follow_symlinks=False)
                except OSError:
                    continue
                known[rel] = (st.st_size, st.st_mtime_ns, digest)
            else:
                known[rel] = last
        return known

    def name(self, f: Path) -> str:
        """A file's name as the build names it: from its root's folder name (or label) down."""
        for root in self.roots:
            if f.is_relative_to(root.path):
                return source_name(root.path, f, root.label)
        return f.as_posix()

    def report(self, diags: list[Diagnostic], sources: dict[str, str]) -> None:
        for d in sorted(set(diags)):
            self.say(d.render(sources))


def watch(args: argparse.Namespace) -> int:
    """Poll every --interval seconds until interrupted (or --iterations polls, for tests)."""
    roots: list[Root] = args.roots
    missing = [r.path for r in roots if not r.path.is_dir()]
    if missing:
        print(f"rulec: no such folder: {missing[0]}", file=sys.stderr)
        return 2

    def say(line: str) -> None:
        print(line, flush=True)

    chromium = None if getattr(args, "no_print", False) else printing.find_chromium()
    printer = printing.KeptBrowser(chromium) if chromium is not None else None
    if printer is not None:
        printing.clean_leftovers()  # what a rulec killed while printing left
    w = Watcher(roots, args.out, say, csv_bom=getattr(args, "csv_bom", False), printer=printer)
    printed = ("the cards that change are printed again by a browser kept open" if printer is not None else
               "cards are not printed (--no-print, or no Chromium); a plain 'rulec build' prints them")
    say(f"watching {', '.join(f'{r.path}/' for r in roots)} (Ctrl-C to stop); {printed}")
    polls = 0
    try:
        while True:
            w.poll()
            polls += 1
            if args.iterations and polls >= args.iterations:
                return 0
            time.sleep(args.interval)
    except KeyboardInterrupt:
        say("stopped watching")
        return 0
    finally:
        if printer is not None:
            printer.close()
