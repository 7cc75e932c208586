"""The project: where a game repository's rules are, where its output goes, what to build.

A project is described by `rulec.toml`, found by walking up from the working directory as git finds
`.git` (or named with `--project`). Without one, the defaults are today's: `rules/` and `generated/`
in the working directory. Every command reads the project the same way (`load`), so `rulec build`
run from a subfolder builds the same tree as from the root.

    # rulec.toml
    rules = ["rules", "../acw-series/rules"]   # rules folders (or files), relative to this file
    series = ["OCS"]                            # rules installed with a Python distribution
    out = "generated"                           # the output folder
    rulesets = ["NORTHRIDGE"]                   # what `rulec build` writes (default: every ruleset)
    cache = ".rulec-cache"

    [cards]
    print = true                                # print the cards to PDF (false: as --no-print)
    csv_bom = false                             # CSV files with a UTF-8 byte-order mark, for Excel

A series is installed by a Python distribution that announces its rules folder in the entry point
group `rulec.rules` (rulec announces OCS, ZCS, ACW and DAK): the entry point's object is a path,
or a module whose folder holds the .rules files. Mistakes in the file are R119, located in it.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, Span, did_you_mean

if TYPE_CHECKING:
    from importlib import metadata

FILE = "rulec.toml"
COMMAND_LINE = "<command line>"  # the file of a diagnostic about a --rules argument
ENTRY_POINTS = "rulec.rules"
KEYS = {"rules": "a list of folders", "series": "a list of names", "out": "a folder", "cache": "a folder",
        "rulesets": "a list of names", "cards": "a table"}
CARD_KEYS = {"print": "true or false", "csv_bom": "true or false"}


@dataclass(frozen=True)
class Root:
    """A rules folder (or file) and the name its files are shown under (`rules/dak/dak.rules`)."""

    path: Path
    label: str
    series: str | None = None  # the installed series it comes from


@dataclass
class Project:
    file: Path | None  # the rulec.toml read, None for the defaults
    base: Path  # the folder the project's paths are relative to
    roots: list[Root] = field(default_factory=list)
    out: Path = Path("generated")
    cache: Path = Path(".rulec-cache")
    rulesets: tuple[str, ...] = ()  # () = every ruleset
    print_cards: bool = True
    csv_bom: bool = False  # the cards' CSV files opened by a UTF-8 byte-order mark, for Excel
    diagnostics: list[Diagnostic] = field(default_factory=list)
    text: str = ""  # the file's text, to show a diagnostic's line

    @property
    def sources(self) -> dict[str, str]:
        """The project file as a source, so its diagnostics show their line."""
        return {self.label: self.text} if self.file is not None else {}

    @property
    def label(self) -> str:
        """The file's name in diagnostics: from its folder's name down (game/rulec.toml), as rules files are."""
        return FILE if self.file is None else f"{self.file.resolve().parent.name}/{FILE}"


def read(roots: Sequence[Root]) -> tuple[dict[str, str], list[Diagnostic]]:
    """Every .rules file of the roots, each named from its root's label down (sources.find_sources)."""
    from .sources import find_sources

    return find_sources([r.path for r in roots], [r.label for r in roots])


def read_assets(roots: Sequence[Root]) -> dict[str, bytes]:
    """The files the roots' themes may use (sources.find_assets), named as the rules files are."""
    from .sources import find_assets

    return find_assets([r.path for r in roots], [r.label for r in roots])


def find(start: Path) -> Path | None:
    """The nearest rulec.toml at or above start."""
    here = start.resolve()
    for folder in (here, *here.parents):
        candidate = folder / FILE
        if candidate.is_file():
            return candidate
    return None


def installed() -> dict[str, metadata.EntryPoint]:
    """The series installed in this environment, by name (entry point group rulec.rules). Imported here:
    importlib.metadata is a tenth of the time of a no-op `rulec build`, and only a project that names
    an installed series needs it."""
    from importlib import metadata

    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINTS)}


def series_folder(ep: metadata.EntryPoint) -> Path:
    """An installed series' rules folder: the entry point's object is a path, or a module beside its files."""
    obj = ep.load()
    if isinstance(obj, ModuleType):
        where = getattr(obj, "__file__", None)
        if where is None:
            return Path(next(iter(obj.__path__)))
        return Path(where).parent
    return Path(os.fspath(obj))


def load(cwd: Path, project: Path | None = None, rules: list[Path] | None = None) -> Project:
    """The project seen from cwd: rulec.toml (project, else the nearest one), with rules folders given on the
    command line in place of the file's `rules`. Never raises for a mistake: it is in .diagnostics."""
    file = project if project is None or not project.is_dir() else project / FILE
    if file is None:
        file = find(cwd)
    if file is None:
        p = Project(None, cwd)
    else:
        p = Project(file, file.resolve().parent)
        try:
            p.text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            p.diagnostics.append(Diagnostic(Span(p.label, 1, 1, 1, 1), "R119", f"cannot read {p.label}: {e}"))
            return p
    named, series = _read(p) if p.file is not None else ([], [])
    folders: list[tuple[Path, Span | None]]
    if rules:
        folders = [(r, None) for r in rules]  # as given: relative to the working directory
    elif p.file is None:
        folders = [(Path("rules"), None)]
    else:
        folders = [(p.base / r, span) for r, span in named]
    _add_roots(p, folders, series)
    return p


Named = list[tuple[Path, Span | None]]


def _read(p: Project) -> tuple[Named, list[tuple[str, Span]]]:
    """Read p.text into p; return the rules folders it names and the installed series it asks for."""
    folders: Named = []
    series: list[tuple[str, Span]] = []
    try:
        data = tomllib.loads(p.text)
    except tomllib.TOMLDecodeError as e:
        line, col = _toml_place(str(e), p.text)
        p.diagnostics.append(Diagnostic(Span(p.label, line, col, line, col + 1), "R119",
                                        f"{p.label} is not valid TOML: {str(e).split(' (at')[0]}"))
        data = {}
    for key, value in data.items():
        span = _key_span(p, key)
        if key not in KEYS:
            p.diagnostics.append(Diagnostic(span, "R119", f"unknown key '{key}' in {p.label}",
                                            hint=did_you_mean(key, KEYS) or f"the keys are: {', '.join(KEYS)}"))
            continue
        if key in ("rules", "series", "rulesets"):
            if not (isinstance(value, list) and all(isinstance(v, str) and v for v in value)):
                p.diagnostics.append(Diagnostic(span, "R119", f"'{key}' must be {KEYS[key]} (texts)",
                                                hint=f'{key} = ["..."]'))
                continue
            if key == "rules":
                folders = [(Path(v), _value_span(p, v, span)) for v in value]
            elif key == "series":
                series = [(v, _value_span(p, v, span)) for v in value]
            else:
                p.rulesets = tuple(value)
        elif key in ("out", "cache"):
            if not (isinstance(value, str) and value):
                p.diagnostics.append(Diagnostic(span, "R119", f"'{key}' must be {KEYS[key]} (a text)"))
                continue
            setattr(p, key, p.base / value)
        else:  # cards
            if not isinstance(value, dict):
                p.diagnostics.append(Diagnostic(span, "R119", "'cards' must be a table: [cards]"))
                continue
            for k, v in value.items():
                at = _key_span(p, k)
                if k not in CARD_KEYS:
                    p.diagnostics.append(Diagnostic(at, "R119", f"unknown key '{k}' in [cards]",
                                                    hint=did_you_mean(k, CARD_KEYS)
                                                    or f"the keys are: {', '.join(CARD_KEYS)}"))
                elif not isinstance(v, bool):
                    p.diagnostics.append(Diagnostic(at, "R119", f"'cards.{k}' must be {CARD_KEYS[k]}"))
                elif k == "print":
                    p.print_cards = v
                else:
                    p.csv_bom = v
    if "rules" not in data and "series" not in data:
        folders = [(Path("rules"), None)]
    if "out" not in data:
        p.out = p.base / "generated"
    if "cache" not in data:
        p.cache = p.base / ".rulec-cache"
    return folders, series


def _add_roots(p: Project, folders: Named, series: list[tuple[str, Span]]) -> None:
    seen: dict[Path, str] = {}
    candidates: list[tuple[Path, Span | None, str | None]] = [(f, s, None) for f, s in folders]
    found = installed() if series else {}
    for name, span in series:
        ep = found.get(name)
        if ep is None:
            p.diagnostics.append(Diagnostic(span, "R119", f"no installed series '{name}'",
                                            hint=did_you_mean(name, found) or (
                                                f"installed: {', '.join(sorted(found))}" if found else
                                                "install the Python distribution that ships it")))
            continue
        try:
            candidates.append((series_folder(ep), span, name))
        except Exception as e:  # an entry point that does not load: the distribution is broken, not rulec
            p.diagnostics.append(Diagnostic(span, "R119", f"the installed series '{name}' cannot be loaded "
                                            f"({type(e).__name__}: {e})"))
    for path, place, from_series in candidates:
        shown = from_series or (path.as_posix() if place is None else _shown(path, p.base))
        at = place or Span(COMMAND_LINE, 1, 1, 1, 1)
        if not path.exists():
            p.diagnostics.append(Diagnostic(at, "R119", f"no such file or folder: {shown}"))
            continue
        key = path.resolve()
        if key in seen:
            p.diagnostics.append(Diagnostic(at, "R119", f"the rules folder {shown} is given twice "
                                            f"(also as {seen[key]})", hint="name each folder once"))
            continue
        seen[key] = shown
        p.roots.append(Root(path, "", from_series))
    _label(p)


def _label(p: Project) -> None:
    """Each root's files are named from the root's own folder name down (rules/dak/dak.rules), as they
    always were; where two roots share that name, from the project's folder instead (../acw/rules/...)."""
    names = [r.path.resolve().name for r in p.roots]
    out = []
    for r, name in zip(p.roots, names, strict=True):
        label = name
        if names.count(name) > 1:
            label = Path(os.path.relpath(r.path.resolve(), p.base.resolve())).as_posix()
        out.append(Root(r.path, label, r.series))
    p.roots = out


def _shown(path: Path, base: Path | None = None) -> str:
    if base is not None:
        try:
            return Path(os.path.relpath(path.resolve(), base.resolve())).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def _key_span(p: Project, key: str) -> Span:
    """Where a key is written: the first line that starts with it (TOML keeps no places)."""
    for i, line in enumerate(p.text.split("\n"), 1):
        stripped = line.lstrip()
        if stripped.startswith((key + " ", key + "=", f'"{key}"')):
            col = len(line) - len(stripped) + 1
            return Span(p.label, i, col, i, col + len(key))
    return Span(p.label, 1, 1, 1, 1)


def _value_span(p: Project, value: str, near: Span) -> Span:
    """Where a text value is written, at or after its key's line."""
    lines = p.text.split("\n")
    for i in range(near.line - 1, len(lines)):
        for quote in ('"', "'"):
            col = lines[i].find(f"{quote}{value}{quote}")
            if col >= 0:
                return Span(p.label, i + 1, col + 1, i + 1, col + len(value) + 3)
    return near


def _toml_place(message: str, text: str) -> tuple[int, int]:
    """'... (at line 3, column 7)' -> (3, 7); '... (at end of document)' -> just after the last character."""
    m = re.search(r"line (\d+), column (\d+)", message)
    if m:
        return int(m[1]), int(m[2])
    lines = text.split("\n")
    return (len(lines), len(lines[-1]) + 1) if "end of document" in message else (1, 1)

