"""An answer cites the overrides still in force, not those a later layer replaced.

A scenario that sets again what its game's override set: the game's override no longer decides any
answer, so neither the interpreter nor the generated module cites it (it once said "4.6 battalion
(overridden by G)" beside the scenario's 1/4). The item still lists every override (the card's
history of the change, the IR), the replaced ones marked."""

from __future__ import annotations

import pytest

from rulec import ir
from rulec.build import compile_sources
from rulec.crosscheck import plain
from rulec.evaluate import evaluate

SERIES = '''series S "S" version "1"
ordered enum Size "Size" { - battalion "Battalion"  - regiment "Regiment" }
record Unit "A unit" { size: Size = regiment "Size"  strength: int = 1 "Strength" }
record Hex "A hex" { units: list of Unit = [] "Units" }
rule 4.6 "Regimental Equivalents" {
  table re_size(u: Unit) -> number "RE size" {
    battalion: when u.size == battalion => 1/2 "Battalions are 1/2 RE"
    strong: when u.strength > 5 => 2 "Strong units are 2 RE"
    other: otherwise => 1 "Others are 1 RE"
  }
  const max_stack_re "The most RE in a hex" = 10
  define doubled(n: int) -> int "Doubled" = n * 2
}
rule 4.8 "Stacking" {
  limits stacking(h: Hex) "Stacking" {
    combat_re "Combat units (RE)": sum(re_size(u) for u in h.units) at most max_stack_re
  }
}
rule 5.1 "Terrain" {
  enum Terrain "Terrain" {
    has cost: int = 1 "MP cost"
    has blocks: bool = false "Blocks"
    - clear "Clear"
    - swamp "Swamp" cost = 3
  }
  define swamp_cost(t: Terrain) -> int "The cost" = t.cost
  define swamp_blocks(t: Terrain) -> bool "Blocks" = t.blocks
}
'''

GAME = '''game G "G" extends S "1"
override 4.6 re_size.battalion: when u.size == battalion => 1/3 title "Battalions are 1/3 RE"
override 4.6 re_size.strong: when u.strength > 4 => 2 title "Units over 4 are 2 RE"
override 4.6 max_stack_re: 8
override 4.6 doubled: n * 3
override 4.8 stacking.combat_re: at most 8
override 5.1 swamp: cost = 4 blocks = true
'''

SCENARIO = '''scenario dawn "Dawn" extends G
override 4.6 re_size.battalion: when u.size == battalion => 1/4 title "Battalions are 1/4 RE"
override 4.6 re_size.strong: 3 title "Strong units are 3 RE"
override 4.6 max_stack_re: 6
override 4.6 doubled: title "Twice"
override 4.8 stacking.combat_re: at most 6
override 5.1 swamp: cost = 5
'''


@pytest.fixture(scope="module")
def dawn():  # type: ignore[no-untyped-def]
    result = compile_sources({"s.rules": SERIES, "g.rules": GAME, "d.rules": SCENARIO}, keep_models=True)
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return result.models["dawn"]


def _cites(model, query: str) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    """The rules an answer cites, from the interpreter and from the module (they must agree)."""
    mine = evaluate(model, query)
    module = evaluate(model, query, on_module=True)
    assert plain(mine.value) == plain(module.value)
    return [r["text"] for r in mine.rules], [r["text"] for r in module.rules]


@pytest.mark.parametrize("query, in_force, replaced", [
    # the scenario set the row's condition and value again: the game's override is replaced
    ("re_size(Unit { size: battalion })", ["dawn"], ["G"]),
    # the game set the condition (and value), the scenario the value alone: both decide
    ("re_size(Unit { strength: 5 })", ["G", "dawn"], []),
    ("max_stack_re", ["dawn"], ["G"]),
    # the scenario changed only the title: the game's value still decides
    ("doubled(2)", ["G", "dawn"], []),
    ("stacking(Hex { units: [" + ", ".join(["Unit {}"] * 7) + "] })",
     ["dawn"], ["G"]),
    # a list value: the last layer to set the setting read is cited; the game's `blocks` still holds
    ("swamp_cost(swamp)", ["dawn"], ["G"]),
    ("swamp_blocks(swamp)", ["G"], ["dawn"]),
])
def test_an_answer_cites_only_the_overrides_in_force(dawn, query: str, in_force: list[str],  # type: ignore[no-untyped-def]
                                                     replaced: list[str]) -> None:
    mine, module = _cites(dawn, query)
    assert mine == module
    overrides = [c for c in mine if "(overridden by" in c]
    by = [c.split("(overridden by ")[1].split(")")[0] for c in overrides]
    assert by == in_force, mine
    assert not set(by) & set(replaced)


def test_the_item_keeps_every_override_and_marks_the_replaced(dawn) -> None:  # type: ignore[no-untyped-def]
    table = next(t for t in dawn.tables if t.name == "re_size")
    rows = {r.label: r for r in table.rows}
    assert [(c.layer, c.decides, c.replaced) for c in rows["battalion"].overridden_by] == [
        ("G", ("when", "value"), True), ("dawn", ("when", "value"), False)]
    assert [(c.layer, c.replaced) for c in rows["strong"].overridden_by] == [("G", False), ("dawn", False)]
    const = next(c for c in dawn.consts if c.name == "max_stack_re")
    assert [(c.layer, c.replaced) for c in const.overridden_by] == [("G", True), ("dawn", False)]
    define = next(d for d in dawn.defines if d.name == "doubled")
    assert [(c.layer, c.decides, c.replaced) for c in define.overridden_by] == [
        ("G", ("value",), False), ("dawn", (), False)]
    swamp = next(mb for e in dawn.enums if e.name == "Terrain" for mb in e.members if mb.name == "swamp")
    assert [(c.layer, c.replaced) for c in swamp.overridden_by] == [("G", False), ("dawn", False)]
    data = ir.to_ir(dawn)
    const_ir = next(c for c in data["consts"] if c["name"] == "max_stack_re")
    assert [c.get("replaced", False) for c in const_ir["overridden_by"]] == [True, False]


def test_the_game_alone_still_cites_its_override() -> None:
    result = compile_sources({"s.rules": SERIES, "g.rules": GAME}, keep_models=True)
    mine, module = _cites(result.models["G"], "re_size(Unit { size: battalion })")
    assert mine == module
    assert any("(overridden by G)" in c for c in mine)


def test_coverage_does_not_ask_an_example_for_a_replaced_override(dawn) -> None:  # type: ignore[no-untyped-def]
    # no answer can cite it, so no example could exercise it (R403 would ask for the impossible)
    from rulec.testing import coverage_items
    overrides = {(it.layer, it.words) for it in coverage_items(dawn) if it.kind == "override"}
    assert ("G", "G override of max_stack_re") not in overrides
    assert ("dawn", "dawn override of max_stack_re") in overrides
    assert ("G", "G override of doubled") in overrides  # still in force: dawn changed only its title
    assert ("G", "G override of re_size.battalion") not in overrides
    assert ("G", "G override of re_size.strong") in overrides
