"""rulec as a package a designer installs: the built wheel holds one top-level package, `rulec`, with its
grammar, schema and templates, and its command runs from a fresh virtual environment outside the checkout.

The wheel is built without build isolation (the test extra pins the setuptools the pyproject asks for), so
the test needs no network. The fresh environment gets the wheel alone (`--no-deps`); rulec's dependencies
(lark, jinja2, jsonschema, z3) come from this environment's site-packages through a .pth file, which adds
that folder to the path without running its own .pth files, so the editable install of the checkout is
not seen there: what runs is the wheel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(out), str(ROOT)], capture_output=True, text=True)
    if done.returncode != 0 and "No module named" in done.stderr:
        pytest.skip(f"cannot build a wheel here: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stderr
    return out


def _wheel(dist: Path) -> Path:
    wheels = sorted(dist.glob("rulec-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_the_wheel_installs_one_top_level_package(dist: Path) -> None:
    """Nothing but `rulec` at the top (no `compiler/` that another distribution could overwrite, no tests)."""
    with zipfile.ZipFile(_wheel(dist)) as z:
        names = z.namelist()
        top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
        assert top == {"rulec"}, top
        for data in ("rulec/rules.lark", "rulec/schemas/ir.schema.json", "rulec/templates/card.html.j2",
                     "rulec/sheets/__init__.py", "rulec/cli.py"):
            assert data in names, data
        info = next(n for n in names if n.endswith(".dist-info/top_level.txt")) \
            if any(n.endswith("top_level.txt") for n in names) else None
        if info is not None:
            assert z.read(info).decode().split() == ["rulec"]
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        assert "License-Expression: MIT" in meta or "License: MIT" in meta
        assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE")
                   for n in names)
        points = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
        assert "rulec = rulec.cli:run" in points and "rulec = rulec.highlight:RulesLexer" in points


def test_the_sdist_leaves_the_tests_out(tmp_path: Path) -> None:
    """An sdist ships the package and what builds it, not tests that could not run without the checkout."""
    done = subprocess.run([sys.executable, "-c", "from setuptools import build_meta as b; import sys; "
                           f"print(b.build_sdist({str(tmp_path)!r}))"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    sdist = tmp_path / done.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as t:
        names = [n.split("/", 1)[1] for n in t.getnames() if "/" in n]
    assert "compiler/rules.lark" in names and "LICENSE" in names and "pyproject.toml" in names
    assert not [n for n in names if n.startswith(("tests/", "bench/", "generated/", ".ci/"))]


@pytest.fixture(scope="module")
def fresh(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment outside the checkout with the wheel installed."""
    env = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    purelib = Path(subprocess.run([str(env / "bin" / "python"), "-c",
                                   "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    (purelib / "rulec-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install", "-q",
                           "--no-deps", "--no-index", str(_wheel(dist))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return env


def _run(env: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(env / "bin" / "rulec"), *args], cwd=cwd, capture_output=True, text=True,
                          env=clean, timeout=300)


def test_the_installed_command_runs_from_the_wheel(fresh: Path, tmp_path: Path) -> None:
    version = _run(fresh, "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("rulec "), version
    where = subprocess.run([str(fresh / "bin" / "python"), "-c", "import rulec; print(rulec.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(fresh), where  # the wheel's copy, not the checkout
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "g.rules").write_text('series G "A game" version "1"\n\nrule 1.1 "One" {\n'
                                   '  define one() -> int = 1\n  example "one" {\n    expect one() == 1\n  }\n}\n',
                                   encoding="utf-8")
    for args in (("check",), ("build",), ("test",)):
        done = _run(fresh, *args, cwd=tmp_path)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert (tmp_path / "generated" / "python" / "g.py").is_file()
    assert not (tmp_path / "compiler").exists()


def test_a_game_over_the_installed_series(fresh: Path, tmp_path: Path) -> None:
    """The issue's whole path: rulec init in an empty folder, then check, build, test, eval and diff, with
    OCS read from the installed wheel and a second series from a sibling folder named in rulec.toml."""
    found = subprocess.run([str(fresh / "bin" / "python"), "-c", "from rulec import project; "
                            "print(project.series_folder(project.installed()['OCS']))"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(found).is_relative_to(fresh) and (Path(found) / "series.rules").is_file(), found
    sibling = tmp_path / "sibling" / "rules"
    sibling.mkdir(parents=True)
    (sibling / "sib.rules").write_text('series SIB "A sibling series" version "2"\n\nrule 1.1 "Turns" {\n'
                                       '  const turns "Game turns" = 7\n\n  example "Seven" {\n'
                                       '    expect turns == 7\n  }\n}\n', encoding="utf-8")
    game = tmp_path / "game"
    game.mkdir()
    done = _run(fresh, "init", "--extends", "OCS", cwd=game)
    assert done.returncode == 0, done.stderr
    toml = (game / "rulec.toml").read_text(encoding="utf-8")
    (game / "rulec.toml").write_text(toml.replace('rules = ["rules"]', 'rules = ["rules", "../sibling/rules"]'),
                                     encoding="utf-8")
    for args in (("check",), ("build", "--no-print"), ("test", "--coverage"), ("fmt", "--check"),
                 ("eval", "GAME", "ezoc_allows(D, true)"), ("eval", "SIB", "turns"), ("diff", "rules", "rules")):
        done = _run(fresh, *args, cwd=game)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert sorted(p.name for p in (game / "generated" / "python").iterdir()) == ["game.py"]
    assert "GAME" in _run(fresh, "eval", "GAME", "ezoc_allows(D, true)", cwd=game).stdout


def test_nothing_imports_the_source_folder_by_its_name() -> None:
    """The source folder is compiler/, the package rulec: code that imported `compiler` would load a second
    copy of every module from a checkout (two `Unit` classes, two caches) and fail outside one."""
    import re

    found = [f"{p.relative_to(ROOT)}:{i}" for folder in ("compiler", "tests", "bench")
             for p in sorted((ROOT / folder).rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.match(r"\s*(from|import) compiler\b", line) or re.search(r"-m\W+compiler\b", line)]
    assert found == []
