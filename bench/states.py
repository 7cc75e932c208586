"""Realistic game states for the check-speed figures: OCS units and stacks, drawn from a fixed seed.

The mix is what a counter sheet of an OCS game looks like: mostly combat units (regiments,
battalions, multi-step divisions and brigades), some HQs, artillery and Repls, and the
non-combat units a supply hex holds (SP, Transport Points, now and then a port, an air base or a
hedgehog), and a few planes. Every unit meets the rules' own invariants (Transport Points in Move Mode, Repls never
in Combat Mode), so the states are ones the safe input path accepts.
"""

from __future__ import annotations

import random
from dataclasses import fields
from fractions import Fraction
from types import ModuleType
from typing import Any

SEED = 4_5_8  # 4.5, 4.8

_TYPES = [("combat_unit", 48), ("artillery", 9), ("hq", 6), ("repl", 5), ("engineer", 1), ("pioneer", 1),
          ("assault_engineer", 1), ("rail_repair", 1), ("para_glider_engineer", 1), ("transport", 9), ("sp", 11),
          ("port", 2), ("air_base", 2), ("hedgehog", 2), ("fighter", 1), ("other_plane", 1)]
_SIZES = [("regiment", 30), ("battalion", 30), ("brigade", 15), ("company", 10), ("division", 12), ("corps", 3)]
_MODES = [("combat", 55), ("move", 20), ("reserve", 8), ("strat", 7), ("dg", 5), ("exploit", 5)]
_PHASES = [("movement", 40), ("combat_phase", 20), ("exploitation", 10), ("reaction", 10), ("supply", 8),
           ("reinforcement", 7), ("clean_up", 5)]
_MOMENTS = [("segment_end", 80), ("moving", 12), ("overrun", 8)]


def _pick(rng: random.Random, table: list[tuple[str, int]]) -> str:
    names, weights = zip(*table, strict=True)
    return rng.choices(names, weights)[0]


def unit_values(rng: random.Random) -> dict[str, Any]:
    """One unit's fields, as JSON-like values."""
    t = _pick(rng, _TYPES)
    size = _pick(rng, _SIZES)
    mode = _pick(rng, _MODES)
    u: dict[str, Any] = {"type": t, "size": size, "mode": mode}
    u["oriented_to_combat"] = rng.random() < 0.7
    u["mobility"] = rng.choices(["leg", "truck", "track"], [45, 35, 20])[0]
    u["move_ma"] = rng.choice([3, 4, 5, 6, 8, 10, 12, 14])
    u["out_of_supply"] = rng.random() < 0.1
    u["will_spend_mp"] = rng.random() < 0.25
    if t in ("combat_unit", "artillery") and size in ("division", "brigade", "corps") and rng.random() < 0.8:
        u["multi_step"] = True
        u["printed_re"] = rng.choice([2, 3, 3, 4]) if size != "brigade" else rng.choice([1, 2, Fraction(3, 2)])
        u["step_losses"] = rng.choice([0, 0, 0, 1])
    if t == "artillery":
        u["parenthesized"] = rng.random() < 0.6
        u["strength"] = rng.choice([0, 1, 2, 3])
    elif t == "combat_unit" or t.endswith("engineer") or t in ("pioneer", "rail_repair"):
        u["strength"] = rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12])
    elif t == "hq":
        u["parenthesized"] = True
        u["strength"] = rng.choice([0, 1, 2])
    elif t == "repl":
        u["mode"] = rng.choice(["move", "reserve", "strat", "dg"])
    else:
        u["printed_strength"] = False
        u["strength"] = 0
        if t in ("transport", "sp"):
            u["points"] = rng.choice([1, 2, 3, 4, Fraction(1, 2), Fraction(1, 4)])
        if t in ("fighter", "other_plane"):
            u["active"] = rng.random() < 0.5
        if t == "transport":
            u["organic"] = rng.random() < 0.3
            u["mode"] = "reserve" if u["organic"] and rng.random() < 0.3 else "move"
            u["out_of_supply"] = False  # 13.2b
            u["mobility"] = "truck"
        else:
            u["mode"] = "combat"
    return u


def hex_values(rng: random.Random, size: int) -> dict[str, Any]:
    return {"units": [unit_values(rng) for _ in range(size)], "phase": _pick(rng, _PHASES),
            "moment": _pick(rng, _MOMENTS), "off_map": rng.random() < 0.02}


def units(module: ModuleType, n: int, seed: int = SEED) -> list[Any]:
    rng = random.Random(seed)
    return [module.Unit(**unit_values(rng)) for _ in range(n)]


def hexes(module: ModuleType, stack: int, n: int, seed: int = SEED) -> list[Any]:
    rng = random.Random(seed * 1000 + stack)
    out = []
    for _ in range(n):
        v = hex_values(rng, stack)
        out.append(module.Hex(units=tuple(module.Unit(**u) for u in v["units"]), phase=v["phase"],
                              moment=v["moment"], off_map=v["off_map"]))
    return out


def ezoc_cases(module: ModuleType) -> list[tuple[str, bool]]:
    """Every action with and without negation, as the 4.5a query is asked during play."""
    return [(a, n) for a in module.EzocAction_values for n in (False, True)]


def as_dict(value: Any) -> Any:
    """A dataclass state as plain dicts and tuples (what an interpreted engine reads)."""
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: as_dict(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return tuple(as_dict(v) for v in value)
    return value
