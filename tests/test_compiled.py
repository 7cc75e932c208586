"""rulec build --compiled: each generated module also compiled by mypyc into a C extension beside it,
which answers as the pure module and the reference interpreter do: the same values, the same rules
cited, the same would_change and explanation, on random game states drawn from the rules' own types.

The shipped rules are compiled once a session (the fixture below), through the build cache
(.rulec-cache/compiled/): from nothing that takes about four minutes (DAK, DAK_fog and OCS a
minute each, one at a time), then a few seconds while the modules do not change; CI's
`rulec build --compiled` step fills the cache first. Without mypyc or a C compiler the tests that
need them skip, saying why; under CI (RULEC_CI=1) they fail instead."""

from __future__ import annotations

import os
import tempfile
import time
import types
from pathlib import Path
from typing import Any

import pytest
from compiled import load_file, plain, to_module, value_strategy
from conftest import ROOT, RULES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import Check, _cases, checks, run_compiled, run_interpreter

from rulec import compiled
from rulec.cli import main

MINIMAL = ROOT / "tests" / "golden" / "minimal-series" / "rules"  # one small ruleset: compiles in seconds


def need_tools() -> None:
    """Skip, saying what is missing, where mypyc or a C compiler is; under CI, fail instead."""
    missing = compiled.missing_tools()
    if missing is None:
        return
    if os.environ.get("RULEC_CI") == "1":
        pytest.fail(f"RULEC_CI=1, so the compiled build must run here: {missing}")
    pytest.skip(missing)


def load_extension(path: Path) -> types.ModuleType:
    """A compiled module, imported from its file under its own name (an extension's init function
    is named for it: ocs_c)."""
    return load_file(path, path.name.split(".", 1)[0])


def load_pure(path: Path) -> types.ModuleType:
    return load_file(path, f"_rulec_pure_{path.stem}_{abs(hash(str(path)))}")


class Built:
    """The shipped rules built with --compiled into a temporary folder: each ruleset's pure module
    and its compiled twin, loaded."""

    def __init__(self, out: Path, seconds: float):
        self.out, self.seconds = out, seconds
        self.pure: dict[str, types.ModuleType] = {}
        self.compiled: dict[str, types.ModuleType] = {}

    def modules(self, ruleset: str) -> tuple[types.ModuleType, types.ModuleType]:
        name = ruleset.lower()
        if name not in self.pure:
            self.pure[name] = load_pure(self.out / "python" / f"{name}.py")
            self.compiled[name] = load_extension(self.out / compiled.compiled_path(f"python/{name}.py"))
        return self.pure[name], self.compiled[name]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    need_tools()
    out = tmp_path_factory.mktemp("compiled") / "generated"
    started = time.perf_counter()
    rc = main(["build", "--compiled", "--jobs", "2", "--no-print", "--rules", str(RULES), "--out", str(out),
               "--cache", str(ROOT / ".rulec-cache")])
    assert rc == 0
    return Built(out, time.perf_counter() - started)


def test_every_module_has_a_compiled_twin_beside_it(built: Built) -> None:
    names = sorted(p.stem for p in (built.out / "python").glob("*.py"))
    assert names == ["acw", "dak", "dak_fog", "ocs", "zcs"]
    for name in names:
        pure, fast = built.modules(name)
        assert fast.__file__ == str(built.out / "python" / f"{name}_c{compiled.EXTENSION}")
        assert type(fast.from_json).__name__ == "builtin_function_or_method"  # compiled code, not a Python function
        assert type(pure.from_json).__name__ == "function"
        assert (fast.RULESET, fast.RULESET_HASH, fast.__all__) == (pure.RULESET, pure.RULESET_HASH, pure.__all__)
    # no build junk: the extensions are compiled elsewhere and only they are added
    made = sorted(p.relative_to(built.out).as_posix() for p in built.out.rglob("*") if p.suffix in (".so", ".c", ".o"))
    assert made == [f"python/{n}_c{compiled.EXTENSION}" for n in names]
    assert not [p for p in built.out.rglob("*") if p.name in ("build", ".mypy_cache")]


def test_the_answer_class_works_compiled(built: Built) -> None:
    """Answer is a frozen, generic dataclass, which mypyc cannot compile (its issue 827): it stays a
    Python class inside the compiled module, and behaves as the pure module's does."""
    import dataclasses

    pure, fast = built.modules("OCS")
    for module in (pure, fast):
        answer = module.explain_ezoc_allows("F", True)
        assert answer.value is True and dataclasses.is_dataclass(answer)
        with pytest.raises(dataclasses.FrozenInstanceError):
            answer.value = False
        assert answer == module.explain_ezoc_allows("F", True) and hash(answer)
    assert pure.explain_ezoc_allows("F", False).explanation == fast.explain_ezoc_allows("F", False).explanation


def run_answer(module: Any, d: Check, args: list[Any]) -> tuple[Any, ...]:
    """What the module answers beyond run_compiled's value and rules: would_change and the explanation."""
    name = d.name if hasattr(module, d.name) else d.name + "_"
    try:
        answer = getattr(module, f"explain_{name}")(*args)
    except module.RuleError as e:
        return ("error", str(e))
    return answer.would_change, answer.explanation


@pytest.mark.parametrize(("ruleset", "check"), _cases())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_compiled_agrees_with_the_pure_module_and_the_interpreter(shipped: Any, built: Built, ruleset: str,
                                                                  check: str, data: Any) -> None:
    model = shipped.models[ruleset]
    pure, fast = built.modules(ruleset)
    d = next(x for x in checks(model) if x.name == check)
    params = [p.t for p in d.params]
    args = data.draw(st.tuples(*(value_strategy(model, t) for t in params)))
    expected = run_interpreter(model, d.name, list(args))
    pure_args = [to_module(pure, model, t, a) for t, a in zip(params, args, strict=True)]
    fast_args = [to_module(fast, model, t, a) for t, a in zip(params, args, strict=True)]
    got = run_compiled(fast, d, fast_args)
    assert got[0] == expected[0], f"{d.name}{args}: {got[0]} != {expected[0]}"
    assert plain(got[1]) == plain(expected[1]), f"{d.name}{args}"
    assert got[2] == expected[2], f"{d.name}{args}: rules differ"
    mine = run_compiled(pure, d, pure_args)
    assert (mine[0], plain(mine[1]), mine[2]) == (got[0], plain(got[1]), got[2])
    assert run_answer(fast, d, fast_args) == run_answer(pure, d, pure_args), f"{d.name}{args}"


def test_compiled_records_check_their_input_as_the_pure_ones(built: Built) -> None:
    pure, fast = built.modules("OCS")
    for module in (pure, fast):
        with pytest.raises(module.InvalidInput, match="Unit.mode: 'flying' is not one of the values"):
            module.Unit(mode="flying")
        unit = module.from_json("Unit", {"type": "hq", "mode": "combat", "printed_re": "1/2"})
        assert module.to_json(unit) == pure.to_json(pure.from_json("Unit", module.to_json(unit)))


def test_the_comparison_can_fail(built: Built, shipped: Any) -> None:
    """A compiled module whose answer is wrong is caught: the pure module's answer to other rules
    differs from the compiled one's."""
    model = shipped.models["DAK"]
    _, fast = built.modules("DAK")
    ocs, _ = built.modules("OCS")
    d = next(x for x in checks(model) if x.name == "ezoc_allows")
    # DAK changes 4.5a: the compiled DAK and the pure OCS answer differently, and the test sees it
    args = next(a for a in fast.EzocAction_values if fast.ezoc_allows(a, True) != ocs.ezoc_allows(a, True))
    assert run_compiled(fast, d, [args, True]) != run_compiled(ocs, d, [args, True])


def test_the_benchmark_gives_the_compiled_module_its_own_records(built: Built) -> None:
    """bench/checks.py calls the compiled module on the benchmark's states made again of its records:
    the same answers as the pure module's on the originals."""
    from bench import states
    from bench.checks import _rebuilt

    pure, fast = built.modules("OCS")
    units = [(u,) for u in states.units(pure, 300, seed=7)]
    hexes = [(h,) for stack in (1, 4, 12) for h in states.hexes(pure, stack, 40, seed=11)]
    for name, cases in (("has_zoc", units), ("re_size", units), ("stacking", hexes),
                        ("ezoc_allows", states.ezoc_cases(pure))):
        rebuilt = _rebuilt(fast, cases)
        assert all(type(a).__module__ == fast.__name__ for case in rebuilt for a in case
                   if hasattr(a, "__dataclass_fields__"))
        for case, mine in zip(cases, rebuilt, strict=True):
            assert plain(getattr(fast, name)(*mine)) == plain(getattr(pure, name)(*case)), (name, case)
    assert any(pure.stacking(*h) for h in hexes)  # some stacks break a limit, so Violations are compared too


def test_a_missing_c_compiler_is_said_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    out = tmp_path / "generated"
    rc = main(["build", "--compiled", "--no-print", "--rules", str(MINIMAL), "--out", str(out), "--no-cache"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "rulec build --compiled needs a C compiler" in err and "apt-get install gcc python3-dev" in err
    assert "Traceback" not in err and not out.exists()


def test_missing_mypyc_is_said_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(compiled, "_found", lambda module: module != "mypyc")
    rc = main(["build", "--compiled", "--no-print", "--rules", str(MINIMAL), "--out", str(tmp_path / "g"),
               "--no-cache"])
    err = capsys.readouterr().err
    assert rc == 1 and "needs mypyc, which is not installed: pip install 'rulec[compiled]'" in err
    assert "Traceback" not in err


def test_a_failed_compile_leaves_the_output_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    need_tools()
    out = tmp_path / "generated"
    assert main(["build", "--no-print", "--rules", str(MINIMAL), "--out", str(out), "--no-cache"]) == 0
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    left = set(Path(tempfile.gettempdir()).glob("rulec-mypyc-*"))
    monkeypatch.setenv("CC", "false")  # found, and fails on every file
    rc = main(["build", "--compiled", "--no-print", "--rules", str(MINIMAL), "--out", str(out), "--no-cache"])
    err = capsys.readouterr().err
    assert rc == 1 and "mypyc could not compile python/min.py" in err and "was left as it was" in err
    assert "Traceback" not in err
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()} == before
    assert set(Path(tempfile.gettempdir()).glob("rulec-mypyc-*")) == left  # its temporary folder is gone


def test_a_small_ruleset_compiles_and_the_build_stays_checkable(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The whole command on a small ruleset: the extension beside the module, the cache used the
    second time, `--check` passing over the extension, and a plain build satisfied by it."""
    need_tools()
    out, cache = tmp_path / "generated", tmp_path / "cache"
    args = ["build", "--no-print", "--rules", str(MINIMAL), "--out", str(out), "--cache", str(cache)]
    assert main([*args, "--compiled"]) == 0
    so = out / "python" / f"min_c{compiled.EXTENSION}"
    assert so.is_file() and len(list((cache / "compiled").iterdir())) == 1
    assert "1 module compiled with mypyc" in capsys.readouterr().out
    fast = load_extension(so)
    assert fast.RULESET == "MIN"
    assert main([*args, "--check"]) == 0  # the extension is not an output of the rules, and not a difference
    assert main(args) == 0 and "up to date" in capsys.readouterr().out
    so.unlink()  # the output changed: built again, the extension from the cache
    assert main([*args, "--compiled"]) == 0
    assert so.is_file() and "compiling" not in capsys.readouterr().err
    assert main([*args, "--compiled", "--check"]) == 2


def test_compiled_names_do_not_clash() -> None:
    assert compiled.compiled_path("python/ocs.py") == f"python/ocs_c{compiled.EXTENSION}"
    assert compiled.is_compiled(f"python/ocs_c{compiled.EXTENSION}")
    assert compiled.is_compiled("python/ocs_c.cpython-312-x86_64-linux-gnu.so")
    assert not compiled.is_compiled("python/ocs.py") and not compiled.is_compiled("cards/x.so/a.html")
    # a ruleset X and a ruleset X_C: X's extension would hide X_C's module, so neither is compiled
    with pytest.raises(compiled.CompileError, match="would hide the module python/x_c.py: rename one"):
        compiled.extensions({"python/x.py": "", "python/x_c.py": ""})
