"""Fuzzing the build cache: after any edit, a cached build writes what a build from nothing writes.

`rulec build` spares work under keys (the module's key, each table's closure key, each page's and
card's render key, the worked examples' key, traceability.md's reading key): each must hash all
that its work reads, or an edit leaves a stale output behind. This fuzzer copies the shipped rules,
builds them once with a cache, then makes one edit after another, each drawn from a seed and a
round number, and after each builds twice in process: again with the cache, and from nothing into
a fresh folder with --no-cache. The property: both exit alike and report the same diagnostics, and
when they succeed both output folders hold the same files, byte for byte.

An edit is one of: a word put into a string (a clause's text, a note, a title, a `says` phrase, an
example's title), a number changed, a line's two words swapped, a comment or a blank line put in
(every place below it moves: the parse cache takes up the pieces of a file that did not change,
each at its new place) or a line taken out; edits pile up over the rounds,
and one that breaks the rules is as good a test: both builds must then report it alike, and once it
is undone the cached build must give back the output of the last build that succeeded.

    python -m tests.fuzz_cache --count 40 --seed 1            # N rounds, F failures; exit 1 on any
    python -m tests.fuzz_cache --count 40 --seed 1 --watch    # the cached side rulec build --watch
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulec import cli  # noqa: E402
from tests.conftest import files_of  # noqa: E402

STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
WORDS = ["plainly", "Supply", "either", "(see 4.2)", "½", "ZOC", "twice", "non-motorized"]


@dataclass(frozen=True)
class Edit:
    file: str  # under the rules folder
    old: str  # the whole line before (two lines for a deletion, the second kept)
    new: str  # and after (two lines where a line was put in above it)
    line: int
    kind: str

    def __str__(self) -> str:
        return f"{self.kind} at {self.file}:{self.line}: {self.old.strip()!r} -> {self.new.strip()!r}"


def draw(rules: Path, seed: int, round_: int) -> Edit | None:
    """Round `round_` of run `seed`: one edit of one line of the rules under `rules`, lines drawn
    until one offers something of the kind drawn (None if a hundred do not)."""
    rng = random.Random(f"cache:{seed}:{round_}")
    files = sorted(p.relative_to(rules).as_posix() for p in rules.rglob("*.rules"))
    for _ in range(100):
        found = _draw_one(rng, rules, files)
        if found is not None:
            return found
    return None


def _draw_one(rng: random.Random, rules: Path, files: list[str]) -> Edit | None:
    name = rng.choice(files)
    lines = (rules / name).read_text(encoding="utf-8").split("\n")
    kind = rng.choice(["string", "string", "string", "string", "number", "number", "swap", "comment", "blank",
                       "delete"])
    if kind == "string":  # a line that has one
        number = rng.choice([i for i, x in enumerate(lines) if STRING.search(x)] or [0])
    elif kind == "number":
        number = rng.choice([i for i, x in enumerate(lines) if NUMBER.search(_code(x))] or [0])
    else:
        number = rng.randrange(len(lines))
    line = lines[number]
    strings = list(STRING.finditer(line))
    if kind == "string" and strings:
        s = rng.choice(strings)
        inner = s.group(0)[1:-1]
        at = rng.choice([0, len(inner)] + [m.start() for m in re.finditer(r" ", inner)])  # before a space
        word = rng.choice(WORDS)
        reworded = f"{word} {inner}" if at == 0 else f"{inner[:at]} {word}{inner[at:]}"
        new = line[:s.start() + 1] + reworded.strip() + line[s.end() - 1:]
    elif kind == "number":
        found = list(NUMBER.finditer(_code(line)))
        if not found:
            return None
        n = rng.choice(found)
        new = line[:n.start()] + str(int(n.group(0)) + rng.choice([-1, 1, 2])).lstrip("-") + line[n.end():]
    elif kind == "swap":
        words = list(re.finditer(r"[A-Za-z_]\w*", _code(line)))
        if len(words) < 2:
            return None
        i = rng.randrange(len(words) - 1)
        a, b = words[i], words[i + 1]
        new = line[:a.start()] + b.group(0) + line[a.end():b.start()] + a.group(0) + line[b.end():]
    elif kind == "comment":  # a line put in above: every place below it moves down one line
        new = f"# {rng.choice(WORDS)}\n{line}"
    elif kind == "blank":
        new = f"\n{line}"
    elif kind == "delete" and number + 1 < len(lines):  # the line taken out, the next one kept
        line, new = f"{line}\n{lines[number + 1]}", lines[number + 1]
    else:
        return None
    if new == line:
        return None
    return Edit(name, line, new, number + 1, kind)


def _code(line: str) -> str:
    """The line with its strings blanked (each character a space) and its comment cut off."""
    return STRING.sub(lambda m: " " * len(m.group(0)), line).split("#")[0]


def apply(rules: Path, edit: Edit) -> None:
    """The edit's old lines (one, or two for a deletion) at its line made its new ones."""
    path = rules / edit.file
    lines = path.read_text(encoding="utf-8").split("\n")
    at, old = edit.line - 1, edit.old.split("\n")
    assert lines[at:at + len(old)] == old
    lines[at:at + len(old)] = edit.new.split("\n")
    path.write_text("\n".join(lines), encoding="utf-8")


def build(rules: Path, out: Path, *extra: str) -> tuple[int, str]:
    """`rulec build` in process: its exit code and what it said on stderr, the output folder's name
    written <out> (the two builds write to two folders)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli.main(["build", "--rules", str(rules), "--out", str(out), "--no-print", *extra])
    return code, err.getvalue().replace(str(out), "<out>")


class Watched:
    """`rulec build --watch` as the cached side: one Watcher, what it keeps in memory kept from one
    round to the next. It reports diagnostics in its own words, so only its outcome is compared."""

    def __init__(self, rules: Path, out: Path):
        from rulec.watch import Watcher

        self.said: list[str] = []
        self.watcher = Watcher(rules, out, self.said.append)

    def build(self) -> tuple[int, str]:
        self.said.clear()
        self.watcher.poll()
        failed = any(line.startswith("build failed") for line in self.said)
        return (1 if failed else 0), ""


def run(seed: int, count: int, say: bool = False, watch: bool = False) -> list[str]:
    """`count` rounds of run `seed` on a copy of the shipped rules; what went wrong, one line each.
    watch: the cached builds are those of `rulec build --watch` (a Watcher in process)."""
    before = os.environ.get("RULEC_CHROMIUM")
    os.environ["RULEC_CHROMIUM"] = "no-such-chromium-for-rulec-tests"  # no card is printed by either build
    try:
        return _run(seed, count, say, watch)
    finally:  # the process goes on (a test worker): its browser is found again
        if before is None:
            del os.environ["RULEC_CHROMIUM"]
        else:
            os.environ["RULEC_CHROMIUM"] = before


def _run(seed: int, count: int, say: bool, watch: bool) -> list[str]:
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rulec-fuzz-cache-") as tmp:
        where = Path(tmp)
        rules, out, kept = where / "rules", where / "out", where / "cache"
        shutil.copytree(ROOT / "rules", rules)
        watched = Watched(rules, out) if watch else None

        def again() -> tuple[int, str]:
            return watched.build() if watched is not None else build(rules, out, "--cache", str(kept))

        code, said = again()
        if code != 0:
            return [f"the shipped rules do not build: {said}"]
        last_built = files_of(out)  # what the last build that succeeded wrote
        for round_ in range(count):
            edit = draw(rules, seed, round_)
            if edit is None:
                continue
            apply(rules, edit)
            cached = again()
            fresh_out = where / f"fresh{round_}"
            fresh = build(rules, fresh_out, "--no-cache")
            if watched is not None:
                fresh = fresh[0], ""
            wrong = None
            if cached != fresh:
                wrong = f"exit {cached[0]} with the cache, {fresh[0]} from nothing; said:\n{cached[1]}\n---\n{fresh[1]}"
            elif cached[0] == 0:
                a, b = files_of(out), files_of(fresh_out)
                if a != b:
                    differ = sorted(rel for rel in a.keys() | b.keys() if a.get(rel) != b.get(rel))
                    wrong = f"{len(differ)} files differ: {', '.join(differ[:6])}"
            shutil.rmtree(fresh_out, ignore_errors=True)
            if wrong is None and cached[0] != 0:  # undone, so the rounds after it have rules that build
                apply(rules, Edit(edit.file, edit.new, edit.old, edit.line, "undo"))
                code, said = again()
                if code != 0 or files_of(out) != last_built:
                    wrong = f"undone, the cached build gives another output (exit {code}): {said}"
            elif wrong is None:
                last_built = files_of(out)
            if say:
                print(f"round {round_}: {edit} (exit {cached[0]}){'' if wrong is None else ': ' + wrong}")
            if wrong is not None:
                failures.append(f"seed {seed} round {round_}, {edit}: {wrong}")
    return failures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz_cache", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=40, help="rounds (edits) of the run")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--watch", action="store_true", help="the cached builds are rulec build --watch's")
    p.add_argument("-v", "--verbose", action="store_true", help="say each edit and how it went")
    args = p.parse_args(argv)
    failures = run(args.seed, args.count, args.verbose, args.watch)
    print(f"{args.count} rounds, {len(failures)} failures")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
