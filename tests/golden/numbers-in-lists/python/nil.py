"""Numbers in lists: rule checks compiled by rulec 0.1.0.

series NIL (Numbers in lists) version 1; options: none.

Generated from rules/nil.rules by `rulec build`; do not edit.
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
from typing import Any, Final, Generic, TypeVar

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


def _max(items: Iterable[T], key: Callable[[T], Any] | None = None) -> T:
    values = list(items)
    if not values:
        raise RuleError("max of nothing")
    return max(values, key=key)  # type: ignore[type-var, arg-type]


# sum, count and the product of whole numbers through these: mypy can read the builtins' overloads
# wrongly (against sum's bool overload) when a generic helper or a lambda makes the items.
def _sum(items: Iterable[N]) -> N:
    return sum(items)


def _len(items: Sequence[Any]) -> int:
    """len() of a list, which mypy does not narrow (len(units) != -3 would make the rest unreachable)."""
    return len(items)


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

RULESET: Final = 'NIL'
# which rules this module runs: a hash of the rules as resolved (not of where they are written)
RULESET_HASH: Final = 'sha256:a127ad1db764a86622296ca53e990be0'
RULEC_VERSION: Final = '0.1.0'
TITLE: Final = 'Numbers in lists'
SERIES: Final[str | None] = 'NIL'
SERIES_VERSION: Final[str | None] = '1'
GAME: Final[str | None] = None
GAME_VERSION: Final[str | None] = None
SCENARIO: Final[str | None] = None
OPTIONS: Final[tuple[str, ...]] = ()
LAYERS: Final[tuple[str, ...]] = ('NIL',)
MANIFEST: Final[dict[str, Any]] = {
    'game': None,
    'layers': ['NIL'],
    'options': [],
    'ruleset': 'NIL',
    'scenario': None,
    'series': {'name': 'NIL', 'title': 'Numbers in lists', 'version': '1'},
    'title': 'Numbers in lists',
}

_CITE_NIL_6_1: Final[Cite] = Cite(layer='NIL', clause='6.1', item=None, title='Column shifts', note=None)
_RULES_NIL_6_1: Final[tuple[Cite, ...]] = (_CITE_NIL_6_1,)
_SET_1_3: Final[frozenset[Number]] = frozenset({1, 3})


# ---- lists of values ------------------------------------------------------------


# ---- game state ----------------------------------------------------------------


# ---- checks --------------------------------------------------------------------


# rules/nil.rules:6  6.1  Column shifts
def _s_total(drms: tuple[Number, ...]) -> Number:
    """total with numbers scaled by SCALE."""
    return _sum(d for d in drms)


# rules/nil.rules:6  6.1  Column shifts
def _t_total(drms: tuple[Number, ...], _t: list[Cite]) -> Number:
    """total, recording in _t each rule it uses."""
    _t.extend(_RULES_NIL_6_1)
    return _sum(d for d in drms)


# rules/nil.rules:6  6.1  Column shifts
def total(drms: Sequence[Number]) -> Number:
    """The sum of the modifiers (6.1). Numbers are exact: int or Fraction."""
    return _exact(_s_total(tuple(_x * SCALE for _x in drms)))


# rules/nil.rules:6  6.1  Column shifts
def explain_total(drms: Sequence[Number]) -> Answer[Number]:
    """The sum of the modifiers (6.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_total(tuple(_x * SCALE for _x in drms), _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/nil.rules:7  6.1  Column shifts
def _s_quartered(x: Number) -> bool:
    """quartered with numbers scaled by SCALE."""
    return x in _SET_1_3


# rules/nil.rules:7  6.1  Column shifts
def _t_quartered(x: Number, _t: list[Cite]) -> bool:
    """quartered, recording in _t each rule it uses."""
    _t.extend(_RULES_NIL_6_1)
    return x in _SET_1_3


# rules/nil.rules:7  6.1  Column shifts
def quartered(x: Number) -> bool:
    """Is x a quarter step? (6.1). Numbers are exact: int or Fraction."""
    return _s_quartered(x * SCALE)


# rules/nil.rules:7  6.1  Column shifts
def explain_quartered(x: Number) -> Answer[bool]:
    """Is x a quarter step? (6.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_quartered(x * SCALE, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(quartered, (('x', x, ()), )))


# rules/nil.rules:8  6.1  Column shifts
def _s_best(xs: tuple[Number, ...]) -> Number:
    """best with numbers scaled by SCALE."""
    if not (_len(xs) > 0):  # requires
        raise RuleError('best answers only where len(xs) > 0')
    return _max(x for x in xs)


# rules/nil.rules:8  6.1  Column shifts
def _t_best(xs: tuple[Number, ...], _t: list[Cite]) -> Number:
    """best, recording in _t each rule it uses."""
    if not (_len(xs) > 0):  # requires
        raise RuleError('best answers only where len(xs) > 0')
    _t.extend(_RULES_NIL_6_1)
    return _max(x for x in xs)


# rules/nil.rules:8  6.1  Column shifts
def best(xs: Sequence[Number]) -> Number:
    """The largest (6.1). Numbers are exact: int or Fraction."""
    return _exact(_s_best(tuple(_x * SCALE for _x in xs)))


# rules/nil.rules:8  6.1  Column shifts
def explain_best(xs: Sequence[Number]) -> Answer[Number]:
    """The largest (6.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_best(tuple(_x * SCALE for _x in xs), _t)
    return Answer(_exact(_value), _rules(_t), ())


# rules/nil.rules:9  6.1  Column shifts
def _s_halves(x: Number) -> Number:
    """halves with numbers scaled by SCALE."""
    return _sum(_mul(f, x) for f in (4, 2, 1))


# rules/nil.rules:9  6.1  Column shifts
def _t_halves(x: Number, _t: list[Cite]) -> Number:
    """halves, recording in _t each rule it uses."""
    _t.extend(_RULES_NIL_6_1)
    return _sum(_mul(f, x) for f in (4, 2, 1))


# rules/nil.rules:9  6.1  Column shifts
def halves(x: Number) -> Number:
    """x and its halves, added (6.1). Numbers are exact: int or Fraction."""
    return _exact(_s_halves(x * SCALE))


# rules/nil.rules:9  6.1  Column shifts
def explain_halves(x: Number) -> Answer[Number]:
    """x and its halves, added (6.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_halves(x * SCALE, _t)
    return Answer(_exact(_value), _rules(_t), ())


# ---- input checked at the boundary ---------------------------------------------

STATE_SCHEMA: Final[dict[str, Any]] = {
    '$defs': {},
    '$schema': 'https://json-schema.org/draft/2020-12/schema',
    'additionalProperties': {'oneOf': []},
    'description': (
        'Named values for rulec eval --state: each property names a record of this ruleset and gives its fields, as '
        '{"h": {"record": "Hex", "value": {...}}}. A value is valid exactly when the generated module\'s from_json '
        'reads it: its records\' invariants are here too, each in its record\'s allOf, marked with "x-rulec-invariant".'
    ),
    'propertyNames': {'pattern': '^[A-Za-z][A-Za-z0-9_]*$'},
    'title': 'Game state for Numbers in lists (NIL)',
    'type': 'object',
}
_FIELDS: Final[dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]]] = {
}
_RENAMED: Final[frozenset[str]] = frozenset([])
_CHECKS_RENAMED: Final[dict[str, str]] = {}  # named like a Python keyword or helper
_RECORD_CLASSES: Final[dict[str, Any]] = {}
_INVARIANTS: Final[
    dict[
        str,
        tuple[
            tuple[Callable[[Any], bool], str, str, tuple[str, ...], tuple[tuple[str, Callable[[Any], bool]], ...]], ...
        ],
    ]
] = {
}
_ENUM_VALUES: Final[dict[str, tuple[str, ...]]] = {}


__all__ = [
    'Answer',
    'Cite',
    'GAME',
    'GAME_VERSION',
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
    'Violation',
    'best',
    'explain_best',
    'explain_halves',
    'explain_quartered',
    'explain_total',
    'from_json',
    'halves',
    'quartered',
    'to_json',
    'total',
]
