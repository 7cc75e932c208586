"""The table analysis against mutants of the shipped rules (tests/mutation.py): a small seeded run
in the suite; the whole run, every mutant, is `python -m tests.mutation --count 1000 --seed 1`."""

from __future__ import annotations

from tests import mutation


def test_every_finding_of_the_enumeration_is_reported_and_nothing_else() -> None:
    # 11 s. Seed 5: the eight mutants it draws show six findings (seed 1 drew none once OCS 4.2's odds
    # table said what it requires, which reshuffled the mutants)
    tally = mutation.run(count=8, seed=5, log=lambda line: None)
    assert tally.mutants == 8
    assert tally.missed == [] and tally.false == [], "\n".join(tally.missed + tally.false)
    assert tally.findings > 0 and tally.detected == tally.findings  # the run found something to detect


def test_a_mutant_changes_one_thing_in_one_table() -> None:
    import random

    text = ('rule 1.1 "T" {\n  table t(u: Unit) -> number "T" {\n    a: when u.x <= 3 and u.y => 1 "A <= 3"\n'
            '    b: otherwise => 2\n  }\n}\n')
    found = {x.what for x in mutation.mutants({"t.rules": text}, random.Random(1))}
    assert found == {"'<=' -> '<'", "3 -> 2", "3 -> 4", "'and' -> 'or'", "1 -> 0", "1 -> 2", "2 -> 1", "2 -> 3",
                     "row a dropped", "row b dropped", "row b moved up"}  # nothing inside the quoted title
