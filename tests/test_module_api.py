"""The generated module as a Python programmer meets it (issue #16, item 3): __all__, RULESET_HASH and
RULEC_VERSION, to_json as the inverse of from_json, field descriptions in help(), and a value outside its
list refused where the record is made."""

from __future__ import annotations

import importlib.util
import pydoc
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest
from conftest import compile_text

from rulec import __version__
from rulec.emit_python import emit_python, ruleset_hash

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"api_{name}", ROOT / "generated" / "python" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def dak() -> ModuleType:
    return _load("dak")


def test_a_value_outside_its_list_is_refused_at_construction(dak: ModuleType) -> None:
    with pytest.raises(dak.InvalidInput) as err:
        dak.Unit(type="hqq")
    assert err.value.field == "Unit.type" and "hq" in err.value.allowed and "'hqq'" in str(err.value)
    with pytest.raises(dak.InvalidInput, match="Unit.mode"):
        dak.Unit(mode="Combat")
    assert dak.Unit(type="hq", mode="move").type == "hq"


@pytest.mark.parametrize(("given", "field", "message"), [
    ({"points": 0.5}, "Unit.points", "0.5 is a float, which the rules do not count with: give Fraction('0.5')"),
    ({"move_ma": "4"}, "Unit.move_ma", "'4' is not a number"),
    ({"step_losses": 1.0}, "Unit.step_losses", "1.0 is a float, which the rules do not count with: give an int"),
    ({"step_losses": True}, "Unit.step_losses", "True is not a whole number"),
    ({"step_losses": Fraction(1)}, "Unit.step_losses", "Fraction(1, 1) is not a whole number"),
    ({"points": True}, "Unit.points", "True is not a number"),
    ({"multi_step": "no"}, "Unit.multi_step", "'no' is not true or false"),
    ({"multi_step": 0}, "Unit.multi_step", "0 is not true or false"),
    ({"formation": 21}, "Unit.formation", "21 is not a text"),
])
def test_a_value_of_the_wrong_kind_is_refused_at_construction(dak: ModuleType, given: dict[str, object],
                                                              field: str, message: str) -> None:
    """A float, a text or a number where the checks read an exact number, a bool or a text gave a
    wrong answer or an AttributeError deep inside a check (`_scaled` reads a float's denominator)."""
    with pytest.raises(dak.InvalidInput) as err:
        dak.Unit(**given)
    assert err.value.field == field and str(err.value) == f"{field}: {message}"


def test_a_list_field_takes_a_tuple_of_its_kind(dak: ModuleType) -> None:
    with pytest.raises(dak.InvalidInput, match=r"^Hex.units: \[\] is a list: give a tuple, as a record is frozen$"):
        dak.Hex(units=[])
    with pytest.raises(dak.InvalidInput, match=r"^Hex.units: 'Unit\(\)' is not a Unit$"):
        dak.Hex(units=("Unit()",))
    with pytest.raises(dak.InvalidInput, match=r"^Hex.units: a Hex is not a Unit$"):
        dak.Hex(units=(dak.Hex(),))
    assert dak.Hex(units=(dak.Unit(points=Fraction(1, 2)), dak.Unit(points=3))).units[1].points == 3


def test_every_kind_of_field_is_checked_in_a_ruleset_of_its_own() -> None:
    """Sets, lists of lists and records in records, in a module made for them."""
    result = compile_text('''series K "Kinds" version "1"
enum Arm "Arm" {
  - inf "Infantry"
  - art "Artillery"
}
record Piece "A piece" {
  arms: set of Arm = {} "Arms"
  marks: list of set of bool = [] "Marks"
  weights: list of number = [] "Weights"
}
record Box "A box" {
  piece: Piece "The piece"
  pieces: set of Piece = {} "More pieces"
}
rule 1 "Boxes" {
  define heavy(b: Box) -> bool "Heavy" = sum(w for w in b.piece.weights) > 3
}
''')
    assert result.ok, result.diagnostics
    [source] = emit_python(result.models["K"]).values()
    k = ModuleType("kinds")
    sys.modules["kinds"] = k
    try:
        exec(compile(source, "kinds.py", "exec"), k.__dict__)
    finally:
        del sys.modules["kinds"]
    ok = k.Piece(arms=frozenset({"inf"}), marks=(frozenset({True}),), weights=(Fraction(5, 2), 1))
    assert k.heavy(k.Box(piece=ok)) is True
    for given, message in [
        ({"arms": {"inf"}}, "Piece.arms: {'inf'} is a set: give a frozenset"),
        ({"arms": ("inf",)}, "Piece.arms: ['inf'] is not a frozenset"),
        ({"arms": frozenset({"cav"})}, "Piece.arms: 'cav' is not one of the values; allowed: inf, art"),
        ({"marks": (frozenset({1}),)}, "Piece.marks: 1 is not true or false"),
        ({"marks": ({True},)}, "Piece.marks: {True} is a set: give a frozenset"),
        ({"weights": (2.5,)}, "Piece.weights: 2.5 is a float, which the rules do not count with: give Fraction('2.5')"),
    ]:
        with pytest.raises(k.InvalidInput) as err:
            k.Piece(**given)
        assert str(err.value) == message
    with pytest.raises(k.InvalidInput, match=r"^Box.piece: None is not a Piece$"):
        k.Box(piece=None)
    with pytest.raises(k.InvalidInput, match=r"^Box.pieces: 1 is not a Piece$"):
        k.Box(piece=ok, pieces=frozenset({1}))


def test_help_shows_every_fields_description(dak: ModuleType) -> None:
    shown = pydoc.render_doc(dak.Unit, renderer=pydoc.plaintext)
    for name, words in [("type", "What kind of unit it is"), ("step_losses", "Steps lost"),
                        ("mode", "The mode it is in (one of: combat, move")]:
        assert f"{name}: {words}" in " ".join(shown.split()), name


def test_all_names_the_public_api_and_nothing_imported(dak: ModuleType) -> None:
    exported = set(dak.__all__)
    assert {"stacking", "explain_stacking", "ezoc_allows", "Unit", "Hex", "Answer", "Cite", "InvalidInput",
            "RuleError", "from_json", "to_json", "unit_from_json", "RULESET_HASH", "RULEC_VERSION",
            "UnitType_values"} <= exported
    assert not exported & {"math", "Any", "dataclass", "Fraction", "Final", "replace"}
    assert all(not n.startswith("_") and hasattr(dak, n) for n in exported)
    assert list(dak.__all__) == sorted(dak.__all__)
    assert dak.RULEC_VERSION == __version__


def test_to_json_is_the_inverse_of_from_json(dak: ModuleType) -> None:
    units = [dak.Unit(), dak.Unit(type="sp", points=Fraction(1, 2), loaded=True),
             dak.Unit(type="hq", mode="dg", oriented_to_combat=False, move_ma=Fraction(7, 2), step_losses=1,
                      multi_step=True, printed_re=3, formation="21st Panzer")]
    for u in units:
        data = dak.to_json(u)
        assert dak.unit_from_json(data) == u
        assert data["type"] == u.type
    h = dak.Hex(units=tuple(units), phase="reaction", moment="overrun")
    data = dak.to_json(h)
    assert data["units"][1]["points"] == "1/2" and dak.hex_from_json(data) == h


RULES = '''series S "S" version "1"

rule 1.1 "One" {
  const cap "The cap" = 3
}
'''


def test_the_ruleset_hash_follows_the_rules_not_their_layout() -> None:
    def hashed(text: str) -> str:
        result = compile_text(text)
        assert result.ok, result.diagnostics
        return ruleset_hash(result.models["S"])

    base = hashed(RULES)
    assert hashed("# a comment\n\n" + RULES) == base  # moved down its file: the same rules
    assert hashed(RULES.replace('"One" {', '"One" {\n  text "Reworded."')) == base  # wording: not shown
    assert hashed(RULES.replace("= 3", "= 4")) != base  # a value
    assert hashed(RULES.replace('"The cap"', '"The limit"')) != base  # a title answers cite
    assert hashed(RULES.replace('version "1"', 'version "2"')) != base


def test_constants_are_named_for_what_they_hold() -> None:
    """Cites and their tuples are named for the rules they cite, so a module's diff with another shows what
    differs in the rules: dak_fog.py against dak.py is the Fog of War option and the manifest, no renumbering."""
    import difflib
    import re

    dak = (ROOT / "generated" / "python" / "dak.py").read_text(encoding="utf-8").splitlines()
    fog = (ROOT / "generated" / "python" / "dak_fog.py").read_text(encoding="utf-8").splitlines()
    changed = [line for line in difflib.unified_diff(dak, fog, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert len(changed) < 150, len(changed)
    for line in changed:
        if re.match(r"[-+]_(CITE|RULES|Q|SET|LIST|EMPTY|DOMAINS)_", line):
            assert "fog_of_war" in line or "13_7" in line, line  # only the option's own cites
    names = re.findall(r"^(_CITE_\w+): Final", "\n".join(dak), re.M)
    assert names == sorted(names) and "_CITE_DAK_4_5a_F" in names and "_CITE_OCS_4_5a_F" in names


def test_a_rule_named_like_the_modules_own_api_keeps_both() -> None:
    """A definition called to_json, RULESET_HASH or RULEC_VERSION gets a trailing _; the module's own stay."""
    from rulec.crosscheck import load_module
    from rulec.emit_python import emit_python

    result = compile_text('series S "S" version "1"\n\nrule 1.1 "One" {\n'
                          '  define to_json() -> int = 1\n  const RULESET_HASH "A name" = 2\n'
                          '  record Thing "A thing" {\n    n: int = 0 "A number"\n  }\n}\n')
    assert result.ok, result.diagnostics
    model = result.models["S"]
    module = load_module(next(iter(emit_python(model).values())), "S")
    assert module.to_json_() == 1 and module.RULESET_HASH_ == 2
    assert module.to_json(module.Thing(n=3)) == {"n": 3} and module.RULESET_HASH.startswith("sha256:")


def test_an_overridden_value_says_which_layer_changed_it() -> None:
    text = (ROOT / "generated" / "python" / "dak.py").read_text(encoding="utf-8")
    assert "    'F': False,  # overridden by DAK: In either edition of DAK, units do not negate" in text
    game = compile_text('series S "S" version "1"\nrule 1.1 "Stacking" {\n  const most "Most units" = 3\n'
                        '  define ok(n: int) -> bool "Allowed?" = n <= most\n  example {\n    expect ok(3)\n  }\n}\n',
                        'game G "G" extends S "1"\noverride 1.1 most: 2\n  note "Two in this game."\n')
    assert game.ok
    emitted = next(iter(emit_python(game.models["G"]).values()))
    assert "# overridden by G: Two in this game." in emitted  # a const a game changed
    ocs = (ROOT / "generated" / "python" / "ocs.py").read_text(encoding="utf-8")
    assert "# overridden by" not in ocs  # the series overrides nothing


def test_would_change_names_a_parameter_as_the_rules_do_not_as_python_must() -> None:
    """ACW's leader_casualty(l, roll): Python writes the parameter l_ (ruff's E741), the answer says l."""
    from rulec.crosscheck import load_module
    acw = load_module((ROOT / "generated" / "python" / "acw.py").read_text(encoding="utf-8"), "acw")
    answer = acw.explain_leader_casualty(acw.Leader(stars=2, replacement=True), 1)
    assert answer.value is False and "l.replacement = false" in answer.would_change
