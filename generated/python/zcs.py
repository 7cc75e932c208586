"""Zones of Control by class: rule checks compiled by rulec 0.1.0.

series ZCS (Zones of Control by class) version 10.06.01; options: none.

Generated from rules/zoc-classes/zoc.rules by `rulec build`; do not edit.
Standalone: it needs only the Python standard library, so it can be copied into any program.
Every check has an explain_ twin whose Answer cites the rules that decided it.
"""

# A condition may test a value that an earlier test of the same condition has settled (a row's
# `u.mode == exploit and combat_side(u)`, where combat_side tests u.mode == combat): redundant,
# not wrong, so mypy's check for comparisons that can never be equal is off for this module.
# A `let` value is cast to its type (a list value would be taken for any str), which mypy may
# find it knew already: so is its check for casts that change nothing.
# mypy: disable-error-code="comparison-overlap, redundant-cast"
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as _record_fields
from fractions import Fraction
from typing import Any, Final, Generic, Literal, TypeVar

Number = int | Fraction
T = TypeVar("T")
U = TypeVar("U")
N = TypeVar("N", int, Number)

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
    """A rule an answer rests on: a clause (and item) of a layer. `note` is None for the rule itself; for
    a layer that overrides it, the layer's note ("" if the layer wrote none)."""

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
        if self.note is not None:
            text += f" (overridden by {self.layer}: {self.note})" if self.note else f" (overridden by {self.layer})"
        return text


def _python_class(cls: type[T]) -> type[T]:
    """Leaves a class as it is. Compiled by mypyc (`rulec build --compiled`), a class with a decorator
    that mypyc does not know stays a regular Python class, as Answer must: mypyc cannot yet compile a
    generic dataclass (its issue 827: the module fails on import)."""
    return cls


@_python_class
@dataclass(frozen=True, slots=True)
class Answer(Generic[T]):
    """A value with the rules that decided it and, for a no, what would make it a yes."""

    value: T
    rules: tuple[Cite, ...]
    would_change: tuple[str, ...] = ()

    @property
    def explanation(self) -> str:
        """The answer as a player says it: No, because of 4.5a Actions not allowed in an enemy ZOC; ...
        It would be yes if action = A."""
        text = _said(self.value)
        if self.rules:
            text += ", because of " + "; ".join(str(c) for c in self.rules)
        text += "."
        if self.would_change:
            text += " It would be yes if " + " or ".join(self.would_change) + "."
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

    # As the dataclass would write it, written here: compiled by mypyc, a class's own __init__ is
    # native code, where the dataclass's is Python run through object.__setattr__ (a Violation made
    # in 40 ns rather than 850: most of what a limits check costs on a stack over its limit).
    def __init__(self, limit: str, title: str | None, rule: str | None, total: Number, bound: Number,
                 excess: Number, units: tuple[Any, ...]) -> None:
        object.__setattr__(self, "limit", limit)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "bound", bound)
        object.__setattr__(self, "excess", excess)
        object.__setattr__(self, "units", units)


def _said(value: Any) -> str:
    """An answer's value in words: Yes or No, a number, a list value, each limit broken."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, Violation):
        return (f"{value.title or value.limit}: {_word(value.total)} where at most {_word(value.bound)} "
                f"({value.rule})")
    if isinstance(value, (tuple, list, frozenset)):
        return "; ".join(_said(x) for x in value) if value else "None"
    if isinstance(value, (int, Fraction, str)):
        return _word(value)
    return "The answer"


_FRACTIONS: dict[int, Fraction] = {}  # scaled int -> its exact Fraction, made once


def _exact(x: Number) -> Number:
    """A scaled number back to its exact value: an int when whole, else a Fraction."""
    if type(x) is int:
        if x % SCALE == 0:
            return x // SCALE
        found = _FRACTIONS.get(x)
        if found is None:
            found = Fraction(x, SCALE)
            if len(_FRACTIONS) < 4096:
                _FRACTIONS[x] = found
        return found
    return _plain(Fraction(x.numerator, x.denominator * SCALE))


def _plain(x: Number) -> Number:
    """An exact value as an int when it is whole."""
    if type(x) is int or x.denominator != 1:
        return x
    return x.numerator


def _mul(a: Number, b: Number) -> Number:
    product = a * b
    q, r = divmod(product, SCALE)
    return int(q) if r == 0 else Fraction(product) / SCALE


def _div(a: Number, b: Number) -> Number:
    if b == 0:
        raise RuleError("division by zero")
    q, r = divmod(a * SCALE, b)
    return int(q) if r == 0 else Fraction(a * SCALE) / b


def _max(items: Iterable[T], key: Callable[[T], Any] | None = None) -> T:
    values = list(items)
    if not values:
        raise RuleError("max of nothing")
    return max(values, key=key)  # type: ignore[type-var, arg-type]


def _step_within(values: tuple[T, ...], order: Mapping[Any, int], value: T, steps: int) -> T:
    """A level `steps` up (or down) an ordered list, stopping at its ends."""
    return values[max(0, min(len(values) - 1, order[value] + steps))]


def _count(items: Iterable[object]) -> int:
    return sum(1 for _ in items)


def _len(items: Sequence[Any]) -> int:
    """len() of a list, which mypy does not narrow (len(units) != -3 would make the rest unreachable)."""
    return len(items)


def _attr(t: list[Cite], cites: Mapping[Any, tuple[Cite, ...]], table: Mapping[Any, T], key: Any) -> T:
    t.extend(cites[key])
    return table[key]


def _rules(t: list[Cite]) -> tuple[Cite, ...]:
    return tuple(dict.fromkeys(t))


@dataclass(frozen=True, slots=True)
class _Items:
    """What _would_change tries on a list: each item's own changes (a tuple of values, or a record's
    per-field domains), removing an item, and adding one (a record's default, or each value)."""

    item: Any
    new: Callable[[], Any] | None = None
    new_words: str = ""


def _alternatives(name: str, value: Any, domain: Any) -> Iterable[tuple[str, Any]]:
    """Each single change to an input, in words, with the changed input."""
    if isinstance(domain, _Items):
        items = list(value)
        for j in range(len(items)):
            yield f"{name}[{j}] removed", type(value)(items[:j] + items[j + 1:])
        for j, item in enumerate(items):
            for words, alt in _alternatives(f"{name}[{j}]", item, domain.item):
                yield words, type(value)(items[:j] + [alt] + items[j + 1:])
        if domain.new is not None:
            yield f"{name} had one more {domain.new_words}", type(value)(items + [domain.new()])
        elif isinstance(domain.item, tuple):
            for alt in domain.item:
                yield f"{name} had one more {_word(alt)}", type(value)(items + [alt])
    elif isinstance(domain, dict):
        for fname, choices in domain.items():
            for words, alt in _alternatives(f"{name}.{fname}", getattr(value, fname), choices):
                yield words, replace(value, **{fname: alt})
    else:
        for alt in domain:
            if alt != value:
                yield f"{name} = {_word(alt)}", alt


def _would_change(check: Callable[..., bool], args: tuple[tuple[str, Any, Any], ...]) -> tuple[str, ...]:
    """Single changes to list values, yes/no inputs and the items of lists that would turn a no into a yes."""
    values = [a for _, a, _ in args]
    return tuple(words for i, (name, value, domain) in enumerate(args)
                 for words, alt in _alternatives(name, value, domain)
                 if _yes(check, *values[:i], alt, *values[i + 1:]))


def _yes(check: Callable[..., bool], *args: Any) -> bool:
    """Whether the check says yes; an input the rules give no answer for is not a yes."""
    try:
        return check(*args)
    except RuleError:
        return False


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_MAX_DIGITS: Final = 1200  # of a number of game state, a part at a time (the state schema: the same)
_BOUND: Final = 10 ** _MAX_DIGITS  # a number of game state (each part of a fraction) is less than this in size


def _digits(text: str, first_zero: bool = True) -> bool:
    return 0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit() and (first_zero or text[0] != "0")


def _number_text(text: str) -> bool:
    """Whether text is a number as the state schema writes one: '2', '-2.5' or '1/2'."""
    body = text.removeprefix("-")
    for sep in "./":
        if sep in body:
            whole, _, rest = body.partition(sep)
            return _digits(whole) and _digits(rest, first_zero=sep == ".")
    return _digits(body)


def _shown(value: Any, depth: int = 0) -> str:
    """A value as a message shows it: short, whatever its size or nesting."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, Fraction)):
        big = max(Fraction(value).numerator.bit_length(), Fraction(value).denominator.bit_length()) > 160
        return "a number of more than 48 digits" if big else repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 60 else repr(value[:60]) + "..."
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Mapping):
        if depth >= 2:
            return "{...}"
        pairs = [f"{_shown(k, depth + 1)}: {_shown(v, depth + 1)}" for k, v in list(value.items())[:4]]
        return "{" + ", ".join(pairs + (["..."] if len(value) > 4 else [])) + "}"
    if isinstance(value, (list, tuple)):
        if depth >= 2:
            return "[...]"
        items = [_shown(v, depth + 1) for v in value[:4]]
        return "[" + ", ".join(items + (["..."] if len(value) > 4 else [])) + "]"
    if isinstance(value, (set, frozenset)):
        if depth >= 2:
            return "{...}"
        items = [_shown(v, depth + 1) for v in list(value)[:4]]
        return "{" + ", ".join(items + (["..."] if len(value) > 4 else [])) + "}"
    return f"a {type(value).__name__}"


def _not_a(value: Any, kind: str) -> str:
    """Why a record refuses a value a program gave a field: what it is not (kind: "a number", "a
    Unit", ...), and how to give a float, a list or a set the way the record holds it."""
    if isinstance(value, float) and kind in ("a number", "a whole number"):
        exact = "Fraction(" + repr(repr(value)) + ")" if kind == "a number" else "an int"
        return f"{_shown(value)} is a float, which the rules do not count with: give {exact}"
    if isinstance(value, list) and kind == "a tuple":
        return f"{_shown(value)} is a list: give a tuple, as a record is frozen"
    if isinstance(value, (set, frozenset)) and kind in ("a tuple", "a frozenset"):
        return f"{_shown(value)} is a {type(value).__name__}: give {kind}"
    return f"{_shown(value)} is not {kind}"


def _number(value: Any, path: str) -> Number:
    """A number of game state, as the state schema allows one: a JSON number (a float is read as the
    decimal it prints as, 0.1 as 1/10; not NaN nor Infinity), or a text such as '2', '2.5' or '1/2'
    (no exponent); at most 1,200 digits a part, so no input can make it work long."""
    exact: Number
    if isinstance(value, bool):
        raise InvalidInput(path, f"{_shown(value)} is not a number")
    if isinstance(value, (int, Fraction)):
        exact = value
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput(path, f"{_shown(value)} is not a number (write 2, 2.5 or 1/2)")
        exact = Fraction(repr(value))
    elif isinstance(value, str):
        if not _number_text(value):
            raise InvalidInput(path, f"{_shown(value)} is not a number (write 2, 2.5 or 1/2)")
        exact = Fraction(value)  # its parts have at most 1,200 digits: _number_text said so
    else:
        raise InvalidInput(path, f"{_shown(value)} is not a number")
    if not isinstance(value, str) and (abs(exact.numerator) >= _BOUND or exact.denominator >= _BOUND):
        raise InvalidInput(path, f"{_shown(value)} is too large: a number of game state has at most "
                           "1,200 digits")
    return int(exact) if exact.denominator == 1 else exact


def _whole(value: Any, path: str) -> int:
    """A whole number of game state, as the state schema allows one: a JSON number without a fraction
    (1, 1.0 or 1e3, read as the decimal it prints as); at most 1,200 digits."""
    whole: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        whole = value
    elif isinstance(value, float) and math.isfinite(value):
        exact = Fraction(repr(value))
        whole = exact.numerator if exact.denominator == 1 else None
    if whole is None:
        raise InvalidInput(path, f"{_shown(value)} is not a whole number")
    if abs(whole) >= _BOUND:
        raise InvalidInput(path, f"{_shown(value)} is too large: a number of game state has at most "
                           "1,200 digits")
    return whole


def _value(t: str, allowed: tuple[str, ...], value: Any, path: str) -> Any:
    if t == "bool":
        if not isinstance(value, bool):
            raise InvalidInput(path, f"{_shown(value)} is not true or false")
        return value
    if t == "int":
        return _whole(value, path)
    if t == "number":
        return _number(value, path)
    if t == "text":
        if not isinstance(value, str):
            raise InvalidInput(path, f"{_shown(value)} is not a text")
        return value
    if t.startswith("enum "):
        choices = allowed or _ENUM_VALUES[t[5:]]
        if value not in choices:
            raise InvalidInput(path, f"{_shown(value)} is not a {t[5:]}", choices)
        return value
    if t.startswith("record "):
        return from_json(t[7:], value, path)
    if t.startswith("list of ") or t.startswith("set of "):
        item = t.split(" of ", 1)[1]
        if not isinstance(value, (list, tuple)):
            raise InvalidInput(path, f"{_shown(value)} is not a list")
        items = tuple(_value(item, (), v, f"{path}[{i}]") for i, v in enumerate(value))
        return items if t.startswith("list") else frozenset(items)
    raise InvalidInput(path, f"cannot read a {t}")


def from_json(record: str, data: Any, path: str = "") -> Any:
    """A record from JSON-like data, each field checked; raises InvalidInput naming the field."""
    path = path or record
    if record not in _FIELDS:
        raise InvalidInput(path, f"unknown kind of record {_shown(record)}", tuple(_FIELDS))
    if not isinstance(data, Mapping):
        raise InvalidInput(path, f"expected an object with fields, got {_shown(data)}")
    fields = _FIELDS[record]
    known = {name for name, _, _ in fields}
    for key in data:
        if key not in known:
            shown = key if isinstance(key, str) and len(key) <= 60 else _shown(key)
            raise InvalidInput(f"{path}.{shown}", "is not a field", tuple(sorted(known)))
    values: dict[str, Any] = {}
    for name, t, allowed in fields:
        if name in data:
            values[name + "_" if name in _RENAMED else name] = _value(t, allowed, data[name], f"{path}.{name}")
    try:
        made = _RECORD_CLASSES[record](**values)
    except TypeError as e:
        raise InvalidInput(path, str(e)) from None
    for check, rule, title, read, parts in _INVARIANTS.get(record, ()):
        if not check(made):
            # the field its first failing part reads (printed_re or points), else the one it checks
            first = next((name for name, part in parts if not part(made)), read[0] if read else "")
            where = f"{path}.{first}" if first else path
            shown = _shown(getattr(made, first + "_" if first in _RENAMED else first)) if first else "this"
            raise InvalidInput(where, f"{shown} breaks {rule}: {title}", _allowed(made, record, first, check))
    return made


def to_json(value: Any) -> Any:
    """A record (or any value of game state) as JSON-like data that from_json reads back as it was:
    fields under their names in the rules, whole numbers as numbers, fractions as "n/d" texts."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, frozenset):
        return sorted((to_json(x) for x in value), key=repr)
    if isinstance(value, (tuple, list)):
        return [to_json(x) for x in value]
    if type(value).__name__ in _RECORD_CLASSES:
        return {(f.name[:-1] if f.name[:-1] in _RENAMED else f.name): to_json(getattr(value, f.name))
                for f in _record_fields(value)}
    raise TypeError(f"not a value of game state: {_shown(value)}")


def _allowed(made: Any, record: str, name: str, check: Callable[[Any], bool]) -> tuple[str, ...]:
    """The values of a list field that would meet the invariant, the other fields as they are."""
    for fname, t, allowed in _FIELDS[record]:
        if fname == name and t.startswith("enum "):
            attr = fname + "_" if fname in _RENAMED else fname
            return tuple(v for v in allowed if _yes(check, replace(made, **{attr: v})))
    return ()

RULESET: Final = 'ZCS'
# which rules this module runs: a hash of the rules as resolved (not of where they are written)
RULESET_HASH: Final = 'sha256:dec506bbaeb6430fd0cb04abe60d2847'
RULEC_VERSION: Final = '0.1.0'
TITLE: Final = 'Zones of Control by class'
SERIES: Final[str | None] = 'ZCS'
SERIES_VERSION: Final[str | None] = '10.06.01'
GAME: Final[str | None] = None
GAME_VERSION: Final[str | None] = None
SCENARIO: Final[str | None] = None
OPTIONS: Final[tuple[str, ...]] = ()
LAYERS: Final[tuple[str, ...]] = ('ZCS',)
MANIFEST: Final[dict[str, Any]] = {
    'game': None,
    'layers': ['ZCS'],
    'options': [],
    'ruleset': 'ZCS',
    'scenario': None,
    'series': {'name': 'ZCS', 'title': 'Zones of Control by class', 'version': '10.06.01'},
    'title': 'Zones of Control by class',
}

_CITE_ZCS_5: Final[Cite] = Cite(layer='ZCS', clause='5', item=None, title='Zones of Control (ZOC)', note=None)
_CITE_ZCS_5_A: Final[Cite] = Cite(layer='ZCS', clause='5.A', item=None, title='ZOC Class Table', note=None)
_CITE_ZCS_5_A_1: Final[Cite] = Cite(
    layer='ZCS', clause='5.A.1', item=None, title='ZOC Modifier/Effects on Combat Supply', note=None
)
_CITE_ZCS_5_A_1_double: Final[Cite] = Cite(layer='ZCS', clause='5.A.1', item='double', title='Double ZOC', note=None)
_CITE_ZCS_5_A_1_full: Final[Cite] = Cite(layer='ZCS', clause='5.A.1', item='full', title='Full ZOC', note=None)
_CITE_ZCS_5_A_1_no_zoc: Final[Cite] = Cite(layer='ZCS', clause='5.A.1', item='no_zoc', title='No ZOC', note=None)
_CITE_ZCS_5_A_1_partial: Final[Cite] = Cite(layer='ZCS', clause='5.A.1', item='partial', title='Partial ZOC', note=None)
_CITE_ZCS_5_A_1_triple: Final[Cite] = Cite(layer='ZCS', clause='5.A.1', item='triple', title='Triple ZOC', note=None)
_CITE_ZCS_5_A_2: Final[Cite] = Cite(layer='ZCS', clause='5.A.2', item=None, title='Terrain Effects', note=None)
_CITE_ZCS_5_A_3: Final[Cite] = Cite(layer='ZCS', clause='5.A.3', item=None, title='Reduced Zones (RZs)', note=None)
_CITE_ZCS_5_A_4: Final[Cite] = Cite(layer='ZCS', clause='5.A.4', item=None, title='Increased Zones', note=None)
_CITE_ZCS_5_A_battalion: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='battalion', title='Battalion', note=None)
_CITE_ZCS_5_A_battery: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='battery', title='Battery', note=None)
_CITE_ZCS_5_A_brigade: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='brigade', title='Brigade', note=None)
_CITE_ZCS_5_A_brigade_grouping: Final[Cite] = Cite(
    layer='ZCS', clause='5.A', item='brigade_grouping', title='Brigade grouping', note=None
)
_CITE_ZCS_5_A_cadre: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='cadre', title='Cadre', note=None)
_CITE_ZCS_5_A_corps: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='corps', title='Corps size unit', note=None)
_CITE_ZCS_5_A_corps_army_marker: Final[Cite] = Cite(
    layer='ZCS', clause='5.A', item='corps_army_marker', title='Corp/Army marker', note=None
)
_CITE_ZCS_5_A_division: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='division', title='Division', note=None)
_CITE_ZCS_5_A_divisional_grouping: Final[Cite] = Cite(
    layer='ZCS', clause='5.A', item='divisional_grouping', title='Divisional grouping', note=None
)
_CITE_ZCS_5_A_fort: Final[Cite] = Cite(
    layer='ZCS', clause='5.A', item='fort', title='Fort with a defence strength', note=None
)
_CITE_ZCS_5_A_hq: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='hq', title='HQ', note=None)
_CITE_ZCS_5_A_port_fortification: Final[Cite] = Cite(
    layer='ZCS', clause='5.A', item='port_fortification', title='Port fortification', note=None
)
_CITE_ZCS_5_A_regiment: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='regiment', title='Regiment', note=None)
_CITE_ZCS_5_A_remnant: Final[Cite] = Cite(layer='ZCS', clause='5.A', item='remnant', title='Remnant', note=None)
_CITE_ZCS_5_B: Final[Cite] = Cite(
    layer='ZCS', clause='5.B', item=None, title='Anti-Partisan Zones of Control', note=None
)
_CITE_ZCS_5_C: Final[Cite] = Cite(layer='ZCS', clause='5.C', item=None, title='Screening Enemy ZOCs', note=None)
_CITE_ZCS_5_C_1_a: Final[Cite] = Cite(
    layer='ZCS', clause='5.C.1.a', item=None, title='During Any Movement Phase', note=None
)
_CITE_ZCS_5_C_1_b: Final[Cite] = Cite(
    layer='ZCS', clause='5.C.1.b', item=None, title='During Any Combat Phase', note=None
)
_CITE_ZCS_5_C_1_c: Final[Cite] = Cite(
    layer='ZCS', clause='5.C.1.c', item=None, title='Additional Reaction Phase Effects', note=None
)
_CITE_ZCS_5_C_2: Final[Cite] = Cite(
    layer='ZCS', clause='5.C.2', item=None, title='Screening Units Effects & Restrictions', note=None
)
_CITE_ZCS_5_attacked: Final[Cite] = Cite(
    layer='ZCS',
    clause='5',
    item='attacked',
    title='None outside its own hex while attacked at minimum odds or higher',
    note=None,
)
_CITE_ZCS_5_dispersed: Final[Cite] = Cite(
    layer='ZCS',
    clause='5',
    item='dispersed',
    title='A badly dispersed unit: no ZOC as its basic class (5.A), then reduced and increased as any other',
    note=None,
)
_CITE_ZCS_5_great_river: Final[Cite] = Cite(
    layer='ZCS',
    clause='5',
    item='great_river',
    title='None across a great river hexside or a narrow strait (5.A)',
    note=None,
)
_CITE_ZCS_5_modified: Final[Cite] = Cite(
    layer='ZCS',
    clause='5',
    item='modified',
    title=(
        'The basic class, reduced (to no ZOC at the least) and then increased one level for each modifier (5.A.3, '
        '5.A.4)'
    ),
    note=None,
)
_CITE_ZCS_5_out_of_reach: Final[Cite] = Cite(
    layer='ZCS', clause='5', item='out_of_reach', title='None beyond its own hex and the six adjacent hexes', note=None
)
_CITE_ZCS_5_prohibited: Final[Cite] = Cite(
    layer='ZCS', clause='5', item='prohibited', title='None where the unit may not enter or cross', note=None
)
_RULES_ZCS_5: Final[tuple[Cite, ...]] = (_CITE_ZCS_5,)
_RULES_ZCS_5_A: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A,)
_RULES_ZCS_5_A_1: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_1,)
_RULES_ZCS_5_A_1_double: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_1_double,)
_RULES_ZCS_5_A_1_full: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_1_full,)
_RULES_ZCS_5_A_1_no_zoc: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_1_no_zoc,)
_RULES_ZCS_5_A_1_partial: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_1_partial,)
_RULES_ZCS_5_A_1_triple: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_1_triple,)
_RULES_ZCS_5_A_2: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_2,)
_RULES_ZCS_5_A_3: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_3,)
_RULES_ZCS_5_A_4: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_4,)
_RULES_ZCS_5_A_battalion: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_battalion,)
_RULES_ZCS_5_A_battery: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_battery,)
_RULES_ZCS_5_A_brigade: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_brigade,)
_RULES_ZCS_5_A_brigade_grouping: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_brigade_grouping,)
_RULES_ZCS_5_A_cadre: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_cadre,)
_RULES_ZCS_5_A_corps: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_corps,)
_RULES_ZCS_5_A_corps_army_marker: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_corps_army_marker,)
_RULES_ZCS_5_A_division: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_division,)
_RULES_ZCS_5_A_divisional_grouping: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_divisional_grouping,)
_RULES_ZCS_5_A_fort: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_fort,)
_RULES_ZCS_5_A_hq: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_hq,)
_RULES_ZCS_5_A_port_fortification: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_port_fortification,)
_RULES_ZCS_5_A_regiment: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_regiment,)
_RULES_ZCS_5_A_remnant: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_A_remnant,)
_RULES_ZCS_5_C_2: Final[tuple[Cite, ...]] = (_CITE_ZCS_5_C_2,)
_RULES_ZCS_5__ZCS_5_attacked: Final[tuple[Cite, ...]] = (_CITE_ZCS_5, _CITE_ZCS_5_attacked,)
_RULES_ZCS_5__ZCS_5_dispersed: Final[tuple[Cite, ...]] = (_CITE_ZCS_5, _CITE_ZCS_5_dispersed,)
_RULES_ZCS_5__ZCS_5_great_river: Final[tuple[Cite, ...]] = (_CITE_ZCS_5, _CITE_ZCS_5_great_river,)
_RULES_ZCS_5__ZCS_5_modified: Final[tuple[Cite, ...]] = (_CITE_ZCS_5, _CITE_ZCS_5_modified,)
_RULES_ZCS_5__ZCS_5_out_of_reach: Final[tuple[Cite, ...]] = (_CITE_ZCS_5, _CITE_ZCS_5_out_of_reach,)
_RULES_ZCS_5__ZCS_5_prohibited: Final[tuple[Cite, ...]] = (_CITE_ZCS_5, _CITE_ZCS_5_prohibited,)
_DOMAINS_Into_0: Final[dict[str, Any]] = {
    'own_hex': (False, True),
    'beyond_adjacent': (False, True),
    'prohibited': (False, True),
    'great_river': (False, True),
    'major_river': (False, True),
    'bad_hexside': (False, True),
    'bad_terrain': (False, True),
    'arctic': (False, True),
    'movement': (False, True),
    'partisan': (False, True),
}
_DOMAINS_ZUnit_0: Final[dict[str, Any]] = {
    'kind': (
        'division',
        'divisional_grouping',
        'corps',
        'corps_army_marker',
        'port_fortification',
        'brigade',
        'brigade_grouping',
        'regiment',
        'cadre',
        'hq',
        'battalion',
        'remnant',
        'fort',
        'battery',
    ),
    'badly_dispersed': (False, True),
    'armour': (False, True),
    'artillery': (False, True),
    'aa_or_at': (False, True),
    'in_reserve': (False, True),
    'screened': (False, True),
    'partisan_mode': (False, True),
    'has_apzoc': (False, True),
    'assaulted': (False, True),
    'in_bad_terrain': (False, True),
    'unsupported': (False, True),
    'artillery_support': (False, True),
    'attacked_at_minimum_odds': (False, True),
}


# ---- lists of values ------------------------------------------------------------

# rules/zoc-classes/zoc.rules:13  ZCS  Field works in a hex
Works = Literal['no_works', 'entrenchment', 'fortification']
Works_values: Final[tuple[Works, ...]] = ('no_works', 'entrenchment', 'fortification',)
Works_titles: Final[dict[Works, str]] = {
    'no_works': 'None',
    'entrenchment': 'Entrenchment',
    'fortification': 'Fortification (40.E)',
}

# rules/zoc-classes/zoc.rules:106  5.A  Unit
UnitKind = Literal[
    'division',
    'divisional_grouping',
    'corps',
    'corps_army_marker',
    'port_fortification',
    'brigade',
    'brigade_grouping',
    'regiment',
    'cadre',
    'hq',
    'battalion',
    'remnant',
    'fort',
    'battery',
]
UnitKind_values: Final[tuple[UnitKind, ...]] = (
    'division',
    'divisional_grouping',
    'corps',
    'corps_army_marker',
    'port_fortification',
    'brigade',
    'brigade_grouping',
    'regiment',
    'cadre',
    'hq',
    'battalion',
    'remnant',
    'fort',
    'battery',
)
_UnitKind_set: Final[frozenset[str]] = frozenset(UnitKind_values)
UnitKind_titles: Final[dict[UnitKind, str]] = {
    'division': 'Division',
    'divisional_grouping': 'Divisional grouping',
    'corps': 'Corps size unit',
    'corps_army_marker': 'Corp/Army marker',
    'port_fortification': 'Port fortification',
    'brigade': 'Brigade',
    'brigade_grouping': 'Brigade grouping',
    'regiment': 'Regiment',
    'cadre': 'Cadre',
    'hq': 'HQ',
    'battalion': 'Battalion',
    'remnant': 'Remnant',
    'fort': 'Fort with a defence strength',
    'battery': 'Battery',
}
UnitKind_base: Final[dict[UnitKind, ZocClass]] = {
    'division': 'full',
    'divisional_grouping': 'full',
    'corps': 'full',
    'corps_army_marker': 'full',
    'port_fortification': 'partial',
    'brigade': 'partial',
    'brigade_grouping': 'partial',
    'regiment': 'partial',
    'cadre': 'partial',
    'hq': 'no_zoc',
    'battalion': 'no_zoc',
    'remnant': 'no_zoc',
    'fort': 'no_zoc',
    'battery': 'no_zoc',
}
_CITES_UnitKind_base: Final[dict[UnitKind, tuple[Cite, ...]]] = {
    'division': _RULES_ZCS_5_A_division,
    'divisional_grouping': _RULES_ZCS_5_A_divisional_grouping,
    'corps': _RULES_ZCS_5_A_corps,
    'corps_army_marker': _RULES_ZCS_5_A_corps_army_marker,
    'port_fortification': _RULES_ZCS_5_A_port_fortification,
    'brigade': _RULES_ZCS_5_A_brigade,
    'brigade_grouping': _RULES_ZCS_5_A_brigade_grouping,
    'regiment': _RULES_ZCS_5_A_regiment,
    'cadre': _RULES_ZCS_5_A_cadre,
    'hq': _RULES_ZCS_5_A_hq,
    'battalion': _RULES_ZCS_5_A_battalion,
    'remnant': _RULES_ZCS_5_A_remnant,
    'fort': _RULES_ZCS_5_A_fort,
    'battery': _RULES_ZCS_5_A_battery,
}

# rules/zoc-classes/zoc.rules:246  5.A.1  ZOC class
ZocClass = Literal['no_zoc', 'partial', 'full', 'double', 'triple']
ZocClass_values: Final[tuple[ZocClass, ...]] = ('no_zoc', 'partial', 'full', 'double', 'triple',)
ZocClass_titles: Final[dict[ZocClass, str]] = {
    'no_zoc': 'No ZOC',
    'partial': 'Partial ZOC',
    'full': 'Full ZOC',
    'double': 'Double ZOC',
    'triple': 'Triple ZOC',
}
_ORDER_ZocClass: Final[dict[ZocClass, int]] = {'no_zoc': 0, 'partial': 1, 'full': 2, 'double': 3, 'triple': 4}
ZocClass_supply_multiplier: Final[dict[ZocClass, Number]] = {
    'no_zoc': Fraction(1, 4),
    'partial': Fraction(1, 2),
    'full': 1,
    'double': 2,
    'triple': 3,
}
_s_ZocClass_supply_multiplier: Final[dict[ZocClass, Number]] = {
    'no_zoc': 1,
    'partial': 2,
    'full': 4,
    'double': 8,
    'triple': 12,
}
_CITES_ZocClass_supply_multiplier: Final[dict[ZocClass, tuple[Cite, ...]]] = {
    'no_zoc': _RULES_ZCS_5_A_1_no_zoc,
    'partial': _RULES_ZCS_5_A_1_partial,
    'full': _RULES_ZCS_5_A_1_full,
    'double': _RULES_ZCS_5_A_1_double,
    'triple': _RULES_ZCS_5_A_1_triple,
}
ZocClass_red_modifier: Final[dict[ZocClass, int]] = {
    'no_zoc': -2,
    'partial': -1,
    'full': 0,
    'double': 0,
    'triple': 0,
}


# ---- game state ----------------------------------------------------------------


# rules/zoc-classes/zoc.rules:19  ZCS
@dataclass(frozen=True, slots=True)
class ZUnit:
    (
        'A unit exerting a ZOC\n'
        '\n'
        'Fields:\n'
        '    kind: What the unit is (one of: division, divisional_grouping, corps, corps_army_marker,\n'
        '        port_fortification, brigade, brigade_grouping, regiment, cadre, hq, battalion, remnant,\n'
        '        fort, battery)\n'
        '    badly_dispersed: Badly dispersed\n'
        '    armour: Has the armour symbol (motorized infantry does not)\n'
        '    artillery: An artillery unit\n'
        '    aa_or_at: An AA or AT unit\n'
        '    in_reserve: In reserve\n'
        '    even_mp_markers: Even numbered "+ # MP" markers on the unit\n'
        '    screened: Screened\n'
        '    partisan_mode: A partisan mode unit\n'
        '    has_apzoc: Has an anti-partisan ZOC\n'
        '    assaulted: Made an amphibious or airborne assault this player-turn\n'
        '    supply_reductions: Levels the supply rules reduce its ZOC by (not in this source)\n'
        '    surprise_turn_reductions: Levels the surprise turn rules reduce its ZOC by (not in this source)\n'
        '    in_bad_terrain: Occupies bad terrain (3.F.1.a)\n'
        '    unsupported: Unsupported (9.A)\n'
        '    artillery_support: Receives support from artillery, or is the artillery providing it (9.A)\n'
        '    attacked_at_minimum_odds: Being attacked at minimum odds or higher'
    )

    kind: UnitKind = 'division'
    badly_dispersed: bool = False
    armour: bool = False
    artillery: bool = False
    aa_or_at: bool = False
    in_reserve: bool = False
    even_mp_markers: int = 0
    screened: bool = False
    partisan_mode: bool = False
    has_apzoc: bool = False
    assaulted: bool = False
    supply_reductions: int = 0
    surprise_turn_reductions: int = 0
    in_bad_terrain: bool = False
    unsupported: bool = False
    artillery_support: bool = False
    attacked_at_minimum_odds: bool = False

    def __post_init__(self) -> None:
        if self.kind not in _UnitKind_set:
            raise InvalidInput('ZUnit.kind', f"{_shown(self.kind)} is not one of the values", UnitKind_values)
        if self.badly_dispersed is not True and self.badly_dispersed is not False:
            raise InvalidInput('ZUnit.badly_dispersed', _not_a(self.badly_dispersed, 'true or false'))
        if self.armour is not True and self.armour is not False:
            raise InvalidInput('ZUnit.armour', _not_a(self.armour, 'true or false'))
        if self.artillery is not True and self.artillery is not False:
            raise InvalidInput('ZUnit.artillery', _not_a(self.artillery, 'true or false'))
        if self.aa_or_at is not True and self.aa_or_at is not False:
            raise InvalidInput('ZUnit.aa_or_at', _not_a(self.aa_or_at, 'true or false'))
        if self.in_reserve is not True and self.in_reserve is not False:
            raise InvalidInput('ZUnit.in_reserve', _not_a(self.in_reserve, 'true or false'))
        if type(self.even_mp_markers) is not int:
            raise InvalidInput('ZUnit.even_mp_markers', _not_a(self.even_mp_markers, 'a whole number'))
        if self.screened is not True and self.screened is not False:
            raise InvalidInput('ZUnit.screened', _not_a(self.screened, 'true or false'))
        if self.partisan_mode is not True and self.partisan_mode is not False:
            raise InvalidInput('ZUnit.partisan_mode', _not_a(self.partisan_mode, 'true or false'))
        if self.has_apzoc is not True and self.has_apzoc is not False:
            raise InvalidInput('ZUnit.has_apzoc', _not_a(self.has_apzoc, 'true or false'))
        if self.assaulted is not True and self.assaulted is not False:
            raise InvalidInput('ZUnit.assaulted', _not_a(self.assaulted, 'true or false'))
        if type(self.supply_reductions) is not int:
            raise InvalidInput('ZUnit.supply_reductions', _not_a(self.supply_reductions, 'a whole number'))
        if type(self.surprise_turn_reductions) is not int:
            raise InvalidInput(
                'ZUnit.surprise_turn_reductions', _not_a(self.surprise_turn_reductions, 'a whole number')
            )
        if self.in_bad_terrain is not True and self.in_bad_terrain is not False:
            raise InvalidInput('ZUnit.in_bad_terrain', _not_a(self.in_bad_terrain, 'true or false'))
        if self.unsupported is not True and self.unsupported is not False:
            raise InvalidInput('ZUnit.unsupported', _not_a(self.unsupported, 'true or false'))
        if self.artillery_support is not True and self.artillery_support is not False:
            raise InvalidInput('ZUnit.artillery_support', _not_a(self.artillery_support, 'true or false'))
        if self.attacked_at_minimum_odds is not True and self.attacked_at_minimum_odds is not False:
            raise InvalidInput('ZUnit.attacked_at_minimum_odds', _not_a(self.attacked_at_minimum_odds, 'true or false'))


# rules/zoc-classes/zoc.rules:39  ZCS
@dataclass(frozen=True, slots=True)
class Into:
    """The hex (and hexside) a ZOC is exerted into

    Fields:
        own_hex: The hex the unit occupies
        beyond_adjacent: Neither the unit's own hex nor one of the six hexes adjacent to it
        prohibited: Terrain or a hexside the unit may not enter or cross (e.g. all-sea in clear weather)
        great_river: Across a great river hexside or a narrow strait
        major_river: Across an unfrozen major river hexside
        bad_hexside: Across a bad terrain hexside
        bad_terrain: Into a bad terrain hex
        arctic: Into the Arctic (weather zone A)
        movement: Affecting another unit's movement (in a movement phase)
        partisan: Against a partisan mode unit
    """

    own_hex: bool = False
    beyond_adjacent: bool = False
    prohibited: bool = False
    great_river: bool = False
    major_river: bool = False
    bad_hexside: bool = False
    bad_terrain: bool = False
    arctic: bool = False
    movement: bool = False
    partisan: bool = False

    def __post_init__(self) -> None:
        if self.own_hex is not True and self.own_hex is not False:
            raise InvalidInput('Into.own_hex', _not_a(self.own_hex, 'true or false'))
        if self.beyond_adjacent is not True and self.beyond_adjacent is not False:
            raise InvalidInput('Into.beyond_adjacent', _not_a(self.beyond_adjacent, 'true or false'))
        if self.prohibited is not True and self.prohibited is not False:
            raise InvalidInput('Into.prohibited', _not_a(self.prohibited, 'true or false'))
        if self.great_river is not True and self.great_river is not False:
            raise InvalidInput('Into.great_river', _not_a(self.great_river, 'true or false'))
        if self.major_river is not True and self.major_river is not False:
            raise InvalidInput('Into.major_river', _not_a(self.major_river, 'true or false'))
        if self.bad_hexside is not True and self.bad_hexside is not False:
            raise InvalidInput('Into.bad_hexside', _not_a(self.bad_hexside, 'true or false'))
        if self.bad_terrain is not True and self.bad_terrain is not False:
            raise InvalidInput('Into.bad_terrain', _not_a(self.bad_terrain, 'true or false'))
        if self.arctic is not True and self.arctic is not False:
            raise InvalidInput('Into.arctic', _not_a(self.arctic, 'true or false'))
        if self.movement is not True and self.movement is not False:
            raise InvalidInput('Into.movement', _not_a(self.movement, 'true or false'))
        if self.partisan is not True and self.partisan is not False:
            raise InvalidInput('Into.partisan', _not_a(self.partisan, 'true or false'))


# ---- checks --------------------------------------------------------------------


# rules/zoc-classes/zoc.rules:61  5  Zones of Control (ZOC)
def own_hex_is_in_reach(x: Into) -> bool:
    """A unit's own hex is not beyond its adjacent hexes (5)."""
    return not (x.own_hex and x.beyond_adjacent)


# rules/zoc-classes/zoc.rules:61  5  Zones of Control (ZOC)
def _t_own_hex_is_in_reach(x: Into, _t: list[Cite]) -> bool:
    """own_hex_is_in_reach, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5)
    return not (x.own_hex and x.beyond_adjacent)


# rules/zoc-classes/zoc.rules:61  5  Zones of Control (ZOC)
def explain_own_hex_is_in_reach(x: Into) -> Answer[bool]:
    """A unit's own hex is not beyond its adjacent hexes (5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_own_hex_is_in_reach(x, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(own_hex_is_in_reach, (('x', x, _DOMAINS_Into_0), ))
    )


# rules/zoc-classes/zoc.rules:124  5.A  ZOC Class Table
def all_stacks_screened_in_reaction(screeners: tuple[ZocClass, ...], enemies: tuple[ZocClass, ...]) -> bool:
    """Note 3) In the reaction phase, are all the enemy stacks exerting a zone on the hex screened? Friendly units of
    any size screen them all (5.A).
    """
    return _len(enemies) == 0 or _len(screeners) > 0


# rules/zoc-classes/zoc.rules:124  5.A  ZOC Class Table
def _t_all_stacks_screened_in_reaction(
    screeners: tuple[ZocClass, ...], enemies: tuple[ZocClass, ...], _t: list[Cite]
) -> bool:
    """all_stacks_screened_in_reaction, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_A)
    return _len(enemies) == 0 or _len(screeners) > 0


# rules/zoc-classes/zoc.rules:124  5.A  ZOC Class Table
def explain_all_stacks_screened_in_reaction(screeners: Sequence[ZocClass], enemies: Sequence[ZocClass]) -> Answer[bool]:
    """Note 3) In the reaction phase, are all the enemy stacks exerting a zone on the hex screened? Friendly units of
    any size screen them all (5.A), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_all_stacks_screened_in_reaction(tuple(screeners), tuple(enemies), _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            all_stacks_screened_in_reaction,
            (
                ('screeners', screeners, _Items(('no_zoc', 'partial', 'full', 'double', 'triple'))),
                ('enemies', enemies, _Items(('no_zoc', 'partial', 'full', 'double', 'triple'))),
            ),
        ),
    )


# rules/zoc-classes/zoc.rules:128  5.A  ZOC Class Table
def screened_class_in_reaction(enemy: ZocClass, stays_in_hex: bool) -> ZocClass:
    """Note 3) The enemy ZOC class a unit moving in the reaction phase pays for in a screened hex: one level less,
    whether it leaves the hex or stays (5.A).
    """
    return _step_within(ZocClass_values, _ORDER_ZocClass, enemy, -1)


_ANSWERS_screened_class_in_reaction: Final[dict[tuple[ZocClass, bool], Answer[ZocClass]]] = {
    ('no_zoc', False,): Answer('no_zoc', (_CITE_ZCS_5_A,), ()),
    ('no_zoc', True,): Answer('no_zoc', (_CITE_ZCS_5_A,), ()),
    ('partial', False,): Answer('no_zoc', (_CITE_ZCS_5_A,), ()),
    ('partial', True,): Answer('no_zoc', (_CITE_ZCS_5_A,), ()),
    ('full', False,): Answer('partial', (_CITE_ZCS_5_A,), ()),
    ('full', True,): Answer('partial', (_CITE_ZCS_5_A,), ()),
    ('double', False,): Answer('full', (_CITE_ZCS_5_A,), ()),
    ('double', True,): Answer('full', (_CITE_ZCS_5_A,), ()),
    ('triple', False,): Answer('double', (_CITE_ZCS_5_A,), ()),
    ('triple', True,): Answer('double', (_CITE_ZCS_5_A,), ()),
}


# rules/zoc-classes/zoc.rules:128  5.A  ZOC Class Table
def explain_screened_class_in_reaction(enemy: ZocClass, stays_in_hex: bool) -> Answer[ZocClass]:
    """Note 3) The enemy ZOC class a unit moving in the reaction phase pays for in a screened hex: one level less,
    whether it leaves the hex or stays (5.A), with the rules that decided it.
    """
    return _ANSWERS_screened_class_in_reaction[(enemy, stays_in_hex)]


# rules/zoc-classes/zoc.rules:256  5.A.1  ZOC Modifier/Effects on Combat Supply
def _s_combat_supply(normal: Number, defender: ZocClass) -> Number:
    """combat_supply with numbers scaled by SCALE."""
    return _mul(normal, _s_ZocClass_supply_multiplier[defender])


# rules/zoc-classes/zoc.rules:256  5.A.1  ZOC Modifier/Effects on Combat Supply
def _t_combat_supply(normal: Number, defender: ZocClass, _t: list[Cite]) -> Number:
    """combat_supply, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_A_1)
    return _mul(normal, _attr(_t, _CITES_ZocClass_supply_multiplier, _s_ZocClass_supply_multiplier, defender))


# rules/zoc-classes/zoc.rules:256  5.A.1  ZOC Modifier/Effects on Combat Supply
def combat_supply(normal: Number, defender: ZocClass) -> Number:
    """Combat supply an attack needs (5.A.1). Numbers are exact: int or Fraction."""
    return _exact(_s_combat_supply(normal * SCALE, defender))


# rules/zoc-classes/zoc.rules:256  5.A.1  ZOC Modifier/Effects on Combat Supply
def explain_combat_supply(normal: Number, defender: ZocClass) -> Answer[Number]:
    """Combat supply an attack needs (5.A.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_combat_supply(normal * SCALE, defender, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/zoc-classes/zoc.rules:259  5.A.1  ZOC Modifier/Effects on Combat Supply
def red_result_modifier(defender: ZocClass) -> int:
    """RED table modifier for the ZOC the defending unit exerts (5.A.1)."""
    return ZocClass_red_modifier[defender]


_ANSWERS_red_result_modifier: Final[dict[tuple[ZocClass], Answer[int]]] = {
    ('no_zoc',): Answer(-2, (_CITE_ZCS_5_A_1, _CITE_ZCS_5_A_1_no_zoc,), ()),
    ('partial',): Answer(-1, (_CITE_ZCS_5_A_1, _CITE_ZCS_5_A_1_partial,), ()),
    ('full',): Answer(0, (_CITE_ZCS_5_A_1, _CITE_ZCS_5_A_1_full,), ()),
    ('double',): Answer(0, (_CITE_ZCS_5_A_1, _CITE_ZCS_5_A_1_double,), ()),
    ('triple',): Answer(0, (_CITE_ZCS_5_A_1, _CITE_ZCS_5_A_1_triple,), ()),
}


# rules/zoc-classes/zoc.rules:259  5.A.1  ZOC Modifier/Effects on Combat Supply
def explain_red_result_modifier(defender: ZocClass) -> Answer[int]:
    """RED table modifier for the ZOC the defending unit exerts (5.A.1), with the rules that decided it."""
    return _ANSWERS_red_result_modifier[(defender,)]


# rules/zoc-classes/zoc.rules:285  5.A.2  Terrain Effects
def terrain_reductions(u: ZUnit, x: Into) -> int:
    """Levels of reduction for terrain (5.A.2)."""
    return _count(
        c for c in (x.bad_hexside, u.in_bad_terrain, (u.armour or u.artillery) and x.bad_terrain, x.major_river) if c
    )


# rules/zoc-classes/zoc.rules:285  5.A.2  Terrain Effects
def _t_terrain_reductions(u: ZUnit, x: Into, _t: list[Cite]) -> int:
    """terrain_reductions, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_A_2)
    return _count(
        c for c in (x.bad_hexside, u.in_bad_terrain, (u.armour or u.artillery) and x.bad_terrain, x.major_river) if c
    )


# rules/zoc-classes/zoc.rules:285  5.A.2  Terrain Effects
def explain_terrain_reductions(u: ZUnit, x: Into) -> Answer[int]:
    """Levels of reduction for terrain (5.A.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_terrain_reductions(u, x, _t)
    return Answer(_value, _rules(_t), ())


# rules/zoc-classes/zoc.rules:303  5.A.3  Reduced Zones (RZs)
def reductions(u: ZUnit, x: Into) -> int:
    """Levels the ZOC is reduced by: one for each condition (5.A.3)."""
    _u_artillery = u.artillery
    # rule: terrain_reductions(u, x) + count(c for c in [u.unsupported and x.movement, u.in_reserve, u.screened,
    # u.partisan_mode, x.partisan and not u.has_apzoc, u.assaulted, u.artillery or u.aa_or_at] where c) +
    # u.even_mp_markers + u.supply_reductions + u.surprise_turn_reductions
    return (
        _count(
            c
            for c in (x.bad_hexside, u.in_bad_terrain, (u.armour or _u_artillery) and x.bad_terrain, x.major_river)
            if c
        )
        + _count(
            c
            for c in (
                u.unsupported and x.movement,
                u.in_reserve,
                u.screened,
                u.partisan_mode,
                x.partisan and (not u.has_apzoc),
                u.assaulted,
                _u_artillery or u.aa_or_at,
            )
            if c
        )
        + u.even_mp_markers
        + u.supply_reductions
        + u.surprise_turn_reductions
    )


# rules/zoc-classes/zoc.rules:303  5.A.3  Reduced Zones (RZs)
def _t_reductions(u: ZUnit, x: Into, _t: list[Cite]) -> int:
    """reductions, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_A_3)
    return (
        _t_terrain_reductions(u, x, _t)
        + _count(
            c
            for c in (
                u.unsupported and x.movement,
                u.in_reserve,
                u.screened,
                u.partisan_mode,
                x.partisan and (not u.has_apzoc),
                u.assaulted,
                u.artillery or u.aa_or_at,
            )
            if c
        )
        + u.even_mp_markers
        + u.supply_reductions
        + u.surprise_turn_reductions
    )


# rules/zoc-classes/zoc.rules:303  5.A.3  Reduced Zones (RZs)
def explain_reductions(u: ZUnit, x: Into) -> Answer[int]:
    """Levels the ZOC is reduced by: one for each condition (5.A.3), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_reductions(u, x, _t)
    return Answer(_value, _rules(_t), ())


# rules/zoc-classes/zoc.rules:309  5.A.3  Reduced Zones (RZs)
def reductions_not_negative(u: ZUnit) -> bool:
    """A rule reduces a ZOC by no fewer than zero levels (5.A.3)."""
    return u.supply_reductions >= 0 and u.surprise_turn_reductions >= 0


# rules/zoc-classes/zoc.rules:309  5.A.3  Reduced Zones (RZs)
def _t_reductions_not_negative(u: ZUnit, _t: list[Cite]) -> bool:
    """reductions_not_negative, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_A_3)
    return u.supply_reductions >= 0 and u.surprise_turn_reductions >= 0


# rules/zoc-classes/zoc.rules:309  5.A.3  Reduced Zones (RZs)
def explain_reductions_not_negative(u: ZUnit) -> Answer[bool]:
    """A rule reduces a ZOC by no fewer than zero levels (5.A.3), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_reductions_not_negative(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(reductions_not_negative, (('u', u, _DOMAINS_ZUnit_0), ))
    )


# rules/zoc-classes/zoc.rules:337  5.A.4  Increased Zones
def increases(u: ZUnit, x: Into) -> int:
    """Levels the ZOC is increased by: one for each condition (5.A.4)."""
    return _count(c for c in (x.own_hex, x.arctic, u.artillery_support) if c)


# rules/zoc-classes/zoc.rules:337  5.A.4  Increased Zones
def _t_increases(u: ZUnit, x: Into, _t: list[Cite]) -> int:
    """increases, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_A_4)
    return _count(c for c in (x.own_hex, x.arctic, u.artillery_support) if c)


# rules/zoc-classes/zoc.rules:337  5.A.4  Increased Zones
def explain_increases(u: ZUnit, x: Into) -> Answer[int]:
    """Levels the ZOC is increased by: one for each condition (5.A.4), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_increases(u, x, _t)
    return Answer(_value, _rules(_t), ())


# rules/zoc-classes/zoc.rules:340  5.A.4  Increased Zones
def stack_zoc(zocs: tuple[ZocClass, ...]) -> ZocClass:
    """The ZOC of units stacked together: three of a class make one of the next, up to full (5.A.4)."""
    partials: int = (
        _count(z for z in zocs if z == 'partial') + _div(_count(z for z in zocs if z == 'no_zoc') * 4, 12) // 4
    )
    fulls: int = _count(z for z in zocs if z == 'full') + _div(partials * 4, 12) // 4
    combined: ZocClass = 'full' if fulls > 0 else 'partial' if partials > 0 else 'no_zoc'
    return (
        'no_zoc'
        if _len(zocs) == 0
        else max(combined, _max((z for z in zocs), key=_ORDER_ZocClass.__getitem__), key=_ORDER_ZocClass.__getitem__)
    )


# rules/zoc-classes/zoc.rules:340  5.A.4  Increased Zones
def _t_stack_zoc(zocs: tuple[ZocClass, ...], _t: list[Cite]) -> ZocClass:
    """stack_zoc, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_A_4)
    partials: int = (
        _count(z for z in zocs if z == 'partial') + _div(_count(z for z in zocs if z == 'no_zoc') * 4, 12) // 4
    )
    fulls: int = _count(z for z in zocs if z == 'full') + _div(partials * 4, 12) // 4
    combined: ZocClass = 'full' if fulls > 0 else 'partial' if partials > 0 else 'no_zoc'
    return (
        'no_zoc'
        if _len(zocs) == 0
        else max(combined, _max((z for z in zocs), key=_ORDER_ZocClass.__getitem__), key=_ORDER_ZocClass.__getitem__)
    )


# rules/zoc-classes/zoc.rules:340  5.A.4  Increased Zones
def explain_stack_zoc(zocs: Sequence[ZocClass]) -> Answer[ZocClass]:
    """The ZOC of units stacked together: three of a class make one of the next, up to full (5.A.4), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_stack_zoc(tuple(zocs), _t)
    return Answer(_value, _rules(_t), ())


# rules/zoc-classes/zoc.rules:395  5.B  Anti-Partisan Zones of Control
def apzoc_affects(target_is_partisan: bool) -> bool:
    """Does an APZOC affect this unit? (5.B)."""
    return target_is_partisan


_ANSWERS_apzoc_affects: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(False, (_CITE_ZCS_5_B,), ('target_is_partisan = true',)),
    (True,): Answer(True, (_CITE_ZCS_5_B,), ()),
}


# rules/zoc-classes/zoc.rules:395  5.B  Anti-Partisan Zones of Control
def explain_apzoc_affects(target_is_partisan: bool) -> Answer[bool]:
    """Does an APZOC affect this unit? (5.B), with the rules that decided it."""
    return _ANSWERS_apzoc_affects[(target_is_partisan,)]


# rules/zoc-classes/zoc.rules:406  5.C  Screening Enemy ZOCs
def screened_class(enemy: ZocClass, stays_with_screening_unit: bool) -> ZocClass:
    """The enemy ZOC class a friendly unit moving through a screened hex pays for (5.C)."""
    return enemy if stays_with_screening_unit else _step_within(ZocClass_values, _ORDER_ZocClass, enemy, -1)


_ANSWERS_screened_class: Final[dict[tuple[ZocClass, bool], Answer[ZocClass]]] = {
    ('no_zoc', False,): Answer('no_zoc', (_CITE_ZCS_5_C,), ()),
    ('no_zoc', True,): Answer('no_zoc', (_CITE_ZCS_5_C,), ()),
    ('partial', False,): Answer('no_zoc', (_CITE_ZCS_5_C,), ()),
    ('partial', True,): Answer('partial', (_CITE_ZCS_5_C,), ()),
    ('full', False,): Answer('partial', (_CITE_ZCS_5_C,), ()),
    ('full', True,): Answer('full', (_CITE_ZCS_5_C,), ()),
    ('double', False,): Answer('full', (_CITE_ZCS_5_C,), ()),
    ('double', True,): Answer('double', (_CITE_ZCS_5_C,), ()),
    ('triple', False,): Answer('double', (_CITE_ZCS_5_C,), ()),
    ('triple', True,): Answer('triple', (_CITE_ZCS_5_C,), ()),
}


# rules/zoc-classes/zoc.rules:406  5.C  Screening Enemy ZOCs
def explain_screened_class(enemy: ZocClass, stays_with_screening_unit: bool) -> Answer[ZocClass]:
    """The enemy ZOC class a friendly unit moving through a screened hex pays for (5.C), with the rules that decided it.
    """
    return _ANSWERS_screened_class[(enemy, stays_with_screening_unit)]


# rules/zoc-classes/zoc.rules:425  5.C.1.a  During Any Movement Phase
def leaves_at_reduced_rate(screener_started_there: bool, unit_started_there: bool) -> bool:
    """May a unit leave the screened hex at the reduced zone rate? (5.C.1.a)."""
    return screener_started_there and unit_started_there


_ANSWERS_leaves_at_reduced_rate: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(False, (_CITE_ZCS_5_C_1_a,), ()),
    (False, True,): Answer(False, (_CITE_ZCS_5_C_1_a,), ('screener_started_there = true',)),
    (True, False,): Answer(False, (_CITE_ZCS_5_C_1_a,), ('unit_started_there = true',)),
    (True, True,): Answer(True, (_CITE_ZCS_5_C_1_a,), ()),
}


# rules/zoc-classes/zoc.rules:425  5.C.1.a  During Any Movement Phase
def explain_leaves_at_reduced_rate(screener_started_there: bool, unit_started_there: bool) -> Answer[bool]:
    """May a unit leave the screened hex at the reduced zone rate? (5.C.1.a), with the rules that decided it."""
    return _ANSWERS_leaves_at_reduced_rate[(screener_started_there, unit_started_there)]


# rules/zoc-classes/zoc.rules:439  5.C.1.b  During Any Combat Phase
def screened_after_combat(hex_began_combat_in: bool) -> bool:
    """Is an advancing or retreating unit screened in this hex? (5.C.1.b)."""
    return hex_began_combat_in


_ANSWERS_screened_after_combat: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(False, (_CITE_ZCS_5_C_1_b,), ('hex_began_combat_in = true',)),
    (True,): Answer(True, (_CITE_ZCS_5_C_1_b,), ()),
}


# rules/zoc-classes/zoc.rules:439  5.C.1.b  During Any Combat Phase
def explain_screened_after_combat(hex_began_combat_in: bool) -> Answer[bool]:
    """Is an advancing or retreating unit screened in this hex? (5.C.1.b), with the rules that decided it."""
    return _ANSWERS_screened_after_combat[(hex_began_combat_in,)]


# rules/zoc-classes/zoc.rules:453  5.C.1.c  Additional Reaction Phase Effects
def screened_in_reaction(friendly_combat_unit: bool) -> bool:
    """Does a hex entered by reserves in the reaction movement phase count as screened? (5.C.1.c)."""
    return friendly_combat_unit


_ANSWERS_screened_in_reaction: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(False, (_CITE_ZCS_5_C_1_c,), ('friendly_combat_unit = true',)),
    (True,): Answer(True, (_CITE_ZCS_5_C_1_c,), ()),
}


# rules/zoc-classes/zoc.rules:453  5.C.1.c  Additional Reaction Phase Effects
def explain_screened_in_reaction(friendly_combat_unit: bool) -> Answer[bool]:
    """Does a hex entered by reserves in the reaction movement phase count as screened? (5.C.1.c), with the rules that
    decided it.
    """
    return _ANSWERS_screened_in_reaction[(friendly_combat_unit,)]


# rules/zoc-classes/zoc.rules:457  5.C.1.c  Additional Reaction Phase Effects
def reserve_pays_class(enemy: ZocClass, friendly_combat_unit: bool, stays_in_hex: bool) -> ZocClass:
    """The enemy ZOC class a reserve pays for in a hex it enters in the reaction movement phase: one level less where a
    friendly combat unit is, whether it leaves the hex or stays (5.C.1.c).
    """
    # rule: if screened_in_reaction(friendly_combat_unit) then screened_class_in_reaction(enemy, stays_in_hex) else
    # enemy
    return _step_within(ZocClass_values, _ORDER_ZocClass, enemy, -1) if friendly_combat_unit else enemy


_ANSWERS_reserve_pays_class: Final[dict[tuple[ZocClass, bool, bool], Answer[ZocClass]]] = {
    ('no_zoc', False, False,): Answer('no_zoc', (_CITE_ZCS_5_C_1_c,), ()),
    ('no_zoc', False, True,): Answer('no_zoc', (_CITE_ZCS_5_C_1_c,), ()),
    ('no_zoc', True, False,): Answer('no_zoc', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('no_zoc', True, True,): Answer('no_zoc', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('partial', False, False,): Answer('partial', (_CITE_ZCS_5_C_1_c,), ()),
    ('partial', False, True,): Answer('partial', (_CITE_ZCS_5_C_1_c,), ()),
    ('partial', True, False,): Answer('no_zoc', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('partial', True, True,): Answer('no_zoc', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('full', False, False,): Answer('full', (_CITE_ZCS_5_C_1_c,), ()),
    ('full', False, True,): Answer('full', (_CITE_ZCS_5_C_1_c,), ()),
    ('full', True, False,): Answer('partial', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('full', True, True,): Answer('partial', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('double', False, False,): Answer('double', (_CITE_ZCS_5_C_1_c,), ()),
    ('double', False, True,): Answer('double', (_CITE_ZCS_5_C_1_c,), ()),
    ('double', True, False,): Answer('full', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('double', True, True,): Answer('full', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('triple', False, False,): Answer('triple', (_CITE_ZCS_5_C_1_c,), ()),
    ('triple', False, True,): Answer('triple', (_CITE_ZCS_5_C_1_c,), ()),
    ('triple', True, False,): Answer('double', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
    ('triple', True, True,): Answer('double', (_CITE_ZCS_5_C_1_c, _CITE_ZCS_5_A,), ()),
}


# rules/zoc-classes/zoc.rules:457  5.C.1.c  Additional Reaction Phase Effects
def explain_reserve_pays_class(enemy: ZocClass, friendly_combat_unit: bool, stays_in_hex: bool) -> Answer[ZocClass]:
    """The enemy ZOC class a reserve pays for in a hex it enters in the reaction movement phase: one level less where a
    friendly combat unit is, whether it leaves the hex or stays (5.C.1.c), with the rules that decided it.
    """
    return _ANSWERS_reserve_pays_class[(enemy, friendly_combat_unit, stays_in_hex)]


# rules/zoc-classes/zoc.rules:461  5.C.1.c  Additional Reaction Phase Effects
def ezoc_negated_in_reaction(works: Works) -> bool:
    """Are the effects of enemy ZOCs negated in this hex during the reaction movement phase? (5.C.1.c)."""
    return works == 'fortification'


_ANSWERS_ezoc_negated_in_reaction: Final[dict[tuple[Works], Answer[bool]]] = {
    ('no_works',): Answer(False, (_CITE_ZCS_5_C_1_c,), ('works = fortification',)),
    ('entrenchment',): Answer(False, (_CITE_ZCS_5_C_1_c,), ('works = fortification',)),
    ('fortification',): Answer(True, (_CITE_ZCS_5_C_1_c,), ()),
}


# rules/zoc-classes/zoc.rules:461  5.C.1.c  Additional Reaction Phase Effects
def explain_ezoc_negated_in_reaction(works: Works) -> Answer[bool]:
    """Are the effects of enemy ZOCs negated in this hex during the reaction movement phase? (5.C.1.c), with the rules
    that decided it.
    """
    return _ANSWERS_ezoc_negated_in_reaction[(works,)]


# rules/zoc-classes/zoc.rules:493  5.C.2  Screening Units Effects & Restrictions
def may_screen(screener: ZocClass, enemy: ZocClass, in_its_hex: bool, ends_phase_there: bool) -> bool:
    """a, b, c) May this unit screen this enemy stack's ZOC? (5.C.2)."""
    return in_its_hex and ends_phase_there and (_ORDER_ZocClass[enemy] <= _ORDER_ZocClass[screener])


_ANSWERS_may_screen: Final[dict[tuple[ZocClass, ZocClass, bool, bool], Answer[bool]]] = {
    ('no_zoc', 'no_zoc', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'no_zoc', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('no_zoc', 'no_zoc', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('no_zoc', 'no_zoc', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'partial', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'partial', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'partial', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'partial', True, True,): Answer(
        False,
        (_CITE_ZCS_5_C_2,),
        ('screener = partial', 'screener = full', 'screener = double', 'screener = triple', 'enemy = no_zoc'),
    ),
    ('no_zoc', 'full', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'full', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'full', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'full', True, True,): Answer(
        False, (_CITE_ZCS_5_C_2,), ('screener = full', 'screener = double', 'screener = triple', 'enemy = no_zoc')
    ),
    ('no_zoc', 'double', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'double', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'double', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'double', True, True,): Answer(
        False, (_CITE_ZCS_5_C_2,), ('screener = double', 'screener = triple', 'enemy = no_zoc')
    ),
    ('no_zoc', 'triple', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'triple', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'triple', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('no_zoc', 'triple', True, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('screener = triple', 'enemy = no_zoc')),
    ('partial', 'no_zoc', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'no_zoc', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('partial', 'no_zoc', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('partial', 'no_zoc', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'partial', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'partial', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('partial', 'partial', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('partial', 'partial', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'full', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'full', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'full', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'full', True, True,): Answer(
        False,
        (_CITE_ZCS_5_C_2,),
        ('screener = full', 'screener = double', 'screener = triple', 'enemy = no_zoc', 'enemy = partial'),
    ),
    ('partial', 'double', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'double', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'double', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'double', True, True,): Answer(
        False, (_CITE_ZCS_5_C_2,), ('screener = double', 'screener = triple', 'enemy = no_zoc', 'enemy = partial')
    ),
    ('partial', 'triple', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'triple', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'triple', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('partial', 'triple', True, True,): Answer(
        False, (_CITE_ZCS_5_C_2,), ('screener = triple', 'enemy = no_zoc', 'enemy = partial')
    ),
    ('full', 'no_zoc', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'no_zoc', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('full', 'no_zoc', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('full', 'no_zoc', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'partial', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'partial', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('full', 'partial', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('full', 'partial', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'full', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'full', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('full', 'full', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('full', 'full', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'double', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'double', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'double', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'double', True, True,): Answer(
        False,
        (_CITE_ZCS_5_C_2,),
        ('screener = double', 'screener = triple', 'enemy = no_zoc', 'enemy = partial', 'enemy = full'),
    ),
    ('full', 'triple', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'triple', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'triple', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('full', 'triple', True, True,): Answer(
        False, (_CITE_ZCS_5_C_2,), ('screener = triple', 'enemy = no_zoc', 'enemy = partial', 'enemy = full')
    ),
    ('double', 'no_zoc', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'no_zoc', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('double', 'no_zoc', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('double', 'no_zoc', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'partial', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'partial', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('double', 'partial', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('double', 'partial', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'full', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'full', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('double', 'full', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('double', 'full', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'double', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'double', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('double', 'double', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('double', 'double', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'triple', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'triple', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'triple', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('double', 'triple', True, True,): Answer(
        False,
        (_CITE_ZCS_5_C_2,),
        ('screener = triple', 'enemy = no_zoc', 'enemy = partial', 'enemy = full', 'enemy = double'),
    ),
    ('triple', 'no_zoc', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'no_zoc', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('triple', 'no_zoc', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('triple', 'no_zoc', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'partial', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'partial', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('triple', 'partial', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('triple', 'partial', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'full', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'full', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('triple', 'full', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('triple', 'full', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'double', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'double', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('triple', 'double', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('triple', 'double', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'triple', False, False,): Answer(False, (_CITE_ZCS_5_C_2,), ()),
    ('triple', 'triple', False, True,): Answer(False, (_CITE_ZCS_5_C_2,), ('in_its_hex = true',)),
    ('triple', 'triple', True, False,): Answer(False, (_CITE_ZCS_5_C_2,), ('ends_phase_there = true',)),
    ('triple', 'triple', True, True,): Answer(True, (_CITE_ZCS_5_C_2,), ()),
}


# rules/zoc-classes/zoc.rules:493  5.C.2  Screening Units Effects & Restrictions
def explain_may_screen(screener: ZocClass, enemy: ZocClass, in_its_hex: bool, ends_phase_there: bool) -> Answer[bool]:
    """a, b, c) May this unit screen this enemy stack's ZOC? (5.C.2), with the rules that decided it."""
    return _ANSWERS_may_screen[(screener, enemy, in_its_hex, ends_phase_there)]


# rules/zoc-classes/zoc.rules:497  5.C.2  Screening Units Effects & Restrictions
def stacks_one_unit_screens(screener: ZocClass, enemies: tuple[ZocClass, ...]) -> int:
    """d) Enemy stacks one unit can screen: one of the same or a lesser class (c), or two with lesser ZOCs (note 5)
    (5.C.2).
    """
    return (
        2
        if screener != 'no_zoc' and _count(e for e in enemies if _ORDER_ZocClass[e] < _ORDER_ZocClass[screener]) >= 2
        else 1
        if any(_ORDER_ZocClass[e] <= _ORDER_ZocClass[screener] for e in enemies)
        else 0
    )


# rules/zoc-classes/zoc.rules:497  5.C.2  Screening Units Effects & Restrictions
def _t_stacks_one_unit_screens(screener: ZocClass, enemies: tuple[ZocClass, ...], _t: list[Cite]) -> int:
    """stacks_one_unit_screens, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_C_2)
    return (
        2
        if screener != 'no_zoc' and _count(e for e in enemies if _ORDER_ZocClass[e] < _ORDER_ZocClass[screener]) >= 2
        else 1
        if any(_ORDER_ZocClass[e] <= _ORDER_ZocClass[screener] for e in enemies)
        else 0
    )


# rules/zoc-classes/zoc.rules:497  5.C.2  Screening Units Effects & Restrictions
def explain_stacks_one_unit_screens(screener: ZocClass, enemies: Sequence[ZocClass]) -> Answer[int]:
    """d) Enemy stacks one unit can screen: one of the same or a lesser class (c), or two with lesser ZOCs (note 5)
    (5.C.2), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_stacks_one_unit_screens(screener, tuple(enemies), _t)
    return Answer(_value, _rules(_t), ())


# rules/zoc-classes/zoc.rules:503  5.C.2  Screening Units Effects & Restrictions
def screening_left(
    level: ZocClass, carried: int, screeners: tuple[ZocClass, ...], enemies: tuple[ZocClass, ...]
) -> int:
    """d) Enemy stacks below this class the screeners can still take, once all of this class and above are (-1: not all
    are) (5.C.2).
    """
    stacks: int = _count(e for e in enemies if e == level)
    own: int = _count(s for s in screeners if s == level)
    return (
        -1
        if carried < 0
        else carried - stacks + 2 * own
        if stacks <= carried
        else 2 * (own - (stacks - carried))
        if stacks - carried <= own
        else -1
    )


# rules/zoc-classes/zoc.rules:503  5.C.2  Screening Units Effects & Restrictions
def _t_screening_left(
    level: ZocClass, carried: int, screeners: tuple[ZocClass, ...], enemies: tuple[ZocClass, ...], _t: list[Cite]
) -> int:
    """screening_left, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_C_2)
    stacks: int = _count(e for e in enemies if e == level)
    own: int = _count(s for s in screeners if s == level)
    return (
        -1
        if carried < 0
        else carried - stacks + 2 * own
        if stacks <= carried
        else 2 * (own - (stacks - carried))
        if stacks - carried <= own
        else -1
    )


# rules/zoc-classes/zoc.rules:503  5.C.2  Screening Units Effects & Restrictions
def explain_screening_left(
    level: ZocClass, carried: int, screeners: Sequence[ZocClass], enemies: Sequence[ZocClass]
) -> Answer[int]:
    """d) Enemy stacks below this class the screeners can still take, once all of this class and above are (-1: not all
    are) (5.C.2), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_screening_left(level, carried, tuple(screeners), tuple(enemies), _t)
    return Answer(_value, _rules(_t), ())


# rules/zoc-classes/zoc.rules:513  5.C.2  Screening Units Effects & Restrictions
def all_stacks_screened(screeners: tuple[ZocClass, ...], enemies: tuple[ZocClass, ...]) -> bool:
    """d) Are all the enemy stacks exerting a zone on the hex screened? (5.C.2)."""
    return screening_left(
        'no_zoc',
        screening_left(
            'partial',
            screening_left(
                'full',
                screening_left('double', screening_left('triple', 0, screeners, enemies), screeners, enemies),
                screeners,
                enemies,
            ),
            screeners,
            enemies,
        ),
        screeners,
        enemies,
    ) >= 0


# rules/zoc-classes/zoc.rules:513  5.C.2  Screening Units Effects & Restrictions
def _t_all_stacks_screened(screeners: tuple[ZocClass, ...], enemies: tuple[ZocClass, ...], _t: list[Cite]) -> bool:
    """all_stacks_screened, recording in _t each rule it uses."""
    _t.extend(_RULES_ZCS_5_C_2)
    return _t_screening_left(
        'no_zoc',
        _t_screening_left(
            'partial',
            _t_screening_left(
                'full',
                _t_screening_left(
                    'double', _t_screening_left('triple', 0, screeners, enemies, _t), screeners, enemies, _t
                ),
                screeners,
                enemies,
                _t,
            ),
            screeners,
            enemies,
            _t,
        ),
        screeners,
        enemies,
        _t,
    ) >= 0


# rules/zoc-classes/zoc.rules:513  5.C.2  Screening Units Effects & Restrictions
def explain_all_stacks_screened(screeners: Sequence[ZocClass], enemies: Sequence[ZocClass]) -> Answer[bool]:
    """d) Are all the enemy stacks exerting a zone on the hex screened? (5.C.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_all_stacks_screened(tuple(screeners), tuple(enemies), _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            all_stacks_screened,
            (
                ('screeners', screeners, _Items(('no_zoc', 'partial', 'full', 'double', 'triple'))),
                ('enemies', enemies, _Items(('no_zoc', 'partial', 'full', 'double', 'triple'))),
            ),
        ),
    )


# rules/zoc-classes/zoc.rules:64  5  Zones of Control (ZOC)
def zoc_class(u: ZUnit, x: Into) -> ZocClass:
    """The ZOC class a unit exerts into a hex (5)."""
    # out_of_reach: 5 (ZCS) rules/zoc-classes/zoc.rules:65
    if x.beyond_adjacent:
        return 'no_zoc'
    # prohibited: 5 (ZCS) rules/zoc-classes/zoc.rules:66
    if x.prohibited:
        return 'no_zoc'
    # attacked: 5 (ZCS) rules/zoc-classes/zoc.rules:67
    if u.attacked_at_minimum_odds and (not x.own_hex):
        return 'no_zoc'
    # great_river: 5 (ZCS) rules/zoc-classes/zoc.rules:69
    if x.great_river:
        return 'no_zoc'
    # dispersed: 5 (ZCS) rules/zoc-classes/zoc.rules:70
    if u.badly_dispersed:
        # rule: step(step(no_zoc, -reductions(u, x)), increases(u, x))
        return _step_within(
            ZocClass_values,
            _ORDER_ZocClass,
            _step_within(ZocClass_values, _ORDER_ZocClass, 'no_zoc', -reductions(u, x)),
            _count(c for c in (x.own_hex, x.arctic, u.artillery_support) if c),
        )
    # modified: 5 (ZCS) rules/zoc-classes/zoc.rules:72
    # rule: step(step(u.kind.base, -reductions(u, x)), increases(u, x))
    return _step_within(
        ZocClass_values,
        _ORDER_ZocClass,
        _step_within(ZocClass_values, _ORDER_ZocClass, UnitKind_base[u.kind], -reductions(u, x)),
        _count(c for c in (x.own_hex, x.arctic, u.artillery_support) if c),
    )


# rules/zoc-classes/zoc.rules:64  5  Zones of Control (ZOC)
def _t_zoc_class(u: ZUnit, x: Into, _t: list[Cite]) -> ZocClass:
    """zoc_class, recording in _t each rule it uses."""
    # out_of_reach: 5 (ZCS) rules/zoc-classes/zoc.rules:65
    if x.beyond_adjacent:
        _t.extend(_RULES_ZCS_5__ZCS_5_out_of_reach)
        return 'no_zoc'
    # prohibited: 5 (ZCS) rules/zoc-classes/zoc.rules:66
    if x.prohibited:
        _t.extend(_RULES_ZCS_5__ZCS_5_prohibited)
        return 'no_zoc'
    # attacked: 5 (ZCS) rules/zoc-classes/zoc.rules:67
    if u.attacked_at_minimum_odds and (not x.own_hex):
        _t.extend(_RULES_ZCS_5__ZCS_5_attacked)
        return 'no_zoc'
    # great_river: 5 (ZCS) rules/zoc-classes/zoc.rules:69
    if x.great_river:
        _t.extend(_RULES_ZCS_5__ZCS_5_great_river)
        return 'no_zoc'
    # dispersed: 5 (ZCS) rules/zoc-classes/zoc.rules:70
    if u.badly_dispersed:
        _t.extend(_RULES_ZCS_5__ZCS_5_dispersed)
        return _step_within(
            ZocClass_values,
            _ORDER_ZocClass,
            _step_within(ZocClass_values, _ORDER_ZocClass, 'no_zoc', -_t_reductions(u, x, _t)),
            _t_increases(u, x, _t),
        )
    # modified: 5 (ZCS) rules/zoc-classes/zoc.rules:72
    _t.extend(_RULES_ZCS_5__ZCS_5_modified)
    return _step_within(
        ZocClass_values,
        _ORDER_ZocClass,
        _step_within(
            ZocClass_values,
            _ORDER_ZocClass,
            _attr(_t, _CITES_UnitKind_base, UnitKind_base, u.kind),
            -_t_reductions(u, x, _t),
        ),
        _t_increases(u, x, _t),
    )


# rules/zoc-classes/zoc.rules:64  5  Zones of Control (ZOC)
def explain_zoc_class(u: ZUnit, x: Into) -> Answer[ZocClass]:
    """The ZOC class a unit exerts into a hex (5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_zoc_class(u, x, _t)
    return Answer(_value, _rules(_t), ())


# ---- input checked at the boundary ---------------------------------------------

STATE_SCHEMA: Final[dict[str, Any]] = {
    '$defs': {
        'Into': {
            'additionalProperties': False,
            'allOf': [
                {
                    'description': (
                        "own_hex_is_in_reach (5: A unit's own hex is not beyond its adjacent hexes): not (x.own_hex "
                        'and x.beyond_adjacent)'
                    ),
                    'if': {'properties': {'own_hex': {'const': True}}, 'required': ['own_hex']},
                    'then': {'properties': {'beyond_adjacent': {'const': False}}},
                    'x-rulec-invariant': {
                        'checks': ['beyond_adjacent', 'own_hex'],
                        'exact': True,
                        'expression': 'not (x.own_hex and x.beyond_adjacent)',
                        'name': 'own_hex_is_in_reach',
                        'rule': '5',
                        'title': "A unit's own hex is not beyond its adjacent hexes",
                    },
                },
            ],
            'description': (
                'The hex (and hexside) a ZOC is exerted into. Its invariants, in allOf (a field left out counts as its '
                "default): own_hex_is_in_reach (5: A unit's own hex is not beyond its adjacent hexes): not (x.own_hex "
                'and x.beyond_adjacent)'
            ),
            'properties': {
                'arctic': {'description': 'Into the Arctic (weather zone A)', 'type': 'boolean'},
                'bad_hexside': {'description': 'Across a bad terrain hexside', 'type': 'boolean'},
                'bad_terrain': {'description': 'Into a bad terrain hex', 'type': 'boolean'},
                'beyond_adjacent': {
                    'description': "Neither the unit's own hex nor one of the six hexes adjacent to it",
                    'type': 'boolean',
                },
                'great_river': {'description': 'Across a great river hexside or a narrow strait', 'type': 'boolean'},
                'major_river': {'description': 'Across an unfrozen major river hexside', 'type': 'boolean'},
                'movement': {
                    'description': "Affecting another unit's movement (in a movement phase)",
                    'type': 'boolean',
                },
                'own_hex': {'description': 'The hex the unit occupies', 'type': 'boolean'},
                'partisan': {'description': 'Against a partisan mode unit', 'type': 'boolean'},
                'prohibited': {
                    'description': (
                        'Terrain or a hexside the unit may not enter or cross (e.g. all-sea in clear weather)'
                    ),
                    'type': 'boolean',
                },
            },
            'required': [],
            'type': 'object',
        },
        'ZUnit': {
            'additionalProperties': False,
            'allOf': [
                {
                    'allOf': [
                        {'properties': {'supply_reductions': {'minimum': 0}}},
                        {'properties': {'surprise_turn_reductions': {'minimum': 0}}},
                    ],
                    'description': (
                        'reductions_not_negative (5.A.3: A rule reduces a ZOC by no fewer than zero levels): '
                        'u.supply_reductions >= 0 and u.surprise_turn_reductions >= 0'
                    ),
                    'x-rulec-invariant': {
                        'checks': ['supply_reductions', 'surprise_turn_reductions'],
                        'exact': True,
                        'expression': 'u.supply_reductions >= 0 and u.surprise_turn_reductions >= 0',
                        'name': 'reductions_not_negative',
                        'rule': '5.A.3',
                        'title': 'A rule reduces a ZOC by no fewer than zero levels',
                    },
                },
            ],
            'description': (
                'A unit exerting a ZOC. Its invariants, in allOf (a field left out counts as its default): '
                'reductions_not_negative (5.A.3: A rule reduces a ZOC by no fewer than zero levels): '
                'u.supply_reductions >= 0 and u.surprise_turn_reductions >= 0'
            ),
            'properties': {
                'aa_or_at': {'description': 'An AA or AT unit', 'type': 'boolean'},
                'armour': {'description': 'Has the armour symbol (motorized infantry does not)', 'type': 'boolean'},
                'artillery': {'description': 'An artillery unit', 'type': 'boolean'},
                'artillery_support': {
                    'description': 'Receives support from artillery, or is the artillery providing it (9.A)',
                    'type': 'boolean',
                },
                'assaulted': {
                    'description': 'Made an amphibious or airborne assault this player-turn',
                    'type': 'boolean',
                },
                'attacked_at_minimum_odds': {
                    'description': 'Being attacked at minimum odds or higher',
                    'type': 'boolean',
                },
                'badly_dispersed': {'description': 'Badly dispersed', 'type': 'boolean'},
                'even_mp_markers': {
                    '$ref': '#/$defs/rulec:int',
                    'description': 'Even numbered "+ # MP" markers on the unit',
                },
                'has_apzoc': {'description': 'Has an anti-partisan ZOC', 'type': 'boolean'},
                'in_bad_terrain': {'description': 'Occupies bad terrain (3.F.1.a)', 'type': 'boolean'},
                'in_reserve': {'description': 'In reserve', 'type': 'boolean'},
                'kind': {
                    'description': 'What the unit is',
                    'enum': [
                        'division',
                        'divisional_grouping',
                        'corps',
                        'corps_army_marker',
                        'port_fortification',
                        'brigade',
                        'brigade_grouping',
                        'regiment',
                        'cadre',
                        'hq',
                        'battalion',
                        'remnant',
                        'fort',
                        'battery',
                    ],
                },
                'partisan_mode': {'description': 'A partisan mode unit', 'type': 'boolean'},
                'screened': {'description': 'Screened', 'type': 'boolean'},
                'supply_reductions': {
                    '$ref': '#/$defs/rulec:int',
                    'description': 'Levels the supply rules reduce its ZOC by (not in this source)',
                },
                'surprise_turn_reductions': {
                    '$ref': '#/$defs/rulec:int',
                    'description': 'Levels the surprise turn rules reduce its ZOC by (not in this source)',
                },
                'unsupported': {'description': 'Unsupported (9.A)', 'type': 'boolean'},
            },
            'required': [],
            'type': 'object',
        },
        'rulec:int': {
            'description': 'A whole number (1, 1.0 and 1e3 are whole; at most 1,200 digits).',
            'exclusiveMaximum': 10 ** 1200,
            'exclusiveMinimum': -10 ** 1200,
            'type': 'integer',
        },
    },
    '$schema': 'https://json-schema.org/draft/2020-12/schema',
    'additionalProperties': {
        'oneOf': [
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'ZUnit'}, 'value': {'$ref': '#/$defs/ZUnit'}},
                'required': ['record', 'value'],
                'type': 'object',
            },
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'Into'}, 'value': {'$ref': '#/$defs/Into'}},
                'required': ['record', 'value'],
                'type': 'object',
            },
        ],
    },
    'description': (
        'Named values for rulec eval --state: each property names a record of this ruleset and gives its fields, as '
        '{"h": {"record": "Hex", "value": {...}}}. A value is valid exactly when the generated module\'s from_json '
        'reads it: its records\' invariants are here too, each in its record\'s allOf, marked with "x-rulec-invariant".'
    ),
    'propertyNames': {'pattern': '^[A-Za-z][A-Za-z0-9_]*$'},
    'title': 'Game state for Zones of Control by class (ZCS)',
    'type': 'object',
}
_FIELDS: Final[dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]]] = {
    'ZUnit': (
        (
            'kind',
            'enum UnitKind',
            (
                'division',
                'divisional_grouping',
                'corps',
                'corps_army_marker',
                'port_fortification',
                'brigade',
                'brigade_grouping',
                'regiment',
                'cadre',
                'hq',
                'battalion',
                'remnant',
                'fort',
                'battery',
            ),
        ),
        ('badly_dispersed', 'bool', ()),
        ('armour', 'bool', ()),
        ('artillery', 'bool', ()),
        ('aa_or_at', 'bool', ()),
        ('in_reserve', 'bool', ()),
        ('even_mp_markers', 'int', ()),
        ('screened', 'bool', ()),
        ('partisan_mode', 'bool', ()),
        ('has_apzoc', 'bool', ()),
        ('assaulted', 'bool', ()),
        ('supply_reductions', 'int', ()),
        ('surprise_turn_reductions', 'int', ()),
        ('in_bad_terrain', 'bool', ()),
        ('unsupported', 'bool', ()),
        ('artillery_support', 'bool', ()),
        ('attacked_at_minimum_odds', 'bool', ()),
    ),
    'Into': (
        ('own_hex', 'bool', ()),
        ('beyond_adjacent', 'bool', ()),
        ('prohibited', 'bool', ()),
        ('great_river', 'bool', ()),
        ('major_river', 'bool', ()),
        ('bad_hexside', 'bool', ()),
        ('bad_terrain', 'bool', ()),
        ('arctic', 'bool', ()),
        ('movement', 'bool', ()),
        ('partisan', 'bool', ()),
    ),
}
_RENAMED: Final[frozenset[str]] = frozenset([])
_CHECKS_RENAMED: Final[dict[str, str]] = {}  # named like a Python keyword or helper
_RECORD_CLASSES: Final[dict[str, Any]] = {'ZUnit': ZUnit, 'Into': Into}
_INVARIANTS: Final[
    dict[
        str,
        tuple[
            tuple[Callable[[Any], bool], str, str, tuple[str, ...], tuple[tuple[str, Callable[[Any], bool]], ...]], ...
        ],
    ]
] = {
    'ZUnit': (
        (
            reductions_not_negative,
            '5.A.3',
            'A rule reduces a ZOC by no fewer than zero levels',
            ('supply_reductions', 'surprise_turn_reductions'),
            (
                ('supply_reductions', lambda u: u.supply_reductions >= 0),
                ('surprise_turn_reductions', lambda u: u.surprise_turn_reductions >= 0),
            ),
        ),
    ),
    'Into': (
        (
            own_hex_is_in_reach,
            '5',
            "A unit's own hex is not beyond its adjacent hexes",
            ('beyond_adjacent', 'own_hex'),
            (),
        ),
    ),
}
_ENUM_VALUES: Final[dict[str, tuple[str, ...]]] = {
    'Works': Works_values, 'UnitKind': UnitKind_values, 'ZocClass': ZocClass_values
}


def zunit_from_json(data: Any) -> ZUnit:
    """A ZUnit from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values.
    """
    value = from_json('ZUnit', data, 'zunit')
    assert isinstance(value, ZUnit)
    return value


def into_from_json(data: Any) -> Into:
    """A Into from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values.
    """
    value = from_json('Into', data, 'into')
    assert isinstance(value, Into)
    return value


__all__ = [
    'Answer',
    'Cite',
    'GAME',
    'GAME_VERSION',
    'Into',
    'InvalidInput',
    'LAYERS',
    'MANIFEST',
    'Number',
    'OPTIONS',
    'RULEC_VERSION',
    'RULESET',
    'RULESET_HASH',
    'RuleError',
    'SCALE',
    'SCENARIO',
    'SERIES',
    'SERIES_VERSION',
    'STATE_SCHEMA',
    'TITLE',
    'UnitKind',
    'UnitKind_base',
    'UnitKind_titles',
    'UnitKind_values',
    'Violation',
    'Works',
    'Works_titles',
    'Works_values',
    'ZUnit',
    'ZocClass',
    'ZocClass_red_modifier',
    'ZocClass_supply_multiplier',
    'ZocClass_titles',
    'ZocClass_values',
    'all_stacks_screened',
    'all_stacks_screened_in_reaction',
    'apzoc_affects',
    'combat_supply',
    'explain_all_stacks_screened',
    'explain_all_stacks_screened_in_reaction',
    'explain_apzoc_affects',
    'explain_combat_supply',
    'explain_ezoc_negated_in_reaction',
    'explain_increases',
    'explain_leaves_at_reduced_rate',
    'explain_may_screen',
    'explain_own_hex_is_in_reach',
    'explain_red_result_modifier',
    'explain_reductions',
    'explain_reductions_not_negative',
    'explain_reserve_pays_class',
    'explain_screened_after_combat',
    'explain_screened_class',
    'explain_screened_class_in_reaction',
    'explain_screened_in_reaction',
    'explain_screening_left',
    'explain_stack_zoc',
    'explain_stacks_one_unit_screens',
    'explain_terrain_reductions',
    'explain_zoc_class',
    'ezoc_negated_in_reaction',
    'from_json',
    'increases',
    'into_from_json',
    'leaves_at_reduced_rate',
    'may_screen',
    'own_hex_is_in_reach',
    'red_result_modifier',
    'reductions',
    'reductions_not_negative',
    'reserve_pays_class',
    'screened_after_combat',
    'screened_class',
    'screened_class_in_reaction',
    'screened_in_reaction',
    'screening_left',
    'stack_zoc',
    'stacks_one_unit_screens',
    'terrain_reductions',
    'to_json',
    'zoc_class',
    'zunit_from_json',
]
