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


SERIES = '''series S "S" version "1"

rule 1.1 "Actions" {
  enum Action "An action" {
    has allowed: bool = false "Allowed"
    - a "A" allowed
    - b "B"
    - c "C" allowed
  }

  enum Terrain "A terrain" {
    - clear "Clear"
    - rough "Rough"
  }

  record Unit "A unit" {
    doing: Action = a "What it does"
    steps: int = 1 "Its steps"
  }

  record Hex "A hex" {
    terrain: Terrain = clear "Its terrain"
  }

  define allows(x: Action) -> bool "Allowed?" = x.allowed
  table may(x: Action) -> bool "May it?" {
    yes: when x.allowed => true "Allowed"
    no: otherwise => false "Not allowed"
  }
  table through(x: Action) -> bool "May it, through a definition?" {
    yes: when allows(x) => true "Allowed"
    no: otherwise => false "Not allowed"
  }
  table unit_may(u: Unit) -> bool "May the unit?" {
    yes: when u.doing == a => true "Doing a"
    no: otherwise => false "Else"
  }
  table steps_of(u: Unit) -> int "Steps of the unit" {
    one: when u.steps == 1 => 1 "One"
    more: otherwise => 2 "More"
  }
  table cost(h: Hex) -> int "Cost of a hex" {
    clear: when h.terrain == clear => 1 "Clear"
    rough: otherwise => 2 "Rough"
  }
}
'''

GAME = '''game G "G" extends S version "1"

rule 2.1 "Actions in G" {
  override 1.1 c: not allowed
}
'''


def test_a_closure_key_holds_the_lists_and_records_it_reads_and_no_others() -> None:
    """A game that changes one list (as DAK changes 4.5a F) changes the key of every table that reads
    it (itself, through a definition, or as the type of a record's field) and of no other, whose
    analysis and card values are then its series'."""
    from tests.conftest import compile_text  # noqa: PLC0415

    result = compile_text(SERIES, GAME)
    assert result.ok, [d.message for d in result.diagnostics]
    s, g = result.models["S"], result.models["G"]
    key_s = {t.name: interp.Interpreter(s).closure_key(t) for t in s.tables}
    key_g = {t.name: interp.Interpreter(g).closure_key(t) for t in g.tables}
    # steps_of reads no Action, but its Unit holds one (a case the analysis tries is a whole Unit)
    assert {n for n in key_s if key_s[n] != key_g[n]} == {"may", "through", "unit_may", "steps_of"}
    assert key_s["cost"] == key_g["cost"]
    # the changed list's value, read by the game's table, answers as the game has it
    assert interp.Interpreter(g).call("may", ["c"]) is False
    assert interp.Interpreter(s).call("may", ["c"]) is True


def test_the_interpreter_reads_every_kind_of_expression_but_a_mistake(shipped: Result) -> None:
    """Interpreter.eval finds how to read an expression in a table by its class (interp._READ): a kind
    of expression added to the model without a reading there would be taken for a mistake already
    reported. Each step of the budget is taken before the reading, a mistake's too."""
    import typing

    from rulec.types import INT

    kinds = set(typing.get_args(m.Expr))
    assert set(interp._READ) == kinds - {m.Error}
    it = interp.Interpreter(shipped.models["OCS"])
    with interp.budget(1):
        with pytest.raises(interp.EvalError, match="mistake"):
            it.eval(m.Error(), {})
        assert interp.out_of_steps()
        with pytest.raises(interp.EvalError, match="steps"):
            it.eval(m.Lit(INT, 1), {})
