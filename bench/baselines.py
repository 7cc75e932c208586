"""The best hand-written Python for the benchmarked OCS checks: what a programmer who knows the
rules would write by hand, for speed, without a compiler.

Same inputs and answers as the generated module (generated/python/ocs.py): it reads the module's
Unit and Hex dataclasses and returns the same values (exact int or Fraction); tests/test_bench.py
checks that on many states. The tricks are the ones a careful programmer uses: sets instead of
lookups, tests reordered so the common case leaves first, RE carried as integer quarters in one
pass over the stack, and Fraction made only for the answer.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

# 4.5a: the actions marked <Negation>.
NEGATABLE = frozenset({"A", "B", "D", "F", "H"})
# 4.4: unit types that are combat units; those that can be Attack-Capable (13.1c: not HQs; 13.4b:
# not artillery, whose strengths are parenthesized).
# Engineers, pioneers, assault and para/glider engineers and rail repair units are combat units (13.8, 13.9).
ENGINEERS = frozenset({"engineer", "rail_repair", "assault_engineer", "pioneer", "para_glider_engineer"})
COMBAT = frozenset({"combat_unit", "hq", "artillery", "repl"}) | ENGINEERS
ATTACKERS = frozenset({"combat_unit", "repl"}) | ENGINEERS
QUARTER = Fraction(1, 4)
HALF = Fraction(1, 2)
# 4.6: quarters of an RE for a one-step combat unit that is not an HQ or a Repl, by size.
SIZE_QUARTERS = {"company": 1, "battalion": 2}
MAX_STACK_QUARTERS = 40  # 4.8: 10 RE


def ezoc_allows(action: str, negated: bool) -> bool:
    """4.5a: may the action be taken in an enemy ZOC?"""
    return negated and action in NEGATABLE


def has_zoc(u: Any) -> bool:
    """4.4b and 4.5: Attack-Capable, in supply, and in Combat Mode (or Exploitation Mode facing
    Combat)."""
    mode = u.mode
    if mode == "combat" or (mode == "exploit" and u.oriented_to_combat):
        # Combat or Exploit Mode is never Strat or Reserve: 4.4's mode test is implied.
        return u.type in ATTACKERS and u.printed_strength and not u.parenthesized and not u.out_of_supply
    return False


def re_size(u: Any) -> int | Fraction:
    """4.6 and 13.1: RE size (only ground combat units have one)."""
    t = u.type
    if t not in COMBAT:
        return 0
    if t == "hq":
        return 1
    if u.multi_step:
        return u.printed_re - u.step_losses
    if t == "repl":
        return QUARTER
    size = u.size
    if size == "company":
        return QUARTER
    if size == "battalion":
        return HALF
    return 1


class Violation(NamedTuple):
    limit: str
    title: str | None
    rule: str | None
    total: int | Fraction
    bound: int | Fraction
    excess: int | Fraction
    units: tuple[Any, ...]


def _exact(quarters: int | Fraction) -> int | Fraction:
    if quarters % 4 == 0:
        return int(quarters // 4)
    return Fraction(quarters) / 4


def stacking(h: Any) -> list[Violation]:
    """4.8 and 4.8a: every stacking limit the hex breaks. One pass, RE in integer quarters."""
    if h.off_map:
        return []
    quarters = ports = air_bases = hedgehogs = 0
    for u in h.units:
        t = u.type
        if t in COMBAT:
            if t == "hq":
                quarters += 4
            elif u.multi_step:
                quarters += (u.printed_re - u.step_losses) * 4
            elif t == "repl":
                quarters += 1
            else:
                quarters += SIZE_QUARTERS.get(u.size, 4)
        elif t == "port":
            ports += 1
        elif t == "air_base":
            air_bases += 1
        elif t == "hedgehog":
            hedgehogs += 1
    out: list[Violation] = []
    if quarters > MAX_STACK_QUARTERS and h.phase != "reinforcement" and h.moment != "moving":
        out.append(Violation("combat_re", "Combat units (RE)", "4.8", _exact(quarters), 10,
                             _exact(quarters - MAX_STACK_QUARTERS), tuple(u for u in h.units if u.type in COMBAT)))
    if ports > 1:
        out.append(Violation("ports", "Ports", "4.8", ports, 1, ports - 1,
                             tuple(u for u in h.units if u.type == "port")))
    if air_bases > 1:
        out.append(Violation("air_bases", "Air bases", "4.8", air_bases, 1, air_bases - 1,
                             tuple(u for u in h.units if u.type == "air_base")))
    if hedgehogs > 1:
        out.append(Violation("hedgehogs", "Hedgehogs", "4.8", hedgehogs, 1, hedgehogs - 1,
                             tuple(u for u in h.units if u.type == "hedgehog")))
    return out


def stacking_fraction(h: Any) -> list[Violation]:
    """The same check written the obvious way: re_size() per unit, summed as Fractions.
    Not a target, a point of comparison: what exact arithmetic costs without integer quarters."""
    if h.off_map:
        return []
    out: list[Violation] = []
    if h.phase != "reinforcement" and h.moment != "moving":
        total = sum((Fraction(re_size(u)) for u in h.units if u.type in COMBAT), Fraction(0))
        if total > 10:
            out.append(Violation("combat_re", "Combat units (RE)", "4.8", _plain(total), 10, _plain(total - 10),
                                 tuple(u for u in h.units if u.type in COMBAT)))
    for limit, title, kind in (("ports", "Ports", "port"), ("air_bases", "Air bases", "air_base"),
                               ("hedgehogs", "Hedgehogs", "hedgehog")):
        count = sum(1 for u in h.units if u.type == kind)
        if count > 1:
            out.append(Violation(limit, title, "4.8", count, 1, count - 1,
                                 tuple(u for u in h.units if u.type == kind)))
    return out


def _plain(x: Fraction) -> int | Fraction:
    return int(x) if x.denominator == 1 else x
