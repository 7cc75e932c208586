"""The table: every figure as median, min and max, its ratio against the baseline of the same run,
and the target it is held to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulec.timings import share

from .compile import CompileFigures
from .loop import LoopFigures
from .timing import Sample, paired

START = "<!-- bench:start (written by python -m bench --write bench/RESULTS.md; do not edit by hand) -->"
END = "<!-- bench:end -->"

CHECK_TITLES = {
    "ezoc_allows": "4.5a ezoc_allows(action, negated)",
    "has_zoc": "4.5 has_zoc(u)",
    "re_size": "4.6 re_size(u)",
}


@dataclass
class Row:
    figure: str
    sample: Sample | None
    unit: str
    against: str = ""
    ratio: float | None = None
    target: str = ""
    met: bool | None = None
    spread: tuple[float, float] | None = None  # the paired ratio's min and max over the rounds


def _paired(figure: str, sample: Sample, unit: str, against: str, num: Sample, den: Sample,
            target: str = "", meets: Callable[[float], bool] | None = None) -> Row:
    """A row whose ratio is num / den taken round by round (paired), reported as the median of the
    rounds' ratios, with their min and max; the target is held to the median."""
    p = paired(num, den)
    r = p.median
    return Row(figure, sample, unit, against, r, target, None if meets is None else meets(r),
               (p.min, p.max) if len(p.values) > 1 else None)


def _time(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _value(x: float, unit: str) -> str:
    if unit == "bytes":
        return f"{x / 1e6:.0f} MB"  # decimal: 10**6 bytes
    return _time(x)


def _ratio(r: float | None) -> str:
    if r is None:
        return ""
    if r >= 100:
        return f"{r:,.0f}×"
    if r >= 10:
        return f"{r:.1f}×"
    return f"{r:.2f}×" if r >= 0.1 else f"{r:.3f}×"


COMPILED_TARGET = 2.0  # the generated module compiled by mypyc: at least twice as fast as the best hand-written


def check_rows(checks: dict[str, dict[str, Sample | str]]) -> list[Row]:
    rows = []
    for name, impls in checks.items():
        title = CHECK_TITLES.get(name, f"4.8 stacking(h), {name.split(', ')[1]}" if "," in name else name)
        generated = impls["generated"]
        assert isinstance(generated, Sample)
        rows.append(Row(f"{title}: **generated**", generated, "s"))
        for impl, s in impls.items():
            if impl == "generated":
                continue
            if impl == "compiled":
                hand = impls.get("hand-written")
                if isinstance(s, str) or not isinstance(hand, Sample):
                    why = s if isinstance(s, str) else "no hand-written figure to compare with"
                    rows.append(Row(f"{title}: compiled (not measured: {why})", None, "s", "hand-written / compiled",
                                    None, f"≥ {COMPILED_TARGET:g}"))
                    continue
                rows.append(_paired(f"{title}: compiled (mypyc)", s, "s", "hand-written / compiled", hand, s,
                                    f"≥ {COMPILED_TARGET:g}", lambda r: r >= COMPILED_TARGET))
                continue
            if isinstance(s, str):  # not measured here: said so
                rows.append(Row(f"{title}: {impl} (not measured: {s})", None, "s"))
            elif impl == "hand-written":
                rows.append(_paired(f"{title}: hand-written", s, "s", "generated / hand-written", generated, s,
                                    "≤ 1.2", lambda r: r <= 1.2))
            elif impl == "rule-engine":
                rows.append(_paired(f"{title}: rule-engine", s, "s", "rule-engine / generated", s, generated,
                                    "≥ 50", lambda r: r >= 50))
            elif impl == "interpreter":
                rows.append(_paired(f"{title}: {impl}", s, "s", f"{impl} / generated", s, generated))
            else:
                rows.append(_paired(f"{title}: {impl}", s, "s", f"generated / {impl}", generated, s))
    return rows


def _size(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def compile_rows(c: CompileFigures) -> list[Row]:
    rows = []
    for n in c.sizes:
        label = f"{_size(n)} clauses ({c.files[n]} files, {c.bytes[n] / 2**20:.1f} MB)"
        full, parse = c.full[n], c.parse[n]
        rows.append(Row(f"{label}: **full build**", full, "s"))
        rows.append(_paired(f"{label}: Lark alone", parse, "s", "full build / Lark alone", full, parse,
                            "≤ 3", lambda r: r <= 3))
        if n in c.trees:  # what every build does first: the floor under the ratio above
            rows.append(_paired(f"{label}: syntax trees alone (every file parsed, nothing more)", c.trees[n], "s",
                                "syntax trees / Lark alone", c.trees[n], parse))
        if n in c.analysis:  # the solver's work on the tables, inside the full build above
            a = c.analysis[n]
            rows.append(_paired(f"{label}: table analysis (in the full build)", a, "s", "analysis / full build",
                                a, full))
    if len(c.sizes) >= 2:
        small, big = c.sizes[0], c.sizes[1]
        r = c.full[big].median / c.full[small].median
        rows.append(Row(f"scaling: full build {_size(big)} / {_size(small)}", None, "s",
                        f"{_size(big)} / {_size(small)}", r, "≤ 12", r <= 12))
    n = c.cached_size
    if c.noop is not None:
        rows.append(_paired(f"{_size(n)} clauses: no-op rebuild", c.noop, "s", "no-op / full build", c.noop,
                            c.full[n], "< 0.05", lambda r: r < 0.05))
    if c.one_file is not None:
        rows.append(_paired(f"{_size(n)} clauses: one-file change", c.one_file, "s", "one file / full build",
                            c.one_file, c.full[n], "< 0.10", lambda r: r < 0.10))
    if c.watch is not None:
        r = c.watch.median / c.full[n].median
        rows.append(Row(f"{_size(n)} clauses: one-file change, rulec build --watch", c.watch, "s",
                        "watch / full build", r))
    if c.memory is not None:
        mb = c.memory.median / 1e6  # decimal megabytes, as the target is written (the old table's "MB" were MiB)
        rows.append(Row(f"{_size(c.memory_size)} clauses: peak memory (full build, cache on, fresh process)", c.memory,
                        "bytes", "", None, "< 300 MB", mb < 300))
    return rows


def stage_table(stages: list[tuple[str, float, str]]) -> list[str]:
    """The stages of one build (rulec.timings rows: the whole build last) as a Markdown table."""
    total = stages[-1][1]
    out = ["| stage | seconds | share | by ruleset |", "| --- | ---: | ---: | --- |"]
    for name, seconds, parts in stages:
        out.append(f"| {name} | {seconds:.2f} | {share(seconds, total)} | {parts} |")
    return out


def loop_rows(lp: LoopFigures) -> list[Row]:
    """The designer's loop on the shipped rules, each figure against its target in seconds."""
    def held(figure: str, sample: Sample, limit: float) -> Row:
        return Row(figure, sample, "s", "", None, f"≤ {limit:g} s", sample.median <= limit)

    rows = [held("shipped rules: no-op rebuild (rulec build in process, its cache on disk, no printing)", lp.noop, 0.3),
            held("shipped rules: one-clause text edit (rulec build in process, its cache on disk, no printing)",
                 lp.one_clause, 0.5),
            held("shipped rules: no-op under --watch (nothing changed, no printing)", lp.watched_noop, 0.3),
            held("shipped rules: one-clause text edit under --watch (no printing)", lp.watched_edit, 0.5)]
    if lp.noop_process is not None:
        rows.insert(1, held("shipped rules: no-op rebuild as a process (python -m rulec build, its cache on disk)",
                            lp.noop_process, 0.3))
    if lp.printed_full is None or lp.one_card is None:
        rows.append(Row("shipped rules: printing (not measured: no Chromium here)", None, "s"))
        return rows
    rows.append(held("shipped rules: full build with printing (a process, from nothing)", lp.printed_full, 5))
    rows.append(held(f"shipped rules: one-card edit with printing (a process; {lp.reprinted} prints made again)",
                     lp.one_card, 1))
    if lp.watched_card is not None:
        rows.append(held("shipped rules: one-card edit with printing under --watch (its browser kept open)",
                         lp.watched_card, 1))
    return rows


def _table(rows: list[Row]) -> list[str]:
    out = ["| figure | median | min | max | ratio | = | target | |",
           "| --- | ---: | ---: | ---: | --- | ---: | --- | --- |"]
    for r in rows:
        if r.sample is None:
            cells = ["", "", ""]
        else:
            cells = [_value(r.sample.median, r.unit), _value(r.sample.min, r.unit), _value(r.sample.max, r.unit)]
        met = "" if r.met is None else ("met" if r.met else "**not met**")
        ratio = _ratio(r.ratio) + (f" ({_ratio(r.spread[0])}–{_ratio(r.spread[1])})" if r.spread else "")
        out.append(f"| {r.figure} | {' | '.join(cells)} | {r.against} | {ratio} | {r.target} | {met} |")
    return out


def render(info: dict[str, str], checks: dict[str, dict[str, Sample | str]] | None,
           compiled: CompileFigures | None, loop: LoopFigures | None = None) -> str:
    lines = [f"Benchmark ({info['mode']}), {info['date']}, {info['seconds']} s",
             "",
             f"- machine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}",
             f"- Python: {info['python']}",
             ""]
    rows: list[Row] = []
    if checks:
        lines += ["Check speed: time per call over realistic states (the loop's own cost taken off); "
                  "each ratio is paired: taken round by round, the implementations measured back to back in each "
                  "round; its median, with its min and max in brackets.", ""]
        lines += _table(check_rows(checks)) + [""]
        rows += check_rows(checks)
    if compiled:
        lines += ["Compile speed on synthetic rules trees (python -m bench.corpus); a full build is "
                  "`rulec build` from nothing, card prints (a browser) excluded.", ""]
        lines += _table(compile_rows(compiled)) + [""]
        rows += compile_rows(compiled)
        if compiled.stages:
            lines += [f"Where the time of a {_size(compiled.cached_size)}-clause full build goes: one more build "
                      "from nothing, timed by stage as `rulec build --timings` times it (wall clock; a stage's time "
                      "is its own, less the stages inside it).", ""]
            lines += stage_table(compiled.stages) + [""]
    if loop:
        lines += ["The designer's loop on the shipped rules (bench/loop.py): in process, as `rulec build` runs "
                  "again with its cache folder and as `rulec build --watch` rebuilds (what it made kept in "
                  "memory), and end to end as whole `rulec build` processes printing with Chromium.", ""]
        lines += _table(loop_rows(loop)) + [""]
        rows += loop_rows(loop)
    held = [r for r in rows if r.met is not None]
    missed = [r for r in held if not r.met]
    unmeasured = [r for r in rows if r.target and r.sample is None and r.met is None]  # compiled, no compiler
    lines.append(f"Targets: {len(held) - len(missed)} of {len(held)} met"
                 + (f"; not met: {'; '.join(r.figure.replace('**', '') for r in missed)}" if missed else "")
                 + (f"; not measured here: {len(unmeasured)}" if unmeasured else "") + ".")
    return "\n".join(lines)


def write_results(path: Path, table: str) -> None:
    """Put the table between the markers of path, keeping everything outside them."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{START}\n{table}\n{END}"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        text = head + block + tail
    else:
        text = ("# Benchmark results\n\nRegenerate with one command: `python -m bench --write bench/RESULTS.md`\n\n"
                + block + "\n" + text)
    path.write_text(text, encoding="utf-8")
