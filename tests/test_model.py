"""The typed model after the syntax tree: the types of the language, typed expressions, the checker
that reports every mistake, the lowering that reports none, and the IR written from the model."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, RULES

from rulec import ir
from rulec import model as m
from rulec.build import find_sources
from rulec.checker import check
from rulec.diagnostics import Diagnostic
from rulec.exprs import Lowerer
from rulec.lower import lower
from rulec.parser import parse, parse_query
from rulec.resolver import files_of, resolve
from rulec.scope import CheckedProgram
from rulec.types import (
    ANY,
    BOOL,
    INT,
    NUMBER,
    TEXT,
    EnumT,
    ListT,
    RecordT,
    SetT,
    assignable,
    describe,
    item_type,
    join,
    parse_type,
)

# ---- types ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["bool", "int", "number", "text", "any", "enum Mode", "record Unit",
                                  "list of int", "set of enum Mode", "list of set of record Hex"])
def test_a_type_reads_back_as_written(text: str) -> None:
    assert str(parse_type(text)) == text


@pytest.mark.parametrize("text", ["", "enum", "list int", "enum 2x", "of int", "Mode"])
def test_a_type_that_is_none_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_type(text)


def test_types_compare_by_value() -> None:
    assert ListT(EnumT("Mode")) == parse_type("list of enum Mode")
    assert EnumT("Mode") != RecordT("Mode")
    assert len({SetT(INT), SetT(INT), ListT(INT)}) == 2


def test_assignable_and_join() -> None:
    assert assignable(INT, NUMBER) and not assignable(NUMBER, INT)
    assert assignable(ListT(INT), ListT(NUMBER)) and not assignable(ListT(INT), SetT(NUMBER))
    assert assignable(ANY, EnumT("Mode")) and assignable(TEXT, ANY)
    assert join(INT, NUMBER) == NUMBER and join(NUMBER, INT) == NUMBER
    assert join(ANY, INT) == ANY and join(INT, ANY) == ANY
    assert join(BOOL, INT) is None
    # an empty list is a list of any: joined with a list that says what its items are, it takes that
    assert join(ListT(ListT(NUMBER)), ListT(ListT(ANY))) == ListT(ListT(NUMBER))
    assert join(ListT(ANY), ListT(INT)) == ListT(INT) and join(SetT(ANY), SetT(TEXT)) == SetT(TEXT)
    assert join(ListT(INT), ListT(ANY)) == ListT(INT) and join(ListT(ANY), ListT(ANY)) == ListT(ANY)


def test_describe_and_item_type() -> None:
    assert describe(EnumT("Mode")) == "a Mode"
    assert describe(NUMBER) == "a number"
    assert describe(ListT(RecordT("Unit"))) == "a list of Unit"
    assert item_type(SetT(EnumT("Mode"))) == EnumT("Mode")
    assert item_type(ANY) == ANY and item_type(INT) is None


# ---- typed expressions -------------------------------------------------------------------------------

SERIES = '''
series S "S"
enum Mode "Mode" {
  - combat "Combat"
  - move "Move"
}
record Unit "Unit" {
  mode: Mode = combat "Mode"
  re: number = 1 "RE"
}
rule 1.1 "One" {
  text "x"
  const cap "Cap" = 10
  define moving(u: Unit) -> bool "Moving" = u.mode == move
  define counts(u: Unit, doubled: bool see 1.2) -> number "Counts" =
    if doubled then u.re * 2 else u.re
  table size(u: Unit) -> number "Size" {
    a: when u.mode == combat => 0.5 "Half"
    b: otherwise => 1 "One"
  }
  example "One" {
    expect size(Unit { mode: combat }) == 1/2
  }
}
rule 1.2 "Two" {
  text "y"
}
'''


def _checked(*texts: str) -> tuple[CheckedProgram, list[Diagnostic]]:
    files = []
    for i, text in enumerate(texts):
        tree, diags = parse(text, f"t{i}.rules")
        assert tree is not None and not diags, diags
        files.append(tree)
    return check(files)


def _program(*texts: str) -> m.Program:
    checked, diags = _checked(*texts)
    assert not diags, [d.message for d in diags]
    return lower(checked)


def test_expressions_are_typed_nodes() -> None:
    program = _program(SERIES)
    lay = program.layers["S"]
    moving = next(d for d in lay.defines if d.name == "moving")
    body = moving.body
    assert isinstance(body, m.Op) and body.op == "==" and body.t == BOOL
    field, value = body.args
    assert isinstance(field, m.Field) and field.t == EnumT("Mode") and isinstance(field.of, m.Var)
    assert isinstance(value, m.Member) and (value.enum, value.name) == ("Mode", "move")
    size = next(t for t in lay.tables if t.name == "size")
    assert size.returns == NUMBER
    half = size.rows[0].value
    assert isinstance(half, m.Lit) and half.t == NUMBER and str(half.v) == "1/2"
    assert ir.expr_ir(half) == {"k": "lit", "t": "number", "v": "1/2"}


def test_a_read_of_a_parameter_that_cites_rules_is_marked() -> None:
    program = _program(SERIES)
    counts = next(d for d in program.layers["S"].defines if d.name == "counts")
    reads = [n for n in m.walk(counts.body) if isinstance(n, m.Var)]
    assert {(v.name, tuple(r.number for r in v.see)) for v in reads} == {("doubled", ("1.2",)), ("u", ())}


def test_the_expression_checker_reports_and_gives_an_error_node() -> None:
    from rulec.evaluate import ModelScope

    program = _program(SERIES)
    scope = ModelScope(resolve(program, program.rulesets[0]))
    for query, code in (("moving(1)", "R201"), ("nothing", "R101"), ("cap + true", "R201")):
        expr, diags = parse_query(query)
        assert expr is not None and not diags
        lowerer = Lowerer(scope)
        node = lowerer.lower(expr, {})
        assert [d.code for d in lowerer.diags] == [code], query
        assert isinstance(node, m.Call if query == "moving(1)" else m.Error), query
    expr, _ = parse_query("cap * 2")
    assert expr is not None
    node = Lowerer(scope).lower(expr, {})
    assert isinstance(node, m.Op) and node.t == INT and isinstance(node.args[0], m.Const)


# ---- checking reports, lowering does not -----------------------------------------------------------

GAME = '''
game G "G" extends S
override 1.1 cap: title "New cap"
override 1.9: title "Nothing"
override 1.1 size.z: when true => 1
override 1.1 moving: at most 3
override 1.2: note desing "A note of no known kind"
override 1.2: see 7.7
'''


def test_the_checker_reports_what_lowering_used_to() -> None:
    checked, diags = _checked(SERIES, GAME)
    assert sorted(d.code for d in diags) == ["R102", "R105", "R105", "R106", "R110", "R112"]
    before = list(checked.checker.diags)
    program = lower(checked)
    assert checked.checker.diags == before  # lowering reports nothing
    game = program.layers["G"]
    # what checking refused is left out: the missing clause and row, the misfit, the second change of 1.2
    assert [ir.target_ir(ov.target) for ov in game.overrides] == [
        {"kind": "const", "number": "1.1", "name": "cap"}, {"kind": "clause", "number": "1.2"}]
    assert game.overrides[1].notes[0].kind is None  # the unknown kind reads as a plain note


def test_an_override_of_words_only_keeps_the_value() -> None:
    program = _program(SERIES, 'game G "G" extends S\noverride 1.1 cap: title "New cap"\n')
    game = next(rs for rs in program.rulesets if rs.name == "G")
    cap = next(c for c in resolve(program, game).consts if c.name == "cap")
    assert ir.expr_ir(cap.value) == {"k": "lit", "t": "int", "v": 10}
    assert [c.layer for c in cap.overridden_by] == ["G"]


def _fixture_programs() -> list[Path]:
    return sorted(p for p in (ROOT / "tests" / "fixtures").glob("*/*") if p.is_dir())


@pytest.mark.parametrize("folder", _fixture_programs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_lowering_any_checked_program_never_fails_nor_reports(folder: Path) -> None:
    sources, _ = find_sources([folder])
    files = [tree for name in sorted(sources) if (tree := parse(sources[name], name)[0]) is not None]
    checked, diags = check(files)
    before = list(diags)
    program = lower(checked)
    assert checked.checker.diags == before
    for rs in program.rulesets:
        files_of(program, rs)
        if not any(d.severity == "error" for d in diags):
            assert ir.validation_errors(ir.to_ir(resolve(program, rs))) == []


# ---- the IR, written from the model ------------------------------------------------------------------


def test_the_shipped_ir_is_the_typed_model_written_out() -> None:
    sources, errors = find_sources([RULES])
    assert not errors
    files = [tree for name in sorted(sources) if (tree := parse(sources[name], name)[0]) is not None]
    checked, diags = check(files)
    assert not [d for d in diags if d.severity == "error"]
    program = lower(checked)
    for rs in program.rulesets:
        written = ir.dumps(ir.to_ir(resolve(program, rs)))
        assert written == (ROOT / "generated" / "ir" / f"{rs.name.lower()}.json").read_text(encoding="utf-8"), rs.name


def test_rulesets_share_the_items_they_do_not_change() -> None:
    program = _program(SERIES, 'game G "G" extends S\noverride 1.1 cap: 12\n')
    rulesets = {rs.name: rs for rs in program.rulesets}
    s, g = resolve(program, rulesets["S"]), resolve(program, rulesets["G"])
    assert [d for d in s.defines] == [d for d in g.defines]  # the same objects (compared by identity)
    assert s.consts[0] is not g.consts[0] and g.consts[0].overridden_by
    a, b = ir.to_ir(s), ir.to_ir(g)
    assert a["defines"][0] == b["defines"][0] and a["defines"][0] is not b["defines"][0]
