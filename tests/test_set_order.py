"""A set's items are gone over in one order that depends on them alone, in the interpreter and in the
module: `first` over a set of list values answered tired, leg or repl as the process's hash seed fell
(Python keeps a set's text in an order that changes with it), the rules an answer cites came in
that order, and the units a limit counts too. progen found the cites first (seed 1144, program 86:
tests/fixtures/progen/disagree-s1144-86), once `rulec test` compared them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RULES = '''series S "Sets" version "1"

rule 1 "Kinds" {
  enum Kind {
    has tag: bool = false
    has weight: int = 1
    - sp tag
    - tired weight = 2
    - leg
    - repl weight = 3
  }
}

record Box "A box" {
  kinds: set of Kind = {} "Its kinds"
  names: set of text = {} "Its names"
}

rule 2 "Firsts" {
  define first_untagged(h: set of Kind) -> Kind "The first untagged kind" = first(z for z in h where not z.tag)
  define first_name(b: Box) -> text "The first name" = first(n for n in b.names)
  define first_box(bs: set of Box) -> text "The first box's first name" = first(first_name(b) for b in bs)
  define any_small(s: set of number) -> bool "A small one" = any(10 / x < 3 for x in s)
  define weighed(h: set of Kind) -> int "The weight" = sum(k.weight for k in h)
}

rule 3 "Loads" {
  limits load(b: Box) "Loads" {
    heavy "Weight": sum(k.weight for k in b.kinds) at most 2
  }
}
'''

QUERIES = [
    "first_untagged({Kind.repl, Kind.leg, Kind.tired, Kind.sp})",
    'first_name(Box { names: {"zulu", "alpha", "mike", "bravo", "echo"} })',
    'first_box({Box { names: {"zulu"} }, Box { names: {"mike", "yankee"} }, Box { kinds: {leg}, names: {"kilo"} }})',
    "any_small({4, 0, -1})",
    "weighed({Kind.repl, Kind.leg, Kind.tired, Kind.sp})",
    "load(Box { kinds: {repl, leg, tired, sp} })",
]


def _answers(folder: Path, seed: str, module: bool) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = []
    for query in QUERIES:
        done = subprocess.run([sys.executable, "-m", "rulec", "eval", "--json", *(["--module"] if module else []),
                               "--rules", str(folder), "S", query], capture_output=True, text=True, env=env)
        out.append(done.stdout if done.returncode == 0 else done.stderr)
    return out


@pytest.mark.parametrize("module", [False, True], ids=["interpreter", "module"])
def test_an_answer_over_a_set_is_the_same_whatever_the_hash_seed(tmp_path: Path, module: bool) -> None:
    (tmp_path / "s.rules").write_text(RULES, encoding="utf-8")
    runs = {seed: _answers(tmp_path, seed, module) for seed in ("1", "2", "3", "4")}
    assert len({json.dumps(r) for r in runs.values()}) == 1, runs
    first, name, box, small, weight, load = (json.loads(a) for a in runs["1"])
    assert first["value"] == "tired"  # the list's order: sp is tagged
    assert name["value"] == "alpha"  # text by value
    assert box["value"] == "mike"  # records field by field, by name: no kinds first, then ["mike", "yankee"]
    assert small["value"] is True  # -1 comes before 0: any stops there, and 10 / 0 is never asked
    assert weight["value"] == 7
    [violation] = load["value"]
    assert [u for u in violation["units"]] == ["sp", "tired", "leg", "repl"]
    assert [r["item"] for r in first["rules"] if r["clause"] == "1"] == ["sp", "tired"]


def test_both_answer_alike_over_sets() -> None:
    """In one process, the interpreter and the module the examples run on (rulec build's R900)."""
    from conftest import compile_text

    from rulec.analysis import run_examples
    from rulec.crosscheck import load_module
    from rulec.emit_python import emit_python
    examples = "\n".join(f"    expect {q} == {q}" for q in QUERIES[:5])
    result = compile_text(RULES + f'\nrule 4 "Examples" {{\n  example "sets" {{\n{examples}\n  }}\n}}\n')
    assert result.ok, result.diagnostics
    model = result.models["S"]
    [source] = emit_python(model, whole=True).values()
    assert run_examples(model, load_module(source, "S")) == []
