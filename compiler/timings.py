"""Where a build's time goes: `rulec build --timings`.

Each stage of the pipeline is named where it runs (`with stage("check"):`, or `timed(...)` around
a generator of outputs, whose time counts only while it makes the next one) and, where a stage is
done once per ruleset, with the ruleset's name. A stage's time is its own: while a stage inside it
runs, the clock of the outer one stops, so the stages add up to no more than the build, and what no
stage names is the build's rest. Off (the default), a stage costs one test of a flag.

The clock is wall time (time.perf_counter), as a designer waits for it; a stage that waits for the
disk or for the browser counts that waiting.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")


@dataclass
class Timings:
    """What one build's stages took, in the order each was first met."""

    clock: Callable[[], float] = time.perf_counter
    spent: dict[tuple[str, str], float] = field(default_factory=dict)  # (stage, ruleset or "") -> seconds
    started: float = 0.0
    _open: list[tuple[tuple[str, str], float]] = field(default_factory=list)  # each open stage, since when

    def enter(self, key: tuple[str, str]) -> None:
        now = self.clock()
        if self._open:  # the stage around it stops its clock
            outer, since = self._open[-1]
            self._add(outer, now - since)
        self._open.append((key, now))
        self.spent.setdefault(key, 0.0)

    def leave(self) -> None:
        now = self.clock()
        key, since = self._open.pop()
        self._add(key, now - since)
        if self._open:  # and starts it again
            self._open[-1] = (self._open[-1][0], now)

    def _add(self, key: tuple[str, str], seconds: float) -> None:
        self.spent[key] = self.spent.get(key, 0.0) + seconds

    def rows(self, total: float) -> list[tuple[str, float, str]]:
        """(stage, seconds, each ruleset's part) for each stage in the order met, then the rest of
        the build (total less the stages) and the whole (total)."""
        stages: dict[str, dict[str, float]] = {}
        for (name, ruleset), seconds in self.spent.items():
            stages.setdefault(name, {})[ruleset] = seconds
        rest = max(0.0, total - sum(self.spent.values()))
        rows = [(name, sum(parts.values()), ", ".join(f"{r} {v:.3f}" for r, v in parts.items() if r))
                for name, parts in stages.items()]
        return rows + [(REST, rest, ""), (WHOLE, total, "")]

    def report(self, total: float) -> list[str]:
        """rows() as a table of plain text, each with its share of total."""
        rows = self.rows(total)
        width = max(len(name) for name, _, _ in rows)
        lines = [f"{'stage':<{width}}  {'seconds':>8}  {'share':>6}  by ruleset"]
        for name, seconds, parts in rows:
            lines.append(f"{name:<{width}}  {seconds:8.3f}  {share(seconds, total):>6}  {parts}".rstrip())
        return lines


REST = "the rest (what no stage names)"
WHOLE = "the whole build"


def share(part: float, total: float) -> str:
    return f"{100 * part / total:.1f}%" if total > 0 else "-"


_CURRENT: list[Timings] = []  # the build being timed, if one is


@contextlib.contextmanager
def timing(clock: Callable[[], float] = time.perf_counter) -> Iterator[Timings]:
    """Time the stages run inside (one build at a time)."""
    found = Timings(clock=clock)
    found.started = clock()
    _CURRENT.append(found)
    try:
        yield found
    finally:
        _CURRENT.remove(found)


@contextlib.contextmanager
def stage(name: str, ruleset: str = "") -> Iterator[None]:
    """A stage of the build: its time, less that of the stages inside it, counted under name."""
    if not _CURRENT:
        yield
        return
    t = _CURRENT[-1]
    t.enter((name, ruleset))
    try:
        yield
    finally:
        t.leave()


def timed(name: str, ruleset: str, items: Iterable[T]) -> Iterator[T]:
    """items, with the time each takes to be made counted under the stage name (not the time the
    caller spends on it between two)."""
    if not _CURRENT:
        yield from items
        return
    t = _CURRENT[-1]
    it = iter(items)
    while True:
        t.enter((name, ruleset))
        try:
            item = next(it)
        except StopIteration:
            return
        finally:
            t.leave()
        yield item
