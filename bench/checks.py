"""Check speed: the generated OCS module against the hand-written baselines, the reference
interpreter and rule-engine, on the same realistic states."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import baselines, states
from .timing import CallTimer, Sample, interleaved

if TYPE_CHECKING:
    from rulec.model import Resolved

ROOT = Path(__file__).resolve().parent.parent


def load_module(ruleset: str = "ocs", folder: Path = ROOT / "generated" / "python") -> ModuleType:
    """A generated check module, imported from its file (generated/ is not a package)."""
    name = f"_bench_{ruleset}"
    spec = importlib.util.spec_from_file_location(name, folder / f"{ruleset}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_model(ruleset: str = "OCS") -> Resolved:
    from rulec.build import compile_sources, find_sources

    sources, _ = find_sources([ROOT / "rules"])
    result = compile_sources(sources)
    return result.models[ruleset]


@dataclass
class Check:
    """One benchmarked check: its implementations, each with the cases it is called on."""

    name: str
    rule: str
    impls: dict[str, tuple[Callable[..., Any], Sequence[tuple[Any, ...]]]]


IMPLS = ("generated", "hand-written", "hand-written (Fraction)", "interpreter", "rule-engine")


def build_checks(quick: bool) -> list[Check]:
    from rulec.interp import Interpreter

    from . import with_rule_engine as rex

    ocs = load_module()
    model = load_model()
    interp = Interpreter(model)

    def interpreted(fn: str) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            interp.trace.clear()
            return interp.call(fn, list(args))
        return run

    n_units = 200 if quick else 1000
    n_hexes = 40 if quick else 200
    slow = 10 if quick else 50  # cases for the interpreted engines, ~1000 times slower
    units = states.units(ocs, n_units)
    unit_dicts = [states.as_dict(u) for u in units]
    ezoc = states.ezoc_cases(ocs)
    checks = [
        Check("ezoc_allows", "4.5a", {
            "generated": (ocs.ezoc_allows, ezoc),
            "hand-written": (baselines.ezoc_allows, ezoc),
            "interpreter": (interpreted("ezoc_allows"), ezoc),
            "rule-engine": (rex.ezoc_allows, [({"action": a, "negated": n},) for a, n in ezoc]),
        }),
        Check("has_zoc", "4.5", {
            "generated": (ocs.has_zoc, [(u,) for u in units]),
            "hand-written": (baselines.has_zoc, [(u,) for u in units]),
            "interpreter": (interpreted("has_zoc"), [(d,) for d in unit_dicts[:slow]]),
            "rule-engine": (rex.has_zoc, [(rex.state(d),) for d in unit_dicts[:slow]]),
        }),
        Check("re_size", "4.6", {
            "generated": (ocs.re_size, [(u,) for u in units]),
            "hand-written": (baselines.re_size, [(u,) for u in units]),
            "interpreter": (interpreted("re_size"), [(d,) for d in unit_dicts[:slow]]),
            "rule-engine": (rex.re_size, [(rex.state(d),) for d in unit_dicts[:slow]]),
        }),
    ]
    for stack in (1, 4, 12):
        hexes = states.hexes(ocs, stack, n_hexes)
        dicts = [states.as_dict(h) for h in hexes]
        few = max(4, slow // (stack if stack > 1 else 1))
        checks.append(Check(f"stacking, {stack} unit{'s' if stack > 1 else ''}", "4.8", {
            "generated": (ocs.stacking, [(h,) for h in hexes]),
            "hand-written": (baselines.stacking, [(h,) for h in hexes]),
            "hand-written (Fraction)": (baselines.stacking_fraction, [(h,) for h in hexes]),
            "interpreter": (interpreted("stacking"), [(d,) for d in dicts[:few]]),
            "rule-engine": (rex.stacking, [(rex.state(d),) for d in dicts[:few]]),
        }))
    return checks


def measure(checks: list[Check], quick: bool, progress: Callable[[str], None]) -> dict[str, dict[str, Sample]]:
    """Each check's implementations measured in turn, round after round (timing.interleaved)."""
    repeats = 7 if quick else 21
    budget = 0.004 if quick else 0.03
    out: dict[str, dict[str, Sample]] = {}
    for check in checks:
        progress(f"check {check.name}")
        timers = {impl: CallTimer(fn, cases, budget) for impl, (fn, cases) in check.impls.items()}
        slow = {"interpreter", "rule-engine"}
        out[check.name] = interleaved(timers, {i: max(3, repeats // 3) if i in slow else repeats for i in timers})
    return out
