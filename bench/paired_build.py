"""python -m bench.paired_build --base PATH --rules TREE [--head PATH] [--pairs N]

Is this checkout's full build slower than another's? Builds the same rules tree with two source
trees of the compiler (a baseline, e.g. a `git worktree add /tmp/base <commit>`, and this checkout)
in turn, each `rulec build --no-cache --no-print` in a fresh process with PYTHONPATH set to the
tree under test, and reports the median of the per-pair ratios head / base.

Made for a shared machine: the figure is each child's CPU time (user + system, from
`resource.getrusage(RUSAGE_CHILDREN)` before and after it), not wall time, which others' work
stretches; and the builds alternate, base then head, so a load that comes and goes falls on both
sides of a pair alike. A ratio is a pair's own; the median of the ratios shrugs off a bad pair.

Each build writes to its own fresh output folder under a temporary folder, removed at the end.
Exit status 0 unless a build fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child_cpu() -> float:
    """CPU seconds (user + system) used so far by this process's waited-for children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build_cpu(source: Path, rules: Path, out: Path) -> float:
    """One full `rulec build` of rules into out with the compiler in source; its CPU seconds."""
    env = dict(os.environ, PYTHONPATH=str(source))
    command = [sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(out),
               "--no-print", "--no-cache"]
    before = child_cpu()
    done = subprocess.run(command, env=env, cwd=out.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    spent = child_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"build with {source} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return spent


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.paired_build", description=__doc__.split("\n\n")[1])
    p.add_argument("--base", type=Path, required=True, help="the baseline's source tree (holds compiler/)")
    p.add_argument("--head", type=Path, default=ROOT, help=f"the source tree under test (default: {ROOT})")
    p.add_argument("--rules", type=Path, required=True, help="the rules folder to build (python -m bench.corpus)")
    p.add_argument("--pairs", type=int, default=5, help="how many base/head pairs (default: 5)")
    args = p.parse_args(argv)
    base, head, rules = args.base.resolve(), args.head.resolve(), args.rules.resolve()
    for source in (base, head):
        if not (source / "compiler" / "__init__.py").is_file():
            p.error(f"{source} holds no compiler/ package")
    ratios: list[float] = []
    with tempfile.TemporaryDirectory(prefix="paired-build-") as tmp:
        for i in range(1, args.pairs + 1):
            b = build_cpu(base, rules, Path(tmp, f"base-{i}"))
            h = build_cpu(head, rules, Path(tmp, f"head-{i}"))
            ratios.append(h / b)
            print(f"pair {i}: base {b:.2f} s, head {h:.2f} s, head/base {h / b:.3f}", flush=True)
    print(f"median head/base over {len(ratios)} pairs: {statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
