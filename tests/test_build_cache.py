"""What `rulec build` keeps between runs (.rulec-cache/): the no-op build, each file's parse and
each table's analysis. A cached build must give byte for byte what a build from nothing gives."""

from __future__ import annotations

import hashlib
import json
import pickle
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import files_of
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec import analysis, cache, cli, manifest
from rulec import build as build_module
from rulec.cache import KeptText, Memo, fingerprint, text_of

SERIES = '''series S "Series"

enum Mode "Mode" {
  - combat "Combat"
  - move "Move"
  - reserve "Reserve"
}

record Unit "A unit" {
  mode: Mode = combat "Its mode"
  supplied: bool = true "In supply"
}
'''

CHAPTER = '''in S

rule {n}.1 "Costs" {{
  text "{text}"
  table cost{n}(u: Unit) -> number "Cost" {{
    combat: when u.mode == combat and u.supplied => {value} "In Combat Mode"
    other: otherwise => 1 "Others"
  }}
  example "Combat Mode" {{
    expect cost{n}(Unit {{}}) == {value}
  }}
}}
'''


def tree(root: Path, chapters: int = 3, edit: dict[int, dict[str, str]] | None = None) -> Path:
    rules = root / "rules"
    (rules / "s").mkdir(parents=True, exist_ok=True)
    (rules / "s" / "series.rules").write_text(SERIES, encoding="utf-8")
    for n in range(1, chapters + 1):
        fields = {"n": str(n), "text": f"Chapter {n}.", "value": "2", **(edit or {}).get(n, {})}
        (rules / "s" / f"ch{n}.rules").write_text(CHAPTER.format(**fields), encoding="utf-8")
    return rules


def build(rules: Path, out: Path, *extra: str) -> int:
    return cli.main(["build", "--rules", str(rules), "--out", str(out), "--no-print", *extra])


class Counts:
    """How many files were parsed and tables analysed (the work the cache should spare)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.parsed: list[str] = []
        self.analysed: list[str] = []
        real_parse, real_run = cache.parse_reusing, analysis.TableAnalysis.run

        def parse(text: str, name: str, earlier: Any) -> Any:
            self.parsed.append(name)
            return real_parse(text, name, earlier)

        def run(table_analysis: analysis.TableAnalysis) -> Any:
            self.analysed.append(table_analysis.table.name)
            return real_run(table_analysis)

        monkeypatch.setattr(cache, "parse_reusing", parse)
        monkeypatch.setattr(analysis.TableAnalysis, "run", run)


@pytest.fixture(autouse=True)
def no_printing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEC_CHROMIUM", "no-such-chromium-for-rulec-tests")


def test_a_build_of_what_was_built_last_does_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    before = files_of(out)
    capsys.readouterr()
    assert build(rules, out, "--cache", str(kept)) == 0
    assert capsys.readouterr().out.startswith("up to date:")
    assert files_of(out) == before
    (out / "ir" / "s.json").write_text("{}\n", encoding="utf-8")  # an output changed by hand: build again
    assert build(rules, out, "--cache", str(kept)) == 0
    assert "built" in capsys.readouterr().out and files_of(out) == before


def test_after_an_edit_only_the_edited_file_is_parsed_and_its_table_analysed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    counts = Counts(monkeypatch)
    assert build(rules, out, "--cache", str(kept)) == 0
    assert len(counts.parsed) == 4 and sorted(counts.analysed) == ["cost1", "cost2", "cost3"]
    counts.parsed.clear()
    counts.analysed.clear()
    tree(tmp_path, edit={2: {"value": "3"}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert counts.parsed == ["rules/s/ch2.rules"]
    assert counts.analysed == ["cost2"]
    assert files_of(out) == _from_nothing(tmp_path, rules)


def test_a_text_edit_keeps_every_table_analysis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    counts = Counts(monkeypatch)
    tree(tmp_path, edit={3: {"text": "Chapter three, reworded."}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert counts.parsed == ["rules/s/ch3.rules"]
    # The table's analysis names its origin, which a text edit in the same file can move: the text
    # here stays on its line, so every analysis is found.
    assert counts.analysed == []
    assert files_of(out) == _from_nothing(tmp_path, rules)


def test_a_text_edit_runs_no_worked_example_again_and_a_changed_example_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The worked examples' outcome (on the interpreter and the module) is kept under the module's key
    and the examples: a wording edit runs none of them again and writes what a build from nothing
    writes (traceability.md's examples included); an edit of the module alone (a value no example
    reads), of a value and its example, or of an example runs them, and a
    failing example fails the build as it would without the cache."""
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    ran: list[str] = []
    real = build_module.run_examples

    def counted(model: Any, *args: Any, **kwargs: Any) -> Any:
        ran.append(model.manifest.ruleset)
        return real(model, *args, **kwargs)

    monkeypatch.setattr(build_module, "run_examples", counted)
    tree(tmp_path, edit={3: {"text": "Chapter three, reworded."}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert ran == []
    assert files_of(out) == _from_nothing(tmp_path, rules)
    ran.clear()
    ch3 = rules / "s" / "ch3.rules"
    ch3.write_text(ch3.read_text(encoding="utf-8").replace("=> 1", "=> 4"), encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0  # the module alone changes: its examples run again
    assert ran == ["S"]
    assert files_of(out) == _from_nothing(tmp_path, rules)
    ran.clear()
    tree(tmp_path, edit={3: {"value": "5"}})  # the table and its example both change
    assert build(rules, out, "--cache", str(kept)) == 0
    assert ran == ["S"]
    assert files_of(out) == _from_nothing(tmp_path, rules)
    (rules / "s" / "ch3.rules").write_text(CHAPTER.format(n="3", text="Chapter 3.", value="5").replace(
        "== 5", "== 6"), encoding="utf-8")  # the example alone changes, and now fails
    capsys.readouterr()
    assert build(rules, out, "--cache", str(kept)) != 0
    assert "R401" in capsys.readouterr().err


def test_the_constant_findings_are_kept_under_the_module_and_found_again_after_a_value_edit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """analysis.constant_errors' findings are kept under the module's key: a wording edit does not
    look for them again, an edit that makes a constant part fail (1/0) is found (R305), as a
    build without the cache finds it."""
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    looked: list[str] = []
    real = analysis.constant_errors

    def counted(model: Any, *args: Any) -> Any:
        looked.append(model.manifest.ruleset)
        return real(model, *args)

    monkeypatch.setattr(analysis, "constant_errors", counted)
    tree(tmp_path, edit={3: {"text": "Chapter three, reworded."}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert looked == []
    assert files_of(out) == _from_nothing(tmp_path, rules)
    looked.clear()
    tree(tmp_path, edit={3: {"value": "(1/0)"}})
    capsys.readouterr()
    assert build(rules, out, "--cache", str(kept)) != 0
    assert looked == ["S"]
    said = capsys.readouterr().err
    assert "R305" in said
    assert build(rules, tmp_path / "fresh", "--no-cache") != 0
    assert capsys.readouterr().err == said.replace("/generated/ was left", "/fresh/ was left")


def _from_nothing(tmp_path: Path, rules: Path) -> dict[str, bytes]:
    fresh = tmp_path / "fresh"
    assert build(rules, fresh, "--no-cache") == 0
    return files_of(fresh)


@pytest.mark.parametrize("damage", ["truncated", "garbage", "other rulec", "empty"])
def test_a_damaged_or_foreign_memo_is_a_cold_start(damage: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    path = kept / "memo" / "analyses.pickle"
    data = path.read_bytes()
    kept_entries = pickle.loads(manifest.unsealed(path, data) or b"")[1]
    path.write_bytes({"truncated": data[: len(data) // 2], "garbage": b"\x80\x05not a pickle",
                      "other rulec": manifest.sealed(path, pickle.dumps(("another rulec", kept_entries))),
                      "empty": b""}[damage])
    counts = Counts(monkeypatch)
    (out / "ir" / "s.json").unlink()  # not a no-op
    assert build(rules, out, "--cache", str(kept)) == 0
    assert sorted(counts.analysed) == ["cost1", "cost2", "cost3"]
    assert files_of(out) == _from_nothing(tmp_path, rules)


def test_the_memo_keeps_only_what_the_last_build_used(tmp_path: Path) -> None:
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    first = set(pickle.loads(manifest.read_sealed(kept / "memo" / "analyses.pickle") or b"")[1])
    tree(tmp_path, edit={1: {"value": "5"}, 2: {"value": "5"}})
    assert build(rules, out, "--cache", str(kept)) == 0
    second = set(pickle.loads(manifest.read_sealed(kept / "memo" / "analyses.pickle") or b"")[1])
    # Three tables' analyses and the constant findings of the module (which the value edit changes).
    assert len(first) == len(second) == 4 and len(first & second) == 1
    assert sum(k.startswith("constants of the module ") for k in first & second) == 0


def test_a_memo_the_build_used_as_it_was_is_not_written_again(tmp_path: Path) -> None:
    """An edit of a clause's wording makes no analysis, module or value afresh: those memo files
    keep their bytes and inode; the memo an edit does change is written."""
    path = tmp_path / "memo.pickle"
    first = Memo(path)
    first["a"], first["b"] = 1, 2
    first.save()
    before = path.stat()
    again = Memo(path)
    assert again["a"] == 1 and again["b"] == 2
    again.save()
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    fewer = Memo(path)
    assert fewer["a"] == 1  # b not used: the file is written without it
    fewer.save()
    assert set(pickle.loads(manifest.read_sealed(path) or b"")[1]) == {"a"}
    more = Memo(path)
    more["c"] = 3
    more["a"]  # noqa: B018 (used)
    more.save()
    assert set(pickle.loads(manifest.read_sealed(path) or b"")[1]) == {"a", "c"}


def test_a_memo_naming_any_other_class_is_not_loaded(tmp_path: Path) -> None:
    """A pickle can call any function it names; the memo loads plain data, spans and diagnostics only."""
    path = tmp_path / "analyses.pickle"
    data = pickle.dumps((fingerprint(), {"k": Path("/")}))  # harmless, but not allowed
    path.write_bytes(manifest.sealed(path, data))
    memo = Memo(path)
    assert "k" not in memo and len(memo) == 0
    memo["k2"] = []
    memo.save()
    assert Memo(path)["k2"] == []


class _HugeFraction:
    """Unpickled as Fraction('1e99999999'), a class the parse cache may name: 10**99999999 to work out."""

    def __reduce__(self) -> Any:
        return (Fraction, ("1e99999999",))


@pytest.mark.parametrize("how", ["unsealed", "sealed by another user", "moved from another entry"])
def test_a_planted_cache_cannot_change_what_a_build_writes(how: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo of modules made only of allowed data (texts) wrote its code into python/*.py; a
    parse entry holding Fraction('1e99999999') hung the build. A cache file this user's rulec did
    not seal for its place is never read: the build is the fresh one."""
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    fresh = _from_nothing(tmp_path, rules)
    memo = kept / "memo" / "modules.pickle"
    stamp, modules = pickle.loads(manifest.read_sealed(memo) or b"")
    assert modules, "the build kept no module"
    planted = pickle.dumps((stamp, {k: {f: KeptText.of("import os\nos.system('touch PWNED')\n" + text.text())
                                        for f, text in files.items()} for k, files in modules.items()}))
    if how == "unsealed":
        memo.write_bytes(planted)
    elif how == "sealed by another user":
        monkeypatch.setattr(manifest, "_secret", lambda: b"k" * 32)
        memo.write_bytes(manifest.sealed(memo, planted))
        monkeypatch.undo()
    else:  # a file sealed by this user, put where another belongs
        other = kept / "memo" / "values.pickle"
        other.write_bytes(manifest.sealed(other, planted))
        memo.write_bytes(other.read_bytes())
    for entry in (kept / "parse").glob("*.pickle"):
        entry.write_bytes(pickle.dumps((None, [_HugeFraction()])))
    (out / "ir" / "s.json").unlink()  # not a no-op
    assert build(rules, out, "--cache", str(kept)) == 0
    assert files_of(out) == fresh
    assert not (tmp_path / "PWNED").exists()


def test_a_planted_manifest_cannot_make_a_build_skip(tmp_path: Path) -> None:
    """The no-op check trusts its manifest: one not sealed by this user is no manifest."""
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    fresh = files_of(out)
    [recorded_file] = kept.glob("build-*.json")
    data = manifest.read_sealed(recorded_file)
    assert data is not None
    (out / "python" / "s.py").write_text("import os\n", encoding="utf-8")  # planted beside it
    stamps = json.loads(data)
    st = (out / "python" / "s.py").stat()
    stamps["files"]["python/s.py"] = [st.st_size, st.st_mtime_ns]
    recorded_file.write_bytes(json.dumps(stamps).encode())
    assert build(rules, out, "--cache", str(kept)) == 0
    assert files_of(out) == fresh


def test_a_text_edit_renders_only_the_pages_and_cards_that_show_it(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule sheet pages and cards are kept under a hash of what their template is given: after a
    text edit in chapter 3, only what shows chapter 3 is rendered again, and the output is what a
    build from nothing writes."""
    from rulec import sheets

    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    rendered: list[str] = []
    real_render = sheets.jinja2.Template.render

    def render_counted(self: Any, *args: Any, **kwargs: Any) -> str:
        rendered.append(self.name)
        return real_render(self, *args, **kwargs)

    monkeypatch.setattr(sheets.jinja2.Template, "render", render_counted)
    tree(tmp_path, edit={3: {"text": "Chapter three, reworded."}})
    assert build(rules, out, "--cache", str(kept)) == 0
    chapters = [n for n in rendered if n == "chapter.md.j2"]
    assert len(chapters) == 1, rendered  # chapter 3's page; chapters 1 and 2 are kept
    assert files_of(out) == _from_nothing(tmp_path, rules)
    rendered.clear()
    tree(tmp_path)  # back as it was: the pages of the first build are gone from the memo (one build kept)
    assert build(rules, out, "--cache", str(kept)) == 0
    assert [n for n in rendered if n == "chapter.md.j2"] == ["chapter.md.j2"]
    assert files_of(out) == _from_nothing(tmp_path, rules)


def test_a_cards_tables_are_kept_under_its_render_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's CSV files and its line of tables.json are made from the card's view alone, and kept
    under the key its HTML is kept under: after an edit of chapter 3's value only the card showing
    chapter 3 has its tables made again, and the output is what a build from nothing writes."""
    from rulec.sheets import export

    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    (rules / "s" / "cards.rules").write_text("in S\n\n" + "".join(
        f'card c{n} "Chapter {n}" {{\n  show {n}.1\n}}\n\n' for n in (1, 2, 3)), encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0
    made: list[str] = []
    real = export.card_tables

    def counted(card: dict[str, Any]) -> export.CardTables:
        made.append(card["name"])
        return real(card)

    monkeypatch.setattr(export, "card_tables", counted)
    tree(tmp_path, edit={3: {"value": "3"}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert made == ["card-c3"]
    written = files_of(out)
    assert b"3" in written["cards/s/3.1-cost3.csv"].splitlines()[1].split(b",")
    assert written == _from_nothing(tmp_path, rules)


def test_the_cards_size_tables_formulas_and_shown_numbers_are_taken_up_after_a_wording_edit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parts of the cards' views that read no clause's text (view.card_parts) are kept under the
    module's key and what else they read (view.card_parts_reads): a wording edit makes none of them
    again; a player's phrase (`says`, which the module's key leaves out) and a value make them
    again; and each build writes what a build from nothing writes."""
    from rulec.sheets import view

    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    made: list[str] = []
    for name in ("_size_tables", "_limit_lists", "_all_formulas", "_consts_shown"):
        real = getattr(view, name)
        monkeypatch.setattr(view, name, lambda model, real=real, name=name: made.append(name) or real(model))
    tree(tmp_path, edit={3: {"text": "Chapter three, reworded."}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert made == []
    assert files_of(out) == _from_nothing(tmp_path, rules)
    ch3 = rules / "s" / "ch3.rules"
    said = ch3.read_text(encoding="utf-8").replace('"In Combat Mode"', '"In Combat Mode" says "two, in Combat Mode"')
    ch3.write_text(said, encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0
    assert "_size_tables" in made and "_consts_shown" in made
    written = files_of(out)
    assert b"two, in Combat Mode" in written["cards/s/card-1.html"]
    assert written == _from_nothing(tmp_path, rules)
    made.clear()
    ch3.write_text(said.replace("=> 1", "=> 4"), encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0
    assert "_size_tables" in made and files_of(out) == _from_nothing(tmp_path, rules)


def test_a_render_key_tells_apart_what_a_template_could_tell_apart() -> None:
    """The key is the exact context: numbers by their exact value and type, sets in a stable order,
    a place by all its fields, links by the model's numbering; anything else is not kept."""
    from fractions import Fraction as F

    from rulec import sheets
    from rulec.model import Origin

    template = sheets.environment("md").from_string("{{ x }}")
    memo: dict[str, bytes] = {}

    def said(x: Any) -> str:
        return text_of(sheets.render(template, memo, x=x))

    assert said(F(1, 2)) == "1/2" and said(0.5) == "0.5" and said(1) == "1" and said(True) == "True"
    assert said({3, 1, 2}) == "{1, 2, 3}" and said("a") == "a"
    assert said(Origin("OCS", "4.5", "a.rules", 3, 1)) != said(Origin("OCS", "4.5", "a.rules", 4, 1))
    assert len(memo) == 8

    class Opaque:
        def __str__(self) -> str:
            return "opaque"

    assert said(Opaque()) == "opaque" and len(memo) == 8  # rendered, never kept


_RENDER_KEYS = '''
import json, sys
from pathlib import Path
from rulec import build, sheets
sources, _ = build.find_sources([Path("rules")])
result = build.compile_sources(sources)
renders = {}
for _ in sheets.iter_sheet_files(result.models, renders=renders):
    pass
print(json.dumps(sorted(renders)))
'''


def test_the_shipped_pages_and_cards_have_the_same_render_keys_in_every_process() -> None:
    """A page's or card's key is the same under any string hash seed (a view holding a set of
    strings, written in its hash order, would give a new key in each process: every page and card
    rendered again by every `rulec build`). And every one has a key: none is rendered every time."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    keys = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        ran = subprocess.run([sys.executable, "-c", _RENDER_KEYS], cwd=ROOT, env=env, capture_output=True,
                             text=True, check=True)
        keys.append(json.loads(ran.stdout))
    assert keys[0] == keys[1]
    pages = sum(1 for f in (ROOT / "generated" / "sheets").rglob("*.md") if f.name not in ("_index.md", "matrix.md"))
    cards = sum(1 for f in (ROOT / "generated" / "cards").rglob("card-*.html"))
    tables = [k for k in keys[0] if k.startswith("the tables of card ")]  # kept under the card's key
    assert len(keys[0]) - len(tables) == pages + cards and len(tables) == cards


# Edits of the shipped rules whose effect reaches past the edited clause's own page: a section
# title another chapter's page links to (its anchor), a list value's title, an external rule's
# address. (file, old, new, a page of another chapter or layer that must change).
_REACHING_EDITS = {
    "a section title another chapter links to": (
        "ocs/ch13-specialized-units.rules", 'rule 13.3 "Railroads"', 'rule 13.3 "Rail Lines"',
        "sheets/ocs/4-0-general-concepts.md"),
    "a list value's title": (
        "ocs/ch4-general-concepts.rules", '- air_drop "Air Drop"', '- air_drop "Parachute Drop"',
        "sheets/dak/4-0-general-concepts.md"),
    "an external rule's address": (
        "ocs/ch13-specialized-units.rules", 'at "../10-0-barrage/"', 'at "../10-0-bombardment/"',
        "sheets/dak/13-0-specialized-units.md"),
}


@pytest.mark.parametrize("edit", sorted(_REACHING_EDITS))
def test_an_edit_that_reaches_other_pages_makes_them_again(edit: str, tmp_path: Path) -> None:
    """A chapter's page is kept under a key of what it reads (its clauses, the model's lists, the
    rule numbering, the external rules): an edit that changes another page than its own makes that
    page again, and the cached build writes what a build from nothing writes."""
    import shutil

    from conftest import ROOT

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    out, kept = tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    before = files_of(out)
    name, old, new, reached = _REACHING_EDITS[edit]
    text = (rules / name).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (rules / name).write_text(text.replace(old, new), encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0
    after = files_of(out)
    assert after[reached] != before[reached]
    assert after == _from_nothing(tmp_path, rules)


# Edits of what the module never shows, and of a note the checks cite: (file, old, new, the rulesets
# whose module is made and written again, those whose worked examples run again).
_UNSHOWN_EDITS = {
    "a list value's text": (
        "ocs/ch4-general-concepts.rules", 'text "A unit with Truck MP', 'text "A unit with truck MP', [], []),
    "a list value's note": (
        "ocs/ch4-general-concepts.rules", 'note game "In either edition of DAK, units',
        'note game "In both editions of DAK, units', [], []),
    "a worked example's title": (
        "ocs/ch13-specialized-units.rules", 'example "An HQ is 1 RE whatever its designation says"',
        'example "An HQ is 1 RE, whatever its designation says"', [], ["DAK", "DAK_fog", "OCS"]),
    "an override's note": (
        "dak/dak.rules", 'note game "In either edition of DAK, units', 'note game "In both editions of DAK, units',
        ["DAK", "DAK_fog"], ["DAK", "DAK_fog"]),
}


@pytest.mark.parametrize("edit", sorted(_UNSHOWN_EDITS))
def test_an_edit_the_module_never_shows_makes_no_module_again(edit: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's key leaves out what the module never shows, its wording and its worked examples
    (ir.MODULE_ITEMS, ir.module_part): an edit of a list value's text or note makes no module again,
    runs no worked example and analyses no table (it made the three modules of OCS, DAK and DAK_fog,
    ran all their examples and analysed their 46 tables: a build process took 2.0 s, 0.7 s now); an
    edit of a worked example runs the examples but makes no module; an override's note, which the
    checks cite, makes the modules of the games it changes again. Each time the cached build writes
    what a build from nothing writes (traceability.md, which names the examples, included)."""
    import shutil

    from conftest import ROOT

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    out, kept = tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    before = files_of(out)
    made: list[str] = []
    ran: list[str] = []
    real_emit, real_run = build_module.emit_python, build_module.run_examples

    def emitted(model: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(model.manifest.ruleset)
        return real_emit(model, *args, **kwargs)

    def counted(model: Any, *args: Any, **kwargs: Any) -> Any:
        ran.append(model.manifest.ruleset)
        return real_run(model, *args, **kwargs)

    monkeypatch.setattr(build_module, "emit_python", emitted)
    monkeypatch.setattr(build_module, "run_examples", counted)
    counts = Counts(monkeypatch)
    name, old, new, modules, examples = _UNSHOWN_EDITS[edit]
    text = (rules / name).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (rules / name).write_text(text.replace(old, new), encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0
    after = files_of(out)
    written = sorted(rel for rel in after if rel.startswith("python/") and after[rel] != before[rel])
    assert written == [f"python/{ruleset.lower()}.py" for ruleset in modules]
    assert sorted(made) == modules
    assert sorted(ran) == examples
    if not modules:
        assert counts.analysed == []
    assert after != before  # the wording is on the sheets, the example's title in the IR
    assert after == _from_nothing(tmp_path, rules)


def test_the_stamps_of_an_output_folder_are_what_os_walk_and_stat_find(tmp_path: Path) -> None:
    """The no-op check's stamps (manifest._stamps, read from os.scandir's entries) are each file's
    [size, mtime_ns] as os.walk and Path.stat find them: a link to a file stamped as the file, a link
    to a folder not gone into, a link to nothing given a stamp no file has."""
    import os

    out = tmp_path / "out"
    (out / "cards" / "ocs").mkdir(parents=True)
    (out / "cards" / "ocs" / "card-1.html").write_text("<p>1</p>", encoding="utf-8")
    (out / "ir.json").write_text("{}", encoding="utf-8")
    (out / "to-file").symlink_to(out / "ir.json")
    (out / "to-folder").symlink_to(out / "cards")
    (out / "to-nothing").symlink_to(tmp_path / "gone")
    walked = {}
    for base, _, names in os.walk(out):
        for n in names:
            path = Path(base) / n
            st = path.stat() if path.exists() else None
            walked[path.relative_to(out).as_posix()] = [st.st_size, st.st_mtime_ns] if st else [-1, -1]
    stamps = dict(manifest._stamps(out))
    assert stamps == walked
    assert set(stamps) == {"cards/ocs/card-1.html", "ir.json", "to-file", "to-nothing"}
    assert list(manifest._stamps(tmp_path / "not-there")) == []


def test_after_an_edit_only_the_changed_files_are_stamped_and_a_touched_file_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A build records the stamps of the files it changed and keeps the last manifest's for the rest:
    the manifest is what stamping every file gives, and the no-op check trusts it. A file touched
    between builds (its stamp kept, no longer its own) makes the next no-op check build again, and
    that build stamps every file, so the check after it is a no-op."""
    import os

    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    stamped_all: list[Path] = []
    real = manifest._stamps

    def counted(folder: Path) -> Any:
        stamped_all.append(folder)
        return real(folder)

    monkeypatch.setattr(manifest, "_stamps", counted)
    [recorded_file] = kept.glob("build-*.json")

    def recorded() -> dict[str, list[int]]:
        return dict(json.loads(manifest.read_sealed(recorded_file) or b"{}")["files"])

    tree(tmp_path, edit={2: {"value": "3"}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert stamped_all == []  # only the changed files were stamped
    assert recorded() == dict(real(out))
    [touched] = (out / "sheets" / "s").glob("1-*.md")  # chapter 1's page, which an edit of chapter 2 keeps
    os.utime(touched, ns=(1, 1))  # its bytes as they were, its stamp not
    tree(tmp_path, edit={2: {"value": "4"}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert recorded()[touched.relative_to(out).as_posix()] != [touched.stat().st_size, 1]  # kept, stale
    capsys.readouterr()
    assert build(rules, out, "--cache", str(kept)) == 0  # the no-op check finds the touched file
    assert "up to date" not in capsys.readouterr().out and stamped_all
    assert recorded() == dict(real(out))
    assert build(rules, out, "--cache", str(kept)) == 0
    assert capsys.readouterr().out.startswith("up to date:")


@given(st.text(), st.lists(st.tuples(st.text(), st.text())))
def test_a_cards_tables_come_back_from_the_cache_as_they_went_in(line: str, csvs: list[tuple[str, str]]) -> None:
    """Any texts (colons, digits, line breaks, lone surrogates) framed into one and read back."""
    from rulec import sheets

    assert sheets._unframed(sheets._framed((line, csvs))) == (line, csvs)


def test_a_build_in_process_lets_its_models_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once `rulec build` returns, none of the models it made is alive (the sheets' per-model lookups
    held the last few: the next build in the process, --watch's or a program's, went on carrying
    them, twice the objects for the garbage collector and twice the memory); and a compile lets the
    models of the one before it go from those lookups."""
    import gc
    import weakref

    made: list[weakref.ref[Any]] = []
    real = build_module.resolve

    def resolve(*args: Any) -> Any:
        model = real(*args)
        made.append(weakref.ref(model))
        return model

    monkeypatch.setattr(build_module, "resolve", resolve)
    rules, out = tree(tmp_path), tmp_path / "generated"
    assert build(rules, out, "--cache", str(tmp_path / "cache")) == 0
    assert made
    gc.collect()
    assert [r() for r in made] == [None] * len(made)

    from rulec.sheets import text

    series = (rules / "s" / "series.rules").read_text(encoding="utf-8")
    first = build_module.compile_sources({"t.rules": series})
    model = weakref.ref(next(iter(first.models.values())))
    text.per_model(first.models[model().manifest.ruleset], "a lookup", lambda md: md)  # type: ignore[union-attr]
    del first
    gc.collect()
    assert model() is not None  # per_model holds it
    build_module.compile_sources({"t.rules": series})
    gc.collect()
    assert model() is None


def test_the_build_keeps_its_objects_out_of_the_collectors_rounds_to_its_end(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole of `rulec build` runs in one collector.long_lived() block, so what it made stays
    frozen through the writing, the prints and the cache's record: unfrozen before those, every
    object of the build was in the collector's oldest generation and one full round over them, which
    finds nothing, took 0.4 s as the cache was written and 0.6 s as the prints were looked for (10,000
    clauses). Afterwards nothing is left frozen."""
    import gc

    from rulec import collector

    seen: list[tuple[int, bool]] = []
    real_record, real_finish = manifest.BuildCache.record, cache.Work.finish

    def record(self: Any, *args: Any) -> None:
        seen.append((collector._HELD[0], gc.get_freeze_count() > 0))
        real_record(self, *args)

    def finish(self: Any) -> None:
        seen.append((collector._HELD[0], gc.get_freeze_count() > 0))
        real_finish(self)

    monkeypatch.setattr(manifest.BuildCache, "record", record)
    monkeypatch.setattr(cache.Work, "finish", finish)
    assert build(tree(tmp_path), tmp_path / "generated", "--cache", str(tmp_path / "cache")) == 0
    assert seen == [(1, True), (1, True)]
    assert collector._HELD[0] == 0 and gc.get_freeze_count() == 0


@given(st.text())
def test_a_kept_text_is_kept_for_printing_in_its_own_bytes(text: str) -> None:
    """A card's HTML taken from the build cache (KeptText) is kept for printing in the very bytes it
    came in, not compressed again; any other text is packed; both read back as written, and a kept
    text's digest is the SHA-256 of its UTF-8 bytes (what the writer and the sheets take it for)."""
    from rulec.build import Packed
    from rulec.cache import KeptText

    kept_text = KeptText.of(text)
    kept = Packed()
    kept["a"] = kept_text
    kept["b"] = text
    assert kept._packed["a"] is kept_text.packed and kept["a"] == kept["b"] == text == kept_text.text()
    assert kept_text.digest == hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@settings(deadline=None, max_examples=50)  # texts of megabytes
@given(st.text(), st.integers(min_value=0, max_value=3))
def test_a_kept_texts_bytes_are_its_text_encoded(text: str, repeat: int) -> None:
    """What the writer writes of a kept text is text.encode("utf-8"), made from the kept bytes a
    megabyte at a time (texts past a megabyte, characters across the seams); a text UTF-8 cannot
    hold (a lone surrogate) fails, as encoding it does."""
    from rulec.cache import KeptText

    text = text * (1 + repeat * ((1 << 20) // max(1, len(text))))  # some past a megabyte
    try:
        want: bytes | None = text.encode("utf-8")
    except UnicodeEncodeError:
        want = None
    if want is None:
        with pytest.raises(ValueError):
            KeptText.of(text).utf8()
    else:
        assert KeptText.of(text).utf8() == want


def test_the_traceability_document_is_taken_up_after_a_wording_edit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """traceability.md shows each clause's number, title, place, what encodes it and which examples
    use it, never its wording: kept under a hash of its rows, a wording edit takes it up as it was;
    a title edit makes it again; each build writes what a build from nothing writes."""
    from rulec import traceability

    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    made: list[int] = []
    real = traceability._document
    monkeypatch.setattr(traceability, "_document", lambda rows: made.append(1) or real(rows))
    tree(tmp_path, edit={2: {"text": "Chapter two, reworded."}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert made == []
    assert files_of(out) == _from_nothing(tmp_path, rules)
    made.clear()  # the build from nothing made it
    ch2 = rules / "s" / "ch2.rules"
    ch2.write_text(ch2.read_text(encoding="utf-8").replace('"Costs"', '"Costs of moving"'), encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0
    assert made == [1]
    written = files_of(out)
    assert b"Costs of moving" in written["traceability.md"] and written == _from_nothing(tmp_path, rules)


TRACED = '''series T "Traced"

record Unit "A unit" {{
  strength: number = 1 "Its strength"
}}

rule 1.1 "Strength" {{
  text "{text}"
  note encoding "Left as text: {encoding}"
  define strong(u: Unit) -> bool "Strong" = u.strength > 2
  example "A strong unit" {{
    expect strong(Unit {{ strength: 3 }})
  }}
}}

rule 1.2 "Weather" text-only {{
  text "The weather is fine."
  note design "{reason}"
}}
{gap}
external 9.1 "Supply" at "https://example.com/supply"
'''


def test_the_traceability_rows_are_not_made_after_a_wording_edit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """traceability.md is found before its rows are made, by each ruleset's module key, its clauses'
    notes and where its externals are written: a wording edit makes no row; an edit of a note (the
    reasons and encoding notes the document shows) or of where an external is written makes them
    again; each build writes what a build from nothing writes."""
    from rulec import traceability

    rules, out, kept = tmp_path / "rules", tmp_path / "generated", tmp_path / "cache"
    (rules / "t").mkdir(parents=True)
    fields = {"text": "Units are strong.", "encoding": "the weather.", "reason": "Weather is left out.", "gap": ""}

    def write(**changed: str) -> None:
        fields.update(changed)
        (rules / "t" / "t.rules").write_text(TRACED.format(**fields), encoding="utf-8")

    write()
    assert build(rules, out, "--cache", str(kept)) == 0
    made: list[int] = []
    real = traceability.layers
    monkeypatch.setattr(traceability, "layers", lambda *a: made.append(1) or real(*a))

    write(text="Units with more than two points are strong.")
    assert build(rules, out, "--cache", str(kept)) == 0
    assert made == []
    assert files_of(out) == _from_nothing(tmp_path, rules)

    for change, shown in [({"reason": "Weather waits for the expansion."}, b"Weather waits for the expansion."),
                          ({"encoding": "the weather, for now."}, b"the weather, for now."),
                          ({"gap": "\n# supply comes later\n"}, b"rules/t/t.rules:23 ")]:
        made.clear()
        write(**change)
        assert build(rules, out, "--cache", str(kept)) == 0
        assert made and made[0] == 1, change
        written = files_of(out)
        assert shown in written["traceability.md"], change
        made.clear()
        assert written == _from_nothing(tmp_path, rules), change


def _manifest(kept: Path) -> dict[str, Any]:
    [path] = kept.glob("build-*.json")
    data = manifest.read_sealed(path)
    assert data is not None
    found: dict[str, Any] = json.loads(data)
    return found


def test_a_kept_file_the_last_build_recorded_is_not_read_again(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A page, card or module that comes kept (KeptText) is written with its digest in the build's
    manifest. After a wording edit in chapter 3 the writer unpacks only chapter 3's page and card,
    made anew, and reads none of the kept files the last build recorded and that are on disk as it
    left them (only the files made anew are compared); the output is a build from nothing's."""
    from rulec import writing

    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    (rules / "s" / "cards.rules").write_text("in S\n\n" + "".join(
        f'card c{n} "Chapter {n}" {{\n  show {n}.1\n}}\n\n' for n in (1, 2, 3)), encoding="utf-8")
    assert build(rules, out, "--cache", str(kept)) == 0
    digests = _manifest(kept)["digests"]
    for page in ("sheets/s/1-0-costs.md", "cards/s/card-c1.html", "python/s.py"):
        assert digests[page] == hashlib.sha256((out / page).read_bytes()).hexdigest(), page
    read: list[str] = []
    unpacked: list[str] = []
    real_same, real_data = writing._same, writing._data

    def same(path: Path, data: str | bytes) -> bool:
        read.append(path.relative_to(out.resolve()).as_posix())
        return real_same(path, data)

    def as_data(content: writing.Content) -> str | bytes:
        if isinstance(content, KeptText):
            unpacked.append(content.digest)
        return real_data(content)

    monkeypatch.setattr(writing, "_same", same)
    monkeypatch.setattr(writing, "_data", as_data)
    tree(tmp_path, edit={3: {"text": "Chapter three, reworded."}})
    assert build(rules, out, "--cache", str(kept)) == 0
    assert {"sheets/s/1-0-costs.md", "sheets/s/2-0-costs.md", "cards/s/card-c1.html", "cards/s/card-c2.html",
            "python/s.py"}.isdisjoint(read), read
    assert len(unpacked) == 2, unpacked  # chapter 3's page and card, made anew, to be written
    assert "three, reworded" in (out / "sheets/s/3-0-costs.md").read_text(encoding="utf-8")
    monkeypatch.undo()
    assert files_of(out) == _from_nothing(tmp_path, rules)


@pytest.mark.parametrize("how", ["edited", "replaced by a link"])
def test_a_kept_file_changed_since_the_last_build_is_written_again(how: str, tmp_path: Path) -> None:
    """The writer takes a kept file as it is only while its size and mtime are the ones the last
    build recorded with its digest: one edited by hand since, or replaced, is compared and written
    again, whatever the build's cache says."""
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    assert build(rules, out, "--cache", str(kept)) == 0
    page = out / "sheets" / "s" / "1-0-costs.md"
    assert "sheets/s/1-0-costs.md" in _manifest(kept)["digests"]
    if how == "edited":
        page.write_text(page.read_text(encoding="utf-8").replace("Chapter 1.", "Chapter X."), encoding="utf-8")
    else:
        (tmp_path / "elsewhere.md").write_text("not the page\n", encoding="utf-8")
        page.unlink()
        page.symlink_to(tmp_path / "elsewhere.md")
    tree(tmp_path, edit={3: {"text": "Chapter three, reworded."}})  # not a no-op: the build runs
    assert build(rules, out, "--cache", str(kept)) == 0
    assert not page.is_symlink()
    assert files_of(out) == _from_nothing(tmp_path, rules)


def test_a_manifest_digest_names_only_what_the_file_holds(tmp_path: Path) -> None:
    """Each digest the manifest records is the SHA-256 of its file as the build left it, for every
    file that came kept, after a build from nothing and after an edit; a file made anew each build
    (the IR, traceability.md) has none."""
    rules, out, kept = tree(tmp_path), tmp_path / "generated", tmp_path / "cache"
    for edit in ({}, {3: {"text": "Chapter three, reworded."}}, {2: {"value": "3"}}):
        tree(tmp_path, edit=edit)
        assert build(rules, out, "--cache", str(kept)) == 0
        digests = _manifest(kept)["digests"]
        assert digests and "ir/s.json" not in digests and "traceability.md" not in digests
        for rel, digest in digests.items():
            assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == digest, rel
