"""python -m bench [--quick] [--write bench/RESULTS.md] [--json FILE]

Check speed and compile speed, each figure the median of repeated runs with min and max, and as a
ratio against a baseline measured in the same run. Never fails on timing: a target not met is
reported in the table; the exit code is non-zero only when the benchmark itself breaks.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from . import checks as check_speed
from . import compile as compile_speed
from . import loop as designer_loop
from .report import render, write_results
from .timing import machine

FULL = {"sizes": [1000, 10000, 100000], "cached": 10000, "memory": 10000,
        "repeats": {1000: 3, 10000: 2, 100000: 1}}
QUICK = {"sizes": [50, 500], "cached": 500, "memory": 500, "repeats": {50: 3, 500: 1}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[1])
    p.add_argument("--quick", action="store_true", help="small corpora and few repeats, for CI (about a minute)")
    p.add_argument("--write", type=Path, metavar="FILE", help="also write the table into FILE "
                   "(bench/RESULTS.md), keeping the reading written below it")
    p.add_argument("--json", type=Path, metavar="FILE", help="also write every raw sample as JSON")
    p.add_argument("--only", choices=["checks", "compile", "loop"],
                   help="run one part: check speed, compile speed, or the designer's loop on the shipped rules")
    p.add_argument("--sizes", help="the corpus sizes, comma-separated (default: 1000,10000,100000; "
                   "quick: 50,500); the first two give the scaling figure, the second the cached ones")
    p.add_argument("-v", "--verbose", action="store_true", help="say what is being measured")
    args = p.parse_args(argv)
    plan = dict(QUICK if args.quick else FULL)
    if args.sizes:
        sizes = [int(x) for x in args.sizes.split(",")]
        plan.update(sizes=sizes, cached=sizes[min(1, len(sizes) - 1)], memory=sizes[min(1, len(sizes) - 1)])
    started = time.perf_counter()

    def progress(what: str) -> None:
        if args.verbose:
            print(f"[{time.perf_counter() - started:7.1f}s] {what}", file=sys.stderr, flush=True)

    checks = None
    if args.only in (None, "checks"):
        checks = check_speed.measure(check_speed.build_checks(args.quick, progress), args.quick, progress)
    compiled = None
    if args.only in (None, "compile"):
        compiled = compile_speed.measure(plan["sizes"], plan["cached"], plan["memory"],  # type: ignore[arg-type]
                                         plan["repeats"], progress)  # type: ignore[arg-type]
    loop = None
    if args.only == "loop" or (args.only is None and not args.quick):  # printing: a browser's seconds, full runs
        loop = designer_loop.measure(2 if args.quick else 5, progress)
    info = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "mode": "quick" if args.quick else "full",
        "seconds": f"{time.perf_counter() - started:.0f}",
        **machine(),
    }
    table = render(info, checks, compiled, loop)
    print(table)
    if args.write:
        write_results(args.write, table)
    if args.json:
        raw = {"info": info,
               "checks": {c: {i: s if isinstance(s, str) else list(s.values) for i, s in d.items()}
                          for c, d in (checks or {}).items()},
               "compile": compiled.to_json() if compiled else None,
               "loop": loop.to_json() if loop else None}
        args.json.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
