"""Golden tests by stage: one folder per case, one expected output per stage of the pipeline.

Each folder tests/golden/<case>/ holds the case's input, rules/**/*.rules, and what each stage
makes of it (see tests/golden/README.md):

    syntax.txt            the syntax tree of every file (rulec.parser), or its syntax error
    diagnostics.txt       every diagnostic as `rulec check` prints it; empty when clean
    ir/<ruleset>.json     the IR of each ruleset as `rulec build` writes it (rulec.ir)
    python/<ruleset>.py   the generated module of each ruleset (rulec.emit_python)

A case with errors stops after diagnostics.txt: it has no ir/ and no python/. Every stage runs in
this process (no `rulec` subprocess), once per case. To accept the current output of every stage
after a deliberate change, run

    python -m pytest tests/test_golden.py --update-golden     (or RULEC_UPDATE_GOLDEN=1)

and read the diff of every golden file before committing it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import functools
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulec.ast import TypeRef
from rulec.build import compile_sources, find_sources, ir_files, python_files
from rulec.cli import main
from rulec.diagnostics import Span
from rulec.parser import parse

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "rules").is_dir())
STAGES = ["syntax", "diagnostics", "ir", "python"]
HOW_TO_UPDATE = "python -m pytest tests/test_golden.py --update-golden   (or RULEC_UPDATE_GOLDEN=1)"


@pytest.fixture
def update(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden", default=False)) \
        or os.environ.get("RULEC_UPDATE_GOLDEN") == "1"


# ---- the syntax tree as text ------------------------------------------------------------


def span_text(span: Span) -> str:
    return f"{span.line}:{span.col}-{span.end_line}:{span.end_col}"


def type_text(t: TypeRef) -> str:
    """A type as written: number, Unit, list of number."""
    if t.item is not None:
        return f"{t.kind} of {type_text(t.item)}"
    return t.name or t.kind


def scalar(value: Any) -> str | None:
    """A value shown on one line, or None for a node or a tuple holding nodes."""
    if isinstance(value, Span):
        return span_text(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Fraction)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, TypeRef):
        return f"TypeRef @{span_text(value.span)} {type_text(value)}"
    if isinstance(value, tuple) and all(scalar(v) is not None for v in value):
        return "[" + ", ".join(scalar(v) or "" for v in value) + "]"
    return None


def shown_fields(node: Any) -> list[tuple[str, Any]]:
    """A node's fields but its span, leaving out those left empty (None, "", ())."""
    return [(f.name, getattr(node, f.name)) for f in dataclasses.fields(node)
            if f.name != "span" and getattr(node, f.name) not in (None, "", ())]


def dump_node(node: Any, depth: int, label: str = "") -> list[str]:
    """A node as `Kind @line:col-line:col`, then its fields: all on one line when none holds a node,
    else one line per field, a node inside indented under its field's name."""
    pad = "  " * depth
    if isinstance(node, tuple):  # a record literal's field: (name, value, span)
        lines = [pad + label + " ".join(s for s in map(scalar, node) if s is not None)]
        return lines + [line for part in node if scalar(part) is None for line in dump_node(part, depth + 1)]
    span = getattr(node, "span", None)
    head = pad + label + type(node).__name__ + (f" @{span_text(span)}" if span is not None else "")
    fields = shown_fields(node)
    if all(scalar(v) is not None for _, v in fields):
        return [head + "".join(f" {name}={scalar(v)}" for name, v in fields)]
    lines = [head]
    for name, value in fields:
        if scalar(value) is not None:
            lines.append(f"{pad}  {name}: {scalar(value)}")
        elif isinstance(value, tuple):
            lines.append(f"{pad}  {name}:")
            for item in value:
                lines += dump_node(item, depth + 2, "- ")
        else:
            lines += dump_node(value, depth + 1, f"{name}: ")
    return lines


def syntax_text(sources: dict[str, str]) -> str:
    """Every file's syntax tree, file by file; a file that does not parse says so (its mistakes
    are in diagnostics.txt)."""
    out: list[str] = []
    for name in sorted(sources):
        tree, diags = parse(sources[name], name)
        out.append(f"== {name}")
        if tree is None:
            out.append(f"(no syntax tree: {len(diags)} syntax error{'s' * (len(diags) != 1)})")
        else:
            for item in tree.items:
                out += dump_node(item, 0)
        out.append("")
    return "\n".join(out)


# ---- every stage of one case ----------------------------------------------------------------


@functools.cache
def run_case(case: str) -> dict[str, str]:
    """Every output of the case by its path in the case folder: syntax.txt, diagnostics.txt and,
    when there is no error, ir/*.json and python/*.py."""
    folder = GOLDEN / case / "rules"
    sources, read_errors = find_sources([folder])  # named rules/... from any working directory
    assert not read_errors
    result = compile_sources(sources)
    rc, diagnostics = rulec_check(folder)
    assert rc == (0 if result.ok else 1), diagnostics
    files = {"syntax.txt": syntax_text(sources), "diagnostics.txt": diagnostics}
    if result.ok:
        for name in sorted(result.models):
            files.update(ir_files(result.models[name]))
            files.update(python_files(result.models[name]))
    return files


def rulec_check(folder: Path) -> tuple[int, str]:
    """`rulec check FOLDER`, in this process: its exit code and what it prints on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["check", str(folder)])
    return rc, err.getvalue()


def stage_files(stage: str, files: dict[str, str]) -> dict[str, str]:
    if stage in ("ir", "python"):
        return {p: t for p, t in files.items() if p.startswith(stage + "/")}
    return {f"{stage}.txt": files[f"{stage}.txt"]}


def golden_files(case: str, stage: str) -> dict[str, str]:
    folder = GOLDEN / case
    if stage in ("ir", "python"):
        paths = sorted((folder / stage).glob("*")) if (folder / stage).is_dir() else []
    else:
        paths = [p for p in [folder / f"{stage}.txt"] if p.exists()]
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in paths}


def write_golden(case: str, stage: str, made: dict[str, str]) -> None:
    """Replace the stage's golden files with what was made: stale files go, an emptied folder too."""
    folder = GOLDEN / case
    for rel in golden_files(case, stage):
        if rel not in made:
            (folder / rel).unlink()
    for rel, text in made.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8", newline="\n")
    if stage in ("ir", "python") and (folder / stage).is_dir() and not any((folder / stage).iterdir()):
        (folder / stage).rmdir()


def mismatch(case: str, expected: dict[str, str], made: dict[str, str]) -> str:
    """A unified diff per golden file that differs, and how to accept the new output."""
    parts = []
    for rel in sorted(set(expected) | set(made)):
        old, new = expected.get(rel), made.get(rel)
        if old == new:
            continue
        where = f"tests/golden/{case}/{rel}"
        diff = difflib.unified_diff((old or "").splitlines(keepends=True), (new or "").splitlines(keepends=True),
                                    fromfile=where if old is not None else "/dev/null",
                                    tofile=f"{where} (now)" if new is not None else "/dev/null")
        parts.append("".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                             for line in diff))
    return "".join(parts) + f"\nIf the new output is right, update the golden files with\n    {HOW_TO_UPDATE}\n"


# ---- the tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("case", CASES)
def test_stage(case: str, stage: str, update: bool) -> None:
    made = stage_files(stage, run_case(case))
    if update:
        write_golden(case, stage, made)
    expected = golden_files(case, stage)
    if expected != made:
        pytest.fail(f"{case}: the {stage} stage's output differs from its golden files\n"
                    + mismatch(case, expected, made), pytrace=False)


def test_cases_are_found() -> None:
    assert len(CASES) >= 11, CASES


def modules() -> list[Path]:
    return sorted(GOLDEN.glob("*/python/*.py"))


def test_module_names_are_unique() -> None:
    """mypy checks every module in one run, and two modules of one name would be one module to it:
    each case names its layers differently from every other case."""
    names = [p.name for p in modules()]
    assert sorted(names) == sorted(set(names)), [n for n in names if names.count(n) > 1]


def test_modules_pass_mypy_strict() -> None:
    paths = modules()
    assert paths
    cache = Path(tempfile.gettempdir()) / f"rulec-golden-mypy-{os.getuid()}"
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
                           str(cache), *map(str, paths)], capture_output=True, text=True, cwd=GOLDEN.parent.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("path", modules(), ids=[f"{p.parent.parent.name}/{p.name}" for p in modules()])
def test_module_imports(path: Path) -> None:
    name = f"_golden_{path.parent.parent.name.replace('-', '_')}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    assert module.RULESET.lower() == path.stem
