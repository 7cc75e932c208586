"""compiler/ holds no branch named after a game or a rule number: every game is data in rules/."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from conftest import ROOT

from rulec import ir

COMPILER = ROOT / "compiler"


def _names_and_numbers(shipped: Any) -> tuple[set[str], set[str]]:
    layers: set[str] = set()
    numbers: set[str] = set()
    for model in map(ir.of, shipped.models.values()):
        layers |= {name.lower() for name in model["manifest"]["layers"]}
        layers.add(model["manifest"]["ruleset"].lower())
        numbers |= {c["number"] for c in model["clauses"]} | {x["number"] for x in model["externals"]}
    return layers, {n for n in numbers if "." in n}


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _offences(path: Path, layers: set[str], numbers: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            value = node.value.strip()
            if value.lower() in layers or value in numbers:
                out.append(f"{path.name}:{node.lineno}: the literal {node.value!r}")
        names = []
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
        elif isinstance(node, ast.arg):
            names.append(node.arg)
        for name in names:
            if set(name.lower().split("_")) & layers:
                out.append(f"{path.name}:{node.lineno}: the name {name!r}")
    return out


def test_compiler_names_no_game_and_no_rule_number(shipped: Any) -> None:
    layers, numbers = _names_and_numbers(shipped)
    assert {"ocs", "dak", "zcs", "acw"} <= layers and {"4.5a", "13.2f", "5.A.1"} <= numbers
    offences = [o for path in sorted(COMPILER.rglob("*.py")) for o in _offences(path, layers, numbers)]
    assert offences == []


def test_the_check_finds_a_game_specific_branch(tmp_path: Path, shipped: Any) -> None:
    layers, numbers = _names_and_numbers(shipped)
    bad = tmp_path / "bad.py"
    bad.write_text('def negatable(layer, number):\n    """DAK is special."""\n'
                   '    if layer == "DAK" and number == "4.5a":\n        return False\n'
                   '    is_dak = True\n    return is_dak\n')
    found = sorted(_offences(bad, layers, numbers))
    assert found == ["bad.py:3: the literal '4.5a'", "bad.py:3: the literal 'DAK'", "bad.py:5: the name 'is_dak'",
                     "bad.py:6: the name 'is_dak'"]
