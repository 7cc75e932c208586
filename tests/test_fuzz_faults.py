"""A small run of the fault fuzzer (tests/fuzz_faults.py) and the replay of what it found.

The long run is `python -m tests.fuzz_faults --count 100000 --seed 1 --jobs 2` (SECURITY.md). Here:
the first inputs of each kind of seed 1, each limit just within and just past itself, and a test
for each failure a run found (the inputs are drawn afresh when the generator changes, so a
failure is kept as a test of its own, not as a seed and a number).
"""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import z3

from rulec import cli, decide
from rulec.build import compile_sources
from rulec.interp import MAX_BITS, Interpreter
from rulec.manifest import sweep
from tests import fuzz_faults as ff
from tests.test_analysis import SIZES, model_of

SMALL_RUN = {"lsp": 24, "limit": 16, "full": 10, "kill": 10}


@pytest.fixture(scope="module")
def place() -> Iterator[ff.Place]:
    p = ff.Place()
    try:
        yield p
    finally:
        p.close()


def first_of(kind: str, count: int, seed: int = 1) -> list[int]:
    found, i = [], 0
    while len(found) < count:
        if ff.generate(seed, i).kind == kind:
            found.append(i)
        i += 1
    return found


@pytest.mark.parametrize("kind", sorted(SMALL_RUN))
def test_a_small_run_of_each_kind(place: ff.Place, kind: str) -> None:
    if kind == "full" and place.small_fs() is None:
        pytest.skip(f"a small file system cannot be mounted here ({place.mount_error}); the long run needs root")
    failures = {}
    for i in first_of(kind, SMALL_RUN[kind]):
        why = ff.run(ff.generate(1, i), place)
        if why is not None:
            failures[i] = why
    assert failures == {}


@pytest.mark.parametrize("name", sorted(set(ff.LIMITS) - {"state", "steps", "bits"}))
@pytest.mark.parametrize("delta", [0, 1])
def test_each_limit_is_where_it_says(place: ff.Place, name: str, delta: int) -> None:
    """At the limit: a build or diagnostics, none of them the limit's; one past it: the limit's
    diagnostic, located; within the bounds of CPU and memory either way."""
    assert ff.check_limit(place, *ff.limit_input(random.Random(0), name, delta)) is None


@pytest.mark.parametrize("style", ["depth", "digits", "bytes"])
@pytest.mark.parametrize("delta", [0, 1])
def test_a_state_at_and_past_its_bounds(place: ff.Place, style: str, delta: int) -> None:
    for seed in range(20):  # the state's style is drawn: find this one
        name, d, sources, extra, code = ff.limit_input(random.Random(seed), "state", delta)
        if extra == ["state", style]:
            assert ff.check_limit(place, name, d, sources, extra, code) is None
            return
    pytest.fail(f"no state input of style {style}")


def test_the_generator_is_a_pure_function_of_seed_and_number() -> None:
    assert [ff.generate(3, i) for i in range(200)] == [ff.generate(3, i) for i in range(200)]
    assert {ff.generate(3, i).kind for i in range(200)} == set(ff.KINDS)
    assert ff.limit_input(random.Random(5)) == ff.limit_input(random.Random(5))


# ---- what runs found -------------------------------------------------------------------------


def test_a_number_past_the_bound_in_an_example_is_r402_not_a_disagreement() -> None:
    """The interpreter stops at MAX_BITS; the generated module, which has no such bound, computed
    the number, and the two were compared: exit 3, 'rulec disagrees with itself' (found: limit,
    bits +302)."""
    factors = [10**99 + k for k in range(14)]
    product = 1
    for f in factors:
        product *= f
    assert product.bit_length() > MAX_BITS
    text = ('series S "S"\nrule 1.1 "R" {\n  define f(n: number) -> number = n * '
            + " * ".join(map(str, factors)) + '\n  example "e" { expect f(1) > 0 }\n}\n')
    result = compile_sources({"t.rules": text})
    assert [d.code for d in result.diagnostics] == ["R402"]
    assert "more than 1,200 digits" in result.diagnostics[0].message


def test_an_interrupt_while_reading_the_arguments_is_exit_130(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """SIGINT before the command began escaped as a KeyboardInterrupt with a traceback (found:
    kill, SIGINT after 0.000 s)."""
    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "make_parser", interrupted)
    assert cli.main(["check", "rules"]) == cli.EXIT_INTERRUPTED
    assert "interrupted" in capsys.readouterr().err


def test_a_spent_table_budget_puts_no_more_questions_to_the_solver() -> None:
    """Once the table's budget is gone, a question is "unknown" without handing it to the solver:
    asserting the questions of a 1,000-row table took 6 s past its clock (found: limit, rows -3,
    20 s of CPU)."""
    model = model_of(SIZES)
    table = model.tables[0]
    tr = decide.Translator(model, Interpreter(model), 1)
    params = {p.name: tr.fresh(p.t, p.name) for p in table.params}
    solver = decide.Solver(tr, params, table.params)
    assert solver.check(tr.true) == "sat"
    solver.left = 0
    before = len(solver.s.assertions())
    assert solver.check(z3.Not(tr.true)) == "unknown"
    assert solver.state(tr.true) is None
    assert len(solver.s.assertions()) == before


def test_the_temporaries_of_a_killed_writer_are_swept(tmp_path: Path) -> None:
    """A cache file is written through .<stem>.<pid>.<random>.tmp; the next build removes those of
    processes that are gone (a killed build's stayed an hour), and keeps a live writer's."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)  # a process that is gone
    dead = tmp_path / f".modules.{pid}.abc123.tmp"
    live = tmp_path / f".modules.{os.getppid()}.def456.tmp"
    odd = tmp_path / ".modules.tmp"
    keep = tmp_path / "modules.pickle"
    for p in (dead, live, odd, keep):
        p.write_bytes(b"x")
    sweep(tmp_path)
    assert not dead.exists() and live.exists() and odd.exists() and keep.exists()


def test_a_killed_build_leaves_nothing_after_the_next(place: ff.Place) -> None:
    """A build killed at once and half way: the next build gives the new output and removes all
    the killed one left."""
    for delay in (0.0, 0.5 * max(place.seconds.get(False, 0.2), 0.05)):
        folder = place.top / "killed"
        rules, out, cache = folder / "rules", folder / "out", folder / "cache"
        assert ff._prepare(place, folder, out, cache, 0, False) is None
        (rules / "s.rules").write_text(ff.variant(1), encoding="utf-8")
        killed = ff.forked(ff._build(rules, out, cache), kill_after=delay, sig=signal.SIGKILL)
        assert ff.files(out) in (place.ref(0, False), place.ref(1, False))
        again = ff.in_process(ff._build(rules, out, cache))
        assert again.code == 0 and ff.files(out) == place.ref(1, False)
        assert ff._junk(out, cache, killed.pid) == []
        place.built[out] = 1
