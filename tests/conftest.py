"""Shared helpers: compile rules text held in a test, and the shipped rules tree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulec import ir
from rulec import model as m
from rulec.build import Result, compile_sources, find_sources

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"


def compile_text(*texts: str) -> Result:
    """Compile rules given as text, one file each (t0.rules, t1.rules, ...)."""
    return compile_sources({f"t{i}.rules": t for i, t in enumerate(texts)})


def member(model: dict[str, Any], enum: str, name: str) -> dict[str, Any]:
    """One value of a list in a resolved model."""
    for e in model["enums"]:
        if e["name"] == enum:
            for m in e["members"]:
                if m["name"] == name:
                    return m
    raise KeyError((enum, name))


def codes(result: Result) -> list[str]:
    return [d.code for d in result.diagnostics]


@pytest.fixture(scope="session")
def shipped() -> Result:
    sources, errors = find_sources([RULES])
    assert not errors
    result = compile_sources(sources)
    assert result.ok, "\n".join(d.render(result.sources) for d in result.diagnostics)
    return result


@pytest.fixture(scope="session")
def dak(shipped: Result) -> dict[str, Any]:
    """DAK's IR document (shipped.models["DAK"] is its typed model)."""
    return ir.of(shipped.models["DAK"])


@pytest.fixture(scope="session")
def ocs(shipped: Result) -> dict[str, Any]:
    """OCS's IR document (shipped.models["OCS"] is its typed model)."""
    return ir.of(shipped.models["OCS"])


@pytest.fixture(scope="session")
def dak_model(shipped: Result) -> m.Resolved:
    """DAK's typed model."""
    return shipped.models["DAK"]


@pytest.fixture(scope="session")
def ocs_model(shipped: Result) -> m.Resolved:
    """OCS's typed model."""
    return shipped.models["OCS"]


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under folder, by its path from there (a/b.txt), with its bytes: two builds' folders
    compared with == are reported as the files that differ (pytest_assertrepr_compare, below)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="tests/test_golden.py: write every stage's output as its golden file")


def pytest_assertrepr_compare(op: str, left: object, right: object) -> list[str] | None:
    """Two folders' files ({path: bytes}, as the tests snapshot them) compared with ==: say which files
    differ, their sizes and where they first differ, instead of printing every file's bytes."""
    if op != "==" or not (_is_files(left) and _is_files(right)):
        return None
    assert isinstance(left, dict) and isinstance(right, dict)
    lines = ["the two folders' files differ:"]
    for name in sorted(set(left) | set(right), key=str):
        a, b = left.get(name), right.get(name)
        if a is None or b is None:
            lines.append(f"  {name}: only on the {'right' if a is None else 'left'}")
        elif a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            lines.append(f"  {name}: {len(a)} bytes against {len(b)}, first different at byte {at}: "
                         f"{a[max(0, at - 20):at + 40]!r} against {b[max(0, at - 20):at + 40]!r}")
    return lines


def _is_files(x: object) -> bool:
    """A folder's files as files_of gives them: paths to bytes (a dict of texts keeps pytest's own report)."""
    return (isinstance(x, dict) and bool(x)
            and all(isinstance(k, str | Path) and isinstance(v, bytes) for k, v in x.items()))
