"""The table: every figure as median, min and max, its ratio against the baseline of the same run,
and the target it is held to."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .compile import CompileFigures
from .timing import Sample

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
        return f"{x / 2**20:.0f} MB"
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
        gen = generated.median
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
                r = hand.median / s.median
                rows.append(Row(f"{title}: compiled (mypyc)", s, "s", "hand-written / compiled", r,
                                f"≥ {COMPILED_TARGET:g}", r >= COMPILED_TARGET))
                continue
            if isinstance(s, str):  # not measured here: said so
                rows.append(Row(f"{title}: {impl} (not measured: {s})", None, "s"))
            elif impl == "hand-written":
                r = gen / s.median
                rows.append(Row(f"{title}: hand-written", s, "s", "generated / hand-written", r, "≤ 1.2",
                                r <= 1.2))
            elif impl == "rule-engine":
                r = s.median / gen
                rows.append(Row(f"{title}: rule-engine", s, "s", "rule-engine / generated", r, "≥ 50", r >= 50))
            else:
                r = s.median / gen if impl == "interpreter" else gen / s.median
                against = f"{impl} / generated" if impl == "interpreter" else f"generated / {impl}"
                rows.append(Row(f"{title}: {impl}", s, "s", against, r))
    return rows


def _size(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def compile_rows(c: CompileFigures) -> list[Row]:
    rows = []
    for n in c.sizes:
        label = f"{_size(n)} clauses ({c.files[n]} files, {c.bytes[n] / 2**20:.1f} MB)"
        full, parse = c.full[n], c.parse[n]
        rows.append(Row(f"{label}: **full build**", full, "s"))
        r = full.median / parse.median
        rows.append(Row(f"{label}: Lark alone", parse, "s", "full build / Lark alone", r, "≤ 3", r <= 3))
        if n in c.analysis:  # the solver's work on the tables, inside the full build above
            a = c.analysis[n]
            rows.append(Row(f"{label}: table analysis (in the full build)", a, "s", "analysis / full build",
                            a.median / full.median))
    if len(c.sizes) >= 2:
        small, big = c.sizes[0], c.sizes[1]
        r = c.full[big].median / c.full[small].median
        rows.append(Row(f"scaling: full build {_size(big)} / {_size(small)}", None, "s",
                        f"{_size(big)} / {_size(small)}", r, "≤ 12", r <= 12))
    n = c.cached_size
    if c.noop is not None:
        r = c.noop.median / c.full[n].median
        rows.append(Row(f"{_size(n)} clauses: no-op rebuild", c.noop, "s", "no-op / full build", r, "< 0.05",
                        r < 0.05))
    if c.one_file is not None:
        r = c.one_file.median / c.full[n].median
        rows.append(Row(f"{_size(n)} clauses: one-file change", c.one_file, "s", "one file / full build", r,
                        "< 0.10", r < 0.10))
    if c.watch is not None:
        r = c.watch.median / c.full[n].median
        rows.append(Row(f"{_size(n)} clauses: one-file change, rulec build --watch", c.watch, "s",
                        "watch / full build", r))
    if c.memory is not None:
        mb = c.memory.median / 2**20
        rows.append(Row(f"{_size(c.memory_size)} clauses: peak memory (full build, fresh process)", c.memory,
                        "bytes", "", None, "< 300 MB", mb < 300))
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
        out.append(f"| {r.figure} | {' | '.join(cells)} | {r.against} | {_ratio(r.ratio)} | {r.target} | {met} |")
    return out


def render(info: dict[str, str], checks: dict[str, dict[str, Sample | str]] | None,
           compiled: CompileFigures | None) -> str:
    lines = [f"Benchmark ({info['mode']}), {info['date']}, {info['seconds']} s",
             "",
             f"- machine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}",
             f"- Python: {info['python']}",
             ""]
    rows: list[Row] = []
    if checks:
        lines += ["Check speed: time per call over realistic states (the loop's own cost taken off); "
                  "ratios of medians.", ""]
        lines += _table(check_rows(checks)) + [""]
        rows += check_rows(checks)
    if compiled:
        lines += ["Compile speed on synthetic rules trees (python -m bench.corpus); a full build is "
                  "`rulec build` from nothing, card prints (a browser) excluded.", ""]
        lines += _table(compile_rows(compiled)) + [""]
        rows += compile_rows(compiled)
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
