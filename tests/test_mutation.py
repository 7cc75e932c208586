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


def test_the_oracle_tries_records_that_only_a_late_field_makes_valid() -> None:
    # A Transport Point is valid only in Move mode (13.2b's invariant reads `mode`, the ninth of the
    # fields the invariants read): the oracle once tried only the first 500 of their product, which
    # never changed `mode`, found no valid Transport Point, and called needs_fuel's 13.2b row dead.
    import random

    from rulec.build import compile_sources, find_sources

    sources, _ = find_sources([mutation.ROOT / "rules"])
    result = compile_sources(sources, keep_models=True)
    model = next(x for x in result.models.values() if len(x.manifest.layers) == 1
                 and any(t.name == "needs_fuel" for t in x.tables))
    table = next(t for t in model.tables if t.name == "needs_fuel")
    truth = mutation.Enumeration(model, table, random.Random(1)).truth()
    assert truth.whole
    assert {table.rows[i].label for i in truth.first} == {"transport", "motorized", "leg"}


def test_values_with_no_answer_are_judged_in_tables_and_definitions() -> None:
    # Every mutant of these leaves an input with no answer (x at or near 3): the oracle finds it by
    # enumeration, and the analysis must report it, R307 for the table's row and R308 for the
    # definition, each report with an input that really has none.
    import random

    text = ('series S "S" version "1"\n\nrule 1 "One" {\n'
            '  define f(x: int) -> number "F" = 12 / (x - 3)\n'
            '  table t(x: int) -> number "T" {\n    big: when x > 10 => 1\n    other: otherwise => 12 / (x - 3)\n'
            '  }\n}\n')
    sources = {"t.rules": text}
    found = mutation.mutants(sources, random.Random(1))
    assert {m.kind for m in found} == {"define", "table"}
    tally = mutation.Tally()
    for n, mutant in enumerate(found):
        if "row" not in mutant.what:  # a row dropped or moved leaves the division as it was
            mutation.judge(mutant, sources, random.Random(n), tally)
    assert tally.missed == [] and tally.false == [], "\n".join(tally.missed + tally.false)
    assert tally.findings >= 8 and tally.detected == tally.findings
