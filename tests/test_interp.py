"""The reference interpreter (compiler/interp.py) on the shipped rules: every worked example holds
where it was written, citing only rules its ruleset has; closure keys follow content."""

from __future__ import annotations

from typing import Any

import pytest

from rulec import interp
from rulec import model as m
from rulec.build import Result


@pytest.mark.parametrize("ruleset", ["OCS", "DAK", "DAK_fog", "ZCS", "ACW"])
def test_every_example_holds_where_it_was_written(shipped: Result, ruleset: str) -> None:
    """Each `expect` of an example of the ruleset's own layer is True itself (not a truthy value)
    on the interpreter alone, within the step budget, and every rule a step cites (its `let`s' too)
    is a layer of the ruleset and a clause it has."""
    model = shipped.models[ruleset]
    layers = model.manifest.layers
    examples = [ex for ex in model.examples if ex.origin.layer == layers[-1]]
    assert examples
    numbers = {c.number for c in model.clauses} | {e.number for e in model.externals}
    for ex in examples:
        env: dict[str, Any] = {}
        for step in ex.steps:
            a = interp.Interpreter(model)
            with interp.budget():
                if isinstance(step, m.LetStep):
                    env[step.name] = a.eval(step.value, env)
                    where = f"{ex.origin.file}:{ex.origin.line}"
                else:
                    got = a.eval(step.expr, env)
                    where = f"{ex.origin.file}:{step.origin.line}"
                    assert got is True, where
            for c in a.trace:
                assert c.layer in layers and (c.clause is None or c.clause in numbers), f"{where}: {c}"


def test_closure_keys_follow_content_not_identity(shipped: Result) -> None:
    """A table a game takes unchanged from its series has one key in both; a changed one does not."""
    ocs, dak = shipped.models["OCS"], shipped.models["DAK"]
    a, b = interp.Interpreter(ocs), interp.Interpreter(dak)
    keys_a = {t.name: a.closure_key(t) for t in ocs.tables}
    keys_b = {t.name: b.closure_key(t) for t in dak.tables}
    shared = set(keys_a) & set(keys_b)
    assert shared
    assert any(keys_a[n] != keys_b[n] for n in shared)  # DAK changes re_size (or what it reads)
    assert all(a.closure_key(t) == keys_a[t.name] for t in ocs.tables)  # stable


def test_a_set_is_written_as_json_in_one_order_whatever_it_holds() -> None:
    """Numbers by value (a fraction is text in JSON, and '1/2' < '1/4' as text), records by their
    JSON: a set of mixed numbers or of records used to crash the cards' value tables."""
    from fractions import Fraction  # noqa: PLC0415

    from rulec.interp import Record, to_json  # noqa: PLC0415

    assert to_json(frozenset({Fraction(1, 2), Fraction(1, 4), 3, 0})) == [0, "1/4", "1/2", 3]
    assert to_json(frozenset({True, False})) == [False, True]
    records = to_json(frozenset({Record(to=2, of=Fraction(1, 2)), Record(to=1, of=Fraction(1, 4))}))
    assert records == [{"to": 2, "of": "1/2"}, {"to": 1, "of": "1/4"}]  # by their JSON text, keys sorted
