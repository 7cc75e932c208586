"""Rule sheets (Hugo Markdown), player aid cards (HTML) and their exports, from the shipped rules and hostile ones."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from compiler import printing, sheets
from compiler.build import Result, outputs, with_prints
from compiler.sheets import view
from compiler.sheets.text import blocks, hugo_anchor, md_escape, rule_key
from tests.conftest import ROOT, compile_text

SEED = next((p / "seeds/000_c51e9f3b8ffd8c98.txt" for p in (ROOT.parent / "shared", Path("/work/shared"))
             if (p / "seeds/000_c51e9f3b8ffd8c98.txt").exists()), None)
HOSTILE = '''
series T "Test <b>Series</b>" version "1"

enum Kind "Kind" {
  - a "A"
  - b "B"
}

record Unit "A unit" {
  kind: Kind = a "Its kind"
}

rule 1.1 "Hostile <script>alert(1)</script>" {
  text """
    ---
    title: "pwned"
    ---
    <script>alert(1)</script> [link](javascript:alert(1)) **bold**
  """
  note design "# not a heading <img src=x onerror=alert(1)>"
  enum Act "Acts" {
    has ok: bool = false "<Mark>: fine"
    - X "<script>alert(1)</script>" ok
    - Y "Plain"
  }
  define is_a(u: Unit) -> bool "Is A" = u.kind == a
}
'''


@pytest.fixture(scope="module")
def files(shipped: Result) -> dict[str, str]:
    return sheets.sheet_files(shipped.models)


@pytest.fixture(scope="module")
def hostile() -> Result:
    result = compile_text(HOSTILE)
    assert result.ok, [d.message for d in result.diagnostics]
    return result


def front_matter(text: str) -> dict[str, Any]:
    assert text.startswith("---\n")
    head, _, _ = text[4:].partition("\n---\n")
    out: dict[str, Any] = {}
    for line in head.splitlines():
        key, _, value = line.partition(": ")
        value = value.split("  #")[0]
        out[key] = json.loads(value) if value.startswith('"') or value.isdigit() else value
    return out


class Dom(HTMLParser):
    """The elements of an HTML page with their attributes and text (a parse, not a browser: see test_browser)."""

    def __init__(self, text: str):
        super().__init__()
        self.elements: list[dict[str, Any]] = []
        self.stack: list[dict[str, Any]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(el)
        if tag not in ("meta", "br", "img", "link"):
            self.stack.append(el)

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop()["tag"] != tag:
            pass

    def handle_data(self, data: str) -> None:
        for el in self.stack:
            el["text"] += data

    def find(self, tag: str | None = None, **attrs: str) -> list[dict[str, Any]]:
        return [e for e in self.elements if (tag is None or e["tag"] == tag)
                and all(e["attrs"].get(k.replace("_", "-")) == v for k, v in attrs.items())]


# ---- Markdown rule sheets ---------------------------------------------------------------------


def test_chapter_page_front_matter_is_the_hugo_book_layout(files: dict[str, str]) -> None:
    fm = front_matter(files["sheets/ocs/4-0-general-concepts.md"])
    assert fm["title"] == fm["linktitle"] == "4.0 General Concepts"
    assert fm["weight"] == 40 and fm["type"] == "book" and fm["toc"] == "true"


def test_headings_and_clause_labels_match_the_online_rulebook(files: dict[str, str]) -> None:
    seed = SEED.read_text(encoding="utf-8") if SEED is not None else None
    ours = files["sheets/ocs/4-0-general-concepts.md"]
    ours_headings = re.findall(r"^## .*$", ours, re.M)
    assert ours_headings[:3] == ["## 4.1 Rounding Rule", "## 4.2 Fractions", "## 4.3 Cumulative Effects"]
    assert "**4.5b Negating ZOC.** Per [4.5a](#45-zone-of-control), some" in ours
    assert "**4.4a** Attacking units" in ours
    if seed is not None:  # every heading and clause label of the seed page is on ours
        assert re.findall(r"^## .*$", seed, re.M) == ours_headings
        labels = re.findall(r"^\*\*(4\.\d[a-z]?)\b", seed, re.M)
        for label in labels:
            assert re.search(rf"^\*\*{re.escape(label)}\b", ours, re.M), label


def test_cross_references_link_to_the_right_anchors(files: dict[str, str]) -> None:
    md = files["sheets/ocs/4-0-general-concepts.md"]
    assert "([9.14a](../9-0-ground-combat/#914-specialized-combats))" in md  # an external clause
    assert "Zone of Control ([4.5](#45-zone-of-control))" in md  # a section on the same page
    assert "(see [4.8c](#48-stacking))" in md  # a clause, at its section's heading
    assert "See [9.12e](../9-0-ground-combat/#912-retreats--advances)." in md
    assert hugo_anchor("9.12 Retreats & Advances") == "912-retreats--advances"


def test_list_values_carry_their_marks_and_the_dak_change_is_checked(files: dict[str, str]) -> None:
    ocs = files["sheets/ocs/4-0-general-concepts.md"]
    dak = files["sheets/dak/4-0-general-concepts.md"]
    assert "* **A) Truck Movement. \\<Negation\\>** A unit with Truck MP" in ocs
    assert "* **F) Port Operations - Trace Supply. \\<Negation\\>** ***Specific Game Note:** In either" in ocs
    assert "* ✓ **F) Port Operations - Trace Supply.** ***Specific Game Note:** In either" in dak
    assert "✓" not in ocs.replace("✓ marks", "")


def test_what_dak_changes_sets_the_series_text_beside_the_games(files: dict[str, str]) -> None:
    index = files["sheets/dak/_index.md"]
    row = next(line for line in index.splitlines() if line.startswith("| ✓ [4.5a F]"))
    cells = [c.strip() for c in row.strip("|").split(" | ")]
    assert cells[1].endswith("\\<Negation\\>: yes") and cells[2].endswith("\\<Negation\\>: no")
    assert "In either edition of DAK" in cells[3] and cells[4] == "rules/dak/dak.rules:6"
    assert "What DAK changes" not in files["sheets/ocs/_index.md"]


def test_the_matrix_has_a_column_per_game_and_marks_departures(files: dict[str, str]) -> None:
    matrix = files["sheets/matrix.md"]
    assert "| Rule | OCS 4.3 | DAK II |" in matrix
    assert "| 4.5a F | Port Operations - Trace Supply; \\<Negation\\>: yes | ✓ Port Operations - Trace Supply; " \
           "\\<Negation\\>: no |" in matrix


def test_markdown_escaping_keeps_hostile_text_as_text(hostile: Result) -> None:
    pages = sheets.rule_sheet(hostile.models, hostile.models["T"])
    page = pages["1-0-hostile-script-alert-1-script.md"]
    fm = front_matter(page)
    assert fm["title"] == "1.0 Hostile <script>alert(1)</script>"  # quoted YAML, closing nothing
    assert page.count("\n---\n") == 1  # only the front matter's own closing line
    assert "<script>" not in page.split("\n---\n", 1)[1]
    assert "\\<script\\>alert(1)\\</script\\>" in page
    assert "\\---" in page and "\\[link\\](javascript:alert(1))" in page and "\\*\\*bold\\*\\*" in page
    assert "\\# not a heading \\<img" in page


def test_md_escape_and_text_blocks() -> None:
    assert md_escape("# x", line_start=True) == "\\# x"
    assert md_escape("1. x", line_start=True) == "1\\. x"
    assert md_escape("a_b*c*") == "a\\_b\\*c\\*"
    assert blocks("  One\n  two.\n\n  * a\n    b\n  * c\n") == [
        {"kind": "p", "text": "One two."}, {"kind": "ul", "items": ["a b", "c"]}]
    assert rule_key("4.10") > rule_key("4.9a") > rule_key("4.9") > rule_key("4.0")


# ---- cards -----------------------------------------------------------------------------------


def test_cards_are_derived_from_the_kinds_of_declarations(shipped: Result) -> None:
    cards = view.cards(shipped.models, shipped.models["OCS"])
    kinds = {(b["kind"], b["number"]) for c in cards for b in c["blocks"]}
    assert {("marks", "4.5a"), ("sizes", "4.6"), ("limits", "4.8"), ("definition", "4.4"),
            ("definition", "4.5")} <= kinds
    first = cards[0]["blocks"]
    assert {b["number"] for b in first} >= {"4.4", "4.5", "4.5a", "4.6", "4.8"}


def test_the_first_card_has_every_required_line_with_its_rule(files: dict[str, str], ocs: dict[str, Any]) -> None:
    dom = Dom(files["cards/ocs/card-1.html"])
    rows = [e for e in dom.find("tr") if e["attrs"].get("data-rule", "").startswith("4.5a ")]
    members = next(e for e in ocs["enums"] if e["name"] == "EzocAction")["members"]
    assert [r["attrs"]["data-key"] for r in rows] == [m["name"] for m in members]
    for r, m in zip(rows, members, strict=True):
        assert r["attrs"]["data-negatable"] == ("true" if m["attrs"]["negatable"]["value"] else "false")
        assert r["attrs"]["data-rule"] == f"4.5a {m['name']}"
    assert [e["attrs"]["data-key"] for e in dom.find("tr") if e["attrs"].get("data-rule", "").startswith("4.6")] == \
        ["multi_step", "quarter", "battalion", "other"]
    limits = dom.find("li", **{"class": "limit"})
    assert [li["attrs"]["data-key"] for li in limits] == ["combat_re", "ports", "air_bases", "hedgehogs"]
    assert "Stacking is not enforced in the Reinforcement Phase." in limits[0]["text"]
    assert "Stacking in Off-Map Holding Boxes is unlimited." in dom.find("div", **{"class": "unless"})[0]["text"]
    defs = {s["attrs"]["data-rule"]: s["text"] for s in dom.find("section", **{"class": "block definition"})}
    assert "Attack-Capable" in defs["4.4"] and "Zone of Control" in defs["4.5"]
    manifest = dom.find("dl", **{"class": "manifest"})[0]["text"]
    assert "Operational Combat Series" in manifest and "4.3" in manifest and "none" in manifest


def test_the_dak_card_marks_the_f_row_changed_with_the_game_note(files: dict[str, str]) -> None:
    card1 = Dom(files["cards/dak/card-1.html"])
    f = card1.find("tr", data_rule="4.5a F")[0]
    dom = Dom("".join(v for k, v in sorted(files.items()) if k.startswith("cards/dak/card-")))
    assert f["attrs"]["class"] == "row changed" and f["attrs"]["data-changed"] == "DAK"
    assert f["attrs"]["data-negatable"] == "false"
    assert "Specific Game Note: In either edition of DAK" in f["text"] and "OCS: ●" in f["text"]
    others = [e for e in card1.find("tr") if e["attrs"].get("data-rule", "").startswith("4.5a ") and e is not f]
    assert others and all("changed" not in e["attrs"]["class"] for e in others)
    changes = dom.find("section", **{"class": "block changes"})[0]
    assert "4.5a F" in changes["text"]
    assert "Deutsches Afrika Korps" in dom.find("dl", **{"class": "manifest"})[0]["text"]
    assert not Dom(files["cards/ocs/card-1.html"]).find("tr", data_changed="DAK")


def test_no_rule_text_is_typed_into_a_template() -> None:
    root = Path(sheets.__file__).parent.parent / "templates"
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(root.glob("*.j2")))
    for words in ("Negation", "Zone of Control", "Stacking", "Regimental", "Attack-Capable", "Port Operations",
                  "10 RE", "Truck", "OCS", "DAK"):
        assert words not in text, words


def test_hostile_text_is_escaped_on_the_card(hostile: Result) -> None:
    html = sheets.cards(hostile.models, hostile.models["T"])["card-1.html"]
    assert "<script>" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    dom = Dom(html)
    assert not dom.find("script")
    assert dom.find("tr", data_rule="1.1 X")[0]["text"].count("<script>alert(1)</script>") == 1


def test_card_tables_export_as_csv_and_json(files: dict[str, str]) -> None:
    rows = list(csv.DictReader(io.StringIO(files["cards/dak/4.5a-EzocAction.csv"])))
    assert [r["key"] for r in rows] == list("ABCDEFGHIJK")
    f = rows[5]
    assert (f["negatable"], f["changed_by"]) == ("no", "DAK") and "In either edition" in f["note"]
    assert next(r for r in csv.DictReader(io.StringIO(files["cards/ocs/4.5a-EzocAction.csv"])) if r["key"] == "F")[
        "negatable"] == "yes"
    sizes = {r["key"]: r["value"] for r in csv.DictReader(io.StringIO(files["cards/ocs/4.6-re_size.csv"]))}
    assert sizes["multi_step"] == "u.printed_re - u.step_losses"
    assert (sizes["quarter"], sizes["battalion"], sizes["other"]) == ("1/4", "1/2", "1")
    values = list(csv.DictReader(io.StringIO(files["cards/ocs/4.6-re_size-values.csv"])))
    by = {(r["type"], r["size"]): r["re_size"] for r in values}
    assert by[("combat_unit", "battalion")] == "1/2" and by[("repl", "division")] == "1/4"
    assert by[("combat_unit", "company")] == "1/4" and by[("hq", "division")] == "1"
    doc = json.loads(files["cards/dak/tables.json"])
    assert doc["manifest"]["ruleset"] == "DAK" and doc["values"]["re_size"]
    marks = next(b for c in doc["cards"] for b in c["blocks"] if b["kind"] == "marks")
    assert marks["rows"][5]["changed"][0]["layer"] == "DAK"


def test_sheets_are_byte_identical_on_every_run(shipped: Result, files: dict[str, str]) -> None:
    assert sheets.sheet_files(shipped.models) == files
    assert all(not v.endswith("\n\n") and v.endswith("\n") for k, v in files.items() if k.endswith(".md"))


def test_cards_pack_onto_as_many_pages_as_they_need(shipped: Result) -> None:
    model = shipped.models["OCS"]
    big = [{"kind": "definition", "number": f"4.{i}", "est": view.COLUMN_HEIGHT * 3 // 5} for i in range(1, 6)]
    cards = view._pack(model, [(b["number"], [b]) for b in big])
    assert len(cards) == 3  # one block of 3/5 of a column per column: two a card
    assert [len(c["columns"]) for c in cards] == [2, 2, 1]
    assert all(c["est"] <= view.COLUMN_HEIGHT for c in cards)
    assert [c["name"] for c in cards] == [f"card-{i}" for i in range(1, len(cards) + 1)]


# ---- prints and their sidecars (no browser needed) --------------------------------------------


def test_prints_are_kept_when_their_sidecar_matches_and_skipped_without_chromium(
        shipped: Result, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEC_CHROMIUM", "/nonexistent/chromium")
    files = outputs(shipped)
    jobs = printing.jobs_for(files)
    assert {j.paper for j in jobs} == {"letter", "a4", "preview"} and len(jobs) % 3 == 0
    everything, notes = with_prints(files, tmp_path, allow_print=True)
    assert notes and "chromium not found" in notes[0] and not any(k.endswith(".pdf") for k in everything)
    job = jobs[0]  # pretend it was printed earlier from the same HTML
    (tmp_path / job.target).parent.mkdir(parents=True)
    (tmp_path / job.target).write_bytes(b"%PDF-1.4 old print")
    (tmp_path / job.sidecar).write_text(job.sidecar_text(files[job.source]), encoding="utf-8")
    everything, notes = with_prints(files, tmp_path, allow_print=True)
    assert everything[job.target] == b"%PDF-1.4 old print" and f"  not printed: {job.target}" not in notes
    changed = dict(files, **{job.source: files[job.source] + "<!-- edited -->"})
    everything, notes = with_prints(changed, tmp_path, allow_print=True)
    assert job.target not in everything and f"  not printed: {job.target}" in notes


def test_sidecar_names_the_html_hash_and_paper(files: dict[str, str]) -> None:
    job = printing.Job("cards/dak/card-1.html", "cards/dak/card-1.a4.pdf", "a4")
    text = job.sidecar_text(files[job.source])
    assert f"sha256: {printing.sha256(files[job.source])}" in text and "paper: a4 (8.27 x 11.69 in" in text


def test_pdf_dates_are_fixed_without_moving_a_byte() -> None:
    pdf = b"1 0 obj\n<</CreationDate (D:20261121063421+00'00')\n/ModDate (D:20261121063421+00'00')>>\nxref"
    fixed = printing.fix_pdf_dates(pdf)
    assert len(fixed) == len(pdf) and b"2026" not in fixed and fixed.count(b"D:20000101000000Z") == 2
