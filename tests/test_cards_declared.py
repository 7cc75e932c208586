"""Cards the designer lays out (`card NAME "Title" size SIZE columns N { show ... }`): what they show and
in which order, how a game inherits and replaces them, what is left over, what `rulec check` says about
them, and how they print (one page of the card's size, nothing overflowing, measured in Chromium)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulec import papers, printing
from rulec.fmt import format_text
from rulec.sheets import view
from tests.conftest import ROOT, compile_text

SERIES = '''
series S "A small series" version "1"

rule 1.1 "Terrain" {
  text "Every hex has one terrain type."
  enum Terrain "Terrain type" {
    has cost: int = 1 "MP to enter"
    - clear "Clear"
    - rough "Rough" cost = 2
  }
  define entry_cost(t: Terrain) -> int "MP to enter a hex of this terrain" = t.cost
  example {
    expect entry_cost(rough) == 2
  }
}

rule 1.2 "Stacking" {
  text "No more than three units may stack in a hex."
  const max_units "The most units in a hex" = 3
  define may_stack(n: int) -> bool "May this many units stack?" = n <= max_units
  example {
    expect may_stack(3)
    expect not may_stack(4)
  }
}

rule 1.3 "Weather" {
  text "Rain halves movement."
}

card terrain "Stacking" size poker {
  show 1.2
}
'''

GAME = '''
game G "A game" extends S "1"

rule 2.1 "Supply" {
  text "Units out of supply move at half speed."
  define supplied_ma(ma: number) -> number "Movement allowance out of supply" = ma / 2
  example {
    expect supplied_ma(5) == 5/2
  }
}

card terrain "The game's terrain card" {
  show 1.1, 2.1
}
'''


def _cards(*texts: str, ruleset: str) -> list[dict[str, Any]]:
    result = compile_text(*texts)
    assert result.ok, [d.message for d in result.diagnostics]
    return view.cards(result.models, result.models[ruleset])


def _shown(card: dict[str, Any]) -> list[tuple[str | None, str]]:
    return [(b["number"], b.get("name") or b["kind"]) for b in card["blocks"]]


def test_a_declared_card_shows_what_it_names_in_its_order_and_the_rest_is_packed_after_it() -> None:
    cards = _cards(SERIES, ruleset="S")
    first = cards[0]
    assert first["name"] == "card-terrain" and first["title"] == "Stacking"
    assert first["size"] == "poker" and not first["paged"] and first["ncols"] == 1
    assert _shown(first) == [("1.2", "definition")]  # a clause shown whole: its text and named number
    # what no declared card shows is packed onto numbered cards after the declared ones
    rest = [b for c in cards[1:] for b in c["blocks"]]
    assert [c["name"] for c in cards[1:]] == ["card-1"]
    assert [(b["number"], b.get("name")) for b in rest] == [("1.1", "Terrain")]
    assert [c["index"] for c in cards] == [1, 2] and {c["count"] for c in cards} == {2}


FLANKING = '''
series S "S" version "1"
record Attack "An attack" { sides: int = 0 "Flanking hexes" }
rule 4.2 "Flanking" {
  text "Units attacked from 3 or more hexes are flanked."
  const flank_drm "Flanking DRM" says "-1 to the die" = -1
  define flank(a: Attack) -> int "Flank DRM" says "-1 when flanked" = if a.sides >= 3 then flank_drm else 0
  table col(a: Attack) -> int "Column" {
    one: when a.sides >= 3 => 1 "Flanked"
    zero: otherwise => 0 "Not flanked"
  }
}
'''


def test_a_packed_card_shows_a_clause_with_a_table_as_a_declared_card_does_text_first() -> None:
    """A clause with a table, a named number and a definition: the automatic cards show its text and
    what it computes (each `says` phrase) above its table, as `show 4.2` does; its text was once left
    off every card because the table was taken to show the clause (a newcomer's trial)."""
    declared = _cards(FLANKING + 'card c "C" { show 4.2 }\n', ruleset="S")[0]["blocks"]
    [packed] = _cards(FLANKING, ruleset="S")
    blocks = [b for column in packed["columns"] for b in column]
    assert _shown(packed) == _shown({"blocks": declared}) == [("4.2", "definition"), ("4.2", "col")]
    assert [b["kind"] for b in blocks] == ["definition", "sizes"]  # in the column, the text above the table
    text = blocks[0]
    assert [x["text"] for x in text["blocks"]] == ["Units attacked from 3 or more hexes are flanked."]
    assert {f["key"]: f["value"] for f in text["formulas"]} == {"flank_drm": "-1 to the die",
                                                                "flank": "-1 when flanked"}


ZOC_SAYS = '''
series S "S" version "1"
record Unit "A unit" { supplied: bool = true "In supply"  strength: int = 1 "Strength" }
rule 1.1 "Zone of Control" {
  text "Units in supply have a ZOC."
  define has_zoc(u: Unit) -> bool "Has a ZOC" says "only when in supply" = u.supplied
  define doubled(u: Unit) -> int "Doubled strength" says "twice the strength" = u.strength * 2
  define in_supply(u: Unit) -> bool "In supply" = u.supplied
}
'''


def test_a_yes_no_definition_with_a_says_phrase_is_a_line_of_its_clause() -> None:
    """A true/false definition is left to its clause's text, unless the designer wrote the phrase a
    player reads (`says`): then it is a line of the clause, on packed cards and by `show 1.1 has_zoc`
    (it was printed nowhere)."""
    [packed] = _cards(ZOC_SAYS, ruleset="S")
    [block] = packed["blocks"]
    assert [(f["key"], f["value"]) for f in block["formulas"]] == [("has_zoc", "only when in supply"),
                                                                   ("doubled", "twice the strength")]
    named = _cards(ZOC_SAYS + 'card c "C" { show 1.1 has_zoc }\n', ruleset="S")[0]["blocks"]
    assert [(f["key"], f["value"]) for b in named for f in b["formulas"]] == [("has_zoc", "only when in supply")]


def test_the_packed_cards_show_the_rest_of_a_clause_a_declared_card_shows_in_part() -> None:
    """`show 1.1 has_zoc, 1.1 doubled` on a declared card: the numbered cards show 1.1's text, which
    no declared card shows, and not its lines again."""
    cards = _cards(ZOC_SAYS + 'card c "C" { show 1.1 has_zoc, 1.1 doubled }\n', ruleset="S")
    assert [c["name"] for c in cards] == ["card-c", "card-1"]
    [rest] = cards[1]["blocks"]
    assert rest["formulas"] == [] and [x["text"] for x in rest["blocks"]] == ["Units in supply have a ZOC."]
    whole = _cards(ZOC_SAYS + 'card c "C" { show 1.1 text, 1.1 has_zoc, 1.1 doubled }\n', ruleset="S")
    assert [c["name"] for c in whole] == ["card-c"]  # all of 1.1 is on the declared card: nothing is left


def test_show_text_and_show_a_definition_by_name() -> None:
    cards = _cards(SERIES.replace("show 1.2\n", "show 1.3 text, 1.2 max_units, 1.1 entry_cost\n"),
                   ruleset="S")
    blocks = cards[0]["blocks"]
    assert [(b["number"], b["kind"]) for b in blocks] == [("1.3", "definition"), ("1.2", "definition"),
                                                          ("1.1", "definition")]
    assert blocks[0]["blocks"] and blocks[0]["formulas"] == []  # the text alone (1.3 has no other block)
    assert [f["key"] for f in blocks[1]["formulas"]] == ["max_units"] and blocks[1]["blocks"] == []
    assert [f["key"] for f in blocks[2]["formulas"]] == ["entry_cost"]


def test_a_game_inherits_the_series_cards_and_replaces_one_by_its_name() -> None:
    cards = _cards(SERIES, GAME, ruleset="G")
    terrain = cards[0]
    assert terrain["name"] == "card-terrain" and terrain["title"] == "The game's terrain card"
    assert terrain["paged"] and terrain["size"] == "letter"
    # 1.1 whole: its list, whose table its text opens; 2.1, which no automatic card shows, as its text
    assert _shown(terrain) == [("1.1", "Terrain"), ("2.1", "definition")]
    assert _cards(SERIES, ruleset="S")[0]["title"] == "Stacking"  # the series keeps its own
    assert all(b["number"] != "1.1" for c in _cards(SERIES, GAME, ruleset="G")[1:] for b in c["blocks"])


def test_columns_break_where_the_tallest_column_is_shortest_keeping_the_order() -> None:
    blocks = [{"est": e} for e in (100, 500, 300, 300)]
    cols = view._fill_columns(blocks, 2)
    assert [[b["est"] for b in c] for c in cols] == [[100, 500], [300, 300]]
    three = view._fill_columns(blocks, 3)
    assert [b for c in three for b in c] == blocks and len(three) == 3
    assert max(sum(b["est"] + view.BLOCK_GAP for b in c) for c in three) == 600 + 2 * view.BLOCK_GAP
    assert view._fill_columns([], 2) == [[]]


def test_card_mistakes_are_located() -> None:
    bad = SERIES.replace('size poker {\n  show 1.2', 'size pokr columns 5 {\n  show 1.9, 1.1 Terain')
    result = compile_text(bad + '\ncard terrain "Again" {\n  show 1.1\n}\n')
    found = sorted((d.code, d.span.line, d.message) for d in result.diagnostics)
    codes = [c for c, _, _ in found]
    assert codes.count("R120") == 4 and codes.count("R104") == 1, found
    messages = " | ".join(m for _, _, m in found)
    assert "unknown card size 'pokr'" in messages and "1, 2 or 3 columns" in messages
    assert "shows 1.9, which is no clause" in messages and "1.1 declares no 'Terain'" in messages
    assert "card 'terrain' is declared twice" in messages


def test_a_card_too_full_for_its_size_is_a_warning_at_its_declaration() -> None:
    long = SERIES.replace('"Rain halves movement."', '"' + "Rain halves movement and more. " * 80 + '"')
    result = compile_text(long.replace("show 1.2\n", "show 1.3\n"))
    assert result.ok
    warns = [d for d in result.diagnostics if d.code == "R121" and "too full" in d.message]
    line = long.count("\n", 0, long.index("card terrain")) + 1
    assert len(warns) == 1 and warns[0].severity == "warning" and warns[0].span.line == line
    assert "poker card" in warns[0].message
    block = [d for d in result.diagnostics if d.code == "R121" and "1.3 Weather is estimated taller" in d.message]
    assert len(block) == 1 and block[0].span.line == long.count("\n", 0, long.index('rule 1.3')) + 1


def test_the_formatter_keeps_a_card() -> None:
    text = 'series S "S"\nrule 1.1 "A" {\n  text "x"\n}\ncard  a "A"  size poker columns 1 {show 1.1 ,1.1 text\n}\n'
    once = format_text(text)
    assert 'card a "A" size poker columns 1 {\n  show 1.1, 1.1 text\n}\n' in once
    assert format_text(once) == once


def test_every_size_fits_a_column_in_its_card() -> None:
    for size in papers.SIZES.values():
        for n in papers.COLUMNS:
            assert view.card_capacity(size, n) > 0
    assert view.card_capacity(papers.SIZES["letter"], 2) == view.COLUMN_HEIGHT
    assert view.card_capacity(papers.SIZES["poker"], 1) < view.card_capacity(papers.SIZES["tarot"], 1)


def test_every_shipped_layer_lays_out_its_own_cards() -> None:
    from rulec.build import compile_sources, find_sources
    sources, _ = find_sources([ROOT / "rules"])
    result = compile_sources(sources)
    assert result.ok
    for name in ("OCS", "ZCS", "ACW"):
        cards = view.cards(result.models, result.models[name])
        assert cards and all(c["declared"] for c in cards), name  # nothing left over for automatic packing
        assert all(c["est"] <= c["capacity"] for c in cards), name
    dak = view.cards(result.models, result.models["DAK"])
    assert [c["declared"] for c in dak[:-1]] == [c.name for c in result.models["OCS"].cards]
    assert dak[-1]["declared"] is None and [b["kind"] for b in dak[-1]["blocks"]] == ["changes"]
    assert not [d for d in result.diagnostics if d.code == "R121"]


# ---- printed, in Chromium ------------------------------------------------------------------------

needs_browser = pytest.mark.skipif(printing.find_chromium() is None or shutil.which("pdfinfo") is None,
                                   reason="chromium and pdfinfo are not installed (Debian packages 'chromium' and "
                                   "'poppler-utils'; .ci/run installs them)")

FITS = """(() => ({sized: document.querySelector('.card').classList.contains('sized'),
                   overflow: """ + printing.OVERFLOWS + """}))()"""


@needs_browser
def test_a_poker_card_and_a_page_card_print_each_on_one_page_of_their_size(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "s.rules").write_text(SERIES, encoding="utf-8")
    (rules / "g.rules").write_text(GAME, encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(out),
                          "--cache", str(tmp_path / "cache")], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    poker = out / "cards" / "s" / "card-terrain.pdf"
    info = printing.pdf_info(poker)
    assert info["Pages"] == "1"
    w, h = (float(x) for x in info["Page size"].split()[0:3:2])
    size = papers.SIZES["poker"]
    for got, want in ((w, size.width_mm + 2 * size.bleed_mm), (h, size.height_mm + 2 * size.bleed_mm)):
        assert abs(got / 72 * 25.4 - want) < 0.8, (got, want)  # points to mm: the trim and its bleed
    assert not (out / "cards" / "s" / "card-terrain.letter.pdf").exists()  # a card of its own size only
    # the poker card imposed for home printing, crop marks and all
    for paper, points in (("letter", "612 x 792"), ("a4", "594.96 x 841.92")):
        info = printing.pdf_info(out / "cards" / "s" / f"sheet-poker-{paper}.pdf")
        assert info["Pages"] == "1" and info["Page size"].startswith(points), info
    page = out / "cards" / "g" / "card-terrain.letter.pdf"
    assert printing.pdf_info(page)["Pages"] == "1"
    assert printing.pdf_info(out / "cards" / "g" / "card-terrain.a4.pdf")["Pages"] == "1"
    with printing.Browser.launch() as b:
        for html in (out / "cards" / "s" / "card-terrain.html", out / "cards" / "g" / "card-terrain.html"):
            with b.page(html.as_uri()) as p:
                fits = p.evaluate(FITS)
            assert fits["overflow"] is False, (html, fits)
        with b.page((out / "cards" / "s" / "card-terrain.html").as_uri()) as p:
            assert p.evaluate(FITS)["sized"] is True


@needs_browser
def test_the_shipped_declared_cards_do_not_overflow_in_the_browser() -> None:
    cards = sorted((ROOT / "generated" / "cards").glob("*/card-*.html"))
    assert cards
    with printing.Browser.launch() as b:
        for html in cards:
            with b.page(html.as_uri()) as p:
                fits = p.evaluate(FITS)
            assert fits["overflow"] is False, (html.name, fits)


def test_pdf_node_ids_become_their_rank_keeping_every_byte_offset() -> None:
    one = b"<</ID (node00000028)>> <</ID (node00000031)>> [(node00000028) 3 0 R (node00000031) 4 0 R]"
    two = one.replace(b"00000028", b"00000027").replace(b"00000031", b"00000030")
    assert printing.normalise_pdf(one) == printing.normalise_pdf(two)
    assert len(printing.normalise_pdf(one)) == len(one)
    assert b"(node00000001)" in printing.normalise_pdf(one) and b"(node00000002)" in printing.normalise_pdf(one)


def test_pdf_node_ids_given_out_in_another_order_become_the_same_file() -> None:
    """On a busy machine Chromium once gave two table headers each other's ids: the ids follow the
    elements' order in the file, not their numbers, and the IDTree's leaf is sorted again."""
    leaf = b"/Limits [(node%s) (node%s)]\n/Names [(node%s) 36 0 R (node%s) 38 0 R]"
    one = (b"36 0 obj <</S /TH /ID (node00000007)>> 38 0 obj <</S /TH /ID (node00000009)>> "
           b"41 0 obj <</S /TD /A [<</Headers [(node00000007)]>>]>> "
           b"43 0 obj <</S /TD /A [<</Headers [(node00000009)]>>]>> "
           + leaf % (b"00000007", b"00000009", b"00000007", b"00000009"))
    swapped = (one[:one.index(b"/Limits")].replace(b"00000007", b"X").replace(b"00000009", b"00000007")
               .replace(b"X", b"00000009") + leaf % (b"00000007", b"00000009", b"00000007", b"00000009"))
    swapped = swapped.replace(b"(node00000007) 36 0 R (node00000009) 38 0 R",
                              b"(node00000007) 38 0 R (node00000009) 36 0 R")
    assert printing.normalise_pdf(one) == printing.normalise_pdf(swapped) != printing.normalise_pdf(one.replace(
        b"<</Headers [(node00000007)]>>]>> 43", b"<</Headers [(node00000009)]>>]>> 43"))
    made = printing.normalise_pdf(swapped)
    assert len(made) == len(swapped)
    assert made.endswith(leaf % (b"00000001", b"00000002", b"00000001", b"00000002"))
    assert b"36 0 obj <</S /TH /ID (node00000001)>>" in made and b"[<</Headers [(node00000002)]>>]>>" in made
    assert printing.normalise_pdf(made) == made


@needs_browser
def test_a_printed_card_made_the_same_by_normalise_pdf_stays_a_valid_pdf(tmp_path: Path) -> None:
    """A shipped card with tables, its ids renumbered in reverse (as another browser might give them)
    and normalised: pdfinfo reads it and it is the shipped print, byte for byte."""
    shipped = (ROOT / "generated" / "cards" / "zcs" / "card-kinds.letter.pdf").read_bytes()
    ids = sorted({m.group(1) for m in printing.PDF_NODE_ID.finditer(shipped)})
    assert len(ids) >= 2
    backwards = dict(zip(ids, reversed(ids), strict=True))
    renumbered = printing.PDF_NODE_ID.sub(lambda m: b"(node%s)" % backwards[m.group(1)], shipped)
    assert renumbered != shipped
    (tmp_path / "card.pdf").write_bytes(printing.normalise_pdf(renumbered))
    assert printing.normalise_pdf(renumbered) == shipped
    assert printing.pdf_info(tmp_path / "card.pdf")["Pages"] == "1"


SAYS = '''
series P "Phrases" version "1"

rule 1.1 "Sizes" {
  text "Battalions are half a Regimental Equivalent."
  enum Size "Unit size" {
    - battalion "Battalion"
    - regiment "Regiment"
    - division "Division"
  }
  record Unit "A unit" {
    size: Size = regiment
  }
  table re_size(u: Unit) -> number "RE size" says "RE by size" {
    battalion: when u.size == battalion => 1/2 "Battalions are 1/2 RE" says "half an RE"
    other: otherwise => 1 "Other sizes are 1 RE"
  }
  const max_re "The most RE in a hex" says "ten RE, no more" = 10
  define doubled(u: Unit) -> number "RE counted twice" says "twice the unit's RE" = re_size(u) * 2
  limits stacking(units: list of Unit) "Stacking" {
    re "RE in a hex" says "ten RE": sum(re_size(u) for u in units) at most 10
  }
  example {
    expect re_size(Unit { size: battalion }) == 1/2
    expect doubled(Unit {}) == 2
  }
}

card sizes "Sizes" {
  show 1.1
}
'''


def test_says_puts_the_designers_phrase_on_the_card_and_an_override_of_the_value_drops_it() -> None:
    blocks = {(b["kind"], b.get("name")): b for b in _cards(SAYS, ruleset="P")[0]["blocks"]}
    table = blocks[("sizes", "re_size")]
    assert table["subtitle"] == "RE by size"
    assert [r["value"] for r in table["rows"]] == ["half an RE", "1"]  # the other row in words, as before
    assert blocks[("limits", "stacking")]["items"][0]["bound"] == "ten RE"
    formulas = {f["key"]: f["value"] for f in blocks[("definition", None)]["formulas"]}
    assert formulas == {"max_re": "ten RE, no more", "doubled": "twice the unit's RE"}
    game = ('game Q "Smaller battalions" extends P "1"\n'
            'override 1.1 re_size.battalion: 1/3 title "Battalions are 1/3 RE"\n'
            'override 1.1 max_re: 12\n')
    changed = {(b["kind"], b.get("name")): b for b in _cards(SAYS, game, ruleset="Q")[0]["blocks"]}
    assert [r["value"] for r in changed[("sizes", "re_size")]["rows"]] == ["⅓", "1"]
    assert {f["key"]: f["value"] for f in changed[("definition", None)]["formulas"]}["max_re"] == "12"


def test_an_override_gives_its_new_value_a_phrase_of_its_own() -> None:
    """`says` in an override: the phrase a card prints for the game's new value (a row's, a named
    number's, a definition's, a limit's), where without one the series' phrase is dropped; on a
    clause or a list value, which have no value a card prints, it is R110 (a newcomer's trial got
    'unknown name says' and a false type error instead)."""
    game = ('game Q "Smaller battalions" extends P "1"\n'
            'override 1.1 re_size.battalion: 1/3 title "Battalions are 1/3 RE" says "a third of an RE"\n'
            'override 1.1 max_re: 12 says "twelve RE"\n'
            'override 1.1 doubled: re_size(u) * 3 says "three times the unit\'s RE"\n'
            'override 1.1 stacking.re: at most 12 says "twelve RE"\n')
    blocks = {(b["kind"], b.get("name")): b for b in _cards(SAYS, game, ruleset="Q")[0]["blocks"]}
    assert [r["value"] for r in blocks[("sizes", "re_size")]["rows"]] == ["a third of an RE", "1"]
    assert {f["key"]: f["value"] for f in blocks[("definition", None)]["formulas"]} == {
        "max_re": "twelve RE", "doubled": "three times the unit's RE"}
    assert blocks[("limits", "stacking")]["items"][0]["bound"] == "twelve RE"
    result = compile_text(SAYS, 'game Q "Q" extends P "1"\noverride 1.1: says "x"\noverride 1.1 battalion: says "y"\n')
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("R110", 2), ("R110", 3)]
    assert "a phrase ('says') is for a named number" in (result.diagnostics[0].hint or "")


def test_a_says_phrase_is_text_on_the_card_never_markup() -> None:
    from rulec import sheets
    hostile = SAYS.replace('says "half an RE"', 'says "<script>alert(1)</script> {{ 7*7 }} {{< x >}} &amp;"')
    result = compile_text(hostile)
    assert result.ok
    html = sheets.cards(result.models, result.models["P"])["card-sizes.html"]
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "{{ 7*7 }}" in html and "49" not in html.split("<body>")[1].split("</main>")[0]
    assert "&amp;amp;" in html  # the phrase's own '&amp;' printed as it was written


ILLUSTRATIVE = '''
game I "A game with placeholder values" extends P "1"

rule 9.1 "Placeholders" illustrative {
  text "Not quoted from the game's rules: a stand-in for its published value."
  except re_size {
    cadre: when u.size == regiment => 1/4 "A regiment counts as a quarter RE here"
  }
  const cadres "Cadres in the counter-mix" = 4
  example {
    expect re_size(Unit {}) == 1/4
  }
}
'''


def _rows(cards: list[dict[str, Any]]) -> list[str]:
    return [r["key"] for c in cards for b in c["blocks"] if b["kind"] == "sizes" for r in b["rows"]]


def test_illustrative_values_stay_off_player_cards_unless_a_card_asks_for_them() -> None:
    plain = _cards(SAYS, ILLUSTRATIVE, ruleset="I")
    assert "cadre" not in _rows(plain)
    assert all(b["number"] != "9.1" for c in plain for b in c["blocks"])
    asking = ILLUSTRATIVE + '\ncard placeholders "Placeholders" illustrative {\n  show 1.1 re_size, 9.1\n}\n'
    cards = _cards(SAYS, asking, ruleset="I")
    mine = cards[1]  # the series' card 'sizes' first, then this one
    assert mine["declared"] == "placeholders"
    rows = next(b for b in mine["blocks"] if b["kind"] == "sizes")["rows"]
    assert [(r["key"], r["illustrative"]) for r in rows][0] == ("cadre", True)
    assert any(b["number"] == "9.1" and b["illustrative"] for b in mine["blocks"])
    assert "cadre" not in _rows([cards[0]])  # the series' card in the same game still leaves it off
    from rulec import sheets
    result = compile_text(SAYS, asking)
    html = sheets.cards(result.models, result.models["I"])["card-placeholders.html"]
    assert '<span class="tag ill">illustrative</span>' in html
    page = next(t for rel, t in sheets.rule_sheet(result.models, result.models["I"]).items() if rel.startswith("9-"))
    assert "*Illustrative: what this clause gives is not quoted from a published source" in page


def test_a_card_says_whose_text_it_prints_when_a_later_layer_changed_a_value_under_it() -> None:
    game = 'game G "G" extends S "1"\noverride 1.2 max_units: 2 note "Two in this game."\n'
    block = _cards(SERIES, game, ruleset="G")[0]["blocks"][0]
    assert block["number"] == "1.2" and block["text_from"] == {"layer": "S", "by": ["G"]}
    assert _cards(SERIES, ruleset="S")[0]["blocks"][0]["text_from"] is None


def test_dak_leaves_its_illustrative_jock_column_row_off_its_cards() -> None:
    from rulec.build import compile_sources, find_sources
    sources, _ = find_sources([ROOT / "rules"])
    result = compile_sources(sources)
    dak = view.cards(result.models, result.models["DAK"])
    assert "jock_column" not in _rows(dak) and "battalion" in _rows(dak)
    assert [e["key"] for c in dak for b in c["blocks"] if b["kind"] == "changes" for e in b["entries"]] == ["4.5a F"]


def test_small_cards_are_imposed_several_to_a_page_with_crop_marks_in_the_gutters() -> None:
    cards = [{"name": f"card-c{i}", "title": f"C{i}", "paged": False, "size": "poker"} for i in range(11)]
    sheets = {s["name"]: s for s in view.imposed(cards + [{"name": "card-page", "paged": True, "size": "letter"}])}
    assert set(sheets) == {"sheet-poker-letter", "sheet-poker-a4"}  # pages are not imposed
    a4, letter = sheets["sheet-poker-a4"], sheets["sheet-poker-letter"]
    assert a4["per_page"] == 9 and [len(p) for p in a4["pages"]] == [9, 2]
    assert letter["per_page"] == 6 and [len(p) for p in letter["pages"]] == [6, 5]
    for sheet, paper in ((a4, papers.SIZES["a4"]), (letter, papers.SIZES["letter"])):
        for page, marks in zip(sheet["pages"], sheet["marks"], strict=True):
            assert len(marks) == 8 * len(page)  # two lines at each of four corners
            for slot in page:  # every card inside the paper, margins kept
                x, y = float(slot["x"]), float(slot["y"])
                assert x >= view.SHEET_MARGIN_MM - 0.01 and y >= view.SHEET_MARGIN_MM - 0.01
                assert x + 63 <= paper.width_mm - view.SHEET_MARGIN_MM + 0.01
                assert y + 88 <= paper.height_mm - view.SHEET_MARGIN_MM + 0.01
            # no mark falls on a card: each lies in a gutter or the margin
            for k in marks:
                mx, my = float(k["x"]), float(k["y"])
                w, h = (view.MARK_MM, 0.2) if k["d"] == "h" else (0.2, view.MARK_MM)
                for slot in page:
                    x, y = float(slot["x"]), float(slot["y"])
                    inside = mx + w > x + 0.01 and mx < x + 63 - 0.01 and my + h > y + 0.01 and my < y + 88 - 0.01
                    assert not inside, (k, slot)


@needs_browser
def test_the_build_says_which_card_runs_past_its_page_as_chromium_lays_it_out(tmp_path: Path) -> None:
    fixture = ROOT / "tests" / "fixtures" / "diagnostics" / "R121-card-too-full"
    run = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(fixture), "--out",
                          str(tmp_path / "out"), "--cache", str(tmp_path / "cache")],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    # located at the card's declaration, as rulec check locates the estimate, with the file it measured
    assert ("R121-card-too-full/t.rules:7:1: warning R121: card 'terrain' runs past its page in BIG as Chromium "
            "lays it out (cards/big/card-terrain.html)") in run.stderr
    assert "    7 | card terrain" in run.stderr
    fits = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(ROOT / "rules"), "--out",
                           str(tmp_path / "shipped"), "--cache", str(tmp_path / "cache2")],
                          capture_output=True, text=True, timeout=600)
    assert fits.returncode == 0 and "runs past its page" not in fits.stderr, fits.stderr
