"""The index page's "What X changes" and the matrix list every change of every layer (#15, item 7).

A layer above a series (a game, a scenario, an option) changes the rules beneath it by overrides
(of clauses, list values, consts, definitions, rows, limits), exception rows (`except TABLE`),
exceptions to limits (`except LIMITS.LIMIT when ...`) and clauses of its own. The changes expected
here are read off each resolved model by the layer every item comes from, not from the code that
writes the pages; each must be on the index page of every ruleset the layer is in, in the layer's
own section, and in the matrix, in the layer's own column. The shipped rules have no scenario, so
a small ruleset with a game, a scenario and an option is checked the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from rulec import model as m
from rulec import sheets
from rulec.build import Result, compile_sources
from rulec.model import target_label
from rulec.sheets.text import md_escape

LAYERED = '''series S "Series" version "1"

rule 1.1 "Sizes" {
  text "Sizes."
  enum Kind "Kind" {
    has big: bool = false "<Big>: big"
    - a "A"
    - b "B" big
    - c "C" big
  }
  record Unit "A unit" {
    kind: Kind = a "Its kind"
    n: int = 0 "A number"
  }
  record Hex "A hex" {
    units: list of Unit = [] "Units"
    off: bool = false "Off map"
  }
  table size(u: Unit) -> int "Size" {
    big: when u.kind.big => 2 "Big units are 2"
    other: otherwise => 1 "Others are 1"
  }
  const cap "Cap" = 3
  const turns "Turns" = 10
  limits stacking(h: Hex) "Stacking" {
    total "Total size": sum(size(u) for u in h.units) at most cap
  }
}

game G "Game" extends S version "2"

override 1.1 cap: 4
  note game "G allows 4."

override 1.1 b: not big
  note game "In G, B units are not big."

rule 2.1 "G's own rule" {
  text "G's rule."
  note design "Why G has it."
  except size {
    tiny: when u.n == 7 => 0 "Units numbered 7 count 0 | <b>not bold</b>"
  }
  except stacking.total when h.off "Off-map hexes are unlimited."
}

scenario C "Crusader" extends G version "3"

override 1.1 turns: 7
  note "The scenario lasts 7 turns."

rule 3.1 "Scenario rule" {
  text "Scenario text."
}

option O "Option" extends S

override 1.1 stacking.total: at most 5
  note "With the option, 5."

ruleset CO "Crusader with O" = C with O
'''


def expected(model: m.Resolved, layer: str) -> list[tuple[str, str, str]]:
    """(kind, key, source) of every change `layer` makes in the model."""
    def src(o: m.Origin) -> str:
        return f"{o.file}:{o.line}"

    out = [("override", target_label(ov.target), src(ov.origin)) for ov in model.overrides
           if ov.origin.layer == layer]
    out += [("exception row", f"{t.origin.clause} {t.name}.{r.label}", src(r.origin)) for t in model.tables
            for r in t.rows if r.exception and r.origin.layer == layer and t.origin.layer != layer]
    for g in model.limits:
        if g.origin.layer != layer:
            out += [("limit exception", f"{g.origin.clause} {g.name}", src(u.origin)) for u in g.unless
                    if u.origin.layer == layer]
            out += [("limit exception", f"{g.origin.clause} {g.name}.{i.name}", src(x.origin)) for i in g.items
                    for x in i.exempt if x.origin.layer == layer]
    out += [("added clause", c.number, src(c.origin)) for c in model.clauses if c.origin.layer == layer]
    return out


def section(page: str, heading: str) -> str:
    """The text under a '## ' heading, up to the next one."""
    head = f"\n## {heading}\n"
    assert head in page, heading
    return page.split(head, 1)[1].split("\n## ", 1)[0]


def table(text: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the first Markdown table in text, as cells."""
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    assert lines, text
    cells = [[c.strip() for c in line.strip()[2:-2].split(" | ")] for line in lines]
    return cells[0], cells[2:]


def key_cell(kind: str, key: str) -> str:
    """How the matrix names a change: its key, and its kind unless an override."""
    return md_escape(key) + ("" if kind == "override" else f" ({md_escape(kind)})")


def check_pages(models: Mapping[str, m.Resolved], files: Mapping[str, str]) -> int:
    """Every change of every layer on the index pages and in the matrix; the number checked."""
    checked = 0
    matrix = files["sheets/matrix.md"]
    for name, model in models.items():
        index = files[f"sheets/{sheets.folder(model)}/_index.md"]
        layers = model.manifest.layers
        assert "What " + md_escape(layers[0]) + " changes" not in index  # the series changes nothing
        for layer in layers[1:]:
            changes = expected(model, layer)
            body = section(index, f"What {md_escape(layer)} changes")
            if not changes:
                assert "changes nothing" in body
                continue
            _, rows = table(body)
            for kind, key, src in changes:
                hits = [r for r in rows if r[-1] == md_escape(src) and (f"[{md_escape(key)}]" in r[0]
                                                                       or r[0].startswith(f"✓ {md_escape(key)}"))]
                assert len(hits) == 1, (name, layer, kind, key, src, rows)
                assert r_kind(hits[0][0]) == kind
                checked += 1
            assert len(rows) == len(changes), (name, layer)
            # the matrix: the series' section, the layer's own column
            series = model.manifest.series
            assert series is not None
            head, mrows = table(section(matrix, f"{md_escape(series.name)} {md_escape(series.version or '')}: "
                                                f"{md_escape(series.title)}"))
            column = next(i for i, h in enumerate(head) if h.split(" ")[0] == md_escape(layer))
            for kind, key, _ in changes:
                [row] = [r for r in mrows if r[0] == key_cell(kind, key)]
                assert row[column].startswith("✓ "), (layer, key, row)
    return checked


def r_kind(cell: str) -> str:
    for kind in ("exception row", "limit exception", "added clause"):
        if f"({kind}" in cell:
            return kind
    return "override"


@pytest.fixture(scope="module")
def layered() -> Result:
    result = compile_sources({"t.rules": LAYERED})
    assert result.ok, [d.render(result.sources) for d in result.diagnostics]
    return result


def test_every_change_of_every_shipped_layer_is_on_the_index_and_in_the_matrix(shipped: Result) -> None:
    files = sheets.sheet_files(shipped.models)
    assert check_pages(shipped.models, files) >= 10  # DAK's 4 in DAK and in DAK_fog, fog_of_war's 2


def test_every_change_of_a_game_a_scenario_and_an_option_is_listed(layered: Result) -> None:
    files = sheets.sheet_files(layered.models)
    assert check_pages(layered.models, files) > 0
    co = files["sheets/co/_index.md"]
    assert [h for h in co.splitlines() if h.startswith("## What")] == [
        "## What G changes", "## What C changes", "## What O changes"]
    assert "Every change the scenario C (Crusader) makes to the rules beneath it (S, G)" in co
    head, _ = table(section(files["sheets/matrix.md"], "S 1: Series"))
    assert head == ["Rule", "S 1", "G 2", "C 3 (scenario)", "O (option)", "Note"]
    assert "O (option: Option, as in CO; 1 change)" in files["sheets/matrix.md"]


def test_texts_of_the_new_rows_stay_text(layered: Result) -> None:
    files = sheets.sheet_files(layered.models)
    for page in (files["sheets/g/_index.md"], files["sheets/matrix.md"]):
        assert "Units numbered 7 count 0 \\| \\<b\\>not bold\\</b\\>" in page
        assert "<b>" not in page


# ---- literal spot checks on the shipped pages --------------------------------------------------------


def test_dak_lists_its_override_of_4_5a_f_and_its_exception_row(shipped: Result) -> None:
    files = sheets.sheet_files(shipped.models)
    dak = section(files["sheets/dak/_index.md"], "What DAK changes")
    assert ("| ✓ [4.5a F](4-0-general-concepts/#45-zone-of-control) | Port Operations - Trace Supply; "
            "\\<Negation\\>: yes | Port Operations - Trace Supply; \\<Negation\\>: no | **Specific Game Note:** "
            "In either edition of DAK, units do not negate EZOCs for Port Operations (F). | "
            "rules/dak/dak.rules:6 |") in dak
    assert ("| ✓ [4.6 re\\_size.jock\\_column](4-0-general-concepts/#46-regimental-equivalents) (exception row, "
            "in [1.2](1-0-dak-and-the-series-rules/#12-game-specific-values-illustrative)) | (not in OCS) | "
            "jock\\_column: 1/2 when is combat and type ≠ HQ and formation = Jock Column and size = Company (ahead of "
            "the table's own rows) | ILLUSTRATIVE: a Jock Column company counts as 1/2 RE | "
            "rules/dak/dak.rules:41 |") in dak
    matrix = files["sheets/matrix.md"]
    assert "| Rule | OCS 4.3 | DAK II | fog\\_of\\_war (option) | Note |" in matrix
    assert ("| 4.6 re\\_size.jock\\_column (exception row) | (not in OCS) | ✓ jock\\_column: 1/2 when is combat and "
            "type ≠ HQ and formation = Jock Column and size = Company (ahead of the table's own rows) |  | **DAK:** "
            "ILLUSTRATIVE: a Jock "
            "Column company counts as 1/2 RE |") in matrix


def test_the_fog_of_war_option_is_a_layer_of_its_own(shipped: Result) -> None:
    files = sheets.sheet_files(shipped.models)
    fog = files["sheets/dak_fog/_index.md"]
    assert "13.7 marker" not in section(fog, "What DAK changes")
    assert "| ✓ [13.7 marker\\_may\\_hide\\_formation]" in section(fog, "What fog\\_of\\_war changes")
    assert "| DAK (game) | fog\\_of\\_war | Note | Source |" in fog
    assert "What fog\\_of\\_war changes" not in files["sheets/dak/_index.md"]
