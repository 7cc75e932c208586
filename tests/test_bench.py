"""The benchmark compares like with like: the hand-written baselines, the rule-engine versions and
the reference interpreter give the generated module's answers on the benchmark's own states.
And the runner produces its table. No timing is asserted here: figures live in bench/RESULTS.md."""

from __future__ import annotations

from typing import Any

import pytest

from bench import baselines, report, states
from bench.checks import load_module
from bench.timing import CallTimer, Sample, interleaved
from rulec.model import Resolved

ocs = load_module()
UNITS = states.units(ocs, 600, seed=7)
HEXES = [h for stack in (1, 4, 12) for h in states.hexes(ocs, stack, 120, seed=11)]


def violations(vs: list[Any]) -> list[tuple[Any, ...]]:
    return [(v.limit, v.title, v.rule, v.total, v.bound, v.excess, tuple(v.units)) for v in vs]


def test_the_states_are_valid_game_states() -> None:
    for u in UNITS:
        assert ocs.unit_from_json(states.as_dict(u)) == u
    assert {u.type for u in UNITS} <= set(ocs.UnitType_values)
    assert set(ocs.UnitType_values) == {u.type for u in UNITS}  # every unit type, so the baselines are checked on each
    assert sum(bool(ocs.stacking(h)) for h in HEXES) > 10, "some stacks break a limit"


def test_hand_written_baselines_give_the_same_answers() -> None:
    for a, n in states.ezoc_cases(ocs):
        assert baselines.ezoc_allows(a, n) is ocs.ezoc_allows(a, n)
    for u in UNITS:
        assert baselines.has_zoc(u) is ocs.has_zoc(u)
        got, want = baselines.re_size(u), ocs.re_size(u)
        assert got == want and type(got) is type(want), u
    for h in HEXES:
        want = violations(ocs.stacking(h))
        assert violations(baselines.stacking(h)) == want
        assert violations(baselines.stacking_fraction(h)) == want


def test_rule_engine_versions_give_the_same_answers() -> None:
    rex = pytest.importorskip("bench.with_rule_engine", exc_type=ImportError)
    for a, n in states.ezoc_cases(ocs):
        assert rex.ezoc_allows({"action": a, "negated": n}) is ocs.ezoc_allows(a, n)
    for u in UNITS[:200]:
        d = rex.state(states.as_dict(u))
        assert rex.has_zoc(d) is ocs.has_zoc(u)
        assert rex.exact(rex.re_size(d)) == ocs.re_size(u)
    for h in HEXES[:150]:
        got = rex.stacking(rex.state(states.as_dict(h)))
        want = ocs.stacking(h)
        assert [(g[0], g[1], g[2], rex.exact(g[3]), g[4], rex.exact(g[5])) for g in got] == \
            [(v.limit, v.title, v.rule, v.total, v.bound, v.excess) for v in want]
        assert [len(g[6]) for g in got] == [len(v.units) for v in want]
        assert [rex.state(states.as_dict(v.units)) for v in want] == [tuple(g[6]) for g in got]


def test_the_interpreter_gives_the_same_answers(ocs_model: Resolved) -> None:
    from rulec.interp import Interpreter

    for u in UNITS[:100]:
        d = states.as_dict(u)
        assert Interpreter(ocs_model).call("has_zoc", [d]) is ocs.has_zoc(u)
        assert Interpreter(ocs_model).call("re_size", [d]) == ocs.re_size(u)
    for h in HEXES[:60]:
        got = Interpreter(ocs_model).call("stacking", [states.as_dict(h)])
        assert [(g["limit"], g["total"], g["excess"]) for g in got] == \
            [(v.limit, v.total, v.excess) for v in ocs.stacking(h)]


@pytest.fixture(scope="module")
def ocs_model() -> Resolved:
    from bench.checks import load_model

    return load_model("OCS")


def test_the_runner_measures_and_prints_a_table() -> None:
    """A tiny run of the check half: every implementation measured, every row in the table."""
    cases = [(u,) for u in UNITS[:20]]
    timers = {"generated": CallTimer(ocs.re_size, cases, 0.001),
              "hand-written": CallTimer(baselines.re_size, cases, 0.001)}
    samples = interleaved(timers, {"generated": 3, "hand-written": 3})
    assert all(len(s.values) == 3 and s.min <= s.median <= s.max for s in samples.values())
    fake = {"re_size": {**samples, "rule-engine": Sample((1e-5, 2e-5, 3e-5))}}
    info = {"mode": "test", "date": "today", "seconds": "0", "cpu": "cpu", "cores": "2", "memory": "1 GiB",
            "os": "os", "python": "CPython"}
    table = report.render(info, fake, None)
    assert "4.6 re_size(u): **generated**" in table and "generated / hand-written" in table
    assert "rule-engine / generated" in table and "Targets:" in table


def test_compiled_rows_hold_the_target_or_say_why_they_are_missing() -> None:
    """The compiled module's row: its ratio against the hand-written baseline and the target of 2; where
    it could not be compiled, the reason, and no verdict."""
    hand, fast = Sample((3e-7, 3e-7, 3e-7)), Sample((1e-7, 1e-7, 1e-7))
    rows = report.check_rows({"re_size": {"generated": hand, "hand-written": hand, "compiled": fast}})
    row = next(r for r in rows if "compiled" in r.figure)
    assert (row.against, row.target, row.met) == ("hand-written / compiled", "≥ 2", True)
    assert row.ratio == pytest.approx(3.0)
    slow = report.check_rows({"re_size": {"generated": hand, "hand-written": hand, "compiled": Sample((2e-7,))}})
    assert next(r for r in slow if "compiled" in r.figure).met is False
    info = {"mode": "test", "date": "today", "seconds": "0", "cpu": "cpu", "cores": "2", "memory": "1 GiB",
            "os": "os", "python": "CPython"}
    missing = {"re_size": {"generated": hand, "hand-written": hand, "compiled": "no C compiler"}}
    table = report.render(info, missing, None)
    assert "4.6 re_size(u): compiled (not measured: no C compiler)" in table
    assert "not measured here: 1" in table


def test_results_are_written_between_the_markers(tmp_path: Any) -> None:
    path = tmp_path / "RESULTS.md"
    path.write_text(f"# R\n\n{report.START}\nold\n{report.END}\n\n## Reading\n\nkept\n", encoding="utf-8")
    report.write_results(path, "new table")
    text = path.read_text(encoding="utf-8")
    assert "new table" in text and "old" not in text and "kept" in text


def test_the_synthetic_corpus_compiles_cleanly() -> None:
    from bench import corpus
    from rulec.build import compile_sources

    tree = corpus.generate(120)
    assert corpus.count_clauses(tree) == 120
    result = compile_sources(tree)
    assert result.ok, [d.render(result.sources) for d in result.diagnostics[:3]]
    assert sorted(result.models) == ["SYG", "SYN"]


def test_the_syntax_trees_row_is_the_floor_under_the_lark_ratio(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each compiled size has a row for rulec's syntax trees alone, its ratio to Lark alone taken
    round by round (what every build does first, under the full build's ratio), and what it times
    parses every file of the tree."""
    from bench import compile as compile_bench
    from rulec import parser

    lark, trees, full = Sample((1.0, 2.0, 1.0)), Sample((1.5, 2.0, 1.4)), Sample((10.0, 20.0, 11.0))
    figures = compile_bench.CompileFigures(sizes=[1000], files={1000: 24}, bytes={1000: 600_000},
                                           full={1000: full}, parse={1000: lark}, trees={1000: trees})
    rows = {r.figure: r for r in report.compile_rows(figures)}
    row = rows["1k clauses (24 files, 0.6 MB): syntax trees alone (every file parsed, nothing more)"]
    assert row.against == "syntax trees / Lark alone" and row.met is None
    assert row.ratio == pytest.approx(1.4) and row.spread == pytest.approx((1.0, 1.5))
    assert "trees" in compile_bench.dump(figures)
    tree = compile_bench.make_tree(60, tmp_path)
    parsed: list[str] = []
    real = parser.parse_reusing

    def parse_reusing(text: str, name: str, earlier: Any) -> Any:
        parsed.append(name)
        return real(text, name, earlier)

    monkeypatch.setattr(parser, "parse_reusing", parse_reusing)
    compile_bench.syntax_trees(tree)
    assert sorted(parsed) == sorted(tree.files)


def test_the_table_says_where_a_full_build_s_time_goes_stage_by_stage(tmp_path: Any) -> None:
    """One more build of the cached size from nothing, timed by stage (rulec.timings), is a table of
    its own under the compile figures: each stage with its seconds, share and rulesets' parts, the
    rest and the whole build last."""
    from bench import compile as compile_bench

    tree = compile_bench.make_tree(60, tmp_path)
    stages = compile_bench.stage_times(tree)
    names = [name for name, _, _ in stages]
    assert names[-2:] == ["the rest (what no stage names)", "the whole build"]
    assert {"check", "emit the module", "rule sheets", "cards", "write the output folder"} <= set(names)
    assert sum(seconds for _, seconds, _ in stages[:-1]) == pytest.approx(stages[-1][1])
    emitted = next(parts for name, _, parts in stages if name == "emit the module")
    assert "SYG " in emitted and "SYN " in emitted
    figures = compile_bench.CompileFigures(sizes=[60], files={60: len(tree.files)}, bytes={60: tree.bytes},
                                           full={60: Sample((1.0,))}, parse={60: Sample((0.1,))},
                                           cached_size=60, stages=stages)
    info = {"mode": "test", "date": "today", "seconds": "0", "cpu": "cpu", "cores": "2", "memory": "1 GiB",
            "os": "os", "python": "CPython"}
    table = report.render(info, None, figures)
    assert "Where the time of a 60-clause full build goes" in table
    whole = stages[-1][1]
    assert f"| the whole build | {whole:.2f} | 100.0% |  |" in table
    assert "| emit the module | " in table and emitted in table
    assert '"stages"' in compile_bench.dump(figures)


def test_peak_memory_is_the_child_s_own_not_its_parent_s() -> None:
    """Linux carries ru_maxrss over an exec: a child of a large process reported the parent's size
    (the benchmark's memory figure was the benchmark's own). high_water() reads the child's VmHWM."""
    import subprocess
    import sys

    from bench.compile import ROOT

    ballast = bytearray(150_000_000)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    code = "from bench.compile import high_water; print(high_water())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert int(done.stdout) < 100_000_000
    del ballast


def test_ratios_are_paired_round_by_round_not_medians_divided() -> None:
    """A load that falls on one side of one round moves a ratio of medians (here to 0.1) but not the
    median of the rounds' own ratios (1); the table shows that median with the rounds' min and max."""
    from bench.timing import alternating, paired

    gen, hand = Sample((1e-6, 1e-6, 10e-6)), Sample((1e-6, 10e-6, 10e-6))
    assert gen.median / hand.median == pytest.approx(0.1)
    assert paired(gen, hand).median == pytest.approx(1.0)
    row = next(r for r in report.check_rows({"re_size": {"generated": gen, "hand-written": hand}})
               if r.against == "generated / hand-written")
    assert row.ratio == pytest.approx(1.0) and row.spread == pytest.approx((0.1, 1.0)) and row.met
    assert "1.00× (0.100×–1.00×)" in "\n".join(report._table([row]))
    order: list[str] = []
    samples = alternating({"a": (lambda: order.append("a"), lambda: order.append("setup")),
                           "b": (lambda: order.append("b"), None)}, 2)
    assert order == ["setup", "a", "b", "setup", "a", "b"]
    assert [len(s.values) for s in samples.values()] == [2, 2]


def test_the_designers_loop_rows_hold_their_targets_and_say_when_printing_was_not_measured() -> None:
    from bench.loop import LoopFigures
    fast, slow = Sample((0.1, 0.2, 0.15)), Sample((6.0, 7.0, 5.5))
    rows = report.loop_rows(LoopFigures(fast, fast, fast, fast, slow, fast, 3))
    by = {r.figure.split(" (")[0]: r for r in rows}
    assert by["shipped rules: no-op rebuild"].met is True and by["shipped rules: one-clause text edit"].met is True
    assert by["shipped rules: no-op under --watch"].met is True
    assert by["shipped rules: one-clause text edit under --watch"].met is True
    assert by["shipped rules: full build with printing"].met is False  # 6 s against at most 5
    assert by["shipped rules: one-card edit with printing"].met is True
    assert "3 prints made again" in next(r.figure for r in rows if "one-card" in r.figure)
    assert not any("under --watch (its browser" in r.figure for r in rows)  # not measured: no row
    watched = report.loop_rows(LoopFigures(fast, fast, fast, fast, slow, fast, 3, slow))
    assert watched[-1].figure.startswith("shipped rules: one-card edit with printing under --watch")
    assert watched[-1].met is False  # 6 s against at most 1
    unprinted = report.loop_rows(LoopFigures(fast, slow, fast, slow, None, None, 0))
    assert unprinted[1].met is False and unprinted[3].met is False and "no Chromium here" in unprinted[-1].figure
    process = report.loop_rows(LoopFigures(fast, fast, fast, fast, None, None, 0, noop_process=slow))
    assert process[1].figure.startswith("shipped rules: no-op rebuild as a process") and process[1].met is False
    table = report.render({"mode": "full", "date": "d", "seconds": "1", "cpu": "c", "cores": "2", "memory": "m",
                           "os": "o", "python": "p"}, None, None, LoopFigures(fast, fast, fast, fast, slow, fast, 3))
    assert "designer's loop" in table and "Targets: 5 of 6 met" in table


def test_the_compile_figures_leave_printing_to_the_loop_measured_after_them() -> None:
    """The compile figures keep the browser out of the builds they time, and put it back when they
    are done: the designer's loop, measured next in the same process, prints (a full run once said
    'no Chromium here' for every printing row, on a machine that had it)."""
    from bench import compile as compile_bench
    from rulec import printing

    before = printing.find_chromium
    compile_bench.measure([], 0, 0, {}, lambda said: None)
    assert printing.find_chromium is before
    try:  # and while they are taken, nothing finds one
        assert compile_bench._no_printing() is before
        assert printing.find_chromium() is None
    finally:
        printing.find_chromium = before  # type: ignore[assignment]


def test_quick_ratios_hold_next_to_a_cpu_hog() -> None:
    """Issue 20, item 5: the quick bench's check ratios (bench.checks.measure with quick=True, as
    `python -m bench --quick --only checks` measures them) are the same next to a busy loop on every
    core as without it, within 20%. Five quick measurements each way, taken in turn (the busy loops
    stopped and continued by SIGSTOP and SIGCONT), and each ratio's median over them: whatever else
    the machine runs meanwhile (another test worker) falls on both conditions alike. Two quick runs
    one after the other, alone and then busy, moved by 62% in CI with the other worker busy during
    one of them; with three each way, one ratio moved by 22% in CI beside the browser tests, which
    print in four tabs. The ratios between the compiled-code implementations, whose targets are close
    (generated against hand-written at most 1.2, the compiled module at least 2 times faster); not
    those of the interpreted engines (about 200 and 2,000 times slower, against a target of 50),
    which move by up to 40% from one process to the next even on an idle machine."""
    import os
    import signal
    import statistics
    import subprocess
    import sys

    from bench.checks import build_checks, measure
    from bench.timing import paired

    checks = build_checks(quick=True)
    for c in checks:
        c.impls = {i: v for i, v in c.impls.items() if i in ("generated", "hand-written", "compiled")}
    runs: dict[str, list[dict[str, float]]] = {"alone": [], "busy": []}
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        for cond in ("alone", "busy") * 5:
            for hog in hogs:
                hog.send_signal(signal.SIGCONT if cond == "busy" else signal.SIGSTOP)
            found = measure(checks, True, lambda said: None)
            ratios = {}
            for name, impls in found.items():
                for num, den in (("generated", "hand-written"), ("hand-written", "compiled")):
                    a, b = impls.get(num), impls.get(den)
                    if isinstance(a, Sample) and isinstance(b, Sample):
                        ratios[f"{name}: {num} / {den}"] = paired(a, b).median
            runs[cond].append(ratios)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    alone, busy = ({k: statistics.median(r[k] for r in runs[cond]) for k in runs[cond][0]} for cond in runs)
    # 6 checks, 2 ratios each; 1 each where this machine cannot compile the module (no C compiler)
    assert set(busy) == set(alone) and len(alone) in (6, 12), sorted(alone)
    moved = {k: f"{alone[k]:.3g} alone, {busy[k]:.3g} busy" for k in alone if abs(busy[k] / alone[k] - 1) > 0.20}
    assert not moved, moved
