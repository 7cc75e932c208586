"""Each file's checked and lowered items kept for the next build (compiler/units.py, #20 item 2).

A build takes up a file's unit in place of reading, checking and lowering it when neither its text
nor any file's skeleton changed. That is right only if checking a file reads nothing of the other
files but their skeletons, and if a build taking units up says and writes what a build from nothing
does; both are checked here, on the shipped rules and on files that lean on each other."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, files_of

from rulec import build as build_module
from rulec import checker, cli, lower, units
from rulec.build import find_sources
from rulec.parser import parse
from rulec.sheets import _model_bytes

KINDS = ("clauses", "enums", "records", "consts", "defines", "tables", "limits", "excepts",
         "overrides", "examples", "cards")

# Two files of one series that lean on each other: a row and a list value overridden from the other
# file, types inferred across files, a card showing the other file's clause.
SERIES = '''series S "Series"

enum Mode "Mode" {
  - combat "Combat"
  - move "Move"
}

record Unit "A unit" {
  mode: Mode = combat "Its mode"
  steps: int = 2 "Steps"
}

rule 1.1 "Costs" {
  text "What a unit pays."
  table cost(u: Unit) -> int "Cost" {
    combat: when u.mode == combat => 2 "In Combat Mode"
    other: otherwise => 1 "Others"
  }
  define doubled(u: Unit) -> int "Twice the cost" = cost(u) * 2
  define halved(u: Unit) = cost(u) / 2
  const limit "The limit" = 3
  example "Combat" {
    expect cost(Unit {}) == 2
  }
}
'''

GAME = '''game G "Game" extends S

rule 2.1 "More" {
  text "The game's own."
  define total(u: Unit) -> number "Total" = halved(u) + doubled(u) + limit
  example "Total" {
    expect total(Unit {}) == 21 / 2
  }
}

override 1.1 cost.combat: when u.mode == combat => 3

card costs "Costs" {
  show 1.1, 2.1
}
'''


# A third file in the series' layer, whose definition calls one of the first file's.
SERIES_MORE = '''in S

rule 1.2 "Twice" {
  define twice(u: Unit) -> int "One more than doubled" = doubled(u) + 1
}
'''


def _results(files: list[Any], name: str) -> tuple[list[str], list[bytes]]:
    """What checking and lowering give of one file: its diagnostics and its lowered items (an external
    clause, which has no place, is in the file's skeleton as it is)."""
    program, diags = checker.check(files)
    low = program.lowered or lower.lower(program)
    items = [_model_bytes(x) for lay in low.layers.values() for kind in KINDS for x in getattr(lay, kind)
             if x.origin.file == name]
    return sorted(f"{d} {d.code} {d.message} {d.hint}" for d in diags if d.span.file == name), items


def _each_file_against_skeletons(sources: dict[str, str]) -> None:
    trees = {name: parse(text, name)[0] for name, text in sorted(sources.items())}
    assert all(t is not None for t in trees.values())
    skeletons = {name: units.skeleton(t) for name, t in trees.items() if t is not None}
    for name in trees:
        whole = _results([t for t in trees.values() if t is not None], name)
        against = _results([trees[n] if n == name else skeletons[n] for n in trees], name)  # type: ignore[misc]
        assert against == whole, name


def test_each_shipped_file_checks_against_the_others_skeletons_as_against_their_trees() -> None:
    """The premise of taking a unit up: checking and lowering a file reads nothing of the others but
    their skeletons (what a unit is kept under). Each shipped file, checked with the other files
    given as skeletons, has the same diagnostics and lowered items as with their whole trees."""
    sources, _ = find_sources([ROOT / "rules"])
    _each_file_against_skeletons(sources)


def test_files_that_lean_on_each_other_check_against_skeletons_as_against_trees() -> None:
    """The same for a game overriding its series' row, inferring a type from the series' untyped
    definition and showing its clause on a card, and for mistakes that name the other file."""
    _each_file_against_skeletons({"r/s.rules": SERIES, "r/s2.rules": SERIES_MORE, "r/g.rules": GAME})
    wrong = GAME.replace("halved(u) + doubled(u)", "halved(u) + doubled(u, u) + missing")
    wrong = wrong.replace("cost.combat:", "cost.nothing:")
    _each_file_against_skeletons({"r/s.rules": SERIES, "r/s2.rules": SERIES_MORE, "r/g.rules": wrong})


def _tree(root: Path, series: str = SERIES, game: str = GAME) -> Path:
    rules = root / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    (rules / "s.rules").write_text(series, encoding="utf-8")
    (rules / "s2.rules").write_text(SERIES_MORE, encoding="utf-8")
    (rules / "g.rules").write_text(game, encoding="utf-8")
    return rules


def _build(rules: Path, out: Path, *extra: str) -> tuple[int, str]:
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["build", "--rules", str(rules), "--out", str(out), "--no-print", *extra])
    return code, err.getvalue()


class Taken:
    """How many files each build checked from their trees and how many it took up as units."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.runs: list[tuple[int, int]] = []
        real = build_module.check

        def counted(files: Any, reused: Any = None, capture: bool = False) -> Any:
            self.runs.append((len(files) - len(reused or {}), len(reused or {})))
            return real(files, reused, capture)

        monkeypatch.setattr(build_module, "check", counted)


@pytest.mark.parametrize("edit", ["wording", "value", "example", "signature", "cycle", "mistake"])
def test_a_build_taking_units_up_says_and_writes_what_a_build_from_nothing_does(
        edit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Edits of the series' first file, each built with the cache and from nothing: the same exit,
    the same diagnostics and the same files. An edit that leaves every skeleton as it was but for
    its places (a clause's wording, a line more of it; a row's value, a worked example, a typed
    definition's body) checks only the edited file and takes the other two files' units up, even
    where the edit makes a circle through the other file's definition (a body's calls are kept with
    its unit) or a mistake; one that changes a signature checks every file again."""
    edits = {
        "wording": ('What a unit pays."', 'What a unit pays."\n  text "In full."', (1, 2)),
        "value": ("=> 1 \"Others\"", "=> 4 \"Others\"", (1, 2)),
        "example": ("expect cost(Unit {}) == 2", "expect cost(Unit {}) == 3", (1, 2)),
        "signature": ("const limit \"The limit\" = 3", "const limit \"The limit\" = 6 / 2", (3, 0)),
        "cycle": ("= cost(u) * 2", "= twice(u) * 2", (1, 2)),
        "mistake": ("= cost(u) * 2", "= cost(u) * true", (1, 2)),
    }
    old, new, checked = edits[edit]
    rules = _tree(tmp_path)
    out, kept = tmp_path / "generated", tmp_path / "cache"
    assert _build(rules, out, "--cache", str(kept))[0] == 0
    assert SERIES.count(old) == 1
    (rules / "s.rules").write_text(SERIES.replace(old, new), encoding="utf-8")
    taken = Taken(monkeypatch)
    cached = _build(rules, out, "--cache", str(kept))
    assert taken.runs == [checked]
    fresh_out = tmp_path / "fresh"
    fresh = _build(rules, fresh_out, "--no-cache")
    assert (cached[0], cached[1].replace(str(out), "OUT")) == (fresh[0], fresh[1].replace(str(fresh_out), "OUT"))
    if cached[0] == 0:
        assert files_of(out) == files_of(fresh_out)
    else:
        assert {"cycle": "R109", "mistake": "R201", "example": "R401"}[edit] in cached[1]
    # and back: the units kept before the edit are found again, the same output as at first
    (rules / "s.rules").write_text(SERIES, encoding="utf-8")
    assert _build(rules, out, "--cache", str(kept))[0] == 0
    assert _build(rules, fresh_out, "--no-cache")[0] == 0
    assert files_of(out) == files_of(fresh_out)


def test_an_edit_of_the_shipped_rules_takes_the_other_files_up(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """On the shipped rules, an edit of 4.5's text checks ch4 again and takes up the other eight
    files' units, and the build writes what a build from nothing writes."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    out, kept = tmp_path / "generated", tmp_path / "cache"
    assert _build(rules, out, "--cache", str(kept))[0] == 0
    path = rules / "ocs" / "ch4-general-concepts.rules"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'text "(?=\w)', 'text "Edited. ', text, count=1), encoding="utf-8")
    taken = Taken(monkeypatch)
    assert _build(rules, out, "--cache", str(kept))[0] == 0
    assert taken.runs == [(1, 8)]
    assert _build(rules, tmp_path / "fresh", "--no-cache")[0] == 0
    assert files_of(out) == files_of(tmp_path / "fresh")


def test_a_unit_is_kept_sealed_and_a_planted_one_is_not_read(tmp_path: Path) -> None:
    """Units are files of the cache like any other: sealed under the user's key, so a unit written
    by anyone else (here, a copy of another entry's bytes under its name) is a miss, never read."""
    rules = _tree(tmp_path)
    out, kept = tmp_path / "generated", tmp_path / "cache"
    assert _build(rules, out, "--cache", str(kept))[0] == 0
    entries = sorted((kept / "units").glob("*.pickle"))
    assert len(entries) == 6  # three skeletons, three units
    first = entries[0].read_bytes()
    for e in entries[1:]:
        e.write_bytes(first)
    (rules / "s.rules").write_text(SERIES.replace("What a unit pays.", "Pays."), encoding="utf-8")
    assert _build(rules, out, "--cache", str(kept))[0] == 0
    assert _build(rules, tmp_path / "fresh", "--no-cache")[0] == 0
    assert files_of(out) == files_of(tmp_path / "fresh")


@pytest.mark.parametrize("twice", ["override", "card"])
@pytest.mark.parametrize("edited", ["g.rules", "g2.rules"])
def test_a_second_change_in_another_file_is_found_whichever_file_is_taken_up(
        twice: str, edited: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A layer may change a thing once and name a card once (R106, R104), over all its files: a
    second override of the game's row, or a second card of its name, in another file of the game
    is reported whichever of the two files an edit of wording checks again, the other being taken
    up (its unit keeps what it changes, and its card's name is in its skeleton)."""
    second = {"override": "override 1.1 cost.combat: when u.mode == combat => 4 title \"Four\"\n",
              "card": "card costs \"Costs again\" {\n  show 1.1\n}\n"}[twice]
    rules = _tree(tmp_path)
    (rules / "g2.rules").write_text(f'in G\n\nrule 2.2 "Again" {{\n  text "Once more."\n}}\n\n{second}',
                                    encoding="utf-8")
    out, kept = tmp_path / "generated", tmp_path / "cache"
    first = _build(rules, out, "--cache", str(kept))
    assert first[0] == 1 and ("R106" if twice == "override" else "R104") in first[1]
    path = rules / edited
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('text "', 'text "Edited. ', 1), encoding="utf-8")
    taken = Taken(monkeypatch)
    cached = _build(rules, out, "--cache", str(kept))
    assert taken.runs == [(1, 3)]
    fresh_out = tmp_path / "fresh"
    fresh = _build(rules, fresh_out, "--no-cache")
    assert (cached[0], cached[1].replace(str(out), "OUT")) == (fresh[0], fresh[1].replace(str(fresh_out), "OUT"))


def test_the_lines_and_hashes_a_unit_keeps_are_its_items_own(tmp_path: Path) -> None:
    """A unit keeps each of its items' line of the IR and hash for the module's key, which a build
    taking it up uses in place of working them out (build.take_known): after a build of the shipped
    rules, each kept line and hash is what its item gives afresh, and most items have both."""
    import hashlib

    from rulec import cache, ir, manifest
    from rulec import model as m

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    kept = tmp_path / "cache"
    assert _build(rules, tmp_path / "generated", "--cache", str(kept))[0] == 0
    kinds = {m.Clause: "clauses", m.EnumDef: "enums", m.RecordDef: "records", m.ConstDef: "consts",
             m.Define: "defines", m.Table: "tables", m.Limits: "limits", m.Example: "examples",
             m.Override: "overrides"}
    found = [u for p in sorted((kept / "units").glob("*.pickle"))
             if isinstance(u := cache._loaded(manifest.read_sealed(p) or b"", units._UnitUnpickler), units.Unit)]
    assert len(found) == 9
    known = [k for u in found for k in u.known]
    assert sum(line is not None and digest is not None for _, line, digest in known) > 0.5 * len(known)
    for item, line, digest in known:
        name = kinds.get(type(item))
        if name is None:
            assert line is None and digest is None
            continue
        assert line is None or line == ir._ONE(ir.ITEMS[name](item))
        if digest is not None:
            if name in {"consts", "defines", "tables", "limits"} or name not in ir.WORDED:
                data = ir._ONE(ir.ITEMS[name](item)).encode("utf-8", "surrogatepass")
            else:
                data = ir.canonical(ir.module_part(name, ir.ITEMS[name](item)))
            assert digest == hashlib.sha256(data).digest()


def test_each_class_of_the_typed_model_comes_back_from_a_unit_as_it_went_in() -> None:
    """A unit writes each object of the typed model as its class's restorer and its fields' values
    (units._restorer, one generated function a class): every shipped ruleset's resolved model,
    written that way and read back by the units' unpickler, gives the same bytes as a key reads them
    (sheets._model_bytes: each object's class and fields in full; the model's classes compare by
    identity), and every class with fields in it was written by its own restorer."""
    import dataclasses
    import io
    import pickle

    from rulec import cache
    from rulec.build import compile_sources

    sources, _ = find_sources([ROOT / "rules"])
    models = compile_sources(sources).models
    assert models
    for name, model in models.items():
        out = io.BytesIO()
        writer = pickle.Pickler(out, protocol=5)
        writer.dispatch_table = units._REDUCERS  # as Units._put writes a unit
        writer.dump(model)
        data = out.getvalue()
        back = cache._loaded(data, units._UnitUnpickler)
        assert type(back) is type(model) and back is not model, name
        assert _model_bytes(back) == _model_bytes(model), name
        seen: set[type] = set()
        todo: list[Any] = [model]
        while todo:  # the classes of the model's objects
            x = todo.pop()
            if dataclasses.is_dataclass(x) and not isinstance(x, type):
                seen.add(type(x))
                todo += [getattr(x, f.name) for f in dataclasses.fields(x)]
            elif isinstance(x, (tuple, list, frozenset, set)):
                todo += list(x)
            elif isinstance(x, dict):
                todo += [*x.keys(), *x.values()]
        restored = [c for c in seen if c in units._RESTORERS]
        assert len(restored) > 20, name
        for c in restored:
            assert units._RESTORERS[c].__name__.encode() in data, c
