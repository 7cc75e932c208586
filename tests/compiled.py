"""Load generated modules, and random game states for them drawn from the rules' own types."""

from __future__ import annotations

import functools
import importlib.util
import sys
import types
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulec import model as m
from rulec.interp import from_json
from rulec.types import BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def load_generated(ruleset: str, folder: Path = ROOT / "generated" / "python") -> types.ModuleType:
    return load_file(folder / f"{ruleset.lower()}.py", f"_rulec_test_{ruleset.lower()}_{abs(hash(str(folder)))}")


def load_file(path: Path, name: str) -> types.ModuleType:
    """A module (a generated .py, or a compiled extension, whose name must be its own) from its file."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def exact_numbers() -> st.SearchStrategy[Fraction]:
    return st.builds(Fraction, st.integers(-40, 40), st.sampled_from([1, 1, 1, 2, 4, 3]))


def value_strategy(model: m.Resolved, t: Type, depth: int = 0) -> st.SearchStrategy[Any]:
    """Interpreter values (records as dicts, lists as tuples) of a rules type."""
    match t:
        case BoolT():
            return st.booleans()
        case IntT():
            return st.integers(-3, 15)
        case NumberT():
            return exact_numbers()
        case TextT():
            return st.text(max_size=5)
        case EnumT(name):
            enum = next(e for e in model.enums if e.name == name)
            return st.sampled_from([mem.name for mem in enum.members])
        case ListT(item):
            return st.lists(value_strategy(model, item, depth + 1), max_size=8 if depth == 0 else 3).map(tuple)
        case SetT(item):
            return st.frozensets(value_strategy(model, item, depth + 1), max_size=4)
        case RecordT(name):
            rec = next(r for r in model.records if r.name == name)
            parts = {}
            for f in rec.fields:
                default = from_json(f.default, f.t)
                strategy = value_strategy(model, f.t, depth + 1)
                parts[f.name] = strategy if f.required else st.one_of(st.just(default), strategy)
            return st.fixed_dictionaries(parts)
    raise ValueError(t)


def to_module(module: types.ModuleType, model: m.Resolved, t: Type, value: Any) -> Any:
    """An interpreter value as the generated module's own value (records become dataclasses)."""
    match t:
        case RecordT(name):
            rec = next(r for r in model.records if r.name == name)
            cls = getattr(module, name) if hasattr(module, name) else getattr(module, name + "_")
            kwargs = {}
            for f in rec.fields:
                field = f.name if hasattr(cls, f.name) else f.name + "_"
                kwargs[field] = to_module(module, model, f.t, value[f.name])
            return cls(**kwargs)
        case ListT(item):
            return tuple(to_module(module, model, item, v) for v in value)
        case SetT(item):
            return frozenset(to_module(module, model, item, v) for v in value)
    return value


def plain(value: Any) -> Any:
    """Module or interpreter values in one comparable form."""
    if hasattr(value, "__dataclass_fields__"):
        return {k: plain(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {k.rstrip("_"): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(map(repr, map(plain, value)))
    if isinstance(value, Fraction):
        return value
    return value
