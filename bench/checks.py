"""Check speed: the generated OCS module against the hand-written baselines, the reference
interpreter and rule-engine, on the same realistic states; and the same module compiled by mypyc
(`rulec build --compiled`), where this machine can compile it."""

from __future__ import annotations

import atexit
import importlib.util
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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


def load_compiled(ruleset: str = "ocs", folder: Path = ROOT / "generated" / "python",
                  progress: Callable[[str], None] | None = None) -> ModuleType | str:
    """The generated module compiled by mypyc as `rulec build --compiled` does, through the build
    cache (.rulec-cache/compiled/: compiled once, then found), imported from a temporary folder; or
    why it cannot be (no mypyc, no C compiler)."""
    from rulec import compiled

    missing = compiled.missing_tools()
    if missing is not None:
        return missing
    rel = f"python/{ruleset}.py"
    try:
        made = compiled.extensions({rel: (folder / f"{ruleset}.py").read_text(encoding="utf-8")},
                                   cache=ROOT / ".rulec-cache", progress=progress)
    except compiled.CompileError as e:
        return str(e).splitlines()[0]
    where = Path(tempfile.mkdtemp(prefix="rulec-bench-"))
    atexit.register(shutil.rmtree, where, True)
    path = where / compiled.compiled_path(rel).rsplit("/", 1)[-1]
    path.write_bytes(made[compiled.compiled_path(rel)])
    name = f"{ruleset}{compiled.SUFFIX}"  # an extension is imported under its own name
    spec = importlib.util.spec_from_file_location(name, path)
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
    missing: dict[str, str] = field(default_factory=dict)  # an implementation not measured here, and why


IMPLS = ("generated", "hand-written", "compiled", "hand-written (Fraction)", "interpreter", "rule-engine")


def build_checks(quick: bool, progress: Callable[[str], None] | None = None) -> list[Check]:
    from rulec.interp import Interpreter

    from . import with_rule_engine as rex

    ocs = load_module()
    fast = load_compiled(progress=progress)
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
    for check in checks:  # the compiled module on the same states, made of its own records
        if isinstance(fast, str):
            check.missing["compiled"] = fast
            continue
        fn, cases = check.impls["generated"]
        check.impls["compiled"] = (getattr(fast, fn.__name__), _rebuilt(fast, cases))
    return checks


def _rebuilt(module: ModuleType, cases: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The cases with each record made again as the module's own (a compiled function takes only its
    module's records)."""
    def value(v: Any) -> Any:
        if hasattr(v, "__dataclass_fields__"):
            return getattr(module, type(v).__name__)(**{f: value(getattr(v, f)) for f in v.__dataclass_fields__})
        if isinstance(v, tuple):
            return tuple(value(x) for x in v)
        return v

    return [tuple(value(a) for a in case) for case in cases]


def measure(checks: list[Check], quick: bool, progress: Callable[[str], None]) -> dict[str, dict[str, Sample | str]]:
    """Each check's implementations measured in turn, round after round (timing.interleaved); one
    not measured here is the text saying why."""
    repeats = 7 if quick else 21
    budget = 0.004 if quick else 0.03
    out: dict[str, dict[str, Sample | str]] = {}
    for check in checks:
        progress(f"check {check.name}")
        timers = {impl: CallTimer(fn, cases, budget) for impl, (fn, cases) in check.impls.items()}
        slow = {"interpreter", "rule-engine"}
        found: dict[str, Sample | str] = {**interleaved(timers, {i: max(3, repeats // 3) if i in slow else repeats
                                                                 for i in timers}), **check.missing}
        out[check.name] = {i: found[i] for i in IMPLS if i in found}
    return out
