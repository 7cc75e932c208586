"""docs/traceability.md (compiler/traceability.py): every clause of every shipped layer, what encodes
it, which worked examples exercise it, and why a text-only clause is text; fresh in docs/ and in
generated/, deterministic, and escaped as the sheets escape text."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from rulec import model as m
from rulec import traceability
from rulec.analysis import run_example_traced
from rulec.build import Result, compile_sources, find_sources, outputs
from rulec.sheets.text import md_escape
from tests.conftest import compile_text

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "traceability.md"


def _doc(shipped: Result) -> str:
    return traceability.document(shipped.models, shipped.sources)


def _sections(doc: str) -> dict[str, list[list[str]]]:
    """Each layer's table rows, split into cells, by layer name (as escaped in the heading)."""
    out: dict[str, list[list[str]]] = {}
    layer = None
    for line in doc.splitlines():
        head = re.match(r"## \w+ (.+?): ", line)
        if head:
            layer = head.group(1).replace("\\_", "_")
            out[layer] = []
        elif layer is not None and line.startswith("| ") and not line.startswith("| Clause") \
                and not line.startswith("| ---"):
            out[layer].append(_cells(line))
    return out


def _cells(line: str) -> list[str]:
    """A table row's cells: split at the '|' that are not escaped."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]


def _layer_items(shipped: Result) -> dict[str, tuple[m.Resolved, list[m.Clause]]]:
    out: dict[str, tuple[m.Resolved, list[m.Clause]]] = {}
    for name in sorted(shipped.models):
        model = shipped.models[name]
        for layer in model.manifest.layers:
            if layer not in out:
                out[layer] = (model, [c for c in model.clauses if c.origin.layer == layer])
    return out


def test_every_clause_of_every_layer(shipped: Result) -> None:
    sections = _sections(_doc(shipped))
    layers = _layer_items(shipped)
    assert set(sections) == set(layers) == {"OCS", "DAK", "fog_of_war", "ZCS", "ACW"}
    for layer, (_, clauses) in layers.items():
        rows = sections[layer]
        numbers = [r[0] for r in rows]
        assert len(numbers) == len(set(numbers)), layer
        for c in clauses:
            row = rows[numbers.index(md_escape(c.number))]
            assert row[2] == md_escape(f"{c.origin.file}:{c.origin.line}")
            assert row[1] == md_escape((c.title or "").strip())
    # the externals, which the model keeps without a layer, each once, with where they are written
    ocs = dict((r[0], r) for r in sections["OCS"])
    for e in shipped.models["OCS"].externals:
        row = ocs[md_escape(e.number)]
        assert row[3].startswith("external") and row[2].startswith("rules/ocs/"), row
    assert not any(r[3].startswith("external") for r in sections["DAK"])  # OCS's, not DAK's again


def test_rule_order(shipped: Result) -> None:
    for layer, rows in _sections(_doc(shipped)).items():
        keys = [traceability.rule_order(r[0]) for r in rows]
        assert keys == sorted(keys), layer


def test_encoded_clauses_name_their_declarations(shipped: Result) -> None:
    sections = _sections(_doc(shipped))
    for layer, (model, clauses) in _layer_items(shipped).items():
        rows = {r[0]: r for r in sections[layer]}
        written: dict[str, set[str]] = {}
        items: list[m.Define | m.Table | m.ConstDef | m.Limits | m.EnumDef | m.RecordDef] = [
            *model.defines, *model.tables, *model.consts, *model.limits, *model.enums, *model.records]
        for d in items:
            if d.origin.layer == layer and d.origin.clause is not None:
                written.setdefault(d.origin.clause, set()).add(d.name)
        for c in clauses:
            cell = rows[md_escape(c.number)][3]
            if c.text_only:
                assert cell.lower().startswith("text-only"), (layer, c.number, cell)
                continue
            assert cell != "—" and not cell.lower().startswith("text-only"), (layer, c.number)
            for name in written.get(c.number, ()):
                assert f"`{name}`" in cell, (layer, c.number, name, cell)
    ocs = {r[0]: r for r in sections["OCS"]}
    assert "table `re_size` (rows `not_combat`" in ocs["4.6"][3]
    assert "except `stacking.combat_re`" in ocs["4.8a"][3]
    assert "limits `stacking` (`combat_re`" in ocs["4.8"][3]
    dak = {r[0]: r for r in sections["DAK"]}
    assert "override OCS 4.5a F" in dak["4.5a"][3]  # written outside a DAK clause: a row of its own
    assert "13.2c" not in dak  # DAK changes nothing of 13.2c (the counter-mix is the caller's)
    # an encoding note says what is left as text only when it starts so; otherwise how a sentence is encoded
    assert "encoding: 4.5-2 names the exception" in ocs["4.5"][3] and "left as text: 4.5-2" not in ocs["4.5"][3]
    assert "Left as text: 4.8-4" in ocs["4.8"][3]
    fog = {r[0]: r for r in sections["fog_of_war"]}
    assert "override OCS 13.7 marker\\_may\\_hide\\_formation" in fog["13.7b"][3]  # inside a clause: in its row
    for layer, (model, _) in _layer_items(shipped).items():  # every override of the layer is named
        cells = " ".join(r[3] for r in sections[layer])
        for ov in model.overrides:
            if ov.origin.layer == layer:
                assert md_escape(f"override {ov.of_layer} {m.target_label(ov.target)}") in cells


def test_examples_appear_under_the_clauses_they_exercise(shipped: Result) -> None:
    sections = _sections(_doc(shipped))
    ocs = {r[0]: r for r in sections["OCS"]}
    model = shipped.models["OCS"]
    ex48a = next(e for e in model.examples if e.clause == "4.8a")
    label = md_escape(traceability.example_label(ex48a))
    assert label.startswith("4.8a 'Not enforced in the Reinforcement Phase")
    assert "rules/ocs/ch4-general-concepts.rules:" in label
    for number in ("4.8a", "4.8"):  # its own clause, and the limits it runs
        assert label in ocs[number][4].split("<br>"), number
    ex46 = [e for e in model.examples if e.clause == "4.6"]
    assert ex46 and all(md_escape(traceability.example_label(e)) in ocs["4.6"][4] for e in ex46)
    # every example, under every clause its run cites, in every ruleset it runs in
    for name, mo in shipped.models.items():
        for ex in mo.examples:
            _, _, cites = run_example_traced(mo, ex)
            label = md_escape(traceability.example_label(ex))
            for c in cites:
                if c.clause is None:
                    continue
                rows = {r[0]: r for r in sections[c.layer]}
                assert label in rows[md_escape(c.clause)][4].split("<br>"), (name, c, label)


def test_text_only_clauses_are_marked_and_their_reasons_shown(shipped: Result) -> None:
    sections = _sections(_doc(shipped))
    ocs = {r[0]: r for r in sections["OCS"]}
    assert ocs["4.5c"][3].startswith("text-only: The lack of ZOC effects")  # its design note
    for layer, (_, clauses) in _layer_items(shipped).items():
        rows = {r[0]: r for r in sections[layer]}
        for c in clauses:
            if c.text_only and not any(n.kind in ("design", "encoding") for n in c.notes):
                assert rows[md_escape(c.number)][3] == traceability.NO_REASON


def test_text_only_clauses_with_no_reason_are_listed(shipped: Result) -> None:
    """Not a failure: the list of the text-only clauses whose reason is not written yet (a `note encoding`
    inside the clause), printed with -s and kept in step with the document's summary."""
    missing = traceability.unreasoned(shipped.models)
    print("\ntext-only clauses with no reason given:\n  " + "\n  ".join(missing))
    doc = _doc(shipped)
    summary = [_cells(line) for line in doc.split("## Summary", 1)[1].split("\n## ", 1)[0].splitlines()
               if line.startswith("| ") and not line.startswith("| Layer") and not line.startswith("| ---")]
    assert sum(int(r[5]) for r in summary) == len(missing) == doc.count(traceability.NO_REASON)
    for r in summary:
        clauses, encoded, text_only, _, _, external = (int(x) for x in r[2:8])
        assert clauses == encoded + text_only + external, r
    layers = _layer_items(shipped)
    assert {r[0].replace("\\_", "_"): int(r[2]) - int(r[7]) for r in summary} == \
        {name: len(clauses) for name, (_, clauses) in layers.items()}


def test_deterministic(shipped: Result) -> None:
    assert _doc(shipped) == _doc(shipped)
    again = compile_sources(dict(reversed(list(shipped.sources.items()))))
    assert traceability.document(again.models, again.sources) == _doc(shipped)


SNIPPET = '''series ESC "Escapes" version "1"

rule 1.1 "Pipes | and <b>tags</b> and *stars* {{ shortcode }}" {
  text "Anything."
  define one() -> int = 1
  example "A | in <i>the</i> *title*" {
    expect one() == 1
  }
}

rule 1.2 "Only | text <x>" text-only {
  text "Words."
  note design "Kept as text | because <reasons> *matter*."
}
'''


def test_escaping() -> None:
    result = compile_text(SNIPPET)
    assert result.ok, result.diagnostics
    doc = traceability.document(result.models, result.sources)
    rows = _sections(doc)["ESC"]
    assert [len(r) for r in rows] == [5, 5]
    assert rows[0][1] == md_escape("Pipes | and <b>tags</b> and *stars* {{ shortcode }}")
    assert "<b>" not in doc and "<i>" not in doc and "{{" not in doc
    assert "\\|" in rows[0][1] and "\\<b\\>" in rows[0][1] and "\\*stars\\*" in rows[0][1]
    assert rows[0][3] == "define `one`"
    assert rows[0][4] == md_escape("1.1 'A | in <i>the</i> *title*' (t0.rules:6)")
    assert rows[1][3] == "text-only: " + md_escape("Kept as text | because <reasons> *matter*.")


ENCODING = '''series ENC "Encoding notes" version "1"

rule 1.1 "Partly encoded" {
  text "Units stack to 3. The top unit is shown."
  note encoding "Left as text: 'The top unit is shown' (no check reads what the enemy sees)."
  note design "A design note the players read."
  define limit() -> int = 3
}

rule 1.2 "Only text" text-only {
  text "Words."
  note design "A design note the players read."
  note encoding "Text-only: a heading."
}
'''


def test_encoding_notes_in_traceability_and_never_on_sheets(tmp_path: Path) -> None:
    """An encoding note names what a clause leaves as text: traceability.md shows it (the reason of a
    text-only clause, before its design note), the summary counts those of encoded clauses, and no sheet,
    card or CSV prints it; the design note stays where players read it."""
    result = compile_text(ENCODING)
    assert result.ok, result.diagnostics
    doc = traceability.document(result.models, result.sources)
    rows = _sections(doc)["ENC"]
    assert rows[0][3] == "define `limit`<br>" + md_escape(
        "Left as text: 'The top unit is shown' (no check reads what the enemy sees).")
    assert rows[1][3] == "Text-only: a heading."  # the note's own words say it; no second "text-only:"
    summary = [_cells(line) for line in doc.split("## Summary", 1)[1].splitlines() if line.startswith("| ENC")]
    assert summary[0][6] == "1"
    files = outputs(result, validate=False)
    shown = "\n".join(text for path, text in files.items() if not path.endswith("traceability.md")
                      and not path.startswith("ir/") and isinstance(text, str))
    assert "A design note the players read." in shown
    assert "Left as text" not in shown and "Text-only: a heading" not in shown


def test_in_the_build_outputs(shipped: Result) -> None:
    files = outputs(shipped, validate=False)
    assert files[traceability.REL] == _doc(shipped)


def test_docs_copy_is_fresh(shipped: Result) -> None:
    """docs/traceability.md is what the build makes, byte for byte (as is generated/traceability.md):
    run 'rulec build' when this fails."""
    assert DOC.read_text(encoding="utf-8") == _doc(shipped), "run 'rulec build'"
    assert (ROOT / "generated" / traceability.REL).read_bytes() == DOC.read_bytes()


def test_build_writes_docs_only_beside_its_output(tmp_path: Path) -> None:
    """A build into a folder with docs/ beside it copies the document there; --check then compares it,
    and fails when docs/ holds something else. Into a folder with no docs/ beside it, nothing else."""
    sources, _ = find_sources([ROOT / "rules"])
    rules = tmp_path / "rules"
    for name, text in sources.items():  # one small series: where the document goes is what is tested
        if not name.startswith("rules/zoc-classes/"):
            continue
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    run = [sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(tmp_path / "generated"),
           "--no-print", "--no-cache"]
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = (tmp_path / "docs" / "traceability.md").read_bytes()
    assert written == (tmp_path / "generated" / "traceability.md").read_bytes()
    check = [*run[:-2], "--check"]
    assert subprocess.run(check, cwd=tmp_path, capture_output=True).returncode == 0
    (tmp_path / "docs" / "traceability.md").write_text("stale\n", encoding="utf-8")
    done = subprocess.run(check, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 1 and "differs: docs/traceability.md" in done.stderr
    alone = tmp_path / "alone"
    alone.mkdir()
    done = subprocess.run([*run[:6], "--out", str(alone / "generated"), *run[8:]], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in alone.iterdir()) == ["generated"]


def test_the_examples_the_build_ran_are_not_run_again_and_give_the_same_document(shipped: Result) -> None:
    """The build runs every example on the interpreter and the generated module (crosscheck) and keeps
    the rules each run used; traceability.md takes them from there instead of running the examples
    again, and reads the same as when it runs them itself."""
    built = compile_sources(shipped.sources, crosscheck=True)
    assert set(built.cites) == set(built.models)
    assert sum(map(len, built.cites.values())) == sum(len(mo.examples) for mo in built.models.values())
    assert traceability.document(built.models, built.sources, built.cites) == _doc(shipped)
    # and what it is given is what it shows: one example's runs (in OCS and the games over it) said to
    # use no rule leave the clauses it exercises without it
    origin = next(o for o, c in built.cites["OCS"].items() if c)
    emptied = {name: {o: ([] if o == origin else c) for o, c in ran.items()} for name, ran in built.cites.items()}
    assert traceability.document(built.models, built.sources, emptied) != _doc(shipped)
