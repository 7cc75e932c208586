"""The Python emitter: standalone, typed, deterministic modules that keep rule text as text."""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys
import types
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, compile_text
from hypothesis import given
from hypothesis import strategies as st

from rulec import model as m
from rulec.emit_python import emit_python
from rulec.evaluate import load_module

HOSTILE_TEXT = 'a """ b \\ c {x} {{y}} d\ne \'); __import__("os").system("touch PWNED"); (\' <script>alert(1)</script>'
HOSTILE = HOSTILE_TEXT.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")  # as a rules string


RULES = f'''
series S "{HOSTILE}" version "{HOSTILE}"
enum Kind "{HOSTILE}" {{
  has big: bool = false "{HOSTILE}"
  - plain "{HOSTILE}"
  - large "Large" big
}}
record Thing "{HOSTILE}" {{
  kind: Kind = plain "{HOSTILE}"
  size: number = 1/2 "{HOSTILE}"
}}
rule 1.1 "{HOSTILE}" {{
  text "{HOSTILE}"
  define f(t: Thing) -> bool "{HOSTILE}" = t.kind.big
  table g(t: Thing) -> number "{HOSTILE}" {{
    half: when t.kind == plain => t.size + 1/4 "{HOSTILE}"
    other: otherwise => 3
  }}
}}
'''


@pytest.fixture(scope="module")
def hostile() -> tuple[m.Resolved, types.ModuleType]:
    result = compile_text(RULES)
    assert result.ok, [d.message for d in result.diagnostics]
    model = result.models["S"]
    return model, load_module(model)


def test_hostile_titles_compile_import_cleanly_and_come_back_verbatim(
        hostile: tuple[m.Resolved, types.ModuleType], tmp_path: Path) -> None:
    model, module = hostile
    assert not Path("PWNED").exists()
    assert module.TITLE == HOSTILE_TEXT
    assert module.SERIES_VERSION == HOSTILE_TEXT
    answer = module.explain_f(module.Thing(kind="large"))
    assert answer.value is True
    assert answer.rules[0].title == HOSTILE_TEXT
    assert module.Kind_titles["plain"] == HOSTILE_TEXT
    assert module.explain_g(module.Thing()).rules[1].title == HOSTILE_TEXT


def test_hostile_module_has_no_side_effect_when_run_as_a_program(
        hostile: tuple[m.Resolved, types.ModuleType], tmp_path: Path) -> None:
    model, _ = hostile
    source = next(iter(emit_python(model).values()))
    path = tmp_path / "s.py"
    path.write_text(source, encoding="utf-8")
    subprocess.run([sys.executable, str(path)], cwd=tmp_path, check=True)
    assert list(tmp_path.iterdir()) == [path]


def test_numbers_are_exact_at_the_boundary(hostile: tuple[m.Resolved, types.ModuleType]) -> None:
    _, module = hostile
    from fractions import Fraction
    assert module.g(module.Thing()) == Fraction(3, 4)
    assert module.g(module.Thing(size=Fraction(1, 3))) == Fraction(7, 12)
    assert module.g(module.Thing(kind="large")) == 3
    assert type(module.g(module.Thing(kind="large"))) is int


@given(st.integers(-10**6, 10**6) | st.fractions(max_denominator=64))
def test_a_field_is_scaled_into_integers_when_it_can_be(x: int | Fraction) -> None:
    """_scaled(x) is x * SCALE, exactly; an int whenever that is whole (a printed 1/2 RE is 2 quarters)."""
    module = _ocs_module()
    found = module._scaled(x)
    assert found == x * module.SCALE
    assert (type(found) is int) == ((x * module.SCALE).denominator == 1)


def test_fractional_fields_are_summed_in_integers(ocs_model: m.Resolved, monkeypatch: pytest.MonkeyPatch) -> None:
    """A multi-step unit printed 1/2 or 3/2 RE: the stacking check adds it to the hex's total and
    re_size works its size out in whole quarters (Fraction arithmetic is tens of times as slow,
    and made the compiled checks no faster than plain Python): no Fraction is added, subtracted or
    multiplied, and the answers are the interpreter's."""
    from rulec.interp import Interpreter

    module = _ocs_module()
    units = [module.Unit(multi_step=True, printed_re=Fraction(n, 2), step_losses=lost)
             for n, lost in [(1, 0), (3, 1), (5, 0)]]
    units += [module.Unit(size="battalion"), module.Unit(), module.Unit(type="hq")] * 3
    units.append(module.Unit(size="battalion"))
    hexes = [module.Hex(units=tuple(units[:k])) for k in range(1, len(units) + 1)]
    interp = Interpreter(ocs_model)
    expected = [interp.call("re_size", [_as_state(u)]) for u in units]
    expected_limits = [[(v["limit"], v["total"]) for v in interp.call("stacking", [_as_state(h)])] for h in hexes]
    done: list[str] = []
    for name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__"):
        real = getattr(Fraction, name)
        monkeypatch.setattr(Fraction, name, lambda a, b, real=real, name=name: done.append(name) or real(a, b))
    sizes = [module.re_size(u) for u in units]
    limits = [[(v.limit, v.total) for v in module.stacking(h)] for h in hexes]
    assert done == []
    monkeypatch.undo()
    assert sizes == expected and sizes[:3] == [Fraction(1, 2), Fraction(1, 2), Fraction(5, 2)]
    assert limits == expected_limits and limits[-1] == [("combat_re", Fraction(23, 2))]


def _as_state(record: Any) -> Any:
    """A record of the module as the interpreter takes it (a dict of its fields)."""
    if hasattr(record, "__dataclass_fields__"):
        return {f: _as_state(getattr(record, f)) for f in record.__dataclass_fields__}
    if isinstance(record, tuple):
        return [_as_state(x) for x in record]
    return record


@functools.cache
def _ocs_module() -> types.ModuleType:
    """The shipped generated/python/ocs.py, imported as it is."""
    spec = importlib.util.spec_from_file_location("rulec_test_ocs", ROOT / "generated" / "python" / "ocs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_generated_modules_pass_mypy_strict(tmp_path: Path) -> None:
    mypy = pytest.importorskip("mypy.api")
    out, err, status = mypy.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path),
                                 str(ROOT / "generated" / "python")])
    assert status == 0, out + err


def test_build_is_byte_identical_across_hash_seeds_and_folders(tmp_path: Path) -> None:
    outs = []
    for i, seed in enumerate(["0", "12345"]):
        cwd = tmp_path / f"run{i}"
        cwd.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "rulec", "build", "--no-print", "--rules", str(ROOT / "rules"),
                        "--out", str(cwd / "out")], cwd=cwd, env=env, check=True, capture_output=True)
        outs.append({p.relative_to(cwd / "out").as_posix(): p.read_bytes()
                     for p in sorted((cwd / "out").rglob("*")) if p.is_file() and "python" in p.parts})
    assert outs[0] == outs[1]
    assert outs[0], "no Python modules were built"


def test_every_module_states_its_manifest() -> None:
    for path in sorted((ROOT / "generated" / "python").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "RULESET: Final" in text and "SERIES_VERSION" in text and "OPTIONS" in text
        assert "import " not in "".join(line for line in text.splitlines()
                                        if line.startswith("import ") and line.split()[1].split(".")[0]
                                        not in {"math"})
        for line in text.splitlines():
            if line.startswith("from ") and " import " in line:
                assert line.split()[1] in {"__future__", "collections.abc", "dataclasses", "fractions", "typing"}


def test_invalid_input_names_the_field_and_the_allowed_values() -> None:
    from compiled import load_generated

    dak = load_generated("DAK")
    with pytest.raises(dak.InvalidInput) as e:
        dak.unit_from_json({"size": "platoon"})
    assert e.value.field == "unit.size"
    assert "battalion" in e.value.allowed
    with pytest.raises(dak.InvalidInput) as e:
        dak.hex_from_json({"units": [{"mode": "sideways"}]})
    assert e.value.field == "hex.units[0].mode"
    with pytest.raises(dak.InvalidInput) as e:
        dak.unit_from_json({"step_losses": "two"})
    assert e.value.field == "unit.step_losses"
    with pytest.raises(dak.InvalidInput) as e:
        dak.unit_from_json({"colour": "red"})
    assert e.value.field == "unit.colour"
    unit = dak.unit_from_json({"size": "battalion", "printed_re": "1/2"})
    assert dak.re_size(unit) == dak.Fraction(1, 2)


def test_invariants_reject_impossible_units_naming_the_field() -> None:
    from compiled import load_generated

    ocs = load_generated("OCS")
    with pytest.raises(ocs.InvalidInput) as e:
        ocs.unit_from_json({"type": "repl", "mode": "combat"})
    assert e.value.field == "unit.mode"
    assert "13.5" in str(e.value) and "combat" not in e.value.allowed and "move" in e.value.allowed
    with pytest.raises(ocs.InvalidInput) as e:
        ocs.unit_from_json({"step_losses": -1})
    assert e.value.field == "unit.step_losses"
    with pytest.raises(ocs.InvalidInput) as e:
        ocs.hex_from_json({"units": [{"type": "transport", "mode": "strat"}]})
    assert e.value.field == "hex.units[0].mode" and e.value.allowed == ("move",)
    assert ocs.unit_from_json({"type": "transport", "mode": "reserve", "organic": True}).mode == "reserve"
    # The fast path does not validate: the invariant is still there to call.
    assert ocs.repl_mode(ocs.Unit(type="repl", mode="combat")) is False


SHADOWING = '''
series S "Shadowing"
enum Kind "Kind" {
  - hq "HQ"
  - truck "Truck"
}
record Unit "A unit" {
  kind: Kind = truck "Kind"
  moving: bool = false "Moving"
}
record Hex "A hex" {
  units: list of Unit = [] "Units"
}
rule 1.1 "Shadowing" {
  text "An HQ in the hex lets a truck load."
  define hq_there(x: Hex) -> bool "An HQ there" = any(u.kind == hq for u in x.units)
  define may_load(u: Unit, x: Hex) -> bool "May it load?" =
    u.kind != hq and (u.moving or u.kind == truck) and hq_there(x)
}
'''


def test_a_generator_variable_named_like_a_parameter_reads_its_own_fields() -> None:
    """may_load reads u.kind twice, so the emitter reads it once into a local; hq_there, written in
    place, has its own u: inside it, u.kind is the unit in the hex, not the parameter."""
    result = compile_text(SHADOWING)
    assert result.ok, [d.message for d in result.diagnostics]
    module = load_module(result.models["S"])
    truck, hq = module.Unit(kind="truck"), module.Unit(kind="hq")
    assert module.may_load(truck, module.Hex(units=(hq,))) is True
    assert module.may_load(truck, module.Hex(units=(truck,))) is False
    assert module.explain_may_load(truck, module.Hex(units=(hq,))).value is True


def test_from_json_refuses_what_would_make_it_work_long_or_crash() -> None:
    """Every refusal is InvalidInput naming the field, in a message of bounded length: a number
    text with a huge exponent hung (Fraction('1e99999999')), a 5,000-digit int raised a bare
    ValueError when shown, a list nested 100,000 deep a RecursionError."""
    from compiled import load_generated

    ocs = load_generated("OCS")
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    for bad in ["1e99999999", "1e3", "NaN", float("nan"), float("inf"), 10 ** 5000, "9" * 1201, "1/0", "1/02",
                "\ud800", deep, {"a": deep}, True, None, "١"]:
        with pytest.raises(ocs.InvalidInput) as e:
            ocs.unit_from_json({"printed_re": bad})
        assert e.value.field == "unit.printed_re"
        assert len(str(e.value)) < 200
    with pytest.raises(ocs.InvalidInput) as e:
        ocs.unit_from_json({"step_losses": 10 ** 5000})
    assert e.value.field == "unit.step_losses" and "too large" in str(e.value)
    with pytest.raises(ocs.InvalidInput) as e:
        ocs.hex_from_json({"units": deep})
    assert e.value.field.startswith("hex.units[0]")
    with pytest.raises(ocs.InvalidInput) as e:
        ocs.unit_from_json({"x" * 10_000: 1})
    assert len(str(e.value)) < 400
    for good, exact in [("1/2", ocs.Fraction(1, 2)), ("2.5", ocs.Fraction(5, 2)), (0.1, ocs.Fraction(1, 10)),
                        ("3", 3), (10 ** 1000, 10 ** 1000)]:
        assert ocs.unit_from_json({"printed_re": good}).printed_re * 1 == exact


def test_the_modules_and_the_state_schema_bound_numbers_alike() -> None:
    from compiled import load_generated

    from rulec.state_schema import MAX_DIGITS

    assert load_generated("OCS")._MAX_DIGITS == MAX_DIGITS


def _statements_by_ast(text: str) -> list[tuple[int, int, str | None]]:
    """What emit_python._statements finds, as a walk of ast.parse's tree finds it."""
    import ast

    out: list[tuple[int, int, str | None]] = []
    for node in ast.parse(text).body:
        name = None
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        out.append((first, node.end_lineno or node.lineno, name))
    return out


def test_the_top_level_statements_are_found_as_ast_finds_them(hostile: tuple[m.Resolved, types.ModuleType]) -> None:
    """The pruning of unused private code reads a module's top-level statements line by line, not from
    ast.parse (6 s and 800 MB on a 10,000-clause module): the same statements, lines and names, on the
    shipped modules, a module of hostile titles, and code the emitter does not write (decorators,
    else/except clauses, backslashes, chained assignments, strings of several lines)."""
    from rulec.emit_python import _statements

    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "generated" / "python").glob("*.py"))]
    texts += [*emit_python(hostile[0], whole=True).values()]
    texts.append('"""Doc\nat column 0\n"""\n\n@dataclass(\n    frozen=True,\n)\nclass A:\n    x: int = 1\n'
                 "    # a comment at its end\n\n\ntry:\n    import z\nexcept ImportError:\n    z = None\nelse:\n"
                 "    pass\n_a = _b = 1\n_c = d['k'] = 2\n_e = lambda x=1: x\n_f = \\\n    3\n_g: int\n"
                 "_h = '''\n_i = 4\n'''  # 'q' # \"\"\"\n_j = (1 if _a == 2 else\n3)\n"
                 "async def k() -> None:\n    pass\n")
    for text in texts:
        assert _statements(text) == _statements_by_ast(text)


def test_trimmed_joins_the_lines_as_trimming_them_whole_would() -> None:
    """The module's lines are joined a thousand at a time as they are let go (a 10,000-clause
    module's list took 59 MB): the text is the same as trimming the whole list, then joining it."""
    import random

    from rulec.emit_python import _trimmed

    def reference(lines: list[str]) -> str:
        out: list[str] = []
        blank = 0
        for ln in lines:
            ln = ln.rstrip()
            blank = blank + 1 if not ln else 0
            if blank <= 2:
                out.append(ln)
        while out and not out[-1]:
            out.pop()
        return "\n".join(out)

    rng = random.Random("trimmed")
    for n in [0, 1, 2, 1023, 1024, 1025, 2048, 3000]:
        for _ in range(5):
            lines = [rng.choice(["", "  ", "x = 1", "    return y  ", "# c"]) for _ in range(n)]
            assert _trimmed(list(lines)) == reference(lines)


def test_only_the_imports_a_module_uses_are_kept() -> None:
    """_used_imports keeps an imported name the module uses as a word of its own, before or after the
    runtime's `Number = ...` line, and drops one that only appears inside longer names."""
    from rulec.emit_python import _used_imports

    head = ("from __future__ import annotations\nimport math\nimport re\n"
            "from typing import Any, Final, cast, Literal\nfrom dataclasses import fields as _record_fields\n")
    rest = ("X: Final = 1\ndef f(a: Any) -> int:\n    return math.floor(a) + castle(a) + Literally\n"
            "def g(r): return _record_fields(r), re_size(r)\n")
    text = head + "\nNumber = int | Fraction\n" + rest
    kept = _used_imports(text).split("\nNumber = int | Fraction\n")[0]
    assert kept.split("\n") == ["from __future__ import annotations", "import math",
                                "from typing import Any, Final", "from dataclasses import fields as _record_fields",
                                ""]
    assert _used_imports(text).endswith(rest)
