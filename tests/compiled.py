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

from compiler.interp import from_json

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def load_generated(ruleset: str, folder: Path = ROOT / "generated" / "python") -> types.ModuleType:
    path = folder / f"{ruleset.lower()}.py"
    name = f"_rulec_test_{ruleset.lower()}_{abs(hash(str(folder)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def exact_numbers() -> st.SearchStrategy[Fraction]:
    return st.builds(Fraction, st.integers(-40, 40), st.sampled_from([1, 1, 1, 2, 4, 3]))


def value_strategy(model: dict[str, Any], t: str, depth: int = 0) -> st.SearchStrategy[Any]:
    """Interpreter values (records as dicts, lists as tuples) of a rules type."""
    if t == "bool":
        return st.booleans()
    if t == "int":
        return st.integers(-3, 15)
    if t == "number":
        return exact_numbers()
    if t == "text":
        return st.text(max_size=5)
    if t.startswith("enum "):
        enum = next(e for e in model["enums"] if e["name"] == t[5:])
        return st.sampled_from([m["name"] for m in enum["members"]])
    if t.startswith("list of "):
        return st.lists(value_strategy(model, t[8:], depth + 1), max_size=8 if depth == 0 else 3).map(tuple)
    if t.startswith("set of "):
        return st.frozensets(value_strategy(model, t[7:], depth + 1), max_size=4)
    if t.startswith("record "):
        rec = next(r for r in model["records"] if r["name"] == t[7:])
        parts = {}
        for f in rec["fields"]:
            default = from_json(f["default"], f["t"])
            strategy = value_strategy(model, f["t"], depth + 1)
            parts[f["name"]] = strategy if f["required"] else st.one_of(st.just(default), strategy)
        return st.fixed_dictionaries(parts)
    raise ValueError(t)


def to_module(module: types.ModuleType, model: dict[str, Any], t: str, value: Any) -> Any:
    """An interpreter value as the generated module's own value (records become dataclasses)."""
    if t.startswith("record "):
        rec = next(r for r in model["records"] if r["name"] == t[7:])
        cls = getattr(module, t[7:]) if hasattr(module, t[7:]) else getattr(module, t[7:] + "_")
        kwargs = {}
        for f in rec["fields"]:
            name = f["name"] if hasattr(cls, f["name"]) else f["name"] + "_"
            kwargs[name] = to_module(module, model, f["t"], value[f["name"]])
        return cls(**kwargs)
    if t.startswith("list of "):
        return tuple(to_module(module, model, t[8:], v) for v in value)
    if t.startswith("set of "):
        return frozenset(to_module(module, model, t[7:], v) for v in value)
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
