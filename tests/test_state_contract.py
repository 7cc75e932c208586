"""One contract for inputs (#15, item 6): the state's JSON Schema (generated/schemas/), the generated
module's from_json and `rulec eval --state`'s reader (compiler/evaluate.py: the schema, then the
interpreter) accept and refuse the same game states, blame the same field, and read the same values.

A shared corpus of states, drawn from each ruleset's own records (every field given every kind of
value: numbers as JSON numbers, floats, texts, fractions, "1e3", NaN, Infinity, negative and huge;
unknown list values; extra fields; wrong types; every invariant broken and kept, a left-out field
counting as its default), and random states (hypothesis), go through all three."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import jsonschema
import pytest
from compiled import ROOT, load_generated, plain, value_strategy
from conftest import compile_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec import model as m
from rulec.build import Result
from rulec.evaluate import EvalFailure, load_module, read_state
from rulec.interp import from_json as model_value
from rulec.interp import to_json
from rulec.state_schema import INVARIANT_KEYWORD, MAX_DIGITS, state_schema
from rulec.types import BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type

RULESETS = ["OCS", "DAK", "DAK_fog", "ZCS", "ACW"]
BIG = 10 ** MAX_DIGITS


@dataclass
class Contract:
    """The three readers of one ruleset's game state."""

    model: m.Resolved
    module: Any
    schema: dict[str, Any]

    def __post_init__(self) -> None:
        self.validator = jsonschema.Draft202012Validator(self.schema)

    def by_schema(self, record: str, value: Any) -> bool:
        return bool(self.validator.is_valid({"s": {"record": record, "value": value}}))

    def by_module(self, record: str, value: Any) -> tuple[bool, str | None, Any]:
        try:
            made = self.module.from_json(record, value, "s")
        except self.module.InvalidInput as e:
            assert e.field == "s" or e.field.startswith(("s.", "s[")), e.field
            return False, e.field.removeprefix("s").lstrip("."), None
        return True, None, _named(plain(made))

    def by_reader(self, record: str, value: Any) -> tuple[bool, str | None, Any]:
        try:
            values = read_state(self.model, {"s": {"record": record, "value": value}})
        except EvalFailure as e:
            assert e.usage and e.field is not None, str(e)
            return False, e.field, None
        return True, None, _named(plain(values["s"]))

    def agree(self, record: str, value: Any) -> tuple[bool, str | None]:
        """All three accept value, or all refuse it; the module and the reader blame the same field
        and read the same value. Returns whether it was accepted, and the field blamed."""
        schema = self.by_schema(record, value)
        ok, field, made = self.by_module(record, value)
        ok_r, field_r, made_r = self.by_reader(record, value)
        shown = repr(value)[:300]
        assert schema == ok == ok_r, f"{record} {shown}: schema {schema}, from_json {ok}, eval --state {ok_r}"
        assert field == field_r, f"{record} {shown}: from_json blames {field!r}, eval --state {field_r!r}"
        assert made == made_r, f"{record} {shown}: read as {made!r} and {made_r!r}"
        return ok, field


def _named(value: Any) -> Any:
    """Fields by their names in the rules (a module's field named like a Python keyword ends in _)."""
    if isinstance(value, dict):
        return {k.rstrip("_"): _named(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_named(v) for v in value]
    return value


@pytest.fixture(scope="session")
def contracts(shipped: Result) -> dict[str, Contract]:
    out = {}
    for rs in RULESETS:
        path = ROOT / "generated" / "schemas" / f"{rs.lower()}.state.schema.json"
        out[rs] = Contract(shipped.models[rs], load_generated(rs), json.loads(path.read_text(encoding="utf-8")))
    return out


# ---- the schema itself --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_built_schema_is_the_rules_and_says_every_shipped_invariant_exactly(
        contracts: dict[str, Contract], ruleset: str) -> None:
    c = contracts[ruleset]
    jsonschema.Draft202012Validator.check_schema(c.schema)
    assert c.schema == json.loads(json.dumps(state_schema(c.model))), "generated/ is stale: run rulec build"
    assert c.module.STATE_SCHEMA == c.schema
    invariants = [d for d in c.model.defines if d.invariant is not None]
    said = [entry[INVARIANT_KEYWORD] for r in c.model.records
            for entry in c.schema["$defs"][r.name].get("allOf", ())]
    assert sorted(s["name"] for s in said) == sorted(d.name for d in invariants)
    assert all(s["exact"] for s in said), [s["name"] for s in said if not s["exact"]]
    for s in said:
        assert s["expression"] and s["title"] and s["rule"] and s["checks"]


def test_the_ocs_invariants_are_in_the_schema_in_the_rules_words(contracts: dict[str, Contract]) -> None:
    unit = contracts["OCS"].schema["$defs"]["Unit"]
    said = {e[INVARIANT_KEYWORD]["name"]: e for e in unit["allOf"]}
    assert said["repl_mode"][INVARIANT_KEYWORD]["expression"] == "u.type != repl or u.mode != combat"
    assert said["repl_mode"]["if"] == {"properties": {"type": {"const": "repl"}}, "required": ["type"]}
    # mode left out is combat, which breaks it: so mode must be there, and not combat
    assert said["repl_mode"]["then"] == {"properties": {"mode": {"not": {"const": "combat"}}}, "required": ["mode"]}
    assert said["steps_not_negative"]["properties"] == {"step_losses": {"minimum": 0}}
    assert "13.5" in said["repl_mode"]["description"] and "Repls can never enter Combat Mode" in unit["description"]


# ---- a corpus of states -------------------------------------------------------------------------

NUMBERS: list[Any] = [
    0, 1, -1, 7, 2.5, 0.1, -0.0, 1e3, 1e-7, 1e300, 1.7976931348623157e308, 5e-324, -5e-324, 0.30000000000000004,
    "1/2", "-1/2", "2.5", "-3", "-0", "-0.0", "-0/7", "007", "0.000", "3/6", "-00.10",
    "1e3", "1E3", "1e-3", "NaN", "nan", "Infinity", "-Infinity", "inf", float("nan"), float("inf"), float("-inf"),
    "", " 1", "1 ", "+1", "1/0", "1/-2", "1/02", "5\n", ".5", "5.", "1/2/3", "1.5/2", "\u0661", "0x10", "1_000",
    True, False, None, [], {}, [1],
    BIG - 1, -(BIG - 1), BIG, -BIG, "9" * MAX_DIGITS, "9" * (MAX_DIGITS + 1),
    "1." + "0" * MAX_DIGITS, "1." + "0" * (MAX_DIGITS + 1), "1/" + "9" * MAX_DIGITS, "1/1" + "0" * MAX_DIGITS,
]
WHOLES: list[Any] = [0, 1, -1, 3, 1.0, -0.0, 1e3, 1e300, 2.5, 0.1, "3", "1/2", "1e3", True, False, None, [],
                     float("nan"), float("inf"), BIG - 1, -(BIG - 1), BIG, -BIG]
BOOLS: list[Any] = [True, False, 0, 1, "true", None, []]
TEXTS: list[Any] = ["", "x", "\u00e9t\u00e9", "1e3", 5, None, [], True]


def values_of(model: m.Resolved, t: Type, depth: int = 0) -> list[Any]:
    """JSON values for a field of type t: valid and not."""
    match t:
        case NumberT():
            return NUMBERS
        case IntT():
            return WHOLES
        case BoolT():
            return BOOLS
        case TextT():
            return TEXTS
        case EnumT(name):
            members = [mem.name for mem in next(e for e in model.enums if e.name == name).members]
            return [*members, "nope", members[0].upper(), " " + members[0], 0, None, [members[0]]]
        case ListT(item) | SetT(item):
            inner = values_of(model, item, depth + 1) if depth < 1 else [None]
            return [[], "x", None, {}, [None], *([v] for v in inner), inner[:3]]
        case RecordT(name):
            return [{}, [], "x", None, 5, {"nope": 1}, *records_of(model, name, depth + 1)]
    raise ValueError(t)


def records_of(model: m.Resolved, record: str, depth: int = 0) -> list[dict[str, Any]]:
    """Values of a record: each field given each of its values, the others left out; deeper down,
    only each field's invariant-relevant values (a few)."""
    rec = next(r for r in model.records if r.name == record)
    out: list[dict[str, Any]] = []
    for f in rec.fields:
        values = values_of(model, f.t, depth)
        out += [{f.name: v} for v in (values if depth == 0 else values[:4])]
    return out


def invariant_states(model: m.Resolved, record: str) -> list[dict[str, Any]]:
    """Every combination of the values the record's invariants compare, a field left out too."""
    rec = next(r for r in model.records if r.name == record)
    read = sorted({f for d in model.defines if d.invariant is not None and d.params[0].t == RecordT(record)
                   for f in d.invariant})
    if not read:
        return []
    choices: dict[str, list[Any]] = {}
    for f in rec.fields:
        if f.name in read:
            match f.t:
                case EnumT(name):
                    choices[f.name] = [mem.name for mem in next(e for e in model.enums if e.name == name).members]
                case BoolT():
                    choices[f.name] = [True, False]
                case NumberT():
                    choices[f.name] = [0, -1, "-0", "-1/2", 0.5, -0.0, "1/2", "-0.001"]
                case IntT():
                    choices[f.name] = [0, -1, 2, 1.0, -1.0]
    states = []
    # list and yes/no fields together, numbers together: the invariants shipped mix only like that
    discrete = [f.name for f in rec.fields if f.name in choices and isinstance(f.t, (EnumT, BoolT))]
    for names in (discrete, [n for n in choices if n not in discrete]):
        for combo in itertools.product(*([_ABSENT, *choices[n]] for n in names)):
            states.append({n: v for n, v in zip(names, combo, strict=True) if v is not _ABSENT})
    return states


_ABSENT = object()  # a field left out


def corpus(c: Contract) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for r in c.model.records:
        out += [(r.name, v) for v in [{}, [], "x", None, 5, {"nope": 1}, {"nope": 1, "also": 2}]]
        out += [(r.name, v) for v in records_of(c.model, r.name)]
        out += [(r.name, v) for v in invariant_states(c.model, r.name)]
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_schema_from_json_and_eval_state_agree_on_a_corpus_of_states(
        contracts: dict[str, Contract], ruleset: str) -> None:
    c = contracts[ruleset]
    cases = corpus(c)
    accepted = [ok for ok, _ in (c.agree(record, value) for record, value in cases)]
    assert any(accepted) and not all(accepted), "the corpus holds valid and invalid states"


# Outcomes written out: what each reader must say (None: accepted), besides agreeing.
EXPECTED: list[tuple[str, str, Any, str | None]] = [
    # the issue's example: points is what is negative, not printed_re
    ("OCS", "Unit", {"points": -1}, "points"),
    ("DAK", "Unit", {"points": "-1/2"}, "points"),
    ("OCS", "Unit", {"printed_re": -1}, "printed_re"),
    ("OCS", "Unit", {"printed_re": -1, "points": -1}, "printed_re"),
    ("OCS", "Unit", {"points": "x", "printed_re": -1}, "points"),  # a field's own value is read before invariants
    ("OCS", "Unit", {"printed_re": "-0", "points": -0.0}, None),
    ("OCS", "Unit", {"printed_re": "-0.5"}, "printed_re"),
    ("OCS", "Unit", {"printed_re": "-0/3"}, None),
    # a Repl left in its default mode (combat) breaks 13.5
    ("OCS", "Unit", {"type": "repl"}, "mode"),
    ("DAK", "Unit", {"type": "repl"}, "mode"),
    ("OCS", "Unit", {"type": "repl", "mode": "combat"}, "mode"),
    ("OCS", "Unit", {"type": "repl", "mode": "move"}, None),
    ("OCS", "Unit", {"mode": "move"}, None),
    ("OCS", "Unit", {"type": "transport"}, "mode"),
    ("OCS", "Unit", {"type": "transport", "mode": "reserve"}, "mode"),
    ("OCS", "Unit", {"type": "transport", "mode": "reserve", "organic": True}, None),
    ("OCS", "Unit", {"type": "transport", "mode": "move", "out_of_supply": True}, "out_of_supply"),
    ("OCS", "Unit", {"step_losses": -1}, "step_losses"),
    ("OCS", "Unit", {"step_losses": -1.0}, "step_losses"),
    ("OCS", "Unit", {"step_losses": 1e3}, None),
    ("OCS", "Unit", {"step_losses": 2.5}, "step_losses"),
    ("OCS", "Unit", {"step_losses": "2"}, "step_losses"),
    ("OCS", "Unit", {"printed_re": "1e3"}, "printed_re"),
    ("OCS", "Unit", {"printed_re": 1e3}, None),
    ("OCS", "Unit", {"printed_re": float("nan")}, "printed_re"),
    ("OCS", "Unit", {"printed_re": float("inf")}, "printed_re"),
    ("OCS", "Unit", {"printed_re": "5\n"}, "printed_re"),
    ("OCS", "Unit", {"printed_re": BIG - 1}, None),
    ("OCS", "Unit", {"printed_re": BIG}, "printed_re"),
    ("OCS", "Unit", {"nope": 1, "points": -1}, "nope"),
    ("OCS", "Unit", {"mode": "Move"}, "mode"),
    ("OCS", "Hex", {"units": [{}, {"type": "repl"}]}, "units[1].mode"),
    ("OCS", "Hex", {"phase": "nope", "units": [{"type": "repl"}]}, "units[0].mode"),  # units is read first
    ("OCS", "Hex", {"units": [{"points": -1}], "off_map": 1}, "units[0].points"),
    ("OCS", "Hex", {"units": [5]}, "units[0]"),
    ("OCS", "Hex", {"units": [{"nope": 1}]}, "units[0].nope"),
    ("OCS", "RailHex", {"units": [{"type": "transport", "mode": "move"}]}, None),
    ("ZCS", "ZUnit", {"kind": "nope"}, "kind"),
    ("ZCS", "ZUnit", {"even_mp_markers": -1}, None),  # no invariant says otherwise
    ("ZCS", "ZUnit", {"even_mp_markers": 2.0}, None),
    ("ZCS", "Into", {"arctic": 1}, "arctic"),
    ("ACW", "Unit", {"sp": 1e3, "cr": "3"}, "cr"),
    ("ACW", "Stack", {"units": [{"arm": "nope"}]}, "units[0].arm"),
]


@pytest.mark.parametrize(("ruleset", "record", "value", "blamed"), EXPECTED,
                         ids=[f"{rs}-{rec}-{json.dumps(v, default=str)[:40]}" for rs, rec, v, _ in EXPECTED])
def test_each_reader_accepts_or_blames_as_the_contract_says(
        contracts: dict[str, Contract], ruleset: str, record: str, value: Any, blamed: str | None) -> None:
    ok, field = contracts[ruleset].agree(record, value)
    assert (ok, field) == (blamed is None, blamed)


def test_numbers_are_read_exactly_as_written(contracts: dict[str, Contract]) -> None:
    """A JSON float is the decimal it is written as (0.1 is 1/10, 1e3 is 1000), a whole number too."""
    c = contracts["OCS"]
    for written, exact in [(0.1, Fraction(1, 10)), (1e3, 1000), (2.5, Fraction(5, 2)), ("1/3", Fraction(1, 3)),
                           ("-0", 0), (1e-7, Fraction(1, 10 ** 7)),
                           (0.30000000000000004, Fraction("0.30000000000000004"))]:
        value = {"printed_re": written, "step_losses": 1e3}
        assert c.agree("Unit", value) == (True, None)
        _, _, made = c.by_module("Unit", value)
        assert made["printed_re"] == exact and made["step_losses"] == 1000 and type(made["step_losses"]) is int


def test_a_broken_invariant_on_the_command_line_names_the_field_and_the_rule(contracts: dict[str, Contract]) -> None:
    with pytest.raises(EvalFailure) as e:
        read_state(contracts["OCS"].model, {"u": {"record": "Unit", "value": {"points": -1}}})
    assert str(e.value) == "--state: u.points: breaks 4.6: Printed RE sizes and point values are never negative"
    with pytest.raises(contracts["OCS"].module.InvalidInput) as m_:
        contracts["OCS"].module.unit_from_json({"points": -1})
    assert m_.value.field == "unit.points"


# ---- random states ------------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.integers(), st.floats(), st.text(max_size=4),
    st.sampled_from(["1e3", "-0", "-1/2", "1/0", "NaN", "2.5", "0.", "-", "x", "combat", "repl", "transport"]),
    st.fractions(max_denominator=12).map(str), st.lists(st.integers(0, 2), max_size=2),
    st.dictionaries(st.sampled_from(["mode", "nope"]), st.integers(0, 1), max_size=1))


@st.composite
def states(draw: st.DrawFn, model: m.Resolved, record: str) -> Any:
    """A record's value made by its types (left-out fields too), then a few fields made anything."""
    rec = next(r for r in model.records if r.name == record)
    value = to_json(draw(value_strategy(model, RecordT(record))))
    for f in rec.fields:
        if draw(st.integers(0, 3)) == 0 and value[f.name] == to_json(model_value(f.default, f.t)):
            del value[f.name]
    for name in draw(st.lists(st.sampled_from([f.name for f in rec.fields] + ["nope"]), max_size=2)):
        value[name] = draw(JUNK)
    return value


@pytest.mark.parametrize("ruleset", ["OCS", "ZCS", "ACW"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_schema_from_json_and_eval_state_agree_on_random_states(
        contracts: dict[str, Contract], ruleset: str, data: st.DataObject) -> None:
    c = contracts[ruleset]
    record = data.draw(st.sampled_from([r.name for r in c.model.records]))
    c.agree(record, data.draw(states(c.model, record)))


# ---- invariants of other shapes ------------------------------------------------------------------

SHAPES = '''series INV "Invariant shapes" version "1"

ordered enum Size "Size" {
  - small "Small"
  - medium "Medium"
  - large "Large"
}

enum Kind "Kind" {
  has heavy: bool = false "Heavy"
  - foot "Foot"
  - tank "Tank" heavy
  - gun "Gun" heavy
}

record Thing "A thing" {
  kind: Kind = foot "Its kind"
  size: Size = medium "Its size"
  steps: int = 1 "Its steps"
  weight: number = 1/2 "Its weight"
  load: number = 0 "Its load"
  ready: bool = true "Ready"
  name: text = "" "Its name"
}

record Crate "A crate" {
  w: number = 1 "Its weight"
}

rule 1.1 "Things" {
  text "Things are as they are."
  invariant big_or_heavy(t: Thing) "Small things are heavy" = t.size >= medium or t.kind.heavy
  invariant few_steps(t: Thing) checks steps "Foot and guns have at most one step" =
    not (t.steps > 3/2 and t.kind in {foot, gun})
  invariant loaded_ready(t: Thing) "A loaded thing is ready" = 0 >= t.load or t.ready
  invariant weighs(t: Thing) "A thing weighs something and is not named x" = t.weight != 0 and t.name != "x"
  invariant heavy_crate(c: Crate) "A crate weighs at least 1/4" = c.w >= 1/4
}
'''


@pytest.fixture(scope="module")
def shapes() -> Contract:
    result = compile_text(SHAPES)
    assert result.ok, [d.message for d in result.diagnostics]
    model = result.models["INV"]
    return Contract(model, load_module(model), state_schema(model))


def test_invariants_of_ordered_lists_settings_sets_fractions_and_signs_are_said_exactly(shapes: Contract) -> None:
    thing = {e[INVARIANT_KEYWORD]["name"]: e[INVARIANT_KEYWORD] for e in shapes.schema["$defs"]["Thing"]["allOf"]}
    assert all(s["exact"] for s in thing.values())
    assert thing["few_steps"]["expression"] == "not (t.steps > 3/2 and t.kind in {foot, gun})"
    values = {"kind": ["foot", "tank", "gun"], "size": ["small", "medium", "large"], "steps": [0, 1, 2, -1.0],
              "weight": [0, "-0", "1/2", -0.5, "0.0"], "load": [0, "1/3", -1, "-0.0", 0.25], "ready": [True, False],
              "name": ["", "x"]}
    accepted = []
    for fields in itertools.combinations(values, 3):  # three fields at a time, each also left out
        for combo in itertools.product(*([_ABSENT, *values[f]] for f in fields)):
            value = {f: v for f, v in zip(fields, combo, strict=True) if v is not _ABSENT}
            accepted.append(shapes.agree("Thing", value)[0])
    assert any(accepted) and not all(accepted)
    assert shapes.agree("Thing", {"weight": "-0"}) == (False, "weight")
    assert shapes.agree("Thing", {"weight": 1, "name": "x"}) == (False, "name")  # the part of the `and` that fails


def test_an_invariant_json_schema_cannot_say_is_marked_and_left_to_from_json(shapes: Contract) -> None:
    """A number compared with 1/4: a text "p/q" is at least 1/4 when 4p >= q, which no pattern says."""
    [entry] = shapes.schema["$defs"]["Crate"]["allOf"]
    assert entry[INVARIANT_KEYWORD] == {"name": "heavy_crate", "rule": "1.1", "title": "A crate weighs at least 1/4",
                                        "expression": "c.w >= 1/4", "checks": ["w"], "exact": False}
    assert set(entry) == {"description", INVARIANT_KEYWORD} and "only from_json checks it" in entry["description"]
    assert shapes.by_schema("Crate", {"w": "1/8"})
    assert shapes.by_module("Crate", {"w": "1/8"})[:2] == (False, "w")
    assert shapes.by_reader("Crate", {"w": "1/8"})[:2] == (False, "w")
