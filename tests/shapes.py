"""Compare syntax trees by content: expression nodes compare by identity (eq=False), so two parses
of one text are never `==`; their shapes are, when every class, field, token and span agrees."""

from __future__ import annotations

import dataclasses
from typing import Any

from lark import Token


def shape(x: Any) -> Any:
    """A plain, comparable picture of a value: class names, fields, token types, exact numbers."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, tuple((f.name, shape(getattr(x, f.name))) for f in dataclasses.fields(x)))
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, tuple(shape(i) for i in x))
    if isinstance(x, Token):
        return ("Token", x.type, str(x))
    return (type(x).__name__, x)
