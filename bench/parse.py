"""python -m bench.parse [--clauses 2000] [--rounds 7] [--cpu]

Parse speed on a generated rules tree: Lark alone (the grammar's parser making its concrete parse
tree, `parser.lark_parser()`, what `rulec fmt` reads; nothing made from it) against
`rulec.parser.parse` (the same parser reducing straight into the syntax tree) and against
`cache.ParseCache` cold (every file a miss) and warm (every file a hit). Each figure is the min
and the median of its rounds; the rounds take turns, so a passing load on the machine falls on
every figure alike. The results of a round are kept until it ends, as a build keeps every file's
tree. --cpu times the process's CPU rather than the clock: steadier on a machine others share.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import corpus
from .timing import Sample, wall


def cpu(fn: Callable[[], Any], setup: Callable[[], Any] | None = None) -> float:
    """CPU seconds of one run of fn() (after setup(), not timed)."""
    if setup is not None:
        setup()
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def figures(files: dict[str, str], rounds: int, cache_folder: Path, on_cpu: bool = False) -> dict[str, Sample]:
    from rulec import parser
    from rulec.cache import ParseCache

    lark = parser.lark_parser()

    def lark_alone() -> list[Any]:
        return [lark.parse(text, start="start") for text in files.values()]

    def parse() -> list[Any]:
        return [parser.parse(text, name) for name, text in files.items()]

    def cached(expect_hits: bool) -> Callable[[], list[Any]]:
        def run() -> list[Any]:
            c = ParseCache(cache_folder)
            out = [c.parse(text, name) for name, text in files.items()]
            c.finish()
            assert c.hits == (len(files) if expect_hits else 0), (c.hits, c.misses)
            return out
        return run

    def empty_cache() -> None:
        shutil.rmtree(cache_folder, ignore_errors=True)

    runs: dict[str, tuple[Callable[[], Any], Callable[[], Any] | None]] = {
        "Lark alone": (lark_alone, None),
        "parse()": (parse, None),
        "ParseCache, cold": (cached(False), empty_cache),
        "ParseCache, warm": (cached(True), None),
    }
    for fn, setup in runs.values():  # once untimed: the parser is built, the cache filled
        if setup:
            setup()
        fn()
    values: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, (fn, setup) in runs.items():
            values[name] += [cpu(fn, setup)] if on_cpu else wall(fn, 1, setup).values
    return {name: Sample(tuple(v)) for name, v in values.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.parse", description=__doc__.split("\n\n")[1])
    p.add_argument("--clauses", type=int, default=2000, help="the size of the generated tree (default 2000)")
    p.add_argument("--rounds", type=int, default=7, help="timed rounds of each figure (default 7)")
    p.add_argument("--cpu", action="store_true", help="time CPU seconds of this process, not the wall clock")
    args = p.parse_args(argv)
    files = corpus.generate(args.clauses)
    with tempfile.TemporaryDirectory(prefix="rulec-bench-parse-") as tmp:
        found = figures(files, args.rounds, Path(tmp) / "cache", args.cpu)
    size = sum(len(t.encode("utf-8")) for t in files.values())
    clock = "CPU seconds" if args.cpu else "wall seconds"
    print(f"{args.clauses} clauses: {len(files)} files, {size:,} bytes; {args.rounds} rounds; {clock}")
    base = found["Lark alone"].min
    for name, s in found.items():
        print(f"  {name:17} min {s.min:6.3f} s   median {s.median:6.3f} s   {s.min / base:5.2f} x Lark alone")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
