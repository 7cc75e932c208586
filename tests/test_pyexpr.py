"""The untraced code the expression compiler writes (compiler/pyexpr.py): the tests a run of
and/or makes of one list value folded into one test, worked out from the rules. The answers and
the rules cited stay the interpreter's; the explain_ twins keep every call."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from conftest import compile_text

from rulec import model as m
from rulec.emit_python import emit_python
from rulec.evaluate import load_module
from rulec.interp import Interpreter

FOLDS = '''
series S "S" version "1"
enum Kind "Kind" {
  has big: bool = false "Big"
  - a "A" big
  - b "B" big
  - c "C"
  - d "D" big
  - e "E"
}
enum Mode "Mode" {
  - on "On"
  - off "Off"
  - half "Half"
}
record Thing "Thing" {
  kind: Kind = a "Kind"
  mode: Mode = on "Mode"
  ready: bool = false "Ready"
  size: number = 1 "Size"
}
rule 1.1 "Folds" {
  text "Tests of one list value."
  define big(t: Thing) -> bool "Big" = t.kind.big
  define both(t: Thing) -> bool "Both" =
    big(t) and t.ready and t.kind != a and t.mode == on and t.mode not in {off, half}
  define either(t: Thing) -> bool "Either" = t.kind == c or t.ready or t.kind == e or t.kind == d
  define never(t: Thing) -> bool "Never" = big(t) and t.ready and t.kind in {c, e}
  define always(t: Thing) -> bool "Always" = t.ready or big(t) or t.kind in {c, e}
  define implied(t: Thing) -> bool "Implied" = t.kind == b and t.ready and t.kind.big
  define risky(t: Thing) -> bool "Risky" = t.kind != a and 1 / t.size > 0 and t.kind != b
  define flagged(t: Thing, go: bool) -> bool "Flagged" = t.kind.big and t.ready and not go
  define flagged_risky(t: Thing, go: bool) -> bool "Flagged, risky" = 1 / t.size > 0 and go
}
'''

CHECKS = ["big", "both", "either", "never", "always", "implied", "risky"]


@pytest.fixture(scope="module")
def compiled() -> tuple[m.Resolved, str, Any]:
    result = compile_text(FOLDS)
    assert result.ok, [d.message for d in result.diagnostics]
    model = result.models["S"]
    return model, next(iter(emit_python(model).values())), load_module(model)


def body(source: str, name: str) -> str:
    """The statements of one generated function, docstring and comments left out."""
    match = re.search(rf"^def {name}\(.*?\n((?:    .*\n)+)", source, re.M)
    assert match, name
    lines = [x.strip() for x in match.group(1).splitlines()]
    return "\n".join(x for x in lines[1:] if not x.startswith("#"))


def constant(source: str, name: str) -> str:
    match = re.search(rf"^{name}: Final(?:\[.*?\])? = (.*)$", source, re.M)  # sets are annotated
    assert match, name
    return match.group(1)


def test_tests_of_one_list_value_become_one_test(compiled: tuple[m.Resolved, str, Any]) -> None:
    _, source, _ = compiled
    code = body(source, "both")
    assert code.count("t.kind") == 1 and code.count("t.mode") == 1, code
    assert "t.mode == 'on'" in code  # mode == on implies mode not in {off, half}: that test is gone
    (kinds,) = re.findall(r"t\.kind in (_SET_\w+)", code)
    assert constant(source, kinds) == "frozenset({'b', 'd'})"  # big, and not a
    assert body(source, "implied") == "return t.kind == 'b' and t.ready"


def test_a_run_of_or_folds_to_the_values_any_test_passes(compiled: tuple[m.Resolved, str, Any]) -> None:
    _, source, _ = compiled
    code = body(source, "either")  # c, d or e: written as the shorter set, not a or b
    (kinds,) = re.findall(r"t\.kind not in (_SET_\w+)", code)
    assert constant(source, kinds) == "frozenset({'a', 'b'})"
    assert code.count("t.kind") == 1, code


def test_a_fold_no_value_passes_decides_the_run(compiled: tuple[m.Resolved, str, Any]) -> None:
    _, source, _ = compiled
    assert body(source, "never") == "return False"
    assert body(source, "always") == "return True"


def test_no_fold_where_a_test_can_raise(compiled: tuple[m.Resolved, str, Any]) -> None:
    _, source, _ = compiled
    code = body(source, "risky")  # 1 / t.size is tested between them, as the rules read
    assert re.search(r"kind != 'a' and _div\(1, t\.size\) > 0 and \(\w+ != 'b'\)", code), code


def test_a_bool_parameter_is_tested_first_where_nothing_can_raise(compiled: tuple[m.Resolved, str, Any]) -> None:
    model, source, module = compiled
    assert body(source, "flagged") == "return not go and Kind_big[t.kind] and t.ready"
    assert "# rule: t.kind.big and t.ready and not go" in source  # the fast code says it was reordered
    assert body(source, "flagged_risky") == "return _div(1, t.size) > 0 and go"  # 1 / t.size first, as written
    assert body(source, "_t_flagged").endswith("and (not go)"), body(source, "_t_flagged")  # the twin as written
    interp = Interpreter(model)
    for kind, ready, go in itertools.product("abcde", (False, True), (False, True)):
        thing = interp.default_record("Thing", {"kind": kind, "ready": ready, "size": 2})
        expected = interp.call("flagged", [thing, go])
        made = module.Thing(**thing)
        assert module.flagged(made, go) == expected == module.explain_flagged(made, go).value


def test_the_explain_twins_keep_every_call(compiled: tuple[m.Resolved, str, Any]) -> None:
    _, source, _ = compiled
    assert "_t_big(t, _t)" in body(source, "_t_both")


def test_folded_checks_give_the_interpreters_answers_and_rules(compiled: tuple[m.Resolved, str, Any]) -> None:
    model, _, module = compiled
    interp = Interpreter(model)
    for kind, mode, ready in itertools.product("abcde", ("on", "off", "half"), (False, True)):
        thing = interp.default_record("Thing", {"kind": kind, "mode": mode, "ready": ready, "size": 2})
        for check in CHECKS:
            interp.trace.clear()
            expected = interp.call(check, [thing])
            answer = getattr(module, f"explain_{check}")(module.Thing(**thing))
            assert getattr(module, check)(module.Thing(**thing)) == expected == answer.value, (check, thing)
            assert [(c.clause, c.item) for c in answer.rules] == [(c.clause, c.item) for c in interp.trace]
