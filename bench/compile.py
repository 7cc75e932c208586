"""Compile speed on synthetic rules trees: full build, Lark alone, scaling, cached rebuilds, memory."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import corpus
from .timing import Run, Sample, alternating, wall

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tree:
    clauses: int
    root: Path
    rules: Path
    out: Path
    cache: Path
    files: dict[str, str] = field(default_factory=dict)

    @property
    def bytes(self) -> int:
        return sum(len(t.encode("utf-8")) for t in self.files.values())


def make_tree(clauses: int, where: Path) -> Tree:
    files = corpus.generate(clauses)
    root = where / f"tree-{clauses}"
    rules = corpus.write(files, root)
    return Tree(clauses, root, rules, root / "generated", root / ".rulec-cache", files)


def _no_printing() -> Callable[[], str | None]:
    """Card prints (PDF, PNG) are a browser's time, not the compiler's: never start one here. Returns
    what finds Chromium, to put back once the compile figures are taken (the designer's loop, measured
    after them in the same process, prints)."""
    from rulec import printing

    found = printing.find_chromium
    printing.find_chromium = lambda: None  # type: ignore[assignment]
    return found


def rulec_build(tree: Tree, cache: bool = True) -> None:
    """`rulec build` as a designer runs it, in this process."""
    from rulec.cli import main

    args = ["build", "--rules", str(tree.rules), "--out", str(tree.out), "--no-print"]
    args += ["--cache", str(tree.cache)] if cache else ["--no-cache"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = main(args)
    if code != 0:
        raise RuntimeError(f"rulec build failed on the {tree.clauses}-clause tree:\n{err.getvalue()[-2000:]}")


@contextlib.contextmanager
def analysis_time(spent: list[float]) -> Iterator[None]:
    """Add to spent[0] the wall time of every table analysis (the solver's questions about one
    table's rows, compiler/decide.py) run inside."""
    from rulec import analysis

    real = analysis.TableAnalysis.run

    def timed(self: analysis.TableAnalysis) -> list[Any]:
        start = time.perf_counter()
        try:
            return real(self)
        finally:
            spent[0] += time.perf_counter() - start

    analysis.TableAnalysis.run = timed  # type: ignore[method-assign]
    try:
        yield
    finally:
        analysis.TableAnalysis.run = real  # type: ignore[method-assign]


def parse_only(tree: Tree) -> None:
    """Lark alone on the same text: the grammar's parser, no syntax tree built from its output."""
    from rulec.parser import lark_parser

    parser = lark_parser()
    for text in tree.files.values():
        parser.parse(text, start="start")


def syntax_trees(tree: Tree) -> None:
    """What every build from nothing does first: each file parsed into rulec's syntax tree, as a
    build parses it (in pieces, each tree kept to the end and left out of the collector's rounds),
    and nothing more. Against Lark alone, the floor under the full build's ratio."""
    from rulec.collector import long_lived, settled
    from rulec.parser import parse_reusing

    with long_lived():
        trees = []
        for name, text in tree.files.items():
            trees.append(parse_reusing(text, name, {}))
            settled()
        del trees


def stage_times(tree: Tree) -> list[tuple[str, float, str]]:
    """One more build from nothing, timed by stage as `rulec build --timings` times it: (stage,
    seconds, each ruleset's part), then the rest and the whole build (rulec.timings)."""
    from rulec.timings import timing

    clean(tree)
    with timing() as spent:
        rulec_build(tree)
    return spent.rows(spent.clock() - spent.started)


def clean(tree: Tree) -> None:
    shutil.rmtree(tree.out, ignore_errors=True)
    shutil.rmtree(tree.cache, ignore_errors=True)


def peak_memory(tree: Tree) -> int:
    """Peak resident memory (bytes) of a full build in a fresh process, as `rulec build` makes one by
    default (its cache on, the cache folder empty): the high-water mark of its own memory (VmHWM).
    Not getrusage()'s ru_maxrss: Linux carries that over an exec from the process that started it,
    so a child of the large benchmark process reported the parent's size."""
    clean(tree)
    args = ["build", "--rules", str(tree.rules), "--out", str(tree.out), "--cache", str(tree.cache), "--no-print"]
    code = ("import sys; from bench.compile import _no_printing, high_water; _no_printing();"
            f"from rulec.cli import main; rc = main({args!r});"
            "print(high_water()); sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the memory run failed:\n{done.stderr[-2000:]}")
    return int(done.stdout.strip().splitlines()[-1])


def high_water() -> int:
    """This process's peak resident memory in bytes (VmHWM, Linux; ru_maxrss elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def watch_one_file(tree: Tree, repeats: int) -> Sample:
    """`rulec build --watch` rebuilding after a one-file edit (its first build not timed)."""
    from rulec.watch import Watcher

    watcher = Watcher(tree.rules, tree.root / "watched", lambda line: None)
    watcher.poll()
    edit = _edit(tree)

    def rebuild() -> None:
        if not watcher.poll():
            raise RuntimeError("the watcher saw no change after an edit")

    return wall(rebuild, repeats, setup=edit)


def _edit(tree: Tree) -> Callable[[], None]:
    """A one-file change: each call rewrites one chapter with one rule's text changed."""
    name = sorted(r for r in tree.files if r.startswith("syn/ch"))[len(tree.files) // 2]
    path = tree.rules / name
    original = tree.files[name]
    state = {"n": 0}

    def change() -> None:
        state["n"] += 1
        path.write_text(original.replace('text "', f'text "Edited {state["n"]}. ', 1), encoding="utf-8")

    return change


@dataclass
class CompileFigures:
    sizes: list[int]
    bytes: dict[int, int] = field(default_factory=dict)
    files: dict[int, int] = field(default_factory=dict)
    full: dict[int, Sample] = field(default_factory=dict)
    parse: dict[int, Sample] = field(default_factory=dict)
    trees: dict[int, Sample] = field(default_factory=dict)  # rulec's syntax trees alone (syntax_trees)
    analysis: dict[int, Sample] = field(default_factory=dict)  # the table analyses inside each full build
    noop: Sample | None = None
    one_file: Sample | None = None
    watch: Sample | None = None
    cached_size: int = 0
    memory: Sample | None = None
    memory_size: int = 0
    stages: list[tuple[str, float, str]] = field(default_factory=list)  # a build of the cached size, by stage

    def to_json(self) -> dict[str, object]:
        def s(x: Sample | None) -> list[float] | None:
            return None if x is None else list(x.values)
        return {"sizes": self.sizes, "bytes": self.bytes, "files": self.files,
                "full": {n: s(x) for n, x in self.full.items()}, "parse": {n: s(x) for n, x in self.parse.items()},
                "trees": {n: s(x) for n, x in self.trees.items()},
                "analysis": {n: s(x) for n, x in self.analysis.items()},
                "noop": s(self.noop), "one_file": s(self.one_file), "watch": s(self.watch),
                "cached_size": self.cached_size,
                "memory": s(self.memory), "memory_size": self.memory_size,
                "stages": [list(row) for row in self.stages]}


def measure(sizes: list[int], cached_size: int, memory_size: int, repeats: dict[int, int],
            progress: Callable[[str], None]) -> CompileFigures:
    from rulec import printing

    finder = _no_printing()
    try:
        return _measure(sizes, cached_size, memory_size, repeats, progress)
    finally:
        printing.find_chromium = finder  # type: ignore[assignment]


def _measure(sizes: list[int], cached_size: int, memory_size: int, repeats: dict[int, int],
             progress: Callable[[str], None]) -> CompileFigures:
    figures = CompileFigures(sizes=sizes, cached_size=cached_size, memory_size=memory_size)
    with tempfile.TemporaryDirectory(prefix="rulec-bench-") as tmp:
        for n in sizes:
            progress(f"compile: generating {n} clauses")
            tree = make_tree(n, Path(tmp))
            figures.bytes[n], figures.files[n] = tree.bytes, len(tree.files)
            r = repeats.get(n, 1)
            parse_only(tree)  # the parser is built once per process, as in a build; not timed
            spent: list[float] = []

            def build(t: Tree = tree, spent: list[float] = spent) -> None:
                held = [0.0]
                with analysis_time(held):
                    rulec_build(t)
                spent.append(held[0])

            # each round: Lark alone, the syntax trees alone, a full build from nothing and, on the
            # cached size, a no-op rebuild and a one-file change after it; every ratio is taken
            # within a round (paired)
            runs: dict[str, Run] = {"parse": (lambda t=tree: parse_only(t), None),  # type: ignore[misc]
                                    "trees": (lambda t=tree: syntax_trees(t), None),  # type: ignore[misc]
                                    "full": (build, lambda t=tree: clean(t))}  # type: ignore[misc]
            if n == cached_size:
                runs["noop"] = (lambda t=tree: rulec_build(t), None)  # type: ignore[misc]
                runs["one_file"] = (lambda t=tree: rulec_build(t), _edit(tree))  # type: ignore[misc]
                r = max(r, 2)
            progress(f"compile {n}: {', '.join(runs)}, in turn, x{r}")
            samples = alternating(runs, r)
            figures.parse[n], figures.full[n] = samples["parse"], samples["full"]
            figures.trees[n] = samples["trees"]
            figures.analysis[n] = Sample(tuple(spent))
            if n == cached_size:
                figures.noop, figures.one_file = samples["noop"], samples["one_file"]
                progress(f"compile {n}: one-file change under --watch x{r}")
                figures.watch = watch_one_file(tree, max(r, 2))
                progress(f"compile {n}: one build from nothing, by stage")
                figures.stages = stage_times(tree)
            if n == memory_size:
                progress(f"compile {n}: peak memory")
                figures.memory = Sample(tuple(float(peak_memory(tree)) for _ in range(1)))
            shutil.rmtree(tree.root, ignore_errors=True)
    return figures


def dump(figures: CompileFigures) -> str:
    return json.dumps(figures.to_json(), indent=1)
