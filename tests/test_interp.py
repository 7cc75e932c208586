"""The reference interpreter over the typed model (compiler/interp.py).

While the later stages move to the typed model (#13), the interpreter over IR dicts
(compiler/interp_ir.py) still answers for them: both must give the same value and cite the same
rules for every step of every worked example of the shipped rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from compiler import interp, interp_ir, ir
from compiler import model as m
from compiler.build import Result


@pytest.mark.parametrize("ruleset", ["OCS", "DAK", "DAK_fog", "ZCS", "ACW"])
def test_both_interpreters_agree_on_every_example(shipped: Result, ruleset: str) -> None:
    model = shipped.models[ruleset]
    doc = ir.of(model)
    assert len(model.examples) == len(doc["examples"]) > 0
    for ex, ex_ir in zip(model.examples, doc["examples"], strict=True):
        typed_env: dict[str, Any] = {}
        ir_env: dict[str, Any] = {}
        for step, step_ir in zip(ex.steps, ex_ir["steps"], strict=True):
            a, b = interp.Interpreter(model), interp_ir.Interpreter(doc)
            if isinstance(step, m.LetStep):
                typed_env[step.name] = a.eval(step.value, typed_env)
                ir_env[step.name] = b.eval(step_ir["value"], ir_env)
                assert typed_env[step.name] == ir_env[step.name]
            else:
                with interp.budget():
                    got, want = a.eval(step.expr, typed_env), b.eval(step_ir["expr"], ir_env)
                assert got == want and type(got) is type(want), f"{ex.origin.file}:{step.origin.line}"
            assert a.trace == b.trace, f"{ex.origin.file}:{ex.origin.line}"


def test_closure_keys_follow_content_not_identity(shipped: Result) -> None:
    """A table a game takes unchanged from its series has one key in both; a changed one does not."""
    ocs, dak = shipped.models["OCS"], shipped.models["DAK"]
    a, b = interp.Interpreter(ocs), interp.Interpreter(dak)
    keys_a = {t.name: a.closure_key(t) for t in ocs.tables}
    keys_b = {t.name: b.closure_key(t) for t in dak.tables}
    shared = set(keys_a) & set(keys_b)
    assert shared
    assert any(keys_a[n] != keys_b[n] for n in shared)  # DAK changes re_size (or what it reads)
    assert all(a.closure_key(t) == keys_a[t.name] for t in ocs.tables)  # stable
