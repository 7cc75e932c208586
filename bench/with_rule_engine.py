"""The benchmarked OCS checks written in rule-engine (PyPI `rule-engine`), an interpreted expression
language people use to keep game and business rules as data: each rule one expression, the game
state passed as dicts, a few lines of Python around the expressions.

This is the interpreted baseline of the benchmark. Same answers as the generated module
(tests/test_bench.py); rule-engine computes numbers as Decimal (exact for quarters and halves),
so the state is handed over with Decimal numbers: `state()` converts once, outside the timing.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

import rule_engine

_ENGINEERS = "'engineer', 'rail_repair', 'assault_engineer', 'pioneer', 'para_glider_engineer'"
_COMBAT = f"['combat_unit', 'hq', 'artillery', 'repl', {_ENGINEERS}]"
_RE_SIZE = (f"(u['type'] not in {_COMBAT} ? 0 : (u['type'] == 'hq' ? 1 : (u['multi_step'] ? "
            "u['printed_re'] - u['step_losses'] : (u['type'] == 'repl' or u['size'] == 'company' ? 0.25 "
            ": (u['size'] == 'battalion' ? 0.5 : 1)))))")

EZOC_ALLOWS = rule_engine.Rule("action in ['A', 'B', 'D', 'F', 'H'] and negated")
HAS_ZOC = rule_engine.Rule(
    f"type in ['combat_unit', 'repl', {_ENGINEERS}] and printed_strength and not parenthesized"
    " and mode not in ['strat', 'reserve']"
    " and not out_of_supply and (mode == 'combat' or (mode == 'exploit' and oriented_to_combat))")
RE_SIZE = rule_engine.Rule(re.sub(r"u\['(\w+)'\]", r"\1", _RE_SIZE))

OFF_MAP = rule_engine.Rule("off_map")
COMBAT_RE_EXEMPT = rule_engine.Rule("phase == 'reinforcement' or moment == 'moving'")
COMBAT_RE = rule_engine.Rule(f"$sum([{_RE_SIZE} for u in units if u['type'] in {_COMBAT}])")
COMBAT_UNITS = rule_engine.Rule(f"[u for u in units if u['type'] in {_COMBAT}]")
MAX_STACK_RE = 10
COUNTS = [(name, title, rule_engine.Rule(f"[u for u in units if u['type'] == '{kind}'].length"),
           rule_engine.Rule(f"[u for u in units if u['type'] == '{kind}']"))
          for name, title, kind in (("ports", "Ports", "port"), ("air_bases", "Air bases", "air_base"),
                                    ("hedgehogs", "Hedgehogs", "hedgehog"))]


def ezoc_allows(state: dict[str, Any]) -> bool:
    return bool(EZOC_ALLOWS.matches(state))


def has_zoc(unit: dict[str, Any]) -> bool:
    return bool(HAS_ZOC.matches(unit))


def re_size(unit: dict[str, Any]) -> Decimal:
    value: Decimal = RE_SIZE.evaluate(unit)
    return value


def stacking(hex_: dict[str, Any]) -> list[tuple[str, str, str, Any, Any, Any, tuple[Any, ...]]]:
    """(limit, title, rule, total, bound, excess, units) for every limit broken."""
    if OFF_MAP.matches(hex_):
        return []
    out = []
    if not COMBAT_RE_EXEMPT.matches(hex_):
        total = COMBAT_RE.evaluate(hex_)
        if total > MAX_STACK_RE:
            out.append(("combat_re", "Combat units (RE)", "4.8", total, MAX_STACK_RE, total - MAX_STACK_RE,
                        COMBAT_UNITS.evaluate(hex_)))
    for name, title, count, counted in COUNTS:
        n = count.evaluate(hex_)
        if n > 1:
            out.append((name, title, "4.8", n, 1, n - 1, counted.evaluate(hex_)))
    return out


def state(value: Any) -> Any:
    """A state of plain dicts (bench.states.as_dict) with Decimal for every exact number."""
    if isinstance(value, dict):
        return {k: state(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(state(v) for v in value)
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return value


def exact(value: Any) -> Any:
    """A rule-engine number back as an exact int or Fraction, for comparing answers."""
    if isinstance(value, Decimal):
        f = Fraction(value)
        return int(f) if f.denominator == 1 else f
    return value
