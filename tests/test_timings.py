"""`rulec build --timings`: where a build's time went, stage by stage (compiler/timings.py). A
stage's time is its own (a stage inside it stops its clock), a generator's stage counts only the
making of each item, and a build without the flag times nothing."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import RULES

from rulec import cli, timings
from rulec.timings import stage, timed, timing


class Clock:
    """A clock that moves only when told: each step is a known number of seconds."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


def test_a_stage_inside_another_stops_its_clock_and_a_generator_counts_only_its_items() -> None:
    clock = Clock()

    def cards() -> Iterator[str]:
        clock.wait(2)  # making the first card
        yield "card-1"
        clock.wait(3)  # the second
        with stage("card tables", "OCS"):
            clock.wait(5)  # its tables, a stage of their own
        yield "card-2"

    with timing(clock) as spent:
        clock.wait(1)  # before any stage: the rest
        with stage("check"):
            clock.wait(4)
            with stage("resolve", "OCS"):
                clock.wait(6)
            clock.wait(1)
        for _ in timed("cards", "OCS", cards()):
            clock.wait(10)  # the writer's time with each card: not the cards'
    assert spent.spent == {("check", ""): 5, ("resolve", "OCS"): 6, ("cards", "OCS"): 5, ("card tables", "OCS"): 5}
    lines = spent.report(clock() - spent.started)
    assert lines[0].split() == ["stage", "seconds", "share", "by", "ruleset"]
    rows = {re.split(r"\s{2,}", line)[0]: re.split(r"\s{2,}", line)[1:] for line in lines[1:]}
    assert rows["check"] == ["5.000", "11.9%"]
    assert rows["resolve"] == ["6.000", "14.3%", "OCS 6.000"]
    assert rows["the rest (what no stage names)"] == ["21.000", "50.0%"]  # 1 before any stage, 20 writing
    assert rows["the whole build"] == ["42.000", "100.0%"]
    assert list(rows)[:4] == ["check", "resolve", "cards", "card tables"]  # in the order met


def test_without_timing_stages_cost_nothing_and_change_nothing() -> None:
    assert not timings._CURRENT
    with stage("check"):
        pass
    assert list(timed("cards", "OCS", iter([1, 2, 3]))) == [1, 2, 3]
    assert not timings._CURRENT


def test_a_failing_stage_is_still_counted_and_closed() -> None:
    clock = Clock()
    with timing(clock) as spent:
        with pytest.raises(ValueError), stage("check"):
            clock.wait(2)
            raise ValueError("a rulec bug")
        with stage("lower"):
            clock.wait(1)
    assert spent.spent == {("check", ""): 2, ("lower", ""): 1}
    assert not spent._open and not timings._CURRENT


def _stages(err: str) -> dict[str, float]:
    found = {}
    for line in err[err.index("where the time of 'rulec build' went"):].splitlines()[2:]:
        parts = re.split(r"\s{2,}", line.strip())
        found[parts[0]] = float(parts[1])
    return found


def test_rulec_build_timings_names_each_stage_of_the_shipped_rules(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    out = tmp_path / "generated"
    args = ["build", "--rules", str(rules), "--out", str(out), "--no-print", "--no-cache"]
    assert cli.main(args) == 0
    assert "where the time" not in capsys.readouterr().err  # only when asked
    shutil.rmtree(out)
    assert cli.main([*args, "--timings"]) == 0
    err = capsys.readouterr().err
    stages = _stages(err)
    for name in ["parse the rules files (or take them up from the cache)", "check", "analyse the tables",
                 "emit the module", "load the module for the examples", "run the worked examples", "the IR",
                 "rule sheets", "cards", "card tables", "traceability", "write the output folder"]:
        assert name in stages, name
    whole = stages.pop("the whole build")
    assert 0 < sum(stages.values()) <= whole + 0.01  # the stages and the rest make up the build, rounded
    emitted = next(line for line in err.splitlines() if line.strip().startswith("emit the module"))
    assert all(f"{name} " in emitted for name in ["OCS", "DAK", "ZCS", "ACW"])  # each ruleset's part


def test_timings_do_not_go_with_watch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["build", "--rules", str(RULES), "--out", str(tmp_path / "g"), "--watch", "--timings"]) == 2
    assert "--timings times one build; it does not go with --watch" in capsys.readouterr().err
