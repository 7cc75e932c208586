"""The types of the rules language as frozen values, and the relations between them.

`str(t)` is the type as the IR writes it (`bool`, `enum Mode`, `list of int`); `parse_type`
reads it back. `AnyT` is the type of an expression that already has a mistake, so that one
mistake is reported once: it fits everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache


@dataclass(frozen=True, slots=True)
class BoolT:
    def __str__(self) -> str:
        return "bool"


@dataclass(frozen=True, slots=True)
class IntT:
    def __str__(self) -> str:
        return "int"


@dataclass(frozen=True, slots=True)
class NumberT:
    """An exact number: a whole number or a fraction."""

    def __str__(self) -> str:
        return "number"


@dataclass(frozen=True, slots=True)
class TextT:
    def __str__(self) -> str:
        return "text"


@dataclass(frozen=True, slots=True)
class AnyT:
    def __str__(self) -> str:
        return "any"


@dataclass(frozen=True, slots=True)
class EnumT:
    name: str
    text: str = field(init=False, repr=False, compare=False)  # str(), made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"enum {self.name}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class RecordT:
    name: str
    text: str = field(init=False, repr=False, compare=False)  # str(), made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"record {self.name}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class ListT:
    item: Type
    text: str = field(init=False, repr=False, compare=False)  # str(), made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"list of {self.item}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class SetT:
    item: Type
    text: str = field(init=False, repr=False, compare=False)  # str(), made once

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"set of {self.item}")

    def __str__(self) -> str:
        return self.text


Type = BoolT | IntT | NumberT | TextT | AnyT | EnumT | RecordT | ListT | SetT

BOOL = BoolT()
INT = IntT()
NUMBER = NumberT()
TEXT = TextT()
ANY = AnyT()
_SIMPLE: dict[str, Type] = {"bool": BOOL, "int": INT, "number": NUMBER, "text": TEXT, "any": ANY}


@cache
def parse_type(text: str) -> Type:
    """The type the IR writes as `text` (the inverse of str); ValueError if it is none."""
    if text in _SIMPLE:
        return _SIMPLE[text]
    kind, _, rest = text.partition(" ")
    if kind == "list" and rest.startswith("of "):
        return ListT(parse_type(rest[3:]))
    if kind == "set" and rest.startswith("of "):
        return SetT(parse_type(rest[3:]))
    if kind == "enum" and rest.isidentifier():
        return EnumT(rest)
    if kind == "record" and rest.isidentifier():
        return RecordT(rest)
    raise ValueError(f"not a type: {text!r}")


def is_numeric(t: Type) -> bool:
    return isinstance(t, (IntT, NumberT, AnyT))


def item_type(t: Type) -> Type | None:
    """The type of the items of a list or set (any after a mistake), or None."""
    match t:
        case ListT(item) | SetT(item):
            return item
        case AnyT():
            return ANY
    return None


def assignable(src: Type, dst: Type) -> bool:
    """Whether a value of type src may stand where dst is wanted (an int where a number is)."""
    if src == dst or isinstance(src, AnyT) or isinstance(dst, AnyT):
        return True
    match src, dst:
        case IntT(), NumberT():
            return True
        case (ListT(a), ListT(b)) | (SetT(a), SetT(b)):
            return assignable(a, b)
    return False


def join(a: Type, b: Type) -> Type | None:
    """The type both branches fit in, or None. Where each fits the other (a list of numbers and an
    empty list, a list of any), the one that says more: [[1/2], []] is a list of lists of numbers."""
    if not isinstance(a, AnyT) and not isinstance(b, AnyT) and assignable(a, b) and assignable(b, a):
        return _specific(a, b)
    if assignable(a, b):
        return a if isinstance(a, AnyT) else b
    if assignable(b, a):
        return a
    return None


def _specific(a: Type, b: Type) -> Type:
    """Of two types that fit each other, the one that says more, item by item."""
    match a, b:
        case ListT(x), ListT(y):
            return ListT(_specific(x, y))
        case SetT(x), SetT(y):
            return SetT(_specific(x, y))
        case AnyT(), _:
            return b
    return a


def describe(t: Type) -> str:
    """A type in words, for messages: 'a Mode', 'a number', 'a list of Unit'."""
    match t:
        case EnumT(name) | RecordT(name):
            return "a " + name
        case ListT(item):
            return f"a list of {_plural(item)}"
        case SetT(item):
            return f"a set of {_plural(item)}"
        case IntT():
            return "a whole number"
        case NumberT():
            return "a number"
        case BoolT():
            return "true or false"
        case TextT():
            return "a text"
    return "anything"


def _plural(t: Type) -> str:
    """The items of a list in words: 'Unit', 'whole numbers', 'true or false values', 'anything'."""
    match t:
        case EnumT(name) | RecordT(name):
            return name
        case BoolT():
            return "true or false values"
        case AnyT():
            return "anything"
        case ListT(item):
            return f"lists of {_plural(item)}"
        case SetT(item):
            return f"sets of {_plural(item)}"
    return describe(t)[2:] + "s"
