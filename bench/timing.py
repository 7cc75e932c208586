"""Measuring: repeated runs, each figure the median with its min and max; the machine it ran on."""

from __future__ import annotations

import gc
import os
import platform
import statistics
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Sample:
    """Repeated measurements of one figure (seconds per operation, or bytes, ...)."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def min(self) -> float:
        return min(self.values)

    @property
    def max(self) -> float:
        return max(self.values)


class CallTimer:
    """Seconds per call of fn(*case), over every case in turn: the loop's own cost (the same loop
    with an empty body, timed in turn with it) is taken off, so the figure is the call alone.

    Each measurement is the fastest of `INNER` runs through the whole list `number` times, number
    chosen so that the INNER runs take about `budget` seconds: a run is short, well within the time
    a busy machine's scheduler gives a process at once, so one of them is likely to run untouched,
    and the fastest is the call's own cost (the median of runs of a whole slice each moved with the
    load: quick ratios swung by up to 129% next to a CPU hog).

    Every run is timed on the thread's CPU clock (time.thread_time), not the wall clock: the time
    another process had the core is not the call's. Next to a busy loop on each core, the worst of
    the 12 quick ratios moved 19.6% from alone on the wall clock and 10.2% on the CPU clock, as
    much as two runs alone move (10.6%) (three runs each way, python -m bench --quick --only checks)."""

    INNER = 5
    CLOCK = staticmethod(time.thread_time)

    def __init__(self, fn: Callable[..., Any], cases: Sequence[tuple[Any, ...]], budget: float):
        arity = len(cases[0])
        names = ", ".join(f"a{i}" for i in range(arity)) + ("," if arity == 1 else "")
        call = ", ".join(f"a{i}" for i in range(arity))
        self.timer = timeit.Timer(f"for {names} in cases: f({call})", timer=self.CLOCK,
                                  globals={"f": fn, "cases": cases})
        self.empty = timeit.Timer(f"for {names} in cases: pass", timer=self.CLOCK, globals={"cases": cases})
        self.number = _number_for(self.timer, budget / self.INNER)
        self.runs = len(cases) * self.number
        self.values: list[float] = []
        # A call so slow that one pass through the list outlasts a run (the interpreted engines, at
        # milliseconds a call): each case timed on its own, the fastest of 2 * INNER calls of each.
        self.each: list[timeit.Timer] = []
        if self.number == 1 and self.timer.timeit(1) > budget / self.INNER:
            self.each = [timeit.Timer("f(*case)", timer=self.CLOCK, globals={"f": fn, "case": case}) for case in cases]

    def once(self) -> None:
        if self.each:
            # twice the tries: a call this long is often cut by the scheduler
            self.values.append(sum(min(t.repeat(repeat=2 * self.INNER, number=1)) for t in self.each) / len(self.each))
            return
        # The loop's own cost measured again beside the calls, runs in turn: a call of tens of
        # nanoseconds is not much more than the loop around it.
        fastest, loop = float("inf"), float("inf")
        for _ in range(self.INNER):
            fastest = min(fastest, self.timer.timeit(self.number))
            loop = min(loop, self.empty.timeit(self.number))
        self.values.append(max(fastest - loop, 0.0) / self.runs)

    def sample(self) -> Sample:
        return Sample(tuple(self.values))


def interleaved(timers: dict[str, CallTimer], repeats: dict[str, int]) -> dict[str, Sample]:
    """Run the timers in turn, round after round, so that a passing load on the machine falls on
    every implementation alike rather than on whichever was being measured then."""
    for r in range(max(repeats.values())):
        for name, t in timers.items():
            if r < repeats[name]:
                t.once()
    return {name: t.sample() for name, t in timers.items()}


def paired(a: Sample, b: Sample) -> Sample:
    """a / b round by round: the two were measured back to back in each round (interleaved,
    alternating), so each ratio is a fair pair, and a load that came and went falls on both sides
    of it. Its median, min and max are the ratio's figures; a ratio of two medians taken apart
    would swing with the load (issue #20: 0.36 to 6.69 between three quick runs on a busy machine)."""
    n = min(len(a.values), len(b.values))
    return Sample(tuple(x / y for x, y in zip(a.values[:n], b.values[:n], strict=True) if y > 0))


Run = tuple[Callable[[], Any], Callable[[], Any] | None]  # what is timed, and its untimed setup


def alternating(runs: dict[str, Run], repeats: int) -> dict[str, Sample]:
    """Seconds per run of each fn(), in turn, round after round (each after its setup, which is
    not timed): round r of every run is one pair for paired()."""
    values: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, (fn, setup) in runs.items():
            if setup is not None:
                setup()
            gc.collect()
            start = time.perf_counter()
            fn()
            values[name].append(time.perf_counter() - start)
    return {name: Sample(tuple(v)) for name, v in values.items()}


def wall(fn: Callable[[], Any], repeats: int, setup: Callable[[], Any] | None = None) -> Sample:
    """Seconds per run of fn(), each run timed on its own (after setup(), not timed)."""
    values = []
    for _ in range(repeats):
        if setup is not None:
            setup()
        gc.collect()
        start = time.perf_counter()
        fn()
        values.append(time.perf_counter() - start)
    return Sample(tuple(values))


def _number_for(timer: timeit.Timer, budget: float) -> int:
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= budget / 4 or number >= 1 << 20:
            return max(1, int(number * budget / max(elapsed, 1e-9)))
        number *= 4


def machine() -> dict[str, str]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        memory = f"{pages * size / 2**30:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        pass
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count() or "?"),
        "memory": memory or "?",
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "executable": sys.executable,
    }
