"""Layer order: an option over a game over a series. Later layers win, every value keeps
the override chain that changed it (oldest first), and the layer mistakes are reported."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, TypeVar

import pytest
from conftest import codes, compile_text

from rulec import model as m
from rulec.build import Result
from rulec.interp import Interpreter
from rulec.types import INT

SERIES = '''
series OCS "Operational Combat Series" version "4.3"

enum Size "Unit size" {
  - company "Company"
  - battalion "Battalion"
  - regiment "Regiment"
}

record Unit "A ground unit" {
  size: Size = regiment "The size on its designation"
}

record Hex "A hex" {
  units: list of Unit = [] "The friendly units in the hex"
}

rule 4.5a "Actions not allowed in an enemy ZOC" {
  enum EzocAction "Action in an enemy ZOC" {
    has negatable: bool = false "<Negation>"
    - A "Truck Movement" negatable
    - F "Port Operations - Trace Supply" negatable
  }
  define ezoc_allows(action: EzocAction, negated: bool) -> bool = action.negatable and negated
}

rule 4.6 "Regimental Equivalents" {
  table re_size(u: Unit) -> number "RE size" {
    quarter: when u.size == company => 1/4 "Companies are 1/4 RE"
    battalion: when u.size == battalion => 1/2 "Battalions are 1/2 RE"
    other: otherwise => 1 "All other sizes count as 1 RE"
  }
}

rule 4.8 "Stacking" {
  const max_stack_re "The most RE of combat units in a hex" = 10
  limits stacking(h: Hex) "Stacking limits" {
    combat_re "Combat units (RE)": sum(re_size(u) for u in h.units) at most 10
  }
}
'''

GAME = '''
game DAK "Deutsches Afrika Korps" extends OCS version "II"

override 4.8 max_stack_re: 12
  note game "DAK: 12 RE."
override 4.6 re_size.battalion: 1 title "Battalions are 1 RE"
override 4.8 stacking.combat_re: at most 11
override 4.5a F: not negatable
  note game "In either edition of DAK, units do not negate EZOCs for Port Operations (F)."
override 4.5a: title "Actions not allowed in an enemy ZOC (DAK)"
'''

OPTION = '''
option fog_of_war "Fog of War" extends DAK

override 4.8 max_stack_re: 14
override 4.6 re_size.battalion: when u.size == battalion => 3/4 title "Battalions are 3/4 RE"
override 4.8 stacking.combat_re: at most 13
override 4.5a F: negatable
override 4.5a: title "Actions not allowed in an enemy ZOC (Fog of War)"

ruleset dak_fow "DAK with the Fog of War option" = DAK with fog_of_war
'''


@pytest.fixture(scope="module")
def layered() -> Result:
    result = compile_text(SERIES, GAME, OPTION)
    assert result.ok, [d.render(result.sources) for d in result.diagnostics]
    return result


T = TypeVar("T")


def named(items: Iterable[T], name: str, key: str = "name") -> T:
    (found,) = [i for i in items if getattr(i, key) == name]
    return found


def const(model: m.Resolved) -> m.ConstDef:
    return named(model.consts, "max_stack_re")


def row(model: m.Resolved) -> m.Row:
    return named(named(model.tables, "re_size").rows, "battalion", "label")


def limit(model: m.Resolved) -> m.Limit:
    return named(named(model.limits, "stacking").items, "combat_re")


def member_f(model: m.Resolved) -> m.EnumMember:
    return named(named(model.enums, "EzocAction").members, "F")


def clause(model: m.Resolved) -> m.Clause:
    return named(model.clauses, "4.5a", "number")


def chain(item: m.ConstDef | m.Row | m.Limit | m.EnumMember | m.Clause) -> list[str]:
    return [c.layer for c in item.overridden_by]


def lit(e: m.Expr | None) -> Any:
    """The value of a literal (a value an override wrote)."""
    assert isinstance(e, m.Lit), e
    return e.v


def negatable(member: m.EnumMember) -> m.AttrValue:
    return dict(member.attrs)["negatable"]


def set_by(member: m.EnumMember) -> str | None:
    """The layer that set the member's `negatable` (None: the default)."""
    origin = negatable(member).origin
    return None if origin is None else origin.layer


def test_every_layer_and_the_ruleset_is_built(layered: Result) -> None:
    assert sorted(layered.models) == ["DAK", "OCS", "dak_fow"]  # an option is built only in a ruleset
    assert layered.models["dak_fow"].manifest.layers == ("OCS", "DAK", "fog_of_war")
    assert [(o.name, o.title, o.version) for o in layered.models["dak_fow"].manifest.options] == [
        ("fog_of_war", "Fog of War", None)]
    assert layered.models["DAK"].manifest.layers == ("OCS", "DAK")


def test_const_option_over_game_over_series(layered: Result) -> None:
    ocs, dak, fow = (const(layered.models[n]) for n in ("OCS", "DAK", "dak_fow"))
    assert [lit(c.value) for c in (ocs, dak, fow)] == [10, 12, 14]
    assert (chain(ocs), chain(dak), chain(fow)) == ([], ["DAK"], ["DAK", "fog_of_war"])
    assert [c.origin.file for c in fow.overridden_by] == ["t1.rules", "t2.rules"]
    assert fow.overridden_by[0].notes[0].text == "DAK: 12 RE."
    assert fow.origin.layer == "OCS"  # where the const itself is declared
    read = m.Const(INT, "max_stack_re")
    assert [Interpreter(layered.models[n]).eval(read, {}) for n in ("OCS", "DAK", "dak_fow")] == [10, 12, 14]


def test_table_row_option_over_game_over_series(layered: Result) -> None:
    ocs, dak, fow = (row(layered.models[n]) for n in ("OCS", "DAK", "dak_fow"))
    values = [Interpreter(layered.models[n]).eval(r.value, {}) for n, r in
              zip(("OCS", "DAK", "dak_fow"), (ocs, dak, fow), strict=True)]
    assert values == [Fraction(1, 2), 1, Fraction(3, 4)]
    assert (chain(ocs), chain(dak), chain(fow)) == ([], ["DAK"], ["DAK", "fog_of_war"])
    # the game changed only the value; the option also restated the condition; each gave the row its words
    assert isinstance(fow.when, m.Op) and fow.when.op == "=="
    assert (ocs.title, dak.title, fow.title) == ("Battalions are 1/2 RE", "Battalions are 1 RE",
                                                 "Battalions are 3/4 RE")
    battalion = {"size": "battalion"}
    answers = [Interpreter(layered.models[n]).call("re_size", [battalion]) for n in ("OCS", "DAK", "dak_fow")]
    assert answers == [Fraction(1, 2), 1, Fraction(3, 4)]


def test_a_row_override_without_words_of_its_own_drops_the_series_title_with_r115() -> None:
    """The series' title describes the series' row: after a change of value it would print
    "Battalions are 1/2 RE" beside 1 on the cards and in every answer (#15)."""
    result = compile_text(SERIES, GAME.replace(' title "Battalions are 1 RE"', ""))
    found = [d for d in result.diagnostics if d.code == "R115"]
    assert [(d.severity, d.span.line, d.span.col) for d in found] == [("warning", 6, 10)]
    assert 'not its title "Battalions are 1/2 RE"' in found[0].message and "title" in (found[0].hint or "")
    assert row(result.models["DAK"]).title is None
    answer = Interpreter(result.models["DAK"])
    assert answer.call("re_size", [{"size": "battalion"}]) == 1
    assert [str(c) for c in answer.trace if c.item == "battalion"] == ["4.6 battalion", "4.6 battalion (DAK)"]
    words_only = compile_text(SERIES, GAME.replace(' 1 title "Battalions are 1 RE"', ' title "Half"'))
    assert not [d for d in words_only.diagnostics if d.code == "R115"]


def test_limit_bound_option_over_game_over_series(layered: Result) -> None:
    ocs, dak, fow = (limit(layered.models[n]) for n in ("OCS", "DAK", "dak_fow"))
    assert [lit(lim.bound) for lim in (ocs, dak, fow)] == [10, 11, 13]
    assert (chain(ocs), chain(dak), chain(fow)) == ([], ["DAK"], ["DAK", "fog_of_war"])
    hex_of_12 = {"units": tuple({"size": "regiment"} for _ in range(12))}
    broken = [len(Interpreter(layered.models[n]).check_limits("stacking", [hex_of_12]))
              for n in ("OCS", "DAK", "dak_fow")]
    assert broken == [1, 1, 0]


def test_list_value_option_over_game_over_series(layered: Result) -> None:
    ocs, dak, fow = (member_f(layered.models[n]) for n in ("OCS", "DAK", "dak_fow"))
    assert [negatable(f).value for f in (ocs, dak, fow)] == [True, False, True]
    assert [set_by(f) for f in (ocs, dak, fow)] == ["OCS", "DAK", "fog_of_war"]
    assert (chain(ocs), chain(dak), chain(fow)) == ([], ["DAK"], ["DAK", "fog_of_war"])
    assert [dict(c.set or ()) for c in fow.overridden_by] == [{"negatable": False}, {"negatable": True}]
    answers = [Interpreter(layered.models[n]).call("ezoc_allows", ["F", True])
               for n in ("OCS", "DAK", "dak_fow")]
    assert answers == [True, False, True]


def test_clause_title_option_over_game_over_series(layered: Result) -> None:
    ocs, dak, fow = (clause(layered.models[n]) for n in ("OCS", "DAK", "dak_fow"))
    assert [c.title for c in (ocs, dak, fow)] == [
        "Actions not allowed in an enemy ZOC",
        "Actions not allowed in an enemy ZOC (DAK)",
        "Actions not allowed in an enemy ZOC (Fog of War)",
    ]
    assert (chain(ocs), chain(dak), chain(fow)) == ([], ["DAK"], ["DAK", "fog_of_war"])


def test_the_model_lists_overrides_in_layer_order(layered: Result) -> None:
    fow = layered.models["dak_fow"]
    assert [o.origin.layer for o in fow.overrides] == ["DAK"] * 5 + ["fog_of_war"] * 5
    assert [o.of_layer for o in fow.overrides] == ["OCS"] * 10


def test_options_apply_in_the_order_the_ruleset_lists_them() -> None:
    options = '''
option a "A" extends DAK
override 4.8 max_stack_re: 20
option b "B" extends OCS
override 4.8 max_stack_re: 30
ruleset ab "A then B" = DAK with a, b
ruleset ba "B then A" = DAK with b, a
'''
    result = compile_text(SERIES, GAME, options)
    assert result.ok, codes(result)
    # Order decides, and the designer is told so: a warning for each ruleset with both options.
    assert codes(result) == ["R303", "R303"] and {d.severity for d in result.diagnostics} == {"warning"}
    ab, ba = const(result.models["ab"]), const(result.models["ba"])
    assert (lit(ab.value), chain(ab)) == (30, ["DAK", "a", "b"])
    assert (lit(ba.value), chain(ba)) == (20, ["DAK", "b", "a"])
    assert result.models["ab"].manifest.layers == ("OCS", "DAK", "a", "b")


def test_a_scenario_sits_between_the_game_and_its_options() -> None:
    scenario = '''
scenario crusader "Operation Crusader" extends DAK
override 4.8 max_stack_re: 13
option night "Night turns" extends crusader
override 4.8 max_stack_re: 9
ruleset crusader_night "Crusader at night" = crusader with night
'''
    result = compile_text(SERIES, GAME, scenario)
    assert result.ok, codes(result)
    c = const(result.models["crusader_night"])
    assert (lit(c.value), chain(c)) == (9, ["DAK", "crusader", "night"])
    scenario_ref = result.models["crusader_night"].manifest.scenario
    assert scenario_ref is not None and scenario_ref.name == "crusader"
    assert lit(const(result.models["crusader"]).value) == 13


# ---- mistakes ------------------------------------------------------------------------------------


def test_two_overrides_of_one_thing_in_one_layer_is_r106() -> None:
    twice = OPTION + "override 4.8 max_stack_re: 15\n"
    result = compile_text(SERIES, GAME, twice)
    assert codes(result) == ["R106"]
    (d,) = result.diagnostics
    assert d.message == "fog_of_war overrides 4.8 max_stack_re twice (first at t2.rules:4:1)"
    assert (d.span.file, d.span.line, d.span.col) == ("t2.rules", 11, 10)


def test_the_same_thing_overridden_once_in_each_layer_is_fine(layered: Result) -> None:
    assert layered.diagnostics == []


def test_two_overrides_of_different_rows_of_one_table_are_fine() -> None:
    result = compile_text(SERIES, GAME + "override 4.6 re_size.quarter: 1/2 title \"Companies are 1/2 RE\"\n")
    assert result.ok, codes(result)


def test_an_override_of_a_missing_clause_is_r105() -> None:
    result = compile_text(SERIES, GAME.replace("override 4.8 max_stack_re", "override 4.9 max_stack_re"))
    assert codes(result) == ["R105"]
    (d,) = result.diagnostics
    assert d.message == "override of rule 4.9, which does not exist"
    assert (d.span.line, d.span.col, d.span.end_col) == (4, 10, 13)


def test_an_override_of_a_missing_item_is_r105() -> None:
    result = compile_text(SERIES, GAME.replace("override 4.5a F:", "override 4.5a Z:"))
    assert codes(result) == ["R105"]
    assert result.diagnostics[0].message == "rule 4.5a has no 'Z' to override"


def test_an_override_of_a_clause_of_the_same_layer_is_r105() -> None:
    result = compile_text(SERIES + "override 4.8 max_stack_re: 12\n")
    assert codes(result) == ["R105"]
    assert result.diagnostics[0].message == "override of rule 4.8, which is in this same layer"


def test_an_option_whose_parent_is_not_in_the_ruleset_is_r111() -> None:
    other = OPTION.replace('extends DAK', 'extends BTR') + 'game BTR "Beyond the Rhine" extends OCS\n'
    result = compile_text(SERIES, GAME, other)
    assert codes(result) == ["R111"]
    (d,) = result.diagnostics
    assert d.message == "option fog_of_war extends BTR, which is not part of DAK"
    assert (d.span.file, d.span.line, d.span.col, d.span.end_col) == ("t2.rules", 10, 61, 71)


def test_a_ruleset_of_something_that_is_not_an_option_is_r111() -> None:
    result = compile_text(SERIES, GAME, 'ruleset x "X" = DAK with OCS\nruleset y "Y" = fog\n')
    assert codes(result) == ["R111", "R111"]
    assert [d.message for d in result.diagnostics] == [
        "'OCS' is not an option",
        "ruleset y is built on 'fog', which is not a series, game or scenario",
    ]


def test_models_share_the_layers_items_but_never_change_them() -> None:
    """Resolving shares what a layer declares between the rulesets (one copy in memory), so it
    must never change it: each ruleset resolved alone, in any order, is the same model."""
    import json

    from rulec.checker import check
    from rulec.ir import layer_ir, to_ir
    from rulec.lower import lower
    from rulec.parser import parse
    from rulec.resolver import resolve

    files = [parse(text, f"t{i}.rules")[0] for i, text in enumerate((SERIES, GAME, OPTION))]
    checked, diags = check([f for f in files if f is not None])
    assert not diags
    program = lower(checked)

    def layers() -> str:
        return json.dumps({name: layer_ir(lay) for name, lay in program.layers.items()}, sort_keys=True)

    before = layers()
    rulesets = {rs.name: rs for rs in program.rulesets}
    one_by_one = {name: json.dumps(to_ir(resolve(program, rs)), sort_keys=True) for name, rs in rulesets.items()}
    assert layers() == before
    for name in reversed(sorted(rulesets)):
        assert json.dumps(to_ir(resolve(program, rulesets[name])), sort_keys=True) == one_by_one[name]
    assert layers() == before
    dak = resolve(program, rulesets["DAK"])
    ocs = resolve(program, rulesets["OCS"])
    assert any(a is b for a in dak.records for b in ocs.records)  # shared, not copied
