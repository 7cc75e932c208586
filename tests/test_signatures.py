"""The signatures issue #15 found misleading, as fixtures on the generated module a program imports: the
parameters are named for what the caller knows, the number types are exact, and no 0 stands for "as
printed". The README's table "what the audit's fixes changed for a program calling the checks" lists them."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ocs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ocs_signatures", ROOT / "generated" / "python" / "ocs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _params(f: object) -> dict[str, str]:
    return {n: str(p.annotation) for n, p in inspect.signature(f).parameters.items()}  # type: ignore[arg-type]


def test_a_dead_pile_rebuild_needs_no_unit_on_the_map(ocs: ModuleType) -> None:
    params = _params(ocs.may_rebuild)
    assert "on_map_unit_stacked" not in params and params["stacked_with_repls"] == "bool"
    assert params["rebuilt"] == "Rebuild" and set(ocs.Rebuild_values) == {"dead_pile", "on_map"}
    hq, repl = ocs.Unit(type="hq", mode="combat"), ocs.Unit(type="repl", mode="move")
    # a Dead Pile rebuild with nothing stacked on the map (the old signature needed `true` here)
    assert ocs.may_rebuild(repl, hq, 1, False, False, "reinforcement", "dead_pile", False)


def test_conversions_take_an_exact_ma_and_answer_whole_hexes(ocs: ModuleType) -> None:
    assert _params(ocs.conversions_allowed)["current_ma"] == "Number"
    assert inspect.signature(ocs.conversions_allowed).return_annotation == "int"
    answer = ocs.conversions_allowed(ocs.Unit(type="rail_repair", mode="combat"), "movement", Fraction(7, 2))
    assert answer == 3 and type(answer) is int  # a halved MA of 7 is 7/2: 3 hexes, never Fraction(7, 2)


def test_no_zero_stands_for_as_printed(ocs: ModuleType) -> None:
    assert not hasattr(ocs, "unprinted_defense")
    assert list(_params(ocs.defense_strength)) == ["u", "printed"]
    assert ocs.defense_strength(ocs.Unit(mode="combat"), 4) == 4  # the printed strength, given
    assert ocs.defense_strength(ocs.Unit(type="hq", mode="combat"), 0) == 5  # the (5) of an HQ, not 0
