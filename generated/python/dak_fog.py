"""Deutsches Afrika Korps with the Fog of War Option (13.7b): rule checks compiled by rulec 0.1.0.

series OCS (Operational Combat Series) version 4.3; game DAK (Deutsches Afrika Korps) version II; options: fog_of_war.

Generated from rules/dak/dak.rules, rules/ocs/ch13-specialized-units.rules,
rules/ocs/ch4-general-concepts.rules, rules/ocs/option-fog-of-war.rules, rules/ocs/series.rules by
`rulec build`; do not edit.
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
from typing import Any, Final, Generic, Literal, TypeVar, cast

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


def _scaled(x: Number) -> Number:
    """An exact value (a record's field) as this module carries it, x * SCALE: an int when that is
    whole, as the rules' fractions are (a printed 1/2 RE is 2 quarters), so what it is added to
    stays an int and never goes over to Fraction arithmetic, tens of times as slow."""
    if type(x) is int:
        return x * SCALE
    d = x.denominator
    if SCALE % d == 0:
        return x.numerator * (SCALE // d)
    return x * SCALE


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


def _product(items: Iterable[Number]) -> Number:
    result: Number = SCALE
    for x in items:
        result = _mul(result, x)
    return result


# sum, count and the product of whole numbers through these: mypy can read the builtins' overloads
# wrongly (against sum's bool overload) when a generic helper or a lambda makes the items.
def _sum(items: Iterable[N]) -> N:
    return sum(items)


def _count(items: Iterable[object]) -> int:
    return sum(1 for _ in items)


def _nmin(*xs: Number) -> Number:
    return min(xs)


def _nmax(*xs: Number) -> Number:
    return max(xs)


class _Nothing:
    """What next() gives where no item passes `where`."""


# Any to mypy, so that it reads next(items, _NOTHING) as of the items' type: with a union of the two,
# the items themselves would be inferred against it (min(..., key=...) over list values refused).
_NOTHING: Final[Any] = _Nothing()


def _first(found: T) -> T:
    """`first(...)`, written `_first(next((x for x in items if ...), _NOTHING))`: next() stops at the
    first item that passes, here and compiled (mypyc builds the whole list of a generator given to a
    function of its own, which would run the test on every item and cite the rules of each)."""
    if isinstance(found, _Nothing):
        raise RuleError("first of nothing: no item passes 'where'")
    return found


def _cite(t: list[Cite], cites: tuple[Cite, ...], value: T) -> T:
    t.extend(cites)
    return value


# The same for yes/no values, not generic: mypy would take T from the context (Literal[True], the
# left side of an `and` it has narrowed) and then refuse a bool.
def _attr_yes(t: list[Cite], cites: Mapping[Any, tuple[Cite, ...]], table: Mapping[Any, bool], key: Any) -> bool:
    t.extend(cites[key])
    return table[key]


def _cite_yes(t: list[Cite], cites: tuple[Cite, ...], value: bool) -> bool:
    t.extend(cites)
    return value


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

RULESET: Final = 'DAK_fog'
# which rules this module runs: a hash of the rules as resolved (not of where they are written)
RULESET_HASH: Final = 'sha256:0ea015aba66409b5f0c064e1e9e762c0'
RULEC_VERSION: Final = '0.1.0'
TITLE: Final = 'Deutsches Afrika Korps with the Fog of War Option (13.7b)'
SERIES: Final[str | None] = 'OCS'
SERIES_VERSION: Final[str | None] = '4.3'
GAME: Final[str | None] = 'DAK'
GAME_VERSION: Final[str | None] = 'II'
SCENARIO: Final[str | None] = None
OPTIONS: Final[tuple[str, ...]] = ('fog_of_war',)
LAYERS: Final[tuple[str, ...]] = ('OCS', 'DAK', 'fog_of_war')
MANIFEST: Final[dict[str, Any]] = {
    'game': {'name': 'DAK', 'title': 'Deutsches Afrika Korps', 'version': 'II'},
    'layers': ['OCS', 'DAK', 'fog_of_war'],
    'options': [{'name': 'fog_of_war', 'title': 'Fog of War Option (13.7b)', 'version': None}],
    'ruleset': 'DAK_fog',
    'scenario': None,
    'series': {'name': 'OCS', 'title': 'Operational Combat Series', 'version': '4.3'},
    'title': 'Deutsches Afrika Korps with the Fog of War Option (13.7b)',
}

_CITE_DAK_1_2_jock_column: Final[Cite] = Cite(
    layer='DAK',
    clause='1.2',
    item='jock_column',
    title='ILLUSTRATIVE: a Jock Column company counts as 1/2 RE',
    note=None,
)
_CITE_DAK_4_5a_F: Final[Cite] = Cite(
    layer='DAK',
    clause='4.5a',
    item='F',
    title='Port Operations - Trace Supply',
    note='In either edition of DAK, units do not negate EZOCs for Port Operations (F).',
)
_CITE_OCS_12_5: Final[Cite] = Cite(layer='OCS', clause='12.5', item=None, title='Fuel Supply', note=None)
_CITE_OCS_12_5_leg: Final[Cite] = Cite(
    layer='OCS', clause='12.5', item='leg', title='Leg units need no fuel', note=None
)
_CITE_OCS_12_5_motorized: Final[Cite] = Cite(
    layer='OCS', clause='12.5', item='motorized', title='Truck and Track units need fuel', note=None
)
_CITE_OCS_13_1_hq: Final[Cite] = Cite(
    layer='OCS',
    clause='13.1',
    item='hq',
    title='HQs are 1 RE, regardless of what is on the unit designation',
    note=None,
)
_CITE_OCS_13_1a: Final[Cite] = Cite(layer='OCS', clause='13.1a', item=None, title='HQs and Modes', note=None)
_CITE_OCS_13_1c: Final[Cite] = Cite(layer='OCS', clause='13.1c', item=None, title='HQs and Combat', note=None)
_CITE_OCS_13_1c_hq: Final[Cite] = Cite(
    layer='OCS', clause='13.1c', item='hq', title='HQs have only a parenthesized (defensive-only) strength', note=None
)
_CITE_OCS_13_1c_hq_combat: Final[Cite] = Cite(
    layer='OCS', clause='13.1c', item='hq_combat', title='HQ in Combat Mode: (5)', note=None
)
_CITE_OCS_13_1c_hq_combat_side: Final[Cite] = Cite(
    layer='OCS',
    clause='13.1c',
    item='hq_combat_side',
    title='HQ under a marker oriented toward Combat Mode: the (5) of its Combat Mode side (5.10e)',
    note=None,
)
_CITE_OCS_13_1c_hq_move: Final[Cite] = Cite(
    layer='OCS', clause='13.1c', item='hq_move', title='HQ in Move Mode: (1)', note=None
)
_CITE_OCS_13_1c_hq_move_side: Final[Cite] = Cite(
    layer='OCS',
    clause='13.1c',
    item='hq_move_side',
    title='HQ in Strat Mode or oriented toward Move Mode: the (1) of its Move Mode side',
    note=None,
)
_CITE_OCS_13_1c_printed: Final[Cite] = Cite(
    layer='OCS', clause='13.1c', item='printed', title='Others: as printed on the counter', note=None
)
_CITE_OCS_13_1d: Final[Cite] = Cite(layer='OCS', clause='13.1d', item=None, title='Special HQs', note=None)
_CITE_OCS_13_2a: Final[Cite] = Cite(
    layer='OCS', clause='13.2a', item=None, title='Sequencing Transport/Supply', note=None
)
_CITE_OCS_13_2a_barrage_cost: Final[Cite] = Cite(
    layer='OCS', clause='13.2a', item='barrage_cost', title='Barrage', note=None
)
_CITE_OCS_13_2a_combat_cost: Final[Cite] = Cite(
    layer='OCS', clause='13.2a', item='combat_cost', title='Combat', note=None
)
_CITE_OCS_13_2a_construction: Final[Cite] = Cite(
    layer='OCS', clause='13.2a', item='construction', title='Construction or repair', note=None
)
_CITE_OCS_13_2a_fueling: Final[Cite] = Cite(layer='OCS', clause='13.2a', item='fueling', title='Fueling', note=None)
_CITE_OCS_13_2b: Final[Cite] = Cite(
    layer='OCS', clause='13.2b', item=None, title='Transport Points and Supply', note=None
)
_CITE_OCS_13_2b_transport: Final[Cite] = Cite(
    layer='OCS', clause='13.2b', item='transport', title='Transport Points never need fuel', note=None
)
_CITE_OCS_13_2c: Final[Cite] = Cite(layer='OCS', clause='13.2c', item=None, title='Mechanical Handling', note=None)
_CITE_OCS_13_2d: Final[Cite] = Cite(layer='OCS', clause='13.2d', item=None, title='Mode Restrictions', note=None)
_CITE_OCS_13_2e_mules: Final[Cite] = Cite(
    layer='OCS', clause='13.2e', item='mules', title='Exception: Mules can be shipped via Air Transport', note=None
)
_CITE_OCS_13_2f: Final[Cite] = Cite(layer='OCS', clause='13.2f', item=None, title='Loading and Unloading', note=None)
_CITE_OCS_13_2f_elsewhere: Final[Cite] = Cite(
    layer='OCS', clause='13.2f', item='elsewhere', title='Nowhere else', note=None
)
_CITE_OCS_13_2f_receiving_hex: Final[Cite] = Cite(
    layer='OCS',
    clause='13.2f',
    item='receiving_hex',
    title='A friendly combat unit, port, air base, or existing unloaded supply dump',
    note=None,
)
_CITE_OCS_13_2g: Final[Cite] = Cite(layer='OCS', clause='13.2g', item=None, title='Organic Trucks', note=None)
_CITE_OCS_13_2g_alone: Final[Cite] = Cite(
    layer='OCS', clause='13.2g', item='alone', title='E) Organic Trucks cannot retreat alone', note=None
)
_CITE_OCS_13_2g_organic: Final[Cite] = Cite(
    layer='OCS',
    clause='13.2g',
    item='organic',
    title='A) Organic Trucks can never unload their SP on the map',
    note=None,
)
_CITE_OCS_13_2g_others: Final[Cite] = Cite(
    layer='OCS',
    clause='13.2g',
    item='others',
    title='Other Transport Points do not: tagging along is an exception for Organic Trucks (their combat: 9.14c)',
    note=None,
)
_CITE_OCS_13_2g_tag_along: Final[Cite] = Cite(
    layer='OCS',
    clause='13.2g',
    item='tag_along',
    title='E) Organic Trucks tag along with other retreating combat units in their stack',
    note=None,
)
_CITE_OCS_13_2i: Final[Cite] = Cite(layer='OCS', clause='13.2i', item=None, title=None, note=None)
_CITE_OCS_13_3a: Final[Cite] = Cite(layer='OCS', clause='13.3a', item=None, title=None, note=None)
_CITE_OCS_13_3b: Final[Cite] = Cite(layer='OCS', clause='13.3b', item=None, title=None, note=None)
_CITE_OCS_13_3c: Final[Cite] = Cite(layer='OCS', clause='13.3c', item=None, title='Detrainable Hexes', note=None)
_CITE_OCS_13_3d: Final[Cite] = Cite(layer='OCS', clause='13.3d', item=None, title='Railheads', note=None)
_CITE_OCS_13_3e: Final[Cite] = Cite(layer='OCS', clause='13.3e', item=None, title=None, note=None)
_CITE_OCS_13_3e_detrain: Final[Cite] = Cite(
    layer='OCS', clause='13.3e', item='detrain', title='3) A detrainable hex not in an enemy ZOC', note=None
)
_CITE_OCS_13_3e_entrain: Final[Cite] = Cite(
    layer='OCS',
    clause='13.3e',
    item='entrain',
    title='1) A detrainable hex not in an enemy ZOC; a unit must be in Move Mode',
    note=None,
)
_CITE_OCS_13_3e_no: Final[Cite] = Cite(layer='OCS', clause='13.3e', item='no', title='Not otherwise', note=None)
_CITE_OCS_13_3f: Final[Cite] = Cite(layer='OCS', clause='13.3f', item=None, title='Rail Conversion', note=None)
_CITE_OCS_13_3g: Final[Cite] = Cite(layer='OCS', clause='13.3g', item=None, title='Rail Repair Units', note=None)
_CITE_OCS_13_3g_rail_repair: Final[Cite] = Cite(
    layer='OCS',
    clause='13.3g',
    item='rail_repair',
    title='B, C) Rail Repair units entrain in any railroad hex not in an enemy ZOC (13.3e 1), in Combat Mode too',
    note=None,
)
_CITE_OCS_13_3g_rail_repair_: Final[Cite] = Cite(
    layer='OCS',
    clause='13.3g',
    item='rail_repair',
    title=(
        'C) Rail Repair units detrain in any railroad hex not in an enemy ZOC (13.3e 3) nor holding enemy units (4.8c '
        'D)'
    ),
    note=None,
)
_CITE_OCS_13_3g_rail_repair__: Final[Cite] = Cite(
    layer='OCS',
    clause='13.3g',
    item='rail_repair',
    title='B) Rail Repair units: their full MA in all, less any movement done before entraining',
    note=None,
)
_CITE_OCS_13_3g_rail_repair___: Final[Cite] = Cite(
    layer='OCS',
    clause='13.3g',
    item='rail_repair',
    title='B) Rail Repair units can move their full MA after rail movement',
    note=None,
)
_CITE_OCS_13_3h: Final[Cite] = Cite(layer='OCS', clause='13.3h', item=None, title='Railroad Control', note=None)
_CITE_OCS_13_4a: Final[Cite] = Cite(layer='OCS', clause='13.4a', item=None, title=None, note=None)
_CITE_OCS_13_4b_artillery: Final[Cite] = Cite(
    layer='OCS', clause='13.4b', item='artillery', title='Artillery: (1) in both Combat and Move Mode', note=None
)
_CITE_OCS_13_4b_artillery_: Final[Cite] = Cite(
    layer='OCS',
    clause='13.4b',
    item='artillery',
    title='Artillery has only a parenthesized (defensive-only) strength',
    note=None,
)
_CITE_OCS_13_5: Final[Cite] = Cite(layer='OCS', clause='13.5', item=None, title='Replacement Units', note=None)
_CITE_OCS_13_5a: Final[Cite] = Cite(layer='OCS', clause='13.5a', item=None, title='Replacing Losses', note=None)
_CITE_OCS_13_5b: Final[Cite] = Cite(layer='OCS', clause='13.5b', item=None, title=None, note=None)
_CITE_OCS_13_5b_breakdown: Final[Cite] = Cite(
    layer='OCS',
    clause='13.5b',
    item='breakdown',
    title='Generics like Breakdown units cannot usually be rebuilt',
    note=None,
)
_CITE_OCS_13_5b_dead_pile: Final[Cite] = Cite(
    layer='OCS',
    clause='13.5b',
    item='dead_pile',
    title='A unit in the Dead Pile, whatever its supply and mode',
    note=None,
)
_CITE_OCS_13_5b_others: Final[Cite] = Cite(
    layer='OCS',
    clause='13.5b',
    item='others',
    title='Generally, only units in the Dead Pile and on-map reduced units can be rebuilt',
    note=None,
)
_CITE_OCS_13_5b_reduced: Final[Cite] = Cite(
    layer='OCS', clause='13.5b', item='reduced', title='An on-map reduced unit, whatever its supply and mode', note=None
)
_CITE_OCS_13_5c_yellow_dot: Final[Cite] = Cite(
    layer='OCS', clause='13.5c', item='yellow_dot', title='A Yellow dot behind the AR: never rebuilt', note=None
)
_CITE_OCS_13_5d: Final[Cite] = Cite(layer='OCS', clause='13.5d', item=None, title='One Repl for Two Units', note=None)
_CITE_OCS_13_5e: Final[Cite] = Cite(layer='OCS', clause='13.5e', item=None, title='Truck Rebuilds', note=None)
_CITE_OCS_13_5f: Final[Cite] = Cite(layer='OCS', clause='13.5f', item=None, title='Air Replacements', note=None)
_CITE_OCS_13_6: Final[Cite] = Cite(layer='OCS', clause='13.6', item=None, title='Reinforcements', note=None)
_CITE_OCS_13_6_elsewhere: Final[Cite] = Cite(
    layer='OCS', clause='13.6', item='elsewhere', title='Reinforcements are placed in their entry hexes', note=None
)
_CITE_OCS_13_6_entry: Final[Cite] = Cite(
    layer='OCS', clause='13.6', item='entry', title='In their entry hexes', note=None
)
_CITE_OCS_13_6a: Final[Cite] = Cite(layer='OCS', clause='13.6a', item=None, title=None, note=None)
_CITE_OCS_13_6b: Final[Cite] = Cite(layer='OCS', clause='13.6b', item=None, title=None, note=None)
_CITE_OCS_13_6b_nearest_edge: Final[Cite] = Cite(
    layer='OCS',
    clause='13.6b',
    item='nearest_edge',
    title='A map-edge arrival hex blocked by enemy units: the nearest unblocked map-edge hex',
    note=None,
)
_CITE_OCS_13_6c: Final[Cite] = Cite(layer='OCS', clause='13.6c', item=None, title=None, note=None)
_CITE_OCS_13_7: Final[Cite] = Cite(layer='OCS', clause='13.7', item=None, title='Formation Markers', note=None)
_CITE_OCS_13_7a: Final[Cite] = Cite(layer='OCS', clause='13.7a', item=None, title='Supply Concerns', note=None)
_CITE_OCS_13_8: Final[Cite] = Cite(layer='OCS', clause='13.8', item=None, title='Engineer Functions', note=None)
_CITE_OCS_13_8a: Final[Cite] = Cite(layer='OCS', clause='13.8a', item=None, title='Engineer-Capable', note=None)
_CITE_OCS_13_8b: Final[Cite] = Cite(layer='OCS', clause='13.8b', item=None, title='Bridging', note=None)
_CITE_OCS_13_8b_capable: Final[Cite] = Cite(
    layer='OCS', clause='13.8b', item='capable', title='While the unit is Engineer-Capable', note=None
)
_CITE_OCS_13_8b_gone: Final[Cite] = Cite(
    layer='OCS',
    clause='13.8b',
    item='gone',
    title='Bridging disappears the instant the unit is no longer Engineer-Capable',
    note=None,
)
_CITE_OCS_13_8b_major: Final[Cite] = Cite(
    layer='OCS', clause='13.8b', item='major', title='Major River costs as a Minor River', note=None
)
_CITE_OCS_13_8b_minor: Final[Cite] = Cite(
    layer='OCS', clause='13.8b', item='minor', title='Minor River costs nothing extra', note=None
)
_CITE_OCS_13_8b_overrun: Final[Cite] = Cite(
    layer='OCS', clause='13.8b', item='overrun', title='No bridging for an overrun across a river', note=None
)
_CITE_OCS_13_8b_own_bridge: Final[Cite] = Cite(
    layer='OCS',
    clause='13.8b',
    item='own_bridge',
    title='Exception: the unit uses its own bridge to leave the hex after changing mode or orientation',
    note=None,
)
_CITE_OCS_13_8b_unbridged: Final[Cite] = Cite(
    layer='OCS', clause='13.8b', item='unbridged', title='No Engineer-Capable unit: as printed', note=None
)
_CITE_OCS_13_8c: Final[Cite] = Cite(layer='OCS', clause='13.8c', item=None, title='Detrainable Creation', note=None)
_CITE_OCS_13_8c_hq_itself: Final[Cite] = Cite(
    layer='OCS',
    clause='13.8c',
    item='hq_itself',
    title='Exception: an Engineer-Capable HQ can entrain itself before switching to Move Mode',
    note=None,
)
_CITE_OCS_13_8d: Final[Cite] = Cite(layer='OCS', clause='13.8d', item=None, title='Construction', note=None)
_CITE_OCS_13_8d_build_air_base: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='build_air_base', title='Build an Air Base', note=None
)
_CITE_OCS_13_8d_build_hedgehog: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='build_hedgehog', title='Build a Hedgehog', note=None
)
_CITE_OCS_13_8d_damage_port: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='damage_port', title='Damage a Port', note=None
)
_CITE_OCS_13_8d_improve_air_base: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='improve_air_base', title='Improve an Air Base', note=None
)
_CITE_OCS_13_8d_improve_hedgehog: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='improve_hedgehog', title='Improve a Hedgehog', note=None
)
_CITE_OCS_13_8d_reduce_air_base: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='reduce_air_base', title='Reduce an Air Base', note=None
)
_CITE_OCS_13_8d_reduce_hedgehog: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='reduce_hedgehog', title='Reduce a Hedgehog', note=None
)
_CITE_OCS_13_8d_repair_port: Final[Cite] = Cite(
    layer='OCS', clause='13.8d', item='repair_port', title='Repair a Port', note=None
)
_CITE_OCS_13_9: Final[Cite] = Cite(layer='OCS', clause='13.9', item=None, title='Unit Consolidation', note=None)
_CITE_OCS_3_3: Final[Cite] = Cite(layer='OCS', clause='3.3', item=None, title='Non-Combat Units', note=None)
_CITE_OCS_3_3_air_base: Final[Cite] = Cite(layer='OCS', clause='3.3', item='air_base', title='Air base', note=None)
_CITE_OCS_3_3_artillery: Final[Cite] = Cite(layer='OCS', clause='3.3', item='artillery', title='Artillery', note=None)
_CITE_OCS_3_3_assault_engineer: Final[Cite] = Cite(
    layer='OCS', clause='3.3', item='assault_engineer', title='Assault Engineer', note=None
)
_CITE_OCS_3_3_combat_unit: Final[Cite] = Cite(
    layer='OCS', clause='3.3', item='combat_unit', title='Combat unit', note=None
)
_CITE_OCS_3_3_engineer: Final[Cite] = Cite(layer='OCS', clause='3.3', item='engineer', title='Engineer', note=None)
_CITE_OCS_3_3_fighter: Final[Cite] = Cite(
    layer='OCS', clause='3.3', item='fighter', title='Fighter (an air unit)', note=None
)
_CITE_OCS_3_3_hedgehog: Final[Cite] = Cite(layer='OCS', clause='3.3', item='hedgehog', title='Hedgehog', note=None)
_CITE_OCS_3_3_hq: Final[Cite] = Cite(layer='OCS', clause='3.3', item='hq', title='HQ', note=None)
_CITE_OCS_3_3_other_plane: Final[Cite] = Cite(
    layer='OCS', clause='3.3', item='other_plane', title='Air unit other than a fighter', note=None
)
_CITE_OCS_3_3_para_glider_engineer: Final[Cite] = Cite(
    layer='OCS', clause='3.3', item='para_glider_engineer', title='Para/Glider Engineer', note=None
)
_CITE_OCS_3_3_pioneer: Final[Cite] = Cite(layer='OCS', clause='3.3', item='pioneer', title='Pioneer', note=None)
_CITE_OCS_3_3_port: Final[Cite] = Cite(layer='OCS', clause='3.3', item='port', title='Port', note=None)
_CITE_OCS_3_3_rail_repair: Final[Cite] = Cite(
    layer='OCS', clause='3.3', item='rail_repair', title='Rail Repair', note=None
)
_CITE_OCS_3_3_repl: Final[Cite] = Cite(layer='OCS', clause='3.3', item='repl', title='Replacement (Repl)', note=None)
_CITE_OCS_3_3_sp: Final[Cite] = Cite(layer='OCS', clause='3.3', item='sp', title='Supply Points (SP)', note=None)
_CITE_OCS_3_3_transport: Final[Cite] = Cite(
    layer='OCS', clause='3.3', item='transport', title='Transport Point', note=None
)
_CITE_OCS_4_1: Final[Cite] = Cite(layer='OCS', clause='4.1', item=None, title='Rounding Rule', note=None)
_CITE_OCS_4_2: Final[Cite] = Cite(layer='OCS', clause='4.2', item=None, title='Fractions', note=None)
_CITE_OCS_4_2_attacker: Final[Cite] = Cite(
    layer='OCS',
    clause='4.2',
    item='attacker',
    title='N to 1: the attack strength over the defense strength, rounded per 4.1',
    note=None,
)
_CITE_OCS_4_2_defender: Final[Cite] = Cite(
    layer='OCS',
    clause='4.2',
    item='defender',
    title='Below 1:1, 1 to N: the defense strength over the attack strength, rounded per 4.1',
    note=None,
)
_CITE_OCS_4_3: Final[Cite] = Cite(layer='OCS', clause='4.3', item=None, title='Cumulative Effects', note=None)
_CITE_OCS_4_4: Final[Cite] = Cite(layer='OCS', clause='4.4', item=None, title='Attack-Capable Units', note=None)
_CITE_OCS_4_4_capable: Final[Cite] = Cite(
    layer='OCS',
    clause='4.4',
    item='capable',
    title='Combat units with printed Combat Strengths (a printed zero counts)',
    note=None,
)
_CITE_OCS_4_4_not_combat: Final[Cite] = Cite(
    layer='OCS', clause='4.4', item='not_combat', title='Only combat units can be Attack-Capable', note=None
)
_CITE_OCS_4_4_parenthesized: Final[Cite] = Cite(
    layer='OCS',
    clause='4.4',
    item='parenthesized',
    title='Not with a parenthesized (or no printed) Combat Strength',
    note=None,
)
_CITE_OCS_4_4_strat_reserve: Final[Cite] = Cite(
    layer='OCS', clause='4.4', item='strat_reserve', title='Not in Strat Mode or Reserve Mode', note=None
)
_CITE_OCS_4_4a: Final[Cite] = Cite(layer='OCS', clause='4.4a', item=None, title=None, note=None)
_CITE_OCS_4_4b: Final[Cite] = Cite(layer='OCS', clause='4.4b', item=None, title=None, note=None)
_CITE_OCS_4_4b_none: Final[Cite] = Cite(
    layer='OCS',
    clause='4.4b',
    item='none',
    title='Units in other modes (or Out of Supply) do not have a ZOC',
    note=None,
)
_CITE_OCS_4_4b_zoc: Final[Cite] = Cite(
    layer='OCS',
    clause='4.4b',
    item='zoc',
    title='Attack-Capable, in Combat Mode and not marked Out of Supply',
    note=None,
)
_CITE_OCS_4_4c: Final[Cite] = Cite(layer='OCS', clause='4.4c', item=None, title=None, note=None)
_CITE_OCS_4_5: Final[Cite] = Cite(layer='OCS', clause='4.5', item=None, title='Zone of Control', note=None)
_CITE_OCS_4_5_exploitation: Final[Cite] = Cite(
    layer='OCS', clause='4.5', item='exploitation', title='Exception: Exploitation Mode, as 5.9c says', note=None
)
_CITE_OCS_4_5a: Final[Cite] = Cite(
    layer='OCS', clause='4.5a', item=None, title='Actions not allowed in an enemy ZOC', note=None
)
_CITE_OCS_4_5a_A: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='A', title='Truck Movement', note=None)
_CITE_OCS_4_5a_B: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='B', title='Supply Lines', note=None)
_CITE_OCS_4_5a_C: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='C', title='Rail Transport - Literal', note=None)
_CITE_OCS_4_5a_D: Final[Cite] = Cite(
    layer='OCS', clause='4.5a', item='D', title='Rail Transport - Trace Supply', note=None
)
_CITE_OCS_4_5a_E: Final[Cite] = Cite(
    layer='OCS', clause='4.5a', item='E', title='Rail Conversion operations', note=None
)
_CITE_OCS_4_5a_F: Final[Cite] = Cite(
    layer='OCS', clause='4.5a', item='F', title='Port Operations - Trace Supply', note=None
)
_CITE_OCS_4_5a_G: Final[Cite] = Cite(
    layer='OCS', clause='4.5a', item='G', title='Port Operations-Literal, Using Sea Cap', note=None
)
_CITE_OCS_4_5a_H: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='H', title='Aircraft Refit', note=None)
_CITE_OCS_4_5a_I: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='I', title='Reserve Mode', note=None)
_CITE_OCS_4_5a_J: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='J', title='Strat Mode', note=None)
_CITE_OCS_4_5a_K: Final[Cite] = Cite(layer='OCS', clause='4.5a', item='K', title='Repl Rebuilds', note=None)
_CITE_OCS_4_5a_other: Final[Cite] = Cite(
    layer='OCS', clause='4.5a', item='other', title='Other modes: only A) limits it (Truck MP)', note=None
)
_CITE_OCS_4_5a_reserve: Final[Cite] = Cite(
    layer='OCS',
    clause='4.5a',
    item='reserve',
    title='I) Once in Reserve Mode, units can enter and exit ZOC normally',
    note=None,
)
_CITE_OCS_4_5a_strat: Final[Cite] = Cite(
    layer='OCS', clause='4.5a', item='strat', title='J) Units can never enter a ZOC while in Strat Mode', note=None
)
_CITE_OCS_4_5b: Final[Cite] = Cite(layer='OCS', clause='4.5b', item=None, title='Negating ZOC', note=None)
_CITE_OCS_4_6: Final[Cite] = Cite(layer='OCS', clause='4.6', item=None, title='Regimental Equivalents', note=None)
_CITE_OCS_4_6_battalion: Final[Cite] = Cite(
    layer='OCS', clause='4.6', item='battalion', title='Battalions are 1/2 RE', note=None
)
_CITE_OCS_4_6_multi_step: Final[Cite] = Cite(
    layer='OCS',
    clause='4.6',
    item='multi_step',
    title='Multi-step units: the RE size shown on the counter, reduced by one for each step loss',
    note=None,
)
_CITE_OCS_4_6_not_combat: Final[Cite] = Cite(
    layer='OCS',
    clause='4.6',
    item='not_combat',
    title='Only ground combat units have RE sizes: any other unit counts 0 RE',
    note=None,
)
_CITE_OCS_4_6_other: Final[Cite] = Cite(
    layer='OCS', clause='4.6', item='other', title='All other sizes count as 1 RE', note=None
)
_CITE_OCS_4_6_quarter: Final[Cite] = Cite(
    layer='OCS', clause='4.6', item='quarter', title='Repl units and company-sized units are 1/4 RE', note=None
)
_CITE_OCS_4_7: Final[Cite] = Cite(layer='OCS', clause='4.7', item=None, title='Transportation Equivalents', note=None)
_CITE_OCS_4_7a_supply: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7a',
    item='supply',
    title='SP: one point of capacity for each SP (loaded SP: 4.7c)',
    note=None,
)
_CITE_OCS_4_7b: Final[Cite] = Cite(layer='OCS', clause='4.7b', item=None, title=None, note=None)
_CITE_OCS_4_7b_other: Final[Cite] = Cite(
    layer='OCS', clause='4.7b', item='other', title='All other units: the RE size', note=None
)
_CITE_OCS_4_7b_slow_leg: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7b',
    item='slow_leg',
    title='A printed Move Mode MA of 1 to 6 Leg MP: half the RE size',
    note=None,
)
_CITE_OCS_4_7c: Final[Cite] = Cite(layer='OCS', clause='4.7c', item=None, title=None, note=None)
_CITE_OCS_4_7c_by_air: Final[Cite] = Cite(layer='OCS', clause='4.7c', item='by_air', title='But not by air', note=None)
_CITE_OCS_4_7c_loaded_sp: Final[Cite] = Cite(
    layer='OCS', clause='4.7c', item='loaded_sp', title='SP loaded on a Transport Point: carried in its size', note=None
)
_CITE_OCS_4_7c_sea_or_rail: Final[Cite] = Cite(
    layer='OCS', clause='4.7c', item='sea_or_rail', title='By landing craft, rail or shipping', note=None
)
_CITE_OCS_4_7c_transport_point: Final[Cite] = Cite(
    layer='OCS', clause='4.7c', item='transport_point', title='Transport Points: their size, loaded or not', note=None
)
_CITE_OCS_4_7c_unlisted: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7c',
    item='unlisted',
    title='Only by landing craft, rail or shipping (not an ALT landing or a Beach Assault)',
    note=None,
)
_CITE_OCS_4_7d: Final[Cite] = Cite(layer='OCS', clause='4.7d', item=None, title='Movement and Transport', note=None)
_CITE_OCS_4_7d_air: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7d',
    item='air',
    title='Half MA, before and/or after Air Transport (14.9d): half in all',
    note=None,
)
_CITE_OCS_4_7d_air_: Final[Cite] = Cite(
    layer='OCS', clause='4.7d', item='air', title='Half MA before and/or after Air Transport (14.9d)', note=None
)
_CITE_OCS_4_7d_alt: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7d',
    item='alt',
    title='Half MA, after an ALT landing that requires a roll (18.5h)',
    note=None,
)
_CITE_OCS_4_7d_alt_: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7d',
    item='alt',
    title='Half MA after an ALT landing that requires a roll (18.5h), never when no roll is made',
    note=None,
)
_CITE_OCS_4_7d_landing_craft: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7d',
    item='landing_craft',
    title='Landing Craft: not one of the cases in which half MA can be spent',
    note=None,
)
_CITE_OCS_4_7d_none: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7d',
    item='none',
    title='No MP in the phase of an Air Drop, a Beach Assault or Shipping',
    note=None,
)
_CITE_OCS_4_7d_none_: Final[Cite] = Cite(
    layer='OCS',
    clause='4.7d',
    item='none',
    title='No MP after rail, an Air Drop, a Beach Assault or Shipping',
    note=None,
)
_CITE_OCS_4_7d_rail: Final[Cite] = Cite(
    layer='OCS', clause='4.7d', item='rail', title='Half MA, before rail cap (13.3c)', note=None
)
_CITE_OCS_4_7d_rail_: Final[Cite] = Cite(
    layer='OCS', clause='4.7d', item='rail', title='Half MA before, when using rail cap (13.3c)', note=None
)
_CITE_OCS_4_8: Final[Cite] = Cite(layer='OCS', clause='4.8', item=None, title='Stacking', note=None)
_CITE_OCS_4_8_air_bases: Final[Cite] = Cite(layer='OCS', clause='4.8', item='air_bases', title='Air bases', note=None)
_CITE_OCS_4_8_combat_re: Final[Cite] = Cite(
    layer='OCS', clause='4.8', item='combat_re', title='Combat units (RE)', note=None
)
_CITE_OCS_4_8_hedgehogs: Final[Cite] = Cite(layer='OCS', clause='4.8', item='hedgehogs', title='Hedgehogs', note=None)
_CITE_OCS_4_8_ports: Final[Cite] = Cite(layer='OCS', clause='4.8', item='ports', title='Ports', note=None)
_CITE_OCS_4_8a: Final[Cite] = Cite(layer='OCS', clause='4.8a', item=None, title='Overstacking', note=None)
_CITE_OCS_4_8b: Final[Cite] = Cite(layer='OCS', clause='4.8b', item=None, title='Order of Stacking', note=None)
_CITE_OCS_4_8b_buried: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8b',
    item='buried',
    title='C) If a unit with a ZOC is in a hex, it should be the top combat unit',
    note=None,
)
_CITE_OCS_4_8b_hq_on_top: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8b',
    item='hq_on_top',
    title='D) An HQ can be the top combat unit in the hex when no enemy ground units are adjacent',
    note=None,
)
_CITE_OCS_4_8b_no_zoc: Final[Cite] = Cite(
    layer='OCS', clause='4.8b', item='no_zoc', title='C) applies when a unit with a ZOC is in the hex', note=None
)
_CITE_OCS_4_8b_zoc_on_top: Final[Cite] = Cite(
    layer='OCS', clause='4.8b', item='zoc_on_top', title='C) A unit with a ZOC is the top combat unit', note=None
)
_CITE_OCS_4_8c: Final[Cite] = Cite(layer='OCS', clause='4.8c', item=None, title='Enemy Stacks', note=None)
_CITE_OCS_4_8c_attack_capable: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8c',
    item='attack_capable',
    title='A) Attack-Capable units: enemy ships, planes and non-combat units (Specialized Combat, 9.14)',
    note=None,
)
_CITE_OCS_4_8c_enemy_units: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8c',
    item='enemy_units',
    title='D) Cargo cannot detrain in hexes with enemy non-combat units, planes or ships',
    note=None,
)
_CITE_OCS_4_8c_paths: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8c',
    item='paths',
    title='D) Rail transport and supply paths: through enemy non-combat units, planes and ships',
    note=None,
)
_CITE_OCS_4_8c_planes: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8c',
    item='planes',
    title='C) Planes conducting a mission: all kinds of enemy units',
    note=None,
)
_CITE_OCS_4_8c_ships: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8c',
    item='ships',
    title='B) Ships: enemy non-combat units and air units (they coexist)',
    note=None,
)
_CITE_OCS_4_8c_unlisted: Final[Cite] = Cite(
    layer='OCS',
    clause='4.8c',
    item='unlisted',
    title='If an unlisted type of enemy unit is in the hex, friendly units cannot enter',
    note=None,
)
_CITE_OCS_4_9a: Final[Cite] = Cite(layer='OCS', clause='4.9a', item=None, title=None, note=None)
_CITE_OCS_4_9a_combat_mode: Final[Cite] = Cite(
    layer='OCS', clause='4.9a', item='combat_mode', title='The top Combat Mode Attack-Capable unit', note=None
)
_CITE_OCS_4_9a_dg: Final[Cite] = Cite(layer='OCS', clause='4.9a', item='dg', title='Whether it is DG', note=None)
_CITE_OCS_4_9a_exploitation: Final[Cite] = Cite(
    layer='OCS',
    clause='4.9a',
    item='exploitation',
    title='A ZOC but no Combat Mode unit (Exploitation Mode, 4.5): the top unit with a ZOC',
    note=None,
)
_CITE_OCS_4_9a_internal_stocks: Final[Cite] = Cite(
    layer='OCS', clause='4.9a', item='internal_stocks', title='Its internal stocks status', note=None
)
_CITE_OCS_4_9a_no_zoc: Final[Cite] = Cite(
    layer='OCS', clause='4.9a', item='no_zoc', title='The top combat unit, if none have a ZOC', note=None
)
_CITE_OCS_4_9a_out_of_supply: Final[Cite] = Cite(
    layer='OCS', clause='4.9a', item='out_of_supply', title='Whether it is Out of Supply', note=None
)
_CITE_OCS_4_9a_steps_lost: Final[Cite] = Cite(
    layer='OCS', clause='4.9a', item='steps_lost', title='The steps it has lost', note=None
)
_CITE_OCS_4_9a_strat_mode: Final[Cite] = Cite(
    layer='OCS', clause='4.9a', item='strat_mode', title='Whether it is in Strat Mode', note=None
)
_CITE_OCS_5_0_combat: Final[Cite] = Cite(layer='OCS', clause='5.0', item='combat', title='Combat', note=None)
_CITE_OCS_5_0_dg: Final[Cite] = Cite(layer='OCS', clause='5.0', item='dg', title='Disorganized (DG)', note=None)
_CITE_OCS_5_0_exploit: Final[Cite] = Cite(layer='OCS', clause='5.0', item='exploit', title='Exploitation', note=None)
_CITE_OCS_5_0_move: Final[Cite] = Cite(layer='OCS', clause='5.0', item='move', title='Move', note=None)
_CITE_OCS_5_0_reserve: Final[Cite] = Cite(layer='OCS', clause='5.0', item='reserve', title='Reserve', note=None)
_CITE_OCS_5_0_strat: Final[Cite] = Cite(layer='OCS', clause='5.0', item='strat', title='Strat', note=None)
_CITE_OCS_5_10e: Final[Cite] = Cite(layer='OCS', clause='5.10e', item=None, title='DG Mode Orientation', note=None)
_CITE_OCS_5_9c: Final[Cite] = Cite(layer='OCS', clause='5.9c', item=None, title='Exploitation Mode and ZOC', note=None)
_CITE_OCS_9_11: Final[Cite] = Cite(layer='OCS', clause='9.11', item=None, title='Step Losses', note=None)
_CITE_fog_of_war_13_7b: Final[Cite] = Cite(
    layer='fog_of_war',
    clause='13.7b',
    item=None,
    title='Fog of War Option',
    note=(
        'With the Fog of War Option (13.7b) a Formation marker may be put under other combat units, unless it holds '
        "the stack's only ground units with a ZOC."
    ),
)
_CITE_fog_of_war_13_7b_: Final[Cite] = Cite(
    layer='fog_of_war', clause='13.7b', item=None, title='Fog of War Option', note=None
)
_RULES_OCS_12_5__OCS_12_5_leg: Final[tuple[Cite, ...]] = (_CITE_OCS_12_5, _CITE_OCS_12_5_leg,)
_RULES_OCS_12_5__OCS_12_5_motorized: Final[tuple[Cite, ...]] = (_CITE_OCS_12_5, _CITE_OCS_12_5_motorized,)
_RULES_OCS_12_5__OCS_13_2b_transport: Final[tuple[Cite, ...]] = (_CITE_OCS_12_5, _CITE_OCS_13_2b_transport,)
_RULES_OCS_13_1a: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1a,)
_RULES_OCS_13_1c: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1c,)
_RULES_OCS_13_1c__OCS_13_1c_hq_combat: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1c, _CITE_OCS_13_1c_hq_combat,)
_RULES_OCS_13_1c__OCS_13_1c_hq_combat_side: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1c, _CITE_OCS_13_1c_hq_combat_side,)
_RULES_OCS_13_1c__OCS_13_1c_hq_move: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1c, _CITE_OCS_13_1c_hq_move,)
_RULES_OCS_13_1c__OCS_13_1c_hq_move_side: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1c, _CITE_OCS_13_1c_hq_move_side,)
_RULES_OCS_13_1c__OCS_13_1c_printed: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1c, _CITE_OCS_13_1c_printed,)
_RULES_OCS_13_1c__OCS_13_4b_artillery: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1c, _CITE_OCS_13_4b_artillery,)
_RULES_OCS_13_1d: Final[tuple[Cite, ...]] = (_CITE_OCS_13_1d,)
_RULES_OCS_13_2b: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2b,)
_RULES_OCS_13_2c: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2c,)
_RULES_OCS_13_2d: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2d,)
_RULES_OCS_13_2f: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2f,)
_RULES_OCS_13_2f__OCS_13_2f_elsewhere: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2f, _CITE_OCS_13_2f_elsewhere,)
_RULES_OCS_13_2f__OCS_13_2f_receiving_hex: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2f, _CITE_OCS_13_2f_receiving_hex,)
_RULES_OCS_13_2f__OCS_13_2g_organic: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2f, _CITE_OCS_13_2g_organic,)
_RULES_OCS_13_2g: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2g,)
_RULES_OCS_13_2g__OCS_13_2g_alone: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2g, _CITE_OCS_13_2g_alone,)
_RULES_OCS_13_2g__OCS_13_2g_others: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2g, _CITE_OCS_13_2g_others,)
_RULES_OCS_13_2g__OCS_13_2g_tag_along: Final[tuple[Cite, ...]] = (_CITE_OCS_13_2g, _CITE_OCS_13_2g_tag_along,)
_RULES_OCS_13_3a: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3a,)
_RULES_OCS_13_3b: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3b,)
_RULES_OCS_13_3c: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3c,)
_RULES_OCS_13_3d: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3d,)
_RULES_OCS_13_3e__OCS_13_3e_detrain: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3e, _CITE_OCS_13_3e_detrain,)
_RULES_OCS_13_3e__OCS_13_3e_entrain: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3e, _CITE_OCS_13_3e_entrain,)
_RULES_OCS_13_3e__OCS_13_3e_no: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3e, _CITE_OCS_13_3e_no,)
_RULES_OCS_13_3e__OCS_13_3g_rail_repair: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3e, _CITE_OCS_13_3g_rail_repair,)
_RULES_OCS_13_3e__OCS_13_3g_rail_repair_: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3e, _CITE_OCS_13_3g_rail_repair_,)
_RULES_OCS_13_3e__OCS_13_8c_hq_itself: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3e, _CITE_OCS_13_8c_hq_itself,)
_RULES_OCS_13_3e__OCS_4_8c_enemy_units: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3e, _CITE_OCS_4_8c_enemy_units,)
_RULES_OCS_13_3g: Final[tuple[Cite, ...]] = (_CITE_OCS_13_3g,)
_RULES_OCS_13_4a: Final[tuple[Cite, ...]] = (_CITE_OCS_13_4a,)
_RULES_OCS_13_5: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5,)
_RULES_OCS_13_5a: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5a,)
_RULES_OCS_13_5b: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5b,)
_RULES_OCS_13_5b__OCS_13_5b_breakdown: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5b, _CITE_OCS_13_5b_breakdown,)
_RULES_OCS_13_5b__OCS_13_5b_dead_pile: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5b, _CITE_OCS_13_5b_dead_pile,)
_RULES_OCS_13_5b__OCS_13_5b_others: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5b, _CITE_OCS_13_5b_others,)
_RULES_OCS_13_5b__OCS_13_5b_reduced: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5b, _CITE_OCS_13_5b_reduced,)
_RULES_OCS_13_5b__OCS_13_5c_yellow_dot: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5b, _CITE_OCS_13_5c_yellow_dot,)
_RULES_OCS_13_5d: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5d,)
_RULES_OCS_13_5e: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5e,)
_RULES_OCS_13_5f: Final[tuple[Cite, ...]] = (_CITE_OCS_13_5f,)
_RULES_OCS_13_6: Final[tuple[Cite, ...]] = (_CITE_OCS_13_6,)
_RULES_OCS_13_6a: Final[tuple[Cite, ...]] = (_CITE_OCS_13_6a,)
_RULES_OCS_13_6c: Final[tuple[Cite, ...]] = (_CITE_OCS_13_6c,)
_RULES_OCS_13_7: Final[tuple[Cite, ...]] = (_CITE_OCS_13_7,)
_RULES_OCS_13_8: Final[tuple[Cite, ...]] = (_CITE_OCS_13_8,)
_RULES_OCS_13_8a: Final[tuple[Cite, ...]] = (_CITE_OCS_13_8a,)
_RULES_OCS_13_8b__OCS_13_8b_capable: Final[tuple[Cite, ...]] = (_CITE_OCS_13_8b, _CITE_OCS_13_8b_capable,)
_RULES_OCS_13_8b__OCS_13_8b_gone: Final[tuple[Cite, ...]] = (_CITE_OCS_13_8b, _CITE_OCS_13_8b_gone,)
_RULES_OCS_13_8b__OCS_13_8b_own_bridge: Final[tuple[Cite, ...]] = (_CITE_OCS_13_8b, _CITE_OCS_13_8b_own_bridge,)
_RULES_OCS_13_8c: Final[tuple[Cite, ...]] = (_CITE_OCS_13_8c,)
_RULES_OCS_13_8d: Final[tuple[Cite, ...]] = (_CITE_OCS_13_8d,)
_RULES_OCS_13_9: Final[tuple[Cite, ...]] = (_CITE_OCS_13_9,)
_RULES_OCS_3_3: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3,)
_RULES_OCS_3_3_air_base: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_air_base,)
_RULES_OCS_3_3_artillery: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_artillery,)
_RULES_OCS_3_3_assault_engineer: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_assault_engineer,)
_RULES_OCS_3_3_combat_unit: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_combat_unit,)
_RULES_OCS_3_3_engineer: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_engineer,)
_RULES_OCS_3_3_fighter: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_fighter,)
_RULES_OCS_3_3_hedgehog: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_hedgehog,)
_RULES_OCS_3_3_hq: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_hq,)
_RULES_OCS_3_3_other_plane: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_other_plane,)
_RULES_OCS_3_3_para_glider_engineer: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_para_glider_engineer,)
_RULES_OCS_3_3_pioneer: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_pioneer,)
_RULES_OCS_3_3_port: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_port,)
_RULES_OCS_3_3_rail_repair: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_rail_repair,)
_RULES_OCS_3_3_repl: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_repl,)
_RULES_OCS_3_3_sp: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_sp,)
_RULES_OCS_3_3_transport: Final[tuple[Cite, ...]] = (_CITE_OCS_3_3_transport,)
_RULES_OCS_4_1: Final[tuple[Cite, ...]] = (_CITE_OCS_4_1,)
_RULES_OCS_4_2: Final[tuple[Cite, ...]] = (_CITE_OCS_4_2,)
_RULES_OCS_4_2__OCS_4_2_attacker: Final[tuple[Cite, ...]] = (_CITE_OCS_4_2, _CITE_OCS_4_2_attacker,)
_RULES_OCS_4_2__OCS_4_2_defender: Final[tuple[Cite, ...]] = (_CITE_OCS_4_2, _CITE_OCS_4_2_defender,)
_RULES_OCS_4_3: Final[tuple[Cite, ...]] = (_CITE_OCS_4_3,)
_RULES_OCS_4_4__OCS_13_1c_hq: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4, _CITE_OCS_13_1c_hq,)
_RULES_OCS_4_4__OCS_13_4b_artillery_: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4, _CITE_OCS_13_4b_artillery_,)
_RULES_OCS_4_4__OCS_4_4_capable: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4, _CITE_OCS_4_4_capable,)
_RULES_OCS_4_4__OCS_4_4_not_combat: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4, _CITE_OCS_4_4_not_combat,)
_RULES_OCS_4_4__OCS_4_4_parenthesized: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4, _CITE_OCS_4_4_parenthesized,)
_RULES_OCS_4_4__OCS_4_4_strat_reserve: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4, _CITE_OCS_4_4_strat_reserve,)
_RULES_OCS_4_4a: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4a,)
_RULES_OCS_4_4b__OCS_4_4b_none: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4b, _CITE_OCS_4_4b_none,)
_RULES_OCS_4_4b__OCS_4_4b_zoc: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4b, _CITE_OCS_4_4b_zoc,)
_RULES_OCS_4_4b__OCS_4_5_exploitation: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4b, _CITE_OCS_4_5_exploitation,)
_RULES_OCS_4_4c: Final[tuple[Cite, ...]] = (_CITE_OCS_4_4c,)
_RULES_OCS_4_5: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5,)
_RULES_OCS_4_5a: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a,)
_RULES_OCS_4_5a_A: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_A,)
_RULES_OCS_4_5a_B: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_B,)
_RULES_OCS_4_5a_C: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_C,)
_RULES_OCS_4_5a_D: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_D,)
_RULES_OCS_4_5a_E: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_E,)
_RULES_OCS_4_5a_F__DAK_4_5a_F: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_F, _CITE_DAK_4_5a_F,)
_RULES_OCS_4_5a_G: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_G,)
_RULES_OCS_4_5a_H: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_H,)
_RULES_OCS_4_5a_I: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_I,)
_RULES_OCS_4_5a_J: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_J,)
_RULES_OCS_4_5a_K: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5a_K,)
_RULES_OCS_4_5b: Final[tuple[Cite, ...]] = (_CITE_OCS_4_5b,)
_RULES_OCS_4_6: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6,)
_RULES_OCS_4_6__DAK_1_2_jock_column: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6, _CITE_DAK_1_2_jock_column,)
_RULES_OCS_4_6__OCS_13_1_hq: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6, _CITE_OCS_13_1_hq,)
_RULES_OCS_4_6__OCS_4_6_battalion: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6, _CITE_OCS_4_6_battalion,)
_RULES_OCS_4_6__OCS_4_6_multi_step: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6, _CITE_OCS_4_6_multi_step,)
_RULES_OCS_4_6__OCS_4_6_not_combat: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6, _CITE_OCS_4_6_not_combat,)
_RULES_OCS_4_6__OCS_4_6_other: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6, _CITE_OCS_4_6_other,)
_RULES_OCS_4_6__OCS_4_6_quarter: Final[tuple[Cite, ...]] = (_CITE_OCS_4_6, _CITE_OCS_4_6_quarter,)
_RULES_OCS_4_7: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7,)
_RULES_OCS_4_7b__OCS_4_7a_supply: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7b, _CITE_OCS_4_7a_supply,)
_RULES_OCS_4_7b__OCS_4_7b_other: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7b, _CITE_OCS_4_7b_other,)
_RULES_OCS_4_7b__OCS_4_7b_slow_leg: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7b, _CITE_OCS_4_7b_slow_leg,)
_RULES_OCS_4_7b__OCS_4_7c_loaded_sp: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7b, _CITE_OCS_4_7c_loaded_sp,)
_RULES_OCS_4_7b__OCS_4_7c_transport_point: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7b, _CITE_OCS_4_7c_transport_point,)
_RULES_OCS_4_7c: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7c,)
_RULES_OCS_4_7d: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d,)
_RULES_OCS_4_7d__OCS_13_3g_rail_repair__: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_13_3g_rail_repair__,)
_RULES_OCS_4_7d__OCS_13_3g_rail_repair___: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_13_3g_rail_repair___,)
_RULES_OCS_4_7d__OCS_4_7d_air: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_air,)
_RULES_OCS_4_7d__OCS_4_7d_air_: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_air_,)
_RULES_OCS_4_7d__OCS_4_7d_alt: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_alt,)
_RULES_OCS_4_7d__OCS_4_7d_alt_: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_alt_,)
_RULES_OCS_4_7d__OCS_4_7d_landing_craft: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_landing_craft,)
_RULES_OCS_4_7d__OCS_4_7d_none: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_none,)
_RULES_OCS_4_7d__OCS_4_7d_none_: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_none_,)
_RULES_OCS_4_7d__OCS_4_7d_rail: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_rail,)
_RULES_OCS_4_7d__OCS_4_7d_rail_: Final[tuple[Cite, ...]] = (_CITE_OCS_4_7d, _CITE_OCS_4_7d_rail_,)
_RULES_OCS_4_8: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8,)
_RULES_OCS_4_8_air_bases: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8_air_bases,)
_RULES_OCS_4_8_combat_re: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8_combat_re,)
_RULES_OCS_4_8_hedgehogs: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8_hedgehogs,)
_RULES_OCS_4_8_ports: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8_ports,)
_RULES_OCS_4_8a: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8a,)
_RULES_OCS_4_8a__OCS_4_8a__OCS_4_8_combat_re: Final[tuple[Cite, ...]] = (
    _CITE_OCS_4_8a, _CITE_OCS_4_8a, _CITE_OCS_4_8_combat_re,
)
_RULES_OCS_4_8b: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8b,)
_RULES_OCS_4_8b__OCS_4_8b_buried: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8b, _CITE_OCS_4_8b_buried,)
_RULES_OCS_4_8b__OCS_4_8b_hq_on_top: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8b, _CITE_OCS_4_8b_hq_on_top,)
_RULES_OCS_4_8b__OCS_4_8b_no_zoc: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8b, _CITE_OCS_4_8b_no_zoc,)
_RULES_OCS_4_8b__OCS_4_8b_zoc_on_top: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8b, _CITE_OCS_4_8b_zoc_on_top,)
_RULES_OCS_4_8c: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8c,)
_RULES_OCS_4_8c__OCS_4_8c_attack_capable: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8c, _CITE_OCS_4_8c_attack_capable,)
_RULES_OCS_4_8c__OCS_4_8c_paths: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8c, _CITE_OCS_4_8c_paths,)
_RULES_OCS_4_8c__OCS_4_8c_planes: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8c, _CITE_OCS_4_8c_planes,)
_RULES_OCS_4_8c__OCS_4_8c_ships: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8c, _CITE_OCS_4_8c_ships,)
_RULES_OCS_4_8c__OCS_4_8c_unlisted: Final[tuple[Cite, ...]] = (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,)
_RULES_OCS_4_9a: Final[tuple[Cite, ...]] = (_CITE_OCS_4_9a,)
_RULES_OCS_4_9a__OCS_4_9a_combat_mode: Final[tuple[Cite, ...]] = (_CITE_OCS_4_9a, _CITE_OCS_4_9a_combat_mode,)
_RULES_OCS_4_9a__OCS_4_9a_exploitation: Final[tuple[Cite, ...]] = (_CITE_OCS_4_9a, _CITE_OCS_4_9a_exploitation,)
_RULES_OCS_4_9a__OCS_4_9a_no_zoc: Final[tuple[Cite, ...]] = (_CITE_OCS_4_9a, _CITE_OCS_4_9a_no_zoc,)
_RULES_OCS_5_10e: Final[tuple[Cite, ...]] = (_CITE_OCS_5_10e,)
_RULES_OCS_5_9c: Final[tuple[Cite, ...]] = (_CITE_OCS_5_9c,)
_RULES_OCS_9_11: Final[tuple[Cite, ...]] = (_CITE_OCS_9_11,)
_DOMAINS_Unit_0: Final[dict[str, Any]] = {
    'type': (
        'combat_unit',
        'hq',
        'artillery',
        'repl',
        'engineer',
        'rail_repair',
        'assault_engineer',
        'pioneer',
        'para_glider_engineer',
        'transport',
        'sp',
        'port',
        'air_base',
        'hedgehog',
        'fighter',
        'other_plane',
    ),
    'size': ('company', 'battalion', 'regiment', 'brigade', 'division', 'corps'),
    'mode': ('combat', 'move', 'reserve', 'strat', 'dg', 'exploit'),
    'oriented_to_combat': (False, True),
    'mobility': ('leg', 'truck', 'track'),
    'printed_strength': (False, True),
    'parenthesized': (False, True),
    'out_of_supply': (False, True),
    'multi_step': (False, True),
    'organic': (False, True),
    'tp_kind': ('truck', 'wagon', 'mule'),
    'loaded': (False, True),
    'divisional': (False, True),
    'stocks': ('normal', 'low', 'exhausted'),
    'no_rebuild': (False, True),
    'breakdown': (False, True),
    'will_spend_mp': (False, True),
    'active': (False, True),
}
_SET_dg_exploit_reserve: Final[frozenset[Mode]] = frozenset({'dg', 'exploit', 'reserve'})
_SET_air_base_fighter_hedgeho_ae8dbffd: Final[frozenset[UnitType]] = frozenset(
    {'air_base', 'fighter', 'hedgehog', 'other_plane', 'port'}
)
_DOMAINS_RailHex_0: Final[dict[str, Any]] = {
    'town_or_port': (False, True),
    'units': _Items(_DOMAINS_Unit_0, lambda: Unit(), 'Unit {}'),
    'controlled': (False, True),
    'ezoc_free_path_to_supply': (False, True),
    'path_needs_extender': (False, True),
    'path_ezoc_negated': (False, True),
    'in_ezoc': (False, True),
    'enemy_units': (False, True),
}
_SET_reserve_strat: Final[frozenset[Mode]] = frozenset({'reserve', 'strat'})
_DOMAINS_Hex_0: Final[dict[str, Any]] = {
    'units': _Items(_DOMAINS_Unit_0, lambda: Unit(), 'Unit {}'),
    'phase': ('reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up'),
    'moment': ('segment_end', 'moving', 'overrun'),
    'off_map': (False, True),
}
_SET_engineer_hq: Final[frozenset[UnitType]] = frozenset({'engineer', 'hq'})
_SET_formations_independent_joins: Final[frozenset[Consolidation]] = frozenset({'formations', 'independent_joins'})
_SET_assault_engineer_combat_352fa5da: Final[frozenset[UnitType]] = frozenset(
    {'assault_engineer', 'combat_unit', 'engineer', 'para_glider_engineer', 'pioneer', 'rail_repair', 'repl'}
)
_SET_sp_transport: Final[frozenset[UnitType]] = frozenset({'sp', 'transport'})
_SET_noncombat_units_planes: Final[frozenset[EnemyKind]] = frozenset({'noncombat_units', 'planes'})
_SET_fighter_hedgehog_other_p_ff3ed59e: Final[frozenset[UnitType]] = frozenset(
    {'fighter', 'hedgehog', 'other_plane', 'sp', 'transport'}
)
_SET_air_base_port: Final[frozenset[UnitType]] = frozenset({'air_base', 'port'})
_SET_artillery_assault_engine_88af7d0e: Final[frozenset[UnitType]] = frozenset(
    {
        'artillery',
        'assault_engineer',
        'combat_unit',
        'engineer',
        'para_glider_engineer',
        'pioneer',
        'rail_repair',
        'repl',
    }
)
_Q_1_2: Final[Fraction] = Fraction(1, 2)
_Q_1_4: Final[Fraction] = Fraction(1, 4)
_SET_landing_craft_rail_shipping: Final[frozenset[Transport]] = frozenset({'landing_craft', 'rail', 'shipping'})
_SET_air_air_drop: Final[frozenset[Transport]] = frozenset({'air', 'air_drop'})


# ---- lists of values ------------------------------------------------------------

# rules/ocs/ch13-specialized-units.rules:162  13.2a  What SP pay for
SpUse = Literal['fueling', 'construction', 'combat_cost', 'barrage_cost']
SpUse_values: Final[tuple[SpUse, ...]] = ('fueling', 'construction', 'combat_cost', 'barrage_cost',)
SpUse_titles: Final[dict[SpUse, str]] = {
    'fueling': 'Fueling',
    'construction': 'Construction or repair',
    'combat_cost': 'Combat',
    'barrage_cost': 'Barrage',
}
SpUse_pay_while_pausing: Final[dict[SpUse, bool]] = {
    'fueling': True,
    'construction': True,
    'combat_cost': False,
    'barrage_cost': False,
}

# rules/ocs/ch13-specialized-units.rules:904  13.5a  What is rebuilt
Rebuild = Literal['dead_pile', 'on_map']
Rebuild_values: Final[tuple[Rebuild, ...]] = ('dead_pile', 'on_map',)
Rebuild_titles: Final[dict[Rebuild, str]] = {
    'dead_pile': '1) A unit in the Dead Pile',
    'on_map': '2) An on-map unit that has taken step losses',
}

# rules/ocs/ch13-specialized-units.rules:1240  13.7  Side of a Formation marker
MarkerSide = Literal['regular', 'fueled']
MarkerSide_values: Final[tuple[MarkerSide, ...]] = ('regular', 'fueled',)
MarkerSide_titles: Final[dict[MarkerSide, str]] = {
    'regular': 'Regular side',
    'fueled': 'Fueled side',
}

# rules/ocs/ch13-specialized-units.rules:1353  13.8b  River hexside
River = Literal['no_river', 'minor_river', 'major_river']
River_values: Final[tuple[River, ...]] = ('no_river', 'minor_river', 'major_river',)
River_titles: Final[dict[River, str]] = {
    'no_river': 'No river',
    'minor_river': 'Minor River',
    'major_river': 'Major River',
}

# rules/ocs/ch13-specialized-units.rules:1456  13.8d  Construction task
Construction = Literal[
    'build_air_base',
    'improve_air_base',
    'reduce_air_base',
    'build_hedgehog',
    'improve_hedgehog',
    'reduce_hedgehog',
    'repair_port',
    'damage_port',
]
Construction_values: Final[tuple[Construction, ...]] = (
    'build_air_base',
    'improve_air_base',
    'reduce_air_base',
    'build_hedgehog',
    'improve_hedgehog',
    'reduce_hedgehog',
    'repair_port',
    'damage_port',
)
Construction_titles: Final[dict[Construction, str]] = {
    'build_air_base': 'Build an Air Base',
    'improve_air_base': 'Improve an Air Base',
    'reduce_air_base': 'Reduce an Air Base',
    'build_hedgehog': 'Build a Hedgehog',
    'improve_hedgehog': 'Improve a Hedgehog',
    'reduce_hedgehog': 'Reduce a Hedgehog',
    'repair_port': 'Repair a Port',
    'damage_port': 'Damage a Port',
}
Construction_costs_sp: Final[dict[Construction, bool]] = {
    'build_air_base': True,
    'improve_air_base': True,
    'reduce_air_base': False,
    'build_hedgehog': True,
    'improve_hedgehog': True,
    'reduce_hedgehog': False,
    'repair_port': True,
    'damage_port': False,
}

# rules/ocs/ch13-specialized-units.rules:1519  13.9  Type of consolidation
Consolidation = Literal['multi_step', 'formations', 'independent_joins', 'aircraft']
Consolidation_values: Final[tuple[Consolidation, ...]] = ('multi_step', 'formations', 'independent_joins', 'aircraft',)
Consolidation_titles: Final[dict[Consolidation, str]] = {
    'multi_step': '1) Multi-step units',
    'formations': '2) Multi-unit formations',
    'independent_joins': '3) An independent unit joins a formation',
    'aircraft': '4) Reduced aircraft',
}

# rules/ocs/ch4-general-concepts.rules:262  4.5a  Action in an enemy ZOC
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
    'F': False,  # overridden by DAK: In either edition of DAK, units do not negate EZOCs for Port Operatio…
    'G': False,
    'H': True,
    'I': False,
    'J': False,
    'K': False,
}
_CITES_EzocAction_negatable: Final[dict[EzocAction, tuple[Cite, ...]]] = {
    'A': _RULES_OCS_4_5a_A,
    'B': _RULES_OCS_4_5a_B,
    'C': _RULES_OCS_4_5a_C,
    'D': _RULES_OCS_4_5a_D,
    'E': _RULES_OCS_4_5a_E,
    'F': _RULES_OCS_4_5a_F__DAK_4_5a_F,
    'G': _RULES_OCS_4_5a_G,
    'H': _RULES_OCS_4_5a_H,
    'I': _RULES_OCS_4_5a_I,
    'J': _RULES_OCS_4_5a_J,
    'K': _RULES_OCS_4_5a_K,
}

# rules/ocs/ch4-general-concepts.rules:488  4.7  Kind of transport
Transport = Literal['rail', 'air', 'air_drop', 'landing_craft', 'alt_landing', 'beach_assault', 'shipping']
Transport_values: Final[tuple[Transport, ...]] = (
    'rail', 'air', 'air_drop', 'landing_craft', 'alt_landing', 'beach_assault', 'shipping',
)
Transport_titles: Final[dict[Transport, str]] = {
    'rail': 'Rail (Rail Cap)',
    'air': 'Air Transport',
    'air_drop': 'Air Drop',
    'landing_craft': 'Landing Craft',
    'alt_landing': 'ALT landing',
    'beach_assault': 'Beach Assault',
    'shipping': 'Abstract shipping',
}

# rules/ocs/ch4-general-concepts.rules:903  4.8c  What moves, retreats or traces into the hex
Mover = Literal['attack_capable_unit', 'other_ground_unit', 'ship', 'plane_on_mission', 'rail_or_supply_path']
Mover_values: Final[tuple[Mover, ...]] = (
    'attack_capable_unit', 'other_ground_unit', 'ship', 'plane_on_mission', 'rail_or_supply_path',
)
Mover_titles: Final[dict[Mover, str]] = {
    'attack_capable_unit': 'An Attack-Capable unit',
    'other_ground_unit': 'A ground unit that is not Attack-Capable',
    'ship': 'A ship',
    'plane_on_mission': 'A plane conducting a mission',
    'rail_or_supply_path': 'Rail transport or a supply path (traced through)',
}

# rules/ocs/ch4-general-concepts.rules:910  4.8c  Kind of enemy unit in the hex
EnemyKind = Literal['combat_units', 'noncombat_units', 'ships', 'planes']
EnemyKind_values: Final[tuple[EnemyKind, ...]] = ('combat_units', 'noncombat_units', 'ships', 'planes',)
EnemyKind_titles: Final[dict[EnemyKind, str]] = {
    'combat_units': 'Enemy combat units',
    'noncombat_units': 'Enemy non-combat units',
    'ships': 'Enemy ships',
    'planes': 'Enemy planes',
}

# rules/ocs/ch4-general-concepts.rules:995  4.9a  What there is to know about the top unit
TopUnitFact = Literal['strat_mode', 'dg', 'out_of_supply', 'internal_stocks', 'steps_lost']
TopUnitFact_values: Final[tuple[TopUnitFact, ...]] = (
    'strat_mode', 'dg', 'out_of_supply', 'internal_stocks', 'steps_lost',
)
TopUnitFact_titles: Final[dict[TopUnitFact, str]] = {
    'strat_mode': 'Whether it is in Strat Mode',
    'dg': 'Whether it is DG',
    'out_of_supply': 'Whether it is Out of Supply',
    'internal_stocks': 'Its internal stocks status',
    'steps_lost': 'The steps it has lost',
}
TopUnitFact_known: Final[dict[TopUnitFact, bool]] = {
    'strat_mode': True,
    'dg': True,
    'out_of_supply': True,
    'internal_stocks': False,
    'steps_lost': False,
}

# rules/ocs/series.rules:8  3.1  Unit size (designation)
Size = Literal['company', 'battalion', 'regiment', 'brigade', 'division', 'corps']
Size_values: Final[tuple[Size, ...]] = ('company', 'battalion', 'regiment', 'brigade', 'division', 'corps',)
_Size_set: Final[frozenset[str]] = frozenset(Size_values)
Size_titles: Final[dict[Size, str]] = {
    'company': 'Company',
    'battalion': 'Battalion',
    'regiment': 'Regiment',
    'brigade': 'Brigade',
    'division': 'Division',
    'corps': 'Corps',
}

# rules/ocs/series.rules:18  3.1a  Mobility type
Mobility = Literal['leg', 'truck', 'track']
Mobility_values: Final[tuple[Mobility, ...]] = ('leg', 'truck', 'track',)
_Mobility_set: Final[frozenset[str]] = frozenset(Mobility_values)
Mobility_titles: Final[dict[Mobility, str]] = {
    'leg': 'Leg',
    'truck': 'Truck',
    'track': 'Track',
}

# rules/ocs/series.rules:26  3.3  Unit type
UnitType = Literal[
    'combat_unit',
    'hq',
    'artillery',
    'repl',
    'engineer',
    'rail_repair',
    'assault_engineer',
    'pioneer',
    'para_glider_engineer',
    'transport',
    'sp',
    'port',
    'air_base',
    'hedgehog',
    'fighter',
    'other_plane',
]
UnitType_values: Final[tuple[UnitType, ...]] = (
    'combat_unit',
    'hq',
    'artillery',
    'repl',
    'engineer',
    'rail_repair',
    'assault_engineer',
    'pioneer',
    'para_glider_engineer',
    'transport',
    'sp',
    'port',
    'air_base',
    'hedgehog',
    'fighter',
    'other_plane',
)
_UnitType_set: Final[frozenset[str]] = frozenset(UnitType_values)
UnitType_titles: Final[dict[UnitType, str]] = {
    'combat_unit': 'Combat unit',
    'hq': 'HQ',
    'artillery': 'Artillery',
    'repl': 'Replacement (Repl)',
    'engineer': 'Engineer',
    'rail_repair': 'Rail Repair',
    'assault_engineer': 'Assault Engineer',
    'pioneer': 'Pioneer',
    'para_glider_engineer': 'Para/Glider Engineer',
    'transport': 'Transport Point',
    'sp': 'Supply Points (SP)',
    'port': 'Port',
    'air_base': 'Air base',
    'hedgehog': 'Hedgehog',
    'fighter': 'Fighter (an air unit)',
    'other_plane': 'Air unit other than a fighter',
}
UnitType_combat: Final[dict[UnitType, bool]] = {
    'combat_unit': True,
    'hq': True,
    'artillery': True,
    'repl': True,
    'engineer': True,
    'rail_repair': True,
    'assault_engineer': True,
    'pioneer': True,
    'para_glider_engineer': True,
    'transport': False,
    'sp': False,
    'port': False,
    'air_base': False,
    'hedgehog': False,
    'fighter': False,
    'other_plane': False,
}
_CITES_UnitType_combat: Final[dict[UnitType, tuple[Cite, ...]]] = {
    'combat_unit': _RULES_OCS_3_3_combat_unit,
    'hq': _RULES_OCS_3_3_hq,
    'artillery': _RULES_OCS_3_3_artillery,
    'repl': _RULES_OCS_3_3_repl,
    'engineer': _RULES_OCS_3_3_engineer,
    'rail_repair': _RULES_OCS_3_3_rail_repair,
    'assault_engineer': _RULES_OCS_3_3_assault_engineer,
    'pioneer': _RULES_OCS_3_3_pioneer,
    'para_glider_engineer': _RULES_OCS_3_3_para_glider_engineer,
    'transport': _RULES_OCS_3_3_transport,
    'sp': _RULES_OCS_3_3_sp,
    'port': _RULES_OCS_3_3_port,
    'air_base': _RULES_OCS_3_3_air_base,
    'hedgehog': _RULES_OCS_3_3_hedgehog,
    'fighter': _RULES_OCS_3_3_fighter,
    'other_plane': _RULES_OCS_3_3_other_plane,
}
UnitType_air: Final[dict[UnitType, bool]] = {
    'combat_unit': False,
    'hq': False,
    'artillery': False,
    'repl': False,
    'engineer': False,
    'rail_repair': False,
    'assault_engineer': False,
    'pioneer': False,
    'para_glider_engineer': False,
    'transport': False,
    'sp': False,
    'port': False,
    'air_base': False,
    'hedgehog': False,
    'fighter': True,
    'other_plane': True,
}
_CITES_UnitType_air: Final[dict[UnitType, tuple[Cite, ...]]] = {
    'combat_unit': _RULES_OCS_3_3_combat_unit,
    'hq': _RULES_OCS_3_3_hq,
    'artillery': _RULES_OCS_3_3_artillery,
    'repl': _RULES_OCS_3_3_repl,
    'engineer': _RULES_OCS_3_3_engineer,
    'rail_repair': _RULES_OCS_3_3_rail_repair,
    'assault_engineer': _RULES_OCS_3_3_assault_engineer,
    'pioneer': _RULES_OCS_3_3_pioneer,
    'para_glider_engineer': _RULES_OCS_3_3_para_glider_engineer,
    'transport': _RULES_OCS_3_3_transport,
    'sp': _RULES_OCS_3_3_sp,
    'port': _RULES_OCS_3_3_port,
    'air_base': _RULES_OCS_3_3_air_base,
    'hedgehog': _RULES_OCS_3_3_hedgehog,
    'fighter': _RULES_OCS_3_3_fighter,
    'other_plane': _RULES_OCS_3_3_other_plane,
}

# rules/ocs/series.rules:52  5.0  Mode
Mode = Literal['combat', 'move', 'reserve', 'strat', 'dg', 'exploit']
Mode_values: Final[tuple[Mode, ...]] = ('combat', 'move', 'reserve', 'strat', 'dg', 'exploit',)
_Mode_set: Final[frozenset[str]] = frozenset(Mode_values)
Mode_titles: Final[dict[Mode, str]] = {
    'combat': 'Combat',
    'move': 'Move',
    'reserve': 'Reserve',
    'strat': 'Strat',
    'dg': 'Disorganized (DG)',
    'exploit': 'Exploitation',
}
Mode_voluntary: Final[dict[Mode, bool]] = {
    'combat': True,
    'move': True,
    'reserve': True,
    'strat': True,
    'dg': False,
    'exploit': False,
}

# rules/ocs/series.rules:83  12.10  Internal stocks
Stocks = Literal['normal', 'low', 'exhausted']
Stocks_values: Final[tuple[Stocks, ...]] = ('normal', 'low', 'exhausted',)
_Stocks_set: Final[frozenset[str]] = frozenset(Stocks_values)
Stocks_titles: Final[dict[Stocks, str]] = {
    'normal': 'Normal',
    'low': 'Low',
    'exhausted': 'Exhausted',
}

# rules/ocs/series.rules:100  OCS  Phase
Phase = Literal[
    'reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up'
]
Phase_values: Final[tuple[Phase, ...]] = (
    'reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up',
)
_Phase_set: Final[frozenset[str]] = frozenset(Phase_values)
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

# rules/ocs/series.rules:111  OCS  When stacking is looked at
Moment = Literal['segment_end', 'moving', 'overrun']
Moment_values: Final[tuple[Moment, ...]] = ('segment_end', 'moving', 'overrun',)
_Moment_set: Final[frozenset[str]] = frozenset(Moment_values)
Moment_titles: Final[dict[Moment, str]] = {
    'segment_end': 'At the end of a segment or phase',
    'moving': 'During movement',
    'overrun': 'While conducting an overrun',
}

# rules/ocs/series.rules:117  OCS  Kind of Transport Point
TransportPointKind = Literal['truck', 'wagon', 'mule']
TransportPointKind_values: Final[tuple[TransportPointKind, ...]] = ('truck', 'wagon', 'mule',)
_TransportPointKind_set: Final[frozenset[str]] = frozenset(TransportPointKind_values)
TransportPointKind_titles: Final[dict[TransportPointKind, str]] = {
    'truck': 'Truck',
    'wagon': 'Wagon',
    'mule': 'Mule',
}


# ---- game state ----------------------------------------------------------------


# rules/ocs/ch13-specialized-units.rules:461  OCS
@dataclass(frozen=True, slots=True)
class RailHex:
    """A railroad hex

    Fields:
        town_or_port: It has a village, city (any size) or port
        units: Friendly units in it
        controlled: Under friendly control (13.3h)
        ezoc_free_path_to_supply: A rail path free of enemy ZOC back to a supply source
        path_needs_extender: That rail path needs Extender links (13.3c: for trace supply only)
        path_ezoc_negated: That rail path is free of enemy ZOC only by negation (13.3c: for trace supply
            only)
        in_ezoc: In an enemy ZOC
        enemy_units: Holds enemy non-combat units, planes or ships (4.8c D)
    """

    town_or_port: bool = False
    units: tuple[Unit, ...] = ()
    controlled: bool = True
    ezoc_free_path_to_supply: bool = True
    path_needs_extender: bool = False
    path_ezoc_negated: bool = False
    in_ezoc: bool = False
    enemy_units: bool = False

    def __post_init__(self) -> None:
        if self.town_or_port is not True and self.town_or_port is not False:
            raise InvalidInput('RailHex.town_or_port', _not_a(self.town_or_port, 'true or false'))
        if type(self.units) is not tuple:
            raise InvalidInput('RailHex.units', _not_a(self.units, 'a tuple'))
        for _units_item in self.units:
            if not isinstance(_units_item, Unit):
                raise InvalidInput('RailHex.units', _not_a(_units_item, 'a Unit'))
        if self.controlled is not True and self.controlled is not False:
            raise InvalidInput('RailHex.controlled', _not_a(self.controlled, 'true or false'))
        if self.ezoc_free_path_to_supply is not True and self.ezoc_free_path_to_supply is not False:
            raise InvalidInput(
                'RailHex.ezoc_free_path_to_supply', _not_a(self.ezoc_free_path_to_supply, 'true or false')
            )
        if self.path_needs_extender is not True and self.path_needs_extender is not False:
            raise InvalidInput('RailHex.path_needs_extender', _not_a(self.path_needs_extender, 'true or false'))
        if self.path_ezoc_negated is not True and self.path_ezoc_negated is not False:
            raise InvalidInput('RailHex.path_ezoc_negated', _not_a(self.path_ezoc_negated, 'true or false'))
        if self.in_ezoc is not True and self.in_ezoc is not False:
            raise InvalidInput('RailHex.in_ezoc', _not_a(self.in_ezoc, 'true or false'))
        if self.enemy_units is not True and self.enemy_units is not False:
            raise InvalidInput('RailHex.enemy_units', _not_a(self.enemy_units, 'true or false'))


# rules/ocs/series.rules:123  OCS
@dataclass(frozen=True, slots=True)
class Unit:
    """A unit: a ground unit, or an air unit (fighter or other plane)

    Fields:
        type: What kind of unit it is (one of: combat_unit, hq, artillery, repl, engineer, rail_repair,
            assault_engineer, pioneer, para_glider_engineer, transport, sp, port, air_base, hedgehog,
            fighter, other_plane)
        size: The size on its designation (one of: company, battalion, regiment, brigade, division,
            corps)
        mode: The mode it is in (one of: combat, move, reserve, strat, dg, exploit)
        oriented_to_combat: Under a DG, Strat or Exploitation marker: faces its Combat Mode side
        mobility: The colour of its Movement Allowance (one of: leg, truck, track)
        move_ma: Its printed Movement Allowance in Move Mode
        printed_strength: Has a printed Combat Strength
        parenthesized: The Combat Strength is in parentheses (defensive only)
        strength: The printed Combat Strength
        out_of_supply: Marked Out of Supply
        multi_step: A multi-step unit (prints its RE size)
        printed_re: The RE size printed on a multi-step unit
        step_losses: Steps lost (multi-step units)
        points: Transport Points and SP: the points it is worth
        organic: Transport Points: an Organic Truck of a multi-unit formation
        tp_kind: Transport Points: trucks, wagons or mules (one of: truck, wagon, mule)
        loaded: SP: loaded on a Transport Point (not an unloaded supply dump)
        formation: The multi-unit formation it belongs to; empty for an independent unit
        nationality: Its nationality
        divisional: HQs: a divisional HQ
        stocks: Internal stocks (one of: normal, low, exhausted)
        no_rebuild: A Yellow dot behind its AR: cannot be rebuilt
        breakdown: A generic Breakdown unit
        will_spend_mp: Will spend MP later in the current phase
        active: Air units: Active (false: Inactive)
    """

    type: UnitType = 'combat_unit'
    size: Size = 'regiment'
    mode: Mode = 'combat'
    oriented_to_combat: bool = True
    mobility: Mobility = 'leg'
    move_ma: Number = 0
    printed_strength: bool = True
    parenthesized: bool = False
    strength: Number = 1
    out_of_supply: bool = False
    multi_step: bool = False
    printed_re: Number = 0
    step_losses: int = 0
    points: Number = 0
    organic: bool = False
    tp_kind: TransportPointKind = 'truck'
    loaded: bool = False
    formation: str = ''
    nationality: str = ''
    divisional: bool = False
    stocks: Stocks = 'normal'
    no_rebuild: bool = False
    breakdown: bool = False
    will_spend_mp: bool = False
    active: bool = False

    def __post_init__(self) -> None:
        if self.type not in _UnitType_set:
            raise InvalidInput('Unit.type', f"{_shown(self.type)} is not one of the values", UnitType_values)
        if self.size not in _Size_set:
            raise InvalidInput('Unit.size', f"{_shown(self.size)} is not one of the values", Size_values)
        if self.mode not in _Mode_set:
            raise InvalidInput('Unit.mode', f"{_shown(self.mode)} is not one of the values", Mode_values)
        if self.oriented_to_combat is not True and self.oriented_to_combat is not False:
            raise InvalidInput('Unit.oriented_to_combat', _not_a(self.oriented_to_combat, 'true or false'))
        if self.mobility not in _Mobility_set:
            raise InvalidInput('Unit.mobility', f"{_shown(self.mobility)} is not one of the values", Mobility_values)
        if type(self.move_ma) is not int and type(self.move_ma) is not Fraction:
            raise InvalidInput('Unit.move_ma', _not_a(self.move_ma, 'a number'))
        if self.printed_strength is not True and self.printed_strength is not False:
            raise InvalidInput('Unit.printed_strength', _not_a(self.printed_strength, 'true or false'))
        if self.parenthesized is not True and self.parenthesized is not False:
            raise InvalidInput('Unit.parenthesized', _not_a(self.parenthesized, 'true or false'))
        if type(self.strength) is not int and type(self.strength) is not Fraction:
            raise InvalidInput('Unit.strength', _not_a(self.strength, 'a number'))
        if self.out_of_supply is not True and self.out_of_supply is not False:
            raise InvalidInput('Unit.out_of_supply', _not_a(self.out_of_supply, 'true or false'))
        if self.multi_step is not True and self.multi_step is not False:
            raise InvalidInput('Unit.multi_step', _not_a(self.multi_step, 'true or false'))
        if type(self.printed_re) is not int and type(self.printed_re) is not Fraction:
            raise InvalidInput('Unit.printed_re', _not_a(self.printed_re, 'a number'))
        if type(self.step_losses) is not int:
            raise InvalidInput('Unit.step_losses', _not_a(self.step_losses, 'a whole number'))
        if type(self.points) is not int and type(self.points) is not Fraction:
            raise InvalidInput('Unit.points', _not_a(self.points, 'a number'))
        if self.organic is not True and self.organic is not False:
            raise InvalidInput('Unit.organic', _not_a(self.organic, 'true or false'))
        if self.tp_kind not in _TransportPointKind_set:
            raise InvalidInput(
                'Unit.tp_kind', f"{_shown(self.tp_kind)} is not one of the values", TransportPointKind_values
            )
        if self.loaded is not True and self.loaded is not False:
            raise InvalidInput('Unit.loaded', _not_a(self.loaded, 'true or false'))
        if type(self.formation) is not str:
            raise InvalidInput('Unit.formation', _not_a(self.formation, 'a text'))
        if type(self.nationality) is not str:
            raise InvalidInput('Unit.nationality', _not_a(self.nationality, 'a text'))
        if self.divisional is not True and self.divisional is not False:
            raise InvalidInput('Unit.divisional', _not_a(self.divisional, 'true or false'))
        if self.stocks not in _Stocks_set:
            raise InvalidInput('Unit.stocks', f"{_shown(self.stocks)} is not one of the values", Stocks_values)
        if self.no_rebuild is not True and self.no_rebuild is not False:
            raise InvalidInput('Unit.no_rebuild', _not_a(self.no_rebuild, 'true or false'))
        if self.breakdown is not True and self.breakdown is not False:
            raise InvalidInput('Unit.breakdown', _not_a(self.breakdown, 'true or false'))
        if self.will_spend_mp is not True and self.will_spend_mp is not False:
            raise InvalidInput('Unit.will_spend_mp', _not_a(self.will_spend_mp, 'true or false'))
        if self.active is not True and self.active is not False:
            raise InvalidInput('Unit.active', _not_a(self.active, 'true or false'))


# rules/ocs/series.rules:151  OCS
@dataclass(frozen=True, slots=True)
class Hex:
    """A hex and the friendly units in it

    Fields:
        units: The friendly units in the hex, listed from the top of the stack down
        phase: The phase being played (one of: reinforcement, movement, reaction, exploitation,
            combat_phase, barrage, supply, clean_up)
        moment: When the hex is looked at (one of: segment_end, moving, overrun)
        off_map: An Off-Map Holding Box rather than a map hex
    """

    units: tuple[Unit, ...] = ()
    phase: Phase = 'movement'
    moment: Moment = 'segment_end'
    off_map: bool = False

    def __post_init__(self) -> None:
        if type(self.units) is not tuple:
            raise InvalidInput('Hex.units', _not_a(self.units, 'a tuple'))
        for _units_item in self.units:
            if not isinstance(_units_item, Unit):
                raise InvalidInput('Hex.units', _not_a(_units_item, 'a Unit'))
        if self.phase not in _Phase_set:
            raise InvalidInput('Hex.phase', f"{_shown(self.phase)} is not one of the values", Phase_values)
        if self.moment not in _Moment_set:
            raise InvalidInput('Hex.moment', f"{_shown(self.moment)} is not one of the values", Moment_values)
        if self.off_map is not True and self.off_map is not False:
            raise InvalidInput('Hex.off_map', _not_a(self.off_map, 'true or false'))


# ---- checks --------------------------------------------------------------------


# rules/ocs/ch13-specialized-units.rules:54  13.1a  HQs and Modes
def hq_may_throw_supply(u: Unit) -> bool:
    """May this HQ throw supply? (13.1a)."""
    return u.type == 'hq' and u.mode != 'strat'


# rules/ocs/ch13-specialized-units.rules:54  13.1a  HQs and Modes
def _t_hq_may_throw_supply(u: Unit, _t: list[Cite]) -> bool:
    """hq_may_throw_supply, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_1a)
    return u.type == 'hq' and u.mode != 'strat'


# rules/ocs/ch13-specialized-units.rules:54  13.1a  HQs and Modes
def explain_hq_may_throw_supply(u: Unit) -> Answer[bool]:
    """May this HQ throw supply? (13.1a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_hq_may_throw_supply(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(hq_may_throw_supply, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:55  13.1a  HQs and Modes
def hq_uses_greater_throw_range(u: Unit) -> bool:
    """Does the HQ use its Combat Mode side's (greater) throw range? (13.1a)."""
    _u_mode = u.mode
    # rule: u.type == hq and combat_side(u)
    return u.type == 'hq' and (_u_mode == 'combat' or (_u_mode in _SET_dg_exploit_reserve and u.oriented_to_combat))


# rules/ocs/ch13-specialized-units.rules:55  13.1a  HQs and Modes
def _t_hq_uses_greater_throw_range(u: Unit, _t: list[Cite]) -> bool:
    """hq_uses_greater_throw_range, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_1a)
    return u.type == 'hq' and _t_combat_side(u, _t)


# rules/ocs/ch13-specialized-units.rules:55  13.1a  HQs and Modes
def explain_hq_uses_greater_throw_range(u: Unit) -> Answer[bool]:
    """Does the HQ use its Combat Mode side's (greater) throw range? (13.1a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_hq_uses_greater_throw_range(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(hq_uses_greater_throw_range, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:107  13.1c  HQs and Combat
def mode_after_forced_retreat(u: Unit) -> Mode:
    """The mode a unit is in after a forced retreat (13.1c)."""
    return 'move' if u.type == 'hq' else u.mode


# rules/ocs/ch13-specialized-units.rules:107  13.1c  HQs and Combat
def _t_mode_after_forced_retreat(u: Unit, _t: list[Cite]) -> Mode:
    """mode_after_forced_retreat, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_1c)
    return 'move' if u.type == 'hq' else u.mode


# rules/ocs/ch13-specialized-units.rules:107  13.1c  HQs and Combat
def explain_mode_after_forced_retreat(u: Unit) -> Answer[Mode]:
    """The mode a unit is in after a forced retreat (13.1c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_mode_after_forced_retreat(u, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:133  13.1d  Special HQs
def hq_may_supply(hq: Unit, u: Unit) -> bool:
    """May this HQ provide supply to this unit? (13.1d)."""
    _u_formation = u.formation
    return not hq.divisional or _u_formation == hq.formation or (_u_formation == '' and u.nationality == hq.nationality)


# rules/ocs/ch13-specialized-units.rules:133  13.1d  Special HQs
def _t_hq_may_supply(hq: Unit, u: Unit, _t: list[Cite]) -> bool:
    """hq_may_supply, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_1d)
    return not hq.divisional or u.formation == hq.formation or (u.formation == '' and u.nationality == hq.nationality)


# rules/ocs/ch13-specialized-units.rules:133  13.1d  Special HQs
def explain_hq_may_supply(hq: Unit, u: Unit) -> Answer[bool]:
    """May this HQ provide supply to this unit? (13.1d), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_hq_may_supply(hq, u, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(hq_may_supply, (('hq', hq, _DOMAINS_Unit_0), ('u', u, _DOMAINS_Unit_0), )),
    )


# rules/ocs/ch13-specialized-units.rules:170  13.2a  Sequencing Transport/Supply
def pausing_load_may_pay(use: SpUse) -> bool:
    """May a pausing Transport Point's load pay for this? (13.2a)."""
    return SpUse_pay_while_pausing[use]


_ANSWERS_pausing_load_may_pay: Final[dict[tuple[SpUse], Answer[bool]]] = {
    ('fueling',): Answer(True, (_CITE_OCS_13_2a, _CITE_OCS_13_2a_fueling,), ()),
    ('construction',): Answer(True, (_CITE_OCS_13_2a, _CITE_OCS_13_2a_construction,), ()),
    ('combat_cost',): Answer(
        False, (_CITE_OCS_13_2a, _CITE_OCS_13_2a_combat_cost,), ('use = fueling', 'use = construction')
    ),
    ('barrage_cost',): Answer(
        False, (_CITE_OCS_13_2a, _CITE_OCS_13_2a_barrage_cost,), ('use = fueling', 'use = construction')
    ),
}


# rules/ocs/ch13-specialized-units.rules:170  13.2a  Sequencing Transport/Supply
def explain_pausing_load_may_pay(use: SpUse) -> Answer[bool]:
    """May a pausing Transport Point's load pay for this? (13.2a), with the rules that decided it."""
    return _ANSWERS_pausing_load_may_pay[(use,)]


# rules/ocs/ch13-specialized-units.rules:173  13.2a  Sequencing Transport/Supply
def may_move_another_unit(transport_point_unfinished: bool) -> bool:
    """May another unit be moved now? (not while a Transport Point has yet to finish moving) (13.2a)."""
    return not transport_point_unfinished


_ANSWERS_may_move_another_unit: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(True, (_CITE_OCS_13_2a,), ()),
    (True,): Answer(False, (_CITE_OCS_13_2a,), ('transport_point_unfinished = false',)),
}


# rules/ocs/ch13-specialized-units.rules:173  13.2a  Sequencing Transport/Supply
def explain_may_move_another_unit(transport_point_unfinished: bool) -> Answer[bool]:
    """May another unit be moved now? (not while a Transport Point has yet to finish moving) (13.2a), with the rules
    that decided it.
    """
    return _ANSWERS_may_move_another_unit[(transport_point_unfinished,)]


# rules/ocs/ch13-specialized-units.rules:195  13.2b  Transport Points and Supply
def transport_point_supplied(u: Unit) -> bool:
    """Transport Points are never Out of Supply (13.2b)."""
    return u.type != 'transport' or not u.out_of_supply


# rules/ocs/ch13-specialized-units.rules:195  13.2b  Transport Points and Supply
def _t_transport_point_supplied(u: Unit, _t: list[Cite]) -> bool:
    """transport_point_supplied, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2b)
    return u.type != 'transport' or not u.out_of_supply


# rules/ocs/ch13-specialized-units.rules:195  13.2b  Transport Points and Supply
def explain_transport_point_supplied(u: Unit) -> Answer[bool]:
    """Transport Points are never Out of Supply (13.2b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transport_point_supplied(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(transport_point_supplied, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:212  13.2c  Mechanical Handling
def may_combine_transport_points(a: Unit, b: Unit, phase: Phase, same_hex: bool) -> bool:
    """May these Transport Points combine (or divide)? (13.2c)."""
    # rule: phase == movement and same_hex and a.tp_kind == b.tp_kind and a.organic == b.organic
    return same_hex and phase == 'movement' and (a.tp_kind == b.tp_kind) and (a.organic == b.organic)


# rules/ocs/ch13-specialized-units.rules:212  13.2c  Mechanical Handling
def _t_may_combine_transport_points(a: Unit, b: Unit, phase: Phase, same_hex: bool, _t: list[Cite]) -> bool:
    """may_combine_transport_points, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2c)
    return phase == 'movement' and same_hex and (a.tp_kind == b.tp_kind) and (a.organic == b.organic)


# rules/ocs/ch13-specialized-units.rules:212  13.2c  Mechanical Handling
def explain_may_combine_transport_points(a: Unit, b: Unit, phase: Phase, same_hex: bool) -> Answer[bool]:
    """May these Transport Points combine (or divide)? (13.2c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_combine_transport_points(a, b, phase, same_hex, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_combine_transport_points,
            (
                ('a', a, _DOMAINS_Unit_0),
                ('b', b, _DOMAINS_Unit_0),
                (
                    'phase',
                    phase,
                    (
                        'reinforcement',
                        'movement',
                        'reaction',
                        'exploitation',
                        'combat_phase',
                        'barrage',
                        'supply',
                        'clean_up',
                    ),
                ),
                ('same_hex', same_hex, (False, True)),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:216  13.2c  Mechanical Handling
def _s_may_carry_sp(tp: Unit, sp: Number) -> bool:
    """may_carry_sp with numbers scaled by SCALE."""
    return sp <= _scaled(tp.points)


# rules/ocs/ch13-specialized-units.rules:216  13.2c  Mechanical Handling
def _t_may_carry_sp(tp: Unit, sp: Number, _t: list[Cite]) -> bool:
    """may_carry_sp, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2c)
    return sp <= _scaled(tp.points)


# rules/ocs/ch13-specialized-units.rules:216  13.2c  Mechanical Handling
def may_carry_sp(tp: Unit, sp: Number) -> bool:
    """Can the Transport Point carry this many SP? (13.2c). Numbers are exact: int or Fraction."""
    return _s_may_carry_sp(tp, sp * SCALE)


# rules/ocs/ch13-specialized-units.rules:216  13.2c  Mechanical Handling
def explain_may_carry_sp(tp: Unit, sp: Number) -> Answer[bool]:
    """Can the Transport Point carry this many SP? (13.2c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_carry_sp(tp, sp * SCALE, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(may_carry_sp, (('tp', tp, _DOMAINS_Unit_0), ('sp', sp, ()), )),
    )


# rules/ocs/ch13-specialized-units.rules:220  13.2c  Mechanical Handling
def within_counter_mix(counters_needed: int, counters_in_mix: int) -> bool:
    """Are there counters enough for Transport Points combined or divided this way? (counters_needed: the counters of
    that kind and size the result needs; counters_in_mix: how many of them the game's counter-mix has) (13.2c).
    """
    return counters_needed <= counters_in_mix


# rules/ocs/ch13-specialized-units.rules:220  13.2c  Mechanical Handling
def _t_within_counter_mix(counters_needed: int, counters_in_mix: int, _t: list[Cite]) -> bool:
    """within_counter_mix, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2c)
    return counters_needed <= counters_in_mix


# rules/ocs/ch13-specialized-units.rules:220  13.2c  Mechanical Handling
def explain_within_counter_mix(counters_needed: int, counters_in_mix: int) -> Answer[bool]:
    """Are there counters enough for Transport Points combined or divided this way? (counters_needed: the counters of
    that kind and size the result needs; counters_in_mix: how many of them the game's counter-mix has) (13.2c), with
    the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_within_counter_mix(counters_needed, counters_in_mix, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            within_counter_mix, (('counters_needed', counters_needed, ()), ('counters_in_mix', counters_in_mix, ()), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:257  13.2d  Mode Restrictions
def transport_point_mode(u: Unit) -> bool:
    """Transport Points are in Move Mode at all times; Organic Trucks may also be in Reserve Mode (13.2d)."""
    _u_mode = u.mode
    return u.type != 'transport' or _u_mode == 'move' or (u.organic and _u_mode == 'reserve')


# rules/ocs/ch13-specialized-units.rules:257  13.2d  Mode Restrictions
def _t_transport_point_mode(u: Unit, _t: list[Cite]) -> bool:
    """transport_point_mode, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2d)
    return u.type != 'transport' or u.mode == 'move' or (u.organic and u.mode == 'reserve')


# rules/ocs/ch13-specialized-units.rules:257  13.2d  Mode Restrictions
def explain_transport_point_mode(u: Unit) -> Answer[bool]:
    """Transport Points are in Move Mode at all times; Organic Trucks may also be in Reserve Mode (13.2d), with the
    rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_transport_point_mode(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(transport_point_mode, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:313  13.2f  Loading and Unloading
def load_cost(tp: Unit) -> int:
    """MP a Transport Point pays to load or unload SP in a hex (13.2f)."""
    return _s_rounded(_div(_scaled(tp.move_ma), 40))


# rules/ocs/ch13-specialized-units.rules:313  13.2f  Loading and Unloading
def _t_load_cost(tp: Unit, _t: list[Cite]) -> int:
    """load_cost, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2f)
    return _t_rounded(_div(_scaled(tp.move_ma), 40), _t)


# rules/ocs/ch13-specialized-units.rules:313  13.2f  Loading and Unloading
def explain_load_cost(tp: Unit) -> Answer[int]:
    """MP a Transport Point pays to load or unload SP in a hex (13.2f), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_load_cost(tp, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:315  13.2f  Loading and Unloading
def may_load_from(same_hex_as_dump: bool) -> bool:
    """May a Transport Point load from this dump? (13.2f)."""
    return same_hex_as_dump


_ANSWERS_may_load_from: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(False, (_CITE_OCS_13_2f,), ('same_hex_as_dump = true',)),
    (True,): Answer(True, (_CITE_OCS_13_2f,), ()),
}


# rules/ocs/ch13-specialized-units.rules:315  13.2f  Loading and Unloading
def explain_may_load_from(same_hex_as_dump: bool) -> Answer[bool]:
    """May a Transport Point load from this dump? (13.2f), with the rules that decided it."""
    return _ANSWERS_may_load_from[(same_hex_as_dump,)]


# rules/ocs/ch13-specialized-units.rules:371  13.2g  Organic Trucks
def may_draw_from(tp: Unit, u: Unit) -> bool:
    """May this unit draw SP from this Transport Point? (13.2g)."""
    return not tp.organic or u.formation == tp.formation


# rules/ocs/ch13-specialized-units.rules:371  13.2g  Organic Trucks
def _t_may_draw_from(tp: Unit, u: Unit, _t: list[Cite]) -> bool:
    """may_draw_from, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2g)
    return not tp.organic or u.formation == tp.formation


# rules/ocs/ch13-specialized-units.rules:371  13.2g  Organic Trucks
def explain_may_draw_from(tp: Unit, u: Unit) -> Answer[bool]:
    """May this unit draw SP from this Transport Point? (13.2g), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_draw_from(tp, u, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(may_draw_from, (('tp', tp, _DOMAINS_Unit_0), ('u', u, _DOMAINS_Unit_0), )),
    )


# rules/ocs/ch13-specialized-units.rules:374  13.2g  Organic Trucks
def may_form_extender(tp: Unit) -> bool:
    """May this Transport Point be combined to form an Extender? (13.2g)."""
    return not tp.organic


# rules/ocs/ch13-specialized-units.rules:374  13.2g  Organic Trucks
def _t_may_form_extender(tp: Unit, _t: list[Cite]) -> bool:
    """may_form_extender, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2g)
    return not tp.organic


# rules/ocs/ch13-specialized-units.rules:374  13.2g  Organic Trucks
def explain_may_form_extender(tp: Unit) -> Answer[bool]:
    """May this Transport Point be combined to form an Extender? (13.2g), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_form_extender(tp, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(may_form_extender, (('tp', tp, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:386  13.2g  Organic Trucks
def organic_after_capture(tp: Unit) -> bool:
    """Is the Transport Point still Organic once captured? (13.2g)."""
    return False


# rules/ocs/ch13-specialized-units.rules:386  13.2g  Organic Trucks
def _t_organic_after_capture(tp: Unit, _t: list[Cite]) -> bool:
    """organic_after_capture, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2g)
    return False


# rules/ocs/ch13-specialized-units.rules:386  13.2g  Organic Trucks
def explain_organic_after_capture(tp: Unit) -> Answer[bool]:
    """Is the Transport Point still Organic once captured? (13.2g), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_organic_after_capture(tp, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(organic_after_capture, (('tp', tp, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:388  13.2g  Organic Trucks
def may_withhold_combat_supply(tp: Unit) -> bool:
    """May this Transport Point withhold combat supply (12.10a)? (13.2g)."""
    return tp.organic


# rules/ocs/ch13-specialized-units.rules:388  13.2g  Organic Trucks
def _t_may_withhold_combat_supply(tp: Unit, _t: list[Cite]) -> bool:
    """may_withhold_combat_supply, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2g)
    return tp.organic


# rules/ocs/ch13-specialized-units.rules:388  13.2g  Organic Trucks
def explain_may_withhold_combat_supply(tp: Unit) -> Answer[bool]:
    """May this Transport Point withhold combat supply (12.10a)? (13.2g), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_withhold_combat_supply(tp, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(may_withhold_combat_supply, (('tp', tp, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:391  13.2g  Organic Trucks
def dg_result_removes_reserve(tp: Unit) -> bool:
    """D) Does a DG result in its hex take this Organic Truck's Reserve marker off (leaving it in Move Mode, 13.2d)?
    (13.2g).
    """
    return tp.type == 'transport' and tp.mode == 'reserve'


# rules/ocs/ch13-specialized-units.rules:391  13.2g  Organic Trucks
def _t_dg_result_removes_reserve(tp: Unit, _t: list[Cite]) -> bool:
    """dg_result_removes_reserve, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2g)
    return tp.type == 'transport' and tp.mode == 'reserve'


# rules/ocs/ch13-specialized-units.rules:391  13.2g  Organic Trucks
def explain_dg_result_removes_reserve(tp: Unit) -> Answer[bool]:
    """D) Does a DG result in its hex take this Organic Truck's Reserve marker off (leaving it in Move Mode, 13.2d)?
    (13.2g), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_dg_result_removes_reserve(tp, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(dg_result_removes_reserve, (('tp', tp, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:395  13.2g  Organic Trucks
def hq_may_throw_from(hq: Unit, tp: Unit, u: Unit) -> bool:
    """May this HQ throw SP from this Transport Point's load to this unit? (Organic Trucks: their formation only)
    (13.2g).
    """
    _u_formation = u.formation
    # rule: hq_may_throw_supply(hq) and hq_may_supply(hq, u) and (not tp.organic or u.formation == tp.formation)
    return (
        hq.type == 'hq'
        and hq.mode != 'strat'
        and (
            not hq.divisional
            or _u_formation == hq.formation
            or (_u_formation == '' and u.nationality == hq.nationality)
        )
        and (not tp.organic or _u_formation == tp.formation)
    )


# rules/ocs/ch13-specialized-units.rules:395  13.2g  Organic Trucks
def _t_hq_may_throw_from(hq: Unit, tp: Unit, u: Unit, _t: list[Cite]) -> bool:
    """hq_may_throw_from, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_2g)
    return (
        _t_hq_may_throw_supply(hq, _t)
        and _t_hq_may_supply(hq, u, _t)
        and (not tp.organic or u.formation == tp.formation)
    )


# rules/ocs/ch13-specialized-units.rules:395  13.2g  Organic Trucks
def explain_hq_may_throw_from(hq: Unit, tp: Unit, u: Unit) -> Answer[bool]:
    """May this HQ throw SP from this Transport Point's load to this unit? (Organic Trucks: their formation only)
    (13.2g), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_hq_may_throw_from(hq, tp, u, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            hq_may_throw_from, (('hq', hq, _DOMAINS_Unit_0), ('tp', tp, _DOMAINS_Unit_0), ('u', u, _DOMAINS_Unit_0), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:445  13.2i
def captured_may_move_at_once(captured_in: Phase) -> bool:
    """May captured Transport Points move in the phase they were captured? (13.2i)."""
    return captured_in == 'movement'


_ANSWERS_captured_may_move_at_once: Final[dict[tuple[Phase], Answer[bool]]] = {
    ('reinforcement',): Answer(False, (_CITE_OCS_13_2i,), ('captured_in = movement',)),
    ('movement',): Answer(True, (_CITE_OCS_13_2i,), ()),
    ('reaction',): Answer(False, (_CITE_OCS_13_2i,), ('captured_in = movement',)),
    ('exploitation',): Answer(False, (_CITE_OCS_13_2i,), ('captured_in = movement',)),
    ('combat_phase',): Answer(False, (_CITE_OCS_13_2i,), ('captured_in = movement',)),
    ('barrage',): Answer(False, (_CITE_OCS_13_2i,), ('captured_in = movement',)),
    ('supply',): Answer(False, (_CITE_OCS_13_2i,), ('captured_in = movement',)),
    ('clean_up',): Answer(False, (_CITE_OCS_13_2i,), ('captured_in = movement',)),
}


# rules/ocs/ch13-specialized-units.rules:445  13.2i
def explain_captured_may_move_at_once(captured_in: Phase) -> Answer[bool]:
    """May captured Transport Points move in the phase they were captured? (13.2i), with the rules that decided it."""
    return _ANSWERS_captured_may_move_at_once[(captured_in,)]


# rules/ocs/ch13-specialized-units.rules:487  13.3a
def rail_cargo(u: Unit) -> bool:
    """May this go by rail? (13.3a)."""
    # rule: transportable(u)
    return u.type not in _SET_air_base_fighter_hedgeho_ae8dbffd


# rules/ocs/ch13-specialized-units.rules:487  13.3a
def _t_rail_cargo(u: Unit, _t: list[Cite]) -> bool:
    """rail_cargo, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3a)
    return _t_transportable(u, _t)


# rules/ocs/ch13-specialized-units.rules:487  13.3a
def explain_rail_cargo(u: Unit) -> Answer[bool]:
    """May this go by rail? (13.3a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_rail_cargo(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(rail_cargo, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch13-specialized-units.rules:489  13.3a
def _s_rail_cap_cost(cargo: tuple[Unit, ...], trainbusting: bool, all_multi_track: bool) -> Number:
    """rail_cap_cost with numbers scaled by SCALE."""
    return _mul(
        _sum(_s_transport_equivalent(u) for u in cargo) * (2 if trainbusting else 1), 2 if all_multi_track else 4
    )


# rules/ocs/ch13-specialized-units.rules:489  13.3a
def _t_rail_cap_cost(cargo: tuple[Unit, ...], trainbusting: bool, all_multi_track: bool, _t: list[Cite]) -> Number:
    """rail_cap_cost, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3a)
    return _mul(
        _sum(_t_transport_equivalent(u, _t) for u in cargo) * (2 if trainbusting else 1), 2 if all_multi_track else 4
    )


# rules/ocs/ch13-specialized-units.rules:489  13.3a
def rail_cap_cost(cargo: Sequence[Unit], trainbusting: bool, all_multi_track: bool) -> Number:
    """Rail Cap points to move this cargo along a path (13.3a). Numbers are exact: int or Fraction."""
    return _exact(_s_rail_cap_cost(tuple(cargo), trainbusting, all_multi_track))


# rules/ocs/ch13-specialized-units.rules:489  13.3a
def explain_rail_cap_cost(cargo: Sequence[Unit], trainbusting: bool, all_multi_track: bool) -> Answer[Number]:
    """Rail Cap points to move this cargo along a path (13.3a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_rail_cap_cost(tuple(cargo), trainbusting, all_multi_track, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:515  13.3b
def rail_cap_usable(phase: Phase) -> bool:
    """May Rail Cap be used in this phase? (13.3b)."""
    return phase == 'movement'


_ANSWERS_rail_cap_usable: Final[dict[tuple[Phase], Answer[bool]]] = {
    ('reinforcement',): Answer(False, (_CITE_OCS_13_3b,), ('phase = movement',)),
    ('movement',): Answer(True, (_CITE_OCS_13_3b,), ()),
    ('reaction',): Answer(False, (_CITE_OCS_13_3b,), ('phase = movement',)),
    ('exploitation',): Answer(False, (_CITE_OCS_13_3b,), ('phase = movement',)),
    ('combat_phase',): Answer(False, (_CITE_OCS_13_3b,), ('phase = movement',)),
    ('barrage',): Answer(False, (_CITE_OCS_13_3b,), ('phase = movement',)),
    ('supply',): Answer(False, (_CITE_OCS_13_3b,), ('phase = movement',)),
    ('clean_up',): Answer(False, (_CITE_OCS_13_3b,), ('phase = movement',)),
}


# rules/ocs/ch13-specialized-units.rules:515  13.3b
def explain_rail_cap_usable(phase: Phase) -> Answer[bool]:
    """May Rail Cap be used in this phase? (13.3b), with the rules that decided it."""
    return _ANSWERS_rail_cap_usable[(phase,)]


# rules/ocs/ch13-specialized-units.rules:517  13.3b
def _s_rail_cap_available(turn_level: Number, unspent_before: Number) -> Number:
    """rail_cap_available with numbers scaled by SCALE."""
    return turn_level


# rules/ocs/ch13-specialized-units.rules:517  13.3b
def _t_rail_cap_available(turn_level: Number, unspent_before: Number, _t: list[Cite]) -> Number:
    """rail_cap_available, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3b)
    return turn_level


# rules/ocs/ch13-specialized-units.rules:517  13.3b
def rail_cap_available(turn_level: Number, unspent_before: Number) -> Number:
    """Rail Cap points for this Movement Phase: the turn's level (what an earlier phase left unspent is not saved)
    (13.3b). Numbers are exact: int or Fraction.
    """
    return _exact(_s_rail_cap_available(turn_level * SCALE, unspent_before * SCALE))


# rules/ocs/ch13-specialized-units.rules:517  13.3b
def explain_rail_cap_available(turn_level: Number, unspent_before: Number) -> Answer[Number]:
    """Rail Cap points for this Movement Phase: the turn's level (what an earlier phase left unspent is not saved)
    (13.3b), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_rail_cap_available(turn_level * SCALE, unspent_before * SCALE, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:547  13.3c  Detrainable Hexes
def detrainable_for(x: RailHex, moving_cargo: bool) -> bool:
    """Is this railroad hex detrainable, for moving cargo or (moving_cargo false) for trace supply? (13.3c)."""
    # rule: (x.town_or_port or any(creates_detrainable(u) for u in x.units)) and x.controlled and
    # x.ezoc_free_path_to_supply and not (moving_cargo and x.path_needs_extender) and (not x.path_ezoc_negated or
    # ezoc_allows(if moving_cargo then C else D, true))
    return (
        (
            x.town_or_port
            or any(
                u.type == 'hq' and (u.mode == 'combat' or (u.mode == 'dg' and u.oriented_to_combat)) for u in x.units
            )
        )
        and x.controlled
        and x.ezoc_free_path_to_supply
        and (not (moving_cargo and x.path_needs_extender))
        and (not x.path_ezoc_negated or ezoc_allows('C' if moving_cargo else 'D', True))
    )


# rules/ocs/ch13-specialized-units.rules:547  13.3c  Detrainable Hexes
def _t_detrainable_for(x: RailHex, moving_cargo: bool, _t: list[Cite]) -> bool:
    """detrainable_for, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3c)
    return (
        (x.town_or_port or any(_t_creates_detrainable(u, _t) for u in x.units))
        and x.controlled
        and x.ezoc_free_path_to_supply
        and (not (moving_cargo and x.path_needs_extender))
        and (not x.path_ezoc_negated or _t_ezoc_allows('C' if moving_cargo else 'D', True, _t))
    )


# rules/ocs/ch13-specialized-units.rules:547  13.3c  Detrainable Hexes
def explain_detrainable_for(x: RailHex, moving_cargo: bool) -> Answer[bool]:
    """Is this railroad hex detrainable, for moving cargo or (moving_cargo false) for trace supply? (13.3c), with the
    rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_detrainable_for(x, moving_cargo, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            detrainable_for, (('x', x, _DOMAINS_RailHex_0), ('moving_cargo', moving_cargo, (False, True)), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:553  13.3c  Detrainable Hexes
def detrainable(x: RailHex) -> bool:
    """Is this railroad hex detrainable for moving cargo (to entrain or detrain)? (13.3c)."""
    # rule: detrainable_for(x, true)
    return (
        (
            x.town_or_port
            or any(
                u.type == 'hq' and (u.mode == 'combat' or (u.mode == 'dg' and u.oriented_to_combat)) for u in x.units
            )
        )
        and x.controlled
        and x.ezoc_free_path_to_supply
        and (not x.path_needs_extender)
        and (not x.path_ezoc_negated or ezoc_allows('C', True))
    )


# rules/ocs/ch13-specialized-units.rules:553  13.3c  Detrainable Hexes
def _t_detrainable(x: RailHex, _t: list[Cite]) -> bool:
    """detrainable, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3c)
    return _t_detrainable_for(x, True, _t)


# rules/ocs/ch13-specialized-units.rules:553  13.3c  Detrainable Hexes
def explain_detrainable(x: RailHex) -> Answer[bool]:
    """Is this railroad hex detrainable for moving cargo (to entrain or detrain)? (13.3c), with the rules that decided
    it.
    """
    _t: list[Cite] = []
    _value = _t_detrainable(x, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(detrainable, (('x', x, _DOMAINS_RailHex_0), )))


# rules/ocs/ch13-specialized-units.rules:587  13.3d  Railheads
def moves_railhead(u: Unit) -> bool:
    """Does this unit's movement move a Railhead marker? (13.3d)."""
    return u.type == 'rail_repair'


# rules/ocs/ch13-specialized-units.rules:587  13.3d  Railheads
def _t_moves_railhead(u: Unit, _t: list[Cite]) -> bool:
    """moves_railhead, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3d)
    return u.type == 'rail_repair'


# rules/ocs/ch13-specialized-units.rules:587  13.3d  Railheads
def explain_moves_railhead(u: Unit) -> Answer[bool]:
    """Does this unit's movement move a Railhead marker? (13.3d), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_moves_railhead(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(moves_railhead, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch13-specialized-units.rules:621  13.3e
def rail_path_hex_usable(enemy_combat_unit: bool, in_ezoc: bool, wrong_gauge: bool, controlled: bool) -> bool:
    """Can a rail path pass through this hex? (13.3e)."""
    return not enemy_combat_unit and (not in_ezoc) and (not wrong_gauge) and controlled


_ANSWERS_rail_path_hex_usable: Final[dict[tuple[bool, bool, bool, bool], Answer[bool]]] = {
    (False, False, False, False,): Answer(False, (_CITE_OCS_13_3e,), ('controlled = true',)),
    (False, False, False, True,): Answer(True, (_CITE_OCS_13_3e,), ()),
    (False, False, True, False,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (False, False, True, True,): Answer(False, (_CITE_OCS_13_3e,), ('wrong_gauge = false',)),
    (False, True, False, False,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (False, True, False, True,): Answer(False, (_CITE_OCS_13_3e,), ('in_ezoc = false',)),
    (False, True, True, False,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (False, True, True, True,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (True, False, False, False,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (True, False, False, True,): Answer(False, (_CITE_OCS_13_3e,), ('enemy_combat_unit = false',)),
    (True, False, True, False,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (True, False, True, True,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (True, True, False, False,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (True, True, False, True,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (True, True, True, False,): Answer(False, (_CITE_OCS_13_3e,), ()),
    (True, True, True, True,): Answer(False, (_CITE_OCS_13_3e,), ()),
}


# rules/ocs/ch13-specialized-units.rules:621  13.3e
def explain_rail_path_hex_usable(enemy_combat_unit: bool, in_ezoc: bool, wrong_gauge: bool, controlled: bool) -> Answer[
    bool
]:
    """Can a rail path pass through this hex? (13.3e), with the rules that decided it."""
    return _ANSWERS_rail_path_hex_usable[(enemy_combat_unit, in_ezoc, wrong_gauge, controlled)]


# rules/ocs/ch13-specialized-units.rules:625  13.3e
def rail_steps_in_one_phase(entrained_in: Phase, detrains_in: Phase) -> bool:
    """Are entraining, moving and detraining done in the same phase? (13.3e)."""
    return entrained_in == detrains_in


_ANSWERS_rail_steps_in_one_phase: Final[dict[tuple[Phase, Phase], Answer[bool]]] = {
    ('reinforcement', 'reinforcement',): Answer(True, (_CITE_OCS_13_3e,), ()),
    ('reinforcement', 'movement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = movement', 'detrains_in = reinforcement')
    ),
    ('reinforcement', 'reaction',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reaction', 'detrains_in = reinforcement')
    ),
    ('reinforcement', 'exploitation',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = exploitation', 'detrains_in = reinforcement')
    ),
    ('reinforcement', 'combat_phase',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = combat_phase', 'detrains_in = reinforcement')
    ),
    ('reinforcement', 'barrage',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = barrage', 'detrains_in = reinforcement')
    ),
    ('reinforcement', 'supply',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = supply', 'detrains_in = reinforcement')
    ),
    ('reinforcement', 'clean_up',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = clean_up', 'detrains_in = reinforcement')
    ),
    ('movement', 'reinforcement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reinforcement', 'detrains_in = movement')
    ),
    ('movement', 'movement',): Answer(True, (_CITE_OCS_13_3e,), ()),
    ('movement', 'reaction',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = reaction', 'detrains_in = movement')),
    ('movement', 'exploitation',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = exploitation', 'detrains_in = movement')
    ),
    ('movement', 'combat_phase',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = combat_phase', 'detrains_in = movement')
    ),
    ('movement', 'barrage',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = barrage', 'detrains_in = movement')),
    ('movement', 'supply',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = supply', 'detrains_in = movement')),
    ('movement', 'clean_up',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = clean_up', 'detrains_in = movement')),
    ('reaction', 'reinforcement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reinforcement', 'detrains_in = reaction')
    ),
    ('reaction', 'movement',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = movement', 'detrains_in = reaction')),
    ('reaction', 'reaction',): Answer(True, (_CITE_OCS_13_3e,), ()),
    ('reaction', 'exploitation',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = exploitation', 'detrains_in = reaction')
    ),
    ('reaction', 'combat_phase',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = combat_phase', 'detrains_in = reaction')
    ),
    ('reaction', 'barrage',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = barrage', 'detrains_in = reaction')),
    ('reaction', 'supply',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = supply', 'detrains_in = reaction')),
    ('reaction', 'clean_up',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = clean_up', 'detrains_in = reaction')),
    ('exploitation', 'reinforcement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reinforcement', 'detrains_in = exploitation')
    ),
    ('exploitation', 'movement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = movement', 'detrains_in = exploitation')
    ),
    ('exploitation', 'reaction',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reaction', 'detrains_in = exploitation')
    ),
    ('exploitation', 'exploitation',): Answer(True, (_CITE_OCS_13_3e,), ()),
    ('exploitation', 'combat_phase',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = combat_phase', 'detrains_in = exploitation')
    ),
    ('exploitation', 'barrage',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = barrage', 'detrains_in = exploitation')
    ),
    ('exploitation', 'supply',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = supply', 'detrains_in = exploitation')
    ),
    ('exploitation', 'clean_up',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = clean_up', 'detrains_in = exploitation')
    ),
    ('combat_phase', 'reinforcement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reinforcement', 'detrains_in = combat_phase')
    ),
    ('combat_phase', 'movement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = movement', 'detrains_in = combat_phase')
    ),
    ('combat_phase', 'reaction',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reaction', 'detrains_in = combat_phase')
    ),
    ('combat_phase', 'exploitation',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = exploitation', 'detrains_in = combat_phase')
    ),
    ('combat_phase', 'combat_phase',): Answer(True, (_CITE_OCS_13_3e,), ()),
    ('combat_phase', 'barrage',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = barrage', 'detrains_in = combat_phase')
    ),
    ('combat_phase', 'supply',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = supply', 'detrains_in = combat_phase')
    ),
    ('combat_phase', 'clean_up',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = clean_up', 'detrains_in = combat_phase')
    ),
    ('barrage', 'reinforcement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reinforcement', 'detrains_in = barrage')
    ),
    ('barrage', 'movement',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = movement', 'detrains_in = barrage')),
    ('barrage', 'reaction',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = reaction', 'detrains_in = barrage')),
    ('barrage', 'exploitation',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = exploitation', 'detrains_in = barrage')
    ),
    ('barrage', 'combat_phase',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = combat_phase', 'detrains_in = barrage')
    ),
    ('barrage', 'barrage',): Answer(True, (_CITE_OCS_13_3e,), ()),
    ('barrage', 'supply',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = supply', 'detrains_in = barrage')),
    ('barrage', 'clean_up',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = clean_up', 'detrains_in = barrage')),
    ('supply', 'reinforcement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reinforcement', 'detrains_in = supply')
    ),
    ('supply', 'movement',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = movement', 'detrains_in = supply')),
    ('supply', 'reaction',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = reaction', 'detrains_in = supply')),
    ('supply', 'exploitation',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = exploitation', 'detrains_in = supply')
    ),
    ('supply', 'combat_phase',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = combat_phase', 'detrains_in = supply')
    ),
    ('supply', 'barrage',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = barrage', 'detrains_in = supply')),
    ('supply', 'supply',): Answer(True, (_CITE_OCS_13_3e,), ()),
    ('supply', 'clean_up',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = clean_up', 'detrains_in = supply')),
    ('clean_up', 'reinforcement',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = reinforcement', 'detrains_in = clean_up')
    ),
    ('clean_up', 'movement',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = movement', 'detrains_in = clean_up')),
    ('clean_up', 'reaction',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = reaction', 'detrains_in = clean_up')),
    ('clean_up', 'exploitation',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = exploitation', 'detrains_in = clean_up')
    ),
    ('clean_up', 'combat_phase',): Answer(
        False, (_CITE_OCS_13_3e,), ('entrained_in = combat_phase', 'detrains_in = clean_up')
    ),
    ('clean_up', 'barrage',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = barrage', 'detrains_in = clean_up')),
    ('clean_up', 'supply',): Answer(False, (_CITE_OCS_13_3e,), ('entrained_in = supply', 'detrains_in = clean_up')),
    ('clean_up', 'clean_up',): Answer(True, (_CITE_OCS_13_3e,), ()),
}


# rules/ocs/ch13-specialized-units.rules:625  13.3e
def explain_rail_steps_in_one_phase(entrained_in: Phase, detrains_in: Phase) -> Answer[bool]:
    """Are entraining, moving and detraining done in the same phase? (13.3e), with the rules that decided it."""
    return _ANSWERS_rail_steps_in_one_phase[(entrained_in, detrains_in)]


# rules/ocs/ch13-specialized-units.rules:629  13.3e
def may_entrain_off_map(arrival_hex_has_railroad: bool) -> bool:
    (
        '1) May reinforcements or new SP entrain "off-map"? (13.6b: the usual entraining requirements do not apply) '
        '(13.3e).'
    )
    return arrival_hex_has_railroad


_ANSWERS_may_entrain_off_map: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(False, (_CITE_OCS_13_3e,), ('arrival_hex_has_railroad = true',)),
    (True,): Answer(True, (_CITE_OCS_13_3e,), ()),
}


# rules/ocs/ch13-specialized-units.rules:629  13.3e
def explain_may_entrain_off_map(arrival_hex_has_railroad: bool) -> Answer[bool]:
    (
        '1) May reinforcements or new SP entrain "off-map"? (13.6b: the usual entraining requirements do not apply) '
        '(13.3e), with the rules that decided it.'
    )
    return _ANSWERS_may_entrain_off_map[(arrival_hex_has_railroad,)]


# rules/ocs/ch13-specialized-units.rules:677  13.3f  Rail Conversion
def may_convert_hex(in_ezoc: bool, negated: bool) -> bool:
    """May a rail hex be converted? (13.3f)."""
    return not in_ezoc or ezoc_allows('E', negated)


_ANSWERS_may_convert_hex: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(True, (_CITE_OCS_13_3f,), ()),
    (False, True,): Answer(True, (_CITE_OCS_13_3f,), ()),
    (True, False,): Answer(
        False, (_CITE_OCS_13_3f, _CITE_OCS_4_5b, _CITE_OCS_4_5a, _CITE_OCS_4_5a_E,), ('in_ezoc = false',)
    ),
    (True, True,): Answer(
        False, (_CITE_OCS_13_3f, _CITE_OCS_4_5b, _CITE_OCS_4_5a, _CITE_OCS_4_5a_E,), ('in_ezoc = false',)
    ),
}


# rules/ocs/ch13-specialized-units.rules:677  13.3f  Rail Conversion
def explain_may_convert_hex(in_ezoc: bool, negated: bool) -> Answer[bool]:
    """May a rail hex be converted? (13.3f), with the rules that decided it."""
    return _ANSWERS_may_convert_hex[(in_ezoc, negated)]


# rules/ocs/ch13-specialized-units.rules:704  13.3g  Rail Repair Units
def may_rail_over_converted(converted_this_phase: bool) -> bool:
    """A) May a Rail Repair unit use rail movement over these hexes? (13.3g)."""
    return not converted_this_phase


_ANSWERS_may_rail_over_converted: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(True, (_CITE_OCS_13_3g,), ()),
    (True,): Answer(False, (_CITE_OCS_13_3g,), ('converted_this_phase = false',)),
}


# rules/ocs/ch13-specialized-units.rules:704  13.3g  Rail Repair Units
def explain_may_rail_over_converted(converted_this_phase: bool) -> Answer[bool]:
    """A) May a Rail Repair unit use rail movement over these hexes? (13.3g), with the rules that decided it."""
    return _ANSWERS_may_rail_over_converted[(converted_this_phase,)]


# rules/ocs/ch13-specialized-units.rules:717  13.3g  Rail Repair Units
def _s_ma_after_rail(u: Unit, ma: Number, spent_before: Number) -> Number:
    """ma_after_rail with numbers scaled by SCALE."""
    _u_type = u.type
    # rule: max(0, min(ma_after(u, rail, false) * ma, transported_ma(u, rail, false) * ma - spent_before))
    return _nmax(
        0,
        _nmin(
            _mul(4 if _u_type == 'rail_repair' and True else 0, ma),
            _mul(4 if _u_type == 'rail_repair' and True else 2, ma) - spent_before,
        ),
    )


# rules/ocs/ch13-specialized-units.rules:717  13.3g  Rail Repair Units
def _t_ma_after_rail(u: Unit, ma: Number, spent_before: Number, _t: list[Cite]) -> Number:
    """ma_after_rail, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3g)
    return _nmax(
        0,
        _nmin(
            _mul(_t_ma_after(u, 'rail', False, _t), ma),
            _mul(_t_transported_ma(u, 'rail', False, _t), ma) - spent_before,
        ),
    )


# rules/ocs/ch13-specialized-units.rules:717  13.3g  Rail Repair Units
def ma_after_rail(u: Unit, ma: Number, spent_before: Number) -> Number:
    """B) MP a unit may still spend after rail movement (ma: its full MA, of the side it is on; spent_before: MP spent
    before entraining) (13.3g). Numbers are exact: int or Fraction.
    """
    return _exact(_s_ma_after_rail(u, ma * SCALE, spent_before * SCALE))


# rules/ocs/ch13-specialized-units.rules:717  13.3g  Rail Repair Units
def explain_ma_after_rail(u: Unit, ma: Number, spent_before: Number) -> Answer[Number]:
    """B) MP a unit may still spend after rail movement (ma: its full MA, of the side it is on; spent_before: MP spent
    before entraining) (13.3g), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_ma_after_rail(u, ma * SCALE, spent_before * SCALE, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:730  13.3g  Rail Repair Units
def _s_conversions_allowed(u: Unit, phase: Phase, current_ma: Number) -> int:
    """conversions_allowed with numbers scaled by SCALE."""
    _u_mode = u.mode
    # rule: if u.type == rail_repair and phase == movement and combat_or_dg_combat(u) then min(4, floor(current_ma))
    # else 0
    return (
        min(4, current_ma // 4)
        if (
            u.type == 'rail_repair'
            and phase == 'movement'
            and (_u_mode == 'combat' or (_u_mode == 'dg' and u.oriented_to_combat))
        )
        else 0
    )


# rules/ocs/ch13-specialized-units.rules:730  13.3g  Rail Repair Units
def _t_conversions_allowed(u: Unit, phase: Phase, current_ma: Number, _t: list[Cite]) -> int:
    """conversions_allowed, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_3g)
    return (
        min(4, current_ma // 4)
        if u.type == 'rail_repair' and phase == 'movement' and _t_combat_or_dg_combat(u, _t)
        else 0
    )


# rules/ocs/ch13-specialized-units.rules:730  13.3g  Rail Repair Units
def conversions_allowed(u: Unit, phase: Phase, current_ma: Number) -> int:
    """D) Rail hexes this unit may convert (current_ma: its MA as it is now, which a mode may have changed) (13.3g).
    Numbers are exact: int or Fraction.
    """
    return _s_conversions_allowed(u, phase, current_ma * SCALE)


# rules/ocs/ch13-specialized-units.rules:730  13.3g  Rail Repair Units
def explain_conversions_allowed(u: Unit, phase: Phase, current_ma: Number) -> Answer[int]:
    """D) Rail hexes this unit may convert (current_ma: its MA as it is now, which a mode may have changed) (13.3g),
    with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_conversions_allowed(u, phase, current_ma * SCALE, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:787  13.3h  Railroad Control
def control_changes(enemy_combat_unit_entered: bool, clearly_on_enemy_side: bool) -> bool:
    """Does control of a rail hex change? (13.3h)."""
    return enemy_combat_unit_entered or clearly_on_enemy_side


_ANSWERS_control_changes: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(
        False, (_CITE_OCS_13_3h,), ('enemy_combat_unit_entered = true', 'clearly_on_enemy_side = true')
    ),
    (False, True,): Answer(True, (_CITE_OCS_13_3h,), ()),
    (True, False,): Answer(True, (_CITE_OCS_13_3h,), ()),
    (True, True,): Answer(True, (_CITE_OCS_13_3h,), ()),
}


# rules/ocs/ch13-specialized-units.rules:787  13.3h  Railroad Control
def explain_control_changes(enemy_combat_unit_entered: bool, clearly_on_enemy_side: bool) -> Answer[bool]:
    """Does control of a rail hex change? (13.3h), with the rules that decided it."""
    return _ANSWERS_control_changes[(enemy_combat_unit_entered, clearly_on_enemy_side)]


# rules/ocs/ch13-specialized-units.rules:816  13.4a
def may_barrage(u: Unit, eligible_to_act: bool, supply_paid: bool) -> bool:
    """May this artillery unit barrage in this Barrage Segment? (eligible_to_act there; the needed supply_paid) (13.4a).
    """
    # rule: u.type == artillery and u.mode not in {reserve, strat} and eligible_to_act and supply_paid
    return eligible_to_act and supply_paid and (u.type == 'artillery') and (u.mode not in _SET_reserve_strat)


# rules/ocs/ch13-specialized-units.rules:816  13.4a
def _t_may_barrage(u: Unit, eligible_to_act: bool, supply_paid: bool, _t: list[Cite]) -> bool:
    """may_barrage, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_4a)
    return u.type == 'artillery' and u.mode not in _SET_reserve_strat and eligible_to_act and supply_paid


# rules/ocs/ch13-specialized-units.rules:816  13.4a
def explain_may_barrage(u: Unit, eligible_to_act: bool, supply_paid: bool) -> Answer[bool]:
    """May this artillery unit barrage in this Barrage Segment? (eligible_to_act there; the needed supply_paid) (13.4a),
    with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_barrage(u, eligible_to_act, supply_paid, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_barrage,
            (
                ('u', u, _DOMAINS_Unit_0),
                ('eligible_to_act', eligible_to_act, (False, True)),
                ('supply_paid', supply_paid, (False, True)),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:864  13.5  Replacement Units
def repl_mode(u: Unit) -> bool:
    """Repls can never enter Combat Mode (13.5)."""
    return u.type != 'repl' or u.mode != 'combat'


# rules/ocs/ch13-specialized-units.rules:864  13.5  Replacement Units
def _t_repl_mode(u: Unit, _t: list[Cite]) -> bool:
    """repl_mode, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5)
    return u.type != 'repl' or u.mode != 'combat'


# rules/ocs/ch13-specialized-units.rules:864  13.5  Replacement Units
def explain_repl_mode(u: Unit) -> Answer[bool]:
    """Repls can never enter Combat Mode (13.5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_repl_mode(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(repl_mode, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch13-specialized-units.rules:866  13.5  Replacement Units
def repl_independent(u: Unit) -> bool:
    """Repls are independent combat units (of no multi-unit formation) (13.5)."""
    return u.type != 'repl' or u.formation == ''


# rules/ocs/ch13-specialized-units.rules:866  13.5  Replacement Units
def _t_repl_independent(u: Unit, _t: list[Cite]) -> bool:
    """repl_independent, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5)
    return u.type != 'repl' or u.formation == ''


# rules/ocs/ch13-specialized-units.rules:866  13.5  Replacement Units
def explain_repl_independent(u: Unit) -> Answer[bool]:
    """Repls are independent combat units (of no multi-unit formation) (13.5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_repl_independent(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(repl_independent, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch13-specialized-units.rules:870  13.5  Replacement Units
def repl_may_take_losses(u: Unit) -> bool:
    """Can this Repl be used to take combat or barrage losses (in any mode)? (13.5)."""
    return u.type == 'repl'


# rules/ocs/ch13-specialized-units.rules:870  13.5  Replacement Units
def _t_repl_may_take_losses(u: Unit, _t: list[Cite]) -> bool:
    """repl_may_take_losses, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5)
    return u.type == 'repl'


# rules/ocs/ch13-specialized-units.rules:870  13.5  Replacement Units
def explain_repl_may_take_losses(u: Unit) -> Answer[bool]:
    """Can this Repl be used to take combat or barrage losses (in any mode)? (13.5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_repl_may_take_losses(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(repl_may_take_losses, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:909  13.5a  Replacing Losses
def may_rebuild(
    repl: Unit,
    hq: Unit,
    hexes_from_hq: int,
    in_ezoc: bool,
    negated: bool,
    phase: Phase,
    rebuilt: Rebuild,
    stacked_with_repls: bool,
) -> bool:
    """May these Repls rebuild here? (stacked_with_repls: the on-map unit being rebuilt is in their hex) (13.5a)."""
    _hq_mode = hq.mode
    # rule: phase == reinforcement and repl.type == repl and repl.mode == move and hq.type == hq and
    # combat_or_dg_combat(hq) and hexes_from_hq <= 2 and (not in_ezoc or ezoc_allows(K, negated)) and (rebuilt ==
    # dead_pile or stacked_with_repls)
    return (
        phase == 'reinforcement'
        and repl.type == 'repl'
        and (repl.mode == 'move')
        and (hq.type == 'hq')
        and (_hq_mode == 'combat' or (_hq_mode == 'dg' and hq.oriented_to_combat))
        and (hexes_from_hq <= 2)
        and (not in_ezoc or ezoc_allows('K', negated))
        and (stacked_with_repls or rebuilt == 'dead_pile')
    )


# rules/ocs/ch13-specialized-units.rules:909  13.5a  Replacing Losses
def _t_may_rebuild(
    repl: Unit,
    hq: Unit,
    hexes_from_hq: int,
    in_ezoc: bool,
    negated: bool,
    phase: Phase,
    rebuilt: Rebuild,
    stacked_with_repls: bool,
    _t: list[Cite],
) -> bool:
    """may_rebuild, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5a)
    return (
        phase == 'reinforcement'
        and repl.type == 'repl'
        and (repl.mode == 'move')
        and (hq.type == 'hq')
        and _t_combat_or_dg_combat(hq, _t)
        and (hexes_from_hq <= 2)
        and (not in_ezoc or _t_ezoc_allows('K', _cite_yes(_t, _RULES_OCS_4_5b, negated), _t))
        and (rebuilt == 'dead_pile' or stacked_with_repls)
    )


# rules/ocs/ch13-specialized-units.rules:909  13.5a  Replacing Losses
def explain_may_rebuild(
    repl: Unit,
    hq: Unit,
    hexes_from_hq: int,
    in_ezoc: bool,
    negated: bool,
    phase: Phase,
    rebuilt: Rebuild,
    stacked_with_repls: bool,
) -> Answer[bool]:
    """May these Repls rebuild here? (stacked_with_repls: the on-map unit being rebuilt is in their hex) (13.5a), with
    the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_rebuild(repl, hq, hexes_from_hq, in_ezoc, negated, phase, rebuilt, stacked_with_repls, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_rebuild,
            (
                ('repl', repl, _DOMAINS_Unit_0),
                ('hq', hq, _DOMAINS_Unit_0),
                ('hexes_from_hq', hexes_from_hq, ()),
                ('in_ezoc', in_ezoc, (False, True)),
                ('negated', negated, (False, True)),
                (
                    'phase',
                    phase,
                    (
                        'reinforcement',
                        'movement',
                        'reaction',
                        'exploitation',
                        'combat_phase',
                        'barrage',
                        'supply',
                        'clean_up',
                    ),
                ),
                ('rebuilt', rebuilt, ('dead_pile', 'on_map')),
                ('stacked_with_repls', stacked_with_repls, (False, True)),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:960  13.5b
def steps_rebuildable(u: Unit) -> int:
    """Steps a reduced multi-step unit can get back this turn (13.5b)."""
    return u.step_losses if u.multi_step else 0


# rules/ocs/ch13-specialized-units.rules:960  13.5b
def _t_steps_rebuildable(u: Unit, _t: list[Cite]) -> int:
    """steps_rebuildable, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5b)
    return u.step_losses if u.multi_step else 0


# rules/ocs/ch13-specialized-units.rules:960  13.5b
def explain_steps_rebuildable(u: Unit) -> Answer[int]:
    """Steps a reduced multi-step unit can get back this turn (13.5b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_steps_rebuildable(u, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:965  13.5b
def may_place_rebuilt_in(chosen: Mode) -> bool:
    """May a newly-rebuilt unit be placed in this mode? (13.5b)."""
    return Mode_voluntary[chosen]


_ANSWERS_may_place_rebuilt_in: Final[dict[tuple[Mode], Answer[bool]]] = {
    ('combat',): Answer(True, (_CITE_OCS_13_5b, _CITE_OCS_5_0_combat,), ()),
    ('move',): Answer(True, (_CITE_OCS_13_5b, _CITE_OCS_5_0_move,), ()),
    ('reserve',): Answer(True, (_CITE_OCS_13_5b, _CITE_OCS_5_0_reserve,), ()),
    ('strat',): Answer(True, (_CITE_OCS_13_5b, _CITE_OCS_5_0_strat,), ()),
    ('dg',): Answer(
        False,
        (_CITE_OCS_13_5b, _CITE_OCS_5_0_dg,),
        ('chosen = combat', 'chosen = move', 'chosen = reserve', 'chosen = strat'),
    ),
    ('exploit',): Answer(
        False,
        (_CITE_OCS_13_5b, _CITE_OCS_5_0_exploit,),
        ('chosen = combat', 'chosen = move', 'chosen = reserve', 'chosen = strat'),
    ),
}


# rules/ocs/ch13-specialized-units.rules:965  13.5b
def explain_may_place_rebuilt_in(chosen: Mode) -> Answer[bool]:
    """May a newly-rebuilt unit be placed in this mode? (13.5b), with the rules that decided it."""
    return _ANSWERS_may_place_rebuilt_in[(chosen,)]


# rules/ocs/ch13-specialized-units.rules:1008  13.5d  One Repl for Two Units
def repls_for_paired_units(units: int) -> int:
    """Repls to rebuild this many units listed as pairs (13.5d)."""
    return -(-_div(units * 4, 8) // 4)


# rules/ocs/ch13-specialized-units.rules:1008  13.5d  One Repl for Two Units
def _t_repls_for_paired_units(units: int, _t: list[Cite]) -> int:
    """repls_for_paired_units, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5d)
    return -(-_div(units * 4, 8) // 4)


# rules/ocs/ch13-specialized-units.rules:1008  13.5d  One Repl for Two Units
def explain_repls_for_paired_units(units: int) -> Answer[int]:
    """Repls to rebuild this many units listed as pairs (13.5d), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_repls_for_paired_units(units, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:1026  13.5e  Truck Rebuilds
def truck_rebuildable(tp: Unit, lost_to_enemy_action: bool) -> bool:
    """May this Transport Point be rebuilt with Eq? (13.5e)."""
    # rule: tp.type == transport and tp.tp_kind == truck and lost_to_enemy_action
    return lost_to_enemy_action and tp.type == 'transport' and (tp.tp_kind == 'truck')


# rules/ocs/ch13-specialized-units.rules:1026  13.5e  Truck Rebuilds
def _t_truck_rebuildable(tp: Unit, lost_to_enemy_action: bool, _t: list[Cite]) -> bool:
    """truck_rebuildable, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5e)
    return tp.type == 'transport' and tp.tp_kind == 'truck' and lost_to_enemy_action


# rules/ocs/ch13-specialized-units.rules:1026  13.5e  Truck Rebuilds
def explain_truck_rebuildable(tp: Unit, lost_to_enemy_action: bool) -> Answer[bool]:
    """May this Transport Point be rebuilt with Eq? (13.5e), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_truck_rebuildable(tp, lost_to_enemy_action, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            truck_rebuildable,
            (('tp', tp, _DOMAINS_Unit_0), ('lost_to_enemy_action', lost_to_enemy_action, (False, True)), ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1030  13.5e  Truck Rebuilds
def trucks_within_scenario(trucks_in_play: int, scenario_trucks: int) -> bool:
    """Are this many trucks in play within what the scenario provides the player? (never more) (13.5e)."""
    return trucks_in_play <= scenario_trucks


# rules/ocs/ch13-specialized-units.rules:1030  13.5e  Truck Rebuilds
def _t_trucks_within_scenario(trucks_in_play: int, scenario_trucks: int, _t: list[Cite]) -> bool:
    """trucks_within_scenario, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5e)
    return trucks_in_play <= scenario_trucks


# rules/ocs/ch13-specialized-units.rules:1030  13.5e  Truck Rebuilds
def explain_trucks_within_scenario(trucks_in_play: int, scenario_trucks: int) -> Answer[bool]:
    """Are this many trucks in play within what the scenario provides the player? (never more) (13.5e), with the rules
    that decided it.
    """
    _t: list[Cite] = []
    _value = _t_trucks_within_scenario(trucks_in_play, scenario_trucks, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            trucks_within_scenario, (('trucks_in_play', trucks_in_play, ()), ('scenario_trucks', scenario_trucks, ()), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1061  13.5f  Air Replacements
def eq_for_air_steps(steps: int) -> int:
    """Eq to rebuild this many aircraft steps (13.5f)."""
    return -(-_div(steps * 4, 8) // 4)


# rules/ocs/ch13-specialized-units.rules:1061  13.5f  Air Replacements
def _t_eq_for_air_steps(steps: int, _t: list[Cite]) -> int:
    """eq_for_air_steps, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5f)
    return -(-_div(steps * 4, 8) // 4)


# rules/ocs/ch13-specialized-units.rules:1061  13.5f  Air Replacements
def explain_eq_for_air_steps(steps: int) -> Answer[int]:
    """Eq to rebuild this many aircraft steps (13.5f), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_eq_for_air_steps(steps, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:1063  13.5f  Air Replacements
def may_rebuild_aircraft(
    eq: Unit, hq: Unit, hexes_from_hq: int, in_ezoc: bool, negated: bool, phase: Phase, base: Hex
) -> bool:
    """May these Eq, expended at an HQ per 13.5a, rebuild an aircraft at this air base (any friendly one, near the HQ or
    not, whatever the flight conditions)? (13.5f).
    """
    return (
        may_rebuild(eq, hq, hexes_from_hq, in_ezoc, negated, phase, 'dead_pile', False)
        and any(u.type == 'air_base' for u in base.units)
    )


# rules/ocs/ch13-specialized-units.rules:1063  13.5f  Air Replacements
def _t_may_rebuild_aircraft(
    eq: Unit, hq: Unit, hexes_from_hq: int, in_ezoc: bool, negated: bool, phase: Phase, base: Hex, _t: list[Cite]
) -> bool:
    """may_rebuild_aircraft, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5f)
    return (
        _t_may_rebuild(
            eq, hq, hexes_from_hq, in_ezoc, _cite_yes(_t, _RULES_OCS_4_5b, negated), phase, 'dead_pile', False, _t
        )
        and any(u.type == 'air_base' for u in base.units)
    )


# rules/ocs/ch13-specialized-units.rules:1063  13.5f  Air Replacements
def explain_may_rebuild_aircraft(
    eq: Unit, hq: Unit, hexes_from_hq: int, in_ezoc: bool, negated: bool, phase: Phase, base: Hex
) -> Answer[bool]:
    """May these Eq, expended at an HQ per 13.5a, rebuild an aircraft at this air base (any friendly one, near the HQ or
    not, whatever the flight conditions)? (13.5f), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_rebuild_aircraft(eq, hq, hexes_from_hq, in_ezoc, negated, phase, base, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_rebuild_aircraft,
            (
                ('eq', eq, _DOMAINS_Unit_0),
                ('hq', hq, _DOMAINS_Unit_0),
                ('hexes_from_hq', hexes_from_hq, ()),
                ('in_ezoc', in_ezoc, (False, True)),
                ('negated', negated, (False, True)),
                (
                    'phase',
                    phase,
                    (
                        'reinforcement',
                        'movement',
                        'reaction',
                        'exploitation',
                        'combat_phase',
                        'barrage',
                        'supply',
                        'clean_up',
                    ),
                ),
                ('base', base, _DOMAINS_Hex_0),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1069  13.5f  Air Replacements
def rebuilt_aircraft_arrives(plane: Unit, base: Hex) -> bool:
    """Is this aircraft rebuilt from the Dead Pile placed as it arrives: Active, at a friendly air base? (13.5f)."""
    # rule: is_air(plane) and plane.active and any(u.type == air_base for u in base.units)
    return UnitType_air[plane.type] and plane.active and any(u.type == 'air_base' for u in base.units)


# rules/ocs/ch13-specialized-units.rules:1069  13.5f  Air Replacements
def _t_rebuilt_aircraft_arrives(plane: Unit, base: Hex, _t: list[Cite]) -> bool:
    """rebuilt_aircraft_arrives, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_5f)
    return _t_is_air(plane, _t) and plane.active and any(u.type == 'air_base' for u in base.units)


# rules/ocs/ch13-specialized-units.rules:1069  13.5f  Air Replacements
def explain_rebuilt_aircraft_arrives(plane: Unit, base: Hex) -> Answer[bool]:
    """Is this aircraft rebuilt from the Dead Pile placed as it arrives: Active, at a friendly air base? (13.5f), with
    the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_rebuilt_aircraft_arrives(plane, base, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            rebuilt_aircraft_arrives, (('plane', plane, _DOMAINS_Unit_0), ('base', base, _DOMAINS_Hex_0), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1099  13.6  Reinforcements
def may_place_reinforcements_now(phase: Phase, own_player_turn: bool, turn: int, arrival_turn: int) -> bool:
    """May reinforcements due on their arrival turn be placed now? (their entry cannot be delayed) (13.6)."""
    # rule: phase == reinforcement and own_player_turn and turn == arrival_turn
    return own_player_turn and phase == 'reinforcement' and (turn == arrival_turn)


# rules/ocs/ch13-specialized-units.rules:1099  13.6  Reinforcements
def _t_may_place_reinforcements_now(
    phase: Phase, own_player_turn: bool, turn: int, arrival_turn: int, _t: list[Cite]
) -> bool:
    """may_place_reinforcements_now, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_6)
    return phase == 'reinforcement' and own_player_turn and (turn == arrival_turn)


# rules/ocs/ch13-specialized-units.rules:1099  13.6  Reinforcements
def explain_may_place_reinforcements_now(phase: Phase, own_player_turn: bool, turn: int, arrival_turn: int) -> Answer[
    bool
]:
    """May reinforcements due on their arrival turn be placed now? (their entry cannot be delayed) (13.6), with the
    rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_place_reinforcements_now(phase, own_player_turn, turn, arrival_turn, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_place_reinforcements_now,
            (
                (
                    'phase',
                    phase,
                    (
                        'reinforcement',
                        'movement',
                        'reaction',
                        'exploitation',
                        'combat_phase',
                        'barrage',
                        'supply',
                        'clean_up',
                    ),
                ),
                ('own_player_turn', own_player_turn, (False, True)),
                ('turn', turn, ()),
                ('arrival_turn', arrival_turn, ()),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1123  13.6  Reinforcements
def may_place_arriving_aircraft(plane: Unit, h: Hex) -> bool:
    """May this reinforcing aircraft be placed here: Active, on a friendly air base (any one)? (13.6)."""
    # rule: is_air(plane) and plane.active and any(u.type == air_base for u in h.units)
    return UnitType_air[plane.type] and plane.active and any(u.type == 'air_base' for u in h.units)


# rules/ocs/ch13-specialized-units.rules:1123  13.6  Reinforcements
def _t_may_place_arriving_aircraft(plane: Unit, h: Hex, _t: list[Cite]) -> bool:
    """may_place_arriving_aircraft, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_6)
    return _t_is_air(plane, _t) and plane.active and any(u.type == 'air_base' for u in h.units)


# rules/ocs/ch13-specialized-units.rules:1123  13.6  Reinforcements
def explain_may_place_arriving_aircraft(plane: Unit, h: Hex) -> Answer[bool]:
    """May this reinforcing aircraft be placed here: Active, on a friendly air base (any one)? (13.6), with the rules
    that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_place_arriving_aircraft(plane, h, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_place_arriving_aircraft, (('plane', plane, _DOMAINS_Unit_0), ('h', h, _DOMAINS_Hex_0), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1140  13.6a
def _s_may_place_at_port(arriving: Number, capacity: Number, port_in_ezoc: bool) -> bool:
    """may_place_at_port with numbers scaled by SCALE."""
    return not port_in_ezoc and arriving <= capacity


# rules/ocs/ch13-specialized-units.rules:1140  13.6a
def _t_may_place_at_port(arriving: Number, capacity: Number, port_in_ezoc: bool, _t: list[Cite]) -> bool:
    """may_place_at_port, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_6a)
    return not port_in_ezoc and arriving <= capacity


# rules/ocs/ch13-specialized-units.rules:1140  13.6a
def may_place_at_port(arriving: Number, capacity: Number, port_in_ezoc: bool) -> bool:
    """May these reinforcements be placed at this port? (13.6a). Numbers are exact: int or Fraction."""
    return _s_may_place_at_port(arriving * SCALE, capacity * SCALE, port_in_ezoc)


# rules/ocs/ch13-specialized-units.rules:1140  13.6a
def explain_may_place_at_port(arriving: Number, capacity: Number, port_in_ezoc: bool) -> Answer[bool]:
    """May these reinforcements be placed at this port? (13.6a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_place_at_port(arriving * SCALE, capacity * SCALE, port_in_ezoc, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_place_at_port,
            (('arriving', arriving, ()), ('capacity', capacity, ()), ('port_in_ezoc', port_in_ezoc, (False, True)), ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1146  13.6a
def arrival_may_overstack(u: Unit) -> bool:
    """May this arriving reinforcement be overstacked when placed? (Ground units may; aircraft arrivals must conform to
    normal stacking rules) (13.6a).
    """
    # rule: is_ground(u)
    return not UnitType_air[u.type]


# rules/ocs/ch13-specialized-units.rules:1146  13.6a
def _t_arrival_may_overstack(u: Unit, _t: list[Cite]) -> bool:
    """arrival_may_overstack, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_6a)
    return _t_is_ground(u, _t)


# rules/ocs/ch13-specialized-units.rules:1146  13.6a
def explain_arrival_may_overstack(u: Unit) -> Answer[bool]:
    """May this arriving reinforcement be overstacked when placed? (Ground units may; aircraft arrivals must conform to
    normal stacking rules) (13.6a), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_arrival_may_overstack(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(arrival_may_overstack, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:1171  13.6b
def may_enter_reinforcement_in(chosen: Mode) -> bool:
    """May a reinforcement enter in this mode? (13.6b)."""
    return Mode_voluntary[chosen]


_ANSWERS_may_enter_reinforcement_in: Final[dict[tuple[Mode], Answer[bool]]] = {
    ('combat',): Answer(True, (_CITE_OCS_13_6b, _CITE_OCS_5_0_combat,), ()),
    ('move',): Answer(True, (_CITE_OCS_13_6b, _CITE_OCS_5_0_move,), ()),
    ('reserve',): Answer(True, (_CITE_OCS_13_6b, _CITE_OCS_5_0_reserve,), ()),
    ('strat',): Answer(True, (_CITE_OCS_13_6b, _CITE_OCS_5_0_strat,), ()),
    ('dg',): Answer(
        False,
        (_CITE_OCS_13_6b, _CITE_OCS_5_0_dg,),
        ('chosen = combat', 'chosen = move', 'chosen = reserve', 'chosen = strat'),
    ),
    ('exploit',): Answer(
        False,
        (_CITE_OCS_13_6b, _CITE_OCS_5_0_exploit,),
        ('chosen = combat', 'chosen = move', 'chosen = reserve', 'chosen = strat'),
    ),
}


# rules/ocs/ch13-specialized-units.rules:1171  13.6b
def explain_may_enter_reinforcement_in(chosen: Mode) -> Answer[bool]:
    """May a reinforcement enter in this mode? (13.6b), with the rules that decided it."""
    return _ANSWERS_may_enter_reinforcement_in[(chosen,)]


# rules/ocs/ch13-specialized-units.rules:1173  13.6b
def may_place_reinforcement(in_ezoc: bool, at_port: bool) -> bool:
    """May a reinforcement be placed in this hex? (13.6b)."""
    return not (in_ezoc and at_port)


_ANSWERS_may_place_reinforcement: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(True, (_CITE_OCS_13_6b,), ()),
    (False, True,): Answer(True, (_CITE_OCS_13_6b,), ()),
    (True, False,): Answer(True, (_CITE_OCS_13_6b,), ()),
    (True, True,): Answer(False, (_CITE_OCS_13_6b,), ('in_ezoc = false', 'at_port = false')),
}


# rules/ocs/ch13-specialized-units.rules:1173  13.6b
def explain_may_place_reinforcement(in_ezoc: bool, at_port: bool) -> Answer[bool]:
    """May a reinforcement be placed in this hex? (13.6b), with the rules that decided it."""
    return _ANSWERS_may_place_reinforcement[(in_ezoc, at_port)]


# rules/ocs/ch13-specialized-units.rules:1211  13.6c
def arrives_loaded(tp: Unit, sp_arriving_there: bool) -> bool:
    """Does this Transport Point arrive loaded? (13.6c)."""
    # rule: tp.organic or sp_arriving_there
    return sp_arriving_there or tp.organic


# rules/ocs/ch13-specialized-units.rules:1211  13.6c
def _t_arrives_loaded(tp: Unit, sp_arriving_there: bool, _t: list[Cite]) -> bool:
    """arrives_loaded, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_6c)
    return tp.organic or sp_arriving_there


# rules/ocs/ch13-specialized-units.rules:1211  13.6c
def explain_arrives_loaded(tp: Unit, sp_arriving_there: bool) -> Answer[bool]:
    """Does this Transport Point arrive loaded? (13.6c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_arrives_loaded(tp, sp_arriving_there, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            arrives_loaded, (('tp', tp, _DOMAINS_Unit_0), ('sp_arriving_there', sp_arriving_there, (False, True)), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1245  13.7  Formation Markers
def marker_may_be_on_map(units_with_marker: int, fueling_reminder: bool) -> bool:
    """A) May the Formation marker be on the map? (13.7)."""
    # rule: units_with_marker >= 1 or fueling_reminder
    return fueling_reminder or units_with_marker >= 1


# rules/ocs/ch13-specialized-units.rules:1245  13.7  Formation Markers
def _t_marker_may_be_on_map(units_with_marker: int, fueling_reminder: bool, _t: list[Cite]) -> bool:
    """marker_may_be_on_map, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_7)
    return units_with_marker >= 1 or fueling_reminder


# rules/ocs/ch13-specialized-units.rules:1245  13.7  Formation Markers
def explain_marker_may_be_on_map(units_with_marker: int, fueling_reminder: bool) -> Answer[bool]:
    """A) May the Formation marker be on the map? (13.7), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_marker_may_be_on_map(units_with_marker, fueling_reminder, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            marker_may_be_on_map,
            (('units_with_marker', units_with_marker, ()), ('fueling_reminder', fueling_reminder, (False, True)), ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1249  13.7  Formation Markers
def may_enter_marker(u: Unit, marker_formation: str) -> bool:
    """B) May this unit be represented by the marker? (13.7)."""
    _u_formation = u.formation
    return _u_formation == marker_formation and _u_formation != ''


# rules/ocs/ch13-specialized-units.rules:1249  13.7  Formation Markers
def _t_may_enter_marker(u: Unit, marker_formation: str, _t: list[Cite]) -> bool:
    """may_enter_marker, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_7)
    return u.formation == marker_formation and u.formation != ''


# rules/ocs/ch13-specialized-units.rules:1249  13.7  Formation Markers
def explain_may_enter_marker(u: Unit, marker_formation: str) -> Answer[bool]:
    """B) May this unit be represented by the marker? (13.7), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_enter_marker(u, marker_formation, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_enter_marker, (('u', u, _DOMAINS_Unit_0), ('marker_formation', marker_formation, ()), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1252  13.7  Formation Markers
def marker_may_hide_formation(holds_only_zoc_units: bool) -> bool:
    """May the marker be put under other combat units to hide the formation? (13.7)."""
    return not holds_only_zoc_units


_ANSWERS_marker_may_hide_formation: Final[dict[tuple[bool], Answer[bool]]] = {
    (False,): Answer(True, (_CITE_OCS_13_7, _CITE_fog_of_war_13_7b,), ()),
    (True,): Answer(False, (_CITE_OCS_13_7, _CITE_fog_of_war_13_7b,), ('holds_only_zoc_units = false',)),
}


# rules/ocs/ch13-specialized-units.rules:1252  13.7  Formation Markers
def explain_marker_may_hide_formation(holds_only_zoc_units: bool) -> Answer[bool]:
    """May the marker be put under other combat units to hide the formation? (13.7), with the rules that decided it."""
    return _ANSWERS_marker_may_hide_formation[(holds_only_zoc_units,)]


# rules/ocs/ch13-specialized-units.rules:1256  13.7  Formation Markers
def marker_side(formation_fuel_paid: bool) -> MarkerSide:
    """D) The side the Formation marker shows (formation_fuel_paid: the formation method of fuel cost is paid, 12.5c)
    (13.7).
    """
    return 'fueled' if formation_fuel_paid else 'regular'


_ANSWERS_marker_side: Final[dict[tuple[bool], Answer[MarkerSide]]] = {
    (False,): Answer('regular', (_CITE_OCS_13_7,), ()),
    (True,): Answer('fueled', (_CITE_OCS_13_7,), ()),
}


# rules/ocs/ch13-specialized-units.rules:1256  13.7  Formation Markers
def explain_marker_side(formation_fuel_paid: bool) -> Answer[MarkerSide]:
    """D) The side the Formation marker shows (formation_fuel_paid: the formation method of fuel cost is paid, 12.5c)
    (13.7), with the rules that decided it.
    """
    return _ANSWERS_marker_side[(formation_fuel_paid,)]


# rules/ocs/ch13-specialized-units.rules:1287  13.7a  Supply Concerns
def traces_free(same_source_as_formation: bool, first_part: bool) -> bool:
    """Does this part of the formation trace supply for free? (13.7a)."""
    return same_source_as_formation or first_part


_ANSWERS_traces_free: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(False, (_CITE_OCS_13_7a,), ('same_source_as_formation = true', 'first_part = true')),
    (False, True,): Answer(True, (_CITE_OCS_13_7a,), ()),
    (True, False,): Answer(True, (_CITE_OCS_13_7a,), ()),
    (True, True,): Answer(True, (_CITE_OCS_13_7a,), ()),
}


# rules/ocs/ch13-specialized-units.rules:1287  13.7a  Supply Concerns
def explain_traces_free(same_source_as_formation: bool, first_part: bool) -> Answer[bool]:
    """Does this part of the formation trace supply for free? (13.7a), with the rules that decided it."""
    return _ANSWERS_traces_free[(same_source_as_formation, first_part)]


# rules/ocs/ch13-specialized-units.rules:1291  13.7a  Supply Concerns
def may_use_formation_fueling(same_source_as_formation: bool, first_part: bool) -> bool:
    """May this part of the formation use the formation method of fueling? (13.7a)."""
    return same_source_as_formation or first_part


_ANSWERS_may_use_formation_fueling: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(False, (_CITE_OCS_13_7a,), ('same_source_as_formation = true', 'first_part = true')),
    (False, True,): Answer(True, (_CITE_OCS_13_7a,), ()),
    (True, False,): Answer(True, (_CITE_OCS_13_7a,), ()),
    (True, True,): Answer(True, (_CITE_OCS_13_7a,), ()),
}


# rules/ocs/ch13-specialized-units.rules:1291  13.7a  Supply Concerns
def explain_may_use_formation_fueling(same_source_as_formation: bool, first_part: bool) -> Answer[bool]:
    """May this part of the formation use the formation method of fueling? (13.7a), with the rules that decided it."""
    return _ANSWERS_may_use_formation_fueling[(same_source_as_formation, first_part)]


# rules/ocs/ch13-specialized-units.rules:1310  13.8  Engineer Functions
def may_perform_engineering(u: Unit) -> bool:
    """Is this a unit type that can perform engineer functions? (13.8)."""
    return u.type in _SET_engineer_hq


# rules/ocs/ch13-specialized-units.rules:1310  13.8  Engineer Functions
def _t_may_perform_engineering(u: Unit, _t: list[Cite]) -> bool:
    """may_perform_engineering, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_8)
    return u.type in _SET_engineer_hq


# rules/ocs/ch13-specialized-units.rules:1310  13.8  Engineer Functions
def explain_may_perform_engineering(u: Unit) -> Answer[bool]:
    """Is this a unit type that can perform engineer functions? (13.8), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_perform_engineering(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(may_perform_engineering, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:1327  13.8a  Engineer-Capable
def engineer_capable(u: Unit) -> bool:
    """Engineer-Capable (13.8a)."""
    _u_mode = u.mode
    # rule: may_perform_engineering(u) and combat_or_dg_combat(u)
    return u.type in _SET_engineer_hq and (_u_mode == 'combat' or (_u_mode == 'dg' and u.oriented_to_combat))


# rules/ocs/ch13-specialized-units.rules:1327  13.8a  Engineer-Capable
def _t_engineer_capable(u: Unit, _t: list[Cite]) -> bool:
    """engineer_capable, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_8a)
    return _t_may_perform_engineering(u, _t) and _t_combat_or_dg_combat(u, _t)


# rules/ocs/ch13-specialized-units.rules:1327  13.8a  Engineer-Capable
def explain_engineer_capable(u: Unit) -> Answer[bool]:
    """Engineer-Capable (13.8a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_engineer_capable(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(engineer_capable, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch13-specialized-units.rules:1367  13.8b  Bridging
def may_attack_across(
    possible_as_printed: bool, possible_as_bridged: bool, bridged_by_engineers: bool, overrunning: bool
) -> bool:
    """Is an attack across this river hexside possible? (possible_as_bridged: across the hexside bridged makes it)
    (13.8b).
    """
    return possible_as_printed or (bridged_by_engineers and (not overrunning) and possible_as_bridged)


_ANSWERS_may_attack_across: Final[dict[tuple[bool, bool, bool, bool], Answer[bool]]] = {
    (False, False, False, False,): Answer(False, (_CITE_OCS_13_8b,), ('possible_as_printed = true',)),
    (False, False, False, True,): Answer(False, (_CITE_OCS_13_8b,), ('possible_as_printed = true',)),
    (False, False, True, False,): Answer(
        False, (_CITE_OCS_13_8b,), ('possible_as_printed = true', 'possible_as_bridged = true')
    ),
    (False, False, True, True,): Answer(False, (_CITE_OCS_13_8b,), ('possible_as_printed = true',)),
    (False, True, False, False,): Answer(
        False, (_CITE_OCS_13_8b,), ('possible_as_printed = true', 'bridged_by_engineers = true')
    ),
    (False, True, False, True,): Answer(False, (_CITE_OCS_13_8b,), ('possible_as_printed = true',)),
    (False, True, True, False,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (False, True, True, True,): Answer(
        False, (_CITE_OCS_13_8b,), ('possible_as_printed = true', 'overrunning = false')
    ),
    (True, False, False, False,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (True, False, False, True,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (True, False, True, False,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (True, False, True, True,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (True, True, False, False,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (True, True, False, True,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (True, True, True, False,): Answer(True, (_CITE_OCS_13_8b,), ()),
    (True, True, True, True,): Answer(True, (_CITE_OCS_13_8b,), ()),
}


# rules/ocs/ch13-specialized-units.rules:1367  13.8b  Bridging
def explain_may_attack_across(
    possible_as_printed: bool, possible_as_bridged: bool, bridged_by_engineers: bool, overrunning: bool
) -> Answer[bool]:
    """Is an attack across this river hexside possible? (possible_as_bridged: across the hexside bridged makes it)
    (13.8b), with the rules that decided it.
    """
    return _ANSWERS_may_attack_across[(possible_as_printed, possible_as_bridged, bridged_by_engineers, overrunning)]


# rules/ocs/ch13-specialized-units.rules:1419  13.8c  Detrainable Creation
def creates_detrainable(u: Unit) -> bool:
    """Does this unit make its railroad hex detrainable? (13.8c)."""
    _u_mode = u.mode
    # rule: u.type == hq and engineer_capable(u)
    return u.type == 'hq' and (_u_mode == 'combat' or (_u_mode == 'dg' and u.oriented_to_combat))


# rules/ocs/ch13-specialized-units.rules:1419  13.8c  Detrainable Creation
def _t_creates_detrainable(u: Unit, _t: list[Cite]) -> bool:
    """creates_detrainable, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_8c)
    return u.type == 'hq' and _t_engineer_capable(u, _t)


# rules/ocs/ch13-specialized-units.rules:1419  13.8c  Detrainable Creation
def explain_creates_detrainable(u: Unit) -> Answer[bool]:
    """Does this unit make its railroad hex detrainable? (13.8c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_creates_detrainable(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(creates_detrainable, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch13-specialized-units.rules:1468  13.8d  Construction
def may_construct(
    u: Unit,
    phase: Phase,
    leg_path_hexes: int,
    moved_this_phase: bool,
    built_in_another_hex: bool,
    built_another_type: bool,
) -> bool:
    """May this unit perform a construction task? (leg_path_hexes: the fewest hexes in a path to the task's hex that Leg
    MP could take, enemy ZOC ignored; 0 is its own hex. built_in_another_hex, built_another_type: it has already
    performed construction this phase in another hex, or of another type) (13.8d).
    """
    _u_mode = u.mode
    # rule: engineer_capable(u) and phase == movement and leg_path_hexes <= 2 and not moved_this_phase and not
    # built_in_another_hex and not built_another_type
    return (
        not moved_this_phase
        and (not built_in_another_hex)
        and (not built_another_type)
        and (u.type in _SET_engineer_hq)
        and (_u_mode == 'combat' or (_u_mode == 'dg' and u.oriented_to_combat))
        and (phase == 'movement')
        and (leg_path_hexes <= 2)
    )


# rules/ocs/ch13-specialized-units.rules:1468  13.8d  Construction
def _t_may_construct(
    u: Unit,
    phase: Phase,
    leg_path_hexes: int,
    moved_this_phase: bool,
    built_in_another_hex: bool,
    built_another_type: bool,
    _t: list[Cite],
) -> bool:
    """may_construct, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_8d)
    return (
        _t_engineer_capable(u, _t)
        and phase == 'movement'
        and (leg_path_hexes <= 2)
        and (not moved_this_phase)
        and (not built_in_another_hex)
        and (not built_another_type)
    )


# rules/ocs/ch13-specialized-units.rules:1468  13.8d  Construction
def explain_may_construct(
    u: Unit,
    phase: Phase,
    leg_path_hexes: int,
    moved_this_phase: bool,
    built_in_another_hex: bool,
    built_another_type: bool,
) -> Answer[bool]:
    """May this unit perform a construction task? (leg_path_hexes: the fewest hexes in a path to the task's hex that Leg
    MP could take, enemy ZOC ignored; 0 is its own hex. built_in_another_hex, built_another_type: it has already
    performed construction this phase in another hex, or of another type) (13.8d), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_construct(u, phase, leg_path_hexes, moved_this_phase, built_in_another_hex, built_another_type, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_construct,
            (
                ('u', u, _DOMAINS_Unit_0),
                (
                    'phase',
                    phase,
                    (
                        'reinforcement',
                        'movement',
                        'reaction',
                        'exploitation',
                        'combat_phase',
                        'barrage',
                        'supply',
                        'clean_up',
                    ),
                ),
                ('leg_path_hexes', leg_path_hexes, ()),
                ('moved_this_phase', moved_this_phase, (False, True)),
                ('built_in_another_hex', built_in_another_hex, (False, True)),
                ('built_another_type', built_another_type, (False, True)),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1474  13.8d  Construction
def construction_costs_sp(task: Construction) -> bool:
    """Does this task cost SP? (13.8d)."""
    return Construction_costs_sp[task]


_ANSWERS_construction_costs_sp: Final[dict[tuple[Construction], Answer[bool]]] = {
    ('build_air_base',): Answer(True, (_CITE_OCS_13_8d, _CITE_OCS_13_8d_build_air_base,), ()),
    ('improve_air_base',): Answer(True, (_CITE_OCS_13_8d, _CITE_OCS_13_8d_improve_air_base,), ()),
    ('reduce_air_base',): Answer(
        False,
        (_CITE_OCS_13_8d, _CITE_OCS_13_8d_reduce_air_base,),
        (
            'task = build_air_base',
            'task = improve_air_base',
            'task = build_hedgehog',
            'task = improve_hedgehog',
            'task = repair_port',
        ),
    ),
    ('build_hedgehog',): Answer(True, (_CITE_OCS_13_8d, _CITE_OCS_13_8d_build_hedgehog,), ()),
    ('improve_hedgehog',): Answer(True, (_CITE_OCS_13_8d, _CITE_OCS_13_8d_improve_hedgehog,), ()),
    ('reduce_hedgehog',): Answer(
        False,
        (_CITE_OCS_13_8d, _CITE_OCS_13_8d_reduce_hedgehog,),
        (
            'task = build_air_base',
            'task = improve_air_base',
            'task = build_hedgehog',
            'task = improve_hedgehog',
            'task = repair_port',
        ),
    ),
    ('repair_port',): Answer(True, (_CITE_OCS_13_8d, _CITE_OCS_13_8d_repair_port,), ()),
    ('damage_port',): Answer(
        False,
        (_CITE_OCS_13_8d, _CITE_OCS_13_8d_damage_port,),
        (
            'task = build_air_base',
            'task = improve_air_base',
            'task = build_hedgehog',
            'task = improve_hedgehog',
            'task = repair_port',
        ),
    ),
}


# rules/ocs/ch13-specialized-units.rules:1474  13.8d  Construction
def explain_construction_costs_sp(task: Construction) -> Answer[bool]:
    """Does this task cost SP? (13.8d), with the rules that decided it."""
    return _ANSWERS_construction_costs_sp[(task,)]


# rules/ocs/ch13-specialized-units.rules:1526  13.9  Unit Consolidation
def may_consolidate(u: Unit, kind: Consolidation, phase: Phase, alike: bool, together: bool) -> bool:
    """May this unit take part in this consolidation now? (alike: ground units identical on both sides of the counter;
    4) two reduced aircraft of the same type, values and status, Active or Inactive. together: 1, 4) the two units
    are in the same hex or off-map box. Adjacent enemy units and Out of Supply do not matter) (13.9).
    """
    # rule: (phase == reinforcement or kind == aircraft) and alike and (kind in {formations, independent_joins} or
    # together) and u.stocks == normal and u.mode != dg
    return (
        alike
        and (phase == 'reinforcement' or kind == 'aircraft')
        and (together or kind in _SET_formations_independent_joins)
        and (u.stocks == 'normal')
        and (u.mode != 'dg')
    )


# rules/ocs/ch13-specialized-units.rules:1526  13.9  Unit Consolidation
def _t_may_consolidate(u: Unit, kind: Consolidation, phase: Phase, alike: bool, together: bool, _t: list[Cite]) -> bool:
    """may_consolidate, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_9)
    return (
        (phase == 'reinforcement' or kind == 'aircraft')
        and alike
        and (kind in _SET_formations_independent_joins or together)
        and (u.stocks == 'normal')
        and (u.mode != 'dg')
    )


# rules/ocs/ch13-specialized-units.rules:1526  13.9  Unit Consolidation
def explain_may_consolidate(u: Unit, kind: Consolidation, phase: Phase, alike: bool, together: bool) -> Answer[bool]:
    """May this unit take part in this consolidation now? (alike: ground units identical on both sides of the counter;
    4) two reduced aircraft of the same type, values and status, Active or Inactive. together: 1, 4) the two units
    are in the same hex or off-map box. Adjacent enemy units and Out of Supply do not matter) (13.9), with the rules
    that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_consolidate(u, kind, phase, alike, together, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_consolidate,
            (
                ('u', u, _DOMAINS_Unit_0),
                ('kind', kind, ('multi_step', 'formations', 'independent_joins', 'aircraft')),
                (
                    'phase',
                    phase,
                    (
                        'reinforcement',
                        'movement',
                        'reaction',
                        'exploitation',
                        'combat_phase',
                        'barrage',
                        'supply',
                        'clean_up',
                    ),
                ),
                ('alike', alike, (False, True)),
                ('together', together, (False, True)),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1531  13.9  Unit Consolidation
def step_losses_after_consolidation(full_steps: int, kept_losses: int, removed_losses: int) -> int:
    """1) Step losses of the remaining unit (steps beyond full strength are lost) (13.9)."""
    return max(0, kept_losses - (full_steps - removed_losses))


# rules/ocs/ch13-specialized-units.rules:1531  13.9  Unit Consolidation
def _t_step_losses_after_consolidation(full_steps: int, kept_losses: int, removed_losses: int, _t: list[Cite]) -> int:
    """step_losses_after_consolidation, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_9)
    return max(0, kept_losses - (full_steps - removed_losses))


# rules/ocs/ch13-specialized-units.rules:1531  13.9  Unit Consolidation
def explain_step_losses_after_consolidation(full_steps: int, kept_losses: int, removed_losses: int) -> Answer[int]:
    """1) Step losses of the remaining unit (steps beyond full strength are lost) (13.9), with the rules that decided
    it.
    """
    _t: list[Cite] = []
    _value = _t_step_losses_after_consolidation(full_steps, kept_losses, removed_losses, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:1535  13.9  Unit Consolidation
def keeps_modes_and_markers(replaced: Unit, swapped_in: Unit) -> bool:
    """2) Does the unit swapped in carry the mode and markers of the unit it replaces? (13.9)."""
    return (
        swapped_in.mode == replaced.mode
        and swapped_in.oriented_to_combat == replaced.oriented_to_combat
        and (swapped_in.out_of_supply == replaced.out_of_supply)
        and (swapped_in.stocks == replaced.stocks)
        and (swapped_in.step_losses == replaced.step_losses)
    )


# rules/ocs/ch13-specialized-units.rules:1535  13.9  Unit Consolidation
def _t_keeps_modes_and_markers(replaced: Unit, swapped_in: Unit, _t: list[Cite]) -> bool:
    """keeps_modes_and_markers, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_9)
    return (
        swapped_in.mode == replaced.mode
        and swapped_in.oriented_to_combat == replaced.oriented_to_combat
        and (swapped_in.out_of_supply == replaced.out_of_supply)
        and (swapped_in.stocks == replaced.stocks)
        and (swapped_in.step_losses == replaced.step_losses)
    )


# rules/ocs/ch13-specialized-units.rules:1535  13.9  Unit Consolidation
def explain_keeps_modes_and_markers(replaced: Unit, swapped_in: Unit) -> Answer[bool]:
    """2) Does the unit swapped in carry the mode and markers of the unit it replaces? (13.9), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_keeps_modes_and_markers(replaced, swapped_in, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            keeps_modes_and_markers,
            (('replaced', replaced, _DOMAINS_Unit_0), ('swapped_in', swapped_in, _DOMAINS_Unit_0), ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1541  13.9  Unit Consolidation
def may_convert_formation(from_formation: str, to_formation: str) -> bool:
    """2, 3) May a unit change formations this way? (13.9)."""
    return to_formation != '' and (from_formation == '' or from_formation != to_formation)


# rules/ocs/ch13-specialized-units.rules:1541  13.9  Unit Consolidation
def _t_may_convert_formation(from_formation: str, to_formation: str, _t: list[Cite]) -> bool:
    """may_convert_formation, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_13_9)
    return to_formation != '' and (from_formation == '' or from_formation != to_formation)


# rules/ocs/ch13-specialized-units.rules:1541  13.9  Unit Consolidation
def explain_may_convert_formation(from_formation: str, to_formation: str) -> Answer[bool]:
    """2, 3) May a unit change formations this way? (13.9), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_convert_formation(from_formation, to_formation, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_convert_formation, (('from_formation', from_formation, ()), ('to_formation', to_formation, ()), )
        ),
    )


# rules/ocs/ch4-general-concepts.rules:15  4.1  Rounding Rule
def _s_rounded(x: Number) -> int:
    """rounded with numbers scaled by SCALE."""
    return (x + 2) // 4


# rules/ocs/ch4-general-concepts.rules:15  4.1  Rounding Rule
def _t_rounded(x: Number, _t: list[Cite]) -> int:
    """rounded, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_1)
    return (x + 2) // 4


# rules/ocs/ch4-general-concepts.rules:15  4.1  Rounding Rule
def rounded(x: Number) -> int:
    """Rounded per 4.1 (.5 rounds up) (4.1). Numbers are exact: int or Fraction."""
    return _s_rounded(x * SCALE)


# rules/ocs/ch4-general-concepts.rules:15  4.1  Rounding Rule
def explain_rounded(x: Number) -> Answer[int]:
    """Rounded per 4.1 (.5 rounds up) (4.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_rounded(x * SCALE, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:38  4.2  Fractions
def _s_ma_share(ma: Number, share: Number) -> Number:
    """ma_share with numbers scaled by SCALE."""
    return _mul(ma, share)


# rules/ocs/ch4-general-concepts.rules:38  4.2  Fractions
def _t_ma_share(ma: Number, share: Number, _t: list[Cite]) -> Number:
    """ma_share, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_2)
    return _mul(ma, share)


# rules/ocs/ch4-general-concepts.rules:38  4.2  Fractions
def ma_share(ma: Number, share: Number) -> Number:
    """A share of a Movement Allowance (half MA, for instance): never rounded (4.2). Numbers are exact: int or Fraction.
    """
    return _exact(_s_ma_share(ma * SCALE, share * SCALE))


# rules/ocs/ch4-general-concepts.rules:38  4.2  Fractions
def explain_ma_share(ma: Number, share: Number) -> Answer[Number]:
    """A share of a Movement Allowance (half MA, for instance): never rounded (4.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_ma_share(ma * SCALE, share * SCALE, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:42  4.2  Fractions
def _s_barrage_factors(factors: tuple[Number, ...]) -> int:
    """barrage_factors with numbers scaled by SCALE."""
    return _s_rounded(_sum(f for f in factors))


# rules/ocs/ch4-general-concepts.rules:42  4.2  Fractions
def _t_barrage_factors(factors: tuple[Number, ...], _t: list[Cite]) -> int:
    """barrage_factors, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_2)
    return _t_rounded(_sum(f for f in factors), _t)


# rules/ocs/ch4-general-concepts.rules:42  4.2  Fractions
def barrage_factors(factors: Sequence[Number]) -> int:
    """Barrage factors for the column: combined, then rounded (4.2). Numbers are exact: int or Fraction."""
    return _s_barrage_factors(tuple(_x * SCALE for _x in factors))


# rules/ocs/ch4-general-concepts.rules:42  4.2  Fractions
def explain_barrage_factors(factors: Sequence[Number]) -> Answer[int]:
    """Barrage factors for the column: combined, then rounded (4.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_barrage_factors(tuple(_x * SCALE for _x in factors), _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:96  4.3  Cumulative Effects
def _s_modified(value: Number, factors: tuple[Number, ...]) -> Number:
    """modified with numbers scaled by SCALE."""
    return _mul(value, _product(f for f in factors))


# rules/ocs/ch4-general-concepts.rules:96  4.3  Cumulative Effects
def _t_modified(value: Number, factors: tuple[Number, ...], _t: list[Cite]) -> Number:
    """modified, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_3)
    return _mul(value, _product(f for f in factors))


# rules/ocs/ch4-general-concepts.rules:96  4.3  Cumulative Effects
def modified(value: Number, factors: Sequence[Number]) -> Number:
    """A value with every modifier applied in turn (4.3). Numbers are exact: int or Fraction."""
    return _exact(_s_modified(value * SCALE, tuple(_x * SCALE for _x in factors)))


# rules/ocs/ch4-general-concepts.rules:96  4.3  Cumulative Effects
def explain_modified(value: Number, factors: Sequence[Number]) -> Answer[Number]:
    """A value with every modifier applied in turn (4.3), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_modified(value * SCALE, tuple(_x * SCALE for _x in factors), _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:170  4.4a
def may_attack(u: Unit) -> bool:
    """May attack or overrun (4.4a)."""
    # rule: attack_capable(u)
    return (
        u.type in _SET_assault_engineer_combat_352fa5da
        and u.printed_strength
        and (not u.parenthesized)
        and (u.mode not in _SET_reserve_strat)
    )


# rules/ocs/ch4-general-concepts.rules:170  4.4a
def _t_may_attack(u: Unit, _t: list[Cite]) -> bool:
    """may_attack, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_4a)
    return _t_attack_capable(u, _t)


# rules/ocs/ch4-general-concepts.rules:170  4.4a
def explain_may_attack(u: Unit) -> Answer[bool]:
    """May attack or overrun (4.4a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_attack(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(may_attack, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch4-general-concepts.rules:205  4.4c
def may_enter_enemy_noncombat_hex(u: Unit) -> bool:
    """May move into a hex with an enemy non-combat unit (4.4c)."""
    # rule: attack_capable(u)
    return (
        u.type in _SET_assault_engineer_combat_352fa5da
        and u.printed_strength
        and (not u.parenthesized)
        and (u.mode not in _SET_reserve_strat)
    )


# rules/ocs/ch4-general-concepts.rules:205  4.4c
def _t_may_enter_enemy_noncombat_hex(u: Unit, _t: list[Cite]) -> bool:
    """may_enter_enemy_noncombat_hex, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_4c)
    return _t_attack_capable(u, _t)


# rules/ocs/ch4-general-concepts.rules:205  4.4c
def explain_may_enter_enemy_noncombat_hex(u: Unit) -> Answer[bool]:
    """May move into a hex with an enemy non-combat unit (4.4c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_enter_enemy_noncombat_hex(u, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(may_enter_enemy_noncombat_hex, (('u', u, _DOMAINS_Unit_0), )),
    )


# rules/ocs/ch4-general-concepts.rules:230  4.5  Zone of Control
def zoc_reaches(u: Unit, hexes_away: int) -> bool:
    """Does this unit's ZOC limit enemy actions in a hex this far away? (The six adjacent hexes, whatever the terrain in
    them or the hexsides between) (4.5).
    """
    _u_mode = u.mode
    _u_out_of_supply = u.out_of_supply
    _u_parenthesized = u.parenthesized
    _u_printed_strength = u.printed_strength
    _u_type = u.type
    # rule: has_zoc(u) and hexes_away == 1
    return (
        (
            (
                _u_mode == 'exploit'
                and _u_type in _SET_assault_engineer_combat_352fa5da
                and _u_printed_strength
                and (not _u_parenthesized)
                and (not _u_out_of_supply)
                and u.oriented_to_combat
            )
            or (
                _u_mode == 'combat'
                and _u_type in _SET_assault_engineer_combat_352fa5da
                and _u_printed_strength
                and (not _u_parenthesized)
                and (not _u_out_of_supply)
            )
        )
        and hexes_away == 1
    )


# rules/ocs/ch4-general-concepts.rules:230  4.5  Zone of Control
def _t_zoc_reaches(u: Unit, hexes_away: int, _t: list[Cite]) -> bool:
    """zoc_reaches, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_5)
    return _t_has_zoc(u, _t) and hexes_away == 1


# rules/ocs/ch4-general-concepts.rules:230  4.5  Zone of Control
def explain_zoc_reaches(u: Unit, hexes_away: int) -> Answer[bool]:
    """Does this unit's ZOC limit enemy actions in a hex this far away? (The six adjacent hexes, whatever the terrain in
    them or the hexsides between) (4.5), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_zoc_reaches(u, hexes_away, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(zoc_reaches, (('u', u, _DOMAINS_Unit_0), ('hexes_away', hexes_away, ()), )),
    )


# rules/ocs/ch4-general-concepts.rules:290  4.5a  Actions not allowed in an enemy ZOC
def ezoc_allows(action: EzocAction, negated: bool) -> bool:
    """May the action be taken in an enemy ZOC? (4.5a)."""
    # rule: action.negatable and negated
    return negated and EzocAction_negatable[action]


# rules/ocs/ch4-general-concepts.rules:290  4.5a  Actions not allowed in an enemy ZOC
def _t_ezoc_allows(action: EzocAction, negated: bool, _t: list[Cite]) -> bool:
    """ezoc_allows, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_5a)
    return (
        _attr_yes(_t, _CITES_EzocAction_negatable, EzocAction_negatable, action)
        and _cite_yes(_t, _RULES_OCS_4_5b, negated)
    )

_ANSWERS_ezoc_allows: Final[dict[tuple[EzocAction, bool], Answer[bool]]] = {
    ('A', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_A, _CITE_OCS_4_5b,), ('negated = true',)),
    ('A', True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_A, _CITE_OCS_4_5b,), ()),
    ('B', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_B, _CITE_OCS_4_5b,), ('negated = true',)),
    ('B', True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_B, _CITE_OCS_4_5b,), ()),
    ('C', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_C,), ()),
    ('C', True,): Answer(
        False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_C,), ('action = A', 'action = B', 'action = D', 'action = H')
    ),
    ('D', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_D, _CITE_OCS_4_5b,), ('negated = true',)),
    ('D', True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_D, _CITE_OCS_4_5b,), ()),
    ('E', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_E,), ()),
    ('E', True,): Answer(
        False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_E,), ('action = A', 'action = B', 'action = D', 'action = H')
    ),
    ('F', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_F, _CITE_DAK_4_5a_F,), ()),
    ('F', True,): Answer(
        False,
        (_CITE_OCS_4_5a, _CITE_OCS_4_5a_F, _CITE_DAK_4_5a_F,),
        ('action = A', 'action = B', 'action = D', 'action = H'),
    ),
    ('G', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_G,), ()),
    ('G', True,): Answer(
        False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_G,), ('action = A', 'action = B', 'action = D', 'action = H')
    ),
    ('H', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_H, _CITE_OCS_4_5b,), ('negated = true',)),
    ('H', True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_H, _CITE_OCS_4_5b,), ()),
    ('I', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_I,), ()),
    ('I', True,): Answer(
        False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_I,), ('action = A', 'action = B', 'action = D', 'action = H')
    ),
    ('J', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_J,), ()),
    ('J', True,): Answer(
        False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_J,), ('action = A', 'action = B', 'action = D', 'action = H')
    ),
    ('K', False,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_K,), ()),
    ('K', True,): Answer(
        False, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_K,), ('action = A', 'action = B', 'action = D', 'action = H')
    ),
}


# rules/ocs/ch4-general-concepts.rules:290  4.5a  Actions not allowed in an enemy ZOC
def explain_ezoc_allows(action: EzocAction, negated: bool) -> Answer[bool]:
    """May the action be taken in an enemy ZOC? (4.5a), with the rules that decided it."""
    return _ANSWERS_ezoc_allows[(action, negated)]


# rules/ocs/ch4-general-concepts.rules:305  4.5a  Actions not allowed in an enemy ZOC
def ezoc_stops_entering(mobility: Mobility, negated: bool) -> bool:
    """Must a unit entering the enemy ZOC end its movement or else conduct an overrun? (4.5a)."""
    # rule: mobility == truck and not negated
    return not negated and mobility == 'truck'


_ANSWERS_ezoc_stops_entering: Final[dict[tuple[Mobility, bool], Answer[bool]]] = {
    ('leg', False,): Answer(False, (_CITE_OCS_4_5a,), ('mobility = truck',)),
    ('leg', True,): Answer(False, (_CITE_OCS_4_5a,), ()),
    ('truck', False,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('truck', True,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ('negated = false',)),
    ('track', False,): Answer(False, (_CITE_OCS_4_5a,), ('mobility = truck',)),
    ('track', True,): Answer(False, (_CITE_OCS_4_5a,), ()),
}


# rules/ocs/ch4-general-concepts.rules:305  4.5a  Actions not allowed in an enemy ZOC
def explain_ezoc_stops_entering(mobility: Mobility, negated: bool) -> Answer[bool]:
    """Must a unit entering the enemy ZOC end its movement or else conduct an overrun? (4.5a), with the rules that
    decided it.
    """
    return _ANSWERS_ezoc_stops_entering[(mobility, negated)]


# rules/ocs/ch4-general-concepts.rules:309  4.5a  Actions not allowed in an enemy ZOC
def ezoc_blocks_path(traced_with: Mobility, negated: bool) -> bool:
    """Does the enemy ZOC block a supply path traced in or out of the hex? (4.5a)."""
    # rule: traced_with == truck and not negated
    return not negated and traced_with == 'truck'


# rules/ocs/ch4-general-concepts.rules:309  4.5a  Actions not allowed in an enemy ZOC
def _t_ezoc_blocks_path(traced_with: Mobility, negated: bool, _t: list[Cite]) -> bool:
    """ezoc_blocks_path, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_5a)
    return traced_with == 'truck' and (not _cite_yes(_t, _RULES_OCS_4_5b, negated))

_ANSWERS_ezoc_blocks_path: Final[dict[tuple[Mobility, bool], Answer[bool]]] = {
    ('leg', False,): Answer(False, (_CITE_OCS_4_5a,), ('traced_with = truck',)),
    ('leg', True,): Answer(False, (_CITE_OCS_4_5a,), ()),
    ('truck', False,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('truck', True,): Answer(False, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ('negated = false',)),
    ('track', False,): Answer(False, (_CITE_OCS_4_5a,), ('traced_with = truck',)),
    ('track', True,): Answer(False, (_CITE_OCS_4_5a,), ()),
}


# rules/ocs/ch4-general-concepts.rules:309  4.5a  Actions not allowed in an enemy ZOC
def explain_ezoc_blocks_path(traced_with: Mobility, negated: bool) -> Answer[bool]:
    """Does the enemy ZOC block a supply path traced in or out of the hex? (4.5a), with the rules that decided it."""
    return _ANSWERS_ezoc_blocks_path[(traced_with, negated)]


# rules/ocs/ch4-general-concepts.rules:313  4.5a  Actions not allowed in an enemy ZOC
def may_move_on_after_entering(mobility: Mobility, negated: bool, overrun: bool) -> bool:
    """After entering an enemy ZOC, may the unit go on moving? (With Truck MP, only by conducting an overrun) (4.5a)."""
    # rule: not ezoc_stops_entering(mobility, negated) or overrun
    return overrun or not ezoc_stops_entering(mobility, negated)


_ANSWERS_may_move_on_after_entering: Final[dict[tuple[Mobility, bool, bool], Answer[bool]]] = {
    ('leg', False, False,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('leg', False, True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('leg', True, False,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('leg', True, True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('truck', False, False,): Answer(
        False,
        (_CITE_OCS_4_5a, _CITE_OCS_4_5b,),
        ('mobility = leg', 'mobility = track', 'negated = true', 'overrun = true'),
    ),
    ('truck', False, True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('truck', True, False,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('truck', True, True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('track', False, False,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('track', False, True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('track', True, False,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
    ('track', True, True,): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5b,), ()),
}


# rules/ocs/ch4-general-concepts.rules:313  4.5a  Actions not allowed in an enemy ZOC
def explain_may_move_on_after_entering(mobility: Mobility, negated: bool, overrun: bool) -> Answer[bool]:
    """After entering an enemy ZOC, may the unit go on moving? (With Truck MP, only by conducting an overrun) (4.5a),
    with the rules that decided it.
    """
    return _ANSWERS_may_move_on_after_entering[(mobility, negated, overrun)]


# rules/ocs/ch4-general-concepts.rules:317  4.5a  Actions not allowed in an enemy ZOC
def ezoc_blocks_trace_by(tracer: Unit, negated: bool) -> bool:
    """Does the enemy ZOC block the supply path this HQ or Extender traces in or out of the hex? (4.5a)."""
    return ezoc_blocks_path(tracer.mobility, negated)


# rules/ocs/ch4-general-concepts.rules:317  4.5a  Actions not allowed in an enemy ZOC
def _t_ezoc_blocks_trace_by(tracer: Unit, negated: bool, _t: list[Cite]) -> bool:
    """ezoc_blocks_trace_by, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_5a)
    return _t_ezoc_blocks_path(tracer.mobility, _cite_yes(_t, _RULES_OCS_4_5b, negated), _t)


# rules/ocs/ch4-general-concepts.rules:317  4.5a  Actions not allowed in an enemy ZOC
def explain_ezoc_blocks_trace_by(tracer: Unit, negated: bool) -> Answer[bool]:
    """Does the enemy ZOC block the supply path this HQ or Extender traces in or out of the hex? (4.5a), with the rules
    that decided it.
    """
    _t: list[Cite] = []
    _value = _t_ezoc_blocks_trace_by(tracer, negated, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            ezoc_blocks_trace_by, (('tracer', tracer, _DOMAINS_Unit_0), ('negated', negated, (False, True)), )
        ),
    )


# rules/ocs/ch4-general-concepts.rules:375  4.5b  Negating ZOC
def zoc_negated(h: Hex) -> bool:
    """Is the enemy ZOC in this hex negated? (4.5b)."""
    # rule: any(is_combat(u) and not u.will_spend_mp for u in h.units)
    return any(UnitType_combat[u.type] and (not u.will_spend_mp) for u in h.units)


# rules/ocs/ch4-general-concepts.rules:375  4.5b  Negating ZOC
def _t_zoc_negated(h: Hex, _t: list[Cite]) -> bool:
    """zoc_negated, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_5b)
    return any(_t_is_combat(u, _t) and (not u.will_spend_mp) for u in h.units)


# rules/ocs/ch4-general-concepts.rules:375  4.5b  Negating ZOC
def explain_zoc_negated(h: Hex) -> Answer[bool]:
    """Is the enemy ZOC in this hex negated? (4.5b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_zoc_negated(h, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(zoc_negated, (('h', h, _DOMAINS_Hex_0), )))


# rules/ocs/ch4-general-concepts.rules:378  4.5b  Negating ZOC
def may_exit_ezoc_hex(started_phase_there: bool, negated: bool) -> bool:
    """May a unit using Truck MP leave a hex in an enemy ZOC? (4.5b)."""
    return started_phase_there or ezoc_allows('A', negated)


_ANSWERS_may_exit_ezoc_hex: Final[dict[tuple[bool, bool], Answer[bool]]] = {
    (False, False,): Answer(
        False, (_CITE_OCS_4_5b, _CITE_OCS_4_5a, _CITE_OCS_4_5a_A,), ('started_phase_there = true', 'negated = true')
    ),
    (False, True,): Answer(True, (_CITE_OCS_4_5b, _CITE_OCS_4_5a, _CITE_OCS_4_5a_A,), ()),
    (True, False,): Answer(True, (_CITE_OCS_4_5b,), ()),
    (True, True,): Answer(True, (_CITE_OCS_4_5b,), ()),
}


# rules/ocs/ch4-general-concepts.rules:378  4.5b  Negating ZOC
def explain_may_exit_ezoc_hex(started_phase_there: bool, negated: bool) -> Answer[bool]:
    """May a unit using Truck MP leave a hex in an enemy ZOC? (4.5b), with the rules that decided it."""
    return _ANSWERS_may_exit_ezoc_hex[(started_phase_there, negated)]


# rules/ocs/ch4-general-concepts.rules:434  4.6  Regimental Equivalents
def sizes_not_negative(u: Unit) -> bool:
    """Printed RE sizes and point values are never negative (4.6)."""
    return _scaled(u.printed_re) >= 0 and _scaled(u.points) >= 0


# rules/ocs/ch4-general-concepts.rules:434  4.6  Regimental Equivalents
def _t_sizes_not_negative(u: Unit, _t: list[Cite]) -> bool:
    """sizes_not_negative, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_6)
    return _scaled(u.printed_re) >= 0 and _scaled(u.points) >= 0


# rules/ocs/ch4-general-concepts.rules:434  4.6  Regimental Equivalents
def explain_sizes_not_negative(u: Unit) -> Answer[bool]:
    """Printed RE sizes and point values are never negative (4.6), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_sizes_not_negative(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(sizes_not_negative, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/ch4-general-concepts.rules:463  4.6  Regimental Equivalents
def one_step(u: Unit) -> bool:
    """Is 1 step for loss purposes (a combat unit that is not multi-step) (4.6)."""
    # rule: is_combat(u) and not u.multi_step
    return UnitType_combat[u.type] and (not u.multi_step)


# rules/ocs/ch4-general-concepts.rules:463  4.6  Regimental Equivalents
def _t_one_step(u: Unit, _t: list[Cite]) -> bool:
    """one_step, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_6)
    return _t_is_combat(u, _t) and (not u.multi_step)


# rules/ocs/ch4-general-concepts.rules:463  4.6  Regimental Equivalents
def explain_one_step(u: Unit) -> Answer[bool]:
    """Is 1 step for loss purposes (a combat unit that is not multi-step) (4.6), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_one_step(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(one_step, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch4-general-concepts.rules:498  4.7  Transportation Equivalents
def transportable(u: Unit) -> bool:
    """Can be transported (rail, air, landing craft, shipping) (4.7)."""
    # rule: is_combat(u) or u.type in {transport, sp}
    return u.type not in _SET_air_base_fighter_hedgeho_ae8dbffd


# rules/ocs/ch4-general-concepts.rules:498  4.7  Transportation Equivalents
def _t_transportable(u: Unit, _t: list[Cite]) -> bool:
    """transportable, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_7)
    return _t_is_combat(u, _t) or u.type in _SET_sp_transport


# rules/ocs/ch4-general-concepts.rules:498  4.7  Transportation Equivalents
def explain_transportable(u: Unit) -> Answer[bool]:
    """Can be transported (rail, air, landing craft, shipping) (4.7), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transportable(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(transportable, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch4-general-concepts.rules:501  4.7  Transportation Equivalents
def transport_point_may_carry(cargo: Unit) -> bool:
    """A Transport Point can carry this (4.7)."""
    return cargo.type == 'sp'


# rules/ocs/ch4-general-concepts.rules:501  4.7  Transportation Equivalents
def _t_transport_point_may_carry(cargo: Unit, _t: list[Cite]) -> bool:
    """transport_point_may_carry, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_7)
    return cargo.type == 'sp'


# rules/ocs/ch4-general-concepts.rules:501  4.7  Transportation Equivalents
def explain_transport_point_may_carry(cargo: Unit) -> Answer[bool]:
    """A Transport Point can carry this (4.7), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transport_point_may_carry(cargo, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(transport_point_may_carry, (('cargo', cargo, _DOMAINS_Unit_0), )),
    )


# rules/ocs/ch4-general-concepts.rules:571  4.7c
def _s_transport_point_load(u: Unit) -> Number:
    """transport_point_load with numbers scaled by SCALE."""
    return _scaled(u.points)


# rules/ocs/ch4-general-concepts.rules:571  4.7c
def _t_transport_point_load(u: Unit, _t: list[Cite]) -> Number:
    """transport_point_load, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_7c)
    return _scaled(u.points)


# rules/ocs/ch4-general-concepts.rules:571  4.7c
def transport_point_load(u: Unit) -> Number:
    """SP a Transport Point can carry (4.7c). Numbers are exact: int or Fraction."""
    return _exact(_s_transport_point_load(u))


# rules/ocs/ch4-general-concepts.rules:571  4.7c
def explain_transport_point_load(u: Unit) -> Answer[Number]:
    """SP a Transport Point can carry (4.7c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transport_point_load(u, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:618  4.7d  Movement and Transport
def one_transport_type(used: tuple[Transport, ...], next: Transport) -> bool:
    """May a unit that already used these transports this phase use this one? (4.7d)."""
    return all(t == next for t in used)


# rules/ocs/ch4-general-concepts.rules:618  4.7d  Movement and Transport
def _t_one_transport_type(used: tuple[Transport, ...], next: Transport, _t: list[Cite]) -> bool:
    """one_transport_type, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_7d)
    return all(t == next for t in used)


# rules/ocs/ch4-general-concepts.rules:618  4.7d  Movement and Transport
def explain_one_transport_type(used: Sequence[Transport], next: Transport) -> Answer[bool]:
    """May a unit that already used these transports this phase use this one? (4.7d), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_one_transport_type(tuple(used), next, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            one_transport_type,
            (
                (
                    'used',
                    used,
                    _Items(('rail', 'air', 'air_drop', 'landing_craft', 'alt_landing', 'beach_assault', 'shipping')),
                ),
                (
                    'next',
                    next,
                    ('rail', 'air', 'air_drop', 'landing_craft', 'alt_landing', 'beach_assault', 'shipping'),
                ),
            ),
        ),
    )


# rules/ocs/ch4-general-concepts.rules:631  4.7d  Movement and Transport
def _s_may_spend_transported(u: Unit, by: Transport, alt_roll: bool, before: Number, after: Number) -> bool:
    """may_spend_transported with numbers scaled by SCALE."""
    _u_type = u.type
    # rule: before >= 0 and after >= 0 and before <= ma_before(u, by) and after <= ma_after(u, by, alt_roll) and before
    # + after <= transported_ma(u, by, alt_roll)
    return (
        before >= 0
        and after >= 0
        and (before <= (2 if by == 'rail' else 2 if by == 'air' else 0 if by == 'landing_craft' else 0))
        and (
            after <= (
                4
                if _u_type == 'rail_repair' and by == 'rail'
                else 2
                if by == 'air'
                else 2
                if alt_roll and by == 'alt_landing'
                else 0
                if by == 'landing_craft'
                else 0
            )
        )
        and (
            before
            + after <= (
                4
                if _u_type == 'rail_repair' and by == 'rail'
                else 2
                if by == 'rail'
                else 2
                if by == 'air'
                else 2
                if alt_roll and by == 'alt_landing'
                else 0
                if by == 'landing_craft'
                else 0
            )
        )
    )


# rules/ocs/ch4-general-concepts.rules:631  4.7d  Movement and Transport
def _t_may_spend_transported(
    u: Unit, by: Transport, alt_roll: bool, before: Number, after: Number, _t: list[Cite]
) -> bool:
    """may_spend_transported, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_7d)
    return (
        before >= 0
        and after >= 0
        and (before <= _t_ma_before(u, by, _t))
        and (after <= _t_ma_after(u, by, alt_roll, _t))
        and (before + after <= _t_transported_ma(u, by, alt_roll, _t))
    )


# rules/ocs/ch4-general-concepts.rules:631  4.7d  Movement and Transport
def may_spend_transported(u: Unit, by: Transport, alt_roll: bool, before: Number, after: Number) -> bool:
    """May a unit spend these shares of its MA before and after being transported? (4.7d). Numbers are exact: int or
    Fraction.
    """
    return _s_may_spend_transported(u, by, alt_roll, before * SCALE, after * SCALE)


# rules/ocs/ch4-general-concepts.rules:631  4.7d  Movement and Transport
def explain_may_spend_transported(u: Unit, by: Transport, alt_roll: bool, before: Number, after: Number) -> Answer[
    bool
]:
    """May a unit spend these shares of its MA before and after being transported? (4.7d), with the rules that decided
    it.
    """
    _t: list[Cite] = []
    _value = _t_may_spend_transported(u, by, alt_roll, before * SCALE, after * SCALE, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_spend_transported,
            (
                ('u', u, _DOMAINS_Unit_0),
                ('by', by, ('rail', 'air', 'air_drop', 'landing_craft', 'alt_landing', 'beach_assault', 'shipping')),
                ('alt_roll', alt_roll, (False, True)),
                ('before', before, ()),
                ('after', after, ()),
            ),
        ),
    )


# rules/ocs/ch4-general-concepts.rules:794  4.8b  Order of Stacking
def ignores_dg(u: Unit) -> bool:
    """A) SP and Inactive air units are never in Disorganized Mode (they ignore a DG marker) (4.8b)."""
    _u_type = u.type
    return u.mode != 'dg' or not (_u_type == 'sp' or (UnitType_air[_u_type] and (not u.active)))


# rules/ocs/ch4-general-concepts.rules:794  4.8b  Order of Stacking
def _t_ignores_dg(u: Unit, _t: list[Cite]) -> bool:
    """ignores_dg, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8b)
    return (
        u.mode != 'dg'
        or not (u.type == 'sp' or (_attr_yes(_t, _CITES_UnitType_air, UnitType_air, u.type) and (not u.active)))
    )


# rules/ocs/ch4-general-concepts.rules:794  4.8b  Order of Stacking
def explain_ignores_dg(u: Unit) -> Answer[bool]:
    """A) SP and Inactive air units are never in Disorganized Mode (they ignore a DG marker) (4.8b), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_ignores_dg(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(ignores_dg, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch4-general-concepts.rules:808  4.8b  Order of Stacking
def hex_has_zoc(h: Hex) -> bool:
    """D) Does the hex have a ZOC? (With an HQ on top, the enemy player must be told.) (4.8b)."""
    # rule: any(has_zoc(u) for u in h.units)
    return any(
        (
            (
                u.mode == 'exploit'
                and u.type in _SET_assault_engineer_combat_352fa5da
                and u.printed_strength
                and (not u.parenthesized)
                and (not u.out_of_supply)
                and u.oriented_to_combat
            )
            or (
                u.mode == 'combat'
                and u.type in _SET_assault_engineer_combat_352fa5da
                and u.printed_strength
                and (not u.parenthesized)
                and (not u.out_of_supply)
            )
        )
        for u in h.units
    )


# rules/ocs/ch4-general-concepts.rules:808  4.8b  Order of Stacking
def _t_hex_has_zoc(h: Hex, _t: list[Cite]) -> bool:
    """hex_has_zoc, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8b)
    return any(_t_has_zoc(u, _t) for u in h.units)


# rules/ocs/ch4-general-concepts.rules:808  4.8b  Order of Stacking
def explain_hex_has_zoc(h: Hex) -> Answer[bool]:
    """D) Does the hex have a ZOC? (With an HQ on top, the enemy player must be told.) (4.8b), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_hex_has_zoc(h, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(hex_has_zoc, (('h', h, _DOMAINS_Hex_0), )))


# rules/ocs/ch4-general-concepts.rules:811  4.8b  Order of Stacking
def active_planes_on_top(h: Hex) -> bool:
    """E) Is every Active plane on top of any ground units? (4.8b)."""
    _h_units = h.units
    # rule: all(first(is_air(x) for x in h.units where x == p or is_ground(x)) for p in h.units where is_air(p) and
    # p.active)
    return all(
        cast(
            'bool',
            _first(next((UnitType_air[x.type] for x in _h_units if x == p or not UnitType_air[x.type]), _NOTHING)),
        )
        for p in _h_units
        if UnitType_air[p.type] and p.active
    )


# rules/ocs/ch4-general-concepts.rules:811  4.8b  Order of Stacking
def _t_active_planes_on_top(h: Hex, _t: list[Cite]) -> bool:
    """active_planes_on_top, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8b)
    return all(
        cast('bool', _first(next((_t_is_air(x, _t) for x in h.units if x == p or _t_is_ground(x, _t)), _NOTHING)))
        for p in h.units
        if _t_is_air(p, _t) and p.active
    )


# rules/ocs/ch4-general-concepts.rules:811  4.8b  Order of Stacking
def explain_active_planes_on_top(h: Hex) -> Answer[bool]:
    """E) Is every Active plane on top of any ground units? (4.8b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_active_planes_on_top(h, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(active_planes_on_top, (('h', h, _DOMAINS_Hex_0), ))
    )


# rules/ocs/ch4-general-concepts.rules:814  4.8b  Order of Stacking
def active_fighter_on_top(h: Hex) -> bool:
    """E) If an Active fighter is in the stack, is it the top air unit? (4.8b)."""
    _h_units = h.units
    # rule: not any(u.type == fighter and u.active for u in h.units) or first(u.type == fighter and u.active for u in
    # h.units where is_air(u))
    return (
        not any(u.type == 'fighter' and u.active for u in _h_units)
        or cast(
            'bool', _first(next((u.type == 'fighter' and u.active for u in _h_units if UnitType_air[u.type]), _NOTHING))
        )
    )


# rules/ocs/ch4-general-concepts.rules:814  4.8b  Order of Stacking
def _t_active_fighter_on_top(h: Hex, _t: list[Cite]) -> bool:
    """active_fighter_on_top, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8b)
    return (
        not any(u.type == 'fighter' and u.active for u in h.units)
        or cast('bool', _first(next((u.type == 'fighter' and u.active for u in h.units if _t_is_air(u, _t)), _NOTHING)))
    )


# rules/ocs/ch4-general-concepts.rules:814  4.8b  Order of Stacking
def explain_active_fighter_on_top(h: Hex) -> Answer[bool]:
    """E) If an Active fighter is in the stack, is it the top air unit? (4.8b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_active_fighter_on_top(h, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(active_fighter_on_top, (('h', h, _DOMAINS_Hex_0), ))
    )


# rules/ocs/ch4-general-concepts.rules:818  4.8b  Order of Stacking
def hedgehog_on_top(h: Hex) -> bool:
    """F) If a hedgehog is present, is it the top ground unit? (4.8b)."""
    _h_units = h.units
    # rule: not any(u.type == hedgehog for u in h.units) or first(u.type == hedgehog for u in h.units where
    # is_ground(u))
    return (
        not any(u.type == 'hedgehog' for u in _h_units)
        or cast('bool', _first(next((u.type == 'hedgehog' for u in _h_units if not UnitType_air[u.type]), _NOTHING)))
    )


# rules/ocs/ch4-general-concepts.rules:818  4.8b  Order of Stacking
def _t_hedgehog_on_top(h: Hex, _t: list[Cite]) -> bool:
    """hedgehog_on_top, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8b)
    return (
        not any(u.type == 'hedgehog' for u in h.units)
        or cast('bool', _first(next((u.type == 'hedgehog' for u in h.units if _t_is_ground(u, _t)), _NOTHING)))
    )


# rules/ocs/ch4-general-concepts.rules:818  4.8b  Order of Stacking
def explain_hedgehog_on_top(h: Hex) -> Answer[bool]:
    """F) If a hedgehog is present, is it the top ground unit? (4.8b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_hedgehog_on_top(h, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(hedgehog_on_top, (('h', h, _DOMAINS_Hex_0), )))


# rules/ocs/ch4-general-concepts.rules:821  4.8b  Order of Stacking
def stack_in_order(h: Hex, enemy_ground_adjacent: bool) -> bool:
    """Is the stack in the order C) to F) ask? (4.8b)."""
    _h_units = h.units
    # rule: zoc_unit_on_top(h, enemy_ground_adjacent) and active_planes_on_top(h) and active_fighter_on_top(h) and
    # hedgehog_on_top(h)
    return (
        (
            not any(
                (
                    (
                        u.mode == 'exploit'
                        and u.type in _SET_assault_engineer_combat_352fa5da
                        and u.printed_strength
                        and (not u.parenthesized)
                        and (not u.out_of_supply)
                        and u.oriented_to_combat
                    )
                    or (
                        u.mode == 'combat'
                        and u.type in _SET_assault_engineer_combat_352fa5da
                        and u.printed_strength
                        and (not u.parenthesized)
                        and (not u.out_of_supply)
                    )
                )
                for u in _h_units
            )
            or cast(
                'bool',
                _first(
                    next(
                        (
                            (
                                (
                                    u.mode == 'exploit'
                                    and u.type in _SET_assault_engineer_combat_352fa5da
                                    and u.printed_strength
                                    and (not u.parenthesized)
                                    and (not u.out_of_supply)
                                    and u.oriented_to_combat
                                )
                                or (
                                    u.mode == 'combat'
                                    and u.type in _SET_assault_engineer_combat_352fa5da
                                    and u.printed_strength
                                    and (not u.parenthesized)
                                    and (not u.out_of_supply)
                                )
                            )
                            for u in _h_units
                            if UnitType_combat[u.type]
                        ),
                        _NOTHING,
                    )
                ),
            )
            or (
                cast('bool', _first(next((u.type == 'hq' for u in _h_units if UnitType_combat[u.type]), _NOTHING)))
                and (not enemy_ground_adjacent)
            )
        )
        and all(
            cast(
                'bool',
                _first(next((UnitType_air[x.type] for x in _h_units if x == p or not UnitType_air[x.type]), _NOTHING)),
            )
            for p in _h_units
            if UnitType_air[p.type] and p.active
        )
        and (
            not any(u.type == 'fighter' and u.active for u in _h_units)
            or cast(
                'bool',
                _first(next((u.type == 'fighter' and u.active for u in _h_units if UnitType_air[u.type]), _NOTHING)),
            )
        )
        and (
            not any(u.type == 'hedgehog' for u in _h_units)
            or cast(
                'bool', _first(next((u.type == 'hedgehog' for u in _h_units if not UnitType_air[u.type]), _NOTHING))
            )
        )
    )


# rules/ocs/ch4-general-concepts.rules:821  4.8b  Order of Stacking
def _t_stack_in_order(h: Hex, enemy_ground_adjacent: bool, _t: list[Cite]) -> bool:
    """stack_in_order, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8b)
    return (
        _t_zoc_unit_on_top(h, enemy_ground_adjacent, _t)
        and _t_active_planes_on_top(h, _t)
        and _t_active_fighter_on_top(h, _t)
        and _t_hedgehog_on_top(h, _t)
    )


# rules/ocs/ch4-general-concepts.rules:821  4.8b  Order of Stacking
def explain_stack_in_order(h: Hex, enemy_ground_adjacent: bool) -> Answer[bool]:
    """Is the stack in the order C) to F) ask? (4.8b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_stack_in_order(h, enemy_ground_adjacent, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            stack_in_order,
            (('h', h, _DOMAINS_Hex_0), ('enemy_ground_adjacent', enemy_ground_adjacent, (False, True)), ),
        ),
    )


# rules/ocs/ch4-general-concepts.rules:928  4.8c  Enemy Stacks
def may_enter_enemy_hex(mover: Mover, enemies: tuple[EnemyKind, ...]) -> bool:
    """May move, retreat or trace into a hex with these enemy units (4.8c)."""
    # rule: all(may_share_hex_with(mover, e) for e in enemies)
    return all(
        (
            mover == 'attack_capable_unit' and e != 'combat_units'
            or (mover == 'ship' and e in _SET_noncombat_units_planes)
            or mover == 'plane_on_mission'
            or (mover == 'rail_or_supply_path' and e != 'combat_units')
        )
        for e in enemies
    )


# rules/ocs/ch4-general-concepts.rules:928  4.8c  Enemy Stacks
def _t_may_enter_enemy_hex(mover: Mover, enemies: tuple[EnemyKind, ...], _t: list[Cite]) -> bool:
    """may_enter_enemy_hex, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8c)
    return all(_t_may_share_hex_with(mover, e, _t) for e in enemies)


# rules/ocs/ch4-general-concepts.rules:928  4.8c  Enemy Stacks
def explain_may_enter_enemy_hex(mover: Mover, enemies: Sequence[EnemyKind]) -> Answer[bool]:
    """May move, retreat or trace into a hex with these enemy units (4.8c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_enter_enemy_hex(mover, tuple(enemies), _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_enter_enemy_hex,
            (
                (
                    'mover',
                    mover,
                    ('attack_capable_unit', 'other_ground_unit', 'ship', 'plane_on_mission', 'rail_or_supply_path'),
                ),
                ('enemies', enemies, _Items(('combat_units', 'noncombat_units', 'ships', 'planes'))),
            ),
        ),
    )


# rules/ocs/ch4-general-concepts.rules:932  4.8c  Enemy Stacks
def ground_mover(u: Unit) -> Mover:
    """What kind of mover a ground unit is (4.8c)."""
    # rule: if attack_capable(u) then attack_capable_unit else other_ground_unit
    return (
        'attack_capable_unit'
        if (
            u.type in _SET_assault_engineer_combat_352fa5da
            and u.printed_strength
            and (not u.parenthesized)
            and (u.mode not in _SET_reserve_strat)
        )
        else 'other_ground_unit'
    )


# rules/ocs/ch4-general-concepts.rules:932  4.8c  Enemy Stacks
def _t_ground_mover(u: Unit, _t: list[Cite]) -> Mover:
    """ground_mover, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_8c)
    return 'attack_capable_unit' if _t_attack_capable(u, _t) else 'other_ground_unit'


# rules/ocs/ch4-general-concepts.rules:932  4.8c  Enemy Stacks
def explain_ground_mover(u: Unit) -> Answer[Mover]:
    """What kind of mover a ground unit is (4.8c), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_ground_mover(u, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:987  4.9a
def shows_plane(h: Hex) -> bool:
    """Is there an Active plane in the hex for the enemy to see? (4.9a)."""
    # rule: any(is_air(u) and u.active for u in h.units)
    return any(UnitType_air[u.type] and u.active for u in h.units)


# rules/ocs/ch4-general-concepts.rules:987  4.9a
def _t_shows_plane(h: Hex, _t: list[Cite]) -> bool:
    """shows_plane, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_9a)
    return any(_t_is_air(u, _t) and u.active for u in h.units)


# rules/ocs/ch4-general-concepts.rules:987  4.9a
def explain_shows_plane(h: Hex) -> Answer[bool]:
    """Is there an Active plane in the hex for the enemy to see? (4.9a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_shows_plane(h, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(shows_plane, (('h', h, _DOMAINS_Hex_0), )))


# rules/ocs/ch4-general-concepts.rules:990  4.9a
def shown_plane(h: Hex) -> Unit:
    """The top Active plane, which the enemy may always see (units listed top first) (4.9a)."""
    # rule: shows_plane(h)
    if not (any(UnitType_air[u.type] and u.active for u in h.units)):  # requires
        raise RuleError('shown_plane answers only where an Active plane is in the hex (shows_plane(h))')
    # rule: first(u for u in h.units where is_air(u) and u.active)
    return cast('Unit', _first(next((u for u in h.units if UnitType_air[u.type] and u.active), _NOTHING)))


# rules/ocs/ch4-general-concepts.rules:990  4.9a
def _t_shown_plane(h: Hex, _t: list[Cite]) -> Unit:
    """shown_plane, recording in _t each rule it uses."""
    if not (_t_shows_plane(h, _t)):  # requires
        raise RuleError('shown_plane answers only where an Active plane is in the hex (shows_plane(h))')
    _t.extend(_RULES_OCS_4_9a)
    return cast('Unit', _first(next((u for u in h.units if _t_is_air(u, _t) and u.active), _NOTHING)))


# rules/ocs/ch4-general-concepts.rules:990  4.9a
def explain_shown_plane(h: Hex) -> Answer[Unit]:
    """The top Active plane, which the enemy may always see (units listed top first) (4.9a), with the rules that decided
    it.
    """
    _t: list[Cite] = []
    _value = _t_shown_plane(h, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:1004  4.9a
def enemy_knows(fact: TopUnitFact) -> bool:
    """Is the enemy player entitled to know this about the top unit? (4.9a)."""
    return TopUnitFact_known[fact]


_ANSWERS_enemy_knows: Final[dict[tuple[TopUnitFact], Answer[bool]]] = {
    ('strat_mode',): Answer(True, (_CITE_OCS_4_9a, _CITE_OCS_4_9a_strat_mode,), ()),
    ('dg',): Answer(True, (_CITE_OCS_4_9a, _CITE_OCS_4_9a_dg,), ()),
    ('out_of_supply',): Answer(True, (_CITE_OCS_4_9a, _CITE_OCS_4_9a_out_of_supply,), ()),
    ('internal_stocks',): Answer(
        False,
        (_CITE_OCS_4_9a, _CITE_OCS_4_9a_internal_stocks,),
        ('fact = strat_mode', 'fact = dg', 'fact = out_of_supply'),
    ),
    ('steps_lost',): Answer(
        False, (_CITE_OCS_4_9a, _CITE_OCS_4_9a_steps_lost,), ('fact = strat_mode', 'fact = dg', 'fact = out_of_supply')
    ),
}


# rules/ocs/ch4-general-concepts.rules:1004  4.9a
def explain_enemy_knows(fact: TopUnitFact) -> Answer[bool]:
    """Is the enemy player entitled to know this about the top unit? (4.9a), with the rules that decided it."""
    return _ANSWERS_enemy_knows[(fact,)]


# rules/ocs/ch4-general-concepts.rules:1007  4.9a
def shows_hedgehog(h: Hex) -> bool:
    """The enemy may see a hedgehog in the hex (4.9a)."""
    return any(u.type == 'hedgehog' for u in h.units)


# rules/ocs/ch4-general-concepts.rules:1007  4.9a
def _t_shows_hedgehog(h: Hex, _t: list[Cite]) -> bool:
    """shows_hedgehog, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_4_9a)
    return any(u.type == 'hedgehog' for u in h.units)


# rules/ocs/ch4-general-concepts.rules:1007  4.9a
def explain_shows_hedgehog(h: Hex) -> Answer[bool]:
    """The enemy may see a hedgehog in the hex (4.9a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_shows_hedgehog(h, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(shows_hedgehog, (('h', h, _DOMAINS_Hex_0), )))


# rules/ocs/series.rules:46  3.3  Non-Combat Units
def is_combat(u: Unit) -> bool:
    """Is a combat unit (SP, Transport Points, hedgehogs, air bases and ports are not) (3.3)."""
    return UnitType_combat[u.type]


# rules/ocs/series.rules:46  3.3  Non-Combat Units
def _t_is_combat(u: Unit, _t: list[Cite]) -> bool:
    """is_combat, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_3_3)
    return _attr_yes(_t, _CITES_UnitType_combat, UnitType_combat, u.type)


# rules/ocs/series.rules:46  3.3  Non-Combat Units
def explain_is_combat(u: Unit) -> Answer[bool]:
    """Is a combat unit (SP, Transport Points, hedgehogs, air bases and ports are not) (3.3), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_is_combat(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(is_combat, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/series.rules:48  3.3  Non-Combat Units
def is_air(u: Unit) -> bool:
    """Is an air unit (a plane) (3.3)."""
    return UnitType_air[u.type]


# rules/ocs/series.rules:48  3.3  Non-Combat Units
def _t_is_air(u: Unit, _t: list[Cite]) -> bool:
    """is_air, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_3_3)
    return _attr_yes(_t, _CITES_UnitType_air, UnitType_air, u.type)


# rules/ocs/series.rules:48  3.3  Non-Combat Units
def explain_is_air(u: Unit) -> Answer[bool]:
    """Is an air unit (a plane) (3.3), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_is_air(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(is_air, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/series.rules:49  3.3  Non-Combat Units
def is_ground(u: Unit) -> bool:
    """Is a ground unit (combat or non-combat; not an air unit) (3.3)."""
    return not UnitType_air[u.type]


# rules/ocs/series.rules:49  3.3  Non-Combat Units
def _t_is_ground(u: Unit, _t: list[Cite]) -> bool:
    """is_ground, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_3_3)
    return not _attr_yes(_t, _CITES_UnitType_air, UnitType_air, u.type)


# rules/ocs/series.rules:49  3.3  Non-Combat Units
def explain_is_ground(u: Unit) -> Answer[bool]:
    """Is a ground unit (combat or non-combat; not an air unit) (3.3), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_is_ground(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(is_ground, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/series.rules:66  5.9c  Exploitation Mode and ZOC
def exploitation_zoc(u: Unit) -> bool:
    """Does a unit in Exploitation Mode have a ZOC? (Only when oriented toward Combat Mode) (5.9c)."""
    return u.oriented_to_combat


# rules/ocs/series.rules:66  5.9c  Exploitation Mode and ZOC
def _t_exploitation_zoc(u: Unit, _t: list[Cite]) -> bool:
    """exploitation_zoc, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_5_9c)
    return u.oriented_to_combat


# rules/ocs/series.rules:66  5.9c  Exploitation Mode and ZOC
def explain_exploitation_zoc(u: Unit) -> Answer[bool]:
    """Does a unit in Exploitation Mode have a ZOC? (Only when oriented toward Combat Mode) (5.9c), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_exploitation_zoc(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(exploitation_zoc, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/series.rules:71  5.10e  DG Mode Orientation
def combat_side(u: Unit) -> bool:
    """Faces its Combat Mode side (Combat Mode, or under a marker oriented that way) (5.10e)."""
    _u_mode = u.mode
    return _u_mode == 'combat' or (_u_mode in _SET_dg_exploit_reserve and u.oriented_to_combat)


# rules/ocs/series.rules:71  5.10e  DG Mode Orientation
def _t_combat_side(u: Unit, _t: list[Cite]) -> bool:
    """combat_side, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_5_10e)
    return u.mode == 'combat' or (u.mode in _SET_dg_exploit_reserve and u.oriented_to_combat)


# rules/ocs/series.rules:71  5.10e  DG Mode Orientation
def explain_combat_side(u: Unit) -> Answer[bool]:
    """Faces its Combat Mode side (Combat Mode, or under a marker oriented that way) (5.10e), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_combat_side(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(combat_side, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/series.rules:73  5.10e  DG Mode Orientation
def combat_or_dg_combat(u: Unit) -> bool:
    """In Combat Mode, or in DG Mode and oriented toward Combat Mode (5.10e)."""
    _u_mode = u.mode
    return _u_mode == 'combat' or (_u_mode == 'dg' and u.oriented_to_combat)


# rules/ocs/series.rules:73  5.10e  DG Mode Orientation
def _t_combat_or_dg_combat(u: Unit, _t: list[Cite]) -> bool:
    """combat_or_dg_combat, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_5_10e)
    return u.mode == 'combat' or (u.mode == 'dg' and u.oriented_to_combat)


# rules/ocs/series.rules:73  5.10e  DG Mode Orientation
def explain_combat_or_dg_combat(u: Unit) -> Answer[bool]:
    """In Combat Mode, or in DG Mode and oriented toward Combat Mode (5.10e), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_combat_or_dg_combat(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(combat_or_dg_combat, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/series.rules:77  9.11  Step Losses
def steps_not_negative(u: Unit) -> bool:
    """A unit cannot have lost a negative number of steps (9.11)."""
    return u.step_losses >= 0


# rules/ocs/series.rules:77  9.11  Step Losses
def _t_steps_not_negative(u: Unit, _t: list[Cite]) -> bool:
    """steps_not_negative, recording in _t each rule it uses."""
    _t.extend(_RULES_OCS_9_11)
    return u.step_losses >= 0


# rules/ocs/series.rules:77  9.11  Step Losses
def explain_steps_not_negative(u: Unit) -> Answer[bool]:
    """A unit cannot have lost a negative number of steps (9.11), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_steps_not_negative(u, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(steps_not_negative, (('u', u, _DOMAINS_Unit_0), ))
    )


# rules/ocs/option-fog-of-war.rules:12  13.7b  Fog of War Option
def marker_placement_conforms(under_other_units: bool, holds_only_zoc_units: bool, one_unit_revealed: bool) -> bool:
    """Does the Formation marker's place in the stack conform to 4.8b and 4.9a? (one_unit_revealed: one of its units is
    shown) (13.7b).
    """
    # rule: (not under_other_units or marker_may_hide_formation(holds_only_zoc_units)) and (not holds_only_zoc_units or
    # one_unit_revealed)
    return (not under_other_units or not holds_only_zoc_units) and (not holds_only_zoc_units or one_unit_revealed)


_ANSWERS_marker_placement_conforms: Final[dict[tuple[bool, bool, bool], Answer[bool]]] = {
    (False, False, False,): Answer(True, (_CITE_fog_of_war_13_7b_,), ()),
    (False, False, True,): Answer(True, (_CITE_fog_of_war_13_7b_,), ()),
    (False, True, False,): Answer(
        False, (_CITE_fog_of_war_13_7b_,), ('holds_only_zoc_units = false', 'one_unit_revealed = true')
    ),
    (False, True, True,): Answer(True, (_CITE_fog_of_war_13_7b_,), ()),
    (True, False, False,): Answer(True, (_CITE_fog_of_war_13_7b_, _CITE_OCS_13_7, _CITE_fog_of_war_13_7b,), ()),
    (True, False, True,): Answer(True, (_CITE_fog_of_war_13_7b_, _CITE_OCS_13_7, _CITE_fog_of_war_13_7b,), ()),
    (True, True, False,): Answer(
        False, (_CITE_fog_of_war_13_7b_, _CITE_OCS_13_7, _CITE_fog_of_war_13_7b,), ('holds_only_zoc_units = false',)
    ),
    (True, True, True,): Answer(
        False,
        (_CITE_fog_of_war_13_7b_, _CITE_OCS_13_7, _CITE_fog_of_war_13_7b,),
        ('under_other_units = false', 'holds_only_zoc_units = false'),
    ),
}


# rules/ocs/option-fog-of-war.rules:12  13.7b  Fog of War Option
def explain_marker_placement_conforms(
    under_other_units: bool, holds_only_zoc_units: bool, one_unit_revealed: bool
) -> Answer[bool]:
    """Does the Formation marker's place in the stack conform to 4.8b and 4.9a? (one_unit_revealed: one of its units is
    shown) (13.7b), with the rules that decided it.
    """
    return _ANSWERS_marker_placement_conforms[(under_other_units, holds_only_zoc_units, one_unit_revealed)]


# rules/ocs/ch13-specialized-units.rules:10  12.5  Fuel Supply
def needs_fuel(u: Unit) -> bool:
    """Does the unit need fuel to move? (12.5)."""
    # transport: 13.2b (OCS) rules/ocs/ch13-specialized-units.rules:193
    if u.type == 'transport':
        return False
    # motorized: 12.5 (OCS) rules/ocs/ch13-specialized-units.rules:11
    if u.mobility != 'leg':
        return True
    # leg: 12.5 (OCS) rules/ocs/ch13-specialized-units.rules:12
    return False


# rules/ocs/ch13-specialized-units.rules:10  12.5  Fuel Supply
def _t_needs_fuel(u: Unit, _t: list[Cite]) -> bool:
    """needs_fuel, recording in _t each rule it uses."""
    # transport: 13.2b (OCS) rules/ocs/ch13-specialized-units.rules:193
    if u.type == 'transport':
        _t.extend(_RULES_OCS_12_5__OCS_13_2b_transport)
        return False
    # motorized: 12.5 (OCS) rules/ocs/ch13-specialized-units.rules:11
    if u.mobility != 'leg':
        _t.extend(_RULES_OCS_12_5__OCS_12_5_motorized)
        return True
    # leg: 12.5 (OCS) rules/ocs/ch13-specialized-units.rules:12
    _t.extend(_RULES_OCS_12_5__OCS_12_5_leg)
    return False


# rules/ocs/ch13-specialized-units.rules:10  12.5  Fuel Supply
def explain_needs_fuel(u: Unit) -> Answer[bool]:
    """Does the unit need fuel to move? (12.5), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_needs_fuel(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(needs_fuel, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch13-specialized-units.rules:93  13.1c  HQs and Combat
def defense_strength(u: Unit, printed: int) -> int:
    """Defense strength: the parenthesized (defensive-only) strength not printed on the counter, else the printed one
    (13.1c).
    """
    # artillery: 13.4b (OCS) rules/ocs/ch13-specialized-units.rules:838
    _u_type = u.type
    if _u_type == 'artillery':
        return 1
    # hq_combat: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:95
    if _u_type == 'hq' and u.mode == 'combat':
        return 5
    # hq_move: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:96
    if _u_type == 'hq' and u.mode == 'move':
        return 1
    # hq_combat_side: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:97
    _u_mode = u.mode
    # rule: u.type == hq and combat_side(u)
    if _u_type == 'hq' and (_u_mode == 'combat' or (_u_mode in _SET_dg_exploit_reserve and u.oriented_to_combat)):
        return 5
    # hq_move_side: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:99
    if _u_type == 'hq':
        return 1
    # printed: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:100
    return printed


# rules/ocs/ch13-specialized-units.rules:93  13.1c  HQs and Combat
def _t_defense_strength(u: Unit, printed: int, _t: list[Cite]) -> int:
    """defense_strength, recording in _t each rule it uses."""
    # artillery: 13.4b (OCS) rules/ocs/ch13-specialized-units.rules:838
    if u.type == 'artillery':
        _t.extend(_RULES_OCS_13_1c__OCS_13_4b_artillery)
        return 1
    # hq_combat: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:95
    if u.type == 'hq' and u.mode == 'combat':
        _t.extend(_RULES_OCS_13_1c__OCS_13_1c_hq_combat)
        return 5
    # hq_move: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:96
    if u.type == 'hq' and u.mode == 'move':
        _t.extend(_RULES_OCS_13_1c__OCS_13_1c_hq_move)
        return 1
    # hq_combat_side: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:97
    if u.type == 'hq' and _t_combat_side(u, _t):
        _t.extend(_RULES_OCS_13_1c__OCS_13_1c_hq_combat_side)
        return 5
    # hq_move_side: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:99
    if u.type == 'hq':
        _t.extend(_RULES_OCS_13_1c__OCS_13_1c_hq_move_side)
        return 1
    # printed: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:100
    _t.extend(_RULES_OCS_13_1c__OCS_13_1c_printed)
    return printed


# rules/ocs/ch13-specialized-units.rules:93  13.1c  HQs and Combat
def explain_defense_strength(u: Unit, printed: int) -> Answer[int]:
    """Defense strength: the parenthesized (defensive-only) strength not printed on the counter, else the printed one
    (13.1c), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_defense_strength(u, printed, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch13-specialized-units.rules:317  13.2f  Loading and Unloading
def may_unload(tp: Unit, h: Hex) -> bool:
    """May the Transport Point unload its SP in this hex? (13.2f)."""
    # organic: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:368
    if tp.organic:
        return False
    # receiving_hex: 13.2f (OCS) rules/ocs/ch13-specialized-units.rules:318
    # rule: any(is_combat(u) or u.type in {port, air_base} or (u.type == sp and not u.loaded) for u in h.units)
    if any(
        u.type not in _SET_fighter_hedgehog_other_p_ff3ed59e or (u.type == 'sp' and (not u.loaded)) for u in h.units
    ):
        return True
    # elsewhere: 13.2f (OCS) rules/ocs/ch13-specialized-units.rules:321
    return False


# rules/ocs/ch13-specialized-units.rules:317  13.2f  Loading and Unloading
def _t_may_unload(tp: Unit, h: Hex, _t: list[Cite]) -> bool:
    """may_unload, recording in _t each rule it uses."""
    # organic: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:368
    if tp.organic:
        _t.extend(_RULES_OCS_13_2f__OCS_13_2g_organic)
        return False
    # receiving_hex: 13.2f (OCS) rules/ocs/ch13-specialized-units.rules:318
    if any(_t_is_combat(u, _t) or u.type in _SET_air_base_port or (u.type == 'sp' and (not u.loaded)) for u in h.units):
        _t.extend(_RULES_OCS_13_2f__OCS_13_2f_receiving_hex)
        return True
    # elsewhere: 13.2f (OCS) rules/ocs/ch13-specialized-units.rules:321
    _t.extend(_RULES_OCS_13_2f__OCS_13_2f_elsewhere)
    return False


# rules/ocs/ch13-specialized-units.rules:317  13.2f  Loading and Unloading
def explain_may_unload(tp: Unit, h: Hex) -> Answer[bool]:
    """May the Transport Point unload its SP in this hex? (13.2f), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_unload(tp, h, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(may_unload, (('tp', tp, _DOMAINS_Unit_0), ('h', h, _DOMAINS_Hex_0), )),
    )


# rules/ocs/ch13-specialized-units.rules:377  13.2g  Organic Trucks
def may_retreat(tp: Unit, with_retreating_combat_units: bool) -> bool:
    """May this Transport Point retreat? (with_retreating_combat_units: with retreating combat units of its stack)
    (13.2g).
    """
    # tag_along: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:379
    # rule: tp.organic and with_retreating_combat_units
    if with_retreating_combat_units and tp.organic:
        return True
    # alone: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:381
    _tp_organic = tp.organic
    if _tp_organic:
        return False
    # others: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:382
    return False


# rules/ocs/ch13-specialized-units.rules:377  13.2g  Organic Trucks
def _t_may_retreat(tp: Unit, with_retreating_combat_units: bool, _t: list[Cite]) -> bool:
    """may_retreat, recording in _t each rule it uses."""
    # tag_along: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:379
    if tp.organic and with_retreating_combat_units:
        _t.extend(_RULES_OCS_13_2g__OCS_13_2g_tag_along)
        return True
    # alone: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:381
    if tp.organic:
        _t.extend(_RULES_OCS_13_2g__OCS_13_2g_alone)
        return False
    # others: 13.2g (OCS) rules/ocs/ch13-specialized-units.rules:382
    _t.extend(_RULES_OCS_13_2g__OCS_13_2g_others)
    return False


# rules/ocs/ch13-specialized-units.rules:377  13.2g  Organic Trucks
def explain_may_retreat(tp: Unit, with_retreating_combat_units: bool) -> Answer[bool]:
    """May this Transport Point retreat? (with_retreating_combat_units: with retreating combat units of its stack)
    (13.2g), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_may_retreat(tp, with_retreating_combat_units, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            may_retreat,
            (
                ('tp', tp, _DOMAINS_Unit_0),
                ('with_retreating_combat_units', with_retreating_combat_units, (False, True)),
            ),
        ),
    )


# rules/ocs/ch13-specialized-units.rules:610  13.3e
def may_entrain(u: Unit, x: RailHex) -> bool:
    """May this cargo entrain here? (13.3e)."""
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:722
    _u_type = u.type
    if _u_type == 'rail_repair' and (not x.in_ezoc):
        return True
    # hq_itself: 13.8c (OCS) rules/ocs/ch13-specialized-units.rules:1423
    _u_mode = u.mode
    # rule: creates_detrainable(u) and detrainable(x) and not x.in_ezoc
    if (
        _u_type == 'hq'
        and (_u_mode == 'combat' or (_u_mode == 'dg' and u.oriented_to_combat))
        and (
            (
                x.town_or_port
                or any(
                    u.type == 'hq' and (u.mode == 'combat' or (u.mode == 'dg' and u.oriented_to_combat))
                    for u in x.units
                )
            )
            and x.controlled
            and x.ezoc_free_path_to_supply
            and (not x.path_needs_extender)
            and (not x.path_ezoc_negated or ezoc_allows('C', True))
        )
        and (not x.in_ezoc)
    ):
        return True
    # entrain: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:611
    _x_town_or_port = x.town_or_port
    # rule: detrainable(x) and not x.in_ezoc and (u.mode == move or not is_combat(u))
    if (
        (
            (
                _x_town_or_port
                or any(
                    u.type == 'hq' and (u.mode == 'combat' or (u.mode == 'dg' and u.oriented_to_combat))
                    for u in x.units
                )
            )
            and x.controlled
            and x.ezoc_free_path_to_supply
            and (not x.path_needs_extender)
            and (not x.path_ezoc_negated or ezoc_allows('C', True))
        )
        and (not x.in_ezoc)
        and (_u_mode == 'move' or not UnitType_combat[_u_type])
    ):
        return True
    # no: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:613
    return False


# rules/ocs/ch13-specialized-units.rules:610  13.3e
def _t_may_entrain(u: Unit, x: RailHex, _t: list[Cite]) -> bool:
    """may_entrain, recording in _t each rule it uses."""
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:722
    if u.type == 'rail_repair' and (not x.in_ezoc):
        _t.extend(_RULES_OCS_13_3e__OCS_13_3g_rail_repair)
        return True
    # hq_itself: 13.8c (OCS) rules/ocs/ch13-specialized-units.rules:1423
    if _t_creates_detrainable(u, _t) and _t_detrainable(x, _t) and (not x.in_ezoc):
        _t.extend(_RULES_OCS_13_3e__OCS_13_8c_hq_itself)
        return True
    # entrain: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:611
    if _t_detrainable(x, _t) and (not x.in_ezoc) and (u.mode == 'move' or not _t_is_combat(u, _t)):
        _t.extend(_RULES_OCS_13_3e__OCS_13_3e_entrain)
        return True
    # no: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:613
    _t.extend(_RULES_OCS_13_3e__OCS_13_3e_no)
    return False


# rules/ocs/ch13-specialized-units.rules:610  13.3e
def explain_may_entrain(u: Unit, x: RailHex) -> Answer[bool]:
    """May this cargo entrain here? (13.3e), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_entrain(u, x, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(may_entrain, (('u', u, _DOMAINS_Unit_0), ('x', x, _DOMAINS_RailHex_0), )),
    )


# rules/ocs/ch13-specialized-units.rules:616  13.3e
def may_detrain(u: Unit, x: RailHex) -> bool:
    """May this cargo detrain here? (13.3e)."""
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:726
    if u.type == 'rail_repair' and (not x.in_ezoc) and (not x.enemy_units):
        return True
    # enemy_units: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:937
    _x_enemy_units = x.enemy_units
    if _x_enemy_units:
        return False
    # detrain: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:617
    # rule: detrainable(x) and not x.in_ezoc
    if (
        (
            (
                x.town_or_port
                or any(
                    u.type == 'hq' and (u.mode == 'combat' or (u.mode == 'dg' and u.oriented_to_combat))
                    for u in x.units
                )
            )
            and x.controlled
            and x.ezoc_free_path_to_supply
            and (not x.path_needs_extender)
            and (not x.path_ezoc_negated or ezoc_allows('C', True))
        )
        and (not x.in_ezoc)
    ):
        return True
    # no: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:618
    return False


# rules/ocs/ch13-specialized-units.rules:616  13.3e
def _t_may_detrain(u: Unit, x: RailHex, _t: list[Cite]) -> bool:
    """may_detrain, recording in _t each rule it uses."""
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:726
    if u.type == 'rail_repair' and (not x.in_ezoc) and (not x.enemy_units):
        _t.extend(_RULES_OCS_13_3e__OCS_13_3g_rail_repair_)
        return True
    # enemy_units: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:937
    if x.enemy_units:
        _t.extend(_RULES_OCS_13_3e__OCS_4_8c_enemy_units)
        return False
    # detrain: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:617
    if _t_detrainable(x, _t) and (not x.in_ezoc):
        _t.extend(_RULES_OCS_13_3e__OCS_13_3e_detrain)
        return True
    # no: 13.3e (OCS) rules/ocs/ch13-specialized-units.rules:618
    _t.extend(_RULES_OCS_13_3e__OCS_13_3e_no)
    return False


# rules/ocs/ch13-specialized-units.rules:616  13.3e
def explain_may_detrain(u: Unit, x: RailHex) -> Answer[bool]:
    """May this cargo detrain here? (13.3e), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_may_detrain(u, x, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(may_detrain, (('u', u, _DOMAINS_Unit_0), ('x', x, _DOMAINS_RailHex_0), )),
    )


# rules/ocs/ch13-specialized-units.rules:952  13.5b
def rebuildable(u: Unit, in_dead_pile: bool) -> bool:
    """Can this unit be rebuilt? (in_dead_pile: it is in the Dead Pile, not on the map) (13.5b)."""
    # yellow_dot: 13.5c (OCS) rules/ocs/ch13-specialized-units.rules:996
    if u.no_rebuild:
        return False
    # breakdown: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:954
    if u.breakdown:
        return False
    # dead_pile: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:955
    if in_dead_pile:
        return True
    # reduced: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:956
    if u.multi_step and u.step_losses > 0:
        return True
    # others: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:957
    return False


# rules/ocs/ch13-specialized-units.rules:952  13.5b
def _t_rebuildable(u: Unit, in_dead_pile: bool, _t: list[Cite]) -> bool:
    """rebuildable, recording in _t each rule it uses."""
    # yellow_dot: 13.5c (OCS) rules/ocs/ch13-specialized-units.rules:996
    if u.no_rebuild:
        _t.extend(_RULES_OCS_13_5b__OCS_13_5c_yellow_dot)
        return False
    # breakdown: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:954
    if u.breakdown:
        _t.extend(_RULES_OCS_13_5b__OCS_13_5b_breakdown)
        return False
    # dead_pile: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:955
    if in_dead_pile:
        _t.extend(_RULES_OCS_13_5b__OCS_13_5b_dead_pile)
        return True
    # reduced: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:956
    if u.multi_step and u.step_losses > 0:
        _t.extend(_RULES_OCS_13_5b__OCS_13_5b_reduced)
        return True
    # others: 13.5b (OCS) rules/ocs/ch13-specialized-units.rules:957
    _t.extend(_RULES_OCS_13_5b__OCS_13_5b_others)
    return False


# rules/ocs/ch13-specialized-units.rules:952  13.5b
def explain_rebuildable(u: Unit, in_dead_pile: bool) -> Answer[bool]:
    """Can this unit be rebuilt? (in_dead_pile: it is in the Dead Pile, not on the map) (13.5b), with the rules that
    decided it.
    """
    _t: list[Cite] = []
    _value = _t_rebuildable(u, in_dead_pile, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            rebuildable, (('u', u, _DOMAINS_Unit_0), ('in_dead_pile', in_dead_pile, (False, True)), )
        ),
    )


# rules/ocs/ch13-specialized-units.rules:1103  13.6  Reinforcements
def may_place_reinforcements_in(
    is_arrival_hex: bool, arrival_hex_blocked: bool, arrival_hex_at_map_edge: bool, nearest_unblocked_map_edge_hex: bool
) -> bool:
    """May reinforcements be placed in this hex? (blocked: enemy units in their arrival hex) (13.6)."""
    # nearest_edge: 13.6b (OCS) rules/ocs/ch13-specialized-units.rules:1177
    if not is_arrival_hex and arrival_hex_blocked and arrival_hex_at_map_edge and nearest_unblocked_map_edge_hex:
        return True
    # entry: 13.6 (OCS) rules/ocs/ch13-specialized-units.rules:1106
    if is_arrival_hex and (not arrival_hex_blocked):
        return True
    # elsewhere: 13.6 (OCS) rules/ocs/ch13-specialized-units.rules:1107
    return False


_ANSWERS_may_place_reinforcements_in: Final[dict[tuple[bool, bool, bool, bool], Answer[bool]]] = {
    (False, False, False, False,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('is_arrival_hex = true',)
    ),
    (False, False, False, True,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('is_arrival_hex = true',)
    ),
    (False, False, True, False,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('is_arrival_hex = true',)
    ),
    (False, False, True, True,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('is_arrival_hex = true', 'arrival_hex_blocked = true')
    ),
    (False, True, False, False,): Answer(False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ()),
    (False, True, False, True,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('arrival_hex_at_map_edge = true',)
    ),
    (False, True, True, False,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('nearest_unblocked_map_edge_hex = true',)
    ),
    (False, True, True, True,): Answer(True, (_CITE_OCS_13_6, _CITE_OCS_13_6b_nearest_edge,), ()),
    (True, False, False, False,): Answer(True, (_CITE_OCS_13_6, _CITE_OCS_13_6_entry,), ()),
    (True, False, False, True,): Answer(True, (_CITE_OCS_13_6, _CITE_OCS_13_6_entry,), ()),
    (True, False, True, False,): Answer(True, (_CITE_OCS_13_6, _CITE_OCS_13_6_entry,), ()),
    (True, False, True, True,): Answer(True, (_CITE_OCS_13_6, _CITE_OCS_13_6_entry,), ()),
    (True, True, False, False,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('arrival_hex_blocked = false',)
    ),
    (True, True, False, True,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('arrival_hex_blocked = false',)
    ),
    (True, True, True, False,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('arrival_hex_blocked = false',)
    ),
    (True, True, True, True,): Answer(
        False, (_CITE_OCS_13_6, _CITE_OCS_13_6_elsewhere,), ('is_arrival_hex = false', 'arrival_hex_blocked = false')
    ),
}


# rules/ocs/ch13-specialized-units.rules:1103  13.6  Reinforcements
def explain_may_place_reinforcements_in(
    is_arrival_hex: bool, arrival_hex_blocked: bool, arrival_hex_at_map_edge: bool, nearest_unblocked_map_edge_hex: bool
) -> Answer[bool]:
    """May reinforcements be placed in this hex? (blocked: enemy units in their arrival hex) (13.6), with the rules that
    decided it.
    """
    return _ANSWERS_may_place_reinforcements_in[
        (is_arrival_hex, arrival_hex_blocked, arrival_hex_at_map_edge, nearest_unblocked_map_edge_hex)
    ]


# rules/ocs/ch13-specialized-units.rules:1359  13.8b  Bridging
def bridged(river: River, bridged_by_engineers: bool, overrunning: bool) -> River:
    """The hexside a friendly unit moving into or out of the engineers' hex pays for (13.8b)."""
    # overrun: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1361
    if overrunning:
        return river
    # major: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1362
    if bridged_by_engineers and river == 'major_river':
        return 'minor_river'
    # minor: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1363
    if bridged_by_engineers and river == 'minor_river':
        return 'no_river'
    # unbridged: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1364
    return river


_ANSWERS_bridged: Final[dict[tuple[River, bool, bool], Answer[River]]] = {
    ('no_river', False, False,): Answer('no_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_unbridged,), ()),
    ('no_river', False, True,): Answer('no_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_overrun,), ()),
    ('no_river', True, False,): Answer('no_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_unbridged,), ()),
    ('no_river', True, True,): Answer('no_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_overrun,), ()),
    ('minor_river', False, False,): Answer('minor_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_unbridged,), ()),
    ('minor_river', False, True,): Answer('minor_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_overrun,), ()),
    ('minor_river', True, False,): Answer('no_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_minor,), ()),
    ('minor_river', True, True,): Answer('minor_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_overrun,), ()),
    ('major_river', False, False,): Answer('major_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_unbridged,), ()),
    ('major_river', False, True,): Answer('major_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_overrun,), ()),
    ('major_river', True, False,): Answer('minor_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_major,), ()),
    ('major_river', True, True,): Answer('major_river', (_CITE_OCS_13_8b, _CITE_OCS_13_8b_overrun,), ()),
}


# rules/ocs/ch13-specialized-units.rules:1359  13.8b  Bridging
def explain_bridged(river: River, bridged_by_engineers: bool, overrunning: bool) -> Answer[River]:
    """The hexside a friendly unit moving into or out of the engineers' hex pays for (13.8b), with the rules that
    decided it.
    """
    return _ANSWERS_bridged[(river, bridged_by_engineers, overrunning)]


# rules/ocs/ch13-specialized-units.rules:1372  13.8b  Bridging
def bridge_usable(engineer: Unit, leaving_own_hex_after_mode_change: bool) -> bool:
    """Does this unit's bridging still stand? (leaving_own_hex_after_mode_change: the unit itself leaves its hex, having
    lost Engineer-Capable status by changing its mode or orientation) (13.8b).
    """
    # capable: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1374
    _engineer_mode = engineer.mode
    _engineer_type = engineer.type
    # rule: engineer_capable(engineer)
    if (
        _engineer_type in _SET_engineer_hq
        and (_engineer_mode == 'combat' or (_engineer_mode == 'dg' and engineer.oriented_to_combat))
    ):
        return True
    # own_bridge: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1375
    # rule: leaving_own_hex_after_mode_change and may_perform_engineering(engineer)
    if leaving_own_hex_after_mode_change and _engineer_type in _SET_engineer_hq:
        return True
    # gone: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1377
    return False


# rules/ocs/ch13-specialized-units.rules:1372  13.8b  Bridging
def _t_bridge_usable(engineer: Unit, leaving_own_hex_after_mode_change: bool, _t: list[Cite]) -> bool:
    """bridge_usable, recording in _t each rule it uses."""
    # capable: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1374
    if _t_engineer_capable(engineer, _t):
        _t.extend(_RULES_OCS_13_8b__OCS_13_8b_capable)
        return True
    # own_bridge: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1375
    if leaving_own_hex_after_mode_change and _t_may_perform_engineering(engineer, _t):
        _t.extend(_RULES_OCS_13_8b__OCS_13_8b_own_bridge)
        return True
    # gone: 13.8b (OCS) rules/ocs/ch13-specialized-units.rules:1377
    _t.extend(_RULES_OCS_13_8b__OCS_13_8b_gone)
    return False


# rules/ocs/ch13-specialized-units.rules:1372  13.8b  Bridging
def explain_bridge_usable(engineer: Unit, leaving_own_hex_after_mode_change: bool) -> Answer[bool]:
    """Does this unit's bridging still stand? (leaving_own_hex_after_mode_change: the unit itself leaves its hex, having
    lost Engineer-Capable status by changing its mode or orientation) (13.8b), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_bridge_usable(engineer, leaving_own_hex_after_mode_change, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            bridge_usable,
            (
                ('engineer', engineer, _DOMAINS_Unit_0),
                ('leaving_own_hex_after_mode_change', leaving_own_hex_after_mode_change, (False, True)),
            ),
        ),
    )


# rules/ocs/ch4-general-concepts.rules:30  4.2  Fractions
def _t_odds(attack: Number, defense: Number, _t: list[Cite]) -> Number:
    """odds, recording in _t each rule it uses."""
    if not (attack > 0 and defense > 0):  # requires
        raise RuleError('odds answers only where attack > 0 and defense > 0')
    # attacker: 4.2 (OCS) rules/ocs/ch4-general-concepts.rules:32
    if attack >= defense:
        _t.extend(_RULES_OCS_4_2__OCS_4_2_attacker)
        return _t_rounded(_div(attack, defense), _t) * 4
    # defender: 4.2 (OCS) rules/ocs/ch4-general-concepts.rules:34
    _t.extend(_RULES_OCS_4_2__OCS_4_2_defender)
    return _div(4, _t_rounded(_div(defense, attack), _t) * 4)


# rules/ocs/ch4-general-concepts.rules:30  4.2  Fractions
def odds(attack: Number, defense: Number) -> Number:
    """Combat odds, rounded only at the end: N for N:1, 1/N for 1:N (4.2). Numbers are exact: int or Fraction."""
    attack = attack * SCALE  # conditions compare scaled numbers
    defense = defense * SCALE  # conditions compare scaled numbers
    if not (attack > 0 and defense > 0):  # requires
        raise RuleError('odds answers only where attack > 0 and defense > 0')
    # attacker: 4.2 (OCS) rules/ocs/ch4-general-concepts.rules:32
    if attack >= defense:
        return _exact(_s_rounded(_div(attack, defense)) * 4)
    # defender: 4.2 (OCS) rules/ocs/ch4-general-concepts.rules:34
    return _exact(_div(4, _s_rounded(_div(defense, attack)) * 4))


# rules/ocs/ch4-general-concepts.rules:30  4.2  Fractions
def explain_odds(attack: Number, defense: Number) -> Answer[Number]:
    """Combat odds, rounded only at the end: N for N:1, 1/N for 1:N (4.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_odds(attack * SCALE, defense * SCALE, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:113  4.4  Attack-Capable Units
def attack_capable(u: Unit) -> bool:
    """Attack-Capable (4.4)."""
    # hq: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:104
    _u_type = u.type
    if _u_type == 'hq':
        return False
    # artillery: 13.4b (OCS) rules/ocs/ch13-specialized-units.rules:841
    if _u_type == 'artillery':
        return False
    # not_combat: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:114
    # rule: not is_combat(u)
    if not UnitType_combat[_u_type]:
        return False
    # parenthesized: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:115
    if not u.printed_strength or u.parenthesized:
        return False
    # strat_reserve: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:117
    if u.mode in _SET_reserve_strat:
        return False
    # capable: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:118
    return True


# rules/ocs/ch4-general-concepts.rules:113  4.4  Attack-Capable Units
def _t_attack_capable(u: Unit, _t: list[Cite]) -> bool:
    """attack_capable, recording in _t each rule it uses."""
    # hq: 13.1c (OCS) rules/ocs/ch13-specialized-units.rules:104
    if u.type == 'hq':
        _t.extend(_RULES_OCS_4_4__OCS_13_1c_hq)
        return False
    # artillery: 13.4b (OCS) rules/ocs/ch13-specialized-units.rules:841
    if u.type == 'artillery':
        _t.extend(_RULES_OCS_4_4__OCS_13_4b_artillery_)
        return False
    # not_combat: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:114
    if not _t_is_combat(u, _t):
        _t.extend(_RULES_OCS_4_4__OCS_4_4_not_combat)
        return False
    # parenthesized: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:115
    if not u.printed_strength or u.parenthesized:
        _t.extend(_RULES_OCS_4_4__OCS_4_4_parenthesized)
        return False
    # strat_reserve: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:117
    if u.mode in _SET_reserve_strat:
        _t.extend(_RULES_OCS_4_4__OCS_4_4_strat_reserve)
        return False
    # capable: 4.4 (OCS) rules/ocs/ch4-general-concepts.rules:118
    _t.extend(_RULES_OCS_4_4__OCS_4_4_capable)
    return True


# rules/ocs/ch4-general-concepts.rules:113  4.4  Attack-Capable Units
def explain_attack_capable(u: Unit) -> Answer[bool]:
    """Attack-Capable (4.4), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_attack_capable(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(attack_capable, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch4-general-concepts.rules:187  4.4b
def has_zoc(u: Unit) -> bool:
    """Has a Zone of Control (4.4b)."""
    # exploitation: 4.5 (OCS) rules/ocs/ch4-general-concepts.rules:224
    _u_mode = u.mode
    # rule: u.mode == exploit and attack_capable(u) and not u.out_of_supply and exploitation_zoc(u)
    if (
        _u_mode == 'exploit'
        and u.type in _SET_assault_engineer_combat_352fa5da
        and u.printed_strength
        and (not u.parenthesized)
        and (not u.out_of_supply)
        and u.oriented_to_combat
    ):
        return True
    # zoc: 4.4b (OCS) rules/ocs/ch4-general-concepts.rules:188
    # rule: u.mode == combat and attack_capable(u) and not u.out_of_supply
    if (
        _u_mode == 'combat'
        and u.type in _SET_assault_engineer_combat_352fa5da
        and u.printed_strength
        and (not u.parenthesized)
        and (not u.out_of_supply)
    ):
        return True
    # none: 4.4b (OCS) rules/ocs/ch4-general-concepts.rules:190
    return False


# rules/ocs/ch4-general-concepts.rules:187  4.4b
def _t_has_zoc(u: Unit, _t: list[Cite]) -> bool:
    """has_zoc, recording in _t each rule it uses."""
    # exploitation: 4.5 (OCS) rules/ocs/ch4-general-concepts.rules:224
    if u.mode == 'exploit' and _t_attack_capable(u, _t) and (not u.out_of_supply) and _t_exploitation_zoc(u, _t):
        _t.extend(_RULES_OCS_4_4b__OCS_4_5_exploitation)
        return True
    # zoc: 4.4b (OCS) rules/ocs/ch4-general-concepts.rules:188
    if u.mode == 'combat' and _t_attack_capable(u, _t) and (not u.out_of_supply):
        _t.extend(_RULES_OCS_4_4b__OCS_4_4b_zoc)
        return True
    # none: 4.4b (OCS) rules/ocs/ch4-general-concepts.rules:190
    _t.extend(_RULES_OCS_4_4b__OCS_4_4b_none)
    return False


# rules/ocs/ch4-general-concepts.rules:187  4.4b
def explain_has_zoc(u: Unit) -> Answer[bool]:
    """Has a Zone of Control (4.4b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_has_zoc(u, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(has_zoc, (('u', u, _DOMAINS_Unit_0), )))


# rules/ocs/ch4-general-concepts.rules:321  4.5a  Actions not allowed in an enemy ZOC
def mode_may_enter_ezoc(mode: Mode) -> bool:
    """May a unit in this mode enter an enemy ZOC (A aside)? (4.5a)."""
    # strat: 4.5a (OCS) rules/ocs/ch4-general-concepts.rules:322
    if mode == 'strat':
        return False
    # reserve: 4.5a (OCS) rules/ocs/ch4-general-concepts.rules:323
    if mode == 'reserve':
        return True
    # other: 4.5a (OCS) rules/ocs/ch4-general-concepts.rules:324
    return True


_ANSWERS_mode_may_enter_ezoc: Final[dict[tuple[Mode], Answer[bool]]] = {
    ('combat',): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_other,), ()),
    ('move',): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_other,), ()),
    ('reserve',): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_reserve,), ()),
    ('strat',): Answer(
        False,
        (_CITE_OCS_4_5a, _CITE_OCS_4_5a_strat,),
        ('mode = combat', 'mode = move', 'mode = reserve', 'mode = dg', 'mode = exploit'),
    ),
    ('dg',): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_other,), ()),
    ('exploit',): Answer(True, (_CITE_OCS_4_5a, _CITE_OCS_4_5a_other,), ()),
}


# rules/ocs/ch4-general-concepts.rules:321  4.5a  Actions not allowed in an enemy ZOC
def explain_mode_may_enter_ezoc(mode: Mode) -> Answer[bool]:
    """May a unit in this mode enter an enemy ZOC (A aside)? (4.5a), with the rules that decided it."""
    return _ANSWERS_mode_may_enter_ezoc[(mode,)]


# rules/ocs/ch4-general-concepts.rules:437  4.6  Regimental Equivalents
def _s_re_size(u: Unit) -> Number:
    """re_size with numbers scaled by SCALE."""
    # jock_column: 1.2 (DAK) rules/dak/dak.rules:41
    _u_type = u.type
    # rule: is_combat(u) and u.type != hq and u.formation == "Jock Column" and u.size == company
    if _u_type in _SET_artillery_assault_engine_88af7d0e and u.formation == 'Jock Column' and (u.size == 'company'):
        return 2
    # hq: 13.1 (OCS) rules/ocs/ch13-specialized-units.rules:35
    if _u_type == 'hq':
        return 4
    # not_combat: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:438
    # rule: not is_combat(u)
    if not UnitType_combat[_u_type]:
        return 0
    # multi_step: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:439
    if u.multi_step:
        return _scaled(u.printed_re) - u.step_losses * 4
    # quarter: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:441
    if _u_type == 'repl' or u.size == 'company':
        return 1
    # battalion: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:442
    _u_size = u.size
    if _u_size == 'battalion':
        return 2
    # other: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:443
    return 4


# rules/ocs/ch4-general-concepts.rules:437  4.6  Regimental Equivalents
def _t_re_size(u: Unit, _t: list[Cite]) -> Number:
    """re_size, recording in _t each rule it uses."""
    # jock_column: 1.2 (DAK) rules/dak/dak.rules:41
    if _t_is_combat(u, _t) and u.type != 'hq' and (u.formation == 'Jock Column') and (u.size == 'company'):
        _t.extend(_RULES_OCS_4_6__DAK_1_2_jock_column)
        return 2
    # hq: 13.1 (OCS) rules/ocs/ch13-specialized-units.rules:35
    if u.type == 'hq':
        _t.extend(_RULES_OCS_4_6__OCS_13_1_hq)
        return 4
    # not_combat: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:438
    if not _t_is_combat(u, _t):
        _t.extend(_RULES_OCS_4_6__OCS_4_6_not_combat)
        return 0
    # multi_step: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:439
    if u.multi_step:
        _t.extend(_RULES_OCS_4_6__OCS_4_6_multi_step)
        return _scaled(u.printed_re) - u.step_losses * 4
    # quarter: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:441
    if u.type == 'repl' or u.size == 'company':
        _t.extend(_RULES_OCS_4_6__OCS_4_6_quarter)
        return 1
    # battalion: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:442
    if u.size == 'battalion':
        _t.extend(_RULES_OCS_4_6__OCS_4_6_battalion)
        return 2
    # other: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:443
    _t.extend(_RULES_OCS_4_6__OCS_4_6_other)
    return 4


# rules/ocs/ch4-general-concepts.rules:437  4.6  Regimental Equivalents
def re_size(u: Unit) -> Number:
    """RE size (4.6). Numbers are exact: int or Fraction."""
    # jock_column: 1.2 (DAK) rules/dak/dak.rules:41
    _u_type = u.type
    # rule: is_combat(u) and u.type != hq and u.formation == "Jock Column" and u.size == company
    if _u_type in _SET_artillery_assault_engine_88af7d0e and u.formation == 'Jock Column' and (u.size == 'company'):
        return _Q_1_2
    # hq: 13.1 (OCS) rules/ocs/ch13-specialized-units.rules:35
    if _u_type == 'hq':
        return 1
    # not_combat: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:438
    # rule: not is_combat(u)
    if not UnitType_combat[_u_type]:
        return 0
    # multi_step: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:439
    if u.multi_step:
        return _exact(_scaled(u.printed_re) - u.step_losses * 4)
    # quarter: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:441
    if _u_type == 'repl' or u.size == 'company':
        return _Q_1_4
    # battalion: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:442
    _u_size = u.size
    if _u_size == 'battalion':
        return _Q_1_2
    # other: 4.6 (OCS) rules/ocs/ch4-general-concepts.rules:443
    return 1


# rules/ocs/ch4-general-concepts.rules:437  4.6  Regimental Equivalents
def explain_re_size(u: Unit) -> Answer[Number]:
    """RE size (4.6), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_re_size(u, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:540  4.7b
def _s_transport_equivalent(u: Unit) -> Number:
    """transport_equivalent with numbers scaled by SCALE."""
    # supply: 4.7a (OCS) rules/ocs/ch4-general-concepts.rules:523
    _u_type = u.type
    if _u_type == 'sp' and (not u.loaded):
        return _scaled(u.points)
    # transport_point: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:567
    if _u_type == 'transport':
        return _scaled(u.points)
    # loaded_sp: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:568
    if _u_type == 'sp' and u.loaded:
        return 0
    # slow_leg: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:541
    _u_move_ma = u.move_ma
    if u.mobility == 'leg' and _scaled(_u_move_ma) >= 4 and (_scaled(_u_move_ma) <= 24):
        return _div(_s_re_size(u), 8)
    # other: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:543
    return _s_re_size(u)


# rules/ocs/ch4-general-concepts.rules:540  4.7b
def _t_transport_equivalent(u: Unit, _t: list[Cite]) -> Number:
    """transport_equivalent, recording in _t each rule it uses."""
    # supply: 4.7a (OCS) rules/ocs/ch4-general-concepts.rules:523
    if u.type == 'sp' and (not u.loaded):
        _t.extend(_RULES_OCS_4_7b__OCS_4_7a_supply)
        return _scaled(u.points)
    # transport_point: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:567
    if u.type == 'transport':
        _t.extend(_RULES_OCS_4_7b__OCS_4_7c_transport_point)
        return _scaled(u.points)
    # loaded_sp: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:568
    if u.type == 'sp' and u.loaded:
        _t.extend(_RULES_OCS_4_7b__OCS_4_7c_loaded_sp)
        return 0
    # slow_leg: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:541
    if u.mobility == 'leg' and _scaled(u.move_ma) >= 4 and (_scaled(u.move_ma) <= 24):
        _t.extend(_RULES_OCS_4_7b__OCS_4_7b_slow_leg)
        return _div(_t_re_size(u, _t), 8)
    # other: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:543
    _t.extend(_RULES_OCS_4_7b__OCS_4_7b_other)
    return _t_re_size(u, _t)


# rules/ocs/ch4-general-concepts.rules:540  4.7b
def transport_equivalent(u: Unit) -> Number:
    """Transportation equivalent (4.7b). Numbers are exact: int or Fraction."""
    # supply: 4.7a (OCS) rules/ocs/ch4-general-concepts.rules:523
    _u_type = u.type
    if _u_type == 'sp' and (not u.loaded):
        return _exact(_scaled(u.points))
    # transport_point: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:567
    if _u_type == 'transport':
        return _exact(_scaled(u.points))
    # loaded_sp: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:568
    if _u_type == 'sp' and u.loaded:
        return 0
    # slow_leg: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:541
    _u_move_ma = u.move_ma
    if u.mobility == 'leg' and _scaled(_u_move_ma) >= 4 and (_scaled(_u_move_ma) <= 24):
        return _exact(_div(_s_re_size(u), 8))
    # other: 4.7b (OCS) rules/ocs/ch4-general-concepts.rules:543
    return _exact(_s_re_size(u))


# rules/ocs/ch4-general-concepts.rules:540  4.7b
def explain_transport_equivalent(u: Unit) -> Answer[Number]:
    """Transportation equivalent (4.7b), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_transport_equivalent(u, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:573  4.7c
def transport_point_by(by: Transport, tp: TransportPointKind) -> bool:
    """Can a Transport Point be carried this way? (4.7c)."""
    # mules: 13.2e (OCS) rules/ocs/ch13-specialized-units.rules:280
    if tp == 'mule' and by == 'air':
        return True
    # sea_or_rail: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:574
    if by in _SET_landing_craft_rail_shipping:
        return True
    # by_air: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:575
    if by in _SET_air_air_drop:
        return False
    # unlisted: 4.7c (OCS) rules/ocs/ch4-general-concepts.rules:576
    return False


_ANSWERS_transport_point_by: Final[dict[tuple[Transport, TransportPointKind], Answer[bool]]] = {
    ('rail', 'truck',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('rail', 'wagon',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('rail', 'mule',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('air', 'truck',): Answer(
        False,
        (_CITE_OCS_4_7c, _CITE_OCS_4_7c_by_air,),
        ('by = rail', 'by = landing_craft', 'by = shipping', 'tp = mule'),
    ),
    ('air', 'wagon',): Answer(
        False,
        (_CITE_OCS_4_7c, _CITE_OCS_4_7c_by_air,),
        ('by = rail', 'by = landing_craft', 'by = shipping', 'tp = mule'),
    ),
    ('air', 'mule',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_13_2e_mules,), ()),
    ('air_drop', 'truck',): Answer(
        False, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_by_air,), ('by = rail', 'by = landing_craft', 'by = shipping')
    ),
    ('air_drop', 'wagon',): Answer(
        False, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_by_air,), ('by = rail', 'by = landing_craft', 'by = shipping')
    ),
    ('air_drop', 'mule',): Answer(
        False,
        (_CITE_OCS_4_7c, _CITE_OCS_4_7c_by_air,),
        ('by = rail', 'by = air', 'by = landing_craft', 'by = shipping'),
    ),
    ('landing_craft', 'truck',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('landing_craft', 'wagon',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('landing_craft', 'mule',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('alt_landing', 'truck',): Answer(
        False, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_unlisted,), ('by = rail', 'by = landing_craft', 'by = shipping')
    ),
    ('alt_landing', 'wagon',): Answer(
        False, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_unlisted,), ('by = rail', 'by = landing_craft', 'by = shipping')
    ),
    ('alt_landing', 'mule',): Answer(
        False,
        (_CITE_OCS_4_7c, _CITE_OCS_4_7c_unlisted,),
        ('by = rail', 'by = air', 'by = landing_craft', 'by = shipping'),
    ),
    ('beach_assault', 'truck',): Answer(
        False, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_unlisted,), ('by = rail', 'by = landing_craft', 'by = shipping')
    ),
    ('beach_assault', 'wagon',): Answer(
        False, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_unlisted,), ('by = rail', 'by = landing_craft', 'by = shipping')
    ),
    ('beach_assault', 'mule',): Answer(
        False,
        (_CITE_OCS_4_7c, _CITE_OCS_4_7c_unlisted,),
        ('by = rail', 'by = air', 'by = landing_craft', 'by = shipping'),
    ),
    ('shipping', 'truck',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('shipping', 'wagon',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
    ('shipping', 'mule',): Answer(True, (_CITE_OCS_4_7c, _CITE_OCS_4_7c_sea_or_rail,), ()),
}


# rules/ocs/ch4-general-concepts.rules:573  4.7c
def explain_transport_point_by(by: Transport, tp: TransportPointKind) -> Answer[bool]:
    """Can a Transport Point be carried this way? (4.7c), with the rules that decided it."""
    return _ANSWERS_transport_point_by[(by, tp)]


# rules/ocs/ch4-general-concepts.rules:622  4.7d  Movement and Transport
def _t_transported_ma(u: Unit, by: Transport, alt_roll: bool, _t: list[Cite]) -> Number:
    """transported_ma, recording in _t each rule it uses."""
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:709
    if u.type == 'rail_repair' and by == 'rail':
        _t.extend(_RULES_OCS_4_7d__OCS_13_3g_rail_repair__)
        return 4
    # rail: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:624
    if by == 'rail':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_rail)
        return 2
    # air: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:625
    if by == 'air':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_air)
        return 2
    # alt: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:626
    if by == 'alt_landing' and alt_roll:
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_alt)
        return 2
    # landing_craft: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:627
    if by == 'landing_craft':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_landing_craft)
        return 0
    # none: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:628
    _t.extend(_RULES_OCS_4_7d__OCS_4_7d_none)
    return 0


# rules/ocs/ch4-general-concepts.rules:622  4.7d  Movement and Transport
def transported_ma(u: Unit, by: Transport, alt_roll: bool) -> Number:
    """Share of its MA a unit may spend in all, before and after, in the phase it is transported (4.7d). Numbers are
    exact: int or Fraction.
    """
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:709
    if u.type == 'rail_repair' and by == 'rail':
        return 1
    # rail: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:624
    if by == 'rail':
        return _Q_1_2
    # air: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:625
    if by == 'air':
        return _Q_1_2
    # alt: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:626
    # rule: by == alt_landing and alt_roll
    if alt_roll and by == 'alt_landing':
        return _Q_1_2
    # landing_craft: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:627
    if by == 'landing_craft':
        return 0
    # none: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:628
    return 0


# rules/ocs/ch4-general-concepts.rules:622  4.7d  Movement and Transport
def explain_transported_ma(u: Unit, by: Transport, alt_roll: bool) -> Answer[Number]:
    """Share of its MA a unit may spend in all, before and after, in the phase it is transported (4.7d), with the rules
    that decided it.
    """
    _t: list[Cite] = []
    _value = _t_transported_ma(u, by, alt_roll, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:636  4.7d  Movement and Transport
def _t_ma_before(u: Unit, by: Transport, _t: list[Cite]) -> Number:
    """ma_before, recording in _t each rule it uses."""
    # rail: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:638
    if by == 'rail':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_rail_)
        return 2
    # air: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:639
    if by == 'air':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_air_)
        return 2
    # landing_craft: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:640
    if by == 'landing_craft':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_landing_craft)
        return 0
    # none: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:641
    _t.extend(_RULES_OCS_4_7d__OCS_4_7d_none)
    return 0


# rules/ocs/ch4-general-concepts.rules:636  4.7d  Movement and Transport
def ma_before(u: Unit, by: Transport) -> Number:
    """Most of its MA a unit may spend before being transported (see transported_ma for the total) (4.7d). Numbers are
    exact: int or Fraction.
    """
    # rail: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:638
    if by == 'rail':
        return _Q_1_2
    # air: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:639
    if by == 'air':
        return _Q_1_2
    # landing_craft: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:640
    if by == 'landing_craft':
        return 0
    # none: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:641
    return 0


# rules/ocs/ch4-general-concepts.rules:636  4.7d  Movement and Transport
def explain_ma_before(u: Unit, by: Transport) -> Answer[Number]:
    """Most of its MA a unit may spend before being transported (see transported_ma for the total) (4.7d), with the
    rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_ma_before(u, by, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:644  4.7d  Movement and Transport
def _t_ma_after(u: Unit, by: Transport, alt_roll: bool, _t: list[Cite]) -> Number:
    """ma_after, recording in _t each rule it uses."""
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:713
    if u.type == 'rail_repair' and by == 'rail':
        _t.extend(_RULES_OCS_4_7d__OCS_13_3g_rail_repair___)
        return 4
    # air: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:646
    if by == 'air':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_air_)
        return 2
    # alt: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:647
    if by == 'alt_landing' and alt_roll:
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_alt_)
        return 2
    # landing_craft: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:649
    if by == 'landing_craft':
        _t.extend(_RULES_OCS_4_7d__OCS_4_7d_landing_craft)
        return 0
    # none: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:650
    _t.extend(_RULES_OCS_4_7d__OCS_4_7d_none_)
    return 0


# rules/ocs/ch4-general-concepts.rules:644  4.7d  Movement and Transport
def ma_after(u: Unit, by: Transport, alt_roll: bool) -> Number:
    """Most of its MA a unit may spend after being transported (see transported_ma for the total) (4.7d). Numbers are
    exact: int or Fraction.
    """
    # rail_repair: 13.3g (OCS) rules/ocs/ch13-specialized-units.rules:713
    if u.type == 'rail_repair' and by == 'rail':
        return 1
    # air: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:646
    if by == 'air':
        return _Q_1_2
    # alt: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:647
    # rule: by == alt_landing and alt_roll
    if alt_roll and by == 'alt_landing':
        return _Q_1_2
    # landing_craft: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:649
    if by == 'landing_craft':
        return 0
    # none: 4.7d (OCS) rules/ocs/ch4-general-concepts.rules:650
    return 0


# rules/ocs/ch4-general-concepts.rules:644  4.7d  Movement and Transport
def explain_ma_after(u: Unit, by: Transport, alt_roll: bool) -> Answer[Number]:
    """Most of its MA a unit may spend after being transported (see transported_ma for the total) (4.7d), with the rules
    that decided it.
    """
    _t: list[Cite] = []
    _value = _t_ma_after(u, by, alt_roll, _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:798  4.8b  Order of Stacking
def zoc_unit_on_top(h: Hex, enemy_ground_adjacent: bool) -> bool:
    """C) and D) Is the top combat unit one with a ZOC (or an HQ, when no enemy ground units are adjacent)? (4.8b)."""
    # no_zoc: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:800
    _h_units = h.units
    # rule: not any(has_zoc(u) for u in h.units)
    if not any(
        (
            (
                u.mode == 'exploit'
                and u.type in _SET_assault_engineer_combat_352fa5da
                and u.printed_strength
                and (not u.parenthesized)
                and (not u.out_of_supply)
                and u.oriented_to_combat
            )
            or (
                u.mode == 'combat'
                and u.type in _SET_assault_engineer_combat_352fa5da
                and u.printed_strength
                and (not u.parenthesized)
                and (not u.out_of_supply)
            )
        )
        for u in _h_units
    ):
        return True
    # zoc_on_top: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:801
    # rule: first(has_zoc(u) for u in h.units where is_combat(u))
    if cast(
        'bool',
        _first(
            next(
                (
                    (
                        (
                            u.mode == 'exploit'
                            and u.type in _SET_assault_engineer_combat_352fa5da
                            and u.printed_strength
                            and (not u.parenthesized)
                            and (not u.out_of_supply)
                            and u.oriented_to_combat
                        )
                        or (
                            u.mode == 'combat'
                            and u.type in _SET_assault_engineer_combat_352fa5da
                            and u.printed_strength
                            and (not u.parenthesized)
                            and (not u.out_of_supply)
                        )
                    )
                    for u in _h_units
                    if UnitType_combat[u.type]
                ),
                _NOTHING,
            )
        ),
    ):
        return True
    # hq_on_top: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:803
    # rule: first(u.type == hq for u in h.units where is_combat(u)) and not enemy_ground_adjacent
    if (
        cast('bool', _first(next((u.type == 'hq' for u in _h_units if UnitType_combat[u.type]), _NOTHING)))
        and (not enemy_ground_adjacent)
    ):
        return True
    # buried: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:805
    return False


# rules/ocs/ch4-general-concepts.rules:798  4.8b  Order of Stacking
def _t_zoc_unit_on_top(h: Hex, enemy_ground_adjacent: bool, _t: list[Cite]) -> bool:
    """zoc_unit_on_top, recording in _t each rule it uses."""
    # no_zoc: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:800
    if not any(_t_has_zoc(u, _t) for u in h.units):
        _t.extend(_RULES_OCS_4_8b__OCS_4_8b_no_zoc)
        return True
    # zoc_on_top: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:801
    if cast('bool', _first(next((_t_has_zoc(u, _t) for u in h.units if _t_is_combat(u, _t)), _NOTHING))):
        _t.extend(_RULES_OCS_4_8b__OCS_4_8b_zoc_on_top)
        return True
    # hq_on_top: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:803
    if (
        cast('bool', _first(next((u.type == 'hq' for u in h.units if _t_is_combat(u, _t)), _NOTHING)))
        and (not enemy_ground_adjacent)
    ):
        _t.extend(_RULES_OCS_4_8b__OCS_4_8b_hq_on_top)
        return True
    # buried: 4.8b (OCS) rules/ocs/ch4-general-concepts.rules:805
    _t.extend(_RULES_OCS_4_8b__OCS_4_8b_buried)
    return False


# rules/ocs/ch4-general-concepts.rules:798  4.8b  Order of Stacking
def explain_zoc_unit_on_top(h: Hex, enemy_ground_adjacent: bool) -> Answer[bool]:
    """C) and D) Is the top combat unit one with a ZOC (or an HQ, when no enemy ground units are adjacent)? (4.8b), with
    the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_zoc_unit_on_top(h, enemy_ground_adjacent, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            zoc_unit_on_top,
            (('h', h, _DOMAINS_Hex_0), ('enemy_ground_adjacent', enemy_ground_adjacent, (False, True)), ),
        ),
    )


# rules/ocs/ch4-general-concepts.rules:917  4.8c  Enemy Stacks
def may_share_hex_with(mover: Mover, enemy: EnemyKind) -> bool:
    """May enter a hex holding this kind of enemy unit (4.8c)."""
    # attack_capable: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:918
    if mover == 'attack_capable_unit' and enemy != 'combat_units':
        return True
    # ships: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:920
    if mover == 'ship' and enemy in _SET_noncombat_units_planes:
        return True
    # planes: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:922
    if mover == 'plane_on_mission':
        return True
    # paths: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:923
    if mover == 'rail_or_supply_path' and enemy != 'combat_units':
        return True
    # unlisted: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:925
    return False


# rules/ocs/ch4-general-concepts.rules:917  4.8c  Enemy Stacks
def _t_may_share_hex_with(mover: Mover, enemy: EnemyKind, _t: list[Cite]) -> bool:
    """may_share_hex_with, recording in _t each rule it uses."""
    # attack_capable: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:918
    if mover == 'attack_capable_unit' and enemy != 'combat_units':
        _t.extend(_RULES_OCS_4_8c__OCS_4_8c_attack_capable)
        return True
    # ships: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:920
    if mover == 'ship' and enemy in _SET_noncombat_units_planes:
        _t.extend(_RULES_OCS_4_8c__OCS_4_8c_ships)
        return True
    # planes: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:922
    if mover == 'plane_on_mission':
        _t.extend(_RULES_OCS_4_8c__OCS_4_8c_planes)
        return True
    # paths: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:923
    if mover == 'rail_or_supply_path' and enemy != 'combat_units':
        _t.extend(_RULES_OCS_4_8c__OCS_4_8c_paths)
        return True
    # unlisted: 4.8c (OCS) rules/ocs/ch4-general-concepts.rules:925
    _t.extend(_RULES_OCS_4_8c__OCS_4_8c_unlisted)
    return False

_ANSWERS_may_share_hex_with: Final[dict[tuple[Mover, EnemyKind], Answer[bool]]] = {
    ('attack_capable_unit', 'combat_units',): Answer(
        False,
        (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,),
        ('mover = plane_on_mission', 'enemy = noncombat_units', 'enemy = ships', 'enemy = planes'),
    ),
    ('attack_capable_unit', 'noncombat_units',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_attack_capable,), ()),
    ('attack_capable_unit', 'ships',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_attack_capable,), ()),
    ('attack_capable_unit', 'planes',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_attack_capable,), ()),
    ('other_ground_unit', 'combat_units',): Answer(
        False, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,), ('mover = plane_on_mission',)
    ),
    ('other_ground_unit', 'noncombat_units',): Answer(
        False,
        (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,),
        ('mover = attack_capable_unit', 'mover = ship', 'mover = plane_on_mission', 'mover = rail_or_supply_path'),
    ),
    ('other_ground_unit', 'ships',): Answer(
        False,
        (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,),
        ('mover = attack_capable_unit', 'mover = plane_on_mission', 'mover = rail_or_supply_path'),
    ),
    ('other_ground_unit', 'planes',): Answer(
        False,
        (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,),
        ('mover = attack_capable_unit', 'mover = ship', 'mover = plane_on_mission', 'mover = rail_or_supply_path'),
    ),
    ('ship', 'combat_units',): Answer(
        False,
        (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,),
        ('mover = plane_on_mission', 'enemy = noncombat_units', 'enemy = planes'),
    ),
    ('ship', 'noncombat_units',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_ships,), ()),
    ('ship', 'ships',): Answer(
        False,
        (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,),
        (
            'mover = attack_capable_unit',
            'mover = plane_on_mission',
            'mover = rail_or_supply_path',
            'enemy = noncombat_units',
            'enemy = planes',
        ),
    ),
    ('ship', 'planes',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_ships,), ()),
    ('plane_on_mission', 'combat_units',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_planes,), ()),
    ('plane_on_mission', 'noncombat_units',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_planes,), ()),
    ('plane_on_mission', 'ships',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_planes,), ()),
    ('plane_on_mission', 'planes',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_planes,), ()),
    ('rail_or_supply_path', 'combat_units',): Answer(
        False,
        (_CITE_OCS_4_8c, _CITE_OCS_4_8c_unlisted,),
        ('mover = plane_on_mission', 'enemy = noncombat_units', 'enemy = ships', 'enemy = planes'),
    ),
    ('rail_or_supply_path', 'noncombat_units',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_paths,), ()),
    ('rail_or_supply_path', 'ships',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_paths,), ()),
    ('rail_or_supply_path', 'planes',): Answer(True, (_CITE_OCS_4_8c, _CITE_OCS_4_8c_paths,), ()),
}


# rules/ocs/ch4-general-concepts.rules:917  4.8c  Enemy Stacks
def explain_may_share_hex_with(mover: Mover, enemy: EnemyKind) -> Answer[bool]:
    """May enter a hex holding this kind of enemy unit (4.8c), with the rules that decided it."""
    return _ANSWERS_may_share_hex_with[(mover, enemy)]


# rules/ocs/ch4-general-concepts.rules:976  4.9a
def shown_combat_unit(h: Hex) -> Unit:
    """The combat unit the enemy may always see (units listed top first) (4.9a)."""
    # rule: any(is_combat(u) for u in h.units)
    if not (any(UnitType_combat[u.type] for u in h.units)):  # requires
        raise RuleError(
            'shown_combat_unit answers only where a combat unit is in the hex (any(is_combat(u) for u in h.units))'
        )
    # no_zoc: 4.9a (OCS) rules/ocs/ch4-general-concepts.rules:978
    _h_units = h.units
    # rule: not any(has_zoc(u) for u in h.units)
    if not any(
        (
            (
                u.mode == 'exploit'
                and u.type in _SET_assault_engineer_combat_352fa5da
                and u.printed_strength
                and (not u.parenthesized)
                and (not u.out_of_supply)
                and u.oriented_to_combat
            )
            or (
                u.mode == 'combat'
                and u.type in _SET_assault_engineer_combat_352fa5da
                and u.printed_strength
                and (not u.parenthesized)
                and (not u.out_of_supply)
            )
        )
        for u in _h_units
    ):
        # rule: first(u for u in h.units where is_combat(u))
        return cast('Unit', _first(next((u for u in _h_units if UnitType_combat[u.type]), _NOTHING)))
    # combat_mode: 4.9a (OCS) rules/ocs/ch4-general-concepts.rules:980
    # rule: any(u.mode == combat and attack_capable(u) for u in h.units)
    if any(
        (
            u.mode == 'combat'
            and u.type in _SET_assault_engineer_combat_352fa5da
            and u.printed_strength
            and (not u.parenthesized)
        )
        for u in _h_units
    ):
        # rule: first(u for u in h.units where u.mode == combat and attack_capable(u))
        return cast(
            'Unit',
            _first(
                next(
                    (
                        u
                        for u in _h_units
                        if (
                            u.mode == 'combat'
                            and u.type in _SET_assault_engineer_combat_352fa5da
                            and u.printed_strength
                            and (not u.parenthesized)
                        )
                    ),
                    _NOTHING,
                )
            ),
        )
    # exploitation: 4.9a (OCS) rules/ocs/ch4-general-concepts.rules:983
    # rule: first(u for u in h.units where has_zoc(u))
    return cast(
        'Unit',
        _first(
            next(
                (
                    u
                    for u in _h_units
                    if (
                        (
                            u.mode == 'exploit'
                            and u.type in _SET_assault_engineer_combat_352fa5da
                            and u.printed_strength
                            and (not u.parenthesized)
                            and (not u.out_of_supply)
                            and u.oriented_to_combat
                        )
                        or (
                            u.mode == 'combat'
                            and u.type in _SET_assault_engineer_combat_352fa5da
                            and u.printed_strength
                            and (not u.parenthesized)
                            and (not u.out_of_supply)
                        )
                    )
                ),
                _NOTHING,
            )
        ),
    )


# rules/ocs/ch4-general-concepts.rules:976  4.9a
def _t_shown_combat_unit(h: Hex, _t: list[Cite]) -> Unit:
    """shown_combat_unit, recording in _t each rule it uses."""
    if not (any(_t_is_combat(u, _t) for u in h.units)):  # requires
        raise RuleError(
            'shown_combat_unit answers only where a combat unit is in the hex (any(is_combat(u) for u in h.units))'
        )
    # no_zoc: 4.9a (OCS) rules/ocs/ch4-general-concepts.rules:978
    if not any(_t_has_zoc(u, _t) for u in h.units):
        _t.extend(_RULES_OCS_4_9a__OCS_4_9a_no_zoc)
        return cast('Unit', _first(next((u for u in h.units if _t_is_combat(u, _t)), _NOTHING)))
    # combat_mode: 4.9a (OCS) rules/ocs/ch4-general-concepts.rules:980
    if any(u.mode == 'combat' and _t_attack_capable(u, _t) for u in h.units):
        _t.extend(_RULES_OCS_4_9a__OCS_4_9a_combat_mode)
        return cast(
            'Unit', _first(next((u for u in h.units if u.mode == 'combat' and _t_attack_capable(u, _t)), _NOTHING))
        )
    # exploitation: 4.9a (OCS) rules/ocs/ch4-general-concepts.rules:983
    _t.extend(_RULES_OCS_4_9a__OCS_4_9a_exploitation)
    return cast('Unit', _first(next((u for u in h.units if _t_has_zoc(u, _t)), _NOTHING)))


# rules/ocs/ch4-general-concepts.rules:976  4.9a
def explain_shown_combat_unit(h: Hex) -> Answer[Unit]:
    """The combat unit the enemy may always see (units listed top first) (4.9a), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_shown_combat_unit(h, _t)
    return Answer(_value, _rules(_t), ())


# rules/ocs/ch4-general-concepts.rules:714  4.8  Stacking
def stacking(h: Hex) -> list[Violation]:
    """Stacking limits (4.8)."""
    if h.off_map:  # Stacking in Off-Map Holding Boxes is unlimited.
        return []
    out: list[Violation] = []
    total: Number  # limits of whole numbers and of numbers alike
    bound: Number
    # rule: the totals of combat_re, ports, air_bases and hedgehogs, counted in one pass over h.units (the benchmark's
    # stacking rows: bench/RESULTS.md):
    #   combat_re: sum(re_size(u) for u in h.units where is_combat(u))
    #   ports: count(u for u in h.units where u.type == port)
    #   air_bases: count(u for u in h.units where u.type == air_base)
    #   hedgehogs: count(u for u in h.units where u.type == hedgehog)
    _n0: Number = 0
    _n1: int = 0
    _n2: int = 0
    _n3: int = 0
    for u in h.units:
        _u_type = u.type
        if UnitType_combat[_u_type]:
            # rule: re_size(u), its rows written out in place:
            if (
                _u_type in _SET_artillery_assault_engine_88af7d0e
                and u.formation == 'Jock Column'
                and (u.size == 'company')
            ):
                _n0 += 2  # jock_column: 1.2
            elif _u_type == 'hq':
                _n0 += 4  # hq: 13.1
            elif u.multi_step:
                _n0 += _scaled(u.printed_re) - u.step_losses * 4  # multi_step: 4.6
            elif _u_type == 'repl' or u.size == 'company':
                _n0 += 1  # quarter: 4.6
            elif u.size == 'battalion':
                _n0 += 2  # battalion: 4.6
            else:
                _n0 += 4  # other: 4.6
        elif _u_type == 'port':
            _n1 += 1
        elif _u_type == 'air_base':
            _n2 += 1
        elif _u_type == 'hedgehog':
            _n3 += 1
    # combat_re: 4.8 rules/ocs/ch4-general-concepts.rules:716
    total = _n0
    bound = max_stack_re * 4
    if total > bound and not (h.phase == 'reinforcement' or h.moment == 'moving'):
        out.append(
            Violation(
                'combat_re',
                'Combat units (RE)',
                '4.8',
                _exact(total),
                _exact(bound),
                _exact(total - bound),
                tuple(u for u in h.units if UnitType_combat[u.type]),
            )
        )
    # ports: 4.8 rules/ocs/ch4-general-concepts.rules:717
    if _n1 > 1:
        total, bound = _n1, 1
        out.append(
            Violation(
                'ports', 'Ports', '4.8', total, bound, total - bound, tuple(u for u in h.units if u.type == 'port')
            )
        )
    # air_bases: 4.8 rules/ocs/ch4-general-concepts.rules:718
    if _n2 > 1:
        total, bound = _n2, 1
        out.append(
            Violation(
                'air_bases',
                'Air bases',
                '4.8',
                total,
                bound,
                total - bound,
                tuple(u for u in h.units if u.type == 'air_base'),
            )
        )
    # hedgehogs: 4.8 rules/ocs/ch4-general-concepts.rules:719
    if _n3 > 1:
        total, bound = _n3, 1
        out.append(
            Violation(
                'hedgehogs',
                'Hedgehogs',
                '4.8',
                total,
                bound,
                total - bound,
                tuple(u for u in h.units if u.type == 'hedgehog'),
            )
        )
    return out


# rules/ocs/ch4-general-concepts.rules:714  4.8  Stacking
def _t_stacking(h: Hex, _t: list[Cite]) -> list[Violation]:
    """stacking, recording in _t each rule it uses."""
    if h.off_map:  # Stacking in Off-Map Holding Boxes is unlimited.
        _t.extend(_RULES_OCS_4_8)
        return []
    out: list[Violation] = []
    total: Number  # limits of whole numbers and of numbers alike
    bound: Number
    # combat_re: 4.8 rules/ocs/ch4-general-concepts.rules:716
    if h.phase == 'reinforcement':
        _t.extend(_RULES_OCS_4_8a)
    if h.moment == 'moving':
        _t.extend(_RULES_OCS_4_8a)
    if not (h.phase == 'reinforcement' or h.moment == 'moving'):
        total = _sum(_t_re_size(u, _t) for u in h.units if _t_is_combat(u, _t))
        bound = _cite(_t, _RULES_OCS_4_8, max_stack_re) * 4
        if total > bound:
            _t.extend(_RULES_OCS_4_8a__OCS_4_8a__OCS_4_8_combat_re)
            out.append(
                Violation(
                    'combat_re',
                    'Combat units (RE)',
                    '4.8',
                    _exact(total),
                    _exact(bound),
                    _exact(total - bound),
                    tuple(u for u in h.units if _t_is_combat(u, _t)),
                )
            )
        else:
            _t.extend(_RULES_OCS_4_8_combat_re)
    # ports: 4.8 rules/ocs/ch4-general-concepts.rules:717
    total = _count(u for u in h.units if u.type == 'port')
    bound = 1
    _t.extend(_RULES_OCS_4_8_ports)
    if total > bound:
        out.append(
            Violation(
                'ports', 'Ports', '4.8', total, bound, total - bound, tuple(u for u in h.units if u.type == 'port')
            )
        )
    # air_bases: 4.8 rules/ocs/ch4-general-concepts.rules:718
    total = _count(u for u in h.units if u.type == 'air_base')
    bound = 1
    _t.extend(_RULES_OCS_4_8_air_bases)
    if total > bound:
        out.append(
            Violation(
                'air_bases',
                'Air bases',
                '4.8',
                total,
                bound,
                total - bound,
                tuple(u for u in h.units if u.type == 'air_base'),
            )
        )
    # hedgehogs: 4.8 rules/ocs/ch4-general-concepts.rules:719
    total = _count(u for u in h.units if u.type == 'hedgehog')
    bound = 1
    _t.extend(_RULES_OCS_4_8_hedgehogs)
    if total > bound:
        out.append(
            Violation(
                'hedgehogs',
                'Hedgehogs',
                '4.8',
                total,
                bound,
                total - bound,
                tuple(u for u in h.units if u.type == 'hedgehog'),
            )
        )
    return out


# rules/ocs/ch4-general-concepts.rules:714  4.8  Stacking
def explain_stacking(h: Hex) -> Answer[list[Violation]]:
    """Stacking limits (4.8), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_stacking(h, _t)
    return Answer(_value, _rules(_t), ())


# ---- constants -----------------------------------------------------------------

# rules/ocs/ch13-specialized-units.rules:91  13.1c  The Action Rating of every HQ
hq_action_rating: Final[int] = 0

# rules/ocs/ch13-specialized-units.rules:218  13.2c  MP that dividing or combining Transport Points costs
combine_mp_cost: Final[int] = 0

# rules/ocs/ch13-specialized-units.rules:680  13.3f  SP that converting a rail hex costs
conversion_sp_cost: Final[int] = 0

# rules/ocs/ch13-specialized-units.rules:681  13.3f  Extra MP that converting a rail hex costs (beyond moving into it)
conversion_mp_cost: Final[int] = 0

# rules/ocs/ch13-specialized-units.rules:963  13.5b  MP a rebuild costs
rebuild_mp_cost: Final[int] = 0

# rules/ocs/ch13-specialized-units.rules:1024  13.5e  Eq to rebuild one truck
eq_per_truck: Final[int] = 1

# rules/ocs/ch13-specialized-units.rules:1237  13.7  B) Extra MP to move units into a Formation marker, or from it back
# onto the map
marker_mp_cost: Final[int] = 0

# rules/ocs/ch13-specialized-units.rules:1350  13.8b  SP that bridging costs
bridging_sp_cost: Final[int] = 0

# rules/ocs/ch4-general-concepts.rules:709  4.8  MP that stacking or unstacking costs
stacking_mp_cost: Final[int] = 0

# rules/ocs/ch4-general-concepts.rules:712  4.8  The most RE of combat units in a hex
max_stack_re: Final[int] = 10

# rules/ocs/ch4-general-concepts.rules:900  4.8c  Extra MP to enter a hex with enemy units, in the cases allowed
enemy_hex_mp_cost: Final[int] = 0


# ---- input checked at the boundary ---------------------------------------------

STATE_SCHEMA: Final[dict[str, Any]] = {
    '$defs': {
        'Hex': {
            'additionalProperties': False,
            'description': 'A hex and the friendly units in it',
            'properties': {
                'moment': {'description': 'When the hex is looked at', 'enum': ['segment_end', 'moving', 'overrun']},
                'off_map': {'description': 'An Off-Map Holding Box rather than a map hex', 'type': 'boolean'},
                'phase': {
                    'description': 'The phase being played',
                    'enum': [
                        'reinforcement',
                        'movement',
                        'reaction',
                        'exploitation',
                        'combat_phase',
                        'barrage',
                        'supply',
                        'clean_up',
                    ],
                },
                'units': {
                    'description': 'The friendly units in the hex, listed from the top of the stack down',
                    'items': {'$ref': '#/$defs/Unit'},
                    'type': 'array',
                },
            },
            'required': [],
            'type': 'object',
        },
        'RailHex': {
            'additionalProperties': False,
            'description': 'A railroad hex',
            'properties': {
                'controlled': {'description': 'Under friendly control (13.3h)', 'type': 'boolean'},
                'enemy_units': {
                    'description': 'Holds enemy non-combat units, planes or ships (4.8c D)',
                    'type': 'boolean',
                },
                'ezoc_free_path_to_supply': {
                    'description': 'A rail path free of enemy ZOC back to a supply source',
                    'type': 'boolean',
                },
                'in_ezoc': {'description': 'In an enemy ZOC', 'type': 'boolean'},
                'path_ezoc_negated': {
                    'description': (
                        'That rail path is free of enemy ZOC only by negation (13.3c: for trace supply only)'
                    ),
                    'type': 'boolean',
                },
                'path_needs_extender': {
                    'description': 'That rail path needs Extender links (13.3c: for trace supply only)',
                    'type': 'boolean',
                },
                'town_or_port': {'description': 'It has a village, city (any size) or port', 'type': 'boolean'},
                'units': {'description': 'Friendly units in it', 'items': {'$ref': '#/$defs/Unit'}, 'type': 'array'},
            },
            'required': [],
            'type': 'object',
        },
        'Unit': {
            'additionalProperties': False,
            'allOf': [
                {
                    'description': (
                        'transport_point_supplied (13.2b: Transport Points are never Out of Supply): u.type != '
                        'transport or not u.out_of_supply'
                    ),
                    'if': {'properties': {'type': {'const': 'transport'}}, 'required': ['type']},
                    'then': {'properties': {'out_of_supply': {'const': False}}},
                    'x-rulec-invariant': {
                        'checks': ['out_of_supply', 'type'],
                        'exact': True,
                        'expression': 'u.type != transport or not u.out_of_supply',
                        'name': 'transport_point_supplied',
                        'rule': '13.2b',
                        'title': 'Transport Points are never Out of Supply',
                    },
                },
                {
                    'description': (
                        'transport_point_mode (13.2d: Transport Points are in Move Mode at all times; Organic Trucks '
                        'may also be in Reserve Mode): u.type != transport or u.mode == move or (u.organic and u.mode '
                        '== reserve)'
                    ),
                    'if': {'properties': {'type': {'const': 'transport'}}, 'required': ['type']},
                    'then': {
                        'if': {'properties': {'mode': {'not': {'const': 'move'}}}},
                        'then': {
                            'allOf': [
                                {'properties': {'organic': {'const': True}}, 'required': ['organic']},
                                {'properties': {'mode': {'const': 'reserve'}}, 'required': ['mode']},
                            ],
                        },
                    },
                    'x-rulec-invariant': {
                        'checks': ['mode', 'organic', 'type'],
                        'exact': True,
                        'expression': 'u.type != transport or u.mode == move or (u.organic and u.mode == reserve)',
                        'name': 'transport_point_mode',
                        'rule': '13.2d',
                        'title': (
                            'Transport Points are in Move Mode at all times; Organic Trucks may also be in Reserve Mode'
                        ),
                    },
                },
                {
                    'description': (
                        'repl_mode (13.5: Repls can never enter Combat Mode): u.type != repl or u.mode != combat'
                    ),
                    'if': {'properties': {'type': {'const': 'repl'}}, 'required': ['type']},
                    'then': {'properties': {'mode': {'not': {'const': 'combat'}}}, 'required': ['mode']},
                    'x-rulec-invariant': {
                        'checks': ['mode', 'type'],
                        'exact': True,
                        'expression': 'u.type != repl or u.mode != combat',
                        'name': 'repl_mode',
                        'rule': '13.5',
                        'title': 'Repls can never enter Combat Mode',
                    },
                },
                {
                    'description': (
                        'repl_independent (13.5: Repls are independent combat units (of no multi-unit formation)): '
                        'u.type != repl or u.formation == ""'
                    ),
                    'if': {'properties': {'type': {'const': 'repl'}}, 'required': ['type']},
                    'then': {'properties': {'formation': {'const': ''}}},
                    'x-rulec-invariant': {
                        'checks': ['formation', 'type'],
                        'exact': True,
                        'expression': 'u.type != repl or u.formation == ""',
                        'name': 'repl_independent',
                        'rule': '13.5',
                        'title': 'Repls are independent combat units (of no multi-unit formation)',
                    },
                },
                {
                    'allOf': [
                        {'properties': {'printed_re': {'minimum': 0, 'pattern': '^([0-9]|-[0.]*(/|$))'}}},
                        {'properties': {'points': {'minimum': 0, 'pattern': '^([0-9]|-[0.]*(/|$))'}}},
                    ],
                    'description': (
                        'sizes_not_negative (4.6: Printed RE sizes and point values are never negative): u.printed_re '
                        '>= 0 and u.points >= 0'
                    ),
                    'x-rulec-invariant': {
                        'checks': ['printed_re', 'points'],
                        'exact': True,
                        'expression': 'u.printed_re >= 0 and u.points >= 0',
                        'name': 'sizes_not_negative',
                        'rule': '4.6',
                        'title': 'Printed RE sizes and point values are never negative',
                    },
                },
                {
                    'description': (
                        'ignores_dg (4.8b: A) SP and Inactive air units are never in Disorganized Mode (they ignore a '
                        'DG marker)): u.mode != dg or not (u.type == sp or (u.type.air and not u.active))'
                    ),
                    'if': {'properties': {'mode': {'const': 'dg'}}, 'required': ['mode']},
                    'then': {
                        'allOf': [
                            {'properties': {'type': {'not': {'const': 'sp'}}}},
                            {
                                'if': {
                                    'properties': {'type': {'enum': ['fighter', 'other_plane']}},
                                    'required': ['type'],
                                },
                                'then': {'properties': {'active': {'const': True}}, 'required': ['active']},
                            },
                        ],
                    },
                    'x-rulec-invariant': {
                        'checks': ['mode', 'type', 'active'],
                        'exact': True,
                        'expression': 'u.mode != dg or not (u.type == sp or (u.type.air and not u.active))',
                        'name': 'ignores_dg',
                        'rule': '4.8b',
                        'title': (
                            'A) SP and Inactive air units are never in Disorganized Mode (they ignore a DG marker)'
                        ),
                    },
                },
                {
                    'description': (
                        'steps_not_negative (9.11: A unit cannot have lost a negative number of steps): u.step_losses '
                        '>= 0'
                    ),
                    'properties': {'step_losses': {'minimum': 0}},
                    'x-rulec-invariant': {
                        'checks': ['step_losses'],
                        'exact': True,
                        'expression': 'u.step_losses >= 0',
                        'name': 'steps_not_negative',
                        'rule': '9.11',
                        'title': 'A unit cannot have lost a negative number of steps',
                    },
                },
            ],
            'description': (
                'A unit: a ground unit, or an air unit (fighter or other plane). Its invariants, in allOf (a field '
                'left out counts as its default): transport_point_supplied (13.2b: Transport Points are never Out of '
                'Supply): u.type != transport or not u.out_of_supply; transport_point_mode (13.2d: Transport Points '
                'are in Move Mode at all times; Organic Trucks may also be in Reserve Mode): u.type != transport or '
                'u.mode == move or (u.organic and u.mode == reserve); repl_mode (13.5: Repls can never enter Combat '
                'Mode): u.type != repl or u.mode != combat; repl_independent (13.5: Repls are independent combat units '
                '(of no multi-unit formation)): u.type != repl or u.formation == ""; sizes_not_negative (4.6: Printed '
                'RE sizes and point values are never negative): u.printed_re >= 0 and u.points >= 0; ignores_dg (4.8b: '
                'A) SP and Inactive air units are never in Disorganized Mode (they ignore a DG marker)): u.mode != dg '
                'or not (u.type == sp or (u.type.air and not u.active)); steps_not_negative (9.11: A unit cannot have '
                'lost a negative number of steps): u.step_losses >= 0'
            ),
            'properties': {
                'active': {'description': 'Air units: Active (false: Inactive)', 'type': 'boolean'},
                'breakdown': {'description': 'A generic Breakdown unit', 'type': 'boolean'},
                'divisional': {'description': 'HQs: a divisional HQ', 'type': 'boolean'},
                'formation': {
                    'description': 'The multi-unit formation it belongs to; empty for an independent unit',
                    'type': 'string',
                },
                'loaded': {
                    'description': 'SP: loaded on a Transport Point (not an unloaded supply dump)',
                    'type': 'boolean',
                },
                'mobility': {'description': 'The colour of its Movement Allowance', 'enum': ['leg', 'truck', 'track']},
                'mode': {
                    'description': 'The mode it is in',
                    'enum': ['combat', 'move', 'reserve', 'strat', 'dg', 'exploit'],
                },
                'move_ma': {
                    '$ref': '#/$defs/rulec:number',
                    'description': 'Its printed Movement Allowance in Move Mode',
                },
                'multi_step': {'description': 'A multi-step unit (prints its RE size)', 'type': 'boolean'},
                'nationality': {'description': 'Its nationality', 'type': 'string'},
                'no_rebuild': {'description': 'A Yellow dot behind its AR: cannot be rebuilt', 'type': 'boolean'},
                'organic': {
                    'description': 'Transport Points: an Organic Truck of a multi-unit formation',
                    'type': 'boolean',
                },
                'oriented_to_combat': {
                    'description': 'Under a DG, Strat or Exploitation marker: faces its Combat Mode side',
                    'type': 'boolean',
                },
                'out_of_supply': {'description': 'Marked Out of Supply', 'type': 'boolean'},
                'parenthesized': {
                    'description': 'The Combat Strength is in parentheses (defensive only)',
                    'type': 'boolean',
                },
                'points': {
                    '$ref': '#/$defs/rulec:number',
                    'description': 'Transport Points and SP: the points it is worth',
                },
                'printed_re': {
                    '$ref': '#/$defs/rulec:number',
                    'description': 'The RE size printed on a multi-step unit',
                },
                'printed_strength': {'description': 'Has a printed Combat Strength', 'type': 'boolean'},
                'size': {
                    'description': 'The size on its designation',
                    'enum': ['company', 'battalion', 'regiment', 'brigade', 'division', 'corps'],
                },
                'step_losses': {'$ref': '#/$defs/rulec:int', 'description': 'Steps lost (multi-step units)'},
                'stocks': {'description': 'Internal stocks', 'enum': ['normal', 'low', 'exhausted']},
                'strength': {'$ref': '#/$defs/rulec:number', 'description': 'The printed Combat Strength'},
                'tp_kind': {
                    'description': 'Transport Points: trucks, wagons or mules',
                    'enum': ['truck', 'wagon', 'mule'],
                },
                'type': {
                    'description': 'What kind of unit it is',
                    'enum': [
                        'combat_unit',
                        'hq',
                        'artillery',
                        'repl',
                        'engineer',
                        'rail_repair',
                        'assault_engineer',
                        'pioneer',
                        'para_glider_engineer',
                        'transport',
                        'sp',
                        'port',
                        'air_base',
                        'hedgehog',
                        'fighter',
                        'other_plane',
                    ],
                },
                'will_spend_mp': {'description': 'Will spend MP later in the current phase', 'type': 'boolean'},
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
        'rulec:number': {
            'anyOf': [
                {
                    'exclusiveMaximum': 10 ** 1200,
                    'exclusiveMinimum': -10 ** 1200,
                    'not': {'exclusiveMaximum': 0, 'minimum': 0},
                    'type': 'number',
                },
                {'pattern': '^-?[0-9]{1,1200}(\\.[0-9]{1,1200}|/[1-9][0-9]{0,1199})?(?![\\s\\S])', 'type': 'string'},
            ],
            'description': (
                'An exact number: a JSON number (one with a fraction, such as 0.1, is read as the decimal it is '
                'written as), or a text such as "1/2", "-3" or "2.5" (at most 1,200 digits a part; no exponent, so '
                '"1e3" is not a number, nor is NaN or Infinity).'
            ),
        },
    },
    '$schema': 'https://json-schema.org/draft/2020-12/schema',
    'additionalProperties': {
        'oneOf': [
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'RailHex'}, 'value': {'$ref': '#/$defs/RailHex'}},
                'required': ['record', 'value'],
                'type': 'object',
            },
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'Unit'}, 'value': {'$ref': '#/$defs/Unit'}},
                'required': ['record', 'value'],
                'type': 'object',
            },
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'Hex'}, 'value': {'$ref': '#/$defs/Hex'}},
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
    'title': 'Game state for Deutsches Afrika Korps with the Fog of War Option (13.7b) (DAK_fog)',
    'type': 'object',
}
_FIELDS: Final[dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]]] = {
    'RailHex': (
        ('town_or_port', 'bool', ()),
        ('units', 'list of record Unit', ()),
        ('controlled', 'bool', ()),
        ('ezoc_free_path_to_supply', 'bool', ()),
        ('path_needs_extender', 'bool', ()),
        ('path_ezoc_negated', 'bool', ()),
        ('in_ezoc', 'bool', ()),
        ('enemy_units', 'bool', ()),
    ),
    'Unit': (
        (
            'type',
            'enum UnitType',
            (
                'combat_unit',
                'hq',
                'artillery',
                'repl',
                'engineer',
                'rail_repair',
                'assault_engineer',
                'pioneer',
                'para_glider_engineer',
                'transport',
                'sp',
                'port',
                'air_base',
                'hedgehog',
                'fighter',
                'other_plane',
            ),
        ),
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
        ('tp_kind', 'enum TransportPointKind', ('truck', 'wagon', 'mule')),
        ('loaded', 'bool', ()),
        ('formation', 'text', ()),
        ('nationality', 'text', ()),
        ('divisional', 'bool', ()),
        ('stocks', 'enum Stocks', ('normal', 'low', 'exhausted')),
        ('no_rebuild', 'bool', ()),
        ('breakdown', 'bool', ()),
        ('will_spend_mp', 'bool', ()),
        ('active', 'bool', ()),
    ),
    'Hex': (
        ('units', 'list of record Unit', ()),
        (
            'phase',
            'enum Phase',
            ('reinforcement', 'movement', 'reaction', 'exploitation', 'combat_phase', 'barrage', 'supply', 'clean_up'),
        ),
        ('moment', 'enum Moment', ('segment_end', 'moving', 'overrun')),
        ('off_map', 'bool', ()),
    ),
}
_RENAMED: Final[frozenset[str]] = frozenset([])
_CHECKS_RENAMED: Final[dict[str, str]] = {}  # named like a Python keyword or helper
_RECORD_CLASSES: Final[dict[str, Any]] = {'RailHex': RailHex, 'Unit': Unit, 'Hex': Hex}
_INVARIANTS: Final[
    dict[
        str,
        tuple[
            tuple[Callable[[Any], bool], str, str, tuple[str, ...], tuple[tuple[str, Callable[[Any], bool]], ...]], ...
        ],
    ]
] = {
    'Unit': (
        (transport_point_supplied, '13.2b', 'Transport Points are never Out of Supply', ('out_of_supply', 'type'), ()),
        (
            transport_point_mode,
            '13.2d',
            'Transport Points are in Move Mode at all times; Organic Trucks may also be in Reserve Mode',
            ('mode', 'organic', 'type'),
            (),
        ),
        (repl_mode, '13.5', 'Repls can never enter Combat Mode', ('mode', 'type'), ()),
        (
            repl_independent,
            '13.5',
            'Repls are independent combat units (of no multi-unit formation)',
            ('formation', 'type'),
            (),
        ),
        (
            sizes_not_negative,
            '4.6',
            'Printed RE sizes and point values are never negative',
            ('printed_re', 'points'),
            (('printed_re', lambda u: _scaled(u.printed_re) >= 0), ('points', lambda u: _scaled(u.points) >= 0), ),
        ),
        (
            ignores_dg,
            '4.8b',
            'A) SP and Inactive air units are never in Disorganized Mode (they ignore a DG marker)',
            ('mode', 'type', 'active'),
            (),
        ),
        (steps_not_negative, '9.11', 'A unit cannot have lost a negative number of steps', ('step_losses',), ()),
    ),
}
_ENUM_VALUES: Final[dict[str, tuple[str, ...]]] = {
    'SpUse': SpUse_values,
    'Rebuild': Rebuild_values,
    'MarkerSide': MarkerSide_values,
    'River': River_values,
    'Construction': Construction_values,
    'Consolidation': Consolidation_values,
    'EzocAction': EzocAction_values,
    'Transport': Transport_values,
    'Mover': Mover_values,
    'EnemyKind': EnemyKind_values,
    'TopUnitFact': TopUnitFact_values,
    'Size': Size_values,
    'Mobility': Mobility_values,
    'UnitType': UnitType_values,
    'Mode': Mode_values,
    'Stocks': Stocks_values,
    'Phase': Phase_values,
    'Moment': Moment_values,
    'TransportPointKind': TransportPointKind_values,
}


def rail_hex_from_json(data: Any) -> RailHex:
    """A RailHex from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed
    values.
    """
    value = from_json('RailHex', data, 'rail_hex')
    assert isinstance(value, RailHex)
    return value


def unit_from_json(data: Any) -> Unit:
    """A Unit from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values.
    """
    value = from_json('Unit', data, 'unit')
    assert isinstance(value, Unit)
    return value


def hex_from_json(data: Any) -> Hex:
    """A Hex from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values.
    """
    value = from_json('Hex', data, 'hex')
    assert isinstance(value, Hex)
    return value


__all__ = [
    'Answer',
    'Cite',
    'Consolidation',
    'Consolidation_titles',
    'Consolidation_values',
    'Construction',
    'Construction_costs_sp',
    'Construction_titles',
    'Construction_values',
    'EnemyKind',
    'EnemyKind_titles',
    'EnemyKind_values',
    'EzocAction',
    'EzocAction_negatable',
    'EzocAction_titles',
    'EzocAction_values',
    'GAME',
    'GAME_VERSION',
    'Hex',
    'InvalidInput',
    'LAYERS',
    'MANIFEST',
    'MarkerSide',
    'MarkerSide_titles',
    'MarkerSide_values',
    'Mobility',
    'Mobility_titles',
    'Mobility_values',
    'Mode',
    'Mode_titles',
    'Mode_values',
    'Mode_voluntary',
    'Moment',
    'Moment_titles',
    'Moment_values',
    'Mover',
    'Mover_titles',
    'Mover_values',
    'Number',
    'OPTIONS',
    'Phase',
    'Phase_titles',
    'Phase_values',
    'RULEC_VERSION',
    'RULESET',
    'RULESET_HASH',
    'RailHex',
    'Rebuild',
    'Rebuild_titles',
    'Rebuild_values',
    'River',
    'River_titles',
    'River_values',
    'RuleError',
    'SCALE',
    'SCENARIO',
    'SERIES',
    'SERIES_VERSION',
    'STATE_SCHEMA',
    'Size',
    'Size_titles',
    'Size_values',
    'SpUse',
    'SpUse_pay_while_pausing',
    'SpUse_titles',
    'SpUse_values',
    'Stocks',
    'Stocks_titles',
    'Stocks_values',
    'TITLE',
    'TopUnitFact',
    'TopUnitFact_known',
    'TopUnitFact_titles',
    'TopUnitFact_values',
    'Transport',
    'TransportPointKind',
    'TransportPointKind_titles',
    'TransportPointKind_values',
    'Transport_titles',
    'Transport_values',
    'Unit',
    'UnitType',
    'UnitType_air',
    'UnitType_combat',
    'UnitType_titles',
    'UnitType_values',
    'Violation',
    'active_fighter_on_top',
    'active_planes_on_top',
    'arrival_may_overstack',
    'arrives_loaded',
    'attack_capable',
    'barrage_factors',
    'bridge_usable',
    'bridged',
    'bridging_sp_cost',
    'captured_may_move_at_once',
    'combat_or_dg_combat',
    'combat_side',
    'combine_mp_cost',
    'construction_costs_sp',
    'control_changes',
    'conversion_mp_cost',
    'conversion_sp_cost',
    'conversions_allowed',
    'creates_detrainable',
    'defense_strength',
    'detrainable',
    'detrainable_for',
    'dg_result_removes_reserve',
    'enemy_hex_mp_cost',
    'enemy_knows',
    'engineer_capable',
    'eq_for_air_steps',
    'eq_per_truck',
    'explain_active_fighter_on_top',
    'explain_active_planes_on_top',
    'explain_arrival_may_overstack',
    'explain_arrives_loaded',
    'explain_attack_capable',
    'explain_barrage_factors',
    'explain_bridge_usable',
    'explain_bridged',
    'explain_captured_may_move_at_once',
    'explain_combat_or_dg_combat',
    'explain_combat_side',
    'explain_construction_costs_sp',
    'explain_control_changes',
    'explain_conversions_allowed',
    'explain_creates_detrainable',
    'explain_defense_strength',
    'explain_detrainable',
    'explain_detrainable_for',
    'explain_dg_result_removes_reserve',
    'explain_enemy_knows',
    'explain_engineer_capable',
    'explain_eq_for_air_steps',
    'explain_exploitation_zoc',
    'explain_ezoc_allows',
    'explain_ezoc_blocks_path',
    'explain_ezoc_blocks_trace_by',
    'explain_ezoc_stops_entering',
    'explain_ground_mover',
    'explain_has_zoc',
    'explain_hedgehog_on_top',
    'explain_hex_has_zoc',
    'explain_hq_may_supply',
    'explain_hq_may_throw_from',
    'explain_hq_may_throw_supply',
    'explain_hq_uses_greater_throw_range',
    'explain_ignores_dg',
    'explain_is_air',
    'explain_is_combat',
    'explain_is_ground',
    'explain_keeps_modes_and_markers',
    'explain_load_cost',
    'explain_ma_after',
    'explain_ma_after_rail',
    'explain_ma_before',
    'explain_ma_share',
    'explain_marker_may_be_on_map',
    'explain_marker_may_hide_formation',
    'explain_marker_placement_conforms',
    'explain_marker_side',
    'explain_may_attack',
    'explain_may_attack_across',
    'explain_may_barrage',
    'explain_may_carry_sp',
    'explain_may_combine_transport_points',
    'explain_may_consolidate',
    'explain_may_construct',
    'explain_may_convert_formation',
    'explain_may_convert_hex',
    'explain_may_detrain',
    'explain_may_draw_from',
    'explain_may_enter_enemy_hex',
    'explain_may_enter_enemy_noncombat_hex',
    'explain_may_enter_marker',
    'explain_may_enter_reinforcement_in',
    'explain_may_entrain',
    'explain_may_entrain_off_map',
    'explain_may_exit_ezoc_hex',
    'explain_may_form_extender',
    'explain_may_load_from',
    'explain_may_move_another_unit',
    'explain_may_move_on_after_entering',
    'explain_may_perform_engineering',
    'explain_may_place_arriving_aircraft',
    'explain_may_place_at_port',
    'explain_may_place_rebuilt_in',
    'explain_may_place_reinforcement',
    'explain_may_place_reinforcements_in',
    'explain_may_place_reinforcements_now',
    'explain_may_rail_over_converted',
    'explain_may_rebuild',
    'explain_may_rebuild_aircraft',
    'explain_may_retreat',
    'explain_may_share_hex_with',
    'explain_may_spend_transported',
    'explain_may_unload',
    'explain_may_use_formation_fueling',
    'explain_may_withhold_combat_supply',
    'explain_mode_after_forced_retreat',
    'explain_mode_may_enter_ezoc',
    'explain_modified',
    'explain_moves_railhead',
    'explain_needs_fuel',
    'explain_odds',
    'explain_one_step',
    'explain_one_transport_type',
    'explain_organic_after_capture',
    'explain_pausing_load_may_pay',
    'explain_rail_cap_available',
    'explain_rail_cap_cost',
    'explain_rail_cap_usable',
    'explain_rail_cargo',
    'explain_rail_path_hex_usable',
    'explain_rail_steps_in_one_phase',
    'explain_re_size',
    'explain_rebuildable',
    'explain_rebuilt_aircraft_arrives',
    'explain_repl_independent',
    'explain_repl_may_take_losses',
    'explain_repl_mode',
    'explain_repls_for_paired_units',
    'explain_rounded',
    'explain_shown_combat_unit',
    'explain_shown_plane',
    'explain_shows_hedgehog',
    'explain_shows_plane',
    'explain_sizes_not_negative',
    'explain_stack_in_order',
    'explain_stacking',
    'explain_step_losses_after_consolidation',
    'explain_steps_not_negative',
    'explain_steps_rebuildable',
    'explain_traces_free',
    'explain_transport_equivalent',
    'explain_transport_point_by',
    'explain_transport_point_load',
    'explain_transport_point_may_carry',
    'explain_transport_point_mode',
    'explain_transport_point_supplied',
    'explain_transportable',
    'explain_transported_ma',
    'explain_truck_rebuildable',
    'explain_trucks_within_scenario',
    'explain_within_counter_mix',
    'explain_zoc_negated',
    'explain_zoc_reaches',
    'explain_zoc_unit_on_top',
    'exploitation_zoc',
    'ezoc_allows',
    'ezoc_blocks_path',
    'ezoc_blocks_trace_by',
    'ezoc_stops_entering',
    'from_json',
    'ground_mover',
    'has_zoc',
    'hedgehog_on_top',
    'hex_from_json',
    'hex_has_zoc',
    'hq_action_rating',
    'hq_may_supply',
    'hq_may_throw_from',
    'hq_may_throw_supply',
    'hq_uses_greater_throw_range',
    'ignores_dg',
    'is_air',
    'is_combat',
    'is_ground',
    'keeps_modes_and_markers',
    'load_cost',
    'ma_after',
    'ma_after_rail',
    'ma_before',
    'ma_share',
    'marker_may_be_on_map',
    'marker_may_hide_formation',
    'marker_mp_cost',
    'marker_placement_conforms',
    'marker_side',
    'max_stack_re',
    'may_attack',
    'may_attack_across',
    'may_barrage',
    'may_carry_sp',
    'may_combine_transport_points',
    'may_consolidate',
    'may_construct',
    'may_convert_formation',
    'may_convert_hex',
    'may_detrain',
    'may_draw_from',
    'may_enter_enemy_hex',
    'may_enter_enemy_noncombat_hex',
    'may_enter_marker',
    'may_enter_reinforcement_in',
    'may_entrain',
    'may_entrain_off_map',
    'may_exit_ezoc_hex',
    'may_form_extender',
    'may_load_from',
    'may_move_another_unit',
    'may_move_on_after_entering',
    'may_perform_engineering',
    'may_place_arriving_aircraft',
    'may_place_at_port',
    'may_place_rebuilt_in',
    'may_place_reinforcement',
    'may_place_reinforcements_in',
    'may_place_reinforcements_now',
    'may_rail_over_converted',
    'may_rebuild',
    'may_rebuild_aircraft',
    'may_retreat',
    'may_share_hex_with',
    'may_spend_transported',
    'may_unload',
    'may_use_formation_fueling',
    'may_withhold_combat_supply',
    'mode_after_forced_retreat',
    'mode_may_enter_ezoc',
    'modified',
    'moves_railhead',
    'needs_fuel',
    'odds',
    'one_step',
    'one_transport_type',
    'organic_after_capture',
    'pausing_load_may_pay',
    'rail_cap_available',
    'rail_cap_cost',
    'rail_cap_usable',
    'rail_cargo',
    'rail_hex_from_json',
    'rail_path_hex_usable',
    'rail_steps_in_one_phase',
    're_size',
    'rebuild_mp_cost',
    'rebuildable',
    'rebuilt_aircraft_arrives',
    'repl_independent',
    'repl_may_take_losses',
    'repl_mode',
    'repls_for_paired_units',
    'rounded',
    'shown_combat_unit',
    'shown_plane',
    'shows_hedgehog',
    'shows_plane',
    'sizes_not_negative',
    'stack_in_order',
    'stacking',
    'stacking_mp_cost',
    'step_losses_after_consolidation',
    'steps_not_negative',
    'steps_rebuildable',
    'to_json',
    'traces_free',
    'transport_equivalent',
    'transport_point_by',
    'transport_point_load',
    'transport_point_may_carry',
    'transport_point_mode',
    'transport_point_supplied',
    'transportable',
    'transported_ma',
    'truck_rebuildable',
    'trucks_within_scenario',
    'unit_from_json',
    'within_counter_mix',
    'zoc_negated',
    'zoc_reaches',
    'zoc_unit_on_top',
]
