"""Rule sheets (Hugo Markdown), player aid cards (HTML) and their exports, from the shipped rules and hostile ones."""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulec import printing, sheets
from rulec.build import Result, outputs, with_prints
from rulec.sheets import view
from rulec.sheets.text import Words, blocks, hugo_anchor, md_escape, rule_key
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


def _anchor_one_char_at_a_time(heading: str) -> str:
    """hugo_anchor as it was first written: each character on its own (the rule it must keep)."""
    out = []
    for ch in heading.strip():
        if ch.isalnum():
            out.append(ch.lower())
        elif ch in "-_":
            out.append(ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


@given(st.text(st.characters(codec="ascii")) | st.text())
def test_an_anchor_is_made_from_each_character_of_its_heading(heading: str) -> None:
    """The fast way (one translate for an ASCII heading) gives what the rule gives, for any heading,
    and a final capital sigma stays a σ (a whole string's lower() would make it ς)."""
    assert hugo_anchor(heading) == _anchor_one_char_at_a_time(heading)
    assert hugo_anchor("4.5 ΟΣ Rules\x1f-x_") == "45-οσ-rules--x_"


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
    assert fm["title"] == "Chapter 1: Hostile <script>alert(1)</script>"  # quoted YAML, closing nothing
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
    first = cards[0]["blocks"]  # the designer's first card (rules/ocs/cards.rules): Zones of Control
    assert {b["number"] for b in first} >= {"4.4", "4.4b", "4.5", "4.5a", "4.5b"}


def test_the_first_card_has_every_required_line_with_its_rule(files: dict[str, str], ocs: dict[str, Any]) -> None:
    dom = Dom("".join(v for k, v in sorted(files.items()) if k.startswith("cards/ocs/card-")))  # chapter 4's cards
    rows = [e for e in dom.find("tr") if e["attrs"].get("data-rule", "").startswith("4.5a ")]
    members = next(e for e in ocs["enums"] if e["name"] == "EzocAction")["members"]
    assert [r["attrs"]["data-key"] for r in rows] == [m["name"] for m in members]
    for r, m in zip(rows, members, strict=True):
        assert r["attrs"]["data-negatable"] == ("true" if m["attrs"]["negatable"]["value"] else "false")
        assert r["attrs"]["data-rule"] == f"4.5a {m['name']}"
    assert [e["attrs"]["data-key"] for e in dom.find("tr") if e["attrs"].get("data-rule", "").startswith("4.6")] == \
        ["not_combat", "multi_step", "quarter", "battalion", "other"]
    limits = dom.find("li", **{"class": "limit"})
    assert [li["attrs"]["data-key"] for li in limits] == ["combat_re", "ports", "air_bases", "hedgehogs"]
    assert "Stacking is not enforced in the Reinforcement Phase." in limits[0]["text"]
    assert "Stacking in Off-Map Holding Boxes is unlimited." in dom.find("div", **{"class": "unless"})[0]["text"]
    defs = {s["attrs"]["data-rule"]: s["text"] for s in dom.find("section", **{"class": "block definition"})}
    assert "Attack-Capable" in defs["4.4"] and "Zone of Control" in defs["4.5"]
    manifest = dom.find("dl", **{"class": "manifest"})[0]["text"]
    assert "Operational Combat Series" in manifest and "4.3" in manifest and "none" in manifest


def test_the_dak_card_marks_the_f_row_changed_with_the_game_note(files: dict[str, str]) -> None:
    card1 = Dom(files["cards/dak/card-zoc.html"])
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
    assert not Dom(files["cards/ocs/card-zoc.html"]).find("tr", data_changed="DAK")


def test_no_rule_text_is_typed_into_a_template() -> None:
    root = Path(sheets.__file__).parent.parent / "templates"
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(root.glob("*.j2")))
    for words in ("Negation", "Zone of Control", "Stacking", "Regimental", "Attack-Capable", "Port Operations",
                  "10 RE", "Truck", "OCS", "DAK", "ZOC", "Supply", "Flanking", "DRM", "ZCS", "ACW"):
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
    # numbers a spreadsheet reads as numbers (never '1/2', which Excel takes for a date): the decimal,
    # the exact numerator and denominator, the rules text apart, and the value as the card shows it
    sizes = {r["key"]: r for r in csv.DictReader(io.StringIO(files["cards/ocs/4.6-re_size.csv"]))}
    multi = sizes["multi_step"]
    assert (multi["value"], multi["numerator"], multi["rules_text"]) == ("", "", "u.printed_re - u.step_losses")
    assert [(sizes[k]["value"], sizes[k]["numerator"], sizes[k]["denominator"], sizes[k]["display"])
            for k in ("quarter", "battalion", "other")] == [("0.25", "1", "4", "¼"), ("0.5", "1", "2", "½"),
                                                             ("1", "1", "1", "1")]
    assert not any("/" in cell for r in sizes.values() for cell in (r["value"], r["display"]))
    zoc = {r["key"]: r for r in csv.DictReader(io.StringIO(files["cards/zcs/5.A.1-ZocClass.csv"]))}
    assert [(zoc["no_zoc"][k]) for k in ("supply_multiplier", "supply_multiplier_numerator",
                                         "supply_multiplier_denominator", "supply_multiplier_display",
                                         "red_modifier", "red_modifier_display")] == ["0.25", "1", "4", "¼", "-2", "−2"]
    assert "red_modifier_numerator" not in zoc["no_zoc"]  # whole numbers need no exact parts
    values = list(csv.DictReader(io.StringIO(files["cards/ocs/4.6-re_size-values.csv"])))
    by = {(r["type"], r["size"]): (r["re_size"], r["re_size_numerator"], r["re_size_denominator"]) for r in values}
    assert by[("combat_unit", "battalion")] == ("0.5", "1", "2") and by[("repl", "division")] == ("0.25", "1", "4")
    assert by[("combat_unit", "company")] == ("0.25", "1", "4") and by[("hq", "division")] == ("1", "1", "1")
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


# ---- cards of systems that are not OCS-shaped ----------------------------------------------------

WORDS = '''
series W "Words" version "1"

ordered enum Level "Level" {
  has mult: number = 1 "Multiplier"
  - low "Low" mult = 1/2
  - mid "Mid"
  - high "High" mult = 2
}

cyclic enum Side "Side" {
  - n "North"
  - e "East"
  - s "South"
  - w "West"
}

enum Arm "Arm" {
  - foot "Foot"
  - horse "Horse"
  - guns "Guns"
}

record Unit "A unit" {
  arm: Arm = foot "Its arm"
  sp: int = 1 "Strength"
  level: Level = mid "Its level"
  rested: bool = false "Rested this turn"
  dug_in: bool = false "Dug in"
}

record Stack "A stack" {
  units: list of Unit = [] "The units"
}

rule 1.1 "Words" {
  text "Test words."
  const cap "The most that counts" = 8
  define up(l: Level) -> Level "One up" = step(l, 1)
  define down_by(l: Level, n: int) -> Level "Down by n" = step(l, 0 - n)
  define next_side(x: Side) -> Side "Clockwise" = step(x, 1)
  define counted(s: Stack) -> int "Counted SP" =
    min(sum(u.sp for u in s.units where u.arm in {foot, horse}), cap)
  define best(s: Stack) -> Level "Best level" = max(low, max(u.level for u in s.units))
  define first_sp(s: Stack) -> int "First SP" = first(u.sp for u in s.units where u.arm == guns)
  define pairs(xs: list of Side) -> bool "Two apart" = any(any(a != b for b in xs) for a in xs)
  define halves(s: Stack) -> number "Halves" = let n = len(s.units); n / 2 + n
  define bonus(u: Unit) -> int "Bonus: one for each condition" =
    count(c for c in [u.rested, u.dug_in and u.arm == foot] where c) + u.sp
  example "words" {
    expect up(low) == mid
    expect down_by(high, 1) == mid
    expect next_side(w) == n
    expect counted(Stack { units: [Unit { sp: 5 }, Unit { arm: horse, sp: 6 }] }) == 8
    expect best(Stack { units: [Unit { level: high }] }) == high
    expect first_sp(Stack { units: [Unit { arm: guns, sp: 3 }] }) == 3
    expect pairs([n, s])
    expect halves(Stack { units: [Unit { }, Unit { }] }) == 3
    expect bonus(Unit { rested: true }) == 2
  }
}
'''


def test_the_newer_constructs_read_in_words() -> None:
    result = compile_text(WORDS)
    assert result.ok, [d.message for d in result.diagnostics]
    model = result.models["W"]
    words = Words(model)
    body = {d.name: d.body for d in model.defines}
    said = {name: words.expr(e) for name, e in body.items()}
    assert said["up"] == "the level above l"
    assert said["down_by"] == "l lowered by n levels"
    assert said["next_side"] == "the one after x"
    assert said["counted"] == "the total sp of units where arm is Foot or Horse, at most 8"
    assert said["best"] == "the higher of Low and the highest level of units"
    assert said["first_sp"] == "the sp of the first of units where arm = Guns"
    assert said["pairs"] == "for some a in xs: for some b in xs: a ≠ b"
    assert said["halves"] == "n / 2 + n, where n = the number of units"
    assert said["bonus"] == "(how many of {rested, dug in and arm = Foot} hold) + sp"
    assert "let" not in said["halves"] and "agg" not in "".join(said.values())
    plain = {name: words.expr(e, pretty=False) for name, e in body.items()}
    assert plain["halves"] == "let n = len(s.units); n / 2 + n"
    assert plain["up"] == "step(l, 1)"
    # a sum of counted conditions reads as the conditions, by the fields' titles
    assert Words(model, field_titles=True).outline(body["bonus"]) == [
        "rested this turn", "dug in and its arm = Foot", "strength"]
    card = view.clause_formulas(model, "1.1")
    by = {f["key"]: f for f in card}
    assert by["cap"]["value"] == "8" and by["bonus"]["items"] and not by["bonus"]["value"]
    assert "pairs" not in by  # a yes/no test is stated by the clause text, not as a formula


NEGATIVES = '''
series N "Negatives" version "1"

enum Shift "Column shift" {
  has shift: number = 0 "Shift"
  - left "Left" shift = -3/2
  - half "Half" shift = -1/2
  - none "None"
}

record Unit "A unit" {
  sp: int = 1 "Strength"
  kind: Shift = none "Its shift"
}

rule 1.1 "Modifiers" {
  text "A unit's strength less one, and its shift."
  define weaker(u: Unit) -> int "Weaker strength" = u.sp + -1
  define stronger(u: Unit) -> int = u.sp - -2
  define moved(u: Unit) -> number = u.kind.shift
  example "one" {
    expect weaker(Unit { sp: 3 }) == 2
    expect stronger(Unit { sp: 3 }) == 5
    expect moved(Unit { kind: left }) == -3/2
  }
}
'''


def test_numbers_below_zero_read_with_a_minus_sign_and_keep_their_value() -> None:
    """-3/2 on a card is −1½ (it was '-2½', the whole part Python's divmod gives, and -1/2 '-1½'),
    and a definition adding a negative number reads as a subtraction ('sp − 1', not 'sp + −1')."""
    from rulec.sheets.text import number_words

    assert [number_words(v, pretty=True) for v in (Fraction(-3, 2), Fraction(-1, 2), -2, "-7/3", Fraction(5, 2))] \
        == ["−1½", "−½", "−2", "−2⅓", "2½"]
    assert [number_words(v) for v in (Fraction(-3, 2), -2)] == ["-3/2", "-2"]  # the rules' own spelling
    result = compile_text(NEGATIVES)
    assert result.ok, [d.message for d in result.diagnostics]
    model = result.models["N"]
    said = {d.name: Words(model).expr(d.body) for d in model.defines}
    assert (said["weaker"], said["stronger"]) == ("sp − 1", "sp + 2")
    assert Words(model).expr(next(d.body for d in model.defines if d.name == "weaker"), pretty=False) == "u.sp + -1"
    made = outputs(result)
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(made["cards/n/1.1-Shift.csv"]))}
    assert [(rows[k]["shift"], rows[k]["shift_numerator"], rows[k]["shift_display"]) for k in ("left", "half")] \
        == [("-1.5", "-3", "−1½"), ("-0.5", "-1", "−½")]
    card = Dom(made["cards/n/card-1.html"])
    assert [c["text"] for c in card.find("td") if c["attrs"].get("data-setting")] == ["−1½", "−½", "0"]


def test_zcs_cards_show_the_zoc_class_lists_and_what_changes_a_class(files: dict[str, str]) -> None:
    dom = Dom("".join(v for k, v in sorted(files.items()) if k.startswith("cards/zcs/card-")))
    zoc = dom.find("section", data_enum="ZocClass")[0]
    assert zoc["attrs"]["data-rule"] == "5.A.1"  # declared outside every clause: cited by its first reader
    rows = [e for e in dom.find("tr") if e["attrs"].get("data-rule", "").startswith("5.A.1 ")]
    assert [r["attrs"]["data-key"] for r in rows] == ["no_zoc", "partial", "full", "double", "triple"]
    cells = [[c["text"] for c in _inside(dom, r) if c["tag"] == "td" and c["attrs"].get("data-setting")]
             for r in rows]
    assert cells == [["¼", "−2"], ["½", "−1"], ["1", "0"], ["2", "0"], ["3", "0"]]
    assert [r["attrs"]["data-supply-multiplier"] for r in rows] == ["1/4", "1/2", "1", "2", "3"]
    assert "Supply multiplier" in zoc["text"] and "RED modifier" in zoc["text"]
    # step(step(u.kind.base, -reductions(u, x)), increases(u, x)) in words, not '+ (−reductions) levels'
    assert "kind base lowered by reductions levels, then raised by increases levels" in "".join(
        v for k, v in files.items() if k.startswith("cards/zcs/card-"))
    assert "normal × supply multiplier" in zoc["text"]  # what 5.A.1 computes, under its table
    assert not dom.find("section", data_rule="5.A.1", **{"class": "block definition"})  # no second 5.A.1 block
    kinds = dom.find("section", data_enum="UnitKind")[0]
    assert "Full ZOC" in kinds["text"] and "Partial ZOC" in kinds["text"] and "No ZOC" in kinds["text"]
    assert not [e for e in dom.find("th") if e["attrs"].get("class") == "key" and "5.A" in e["text"]]
    table = dom.find("section", data_table="zoc_class")[0]
    assert "kind base lowered by reductions levels, then raised by increases levels" in table["text"]
    assert [e for e in dom.find("td") if e["attrs"].get("class") == "val long" and "increases" in e["text"]]
    defs = {s["attrs"]["data-rule"]: s["text"] for s in dom.find("section") if "definition" in
            s["attrs"].get("class", "")}
    assert {"5.A.2", "5.A.3", "5.A.4", "5.C", "5.C.2"} <= set(defs)
    assert "in reserve" in defs["5.A.3"] and "screened" in defs["5.A.3"] and "terrain reductions" in defs["5.A.3"]
    assert "three of a class make one of the next" in defs["5.A.4"]
    assert "It may only screen the same or a lesser zone class" in defs["5.C.2"]


def _inside(dom: Dom, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The elements parsed after `row` and before the next row: its cells."""
    i = next(n for n, e in enumerate(dom.elements) if e is row)
    out = []
    for e in dom.elements[i + 1:]:
        if e["tag"] == "tr":
            break
        out.append(e)
    return out


def test_acw_card_shows_caps_obligations_flanking_modifiers_and_losses(files: dict[str, str]) -> None:
    dom = Dom("".join(v for k, v in sorted(files.items()) if k.startswith("cards/acw/card-")))
    sections = [s["attrs"]["data-rule"] for s in dom.find("section")]
    assert {"1.1", "1.2", "1.4", "1.6", "2.1", "3.1", "3.2"} <= set(sections)
    assert sections.count("3.2") == 1  # the clause's text opens its list's table, once
    caps = {f["attrs"]["data-key"]: f["text"] for f in dom.find("tr") if f["attrs"].get("class") == "formula"}
    assert caps["foot_and_horse_cap"].strip().endswith("8") and caps["artillery_cap"].strip().endswith("10")
    assert "at most 8" in caps["counted_sp"] and "at most 10" in caps["counted_sp"]
    drm = [e for e in dom.find("td") if e["attrs"].get("data-setting") == "value"]
    assert [e["text"] for e in drm] == ["−1", "−1", "−1", "+1", "+1"]
    assert "die + the net DRM" in caps["final_die"]
    assert "Combat · 1.1, 1.2, 1.4, 1.6, 1.7, 2.1, 3.1, 3.2" in dom.find("div", **{"class": "sub"})[0]["text"]


def test_every_list_with_a_number_or_a_value_setting_is_on_a_card(shipped: Result) -> None:
    docs = shipped.models
    for name, model in docs.items():
        shown = {b["name"] for c in view.cards(docs, model) for b in c["blocks"] if b["kind"] == "marks"}
        for enum in model.enums:
            if any(str(a.t) != "bool" for a in enum.attrs) and any(m.title for m in enum.members) \
                    and view.list_clause(model, enum) is not None:
                assert enum.name in shown, (name, enum.name)


def test_every_card_is_estimated_to_fit_its_page(shipped: Result) -> None:
    docs = shipped.models
    for name, model in docs.items():
        cards = view.cards(docs, model)
        assert cards, name
        for card in cards:
            assert len(card["columns"]) <= 2 and card["est"] <= view.COLUMN_HEIGHT or \
                len(card["blocks"]) == 1, (name, card["name"])


# ---- prints and their sidecars (no browser needed) --------------------------------------------


def test_prints_are_kept_when_their_sidecar_matches_and_skipped_without_chromium(
        shipped: Result, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEC_CHROMIUM", "/nonexistent/chromium")
    files = outputs(shipped)
    jobs = [job for rel in sorted(files) for job in printing.jobs_of(rel, files[rel])]
    assert {j.paper for j in jobs} == {"letter", "a4", "preview"} and len(jobs) % 3 == 0
    everything, notes = with_prints(files, tmp_path, allow_print=True)
    assert notes and "chromium not found" in notes[0] and not any(k.endswith(".pdf") for k in everything)
    job = jobs[0]  # pretend it was printed earlier from the same HTML
    (tmp_path / job.target).parent.mkdir(parents=True)
    (tmp_path / job.target).write_bytes(b"%PDF-1.4 old print")
    (tmp_path / job.sidecar).write_text(job.sidecar_of(printing.sha256(files[job.source])), encoding="utf-8")
    everything, notes = with_prints(files, tmp_path, allow_print=True)
    assert everything[job.target] == b"%PDF-1.4 old print" and f"  not printed: {job.target}" not in notes
    changed = dict(files, **{job.source: files[job.source] + "<!-- edited -->"})
    everything, notes = with_prints(changed, tmp_path, allow_print=True)
    assert job.target not in everything and f"  not printed: {job.target}" in notes
    # Only a card with a print and its sidecar on disk is hashed, to compare with the sidecar: a
    # build that prints nothing (--no-print, no Chromium) hashes none of the others' HTML.
    hashed: list[str] = []
    real = printing.sha256
    monkeypatch.setattr(printing, "sha256", lambda text: hashed.append(text) or real(text))
    everything, notes = with_prints(files, tmp_path, allow_print=False)
    assert hashed == [files[job.source]] and everything[job.target] == b"%PDF-1.4 old print"


def test_sidecar_names_the_html_hash_and_paper(files: dict[str, str]) -> None:
    job = printing.Job("cards/dak/card-1.html", "cards/dak/card-1.a4.pdf", "a4")
    text = job.sidecar_of(printing.sha256(files[job.source]))
    assert f"sha256: {printing.sha256(files[job.source])}" in text and "paper: a4 (8.27 x 11.69 in" in text


def test_pdf_dates_are_fixed_without_moving_a_byte() -> None:
    pdf = b"1 0 obj\n<</CreationDate (D:20261121063421+00'00')\n/ModDate (D:20261121063421+00'00')>>\nxref"
    fixed = printing.fix_pdf_dates(pdf)
    assert len(fixed) == len(pdf) and b"2026" not in fixed and fixed.count(b"D:20000101000000Z") == 2


def test_a_fraction_with_no_finite_decimal_keeps_its_exact_value_beside_its_decimal() -> None:
    from rulec.sheets.export import number_cells

    assert number_cells("1/3") == ["0.333333", 1, 3, ""]
    assert number_cells("2/3") == ["0.666667", 2, 3, ""]
    assert number_cells("-3/8") == ["-0.375", -3, 8, ""]
    assert number_cells("12") == [12, 12, 1, ""]
    assert number_cells("max_stack_re") == ["", "", "", "max_stack_re"]


class _CardText(HTMLParser):
    """The words a player reads on a card: its text, not its markup, styles or data attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in ("style", "script", "title")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "script", "title")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.words.append(data)


def test_no_shipped_card_shows_a_name_written_the_rules_way_or_a_comparison_operator() -> None:
    """Issue #19, item 2 (in part): a player reads words, not transported_ma or u.type == hq."""
    found = []
    for path in sorted((ROOT / "generated" / "cards").glob("*/*.html")):
        reader = _CardText()
        reader.feed(path.read_text(encoding="utf-8"))
        text = " ".join(" ".join(reader.words).split())
        for m in re.finditer(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|==|!=|&&|\|\|", text):
            near = text[max(0, m.start() - 60):m.end() + 20]
            found.append(f"{path.parent.name}/{path.name}: {m.group()!r} in ...{near}")
    assert not found, "\n".join(found[:20])


CHANGED_BY_A_GAME = '''
series S "S" version "1"
ordered enum Size "Size" { - battalion "Battalion"  - regiment "Regiment" }
record Unit "A unit" { size: Size = regiment "Size" }
record Drm "A modifier" { value: int = 0 "Value" }
record Hex "A hex" { units: list of Unit = [] "Units" }
rule 4.6 "Regimental Equivalents" {
  table re_size(u: Unit) -> number "RE size" {
    battalion: when u.size == battalion => 1/2 "Battalions are 1/2 RE"
    other: otherwise => 1 "Others are 1 RE"
  }
  const max_stack_re "The most RE in a hex" = 10
}
rule 4.8 "Stacking" {
  limits stacking(h: Hex) "Stacking" {
    combat_re "Combat units (RE)": sum(re_size(u) for u in h.units) at most 10
  }
}
rule 9.1 "Modifiers" {
  define net_drm(drms: list of Drm) -> int "Net DRM" = sum(d.value for d in drms)
}
game G "G" extends S "1"
override 4.6 re_size.battalion: when u.size == battalion => 1/3 title "Battalions are 1/3 RE"
override 4.6 max_stack_re: 8
override 4.8 stacking.combat_re: at most 8
override 9.1 net_drm: sum(d.value for d in drms) + 1
'''


def test_a_card_names_what_a_game_changes_in_words(tmp_path: Path) -> None:
    """The changes a game makes, on its card: each by its rule number and the title of what it
    changes, before and after in words, never the rules' own spelling (4.6 re_size.battalion,
    4.8 stacking.combat_re) or a definition as written (sum(d.value for d in drms)), which a
    newcomer's game showed; the designer's name stays in the row's data-key, for tools."""
    from rulec import cli

    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "g.rules").write_text(CHANGED_BY_A_GAME, encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["build", "--rules", str(tmp_path / "rules"), "--out", str(out), "--no-print",
                     "--no-cache"]) == 0
    html = "".join(p.read_text(encoding="utf-8") for p in sorted((out / "cards" / "g").glob("card-*.html")))
    rows = re.findall(r'<tr class="row changed" data-key="([^"]*)" data-rule="[^"]*" data-layer=', html)
    assert rows == ["4.6 max_stack_re", "4.6 re_size.battalion", "4.8 stacking.combat_re", "9.1 net_drm"]
    reader = _CardText()
    reader.feed(html)
    text = " ".join(" ".join(reader.words).split())
    assert "✓ 4.6 RE size Battalions are 1/2 RE: ½ Battalions are 1/3 RE: ⅓" in text
    assert "✓ 4.8 Stacking Combat units (RE): at most 10 Combat units (RE): at most 8" in text
    assert "✓ 9.1 Net DRM = the total value of drms Net DRM = the total value of drms + 1" in text
    assert not re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+\.[a-z]+\b|==|!=| for \w+ in ", text)


def test_an_overrides_title_is_the_new_title_of_a_number_a_definition_or_a_limit() -> None:
    """`title "..."` in an override of a named number, a definition or a limit was accepted and
    then dropped (only clauses, list values and rows took it): the card showed the series' title
    beside the game's value. Now each takes it; a text or reference, which only clauses and list
    values hold, is R110 rather than dropped; a yes/no definition reads 'Title: test'."""
    series = CHANGED_BY_A_GAME.split('game G "G"')[0]
    src = series + '''rule 9.2 "Moving" {
  define moves(u: Unit) -> bool "Moves" = u.size == battalion
}
game G "G" extends S "1"
override 4.6 max_stack_re: title "The most RE in a desert hex" 6
override 4.8 stacking.combat_re: title "Combat units (RE), desert" at most 6
override 9.1 net_drm: title "Net DRM, desert"
override 9.2 moves: title "Moves in the desert" u.size == regiment
'''
    result = compile_text(src)
    assert result.ok, [d.message for d in result.diagnostics]
    g = result.models["G"]
    assert next(c.title for c in g.consts if c.name == "max_stack_re") == "The most RE in a desert hex"
    assert next(d.title for d in g.defines if d.name == "net_drm") == "Net DRM, desert"
    assert next(i.title for lim in g.limits for i in lim.items) == "Combat units (RE), desert"
    after = {c["key"]: (c["before"], c["after"]) for c in view.changes(result.models, g)}
    assert after["4.6 max_stack_re"] == ("The most RE in a hex = 10", "The most RE in a desert hex = 6")
    assert after["4.8 stacking.combat_re"] == ("Combat units (RE): at most 10", "Combat units (RE), desert: at most 6")
    assert after["9.2 moves"] == ("Moves: size = Battalion", "Moves in the desert: size = Regiment")
    for change in ('text "In the desert."', 'see 4.6'):
        wrong = compile_text(src + f"override 9.1 net_drm: {change}\n")
        assert [(d.code, d.hint.split(";")[0]) for d in wrong.diagnostics if d.code == "R110"] == [
            ("R110", f"a {'text' if 'text' in change else 'reference (see)'} is for a clause or a list value")]


def test_a_scenarios_card_says_whose_each_change_is_and_what_that_layer_made_it() -> None:
    """A scenario over a game: its card lists the game's changes and its own, each with the title of
    the layer that made it, before and after that layer (the game's 10 -> 8, the scenario's 8 -> 6),
    not every row as the scenario's with the value in force at the end (a newcomer's trial)."""
    from rulec.sheets import view

    result = compile_text(CHANGED_BY_A_GAME + 'scenario dawn "Dawn" extends G\noverride 4.6 max_stack_re: 6\n')
    cards = view.cards(result.models, result.models["dawn"])
    [block] = [b for c in cards for b in c["blocks"] if b["kind"] == "changes"]
    assert [(e["label"], e["by"], e["before"], e["after"]) for e in block["entries"]][:2] == [
        ("4.6", "G", "The most RE in a hex = 10", "The most RE in a hex = 8"),
        ("4.6", "Dawn", "The most RE in a hex = 8", "The most RE in a hex = 6")]
    assert {e["by"] for e in block["entries"][2:]} == {"G"}


def test_player_words_write_names_as_words_and_leave_markup_alone() -> None:
    from markupsafe import Markup

    from rulec.sheets.text import player_words

    assert player_words("see transported_ma for the total") == "see transported MA for the total"
    assert player_words("(in_dead_pile: it is in the Dead Pile)") == "(in dead pile: it is in the Dead Pile)"
    assert player_words(Markup("<b>a_b</b>")) == Markup("<b>a_b</b>")
    assert player_words(3) == 3 and player_words("No effect") == "No effect"


def test_the_headless_shell_is_the_browser_chosen_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian's chromium-headless-shell prints a third faster than its chromium (printing.CHROMIUM_NAMES):
    it is chosen when both are on PATH, chromium without it, and $RULEC_CHROMIUM over both; where
    Debian's package is installed, its browser itself, not the script on PATH that runs it as a child."""
    debians = Path("/usr/lib/chromium/chromium-headless-shell")
    monkeypatch.delenv("RULEC_CHROMIUM", raising=False)
    if debians.exists():
        assert printing.find_chromium() == str(debians)
        assert debians.read_bytes()[:4] == b"\x7fELF"
    monkeypatch.setattr(printing, "CHROMIUM_NAMES", printing.CHROMIUM_NAMES[1:])  # as on a machine without it
    for name in ("chromium", "chromium-headless-shell", "google-chrome"):
        exe = tmp_path / name
        exe.write_text("#!/bin/sh\n", encoding="utf-8")
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert printing.find_chromium() == str(tmp_path / "chromium-headless-shell")
    monkeypatch.setenv("RULEC_CHROMIUM", "google-chrome")
    assert printing.find_chromium() == str(tmp_path / "google-chrome")
    monkeypatch.delenv("RULEC_CHROMIUM")
    (tmp_path / "chromium-headless-shell").unlink()
    assert printing.find_chromium() == str(tmp_path / "chromium")



# ---- the cards handed to the browser as soon as the rules are resolved (build.feed_cards) --------


def test_a_build_hands_over_its_cards_before_the_worked_examples_run_and_they_are_the_cards_it_writes(
        shipped: Result, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """compile_sources' when_resolved hook comes once every ruleset is resolved, before any table is
    analysed or worked example run on a module (what a printing build overlaps with its prints), and
    feed_cards hands the print run the very card files the build then writes, and nothing else."""
    from rulec import build

    happened: list[str] = []
    real = build.run_examples
    monkeypatch.setattr(build, "run_examples", lambda *a, **k: happened.append("examples") or real(*a, **k))
    real_analyse = build.analyse
    monkeypatch.setattr(build, "analyse", lambda *a, **k: happened.append("analyse") or real_analyse(*a, **k))
    run = printing.PrintRun(tmp_path, allow_print=False)
    added: dict[str, str] = {}
    real_add = run.add

    def add(rel: str, html: str) -> None:
        assert rel not in added
        added[rel] = html
        real_add(rel, html)

    monkeypatch.setattr(run, "add", add)

    def resolved(models: Any, assets: Any) -> None:
        happened.append("resolved")
        build.feed_cards(models, assets, run)

    result = build.compile_sources(dict(shipped.sources), crosscheck=True, when_resolved=resolved)
    assert result.ok and happened[0] == "resolved" and happened.count("resolved") == 1
    assert {"analyse", "examples"} <= set(happened)
    written = {rel: text for rel, text in outputs(result).items() if printing.is_card(rel)}
    assert added == written and len(written) == len(list((ROOT / "generated" / "cards").glob("*/card-*.html")))
    assert sorted(run.todo) == sorted(written)  # nothing printed yet (tmp_path holds no print): all to print
    only = printing.PrintRun(tmp_path, allow_print=False)
    build.feed_cards(result.models, {}, only, only=["DAK"])
    assert only.todo and all(rel.startswith("cards/dak/") for rel in only.todo)
    build.feed_cards(result.models, {}, only, only=["NOPE"])  # a ruleset not there: the build says so, not this


def test_no_cards_are_handed_over_while_a_ruleset_has_a_mistake() -> None:
    """The hook waits for every ruleset to be checked clean (a game's mistake stops it even though its
    series is clean); it comes before the tables are analysed, so a row that can never match (R301)
    is found while the cards print, and the build fails all the same."""
    from rulec import build
    from tests.test_analysis import SIZES

    called: list[Any] = []

    def hook(models: Any, assets: Any) -> None:
        called.append(sorted(models))

    game = 'game G "G" extends S\nrule 9.1 "A" {\n  const n = nope\n}\n'
    broken = build.compile_sources({"s.rules": SIZES, "g.rules": game}, crosscheck=True, when_resolved=hook)
    assert ("R101", "g.rules") in {(d.code, d.span.file) for d in broken.diagnostics} and not called
    found = build.compile_sources({"t.rules": SIZES}, crosscheck=True, when_resolved=hook)
    assert [d.code for d in found.diagnostics] == ["R301"] and called == [["S"]]


def test_a_card_added_again_to_a_print_run_counts_once_and_as_its_last_html(
        files: dict[str, str], tmp_path: Path) -> None:
    """PrintRun.add: the same card with the same HTML again (a build's early cards, then the cards it
    writes) changes nothing; with other HTML, the prints kept for the first are let go."""
    rel = sorted(r for r in files if printing.is_card(r))[0]
    html = files[rel]
    for job in printing.jobs_of(rel, html):  # printed by an earlier build from this HTML
        (tmp_path / job.target).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / job.target).write_bytes(b"old print")
        (tmp_path / job.sidecar).write_text(job.sidecar_of(printing.sha256(html)), encoding="utf-8")
    run = printing.PrintRun(tmp_path, allow_print=False)
    run.add(rel, html)
    run.add(rel, html)
    assert run.result.reused == 3 and not run.todo
    run.add(rel, html + "<!-- edited -->")
    assert run.result.reused == 0 and len(run.todo[rel]) == 3
    assert not any(k.startswith(rel[:-len(".html")]) for k in run.result.files)
    prints = run.finish({rel: html + "<!-- edited -->"})
    assert prints.reused == 0 and prints.missing is not None and len(prints.missing) == 3


def test_a_chapter_page_is_numbered_as_its_rules_print_the_chapter() -> None:
    """A chapter page took the number N.0 whether or not a rule has it: the ZOC system's `5 Zones of
    Control` was printed 5.0, and a game whose chapter opens at 1.1 had a page 1.0 that no rule is."""
    from rulec.sheets import pages
    cases = [('rule 4.0 "General" text-only {\n}\n', "4.0 General"),
             ('rule 4 "General" text-only {\n}\n', "4 General"),
             ("", "Chapter 4: First")]
    for head, want in cases:
        result = compile_text('series S "S" version "1"\n' + head + 'rule 4.1 "First" {\n  text "x"\n}\n')
        assert result.ok, result.diagnostics
        assert [h.title for h in pages.heads(result.models["S"])] == [want]
