"""Operational Combat Series: rule checks compiled by rulec 0.1.0.

series OCS (Operational Combat Series) version 4.3; options: none.

Generated from rules/ocs/ch13-specialized-units.rules, rules/ocs/ch4-general-concepts.rules, rules/ocs/series.rules by `rulec build`; do not edit.
Standalone: it needs only the Python standard library, so it can be copied into any program.
Every check has an explain_ twin whose Answer cites the rules that decided it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Final, Generic, Literal, TypeVar

Number = int | Fraction
T = TypeVar("T")

SCALE: Final = 4
"""Inside this module numbers are carried multiplied by SCALE, so RE and SP fractions add as integers."""


class RuleError(Exception):
    """The rules give no answer for these inputs (no table row matches, division by zero)."""


class InvalidInput(ValueError):
    """Game state that the rules cannot take: names the field and what is allowed."""

    def __init__(self, field: str, message: str, allowed: tuple[str, ...] = ()) -> None:
        self.field = field
        self.allowed = allowed
        hint = f"; allowed: {', '.join(allowed)}" if allowed else ""
        super().__init__(f"{field}: {message}{hint}")


@dataclass(frozen=True, slots=True)
class Cite:
    """A rule an answer rests on: a clause (and item) of a layer, with the layer's note if it overrides."""

    layer: str
    clause: str | None
    item: str | None
    title: str | None
    note: str | None

    def __str__(self) -> str:
        if self.clause is None:  # declared outside any numbered clause
            text = f"{self.title or self.item or ''} ({self.layer})".strip()
        else:
            where = " ".join(x for x in (self.clause, self.item) if x)
            text = f"{where} {self.title}" if self.title else where
        if self.note:
            text += f" (overridden by {self.layer}: {self.note})"
        return text


@dataclass(frozen=True, slots=True)
class Answer(Generic[T]):
    """A value with the rules that decided it and, for a no, what would make it a yes."""

    value: T
    rules: tuple[Cite, ...]
    would_change: tuple[str, ...] = ()

    @property
    def explanation(self) -> str:
        text = "; ".join(str(c) for c in self.rules)
        if self.would_change:
            text += ". The answer would be yes if " + " or ".join(self.would_change)
        return text


@dataclass(frozen=True, slots=True)
class Violation:
    """One limit a stack breaks: which, by how much, under which rule, and the units counted."""

    limit: str
    title: str | None
    rule: str | None
    total: Number
    bound: Number
    excess: Number
    units: tuple[Any, ...]


def _exact(x: Number) -> Number:
    """A scaled number back to its exact value: an int when whole, else a Fraction."""
    q, r = divmod(x, SCALE)
    if r == 0:
        return int(q)
    return Fraction(x) / SCALE


def _mul(a: Number, b: Number) -> Number:
    product = a * b
    q, r = divmod(product, SCALE)
    return int(q) if r == 0 else Fraction(product) / SCALE


def _div(a: Number, b: Number) -> Number:
    if b == 0:
        raise RuleError("division by zero")
    q, r = divmod(a * SCALE, b)
    return int(q) if r == 0 else Fraction(a * SCALE) / b


def _product(items: Iterable[Number]) -> Number:
    result: Number = SCALE
    for x in items:
        result = _mul(result, x)
    return result


def _min(items: Iterable[T]) -> T:
    values = list(items)
    if not values:
        raise RuleError("min of nothing")
    return min(values)  # type: ignore[type-var]


def _max(items: Iterable[T]) -> T:
    values = list(items)
    if not values:
        raise RuleError("max of nothing")
    return max(values)  # type: ignore[type-var]


def _attr(t: list[Cite], cites: Mapping[Any, tuple[Cite, ...]], table: Mapping[Any, T], key: Any) -> T:
    t.extend(cites[key])
    return table[key]


def _cite(t: list[Cite], cites: tuple[Cite, ...], value: T) -> T:
    t.extend(cites)
    return value


def _rules(t: list[Cite]) -> tuple[Cite, ...]:
    return tuple(dict.fromkeys(t))


def _would_change(check: Callable[..., bool], args: tuple[tuple[str, Any, Any], ...]) -> tuple[str, ...]:
    """Single changes to list values or yes/no inputs that would turn a no into a yes."""
    values = [a for _, a, _ in args]
    out: list[str] = []
    for i, (name, value, domain) in enumerate(args):
        if isinstance(domain, dict):
            for fname, choices in domain.items():
                for alt in choices:
                    if alt != getattr(value, fname) and check(*values[:i], replace(value, **{fname: alt}),
                                                              *values[i + 1:]):
                        out.append(f"{name}.{fname} = {_word(alt)}")
        else:
            for alt in domain:
                if alt != value and check(*values[:i], alt, *values[i + 1:]):
                    out.append(f"{name} = {_word(alt)}")
    return tuple(out)


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _number(value: Any, path: str) -> Number:
    if isinstance(value, bool):
        raise InvalidInput(path, f"{value!r} is not a number")
    if isinstance(value, (int, Fraction)):
        return value
    if isinstance(value, (float, str)):
        try:
            exact = Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            raise InvalidInput(path, f"{value!r} is not a number (write 2, 2.5 or 1/2)") from None
        return int(exact) if exact.denominator == 1 else exact
    raise InvalidInput(path, f"{value!r} is not a number")


def _value(t: str, allowed: tuple[str, ...], value: Any, path: str) -> Any:
    if t == "bool":
        if not isinstance(value, bool):
            raise InvalidInput(path, f"{value!r} is not true or false")
        return value
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(path, f"{value!r} is not a whole number")
        return value
    if t == "number":
        return _number(value, path)
    if t == "text":
        if not isinstance(value, str):
            raise InvalidInput(path, f"{value!r} is not a text")
        return value
    if t.startswith("enum "):
        choices = allowed or _ENUM_VALUES[t[5:]]
        if value not in choices:
            raise InvalidInput(path, f"{value!r} is not a {t[5:]}", choices)
        return value
    if t.startswith("record "):
        return from_json(t[7:], value, path)
    if t.startswith("list of ") or t.startswith("set of "):
        item = t.split(" of ", 1)[1]
        if not isinstance(value, (list, tuple)):
            raise InvalidInput(path, f"{value!r} is not a list")
        items = tuple(_value(item, (), v, f"{path}[{i}]") for i, v in enumerate(value))
        return items if t.startswith("list") else frozenset(items)
    raise InvalidInput(path, f"cannot read a {t}")


def from_json(record: str, data: Any, path: str = "") -> Any:
    """A record from JSON-like data, each field checked; raises InvalidInput naming the field."""
    path = path or record
    if record not in _FIELDS:
        raise InvalidInput(path, f"unknown kind of record {record!r}", tuple(_FIELDS))
    if not isinstance(data, Mapping):
        raise InvalidInput(path, f"expected an object with fields, got {data!r}")
    fields = _FIELDS[record]
    known = {name for name, _, _ in fields}
    for key in data:
        if key not in known:
            raise InvalidInput(f"{path}.{key}", "is not a field", tuple(sorted(known)))
    values: dict[str, Any] = {}
    for name, t, allowed in fields:
        if name in data:
            values[name + "_" if name in _RENAMED else name] = _value(t, allowed, data[name], f"{path}.{name}")
    try:
        made = _RECORD_CLASSES[record](**values)
    except TypeError as e:
        raise InvalidInput(path, str(e)) from None
    for check, rule, title, read in _INVARIANTS.get(record, ()):
        if not check(made):
            first = read[0] if read else ""
            where = f"{path}.{first}" if first else path
            shown = repr(getattr(made, first + "_" if first in _RENAMED else first)) if first else "this"
            raise InvalidInput(where, f"{shown} breaks {rule}: {title}", _allowed(made, record, first, check))
    return made


def _allowed(made: Any, record: str, name: str, check: Callable[[Any], bool]) -> tuple[str, ...]:
    """The values of a list field that would meet the invariant, the other fields as they are."""
    for fname, t, allowed in _FIELDS[record]:
        if fname == name and t.startswith("enum "):
            attr = fname + "_" if fname in _RENAMED else fname
            return tuple(v for v in allowed if check(replace(made, **{attr: v})))
    return ()

RULESET: Final = 'OCS'
TITLE: Final = 'Operational Combat Series'
SERIES: Final[str | None] = 'OCS'
SERIES_VERSION: Final[str | None] = '4.3'
GAME: Final[str | None] = None
GAME_VERSION: Final[str | None] = None
SCENARIO: Final[str | None] = None
OPTIONS: Final[tuple[str, ...]] = ()
LAYERS: Final[tuple[str, ...]] = ('OCS',)
MANIFEST: Final[dict[str, Any]] = {'game': None,
     'layers': ['OCS'],
     'options': [],
     'ruleset': 'OCS',
     'scenario': None,
     'series': {'name': 'OCS', 'title': 'Operational Combat Series', 'version': '4.3'},
     'title': 'Operational Combat Series'}

_C0: Final[Cite] = Cite(layer='OCS', clause='4.8', item=None, title='Stacking', note=None)
_CITES1: Final[tuple[Cite, ...]] = (_C0,)
_C2: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='A', title='Truck Movement', note=None)
_CITES3: Final[tuple[Cite, ...]] = (_C2,)
_C4: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='B', title='Supply Lines', note=None)
_CITES5: Final[tuple[Cite, ...]] = (_C4,)
_C6: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='C', title='Rail Transport - Literal', note=None)
_CITES7: Final[tuple[Cite, ...]] = (_C6,)
_C8: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='D', title='Rail Transport - Trace Supply', note=None)
_CITES9: Final[tuple[Cite, ...]] = (_C8,)
_C10: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='E', title='Rail Conversion operations', note=None)
_CITES11: Final[tuple[Cite, ...]] = (_C10,)
_C12: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='F', title='Port Operations - Trace Supply', note=None)
_CITES13: Final[tuple[Cite, ...]] = (_C12,)
_C14: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='G', title='Port Operations-Literal, Using Sea Cap', note=None)
_CITES15: Final[tuple[Cite, ...]] = (_C14,)
_C16: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='H', title='Aircraft Refit', note=None)
_CITES17: Final[tuple[Cite, ...]] = (_C16,)
_C18: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='I', title='Reserve Mode', note=None)
_CITES19: Final[tuple[Cite, ...]] = (_C18,)
_C20: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='J', title='Strat Mode', note=None)
_CITES21: Final[tuple[Cite, ...]] = (_C20,)
_C22: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='K', title='Repl Rebuilds', note=None)
_CITES23: Final[tuple[Cite, ...]] = (_C22,)
_C24: Final[Cite] = Cite(layer='OCS', clause=None, item='combat_unit', title='Combat unit', note=None)
_CITES25: Final[tuple[Cite, ...]] = (_C24,)
_C26: Final[Cite] = Cite(layer='OCS', clause=None, item='hq', title='HQ', note=None)
_CITES27: Final[tuple[Cite, ...]] = (_C26,)
_C28: Final[Cite] = Cite(layer='OCS', clause=None, item='artillery', title='Artillery', note=None)
_CITES29: Final[tuple[Cite, ...]] = (_C28,)
_C30: Final[Cite] = Cite(layer='OCS', clause=None, item='repl', title='Replacement (Repl)', note=None)
_CITES31: Final[tuple[Cite, ...]] = (_C30,)
_C32: Final[Cite] = Cite(layer='OCS', clause=None, item='transport', title='Transport Point', note=None)
_CITES33: Final[tuple[Cite, ...]] = (_C32,)
_C34: Final[Cite] = Cite(layer='OCS', clause=None, item='sp', title='Supply Points (SP)', note=None)
_CITES35: Final[tuple[Cite, ...]] = (_C34,)
_C36: Final[Cite] = Cite(layer='OCS', clause=None, item='port', title='Port', note=None)
_CITES37: Final[tuple[Cite, ...]] = (_C36,)
_C38: Final[Cite] = Cite(layer='OCS', clause=None, item='air_base', title='Air base', note=None)
_CITES39: Final[tuple[Cite, ...]] = (_C38,)
_C40: Final[Cite] = Cite(layer='OCS', clause=None, item='hedgehog', title='Hedgehog', note=None)
_CITES41: Final[tuple[Cite, ...]] = (_C40,)
_C42: Final[Cite] = Cite(layer='OCS', clause='13.2d', item=None, title='Mode Restrictions', note=None)
_CITES43: Final[tuple[Cite, ...]] = (_C42,)
_DOMAINS_Unit_44: Final[dict[str, tuple[Any, ...]]] = {'type': ('combat_unit', 'hq', 'artillery', 'repl', 'transport', 'sp', 'port', 'air_base', 'hedgehog'), 'size': ('company', 'battalion', 'regiment', 'brigade', 'division', 'corps'), 'mode': ('combat', 'move', 'reserve', 'strat', 'dg', 'exploit'), 'oriented_to_combat': (False, True), 'mobility': ('leg', 'truck', 'track'), 'printed_strength': (False, True), 'parenthesized': (False, True), 'out_of_supply': (False, True), 'multi_step': (False, True), 'organic': (False, True), 'will_spend_mp': (False, True)}
_C45: Final[Cite] = Cite(layer='OCS', clause='13.5', item=None, title='Replacement Units', note=None)
_CITES46: Final[tuple[Cite, ...]] = (_C45,)
_C47: Final[Cite] = Cite(layer='OCS', clause='4.1', item=None, title='Rounding Rule', note=None)
_CITES48: Final[tuple[Cite, ...]] = (_C47,)
_C49: Final[Cite] = Cite(layer='OCS', clause='4.2', item=None, title='Fractions', note=None)
_CITES50: Final[tuple[Cite, ...]] = (_C49,)
_C51: Final[Cite] = Cite(layer='OCS', clause='4.3', item=None, title='Cumulative Effects', note=None)
_CITES52: Final[tuple[Cite, ...]] = (_C51,)
_C53: Final[Cite] = Cite(layer='OCS', clause='4.4', item=None, title='Attack-Capable Units', note=None)
_CITES54: Final[tuple[Cite, ...]] = (_C53,)
_SET55: Final = frozenset({'reserve', 'strat'})
_C56: Final[Cite] = Cite(layer='OCS', clause='4.4a', item=None, title=None, note=None)
_CITES57: Final[tuple[Cite, ...]] = (_C56,)
_C58: Final[Cite] = Cite(layer='OCS', clause='4.4c', item=None, title=None, note=None)
_CITES59: Final[tuple[Cite, ...]] = (_C58,)
_C60: Final[Cite] = Cite(layer='OCS', clause='4.5', item=None, title='Zone of Control', note=None)
_CITES61: Final[tuple[Cite, ...]] = (_C60,)
_C62: Final[Cite] = Cite(layer='OCS', clause='4.5a', item=None, title='Actions not allowed in an enemy ZOC', note=None)
_CITES63: Final[tuple[Cite, ...]] = (_C62,)
_C64: Final[Cite] = Cite(layer='OCS', clause='4.5b', item=None, title='Negating ZOC', note=None)
_CITES65: Final[tuple[Cite, ...]] = (_C64,)
_DOMAINS_Hex_66: Final[dict[str, tuple[Any, ...]]] = {'phase': ('reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up'), 'moment': ('segment_end', 'moving', 'overrun'), 'off_map': (False, True)}
_C67: Final[Cite] = Cite(layer='OCS', clause='4.7c', item=None, title=None, note=None)
_CITES68: Final[tuple[Cite, ...]] = (_C67,)
_C69: Final[Cite] = Cite(layer='OCS', clause=None, item=None, title=None, note=None)
_CITES70: Final[tuple[Cite, ...]] = (_C69,)
_C71: Final[Cite] = Cite(layer='OCS', clause='4.6', item=None, title='Regimental Equivalents', note=None)
_C72: Final[Cite] = Cite(layer='OCS', clause='13.1', item='hq', title='HQs are 1 RE, regardless of what is on the unit designation', note=None)
_C73: Final[Cite] = Cite(layer='OCS', clause='4.6', item='multi_step', title='Multi-step units: the RE size shown on the counter, reduced by one for each step loss', note=None)
_C74: Final[Cite] = Cite(layer='OCS', clause='4.6', item='quarter', title='Repl units and company-sized units are 1/4 RE', note=None)
_C75: Final[Cite] = Cite(layer='OCS', clause='4.6', item='battalion', title='Battalions are 1/2 RE', note=None)
_C76: Final[Cite] = Cite(layer='OCS', clause='4.6', item='other', title='All other sizes count as 1 RE', note=None)
_CITES77: Final[tuple[Cite, ...]] = (_C71, _C72,)
_CITES78: Final[tuple[Cite, ...]] = (_C71, _C73,)
_CITES79: Final[tuple[Cite, ...]] = (_C71, _C74,)
_CITES80: Final[tuple[Cite, ...]] = (_C71, _C75,)
_CITES81: Final[tuple[Cite, ...]] = (_C71, _C76,)
_C82: Final[Cite] = Cite(layer='OCS', clause='4.7b', item=None, title=None, note=None)
_C83: Final[Cite] = Cite(layer='OCS', clause='4.7a', item='supply', title='SP: one point of capacity for each SP', note=None)
_C84: Final[Cite] = Cite(layer='OCS', clause='4.7c', item='transport_point', title='Transport Points: their size, loaded or not', note=None)
_C85: Final[Cite] = Cite(layer='OCS', clause='4.7b', item='slow_leg', title='A printed Move Mode MA of 1 to 6 Leg MP: half the RE size', note=None)
_C86: Final[Cite] = Cite(layer='OCS', clause='4.7b', item='other', title='All other units: the RE size', note=None)
_CITES87: Final[tuple[Cite, ...]] = (_C82, _C83,)
_CITES88: Final[tuple[Cite, ...]] = (_C82, _C84,)
_CITES89: Final[tuple[Cite, ...]] = (_C82, _C85,)
_CITES90: Final[tuple[Cite, ...]] = (_C82, _C86,)
_C91: Final[Cite] = Cite(layer='OCS', clause='4.8a', item=None, title='Overstacking', note=None)
_CITES92: Final[tuple[Cite, ...]] = (_C91,)


# ---- lists of values ------------------------------------------------------------

# rules/ocs/ch4-general-concepts.rules:134  4.5a  Action in an enemy ZOC
EzocAction = Literal['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K']
EzocAction_values: Final[tuple[EzocAction, ...]] = ('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K',)
EzocAction_titles: Final[dict[EzocAction, str]] = {
    'A': 'Truck Movement',
    'B': 'Supply Lines',
    'C': 'Rail Transport - Literal',
    'D': 'Rail Transport - Trace Supply',
    'E': 'Rail Conversion operations',
    'F': 'Port Operations - Trace Supply',
    'G': 'Port Operations-Literal, Using Sea Cap',
    'H': 'Aircraft Refit',
    'I': 'Reserve Mode',
    'J': 'Strat Mode',
    'K': 'Repl Rebuilds',
}
EzocAction_negatable: Final[dict[EzocAction, bool]] = {
    'A': True,
    'B': True,
    'C': False,
    'D': True,
    'E': False,
    'F': True,
    'G': False,
    'H': True,
    'I': False,
    'J': False,
    'K': False,
}
_CITES_EzocAction_negatable: Final[dict[EzocAction, tuple[Cite, ...]]] = {'A': _CITES3, 'B': _CITES5, 'C': _CITES7, 'D': _CITES9, 'E': _CITES11, 'F': _CITES13, 'G': _CITES15, 'H': _CITES17, 'I': _CITES19, 'J': _CITES21, 'K': _CITES23}

# rules/ocs/series.rules:30  OCS  Mode
Mode = Literal['combat', 'move', 'reserve', 'strat', 'dg', 'exploit']
Mode_values: Final[tuple[Mode, ...]] = ('combat', 'move', 'reserve', 'strat', 'dg', 'exploit',)
Mode_titles: Final[dict[Mode, str]] = {
    'combat': 'Combat',
    'move': 'Move',
    'reserve': 'Reserve',
    'strat': 'Strat',
    'dg': 'Disorganized (DG)',
    'exploit': 'Exploitation',
}

# rules/ocs/series.rules:39  OCS  Mobility type
Mobility = Literal['leg', 'truck', 'track']
Mobility_values: Final[tuple[Mobility, ...]] = ('leg', 'truck', 'track',)
Mobility_titles: Final[dict[Mobility, str]] = {
    'leg': 'Leg',
    'truck': 'Truck',
    'track': 'Track',
}

# rules/ocs/series.rules:45  OCS  Unit type
UnitType = Literal['combat_unit', 'hq', 'artillery', 'repl', 'transport', 'sp', 'port', 'air_base', 'hedgehog']
UnitType_values: Final[tuple[UnitType, ...]] = ('combat_unit', 'hq', 'artillery', 'repl', 'transport', 'sp', 'port', 'air_base', 'hedgehog',)
UnitType_titles: Final[dict[UnitType, str]] = {
    'combat_unit': 'Combat unit',
    'hq': 'HQ',
    'artillery': 'Artillery',
    'repl': 'Replacement (Repl)',
    'transport': 'Transport Point',
    'sp': 'Supply Points (SP)',
    'port': 'Port',
    'air_base': 'Air base',
    'hedgehog': 'Hedgehog',
}
UnitType_combat: Final[dict[UnitType, bool]] = {
    'combat_unit': True,
    'hq': True,
    'artillery': True,
    'repl': True,
    'transport': False,
    'sp': False,
    'port': False,
    'air_base': False,
    'hedgehog': False,
}
_CITES_UnitType_combat: Final[dict[UnitType, tuple[Cite, ...]]] = {'combat_unit': _CITES25, 'hq': _CITES27, 'artillery': _CITES29, 'repl': _CITES31, 'transport': _CITES33, 'sp': _CITES35, 'port': _CITES37, 'air_base': _CITES39, 'hedgehog': _CITES41}

# rules/ocs/series.rules:58  OCS  Unit size (designation)
Size = Literal['company', 'battalion', 'regiment', 'brigade', 'division', 'corps']
Size_values: Final[tuple[Size, ...]] = ('company', 'battalion', 'regiment', 'brigade', 'division', 'corps',)
Size_titles: Final[dict[Size, str]] = {
    'company': 'Company',
    'battalion': 'Battalion',
    'regiment': 'Regiment',
    'brigade': 'Brigade',
    'division': 'Division',
    'corps': 'Corps',
}

# rules/ocs/series.rules:67  OCS  Phase
Phase = Literal['reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up']
Phase_values: Final[tuple[Phase, ...]] = ('reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up',)
Phase_titles: Final[dict[Phase, str]] = {
    'reinforcement': 'Reinforcement Phase',
    'movement': 'Movement Phase',
    'reaction': 'Reaction Phase',
    'exploitation': 'Exploitation Phase',
    'combat_phase': 'Combat Phase',
    'barrage': 'Barrage Phase',
    'supply': 'Supply Phase',
    'clean_up': 'Clean Up Phase',
}

# rules/ocs/series.rules:78  OCS  When stacking is looked at
Moment = Literal['segment_end', 'moving', 'overrun']
Moment_values: Final[tuple[Moment, ...]] = ('segment_end', 'moving', 'overrun',)
Moment_titles: Final[dict[Moment, str]] = {
    'segment_end': 'At the end of a segment or phase',
    'moving': 'During movement',
    'overrun': 'While conducting an overrun',
}


# ---- game state ----------------------------------------------------------------


# rules/ocs/series.rules:84  OCS
@dataclass(frozen=True, slots=True)
class Unit:
    """A ground unit"""

    #: What kind of unit it is
    type: UnitType = 'combat_unit'
    #: The size on its designation
    size: Size = 'regiment'
    #: The mode it is in
    mode: Mode = 'combat'
    #: Under a DG, Strat or Exploitation marker: faces its Combat Mode side
    oriented_to_combat: bool = True
    #: The colour of its Movement Allowance
    mobility: Mobility = 'leg'
    #: Its printed Movement Allowance in Move Mode
    move_ma: Number = 0
    #: Has a printed Combat Strength
    printed_strength: bool = True
    #: The Combat Strength is in parentheses (defensive only)
    parenthesized: bool = False
    #: The printed Combat Strength
    strength: Number = 1
    #: Marked Out of Supply
    out_of_supply: bool = False
    #: A multi-step unit (prints its RE size)
    multi_step: bool = False
    #: The RE size printed on a multi-step unit
    printed_re: Number = 0
    #: Steps lost (multi-step units)
    step_losses: int = 0
    #: Transport Points and SP: the points it is worth
    points: Number = 0
    #: Transport Points: an Organic Truck of a multi-unit formation
    organic: bool = False
    #: Will spend MP later in the current phase
    will_spend_mp: bool = False


# rules/ocs/series.rules:103  OCS
@dataclass(frozen=True, slots=True)
class Hex:
    """A hex and the friendly units in it"""

    #: The friendly units in the hex
    units: tuple[Unit, ...] = ()
    #: The phase being played
    phase: Phase = 'movement'
    #: When the hex is looked at
    moment: Moment = 'segment_end'
    #: An Off-Map Holding Box rather than a map hex
    off_map: bool = False


# ---- checks --------------------------------------------------------------------


# rules/ocs/ch13-specialized-units.rules:22  13.2d  Mode Restrictions
def transport_point_mode(u: Unit) -> bool:
    """Transport Points are in Move Mode at all times; Organic Trucks may also be in Reserve Mode (13.2d)."""
    return u.type != 'transport' or u.mode == 'move' or (u.organic and u.mode == 'reserve')


# rules/ocs/ch13-specialized-units.rules:22  13.2d  Mode Restrictions
def _t_transport_point_mode(u: Unit, _t: list[Cite]) -> bool:
    """transport_point_mode, recording in _t each rule it uses."""
    _t.extend(_CITES43)
    return u.type != 'transport' or u.mode == 'move' or (u.organic and u.mode == 'reserve')


# rules/ocs/ch13-specialized-units.rules:22  13.2d  Mode Restrictions
def explain_transport_point_mode(u: Unit) -> Answer[bool]:
    """Transport Points are in Move Mode at all times; Organic Trucks may also be in Reserve Mode (13.2d), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transport_point_mode(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(transport_point_mode, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch13-specialized-units.rules:36  13.5  Replacement Units
def repl_mode(u: Unit) -> bool:
    """Repls can never enter Combat Mode (13.5)."""
    return u.type != 'repl' or u.mode != 'combat'


# rules/ocs/ch13-specialized-units.rules:36  13.5  Replacement Units
def _t_repl_mode(u: Unit, _t: list[Cite]) -> bool:
    """repl_mode, recording in _t each rule it uses."""
    _t.extend(_CITES46)
    return u.type != 'repl' or u.mode != 'combat'


# rules/ocs/ch13-specialized-units.rules:36  13.5  Replacement Units
def explain_repl_mode(u: Unit) -> Answer[bool]:
    """Repls can never enter Combat Mode (13.5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_repl_mode(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(repl_mode, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch4-general-concepts.rules:14  4.1  Rounding Rule
def _s_rounded(x: Number) -> int:
    """rounded with numbers scaled by SCALE."""
    return (x + 2) // 4


# rules/ocs/ch4-general-concepts.rules:14  4.1  Rounding Rule
def _t_rounded(x: Number, _t: list[Cite]) -> int:
    """rounded, recording in _t each rule it uses."""
    _t.extend(_CITES48)
    return (x + 2) // 4


# rules/ocs/ch4-general-concepts.rules:14  4.1  Rounding Rule
def rounded(x: Number) -> int:
    """Rounded per 4.1 (.5 rounds up) (4.1). Numbers are exact: int or Fraction."""
    return _s_rounded(x * SCALE)


# rules/ocs/ch4-general-concepts.rules:14  4.1  Rounding Rule
def explain_rounded(x: Number) -> Answer[int]:
    """Rounded per 4.1 (.5 rounds up) (4.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_rounded(x * SCALE, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:29  4.2  Fractions
def _s_odds(attack: Number, defense: Number) -> int:
    """odds with numbers scaled by SCALE."""
    return _s_rounded(_div(attack, defense))


# rules/ocs/ch4-general-concepts.rules:29  4.2  Fractions
def _t_odds(attack: Number, defense: Number, _t: list[Cite]) -> int:
    """odds, recording in _t each rule it uses."""
    _t.extend(_CITES50)
    return _t_rounded(_div(attack, defense), _t)


# rules/ocs/ch4-general-concepts.rules:29  4.2  Fractions
def odds(attack: Number, defense: Number) -> int:
    """Combat odds (N to 1), rounded only at the end (4.2). Numbers are exact: int or Fraction."""
    return _s_odds(attack * SCALE, defense * SCALE)


# rules/ocs/ch4-general-concepts.rules:29  4.2  Fractions
def explain_odds(attack: Number, defense: Number) -> Answer[int]:
    """Combat odds (N to 1), rounded only at the end (4.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_odds(attack * SCALE, defense * SCALE, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:46  4.3  Cumulative Effects
def _s_modified(value: Number, factors: tuple[Number, ...]) -> Number:
    """modified with numbers scaled by SCALE."""
    return _mul(value, _product((f for f in factors)))


# rules/ocs/ch4-general-concepts.rules:46  4.3  Cumulative Effects
def _t_modified(value: Number, factors: tuple[Number, ...], _t: list[Cite]) -> Number:
    """modified, recording in _t each rule it uses."""
    _t.extend(_CITES52)
    return _mul(value, _product((f for f in factors)))


# rules/ocs/ch4-general-concepts.rules:46  4.3  Cumulative Effects
def modified(value: Number, factors: Sequence[Number]) -> Number:
    """A value with every modifier applied in turn (4.3). Numbers are exact: int or Fraction."""
    return _exact(_s_modified(value * SCALE, tuple(_x * SCALE for _x in factors)))


# rules/ocs/ch4-general-concepts.rules:46  4.3  Cumulative Effects
def explain_modified(value: Number, factors: Sequence[Number]) -> Answer[Number]:
    """A value with every modifier applied in turn (4.3), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_modified(value * SCALE, tuple(_x * SCALE for _x in factors), _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:59  4.4  Attack-Capable Units
def is_combat(u: Unit) -> bool:
    """Is a combat unit (4.4)."""
    return UnitType_combat[u.type]


# rules/ocs/ch4-general-concepts.rules:59  4.4  Attack-Capable Units
def _t_is_combat(u: Unit, _t: list[Cite]) -> bool:
    """is_combat, recording in _t each rule it uses."""
    _t.extend(_CITES54)
    return _attr(_t, _CITES_UnitType_combat, UnitType_combat, u.type)


# rules/ocs/ch4-general-concepts.rules:59  4.4  Attack-Capable Units
def explain_is_combat(u: Unit) -> Answer[bool]:
    """Is a combat unit (4.4), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_is_combat(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(is_combat, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch4-general-concepts.rules:61  4.4  Attack-Capable Units
def attack_capable(u: Unit) -> bool:
    """Attack-Capable (4.4)."""
    return is_combat(u) and u.printed_strength and (not u.parenthesized) and (u.mode not in _SET55)


# rules/ocs/ch4-general-concepts.rules:61  4.4  Attack-Capable Units
def _t_attack_capable(u: Unit, _t: list[Cite]) -> bool:
    """attack_capable, recording in _t each rule it uses."""
    _t.extend(_CITES54)
    return _t_is_combat(u, _t) and u.printed_strength and (not u.parenthesized) and (u.mode not in _SET55)


# rules/ocs/ch4-general-concepts.rules:61  4.4  Attack-Capable Units
def explain_attack_capable(u: Unit) -> Answer[bool]:
    """Attack-Capable (4.4), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_attack_capable(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(attack_capable, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch4-general-concepts.rules:80  4.4a
def may_attack(u: Unit) -> bool:
    """May attack or overrun (4.4a)."""
    return attack_capable(u)


# rules/ocs/ch4-general-concepts.rules:80  4.4a
def _t_may_attack(u: Unit, _t: list[Cite]) -> bool:
    """may_attack, recording in _t each rule it uses."""
    _t.extend(_CITES57)
    return _t_attack_capable(u, _t)


# rules/ocs/ch4-general-concepts.rules:80  4.4a
def explain_may_attack(u: Unit) -> Answer[bool]:
    """May attack or overrun (4.4a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_attack(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(may_attack, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch4-general-concepts.rules:98  4.4c
def may_enter_enemy_noncombat_hex(u: Unit) -> bool:
    """May move into a hex with an enemy non-combat unit (4.4c)."""
    return attack_capable(u)


# rules/ocs/ch4-general-concepts.rules:98  4.4c
def _t_may_enter_enemy_noncombat_hex(u: Unit, _t: list[Cite]) -> bool:
    """may_enter_enemy_noncombat_hex, recording in _t each rule it uses."""
    _t.extend(_CITES59)
    return _t_attack_capable(u, _t)


# rules/ocs/ch4-general-concepts.rules:98  4.4c
def explain_may_enter_enemy_noncombat_hex(u: Unit) -> Answer[bool]:
    """May move into a hex with an enemy non-combat unit (4.4c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_enter_enemy_noncombat_hex(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(may_enter_enemy_noncombat_hex, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch4-general-concepts.rules:111  4.5  Zone of Control
def has_zoc(u: Unit) -> bool:
    """Has a Zone of Control (4.5)."""
    return attack_capable(u) and (not u.out_of_supply) and (u.mode == 'combat' or (u.mode == 'exploit' and u.oriented_to_combat))


# rules/ocs/ch4-general-concepts.rules:111  4.5  Zone of Control
def _t_has_zoc(u: Unit, _t: list[Cite]) -> bool:
    """has_zoc, recording in _t each rule it uses."""
    _t.extend(_CITES61)
    return _t_attack_capable(u, _t) and (not u.out_of_supply) and (u.mode == 'combat' or (u.mode == 'exploit' and u.oriented_to_combat))


# rules/ocs/ch4-general-concepts.rules:111  4.5  Zone of Control
def explain_has_zoc(u: Unit) -> Answer[bool]:
    """Has a Zone of Control (4.5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_has_zoc(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(has_zoc, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch4-general-concepts.rules:160  4.5a  Actions not allowed in an enemy ZOC
def ezoc_allows(action: EzocAction, negated: bool) -> bool:
    """May the action be taken in an enemy ZOC? (4.5a)."""
    return EzocAction_negatable[action] and negated


# rules/ocs/ch4-general-concepts.rules:160  4.5a  Actions not allowed in an enemy ZOC
def _t_ezoc_allows(action: EzocAction, negated: bool, _t: list[Cite]) -> bool:
    """ezoc_allows, recording in _t each rule it uses."""
    _t.extend(_CITES63)
    return _attr(_t, _CITES_EzocAction_negatable, EzocAction_negatable, action) and _cite(_t, _CITES65, negated)

_ANSWERS_ezoc_allows: Final[dict[tuple[EzocAction, bool], Answer[bool]]] = {
    ('A', False,): Answer(False, (_C62, _C2, _C64,), ('negated = true',)),
    ('A', True,): Answer(True, (_C62, _C2, _C64,), ()),
    ('B', False,): Answer(False, (_C62, _C4, _C64,), ('negated = true',)),
    ('B', True,): Answer(True, (_C62, _C4, _C64,), ()),
    ('C', False,): Answer(False, (_C62, _C6,), ()),
    ('C', True,): Answer(False, (_C62, _C6,), ('action = A', 'action = B', 'action = D', 'action = F', 'action = H')),
    ('D', False,): Answer(False, (_C62, _C8, _C64,), ('negated = true',)),
    ('D', True,): Answer(True, (_C62, _C8, _C64,), ()),
    ('E', False,): Answer(False, (_C62, _C10,), ()),
    ('E', True,): Answer(False, (_C62, _C10,), ('action = A', 'action = B', 'action = D', 'action = F', 'action = H')),
    ('F', False,): Answer(False, (_C62, _C12, _C64,), ('negated = true',)),
    ('F', True,): Answer(True, (_C62, _C12, _C64,), ()),
    ('G', False,): Answer(False, (_C62, _C14,), ()),
    ('G', True,): Answer(False, (_C62, _C14,), ('action = A', 'action = B', 'action = D', 'action = F', 'action = H')),
    ('H', False,): Answer(False, (_C62, _C16, _C64,), ('negated = true',)),
    ('H', True,): Answer(True, (_C62, _C16, _C64,), ()),
    ('I', False,): Answer(False, (_C62, _C18,), ()),
    ('I', True,): Answer(False, (_C62, _C18,), ('action = A', 'action = B', 'action = D', 'action = F', 'action = H')),
    ('J', False,): Answer(False, (_C62, _C20,), ()),
    ('J', True,): Answer(False, (_C62, _C20,), ('action = A', 'action = B', 'action = D', 'action = F', 'action = H')),
    ('K', False,): Answer(False, (_C62, _C22,), ()),
    ('K', True,): Answer(False, (_C62, _C22,), ('action = A', 'action = B', 'action = D', 'action = F', 'action = H')),
}


# rules/ocs/ch4-general-concepts.rules:160  4.5a  Actions not allowed in an enemy ZOC
def explain_ezoc_allows(action: EzocAction, negated: bool) -> Answer[bool]:
    """May the action be taken in an enemy ZOC? (4.5a), with the rules that decided it."""
    return _ANSWERS_ezoc_allows[(action, negated)]


# rules/ocs/ch4-general-concepts.rules:185  4.5b  Negating ZOC
def zoc_negated(h: Hex) -> bool:
    """Is the enemy ZOC in this hex negated? (4.5b)."""
    return any((is_combat(u) and (not u.will_spend_mp) for u in h.units))


# rules/ocs/ch4-general-concepts.rules:185  4.5b  Negating ZOC
def _t_zoc_negated(h: Hex, _t: list[Cite]) -> bool:
    """zoc_negated, recording in _t each rule it uses."""
    _t.extend(_CITES65)
    return any((_t_is_combat(u, _t) and (not u.will_spend_mp) for u in h.units))


# rules/ocs/ch4-general-concepts.rules:185  4.5b  Negating ZOC
def explain_zoc_negated(h: Hex) -> Answer[bool]:
    """Is the enemy ZOC in this hex negated? (4.5b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_zoc_negated(h, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(zoc_negated, (('h', h, _DOMAINS_Hex_66), )))


# rules/ocs/ch4-general-concepts.rules:188  4.5b  Negating ZOC
def may_exit_ezoc_hex(started_phase_there: bool, negated: bool) -> bool:
    """May a unit using Truck MP leave a hex in an enemy ZOC? (4.5b)."""
    return started_phase_there or ezoc_allows('A', negated)


# rules/ocs/ch4-general-concepts.rules:188  4.5b  Negating ZOC
def _t_may_exit_ezoc_hex(started_phase_there: bool, negated: bool, _t: list[Cite]) -> bool:
    """may_exit_ezoc_hex, recording in _t each rule it uses."""
    _t.extend(_CITES65)
    return started_phase_there or _t_ezoc_allows('A', _cite(_t, _CITES65, negated), _t)

_ANSWERS_may_exit_ezoc_hex: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(False, (_C64, _C62, _C2,), ('started_phase_there = true', 'negated = true')),
    (False, True,): Answer(True, (_C64, _C62, _C2,), ()),
    (True, False,): Answer(True, (_C64,), ()),
    (True, True,): Answer(True, (_C64,), ()),
}


# rules/ocs/ch4-general-concepts.rules:188  4.5b  Negating ZOC
def explain_may_exit_ezoc_hex(started_phase_there: bool, negated: bool) -> Answer[bool]:
    """May a unit using Truck MP leave a hex in an enemy ZOC? (4.5b), with the rules that decided it."""
    return _ANSWERS_may_exit_ezoc_hex[(started_phase_there, negated)]


# rules/ocs/ch4-general-concepts.rules:299  4.7c
def _s_transport_point_load(u: Unit) -> Number:
    """transport_point_load with numbers scaled by SCALE."""
    return u.points * 4


# rules/ocs/ch4-general-concepts.rules:299  4.7c
def _t_transport_point_load(u: Unit, _t: list[Cite]) -> Number:
    """transport_point_load, recording in _t each rule it uses."""
    _t.extend(_CITES68)
    return u.points * 4


# rules/ocs/ch4-general-concepts.rules:299  4.7c
def transport_point_load(u: Unit) -> Number:
    """SP a Transport Point can carry (4.7c). Numbers are exact: int or Fraction."""
    return _exact(_s_transport_point_load(u))


# rules/ocs/ch4-general-concepts.rules:299  4.7c
def explain_transport_point_load(u: Unit) -> Answer[Number]:
    """SP a Transport Point can carry (4.7c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transport_point_load(u, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/series.rules:110  OCS
def steps_not_negative(u: Unit) -> bool:
    """A unit cannot have lost a negative number of steps (OCS)."""
    return u.step_losses >= 0


# rules/ocs/series.rules:110  OCS
def _t_steps_not_negative(u: Unit, _t: list[Cite]) -> bool:
    """steps_not_negative, recording in _t each rule it uses."""
    _t.extend(_CITES70)
    return u.step_losses >= 0


# rules/ocs/series.rules:110  OCS
def explain_steps_not_negative(u: Unit) -> Answer[bool]:
    """A unit cannot have lost a negative number of steps (OCS), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_steps_not_negative(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(steps_not_negative, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/series.rules:111  OCS
def sizes_not_negative(u: Unit) -> bool:
    """Printed RE sizes and point values are never negative (OCS)."""
    return u.printed_re * 4 >= 0 and u.points * 4 >= 0


# rules/ocs/series.rules:111  OCS
def _t_sizes_not_negative(u: Unit, _t: list[Cite]) -> bool:
    """sizes_not_negative, recording in _t each rule it uses."""
    _t.extend(_CITES70)
    return u.printed_re * 4 >= 0 and u.points * 4 >= 0


# rules/ocs/series.rules:111  OCS
def explain_sizes_not_negative(u: Unit) -> Answer[bool]:
    """Printed RE sizes and point values are never negative (OCS), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_sizes_not_negative(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(sizes_not_negative, (('u', u, _DOMAINS_Unit_44), )))


# rules/ocs/ch4-general-concepts.rules:235  4.6  Regimental Equivalents
def _s_re_size(u: Unit) -> Number:
    """re_size with numbers scaled by SCALE."""
    # hq: 13.1 (OCS) rules/ocs/ch13-specialized-units.rules:9
    if u.type == 'hq':
        return 4
    # multi_step: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:236
    if u.multi_step:
        return u.printed_re * 4 - u.step_losses * 4
    # quarter: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:238
    if u.type == 'repl' or u.size == 'company':
        return 1
    # battalion: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:239
    if u.size == 'battalion':
        return 2
    # other: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:240
    return 4


# rules/ocs/ch4-general-concepts.rules:235  4.6  Regimental Equivalents
def _t_re_size(u: Unit, _t: list[Cite]) -> Number:
    """re_size, recording in _t each rule it uses."""
    # hq: 13.1 (OCS) rules/ocs/ch13-specialized-units.rules:9
    if u.type == 'hq':
        _t.extend(_CITES77)
        return 4
    # multi_step: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:236
    if u.multi_step:
        _t.extend(_CITES78)
        return u.printed_re * 4 - u.step_losses * 4
    # quarter: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:238
    if u.type == 'repl' or u.size == 'company':
        _t.extend(_CITES79)
        return 1
    # battalion: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:239
    if u.size == 'battalion':
        _t.extend(_CITES80)
        return 2
    # other: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:240
    _t.extend(_CITES81)
    return 4


# rules/ocs/ch4-general-concepts.rules:235  4.6  Regimental Equivalents
def re_size(u: Unit) -> Number:
    """RE size (4.6). Numbers are exact: int or Fraction."""
    return _exact(_s_re_size(u))


# rules/ocs/ch4-general-concepts.rules:235  4.6  Regimental Equivalents
def explain_re_size(u: Unit) -> Answer[Number]:
    """RE size (4.6), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_re_size(u, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:276  4.7b
def _s_transport_equivalent(u: Unit) -> Number:
    """transport_equivalent with numbers scaled by SCALE."""
    # supply: 4.7a (OCS) rules/ocs/ch4-general-concepts.rules:263
    if u.type == 'sp':
        return u.points * 4
    # transport_point: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:295
    if u.type == 'transport':
        return u.points * 4
    # slow_leg: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:277
    if u.mobility == 'leg' and u.move_ma * 4 >= 4 and (u.move_ma * 4 <= 24):
        return _div(_s_re_size(u), 8)
    # other: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:279
    return _s_re_size(u)


# rules/ocs/ch4-general-concepts.rules:276  4.7b
def _t_transport_equivalent(u: Unit, _t: list[Cite]) -> Number:
    """transport_equivalent, recording in _t each rule it uses."""
    # supply: 4.7a (OCS) rules/ocs/ch4-general-concepts.rules:263
    if u.type == 'sp':
        _t.extend(_CITES87)
        return u.points * 4
    # transport_point: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:295
    if u.type == 'transport':
        _t.extend(_CITES88)
        return u.points * 4
    # slow_leg: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:277
    if u.mobility == 'leg' and u.move_ma * 4 >= 4 and (u.move_ma * 4 <= 24):
        _t.extend(_CITES89)
        return _div(_t_re_size(u, _t), 8)
    # other: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:279
    _t.extend(_CITES90)
    return _t_re_size(u, _t)


# rules/ocs/ch4-general-concepts.rules:276  4.7b
def transport_equivalent(u: Unit) -> Number:
    """Transportation equivalent (4.7b). Numbers are exact: int or Fraction."""
    return _exact(_s_transport_equivalent(u))


# rules/ocs/ch4-general-concepts.rules:276  4.7b
def explain_transport_equivalent(u: Unit) -> Answer[Number]:
    """Transportation equivalent (4.7b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transport_equivalent(u, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:324  4.8  Stacking
def stacking(h: Hex) -> list[Violation]:
    """Stacking limits (4.8)."""
    if h.off_map:  # Stacking in Off-Map Holding Boxes is unlimited.
        return []
    out: list[Violation] = []
    # combat_re: 4.8 rules/ocs/ch4-general-concepts.rules:326
    if not (h.phase == 'reinforcement' or h.moment == 'moving'):
        total = sum((_s_re_size(u) for u in h.units if is_combat(u)))
        bound = max_stack_re * 4
        if total > bound:
            out.append(Violation('combat_re', 'Combat units (RE)', '4.8', _exact(total), _exact(bound), _exact(total - bound), tuple((u for u in h.units if is_combat(u)))))
    # ports: 4.8 rules/ocs/ch4-general-concepts.rules:327
    total = sum((1 for u in h.units if u.type == 'port'))
    bound = 1
    if total > bound:
        out.append(Violation('ports', 'Ports', '4.8', total, bound, total - bound, tuple((u for u in h.units if u.type == 'port'))))
    # air_bases: 4.8 rules/ocs/ch4-general-concepts.rules:328
    total = sum((1 for u in h.units if u.type == 'air_base'))
    bound = 1
    if total > bound:
        out.append(Violation('air_bases', 'Air bases', '4.8', total, bound, total - bound, tuple((u for u in h.units if u.type == 'air_base'))))
    # hedgehogs: 4.8 rules/ocs/ch4-general-concepts.rules:329
    total = sum((1 for u in h.units if u.type == 'hedgehog'))
    bound = 1
    if total > bound:
        out.append(Violation('hedgehogs', 'Hedgehogs', '4.8', total, bound, total - bound, tuple((u for u in h.units if u.type == 'hedgehog'))))
    return out


# rules/ocs/ch4-general-concepts.rules:324  4.8  Stacking
def _t_stacking(h: Hex, _t: list[Cite]) -> list[Violation]:
    """stacking, recording in _t each rule it uses."""
    if h.off_map:  # Stacking in Off-Map Holding Boxes is unlimited.
        _t.extend(_CITES1)
        return []
    out: list[Violation] = []
    # combat_re: 4.8 rules/ocs/ch4-general-concepts.rules:326
    if h.phase == 'reinforcement':
        _t.extend(_CITES92)
    if h.moment == 'moving':
        _t.extend(_CITES92)
    if not (h.phase == 'reinforcement' or h.moment == 'moving'):
        total = sum((_t_re_size(u, _t) for u in h.units if _t_is_combat(u, _t)))
        bound = _cite(_t, _CITES1, max_stack_re) * 4
        if total > bound:
            _t.extend(_CITES1)
            out.append(Violation('combat_re', 'Combat units (RE)', '4.8', _exact(total), _exact(bound), _exact(total - bound), tuple((u for u in h.units if _t_is_combat(u, _t)))))
    # ports: 4.8 rules/ocs/ch4-general-concepts.rules:327
    total = sum((1 for u in h.units if u.type == 'port'))
    bound = 1
    if total > bound:
        _t.extend(_CITES1)
        out.append(Violation('ports', 'Ports', '4.8', total, bound, total - bound, tuple((u for u in h.units if u.type == 'port'))))
    # air_bases: 4.8 rules/ocs/ch4-general-concepts.rules:328
    total = sum((1 for u in h.units if u.type == 'air_base'))
    bound = 1
    if total > bound:
        _t.extend(_CITES1)
        out.append(Violation('air_bases', 'Air bases', '4.8', total, bound, total - bound, tuple((u for u in h.units if u.type == 'air_base'))))
    # hedgehogs: 4.8 rules/ocs/ch4-general-concepts.rules:329
    total = sum((1 for u in h.units if u.type == 'hedgehog'))
    bound = 1
    if total > bound:
        _t.extend(_CITES1)
        out.append(Violation('hedgehogs', 'Hedgehogs', '4.8', total, bound, total - bound, tuple((u for u in h.units if u.type == 'hedgehog'))))
    return out


# rules/ocs/ch4-general-concepts.rules:324  4.8  Stacking
def explain_stacking(h: Hex) -> Answer[list[Violation]]:
    """Stacking limits (4.8), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_stacking(h, _t)
    return Answer(_value, _rules(_t), ())


# ---- constants -----------------------------------------------------------------

# rules/ocs/ch4-general-concepts.rules:322  4.8  The most RE of combat units in a hex
max_stack_re: Final[int] = 10


# ---- input checked at the boundary ---------------------------------------------

STATE_SCHEMA: Final[dict[str, Any]] = {'$defs': {'Hex': {'additionalProperties': False,
                       'description': 'A hex and the friendly units in it',
                       'properties': {'moment': {'description': 'When the hex is looked at',
                                                 'enum': ['segment_end', 'moving', 'overrun']},
                                      'off_map': {'description': 'An Off-Map Holding Box rather than a '
                                                                 'map hex',
                                                  'type': 'boolean'},
                                      'phase': {'description': 'The phase being played',
                                                'enum': ['reinforcement',
                                                         'movement',
                                                         'reaction',
                                                         'exploitation',
                                                         'combat_phase',
                                                         'barrage',
                                                         'supply',
                                                         'clean_up']},
                                      'units': {'description': 'The friendly units in the hex',
                                                'items': {'$ref': '#/$defs/Unit'},
                                                'type': 'array'}},
                       'required': [],
                       'type': 'object'},
               'Unit': {'additionalProperties': False,
                        'description': 'A ground unit',
                        'properties': {'mobility': {'description': 'The colour of its Movement '
                                                                   'Allowance',
                                                    'enum': ['leg', 'truck', 'track']},
                                       'mode': {'description': 'The mode it is in',
                                                'enum': ['combat',
                                                         'move',
                                                         'reserve',
                                                         'strat',
                                                         'dg',
                                                         'exploit']},
                                       'move_ma': {'anyOf': [{'type': 'number'},
                                                             {'pattern': '^-?[0-9]+(\\.[0-9]+|/[1-9][0-9]*)?$',
                                                              'type': 'string'}],
                                                   'description': 'An exact number: a JSON number, or '
                                                                  'a text such as "1/2" or "2.5".'},
                                       'multi_step': {'description': 'A multi-step unit (prints its RE '
                                                                     'size)',
                                                      'type': 'boolean'},
                                       'organic': {'description': 'Transport Points: an Organic Truck '
                                                                  'of a multi-unit formation',
                                                   'type': 'boolean'},
                                       'oriented_to_combat': {'description': 'Under a DG, Strat or '
                                                                             'Exploitation marker: '
                                                                             'faces its Combat Mode '
                                                                             'side',
                                                              'type': 'boolean'},
                                       'out_of_supply': {'description': 'Marked Out of Supply',
                                                         'type': 'boolean'},
                                       'parenthesized': {'description': 'The Combat Strength is in '
                                                                        'parentheses (defensive only)',
                                                         'type': 'boolean'},
                                       'points': {'anyOf': [{'type': 'number'},
                                                            {'pattern': '^-?[0-9]+(\\.[0-9]+|/[1-9][0-9]*)?$',
                                                             'type': 'string'}],
                                                  'description': 'An exact number: a JSON number, or a '
                                                                 'text such as "1/2" or "2.5".'},
                                       'printed_re': {'anyOf': [{'type': 'number'},
                                                                {'pattern': '^-?[0-9]+(\\.[0-9]+|/[1-9][0-9]*)?$',
                                                                 'type': 'string'}],
                                                      'description': 'An exact number: a JSON number, '
                                                                     'or a text such as "1/2" or '
                                                                     '"2.5".'},
                                       'printed_strength': {'description': 'Has a printed Combat '
                                                                           'Strength',
                                                            'type': 'boolean'},
                                       'size': {'description': 'The size on its designation',
                                                'enum': ['company',
                                                         'battalion',
                                                         'regiment',
                                                         'brigade',
                                                         'division',
                                                         'corps']},
                                       'step_losses': {'description': 'Steps lost (multi-step units)',
                                                       'type': 'integer'},
                                       'strength': {'anyOf': [{'type': 'number'},
                                                              {'pattern': '^-?[0-9]+(\\.[0-9]+|/[1-9][0-9]*)?$',
                                                               'type': 'string'}],
                                                    'description': 'An exact number: a JSON number, or '
                                                                   'a text such as "1/2" or "2.5".'},
                                       'type': {'description': 'What kind of unit it is',
                                                'enum': ['combat_unit',
                                                         'hq',
                                                         'artillery',
                                                         'repl',
                                                         'transport',
                                                         'sp',
                                                         'port',
                                                         'air_base',
                                                         'hedgehog']},
                                       'will_spend_mp': {'description': 'Will spend MP later in the '
                                                                        'current phase',
                                                         'type': 'boolean'}},
                        'required': [],
                        'type': 'object'}},
     '$schema': 'https://json-schema.org/draft/2020-12/schema',
     'additionalProperties': {'oneOf': [{'additionalProperties': False,
                                         'properties': {'record': {'const': 'Unit'},
                                                        'value': {'$ref': '#/$defs/Unit'}},
                                         'required': ['record', 'value'],
                                         'type': 'object'},
                                        {'additionalProperties': False,
                                         'properties': {'record': {'const': 'Hex'},
                                                        'value': {'$ref': '#/$defs/Hex'}},
                                         'required': ['record', 'value'],
                                         'type': 'object'}]},
     'description': 'Named values for rulec eval --state: each property names a record of this ruleset '
                    'and gives its fields, as {"h": {"record": "Hex", "value": {...}}}.',
     'propertyNames': {'pattern': '^[A-Za-z][A-Za-z0-9_]*$'},
     'title': 'Game state for Operational Combat Series (OCS)',
     'type': 'object'}
_FIELDS: Final[dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]]] = {
    'Unit': (
        ('type', 'enum UnitType', ('combat_unit', 'hq', 'artillery', 'repl', 'transport', 'sp', 'port', 'air_base', 'hedgehog')),
        ('size', 'enum Size', ('company', 'battalion', 'regiment', 'brigade', 'division', 'corps')),
        ('mode', 'enum Mode', ('combat', 'move', 'reserve', 'strat', 'dg', 'exploit')),
        ('oriented_to_combat', 'bool', ()),
        ('mobility', 'enum Mobility', ('leg', 'truck', 'track')),
        ('move_ma', 'number', ()),
        ('printed_strength', 'bool', ()),
        ('parenthesized', 'bool', ()),
        ('strength', 'number', ()),
        ('out_of_supply', 'bool', ()),
        ('multi_step', 'bool', ()),
        ('printed_re', 'number', ()),
        ('step_losses', 'int', ()),
        ('points', 'number', ()),
        ('organic', 'bool', ()),
        ('will_spend_mp', 'bool', ()),
    ),
    'Hex': (
        ('units', 'list of record Unit', ()),
        ('phase', 'enum Phase', ('reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up')),
        ('moment', 'enum Moment', ('segment_end', 'moving', 'overrun')),
        ('off_map', 'bool', ()),
    ),
}
_RENAMED: Final[frozenset[str]] = frozenset([])
_RECORD_CLASSES: Final[dict[str, Any]] = {'Unit': Unit, 'Hex': Hex}
_INVARIANTS: Final[dict[str, tuple[tuple[Callable[[Any], bool], str, str, tuple[str, ...]], ...]]] = {
    'Unit': (
        (transport_point_mode, '13.2d', 'Transport Points are in Move Mode at all times; Organic Trucks may also be in Reserve Mode', ('mode', 'organic', 'type')),
        (repl_mode, '13.5', 'Repls can never enter Combat Mode', ('mode', 'type')),
        (steps_not_negative, 'OCS', 'A unit cannot have lost a negative number of steps', ('step_losses',)),
        (sizes_not_negative, 'OCS', 'Printed RE sizes and point values are never negative', ('printed_re', 'points')),
    ),
}
_ENUM_VALUES: Final[dict[str, tuple[str, ...]]] = {'EzocAction': EzocAction_values, 'Mode': Mode_values, 'Mobility': Mobility_values, 'UnitType': UnitType_values, 'Size': Size_values, 'Phase': Phase_values, 'Moment': Moment_values}


def unit_from_json(data: Any) -> Unit:
    """A Unit from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values."""
    value = from_json('Unit', data, 'unit')
    assert isinstance(value, Unit)
    return value


def hex_from_json(data: Any) -> Hex:
    """A Hex from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values."""
    value = from_json('Hex', data, 'hex')
    assert isinstance(value, Hex)
    return value
