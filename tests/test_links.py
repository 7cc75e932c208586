"""R116: an `external` link's anchor must be a heading of the page it leads to (compiler/links.py).

The six dangling in-page anchors the ZCS sheet had (issue #15, item 7: `external 3.F.1.a ... at
"#3f1a"` and four more, 9.A cited twice) are the first fixture; then a good anchor, the links rulec
cannot check (web addresses, pages of the designer's site), relative paths into a page rulec
writes, and the anchors links.py expects against the headings the shipped sheets really have.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulec import checker, links, sheets
from rulec.build import Result, compile_sources
from rulec.cli import main
from rulec.sheets.text import hugo_anchor
from tests.conftest import RULES

# The ZCS links as they were before #15 item 7: each names an anchor no ZCS page has.
ZCS_DANGLING = {
    "3.F.1.a": "#3f1a",
    "9.A": "#9a",
    "19.A.1.a": "#19a1a",
    "40.E": "#40e",
    "45.B.1.c": "#45b1c",
}
ZCS = RULES / "zoc-classes" / "zoc.rules"


def zcs_with_old_links() -> str:
    text = ZCS.read_text(encoding="utf-8")
    for number, url in ZCS_DANGLING.items():
        text, n = re.subn(rf'^(external {re.escape(number)} "[^"]*" at )"[^"]*"$', rf'\1"{url}"', text,
                          flags=re.M)
        assert n == 1, number
    return text


def r116(result: Result) -> list[str]:
    return [d.render(result.sources) for d in result.diagnostics if d.code == "R116"]


def series(link: str, *, cite: str = "Units exert a reduced ZOC across bad terrain (Rule 3.F.1.a).") -> str:
    return f'''series ZCS "Zones of Control by class"

external 3.F.1.a "Bad Terrain" at "{link}"

rule 5.A "ZOC Class Table" {{
  text "{cite}"
}}

rule 5.C "Screening Enemy ZOCs" {{
  text "Friendly units screen enemy ZOCs."
}}
'''


# ---- the ZCS anchors of issue 15 -------------------------------------------------------------------


def test_the_six_dangling_zcs_links_are_r116_at_each_link() -> None:
    source = zcs_with_old_links()
    result = compile_sources({"rules/zoc-classes/zoc.rules": source})
    assert not result.ok
    found = [d for d in result.diagnostics if d.code == "R116"]
    assert [d.code for d in result.diagnostics] == ["R116"] * 5
    lines = source.split("\n")
    for d, (number, url) in zip(found, ZCS_DANGLING.items(), strict=True):
        line = lines[d.span.line - 1]
        assert line.startswith(f"external {number} ")
        assert line[d.span.col - 1:d.span.end_col - 1] == f'"{url}"'  # the caret is on the link
        assert f"the link of {number}, '{url}'" in d.message
        assert "page 5-0-zones-of-control-zoc of the ZCS rule sheet" in d.message
        assert d.hint is not None and "5a-zoc-class-table" in d.hint


def test_the_old_zcs_sheet_showed_six_dangling_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the sheet held: six links to anchors its page does not have (9.A is cited twice); found by
    the pure function of the models, with the check in `rulec check` left out."""
    monkeypatch.setattr(checker, "check_links", lambda program: [])
    result = compile_sources({"rules/zoc-classes/zoc.rules": zcs_with_old_links()})
    assert result.ok
    page = sheets.sheet_files(result.models)["sheets/zcs/5-0-zones-of-control-zoc.md"]
    shown = re.findall(r"\]\((#[^)]*)\)", page)
    headings = {hugo_anchor(h) for h in re.findall(r"^## (.*)$", page, re.M)}
    assert sorted(u for u in shown if u[1:] not in headings) == sorted(
        ["#3f1a", "#9a", "#9a", "#19a1a", "#40e", "#45b1c"])
    found = links.dangling_anchors(result.models, result.models["ZCS"])
    assert sorted((d.number, d.url, d.page.file) for d in found) == sorted(
        (n, u, "sheets/zcs/5-0-zones-of-control-zoc.md") for n, u in ZCS_DANGLING.items())


def test_the_shipped_rules_have_no_dangling_anchor(shipped: Result) -> None:
    assert not [d for d in shipped.diagnostics if d.code == "R116"]
    assert not links.may_dangle(shipped.models)  # no link leads to an anchor of a written page: skipped fast
    for model in shipped.models.values():
        assert links.dangling_anchors(shipped.models, model) == []


# ---- what is checked, and what is not -----------------------------------------------------------------


def test_an_anchor_of_a_heading_on_the_page_is_good() -> None:
    result = compile_sources({"t.rules": series("#5a-zoc-class-table")})
    assert result.ok, r116(result)
    page = sheets.sheet_files(result.models)["sheets/zcs/5-0-zoc-class-table.md"]
    assert "(Rule [3.F.1.a](#5a-zoc-class-table))" in page


def test_a_dangling_anchor_names_the_page_and_the_nearest_headings() -> None:
    result = compile_sources({"t.rules": series("#5c-screening")})
    [d] = result.diagnostics
    assert d.code == "R116" and d.severity == "error"
    assert (d.span.line, d.span.col) == (3, 35)
    assert d.message == ("the link of 3.F.1.a, '#5c-screening', names no heading of the page it leads to: "
                         "page 5-0-zoc-class-table of the ZCS rule sheet has no anchor '#5c-screening'")
    assert d.hint is not None
    assert d.hint.startswith("its headings nearest to '5c-screening': 5c-screening-enemy-zocs, 5a-zoc-class-table;")


@pytest.mark.parametrize("link", [
    "#",  # the top of the page
    "https://example.com/rules#nope",
    "http://example.com/#nope",
    "mailto:rules@example.com",
    "../9-0-ground-combat/#912-retreats--advances",  # a page of the designer's site, not of the sheets
    "../3-0-units/",
    "../5-0-zoc-class-table/",  # a page rulec writes, without an anchor
    "../5-0-zoc-class-table/#5c-screening-enemy-zocs",
    "../../zcs/5-0-zoc-class-table/#5a-zoc-class-table",
    "../#chapters",  # the sheet's index page
    "../../matrix/#zcs--zones-of-control-by-class",
])
def test_links_that_are_fine_or_cannot_be_checked(link: str) -> None:
    result = compile_sources({"t.rules": series(link)})
    assert result.ok, r116(result)


@pytest.mark.parametrize("link", [
    "../5-0-zoc-class-table/#5d",
    "../../zcs/5-0-zoc-class-table/#nope",
    "../#what-zcs-changes",
    "../../matrix/#nope",
    "#5A-ZOC-CLASS-TABLE",  # ids are lower case
])
def test_a_relative_link_into_a_page_rulec_writes_is_checked(link: str) -> None:
    result = compile_sources({"t.rules": series(link)})
    assert [d.code for d in result.diagnostics] == ["R116"], r116(result)


def test_a_link_no_page_shows_is_not_checked() -> None:
    result = compile_sources({"t.rules": series("#nope", cite="Nothing cited here.")})
    assert result.ok, r116(result)


def test_a_link_with_braces_is_placed_at_its_link() -> None:
    source = series("#nope").replace('at "#nope"', 'at "#nope" {\n  const c "C" = 1\n}')
    result = compile_sources({"t.rules": source})
    [d] = result.diagnostics
    assert d.code == "R116"
    line = source.split("\n")[d.span.line - 1]
    assert line[d.span.col - 1:d.span.end_col - 1] == '"#nope"'


def test_one_finding_for_a_page_several_sheets_share() -> None:
    game = '''
game G "A game" extends ZCS

rule 1.1 "Its own rule" {
  text "Nothing."
}
'''
    result = compile_sources({"t.rules": series("#nope"), "u.rules": game})
    [d] = result.diagnostics
    assert "page 5-0-zoc-class-table of the G and ZCS rule sheets" in d.message


def test_rulec_check_and_build_report_it_and_the_build_writes_nothing(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "t.rules").write_text(series("#3f1a"), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "kept.txt").write_text("before", encoding="utf-8")
    assert main(["check", str(rules)]) == 1
    assert "error R116: the link of 3.F.1.a, '#3f1a'" in capsys.readouterr().err
    assert main(["build", "--rules", str(rules), "--out", str(out), "--cache", str(tmp_path / "cache")]) == 1
    assert "error R116" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["kept.txt"]
    assert (out / "kept.txt").read_text(encoding="utf-8") == "before"


# ---- the anchors links.py expects are the ones the pages have --------------------------------------------


def page_ids(page: str) -> set[str]:
    """The ids Hugo gives the headings of a Markdown page: an explicit {#id}, else from the text."""
    out = set()
    for heading in re.findall(r"^#{1,6} (.*)$", page.split("\n---\n", 1)[1], re.M):
        explicit = re.search(r"\{#([\w-]+)\}\s*$", heading)
        out.add(explicit[1] if explicit else hugo_anchor(re.sub(r"\\(.)", r"\1", heading)))
    return out


def test_the_anchors_checked_are_the_headings_of_every_page(shipped: Result) -> None:
    files = sheets.sheet_files(shipped.models)
    pages = links._pages(shipped.models)
    assert {p.file for p in pages.values()} == {rel for rel in files if rel.startswith("sheets/")}
    for page in pages.values():
        assert page.anchors == page_ids(files[page.file]), page.file

