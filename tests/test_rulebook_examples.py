"""The rulebook's worked examples, written next to their clauses in rules/, as tests:
each runs in the reference interpreter and against the generated Python module."""

from __future__ import annotations

from typing import Any

import pytest
from compiled import load_generated
from conftest import RULES

from rulec.analysis import run_example_traced
from rulec.build import compile_sources, find_sources
from rulec.cli import main
from rulec.testing import run_tests


def _examples() -> list[tuple[str, int, str]]:
    sources, _ = find_sources([RULES])
    models = compile_sources(sources).models
    out = []
    for name, model in sorted(models.items()):
        own = model.manifest.layers[-1]
        for i, ex in enumerate(model.examples):
            if ex.origin.layer == own:
                out.append((name, i, f"{name} {ex.clause} {ex.title or ''}".strip()))
    return out


EXAMPLES = _examples()


@pytest.mark.parametrize(("ruleset", "index"), [(r, i) for r, i, _ in EXAMPLES], ids=[n for _, _, n in EXAMPLES])
def test_example_holds(shipped: Any, ruleset: str, index: int) -> None:
    model = shipped.models[ruleset]
    ex = model.examples[index]
    outcome, diags, _ = run_example_traced(model, ex)
    assert outcome == "pass", "\n".join(d.render(shipped.sources) for d in diags)
    # the committed module answers every call the example makes as the interpreter does
    outcome, diags, _ = run_example_traced(model, ex, load_generated(ruleset))
    assert outcome == "pass", "\n".join(d.render(shipped.sources) for d in diags)


def test_the_rulebook_numbers_are_there(shipped: Any) -> None:
    titles = {ex.title for r in shipped.models.values() for ex in r.examples}
    assert "2.5, 3.25 and 4 against 2: 9.75 to 2 is 4.875 to 1, which is 5:1" in titles
    assert "Design Note: a 15 to 6 attack rounds to 3:1" in titles
    assert "Halved for terrain and halved for supply: quartered" in titles
    assert "Aircraft refit with a friendly combat unit of any mode in the hex" in titles
    assert "A truck with 45 MA pays 5 MP to load or unload" in titles


def test_every_rule_is_exercised(shipped: Any) -> None:
    report = run_tests(shipped.models)
    assert report.failed == 0
    assert report.passed >= 80
    assert [i.words for i in report.uncovered] == []


def test_a_failing_example_points_at_its_own_line(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t.rules").write_text(
        'series S "S"\n'
        'rule 1.1 "One" {\n'
        '  define double(x: int) -> int = x + x\n'
        '  example "two twos" {\n'
        '    expect double(2) == 4\n'
        '    expect double(2) == 5\n'
        '  }\n'
        '}\n')
    code = main(["test", "--rules", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert f"{tmp_path.name}/t.rules:6:5: error R401: example of 1.1 fails for S" in err
    assert out.strip().endswith("0 passed, 1 failed")


def test_coverage_lists_what_no_example_exercises(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t.rules").write_text(
        'series S "S"\n'
        'rule 1.1 "One" {\n'
        '  table size(big: bool) -> int { large: when big => 2  small: otherwise => 1 }\n'
        '  example { expect size(true) == 2 }\n'
        '}\n'
        'rule 1.2 "Words only" {\n'
        '  text "Nothing to compute."\n'
        '}\n')
    code = main(["test", "--coverage", "--rules", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "t.rules:3:56: error R403: no example exercises row size: row small" in err
    assert "t.rules:6:1: error R403: no example exercises clause 1.2, which decides nothing" in err
    assert "coverage: 2 of 4" in out


ZOC_CLASSES = ["no_zoc", "partial", "full", "double", "triple"]


def _screens_by_assignment(screeners: tuple[str, ...], enemies: tuple[str, ...]) -> bool:
    """ZCS 5.C.2 c, d and note 5 read directly: some assignment of the enemy stacks to the screening
    units gives each unit one stack of its class or lower, or two of lesser classes."""
    import itertools  # noqa: PLC0415

    rank = ZOC_CLASSES.index

    def fits(s: str, got: list[int]) -> bool:
        return (len(got) <= 1 and all(g <= rank(s) for g in got)) or (len(got) == 2 and all(g < rank(s) for g in got))

    for assign in itertools.product(range(len(screeners)), repeat=len(enemies)):
        if all(fits(s, [rank(e) for e, a in zip(enemies, assign, strict=True) if a == i])
               for i, s in enumerate(screeners)):
            return True
    return not enemies


def test_screening_matches_an_assignment_of_screeners_to_stacks() -> None:
    """all_stacks_screened, as the ZCS rules compute it from the greatest class down, against the
    assignment the text describes, for every 0 to 3 screening units and 0 to 3 enemy stacks (a
    lesser screener was counted against a greater stack: the audit's contradictions 5 and 6)."""
    import itertools  # noqa: PLC0415

    zcs = load_generated("ZCS")
    differ = []
    for ns in range(4):
        for ne in range(4):
            for screeners in itertools.product(ZOC_CLASSES, repeat=ns):
                for enemies in itertools.product(ZOC_CLASSES, repeat=ne):
                    if zcs.all_stacks_screened(list(screeners), list(enemies)) != _screens_by_assignment(
                            screeners, enemies):
                        differ.append((screeners, enemies))
    assert differ == []
