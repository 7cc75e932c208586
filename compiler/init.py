"""`rulec init [DIR] --extends OCS`: a new game repository that builds and tests at once.

It writes rulec.toml (the installed series, the game's rules folder, the output), the game's first
rules file (one override of the series and one worked example), a .gitignore for the build cache,
a .pre-commit-config.yaml running rulec's checks, and a CI workflow. It never overwrites a file:
if one of them exists, it writes nothing and says which.
"""

from __future__ import annotations

import argparse
import re
import string
import sys
from pathlib import Path

from . import project

# What follows the game's header in its first file. A series can ship its own, `init.template` in its
# rules folder (OCS's overrides one of its rules and shows the change in a worked example); `$name` and
# `$title` are the game's. Without one, the game gets a clause of its own.
TEMPLATE = "init.template"
_OWN = """rule 1.1 "$title and the series rules" {
  text "$title is played with the $series series rules, except where this file says otherwise."
  const game_turns "Game turns" = 10

  example "The game lasts ten turns" {
    expect game_turns == 10
  }
}
"""


def _files(name: str, title: str, series: str, version: str | None, template: str) -> dict[str, str]:
    slug = name.lower()
    extends = f'{series} "{version}"' if version else series
    body = string.Template(template).safe_substitute(name=name, title=title, series=series)
    return {
        project.FILE: f'''# rulec project: where the rules are and what to build (see `rulec --help`).
# this game's rules folders, relative to this file
rules = ["rules"]
# series installed with a Python distribution (entry point group rulec.rules)
series = ["{series}"]
# the output folder
out = "generated"
# what `rulec build` writes (leave it out to build the series too)
rulesets = ["{name}"]

[cards]
# print the player aid cards to PDF (needs Chromium; false: as rulec build --no-print)
print = true
''',
        f"rules/{slug}/{slug}.rules": f'''# {title}: a game over the {series} series.
# A game states only what it changes; everything else comes from the series.

game {name} "{title}" extends {extends} version "1"

{body}''',
        # *.so: the C extensions of `rulec build --compiled`, built for one Python on one machine
        ".gitignore": ".rulec-cache/\n.venv/\n__pycache__/\n*.so\n*.pyd\n",
        ".pre-commit-config.yaml": '''# pre-commit run --all-files: the checks rulec's CI runs, before every commit.
repos:
  - repo: local
    hooks:
      - id: rulec-check
        name: rulec check
        entry: rulec check
        language: system
        files: \\.rules$
        pass_filenames: false
      - id: rulec-fmt
        name: rulec fmt --check
        entry: rulec fmt --check --diff
        language: system
        files: \\.rules$
      - id: rulec-test
        name: rulec test
        entry: rulec test
        language: system
        files: \\.rules$
        pass_filenames: false
      - id: rulec-build-check
        name: rulec build --check
        entry: rulec build --check
        language: system
        files: \\.rules$
        pass_filenames: false
''',
        ".github/workflows/rules.yml": f'''# Check, test and build-check the rules of {title} on every push
# and pull request.
name: rules
on: [push, pull_request]
jobs:
  rules:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: pip install rulec
      - run: rulec check
      - run: rulec fmt --check
      - run: rulec test --coverage
      - run: rulec build --check --no-print
''',
    }


def command(args: argparse.Namespace) -> int:
    folder: Path = args.dir
    name = args.name or re.sub(r"[^A-Za-z0-9_]", "_", folder.resolve().name).upper().strip("_") or "GAME"
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        print(f"rulec: '{name}' is not a name a rules file can use (a letter, then letters, digits or _); "
              "give one with --name", file=sys.stderr)
        return 2
    title = args.title or name.replace("_", " ").title()
    if '"' in title or "\\" in title or "\n" in title:
        print("rulec: a title cannot hold a quote, a backslash or a line break", file=sys.stderr)
        return 2
    found = project.installed()
    if args.extends not in found:
        from .diagnostics import did_you_mean

        hint = did_you_mean(args.extends, found)
        print(f"rulec: no installed series '{args.extends}' (installed: {', '.join(sorted(found)) or 'none'})"
              + (f"; {hint}" if hint else ""), file=sys.stderr)
        return 2
    where = project.series_folder(found[args.extends])
    version = _version(where, args.extends)
    template = (where / TEMPLATE).read_text(encoding="utf-8") if (where / TEMPLATE).is_file() else _OWN
    files = _files(name, title, args.extends, version, template)
    existing = [rel for rel in files if (folder / rel).exists()]
    if existing:
        print(f"rulec: {folder} already has {', '.join(existing)}; nothing was written", file=sys.stderr)
        return 1
    for rel, text in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {target}")
    go = "" if folder.resolve() == Path.cwd().resolve() else f"cd {folder} && "
    print(f"next: {go}rulec build && rulec test")
    return 0


def _version(folder: Path, series: str) -> str | None:
    """The version the installed layer declares (`series OCS "..." version "4.3"`), read from its files."""
    from . import ast
    from .parser import parse

    for f in sorted(folder.rglob("*.rules")):
        tree, _ = parse(f.read_text(encoding="utf-8"), f.name)
        for item in tree.items if tree is not None else ():
            if isinstance(item, ast.LayerDecl) and item.name == series:
                return item.version
    return None
