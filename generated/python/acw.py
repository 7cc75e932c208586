"""Brigade-scale American Civil War: combat: rule checks compiled by rulec 0.1.0.

series ACW (Brigade-scale American Civil War: combat); options: none.

Generated from rules/acw/combat.rules by `rulec build`; do not edit.
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

SCALE: Final = 1
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


def _step_around(values: tuple[T, ...], order: Mapping[Any, int], value: T, steps: int) -> T:
    """A value `steps` on around a cyclic list (hexsides, directions)."""
    return values[(order[value] + steps) % len(values)]


# sum, count and the product of whole numbers through these: mypy can read the builtins' overloads
# wrongly (against sum's bool overload) when a generic helper or a lambda makes the items.
def _sum(items: Iterable[N]) -> N:
    return sum(items)


def _count(items: Iterable[object]) -> int:
    return sum(1 for _ in items)


def _len(items: Sequence[Any]) -> int:
    """len() of a list, which mypy does not narrow (len(units) != -3 would make the rest unreachable)."""
    return len(items)


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


def _attr(t: list[Cite], cites: Mapping[Any, tuple[Cite, ...]], table: Mapping[Any, T], key: Any) -> T:
    t.extend(cites[key])
    return table[key]


def _cite(t: list[Cite], cites: tuple[Cite, ...], value: T) -> T:
    t.extend(cites)
    return value


# The same for yes/no values, not generic: mypy would take T from the context (Literal[True], the
# left side of an `and` it has narrowed) and then refuse a bool.
def _attr_yes(t: list[Cite], cites: Mapping[Any, tuple[Cite, ...]], table: Mapping[Any, bool], key: Any) -> bool:
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

RULESET: Final = 'ACW'
# which rules this module runs: a hash of the rules as resolved (not of where they are written)
RULESET_HASH: Final = 'sha256:dc0a9626d0c27d447cccac67cd97120a'
RULEC_VERSION: Final = '0.1.0'
TITLE: Final = 'Brigade-scale American Civil War: combat'
SERIES: Final[str | None] = 'ACW'
SERIES_VERSION: Final[str | None] = None
GAME: Final[str | None] = None
GAME_VERSION: Final[str | None] = None
SCENARIO: Final[str | None] = None
OPTIONS: Final[tuple[str, ...]] = ()
LAYERS: Final[tuple[str, ...]] = ('ACW',)
MANIFEST: Final[dict[str, Any]] = {
    'game': None,
    'layers': ['ACW'],
    'options': [],
    'ruleset': 'ACW',
    'scenario': None,
    'series': {'name': 'ACW', 'title': 'Brigade-scale American Civil War: combat', 'version': None},
    'title': 'Brigade-scale American Civil War: combat',
}

_CITE_ACW_1_1: Final[Cite] = Cite(layer='ACW', clause='1.1', item=None, title='Must attack', note=None)
_CITE_ACW_1_2: Final[Cite] = Cite(layer='ACW', clause='1.2', item=None, title='How much of a stack counts', note=None)
_CITE_ACW_1_3: Final[Cite] = Cite(layer='ACW', clause='1.3', item=None, title='A stack is a single unit', note=None)
_CITE_ACW_1_4: Final[Cite] = Cite(layer='ACW', clause='1.4', item=None, title='Units in an enemy ZOC', note=None)
_CITE_ACW_1_5: Final[Cite] = Cite(layer='ACW', clause='1.5', item=None, title='Put in a ZOC by the enemy', note=None)
_CITE_ACW_1_6: Final[Cite] = Cite(layer='ACW', clause='1.6', item=None, title='Flanking', note=None)
_CITE_ACW_1_7_five: Final[Cite] = Cite(layer='ACW', clause='1.7', item='five', title='5', note=None)
_CITE_ACW_1_7_four: Final[Cite] = Cite(layer='ACW', clause='1.7', item='four', title='4', note=None)
_CITE_ACW_1_7_one: Final[Cite] = Cite(layer='ACW', clause='1.7', item='one', title='1', note=None)
_CITE_ACW_1_7_six: Final[Cite] = Cite(layer='ACW', clause='1.7', item='six', title='6', note=None)
_CITE_ACW_1_7_three: Final[Cite] = Cite(layer='ACW', clause='1.7', item='three', title='3', note=None)
_CITE_ACW_1_7_two: Final[Cite] = Cite(layer='ACW', clause='1.7', item='two', title='2', note=None)
_CITE_ACW_2_1: Final[Cite] = Cite(layer='ACW', clause='2.1', item=None, title='Combat Die Roll Modifiers', note=None)
_CITE_ACW_2_1_breastworks: Final[Cite] = Cite(
    layer='ACW', clause='2.1', item='breastworks', title='Defender in breastworks', note=None
)
_CITE_ACW_2_1_commander: Final[Cite] = Cite(
    layer='ACW', clause='2.1', item='commander', title='Commander stacked with the attackers', note=None
)
_CITE_ACW_2_1_disorganized: Final[Cite] = Cite(
    layer='ACW', clause='2.1', item='disorganized', title='An attacking stack is disorganized', note=None
)
_CITE_ACW_2_1_elevation: Final[Cite] = Cite(
    layer='ACW', clause='2.1', item='elevation', title='Elevation favorable to the attacker', note=None
)
_CITE_ACW_2_1_flanking: Final[Cite] = Cite(
    layer='ACW', clause='2.1', item='flanking', title='Flanking attack', note=None
)
_CITE_ACW_3_1: Final[Cite] = Cite(layer='ACW', clause='3.1', item=None, title='Elimination Priority', note=None)
_CITE_ACW_3_2: Final[Cite] = Cite(layer='ACW', clause='3.2', item=None, title='Leader Casualties', note=None)
_CITE_ACW_3_2_eliminated: Final[Cite] = Cite(
    layer='ACW', clause='3.2', item='eliminated', title='Elimination', note=None
)
_CITE_ACW_3_2_no_effect: Final[Cite] = Cite(layer='ACW', clause='3.2', item='no_effect', title='No effect', note=None)
_CITE_ACW_3_2_retreat: Final[Cite] = Cite(layer='ACW', clause='3.2', item='retreat', title='Retreat', note=None)
_RULES_ACW_1_1: Final[tuple[Cite, ...]] = (_CITE_ACW_1_1,)
_RULES_ACW_1_2: Final[tuple[Cite, ...]] = (_CITE_ACW_1_2,)
_RULES_ACW_1_3: Final[tuple[Cite, ...]] = (_CITE_ACW_1_3,)
_RULES_ACW_1_4: Final[tuple[Cite, ...]] = (_CITE_ACW_1_4,)
_RULES_ACW_1_6: Final[tuple[Cite, ...]] = (_CITE_ACW_1_6,)
_RULES_ACW_1_7_five: Final[tuple[Cite, ...]] = (_CITE_ACW_1_7_five,)
_RULES_ACW_1_7_four: Final[tuple[Cite, ...]] = (_CITE_ACW_1_7_four,)
_RULES_ACW_1_7_one: Final[tuple[Cite, ...]] = (_CITE_ACW_1_7_one,)
_RULES_ACW_1_7_six: Final[tuple[Cite, ...]] = (_CITE_ACW_1_7_six,)
_RULES_ACW_1_7_three: Final[tuple[Cite, ...]] = (_CITE_ACW_1_7_three,)
_RULES_ACW_1_7_two: Final[tuple[Cite, ...]] = (_CITE_ACW_1_7_two,)
_RULES_ACW_2_1: Final[tuple[Cite, ...]] = (_CITE_ACW_2_1,)
_RULES_ACW_2_1_breastworks: Final[tuple[Cite, ...]] = (_CITE_ACW_2_1_breastworks,)
_RULES_ACW_2_1_commander: Final[tuple[Cite, ...]] = (_CITE_ACW_2_1_commander,)
_RULES_ACW_2_1_disorganized: Final[tuple[Cite, ...]] = (_CITE_ACW_2_1_disorganized,)
_RULES_ACW_2_1_elevation: Final[tuple[Cite, ...]] = (_CITE_ACW_2_1_elevation,)
_RULES_ACW_2_1_flanking: Final[tuple[Cite, ...]] = (_CITE_ACW_2_1_flanking,)
_RULES_ACW_3_1: Final[tuple[Cite, ...]] = (_CITE_ACW_3_1,)
_RULES_ACW_3_2: Final[tuple[Cite, ...]] = (_CITE_ACW_3_2,)
_RULES_ACW_3_2_eliminated: Final[tuple[Cite, ...]] = (_CITE_ACW_3_2_eliminated,)
_RULES_ACW_3_2_no_effect: Final[tuple[Cite, ...]] = (_CITE_ACW_3_2_no_effect,)
_RULES_ACW_3_2_retreat: Final[tuple[Cite, ...]] = (_CITE_ACW_3_2_retreat,)
_DOMAINS_EnemyHex_1: Final[dict[str, Any]] = {'in_friendly_zoc': (False, True), 'attacked': (False, True)}
_SET_cavalry_infantry: Final[frozenset[Arm]] = frozenset({'cavalry', 'infantry'})
_DOMAINS_Unit_0: Final[dict[str, Any]] = {'arm': ('infantry', 'cavalry', 'artillery')}
_DOMAINS_Stack_0: Final[dict[str, Any]] = {'units': _Items(_DOMAINS_Unit_0, lambda: Unit(), 'Unit {}')}
_DOMAINS_Leader_0: Final[dict[str, Any]] = {'replacement': (False, True)}


# ---- lists of values ------------------------------------------------------------

# rules/acw/combat.rules:9  ACW  Arm of service
Arm = Literal['infantry', 'cavalry', 'artillery']
Arm_values: Final[tuple[Arm, ...]] = ('infantry', 'cavalry', 'artillery',)
_Arm_set: Final[frozenset[str]] = frozenset(Arm_values)
Arm_titles: Final[dict[Arm, str]] = {
    'infantry': 'Infantry',
    'cavalry': 'Cavalry',
    'artillery': 'Artillery',
}

# rules/acw/combat.rules:35  ACW  Side of a hex, clockwise
HexSide = Literal['n', 'ne', 'se', 's', 'sw', 'nw']
HexSide_values: Final[tuple[HexSide, ...]] = ('n', 'ne', 'se', 's', 'sw', 'nw',)
HexSide_titles: Final[dict[HexSide, str]] = {
    'n': 'North',
    'ne': 'North-east',
    'se': 'South-east',
    's': 'South',
    'sw': 'South-west',
    'nw': 'North-west',
}
_ORDER_HexSide: Final[dict[HexSide, int]] = {'n': 0, 'ne': 1, 'se': 2, 's': 3, 'sw': 4, 'nw': 5}

# rules/acw/combat.rules:228  1.7  One 6-sided die
Die = Literal['one', 'two', 'three', 'four', 'five', 'six']
Die_values: Final[tuple[Die, ...]] = ('one', 'two', 'three', 'four', 'five', 'six',)
Die_titles: Final[dict[Die, str]] = {
    'one': '1',
    'two': '2',
    'three': '3',
    'four': '4',
    'five': '5',
    'six': '6',
}
Die_die: Final[dict[Die, int]] = {
    'one': 1,
    'two': 2,
    'three': 3,
    'four': 4,
    'five': 5,
    'six': 6,
}
_CITES_Die_die: Final[dict[Die, tuple[Cite, ...]]] = {
    'one': _RULES_ACW_1_7_one,
    'two': _RULES_ACW_1_7_two,
    'three': _RULES_ACW_1_7_three,
    'four': _RULES_ACW_1_7_four,
    'five': _RULES_ACW_1_7_five,
    'six': _RULES_ACW_1_7_six,
}

# rules/acw/combat.rules:253  2.1  Die roll modifier
Drm = Literal['flanking', 'elevation', 'commander', 'disorganized', 'breastworks']
Drm_values: Final[tuple[Drm, ...]] = ('flanking', 'elevation', 'commander', 'disorganized', 'breastworks',)
Drm_titles: Final[dict[Drm, str]] = {
    'flanking': 'Flanking attack',
    'elevation': 'Elevation favorable to the attacker',
    'commander': 'Commander stacked with the attackers',
    'disorganized': 'An attacking stack is disorganized',
    'breastworks': 'Defender in breastworks',
}
Drm_value: Final[dict[Drm, int]] = {
    'flanking': -1,
    'elevation': -1,
    'commander': -1,
    'disorganized': 1,
    'breastworks': 1,
}
_CITES_Drm_value: Final[dict[Drm, tuple[Cite, ...]]] = {
    'flanking': _RULES_ACW_2_1_flanking,
    'elevation': _RULES_ACW_2_1_elevation,
    'commander': _RULES_ACW_2_1_commander,
    'disorganized': _RULES_ACW_2_1_disorganized,
    'breastworks': _RULES_ACW_2_1_breastworks,
}

# rules/acw/combat.rules:335  3.2  Combat result for a stack
Outcome = Literal['eliminated', 'retreat', 'no_effect']
Outcome_values: Final[tuple[Outcome, ...]] = ('eliminated', 'retreat', 'no_effect',)
Outcome_titles: Final[dict[Outcome, str]] = {
    'eliminated': 'Elimination',
    'retreat': 'Retreat',
    'no_effect': 'No effect',
}
Outcome_adverse: Final[dict[Outcome, bool]] = {
    'eliminated': True,
    'retreat': True,
    'no_effect': False,
}
_CITES_Outcome_adverse: Final[dict[Outcome, tuple[Cite, ...]]] = {
    'eliminated': _RULES_ACW_3_2_eliminated,
    'retreat': _RULES_ACW_3_2_retreat,
    'no_effect': _RULES_ACW_3_2_no_effect,
}


# ---- game state ----------------------------------------------------------------


# rules/acw/combat.rules:15  ACW
@dataclass(frozen=True, slots=True)
class Unit:
    """A combat unit

    Fields:
        arm: Infantry, cavalry or artillery (one of: infantry, cavalry, artillery)
        sp: Strength points
        cr: Cohesion Rating
    """

    arm: Arm = 'infantry'
    sp: int = 1
    cr: int = 3

    def __post_init__(self) -> None:
        if self.arm not in _Arm_set:
            raise InvalidInput('Unit.arm', f"{_shown(self.arm)} is not one of the values", Arm_values)
        if type(self.sp) is not int:
            raise InvalidInput('Unit.sp', _not_a(self.sp, 'a whole number'))
        if type(self.cr) is not int:
            raise InvalidInput('Unit.cr', _not_a(self.cr, 'a whole number'))


# rules/acw/combat.rules:21  ACW
@dataclass(frozen=True, slots=True)
class Stack:
    """The units in one hex

    Fields:
        units: The units, top first
    """

    units: tuple[Unit, ...] = ()

    def __post_init__(self) -> None:
        if type(self.units) is not tuple:
            raise InvalidInput('Stack.units', _not_a(self.units, 'a tuple'))
        for _units_item in self.units:
            if not isinstance(_units_item, Unit):
                raise InvalidInput('Stack.units', _not_a(_units_item, 'a Unit'))


# rules/acw/combat.rules:25  ACW
@dataclass(frozen=True, slots=True)
class EnemyHex:
    """An enemy hex next to friendly units

    Fields:
        in_friendly_zoc: In a friendly ZOC
        attacked: Attacked this combat phase
    """

    in_friendly_zoc: bool = True
    attacked: bool = False

    def __post_init__(self) -> None:
        if self.in_friendly_zoc is not True and self.in_friendly_zoc is not False:
            raise InvalidInput('EnemyHex.in_friendly_zoc', _not_a(self.in_friendly_zoc, 'true or false'))
        if self.attacked is not True and self.attacked is not False:
            raise InvalidInput('EnemyHex.attacked', _not_a(self.attacked, 'true or false'))


# rules/acw/combat.rules:30  ACW
@dataclass(frozen=True, slots=True)
class Leader:
    """A commander

    Fields:
        stars: Stars
        replacement: Flipped to its replacement side
    """

    stars: int = 1
    replacement: bool = False

    def __post_init__(self) -> None:
        if type(self.stars) is not int:
            raise InvalidInput('Leader.stars', _not_a(self.stars, 'a whole number'))
        if self.replacement is not True and self.replacement is not False:
            raise InvalidInput('Leader.replacement', _not_a(self.replacement, 'true or false'))


# ---- checks --------------------------------------------------------------------


# rules/acw/combat.rules:51  1.1  Must attack
def required_attacks_made(enemy: tuple[EnemyHex, ...]) -> bool:
    """Has every enemy unit in a friendly ZOC been attacked? (1.1)."""
    return all(e.attacked for e in enemy if e.in_friendly_zoc)


# rules/acw/combat.rules:51  1.1  Must attack
def _t_required_attacks_made(enemy: tuple[EnemyHex, ...], _t: list[Cite]) -> bool:
    """required_attacks_made, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_1)
    return all(e.attacked for e in enemy if e.in_friendly_zoc)


# rules/acw/combat.rules:51  1.1  Must attack
def explain_required_attacks_made(enemy: Sequence[EnemyHex]) -> Answer[bool]:
    """Has every enemy unit in a friendly ZOC been attacked? (1.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_required_attacks_made(tuple(enemy), _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            required_attacks_made, (('enemy', enemy, _Items(_DOMAINS_EnemyHex_1, lambda: EnemyHex(), 'EnemyHex {}')), )
        ),
    )


# rules/acw/combat.rules:74  1.2  How much of a stack counts
def counted_sp(s: Stack) -> int:
    """The SP of a stack that count in combat (1.2)."""
    _s_units = s.units
    return (
        min(_sum(u.sp for u in _s_units if u.arm in _SET_cavalry_infantry), foot_and_horse_cap)
        + min(_sum(u.sp for u in _s_units if u.arm == 'artillery'), artillery_cap)
    )


# rules/acw/combat.rules:74  1.2  How much of a stack counts
def _t_counted_sp(s: Stack, _t: list[Cite]) -> int:
    """counted_sp, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_2)
    return (
        min(
            _sum(u.sp for u in s.units if u.arm in _SET_cavalry_infantry), _cite(_t, _RULES_ACW_1_2, foot_and_horse_cap)
        )
        + min(_sum(u.sp for u in s.units if u.arm == 'artillery'), _cite(_t, _RULES_ACW_1_2, artillery_cap))
    )


# rules/acw/combat.rules:74  1.2  How much of a stack counts
def explain_counted_sp(s: Stack) -> Answer[int]:
    """The SP of a stack that count in combat (1.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_counted_sp(s, _t)
    return Answer(_value, _rules(_t), ())


# rules/acw/combat.rules:78  1.2  How much of a stack counts
def abides_by_result(u: Unit, s: Stack) -> bool:
    """Is this unit of the stack bound by the combat result? (1.2)."""
    return True


# rules/acw/combat.rules:78  1.2  How much of a stack counts
def _t_abides_by_result(u: Unit, s: Stack, _t: list[Cite]) -> bool:
    """abides_by_result, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_2)
    return True


# rules/acw/combat.rules:78  1.2  How much of a stack counts
def explain_abides_by_result(u: Unit, s: Stack) -> Answer[bool]:
    """Is this unit of the stack bound by the combat result? (1.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_abides_by_result(u, s, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(abides_by_result, (('u', u, _DOMAINS_Unit_0), ('s', s, _DOMAINS_Stack_0), )),
    )


# rules/acw/combat.rules:118  1.3  A stack is a single unit
def attack_may_target(hexes: int) -> bool:
    """May one stack attack this many hexes at once? (1.3)."""
    return hexes <= 1


# rules/acw/combat.rules:118  1.3  A stack is a single unit
def _t_attack_may_target(hexes: int, _t: list[Cite]) -> bool:
    """attack_may_target, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_3)
    return hexes <= 1


# rules/acw/combat.rules:118  1.3  A stack is a single unit
def explain_attack_may_target(hexes: int) -> Answer[bool]:
    """May one stack attack this many hexes at once? (1.3), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_attack_may_target(hexes, _t)
    return Answer(_value, _rules(_t), () if _value else _would_change(attack_may_target, (('hexes', hexes, ()), )))


# rules/acw/combat.rules:120  1.3  A stack is a single unit
def defense_may_split_into(combats: int) -> bool:
    """May one stack's defense be split into this many combats against the hexes attacking it? (1.3)."""
    return combats <= 1


# rules/acw/combat.rules:120  1.3  A stack is a single unit
def _t_defense_may_split_into(combats: int, _t: list[Cite]) -> bool:
    """defense_may_split_into, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_3)
    return combats <= 1


# rules/acw/combat.rules:120  1.3  A stack is a single unit
def explain_defense_may_split_into(combats: int) -> Answer[bool]:
    """May one stack's defense be split into this many combats against the hexes attacking it? (1.3), with the rules
    that decided it.
    """
    _t: list[Cite] = []
    _value = _t_defense_may_split_into(combats, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(defense_may_split_into, (('combats', combats, ()), ))
    )


# rules/acw/combat.rules:124  1.3  A stack is a single unit
def hex_attacked(units_attacked: int) -> bool:
    """Is an enemy hex attacked? Its stack counts as a single unit, so attacking any of its units attacks the hex (1.3).
    """
    return units_attacked > 0


# rules/acw/combat.rules:124  1.3  A stack is a single unit
def _t_hex_attacked(units_attacked: int, _t: list[Cite]) -> bool:
    """hex_attacked, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_3)
    return units_attacked > 0


# rules/acw/combat.rules:124  1.3  A stack is a single unit
def explain_hex_attacked(units_attacked: int) -> Answer[bool]:
    """Is an enemy hex attacked? Its stack counts as a single unit, so attacking any of its units attacks the hex (1.3),
    with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_hex_attacked(units_attacked, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(hex_attacked, (('units_attacked', units_attacked, ()), ))
    )


# rules/acw/combat.rules:151  1.4  Units in an enemy ZOC
def must_attack(in_enemy_zoc: bool, enemy: tuple[EnemyHex, ...]) -> bool:
    """Must this stack attack? (1.4)."""
    # rule: in_enemy_zoc and not required_attacks_made(enemy)
    return in_enemy_zoc and (not all(e.attacked for e in enemy if e.in_friendly_zoc))


# rules/acw/combat.rules:151  1.4  Units in an enemy ZOC
def _t_must_attack(in_enemy_zoc: bool, enemy: tuple[EnemyHex, ...], _t: list[Cite]) -> bool:
    """must_attack, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_4)
    return in_enemy_zoc and (not _t_required_attacks_made(enemy, _t))


# rules/acw/combat.rules:151  1.4  Units in an enemy ZOC
def explain_must_attack(in_enemy_zoc: bool, enemy: Sequence[EnemyHex]) -> Answer[bool]:
    """Must this stack attack? (1.4), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_must_attack(in_enemy_zoc, tuple(enemy), _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            must_attack,
            (
                ('in_enemy_zoc', in_enemy_zoc, (False, True)),
                ('enemy', enemy, _Items(_DOMAINS_EnemyHex_1, lambda: EnemyHex(), 'EnemyHex {}')),
            ),
        ),
    )


# rules/acw/combat.rules:170  1.5  Put in a ZOC by the enemy
def may_attack(in_command: bool, used_road_movement: bool, put_in_zoc_by_enemy: bool) -> bool:
    """May this stack attack (and advance after combat)? (1.5)."""
    return put_in_zoc_by_enemy or (in_command and (not used_road_movement))


_ANSWERS_may_attack: Final[dict[tuple[bool, bool, bool], Answer[bool]]] = {
    (False, False, False,): Answer(False, (_CITE_ACW_1_5,), ('in_command = true', 'put_in_zoc_by_enemy = true')),
    (False, False, True,): Answer(True, (_CITE_ACW_1_5,), ()),
    (False, True, False,): Answer(False, (_CITE_ACW_1_5,), ('put_in_zoc_by_enemy = true',)),
    (False, True, True,): Answer(True, (_CITE_ACW_1_5,), ()),
    (True, False, False,): Answer(True, (_CITE_ACW_1_5,), ()),
    (True, False, True,): Answer(True, (_CITE_ACW_1_5,), ()),
    (True, True, False,): Answer(False, (_CITE_ACW_1_5,), ('used_road_movement = false', 'put_in_zoc_by_enemy = true')),
    (True, True, True,): Answer(True, (_CITE_ACW_1_5,), ()),
}


# rules/acw/combat.rules:170  1.5  Put in a ZOC by the enemy
def explain_may_attack(in_command: bool, used_road_movement: bool, put_in_zoc_by_enemy: bool) -> Answer[bool]:
    """May this stack attack (and advance after combat)? (1.5), with the rules that decided it."""
    return _ANSWERS_may_attack[(in_command, used_road_movement, put_in_zoc_by_enemy)]


# rules/acw/combat.rules:192  1.6  Flanking
def hexsides_adjacent(a: HexSide, b: HexSide) -> bool:
    """Are the hexes beyond these two sides adjacent to each other? (1.6)."""
    return (
        b == _step_around(HexSide_values, _ORDER_HexSide, a, 1)
        or b == _step_around(HexSide_values, _ORDER_HexSide, a, -1)
    )


# rules/acw/combat.rules:192  1.6  Flanking
def _t_hexsides_adjacent(a: HexSide, b: HexSide, _t: list[Cite]) -> bool:
    """hexsides_adjacent, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_6)
    return (
        b == _step_around(HexSide_values, _ORDER_HexSide, a, 1)
        or b == _step_around(HexSide_values, _ORDER_HexSide, a, -1)
    )

_ANSWERS_hexsides_adjacent: Final[dict[tuple[HexSide, HexSide], Answer[bool]]] = {
    ('n', 'n',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = nw', 'b = ne', 'b = nw')),
    ('n', 'ne',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('n', 'se',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = s', 'b = ne', 'b = nw')),
    ('n', 's',): Answer(False, (_CITE_ACW_1_6,), ('a = se', 'a = sw', 'b = ne', 'b = nw')),
    ('n', 'sw',): Answer(False, (_CITE_ACW_1_6,), ('a = s', 'a = nw', 'b = ne', 'b = nw')),
    ('n', 'nw',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('ne', 'n',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('ne', 'ne',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = se', 'b = n', 'b = se')),
    ('ne', 'se',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('ne', 's',): Answer(False, (_CITE_ACW_1_6,), ('a = se', 'a = sw', 'b = n', 'b = se')),
    ('ne', 'sw',): Answer(False, (_CITE_ACW_1_6,), ('a = s', 'a = nw', 'b = n', 'b = se')),
    ('ne', 'nw',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = sw', 'b = n', 'b = se')),
    ('se', 'n',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = nw', 'b = ne', 'b = s')),
    ('se', 'ne',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('se', 'se',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = s', 'b = ne', 'b = s')),
    ('se', 's',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('se', 'sw',): Answer(False, (_CITE_ACW_1_6,), ('a = s', 'a = nw', 'b = ne', 'b = s')),
    ('se', 'nw',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = sw', 'b = ne', 'b = s')),
    ('s', 'n',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = nw', 'b = se', 'b = sw')),
    ('s', 'ne',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = se', 'b = se', 'b = sw')),
    ('s', 'se',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('s', 's',): Answer(False, (_CITE_ACW_1_6,), ('a = se', 'a = sw', 'b = se', 'b = sw')),
    ('s', 'sw',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('s', 'nw',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = sw', 'b = se', 'b = sw')),
    ('sw', 'n',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = nw', 'b = s', 'b = nw')),
    ('sw', 'ne',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = se', 'b = s', 'b = nw')),
    ('sw', 'se',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = s', 'b = s', 'b = nw')),
    ('sw', 's',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('sw', 'sw',): Answer(False, (_CITE_ACW_1_6,), ('a = s', 'a = nw', 'b = s', 'b = nw')),
    ('sw', 'nw',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('nw', 'n',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('nw', 'ne',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = se', 'b = n', 'b = sw')),
    ('nw', 'se',): Answer(False, (_CITE_ACW_1_6,), ('a = ne', 'a = s', 'b = n', 'b = sw')),
    ('nw', 's',): Answer(False, (_CITE_ACW_1_6,), ('a = se', 'a = sw', 'b = n', 'b = sw')),
    ('nw', 'sw',): Answer(True, (_CITE_ACW_1_6,), ()),
    ('nw', 'nw',): Answer(False, (_CITE_ACW_1_6,), ('a = n', 'a = sw', 'b = n', 'b = sw')),
}


# rules/acw/combat.rules:192  1.6  Flanking
def explain_hexsides_adjacent(a: HexSide, b: HexSide) -> Answer[bool]:
    """Are the hexes beyond these two sides adjacent to each other? (1.6), with the rules that decided it."""
    return _ANSWERS_hexsides_adjacent[(a, b)]


# rules/acw/combat.rules:196  1.6  Flanking
def flanked(attacked_from: frozenset[HexSide]) -> bool:
    """Is a unit attacked from these sides flanked? (1.6)."""
    # rule: len(attacked_from) >= 3 or (len(attacked_from) == 2 and any(any(a != b and not hexsides_adjacent(a, b) for b
    # in attacked_from) for a in attacked_from))
    return (
        len(attacked_from) >= 3
        or (
            len(attacked_from) == 2
            and any(
                any(
                    (
                        a != b
                        and (
                            not (
                                b == _step_around(HexSide_values, _ORDER_HexSide, a, 1)
                                or b == _step_around(HexSide_values, _ORDER_HexSide, a, -1)
                            )
                        )
                    )
                    for b in sorted(attacked_from, key=_ORDER_HexSide.__getitem__)
                )
                for a in sorted(attacked_from, key=_ORDER_HexSide.__getitem__)
            )
        )
    )


# rules/acw/combat.rules:196  1.6  Flanking
def _t_flanked(attacked_from: frozenset[HexSide], _t: list[Cite]) -> bool:
    """flanked, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_1_6)
    return (
        len(attacked_from) >= 3
        or (
            len(attacked_from) == 2
            and any(
                any(
                    a != b and (not _t_hexsides_adjacent(a, b, _t))
                    for b in sorted(attacked_from, key=_ORDER_HexSide.__getitem__)
                )
                for a in sorted(attacked_from, key=_ORDER_HexSide.__getitem__)
            )
        )
    )


# rules/acw/combat.rules:196  1.6  Flanking
def explain_flanked(attacked_from: frozenset[HexSide]) -> Answer[bool]:
    """Is a unit attacked from these sides flanked? (1.6), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_flanked(attacked_from, _t)
    return Answer(
        _value, _rules(_t), () if _value else _would_change(flanked, (('attacked_from', attacked_from, ()), ))
    )


# rules/acw/combat.rules:262  2.1  Combat Die Roll Modifiers
def net_drm(drms: tuple[Drm, ...]) -> int:
    """The net DRM: every modifier of both sides added together (2.1)."""
    return _sum(Drm_value[d] for d in drms)


# rules/acw/combat.rules:262  2.1  Combat Die Roll Modifiers
def _t_net_drm(drms: tuple[Drm, ...], _t: list[Cite]) -> int:
    """net_drm, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_2_1)
    return _sum(_attr(_t, _CITES_Drm_value, Drm_value, d) for d in drms)


# rules/acw/combat.rules:262  2.1  Combat Die Roll Modifiers
def explain_net_drm(drms: Sequence[Drm]) -> Answer[int]:
    """The net DRM: every modifier of both sides added together (2.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_net_drm(tuple(drms), _t)
    return Answer(_value, _rules(_t), ())


# rules/acw/combat.rules:265  2.1  Combat Die Roll Modifiers
def final_die(roll: Die, drms: tuple[Drm, ...]) -> int:
    """The modified die roll (2.1)."""
    # rule: roll.die + net_drm(drms)
    return Die_die[roll] + _sum(Drm_value[d] for d in drms)


# rules/acw/combat.rules:265  2.1  Combat Die Roll Modifiers
def _t_final_die(roll: Die, drms: tuple[Drm, ...], _t: list[Cite]) -> int:
    """final_die, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_2_1)
    return _attr(_t, _CITES_Die_die, Die_die, roll) + _t_net_drm(drms, _t)


# rules/acw/combat.rules:265  2.1  Combat Die Roll Modifiers
def explain_final_die(roll: Die, drms: Sequence[Drm]) -> Answer[int]:
    """The modified die roll (2.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_final_die(roll, tuple(drms), _t)
    return Answer(_value, _rules(_t), ())


# rules/acw/combat.rules:298  3.1  Elimination Priority
def first_loss_allowed(u: Unit, combat_cr: int) -> bool:
    """May this unit be the stack's first loss? (3.1)."""
    return u.cr == combat_cr


# rules/acw/combat.rules:298  3.1  Elimination Priority
def _t_first_loss_allowed(u: Unit, combat_cr: int, _t: list[Cite]) -> bool:
    """first_loss_allowed, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_3_1)
    return u.cr == combat_cr


# rules/acw/combat.rules:298  3.1  Elimination Priority
def explain_first_loss_allowed(u: Unit, combat_cr: int) -> Answer[bool]:
    """May this unit be the stack's first loss? (3.1), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_first_loss_allowed(u, combat_cr, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            first_loss_allowed, (('u', u, _DOMAINS_Unit_0), ('combat_cr', combat_cr, ()), )
        ),
    )


# rules/acw/combat.rules:301  3.1  Elimination Priority
def exchange_losses_ok(attacker_losses: tuple[Unit, ...], defender_sp_lost: int, combat_cr: int) -> bool:
    """Are these (in the order taken) the attacker's losses in an EXC: the first of the combat's CR, and only as many
    more as must be taken to at least match the defender's SP? (3.1).
    """
    total: int = _sum(u.sp for u in attacker_losses)
    spare: int = _count(u for u in attacker_losses if total - u.sp >= defender_sp_lost)
    return (
        _len(attacker_losses) > 0
        and cast('int', _first(next((u.cr for u in attacker_losses), _NOTHING))) == combat_cr
        and (total >= defender_sp_lost)
        and (
            spare == 0
            or (
                spare == 1
                and total - cast('int', _first(next((u.sp for u in attacker_losses), _NOTHING))) >= defender_sp_lost
            )
        )
    )


# rules/acw/combat.rules:301  3.1  Elimination Priority
def _t_exchange_losses_ok(
    attacker_losses: tuple[Unit, ...], defender_sp_lost: int, combat_cr: int, _t: list[Cite]
) -> bool:
    """exchange_losses_ok, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_3_1)
    total: int = _sum(u.sp for u in attacker_losses)
    spare: int = _count(u for u in attacker_losses if total - u.sp >= defender_sp_lost)
    return (
        _len(attacker_losses) > 0
        and cast('int', _first(next((u.cr for u in attacker_losses), _NOTHING))) == combat_cr
        and (total >= defender_sp_lost)
        and (
            spare == 0
            or (
                spare == 1
                and total - cast('int', _first(next((u.sp for u in attacker_losses), _NOTHING))) >= defender_sp_lost
            )
        )
    )


# rules/acw/combat.rules:301  3.1  Elimination Priority
def explain_exchange_losses_ok(attacker_losses: Sequence[Unit], defender_sp_lost: int, combat_cr: int) -> Answer[bool]:
    """Are these (in the order taken) the attacker's losses in an EXC: the first of the combat's CR, and only as many
    more as must be taken to at least match the defender's SP? (3.1), with the rules that decided it.
    """
    _t: list[Cite] = []
    _value = _t_exchange_losses_ok(tuple(attacker_losses), defender_sp_lost, combat_cr, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(
            exchange_losses_ok,
            (
                ('attacker_losses', attacker_losses, _Items(_DOMAINS_Unit_0, lambda: Unit(), 'Unit {}')),
                ('defender_sp_lost', defender_sp_lost, ()),
                ('combat_cr', combat_cr, ()),
            ),
        ),
    )


# rules/acw/combat.rules:342  3.2  Leader Casualties
def leader_rolls(result: Outcome, leaders: tuple[Leader, ...]) -> int:
    """Casualty rolls to make (3.2)."""
    return _count(l_ for l_ in leaders if l_.stars > 1) if Outcome_adverse[result] else 0


# rules/acw/combat.rules:342  3.2  Leader Casualties
def _t_leader_rolls(result: Outcome, leaders: tuple[Leader, ...], _t: list[Cite]) -> int:
    """leader_rolls, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_3_2)
    return (
        _count(l_ for l_ in leaders if l_.stars > 1)
        if _attr_yes(_t, _CITES_Outcome_adverse, Outcome_adverse, result)
        else 0
    )


# rules/acw/combat.rules:342  3.2  Leader Casualties
def explain_leader_rolls(result: Outcome, leaders: Sequence[Leader]) -> Answer[int]:
    """Casualty rolls to make (3.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_leader_rolls(result, tuple(leaders), _t)
    return Answer(_value, _rules(_t), ())


# rules/acw/combat.rules:345  3.2  Leader Casualties
def leader_casualty(l_: Leader, roll: int) -> bool:
    """Does this roll make the commander a casualty? (3.2)."""
    return roll == 1 and l_.stars > 1 and (not l_.replacement)


# rules/acw/combat.rules:345  3.2  Leader Casualties
def _t_leader_casualty(l_: Leader, roll: int, _t: list[Cite]) -> bool:
    """leader_casualty, recording in _t each rule it uses."""
    _t.extend(_RULES_ACW_3_2)
    return roll == 1 and l_.stars > 1 and (not l_.replacement)


# rules/acw/combat.rules:345  3.2  Leader Casualties
def explain_leader_casualty(l_: Leader, roll: int) -> Answer[bool]:
    """Does this roll make the commander a casualty? (3.2), with the rules that decided it."""
    _t: list[Cite] = []
    _value = _t_leader_casualty(l_, roll, _t)
    return Answer(
        _value,
        _rules(_t),
        () if _value else _would_change(leader_casualty, (('l', l_, _DOMAINS_Leader_0), ('roll', roll, ()), )),
    )


# ---- constants -----------------------------------------------------------------

# rules/acw/combat.rules:71  1.2  Most infantry and cavalry SP that count
foot_and_horse_cap: Final[int] = 8

# rules/acw/combat.rules:72  1.2  Most artillery SP that count
artillery_cap: Final[int] = 10


# ---- input checked at the boundary ---------------------------------------------

STATE_SCHEMA: Final[dict[str, Any]] = {
    '$defs': {
        'EnemyHex': {
            'additionalProperties': False,
            'description': 'An enemy hex next to friendly units',
            'properties': {
                'attacked': {'description': 'Attacked this combat phase', 'type': 'boolean'},
                'in_friendly_zoc': {'description': 'In a friendly ZOC', 'type': 'boolean'},
            },
            'required': [],
            'type': 'object',
        },
        'Leader': {
            'additionalProperties': False,
            'description': 'A commander',
            'properties': {
                'replacement': {'description': 'Flipped to its replacement side', 'type': 'boolean'},
                'stars': {'$ref': '#/$defs/rulec:int', 'description': 'Stars'},
            },
            'required': [],
            'type': 'object',
        },
        'Stack': {
            'additionalProperties': False,
            'description': 'The units in one hex',
            'properties': {
                'units': {'description': 'The units, top first', 'items': {'$ref': '#/$defs/Unit'}, 'type': 'array'},
            },
            'required': [],
            'type': 'object',
        },
        'Unit': {
            'additionalProperties': False,
            'description': 'A combat unit',
            'properties': {
                'arm': {'description': 'Infantry, cavalry or artillery', 'enum': ['infantry', 'cavalry', 'artillery']},
                'cr': {'$ref': '#/$defs/rulec:int', 'description': 'Cohesion Rating'},
                'sp': {'$ref': '#/$defs/rulec:int', 'description': 'Strength points'},
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
                'properties': {'record': {'const': 'Unit'}, 'value': {'$ref': '#/$defs/Unit'}},
                'required': ['record', 'value'],
                'type': 'object',
            },
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'Stack'}, 'value': {'$ref': '#/$defs/Stack'}},
                'required': ['record', 'value'],
                'type': 'object',
            },
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'EnemyHex'}, 'value': {'$ref': '#/$defs/EnemyHex'}},
                'required': ['record', 'value'],
                'type': 'object',
            },
            {
                'additionalProperties': False,
                'properties': {'record': {'const': 'Leader'}, 'value': {'$ref': '#/$defs/Leader'}},
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
    'title': 'Game state for Brigade-scale American Civil War: combat (ACW)',
    'type': 'object',
}
_FIELDS: Final[dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]]] = {
    'Unit': (
        ('arm', 'enum Arm', ('infantry', 'cavalry', 'artillery')),
        ('sp', 'int', ()),
        ('cr', 'int', ()),
    ),
    'Stack': (
        ('units', 'list of record Unit', ()),
    ),
    'EnemyHex': (
        ('in_friendly_zoc', 'bool', ()),
        ('attacked', 'bool', ()),
    ),
    'Leader': (
        ('stars', 'int', ()),
        ('replacement', 'bool', ()),
    ),
}
_RENAMED: Final[frozenset[str]] = frozenset([])
_CHECKS_RENAMED: Final[dict[str, str]] = {}  # named like a Python keyword or helper
_RECORD_CLASSES: Final[dict[str, Any]] = {'Unit': Unit, 'Stack': Stack, 'EnemyHex': EnemyHex, 'Leader': Leader}
_INVARIANTS: Final[
    dict[
        str,
        tuple[
            tuple[Callable[[Any], bool], str, str, tuple[str, ...], tuple[tuple[str, Callable[[Any], bool]], ...]], ...
        ],
    ]
] = {
}
_ENUM_VALUES: Final[dict[str, tuple[str, ...]]] = {
    'Arm': Arm_values, 'HexSide': HexSide_values, 'Die': Die_values, 'Drm': Drm_values, 'Outcome': Outcome_values
}


def unit_from_json(data: Any) -> Unit:
    """A Unit from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values.
    """
    value = from_json('Unit', data, 'unit')
    assert isinstance(value, Unit)
    return value


def stack_from_json(data: Any) -> Stack:
    """A Stack from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed values.
    """
    value = from_json('Stack', data, 'stack')
    assert isinstance(value, Stack)
    return value


def enemy_hex_from_json(data: Any) -> EnemyHex:
    """A EnemyHex from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed
    values.
    """
    value = from_json('EnemyHex', data, 'enemy_hex')
    assert isinstance(value, EnemyHex)
    return value


def leader_from_json(data: Any) -> Leader:
    """A Leader from JSON-like data, checked field by field; raises InvalidInput naming the field and the allowed
    values.
    """
    value = from_json('Leader', data, 'leader')
    assert isinstance(value, Leader)
    return value


__all__ = [
    'Answer',
    'Arm',
    'Arm_titles',
    'Arm_values',
    'Cite',
    'Die',
    'Die_die',
    'Die_titles',
    'Die_values',
    'Drm',
    'Drm_titles',
    'Drm_value',
    'Drm_values',
    'EnemyHex',
    'GAME',
    'GAME_VERSION',
    'HexSide',
    'HexSide_titles',
    'HexSide_values',
    'InvalidInput',
    'LAYERS',
    'Leader',
    'MANIFEST',
    'Number',
    'OPTIONS',
    'Outcome',
    'Outcome_adverse',
    'Outcome_titles',
    'Outcome_values',
    'RULEC_VERSION',
    'RULESET',
    'RULESET_HASH',
    'RuleError',
    'SCALE',
    'SCENARIO',
    'SERIES',
    'SERIES_VERSION',
    'STATE_SCHEMA',
    'Stack',
    'TITLE',
    'Unit',
    'Violation',
    'abides_by_result',
    'artillery_cap',
    'attack_may_target',
    'counted_sp',
    'defense_may_split_into',
    'enemy_hex_from_json',
    'exchange_losses_ok',
    'explain_abides_by_result',
    'explain_attack_may_target',
    'explain_counted_sp',
    'explain_defense_may_split_into',
    'explain_exchange_losses_ok',
    'explain_final_die',
    'explain_first_loss_allowed',
    'explain_flanked',
    'explain_hex_attacked',
    'explain_hexsides_adjacent',
    'explain_leader_casualty',
    'explain_leader_rolls',
    'explain_may_attack',
    'explain_must_attack',
    'explain_net_drm',
    'explain_required_attacks_made',
    'final_die',
    'first_loss_allowed',
    'flanked',
    'foot_and_horse_cap',
    'from_json',
    'hex_attacked',
    'hexsides_adjacent',
    'leader_casualty',
    'leader_from_json',
    'leader_rolls',
    'may_attack',
    'must_attack',
    'net_drm',
    'required_attacks_made',
    'stack_from_json',
    'to_json',
    'unit_from_json',
]
