"""The player aid cards in a real browser: DOM structure, screenshots, and one printed page on Letter and A4."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulec import printing, sheets
from rulec.build import Result, outputs
from rulec.sheets import folder
from tests.conftest import ROOT, compile_text
from tests.test_sheets import HOSTILE

pytestmark = pytest.mark.skipif(printing.find_chromium() is None,
                                reason="chromium is not installed (Debian package 'chromium'; .ci/run installs it)")
needs_pdfinfo = pytest.mark.skipif(
    shutil.which("pdfinfo") is None,
    reason="pdfinfo is not installed (Debian package 'poppler-utils'; .ci/run installs it)")

# Everything a test asks of a card, read in the page by the browser's own DOM.
READ_CARD = """(() => {
  const rows = [...document.querySelectorAll('section.marks tbody tr.row')].map(tr => ({
    key: tr.dataset.key, rule: tr.dataset.rule, changed: tr.classList.contains('changed'),
    changedBy: tr.dataset.changed || null, text: tr.innerText,
    marks: [...tr.querySelectorAll('td.mark')].map(td => ({value: td.dataset.value,
      sym: td.querySelector('.sym').textContent, visible: td.querySelector('.sym').getBoundingClientRect().width > 0})),
    background: getComputedStyle(tr).backgroundColor }));
  const card = document.querySelector('.card').getBoundingClientRect();
  return {
    rows,
    sizes: [...document.querySelectorAll('section.sizes')].map(s => ({
      rule: s.dataset.rule, rows: [...s.querySelectorAll('tbody tr')].map(tr => [tr.dataset.key, tr.dataset.rule,
        tr.querySelector('td.val').textContent])})),
    limits: [...document.querySelectorAll('section.limits li.limit')].map(li => ({
      key: li.dataset.key, rule: li.dataset.rule, bound: li.querySelector('.bound').textContent,
      exempt: [...li.querySelectorAll('ul.exempt li')].map(x => x.dataset.rule)})),
    definitions: [...document.querySelectorAll('section.definition')].map(s => s.dataset.rule),
    changes: [...document.querySelectorAll('section.changes tbody tr')].map(tr => tr.dataset.key),
    scripts: document.querySelectorAll('script').length,
    manifest: document.querySelector('dl.manifest').innerText,
    width: card.width,
  };
})()"""


@pytest.fixture(scope="module")
def site(shipped: Result, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped rules' text outputs, plus the hostile ruleset's card, written where a browser can open them."""
    root = tmp_path_factory.mktemp("site")
    files = dict(outputs(shipped))
    hostile = compile_text(HOSTILE)
    assert hostile.ok
    files["cards/hostile/card-1.html"] = sheets.cards(hostile.models, hostile.models["T"])["card-1.html"]
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def browser() -> Iterator[printing.Browser]:
    with printing.Browser.launch() as b:
        yield b


def cards_of(site: Path) -> list[Path]:
    found = sorted(site.glob("cards/*/card-*.html"))
    assert found
    return found


def rulesets(shipped: Result) -> set[str]:
    """The card folder of every ruleset the rules in rules/ build (series, games, options, rulesets)."""
    return {folder(m) for m in shipped.models.values()}


# How the columns of a card sit: every table row's title keeps at least a third of its table,
# long values wrap inside their column, and nothing is wider than its column.
READ_LAYOUT = """(() => [...document.querySelectorAll('main.cols > .col')].map(col => ({
  width: col.getBoundingClientRect().width,
  overflow: [...col.querySelectorAll('section.block')].filter(s => s.scrollWidth > s.clientWidth + 1)
    .map(s => s.dataset.rule),
  rows: [...col.querySelectorAll('section.sizes tbody tr, table.formulas tr')].map(tr => ({
    rule: tr.closest('section').dataset.rule, key: tr.dataset.key,
    title: tr.cells[0].getBoundingClientRect().width, table: tr.closest('table').getBoundingClientRect().width,
    long: !!tr.querySelector('td.val.long')})),
})))()"""


def read(browser: printing.Browser, page: Path) -> dict[str, Any]:
    with browser.page(page.as_uri()) as p:
        value: dict[str, Any] = p.evaluate(READ_CARD)
        return value


def read_all(browser: printing.Browser, folder: Path) -> dict[str, Any]:
    """Every card of a ruleset read as one: the designer lays chapter 4 out over several cards."""
    cards = [read(browser, p) for p in sorted(folder.glob("card-*.html"))]
    assert cards, folder
    merged: dict[str, Any] = {k: [x for c in cards for x in c[k]]
                              for k in ("rows", "sizes", "limits", "definitions", "changes")}
    merged.update(manifest=cards[0]["manifest"], width=min(c["width"] for c in cards),
                  scripts=sum(c["scripts"] for c in cards))
    return merged


def test_the_ocs_card_shows_every_4_5a_row_with_its_negation_mark(browser: printing.Browser, site: Path,
                                                                  ocs: dict[str, Any]) -> None:
    card = read_all(browser, site / "cards/ocs")
    card["rows"] = [r for r in card["rows"] if r["rule"].startswith("4.5a ")]
    members = next(e for e in ocs["enums"] if e["name"] == "EzocAction")["members"]
    assert [r["key"] for r in card["rows"]] == [m["name"] for m in members]
    for row, m in zip(card["rows"], members, strict=True):
        negatable = m["attrs"]["negatable"]["value"]
        assert row["rule"] == f"4.5a {m['name']}" and m["title"] in row["text"]
        assert row["marks"] == [{"value": "true" if negatable else "false", "sym": "●" if negatable else "✕",
                                 "visible": True}]
        assert not row["changed"]
    re_rows = next(s for s in card["sizes"] if s["rule"] == "4.6")["rows"]
    assert [key for key, rule, _ in re_rows if rule == "4.6"] == ["not_combat", "multi_step", "quarter", "battalion",
                                                                  "other"]
    assert [value for key, _, value in re_rows if key in ("quarter", "battalion")] == ["¼", "½"]
    combat = next(x for x in card["limits"] if x["key"] == "combat_re")
    assert combat["rule"] == "4.8" and combat["bound"] == "≤ 10" and combat["exempt"] == ["4.8a", "4.8a"]
    assert {"4.4", "4.5"} <= set(card["definitions"])
    assert "Operational Combat Series" in card["manifest"] and card["changes"] == []
    assert card["width"] > 600  # two columns on a page-wide card


def test_the_dak_card_marks_the_f_row_changed(browser: printing.Browser, site: Path) -> None:
    card = read_all(browser, site / "cards/dak")
    rows = {r["key"]: r for r in card["rows"] if r["rule"].startswith("4.5a ")}
    f = rows["F"]
    assert f["changed"] and f["changedBy"] == "DAK" and f["marks"][0]["value"] == "false"
    assert "Specific Game Note" in f["text"] and "In either edition of DAK" in f["text"]
    assert f["background"] != rows["E"]["background"] and f["background"] != rows["G"]["background"]
    assert [k for k, r in rows.items() if r["changed"]] == ["F"]
    later = [read(browser, p) for p in sorted((site / "cards/dak").glob("card-*.html"))]
    assert "4.5a F" in [key for c in later for key in c["changes"]]
    assert "Deutsches Afrika Korps" in card["manifest"]


def test_long_values_wrap_in_their_column_and_leave_the_row_title_its_room(browser: printing.Browser,
                                                                          site: Path) -> None:
    longs = 0
    for page in cards_of(site):
        with browser.page(page.as_uri()) as p:
            columns = p.evaluate(READ_LAYOUT)
        for col in columns:
            assert col["overflow"] == [], f"{page}: blocks wider than their column"
            for row in col["rows"]:
                assert row["title"] >= row["table"] / 3, f"{page}: {row['rule']} {row['key']} title squeezed"
                longs += row["long"]
    assert longs  # the ZOC class table's 'kind base lowered by reductions levels, then raised by ...'


def test_the_zcs_and_acw_cards_show_their_lists_with_every_setting(browser: printing.Browser, site: Path) -> None:
    zcs = [read(browser, p) for p in sorted((site / "cards/zcs").glob("card-*.html"))]
    rows = {r["key"]: r for c in zcs for r in c["rows"] if r["rule"].startswith("5.A.1 ")}
    assert list(rows) == ["no_zoc", "partial", "full", "double", "triple"]
    assert "¼" in rows["no_zoc"]["text"] and "−2" in rows["no_zoc"]["text"] and "3" in rows["triple"]["text"]
    assert {"5.A.2", "5.A.3", "5.A.4", "5.C.2"} <= {d for c in zcs for d in c["definitions"]}
    acw = [read(browser, p) for p in sorted((site / "cards/acw").glob("card-*.html"))]
    drm = [r["text"].split("\t")[-1].strip() for c in acw for r in c["rows"] if r["rule"].startswith("2.1 ")]
    assert drm == ["−1", "−1", "−1", "+1", "+1"]


def test_script_in_a_rule_text_shows_as_text(browser: printing.Browser, site: Path) -> None:
    card = read(browser, site / "cards/hostile/card-1.html")
    assert card["scripts"] == 0
    x = next(r for r in card["rows"] if r["key"] == "X")
    assert "<script>alert(1)</script>" in x["text"]
    assert not [e for e in browser.events if e.get("method") == "Page.javascriptDialogOpening"]


def test_every_card_has_a_screenshot(browser: printing.Browser, site: Path, tmp_path: Path,
                                     shipped: Result) -> None:
    assert {p.parent.name for p in cards_of(site)} == rulesets(shipped) | {"hostile"}
    for page in cards_of(site):
        png = browser.screenshot(page.as_uri())
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
        width = int.from_bytes(png[16:20], "big")
        assert width >= 1000  # the card at 1.5x: legible when printed from the preview too
        (tmp_path / f"{page.parent.name}-{page.stem}.png").write_bytes(png)


@needs_pdfinfo
@pytest.mark.parametrize("paper,size", [("letter", "(letter)"), ("a4", "(A4)")])
def test_every_card_prints_on_one_page(browser: printing.Browser, site: Path, tmp_path: Path,
                                       paper: str, size: str, shipped: Result) -> None:
    printed = set()
    for page in cards_of(site):
        printed.add(page.parent.name)
        pdf = tmp_path / f"{page.parent.name}-{page.stem}.{paper}.pdf"
        pdf.write_bytes(browser.pdf(page.as_uri(), paper))
        info = printing.pdf_info(pdf)
        assert info["Pages"] == "1", f"{page} prints on {info['Pages']} {paper} pages"
        assert info["Page size"].endswith(size)
        assert "2000" in info["CreationDate"]  # fixed, not the time of printing
    assert printed == rulesets(shipped) | {"hostile"}  # every ruleset in rules/, whatever its name


@needs_pdfinfo
def test_the_committed_prints_are_one_page_and_from_the_committed_html(shipped: Result) -> None:
    generated = ROOT / "generated" / "cards"
    pdfs = sorted(generated.glob("*/card-*.pdf"))
    assert pdfs, "generated/cards holds no prints; run 'rulec build'"
    for name in rulesets(shipped):  # every card of every ruleset is printed on both papers
        cards = sorted((generated / name).glob("card-*.html"))
        assert cards, f"generated/cards/{name} holds no cards; run 'rulec build'"
        for html in cards:
            for paper in ("letter", "a4"):
                assert html.with_suffix(f".{paper}.pdf").exists(), f"{html} is not printed on {paper}"
    for pdf in pdfs:
        info = printing.pdf_info(pdf)
        assert info["Pages"] == "1", pdf
        side = pdf.with_name(pdf.name + ".source").read_text(encoding="utf-8")
        html = pdf.with_name(pdf.name.split(".")[0] + ".html").read_text(encoding="utf-8")
        assert f"sha256: {printing.sha256(html)}" in side


def test_a_print_is_the_same_bytes_whatever_was_printed_before_it(site: Path) -> None:
    """Prints are byte-identical from one build to the next (SECURITY.md, guarantee 7): a card
    printed first in a fresh browser and printed after every other card in another, on both
    papers and as a preview, gives the same bytes (the creation dates are fixed; object numbers
    must not depend on what the browser did before). Nine cards of the site: the browser's
    history is eight cards long, in a print of their own, not the whole build (36 s)."""
    cards = cards_of(site)[-9:]
    assert len(cards) == 9
    last = cards[-1].as_uri()
    with printing.Browser.launch() as b:
        alone = [b.pdf(last, "letter"), b.pdf(last, "a4"), b.screenshot(last)]
    with printing.Browser.launch() as b:
        for page in reversed(cards[:-1]):
            b.pdf(page.as_uri(), "a4")
            b.screenshot(page.as_uri())
        after = [b.pdf(last, "letter"), b.pdf(last, "a4"), b.screenshot(last)]
    with printing.Browser.launch() as b:  # as a build prints: every card from its HTML, tabs side by side
        every = b.run([printing.prints_of_page(page.as_uri(), ["letter", "a4", "preview"], page.read_text("utf-8"))
                       for page in cards])
        made, _ = every[-1]
        in_a_build = [made["letter"], made["a4"], made["preview"]]
    with printing.Browser.launch() as b:  # one tab, the cards opened as files and shown from their HTML by turns
        mixed = b.run([printing.prints_of_page(page.as_uri(), ["letter", "a4", "preview"],
                                               page.read_text("utf-8") if i % 2 == 0 else None)
                       for i, page in enumerate(cards)], tabs=1)
        made, _ = mixed[-1]
        after_files = [made["letter"], made["a4"], made["preview"]]
    assert [len(x) for x in alone] == [len(x) for x in after] == [len(x) for x in in_a_build]
    assert alone == after == in_a_build == after_files


def test_a_card_shown_from_its_html_has_no_file_address(site: Path) -> None:
    """A build shows each card from its HTML in a blank page (printing._show_html), not from a file:
    even in a tab that had a file open (a sheet of small cards is opened as one), the card's page
    is about:blank, so nothing in it can reach the files beside it, and it is the card's document."""
    card, other = cards_of(site)[:2]

    def task() -> printing.Task:
        yield from printing._navigate(other.as_uri())
        yield from printing._show_html(card.read_text("utf-8"))
        r = yield printing.Call("Runtime.evaluate", {"expression": "[location.href, document.title]",
                                                     "returnByValue": True})
        return r["result"]["value"]

    with printing.Browser.launch() as b:
        href, title = b.run([task()], tabs=1)[0]
    assert href == "about:blank"
    assert f"<title>{title}</title>" in card.read_text("utf-8")


def _session(pid: int) -> list[int]:
    """The live (not zombie) processes of the session pid leads."""
    found = []
    for n in os.listdir("/proc"):
        if n.isdigit():
            try:
                fields = Path(f"/proc/{n}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == pid and fields[0] != "Z":
                found.append(int(n))
    return found


def test_closing_the_browser_stops_every_process_it_started() -> None:
    """Browser.close kills the browser's session (its own, start_new_session) rather than asking it
    to close: its renderers, GPU process and zygotes go with it, and its profile is removed."""
    with printing.Browser.launch() as b:
        b.run([printing.prints_of_page("card", ["letter"], "<p>One card.</p>")])
        leader = b.proc.pid
        started = _session(leader)
        exe = os.readlink(f"/proc/{leader}/exe")
        profile = Path(b.profile)
    assert len(started) >= 3, started  # the browser, its zygotes, a renderer, ...
    assert "chrom" in exe, exe  # the browser itself, not a script that runs it as a child
    deadline = time.monotonic() + 2
    while _session(leader) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _session(leader) == []
    assert not profile.exists()


@needs_pdfinfo
def test_debians_two_browsers_print_a_card_alike(site: Path, tmp_path: Path) -> None:
    """rulec prints with Debian's chromium-headless-shell when it is there, else its chromium
    (printing.CHROMIUM_NAMES): both print a card on one page of each paper, with the same words, and
    the same size of preview. Their bytes differ (another /Creator, a glyph placed a fraction of a
    pixel apart), as two Chromium versions' do."""
    found = {name: shutil.which(name) for name in ("/usr/lib/chromium/chromium-headless-shell", "chromium")}
    if None in found.values():
        pytest.skip("needs both chromium-headless-shell and chromium (.ci/run installs both)")
    card = sorted(site.glob("cards/dak/card-*.html"))[0]
    seen = {}
    for name, exe in found.items():
        with printing.Browser.launch(exe) as b:
            (made, overflows), = b.run([printing.prints_of_page(card.as_uri(), ["letter", "a4", "preview"],
                                                                card.read_text("utf-8"))])
        words = []
        for paper in ("letter", "a4"):
            pdf = tmp_path / f"{Path(name).name}.{paper}.pdf"
            pdf.write_bytes(made[paper])
            info = printing.pdf_info(pdf)
            assert info["Pages"] == "1", (name, paper)
            words.append((info["Page size"], subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                                                            text=True, check=True).stdout.split()))
        png = made["preview"]
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        seen[name] = (words, png[16:24], overflows)  # the PNG's width and height
    assert seen["/usr/lib/chromium/chromium-headless-shell"] == seen["chromium"]
    assert seen["chromium"][0][0][1]  # the card has words to compare


def test_a_run_takes_the_tasks_fed_to_it_as_they_come_until_its_feed_is_closed(site: Path) -> None:
    """Browser.run with a Feed (printing.PrintRun prints each card as the build makes it): a task
    put while the run runs is run, its result comes in the order it was put, and the run ends when
    the feed is closed, with the same prints as a run given every task at once."""
    cards = cards_of(site)[:5]

    def task(page: Path) -> printing.Task:
        return printing.prints_of_page("about:blank", ["letter"], page.read_text("utf-8"))

    feed = printing.Feed()

    def feeder() -> None:
        for page in cards[1:]:
            time.sleep(0.2)  # some come while every tab is idle, some while tabs print
            feed.put(task(page))
        feed.close()

    with printing.Browser.launch() as b:
        putting = threading.Thread(target=feeder)
        putting.start()
        fed = b.run([task(cards[0])], feed=feed)
        putting.join()
        given = b.run([task(page) for page in cards])
    assert len(fed) == len(cards)
    assert [made["letter"] for made, _ in fed] == [made["letter"] for made, _ in given]


def test_closing_a_kept_browser_ends_a_run_that_waits_on_its_feed() -> None:
    """A build interrupted while its print thread waits for the next card: KeptBrowser.close kills the
    browser first, so the thread's run stops (PrintError) and lets the browser go, and close() then
    closes it; it never waits for a thread that waits for it."""
    exe = printing.find_chromium()
    assert exe is not None
    kept = printing.KeptBrowser(exe)
    feed = printing.Feed()
    ended: list[BaseException] = []

    def printer() -> None:
        try:
            with kept.open() as b:
                b.run([], feed=feed)
        except printing.PrintError as e:
            ended.append(e)

    thread = threading.Thread(target=printer, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while (kept.browser is None or len(kept.browser.tabs) < printing.PRINT_TABS) and time.monotonic() < deadline:
        time.sleep(0.05)  # its tabs are open: it waits on the feed
    closer = threading.Thread(target=kept.close, daemon=True)
    closer.start()
    closer.join(timeout=30)
    thread.join(timeout=30)
    assert not closer.is_alive() and not thread.is_alive()
    assert ended and kept.browser is None


def test_a_card_fed_again_with_other_html_is_printed_as_its_last_html(site: Path, tmp_path: Path) -> None:
    """PrintRun beside the build: a card added again with the same HTML (the cards a build makes
    early, build.feed_cards, then as it writes them) is printed once; with other HTML, the prints of
    the last are the ones kept, under its digest."""
    first, second = cards_of(site)[:2]
    html_a, html_b = first.read_text("utf-8"), second.read_text("utf-8")
    edited = html_b.replace("</body>", "<p>edited</p></body>")
    exe = printing.find_chromium()
    assert exe is not None
    kept = printing.KeptBrowser(exe)
    try:
        run = printing.PrintRun(tmp_path, True, kept, beside=True)
        rel_a, rel_b = (f"cards/{p.parent.name}/{p.name}" for p in (first, second))
        for rel, html in ((rel_a, html_a), (rel_a, html_a), (rel_b, html_b), (rel_b, edited)):
            run.add(rel, html)
        prints = run.finish({})
        with kept.open() as b:
            [(alone, _)] = b.run([printing.prints_of_page("about:blank", ["letter"], edited)])
    finally:
        kept.close()
    assert prints.printed == 6 and prints.reused == 0
    [job] = [j for j in printing.jobs_of(rel_b, edited) if j.paper == "letter"]
    assert prints.files[job.target] == alone["letter"]
    assert prints.files[job.sidecar] == job.sidecar_of(printing.sha256(edited))


def test_a_build_prints_each_card_once_and_starts_before_its_worked_examples_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulec build` with printing: each card's prints are asked for once (made as soon as the rules are
    resolved, then not again as the build writes the card), the first of them before any worked
    example runs on a module; its browser is killed once every print is in, before the output is
    moved into place, and closed (its profile removed) as the build ends; and generated/ is then up
    to date."""
    from rulec import build, cli, writing

    happened: list[str] = []
    profiles: list[Path] = []
    real_examples, real_prints = build.run_examples, printing.prints_of_page
    real_kill, real_close = printing.KeptBrowser.kill, printing.KeptBrowser.close
    real_moves = {name: getattr(writing.os, name) for name in ("replace", "rename")}
    monkeypatch.setattr(build, "run_examples", lambda *a, **k: happened.append("examples") or real_examples(*a, **k))

    def kill(self: printing.KeptBrowser) -> None:
        assert self.browser is not None
        profiles.append(Path(self.browser.profile))
        happened.append("kill")
        real_kill(self)

    def close(self: printing.KeptBrowser) -> None:
        happened.append("close")
        real_close(self)

    def moving(name: str) -> Any:
        def move(src: Any, dst: Any) -> None:
            happened.append("move")
            real_moves[name](src, dst)
        return move

    monkeypatch.setattr(printing.KeptBrowser, "kill", kill)
    monkeypatch.setattr(printing.KeptBrowser, "close", close)
    for name in real_moves:  # the output folder moved into place (a first build), or its files
        monkeypatch.setattr(writing.os, name, moving(name))

    def prints_of_page(url: str, papers: list[str], html: str | None = None) -> printing.Task:
        happened.append("print")
        return real_prints(url, papers, html)

    monkeypatch.setattr(printing, "prints_of_page", prints_of_page)
    out = tmp_path / "generated"
    assert cli.main(["build", "--rules", str(ROOT / "rules"), "--out", str(out), "--no-cache"]) == 0
    cards = list(out.glob("cards/*/card-*.html"))
    assert happened.count("print") == len(cards) and happened.index("print") < happened.index("examples")
    last_print = len(happened) - 1 - happened[::-1].index("print")
    assert happened.count("kill") == 1 and last_print < happened.index("kill") < happened.index("close")
    assert "move" in happened[happened.index("kill"):happened.index("close")]  # the output moved in after
    assert profiles and not profiles[0].exists()
    assert {p.name for p in out.glob("cards/*/card-*.png")} == {p.name[:-len(".html")] + ".png" for p in cards}
    assert cli.main(["build", "--rules", str(ROOT / "rules"), "--out", str(out), "--check"]) == 0
