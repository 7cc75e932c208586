"""Text stays text in Markdown and for Hugo (#17): links, Markdown and shortcodes, front matter.

An outside attack found three holes in guarantee 4 of SECURITY.md, each closed at its root and
tested here by class, with many payloads per class:

* **Links.** R113 checked the link as written, so `javascript&#58;alert&#40;1&#41;` (which Hugo's
  Goldmark decodes into `javascript:alert(1)`) passed. R113 now reads the link as the most generous
  renderer would (character references with or without ';', percent-escapes, spaces and control
  characters anywhere, any case) and allows only http, https, mailto, paths and #anchors; and every
  link is written so that Markdown decodes nothing in it (`md_link_target`).
* **Markdown and Hugo.** Hugo runs `{{< x >}}` and `{{% x %}}` before Markdown sees the page, and
  `&lt;b&gt;` showed as `<b>`. Every text slot goes through `md_escape`, which writes no '{' and
  escapes '&'.
* **Front matter.** DEL, C1 controls and U+FFFF made the YAML front matter invalid. `_yaml` escapes
  every character outside YAML's printable set.

Each payload goes into every text slot of a small ruleset (the ruleset of tests/test_injection.py:
titles, texts, notes, list value titles, field titles, layer titles and versions, examples), which
is compiled in process; then every Markdown page, card, CSV and JSON file is checked. With
markdown-it-py installed (a CommonMark renderer; not a dependency of rulec), each page is also
rendered and must have the very elements, and show the very text, of the same ruleset with a plain
title in every slot.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from html.parser import HTMLParser
from typing import Any

import markdown_it  # a test dependency ([test] in pyproject.toml): CommonMark, as Hugo renders
import pytest

from rulec.build import compile_sources, outputs
from rulec.sheets import _yaml
from rulec.sheets.text import md_escape, md_link_target
from tests.test_injection import quoted, rules

# ---- payloads ----------------------------------------------------------------------------------------

TEXTS = [
    "javascript&#58;alert&#40;1&#41;",
    "{{% gist x %}}",
    "{{< x >}}",
    "{{</* x */>}} {{%/* x */%}} {{ .Title }}",
    "&lt;b&gt; &amp; &#123; &#x7B; &colon; &#58 &Tab;",
    "\x7f",
    "\x85",
    "\uffff",
    "\u2028",
    "\ufeff \ufffe \x1b[31m \u202e \u2029 \x80 \x9f",
    ": definition",
    "# heading",
    "heading ##",
    "1. item",
    "- item",
    "> quote",
    "+ x",
    "= x",
    "~~~",
    "```",
    "   indented",
    "[a](javascript:alert(1)) ![i](x) <javascript:alert(1)> <b>b</b> <!--more-->",
    "T {#id .c onclick=x}",
    "*em* _em_ **b** ~~s~~ `c` | cell | [^1] [ ] \\ \\\\ trailing\\",
    "x <https://example.com> [r]: /u",
]
ALL = " ".join(TEXTS)

UNSAFE_LINKS = [
    "javascript&#58;alert&#40;1&#41;",
    "javascript:alert",
    "JaVaScRiPt:alert",
    "java\tscript:alert",
    "&#x6A;avascript:alert",
    "&#106avascript:alert",
    "&#0000106;avascript:alert",
    "%6Aavascript:alert",
    "%256Aavascript:alert",
    "javascript&colon;alert",
    "javascript&colon/alert",
    "java&Tab;script:alert",
    "&amp;#106;avascript:alert",
    "vbscript:msgbox",
    "data:text/html;base64,PHNjcmlwdD4=",
    "file:///etc/passwd",
    "javascript%3Aalert",
    " javascript:alert",
    "javascript:alert\u2028",
    "java\x00script:alert",
]
SAFE_LINKS = [
    "https://example.com/rules?a=1&b=2#x",
    "https://example.com/a%20b",
    "https://example.com/?a=1&amp;b=2&copy=3&#35;x",  # written so that it is not decoded
    "http://example.com/",
    "mailto:rules@example.com",
    "../3-0-units/#31-ground-units",
    "#11-t",  # a heading of the page the link is on (R116 checks it)
    "x/y:z",
]
# What a browser takes for a scheme (WHATWG URL): after dropping the C0 controls and spaces around
# the address and every tab and line break in it.
BROWSER_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")


def browser_scheme(href: str) -> str | None:
    href = re.sub(r"[\t\n\r]", "", href.strip("".join(map(chr, range(0x21)))))
    m = BROWSER_SCHEME.match(href)
    return m[1].lower() if m else None


def build(text: str, link: str = "../9-0-more/#91-more") -> dict[str, str]:
    src = rules(text).replace('at "../9-0-more/#91-more"', f"at {quoted(link)}")
    result = compile_sources({"s.rules": src})
    assert result.ok, [d.render(result.sources) for d in result.diagnostics]
    return outputs(result)


@pytest.fixture(scope="module", params=["all", *range(len(TEXTS))])
def built(request: pytest.FixtureRequest) -> tuple[str, dict[str, str]]:
    text = ALL if request.param == "all" else TEXTS[request.param]
    return text, build(text)


@pytest.fixture(scope="module")
def plain(built: tuple[str, dict[str, str]]) -> dict[str, str]:
    """The same ruleset with a plain text in every slot (an empty one for a text of white space)."""
    return build("Plain" if norm(built[0]) else "")


def norm(text: str) -> str:
    """Text as a page shows it: runs of white space as one space."""
    return " ".join(text.split())


# ---- front matter: YAML ----------------------------------------------------------------------------

# YAML 1.2, 5.1: the printable characters; a one-line scalar holds none of the line breaks (and the
# byte order mark belongs before a document, not in it).
C_PRINTABLE = re.compile("[\t\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
YAML_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
                "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
                "L": "\u2028", "P": "\u2029"}
HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def yaml_double_quoted(value: str) -> str:
    """The string a one-line YAML double-quoted scalar stands for; AssertionError if YAML refuses it."""
    assert len(value) >= 2 and value[0] == value[-1] == '"', value
    out, i, body = [], 0, value[1:-1]
    while i < len(body):
        ch = body[i]
        assert C_PRINTABLE.fullmatch(ch), f"{ch!r} is not printable in YAML"
        assert ch != '"', "an unescaped quote ends the scalar"
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        esc = body[i + 1]
        if esc in HEX_ESCAPES:
            digits = body[i + 2:i + 2 + HEX_ESCAPES[esc]]
            assert re.fullmatch(r"[0-9A-Fa-f]+", digits) and len(digits) == HEX_ESCAPES[esc], body[i:]
            out.append(chr(int(digits, 16)))
            i += 2 + len(digits)
        else:
            assert esc in YAML_ESCAPES, f"\\{esc} is no YAML escape"
            out.append(YAML_ESCAPES[esc])
            i += 2
    return "".join(out)


def front_matter(page: str) -> dict[str, Any]:
    """The front matter of a page, read strictly: `key: "string"` or `key: word`, an optional comment."""
    assert page.startswith("---\n"), page[:40]
    head, sep, _ = page[4:].partition("\n---\n")
    assert sep
    out: dict[str, Any] = {}
    for line in head.split("\n"):
        m = re.fullmatch(r'([a-z]+): ("(?:[^"\\]|\\.)*"|[a-z0-9]+)(  # [A-Za-z .]*)?', line, re.DOTALL)
        assert m, f"not a front-matter line: {line!r}"
        out[m[1]] = yaml_double_quoted(m[2]) if m[2].startswith('"') else m[2]
    try:
        import yaml
    except ImportError:
        return out
    assert yaml.safe_load(head) == {k: int(v) if v.isdigit() else v == "true" if v in ("true", "false") else v
                                    for k, v in out.items()}
    return out


def test_front_matter_parses_as_yaml_and_holds_the_title(built: tuple[str, dict[str, str]]) -> None:
    text, files = built
    pages = {rel: body for rel, body in files.items() if rel.endswith(".md") and rel.startswith("sheets/")}
    assert len(pages) == 7  # (traceability.md, a document of the repository, has no front matter)
    for rel, body in pages.items():
        head = front_matter(body)
        assert head["title"] == head["linktitle"], rel
    for ruleset in ("s", "g", "gx"):
        assert front_matter(pages[f"sheets/{ruleset}/_index.md"])["title"].startswith(text + " (")
        [chapter] = [b for r, b in pages.items() if r.startswith(f"sheets/{ruleset}/1-0-")]
        assert front_matter(chapter)["title"] == f"1.0 {text}"


@pytest.mark.parametrize("value", [*TEXTS, ALL, "", "\x00\x01\t\n\r\"\\", "\ud800", "😀 \U0001fffe"])
def test_yaml_scalar_is_exact(value: str) -> None:
    written = _yaml(value)
    assert "\n" not in written and "{" not in written
    assert yaml_double_quoted(written) == value
    assert json.loads(written) == value  # its escapes are JSON's too (tests/test_sheets.py reads it so)


# ---- Markdown: shortcodes, markup, entities ----------------------------------------------------------


def test_no_shortcode_and_no_stray_brace_in_any_page(built: tuple[str, dict[str, str]]) -> None:
    _, files = built
    for rel, body in files.items():
        if rel.endswith(".md"):
            assert "{{" not in body, rel
            # the only '{' on a page is the explicit id rulec gives a changed heading: ' ✓ {#anchor}'
            assert re.sub(r" \{#[\w-]+\}$", "", body, flags=re.M).count("{") == 0, rel


# CommonMark: a backslash escapes any ASCII punctuation mark; a character reference names one character.
_MD_TOKEN = re.compile(r"\\([!-/:-@\[-`{-~])|(&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]*);)|(.)",
                       re.DOTALL)


def md_plain(markdown: str) -> str:
    """The text a run of escaped Markdown shows; AssertionError at any character that would be markup."""
    out = []
    for m in _MD_TOKEN.finditer(markdown):
        if m[1] is not None:
            out.append(m[1])
        elif m[2] is not None:
            out.append(html.unescape(m[2]))
        else:
            assert m[3] not in "\\`*_[]<>|~&{#", f"unescaped {m[3]!r} in {markdown!r}"
            out.append(m[3])
    return "".join(out)


@pytest.mark.parametrize("text", [*TEXTS, ALL, "a  b\n\nc", "1) x", "12. x", "-1", " # x"])
def test_md_escape_shows_the_text(text: str) -> None:
    for line_start in (False, True):
        written = md_escape(text, line_start)
        assert "{" not in written and "\n" not in written
        assert md_plain(written) == re.sub(r"\s+", " ", text)
    assert not re.match(r"\s*([-+=>:#]|\d+[.)])", md_escape(text, True))


def test_every_heading_shows_its_title(built: tuple[str, dict[str, str]]) -> None:
    text, files = built
    for ruleset in ("s", "g", "gx"):
        [page] = [b for r, b in files.items() if r.startswith(f"sheets/{ruleset}/1-0-")]
        headings = re.findall(r"^## (1\.[12])(?: (.*?))?( ✓ \{#[\w-]+\})?$", page, re.M)
        assert [n for n, _, _ in headings] == ["1.1", "1.2"]
        for _, title, _ in headings:
            assert norm(md_plain(title)) == norm(text)


def _render(markdown: str) -> str:
    md = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"])  # Goldmark's GFM in Hugo
    body = markdown.split("\n---\n", 1)[1] if markdown.startswith("---\n") else markdown  # traceability.md has none
    return str(md.render(body))


class Shown(HTMLParser):
    """An HTML page's elements (tag and the attributes rulec writes), its text and its headings' texts."""

    def __init__(self, page: str):
        super().__init__()
        self.tags: list[tuple[str, tuple[str, ...]]] = []
        self.text: list[str] = []
        self.headings: list[str] = []
        self.hrefs: list[str] = []
        self.in_heading = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(sorted(a for a, _ in attrs))))
        self.hrefs += [v or "" for a, v in attrs if a in ("href", "src")]
        if tag == "h2":
            self.headings.append("")
            self.in_heading = True

    def handle_endtag(self, tag: str) -> None:
        self.tags.append(("/" + tag, ()))
        self.in_heading = self.in_heading and tag != "h2"

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.in_heading:
            self.headings[-1] += data

    def handle_comment(self, data: str) -> None:
        self.tags.append(("!--", ()))


def test_rendered_pages_have_the_elements_of_plain_text_and_show_the_text(
        built: tuple[str, dict[str, str]], plain: dict[str, str]) -> None:
    text, files = built
    plain_pages = {re.sub(r"/1-0-[^/]*$", "/1-0", rel): body for rel, body in plain.items() if rel.endswith(".md")}
    for rel, body in files.items():
        if not rel.endswith(".md"):
            continue
        shown = Shown(_render(body))
        baseline = Shown(_render(plain_pages[re.sub(r"/1-0-[^/]*$", "/1-0", rel)]))
        assert shown.tags == baseline.tags, rel  # no element, link, emphasis or HTML came from the text
        assert all(browser_scheme(h) is None for h in shown.hrefs), shown.hrefs
        if "/1-0" in rel:
            assert [norm(h) for h in shown.headings] == [norm(f"1.1 {text}"), norm(f"1.2 {text}")]
        assert norm(text) in norm("".join(shown.text)), rel


# ---- links -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("link", UNSAFE_LINKS)
def test_an_unsafe_link_is_r113_at_its_place(link: str) -> None:
    src = rules("t").replace('at "../9-0-more/#91-more"', f"at {quoted(link)}")
    line = src[:src.index("external 9.1")].count("\n") + 1
    result = compile_sources({"s.rules": src})
    assert not result.ok
    found = [d for d in result.diagnostics if d.code == "R113"]
    errors = [d for d in result.diagnostics if d.severity == "error"]  # (the fixture's list is R117's warning)
    assert len(found) == 1 and len(errors) == 1, [d.render(result.sources) for d in result.diagnostics]
    d = found[0]
    assert (d.span.file, d.span.line, d.span.col) == ("s.rules", line, 1)
    assert "the link of 9.1 is not a web address or a relative path" in d.message
    assert d.hint and "https://" in d.hint
    assert repr(link) in d.message  # shown as written, control characters escaped
    assert "\n" not in d.message and "\t" not in d.message


@pytest.mark.parametrize("link", SAFE_LINKS)
def test_a_safe_link_is_written_as_checked(link: str) -> None:
    files = build("t", link)
    # Markdown: the destination decodes to exactly the link (rendered, where markdown-it-py is installed)
    for rel in ("sheets/s/1-0-t.md", "sheets/g/1-0-t.md"):
        [written] = re.findall(r"\[9\.1\]\(([^)\s]*)\)", files[rel])
        assert "{" not in written
        assert html.unescape(written) == link
    try:
        hrefs = Shown(_render(files["sheets/s/1-0-t.md"])).hrefs
    except pytest.skip.Exception:
        hrefs = [link]
    assert hrefs == [link]
    # a card carries no link a rules file chooses
    assert link not in "".join(Shown(files["cards/s/card-1.html"]).hrefs)


@pytest.mark.parametrize("link", UNSAFE_LINKS + SAFE_LINKS)
def test_a_link_is_written_so_that_nothing_in_it_is_decoded(link: str) -> None:
    """Whatever R113 lets through, Markdown decodes no character reference in a written link."""
    if any(c.isspace() or not c.isprintable() for c in link):
        return  # R113 allows none; a Markdown destination cannot hold them either
    written = md_link_target(link)
    assert html.unescape(written) == link
    try:
        hrefs = Shown(_render(f"---\n---\n[x]({written})\n")).hrefs
    except pytest.skip.Exception:
        return
    # as written: 'javascript&#58;...' stays a path, which a browser reads as having no scheme
    # (markdown-it itself makes no link of a plain javascript:, vbscript:, file: or data: address)
    assert hrefs == [link] or hrefs == [] and browser_scheme(link) in ("javascript", "vbscript", "file", "data")


# ---- the cards and the tables: the same payloads -----------------------------------------------------


def test_cards_keep_the_text_and_carry_no_markup_from_it(built: tuple[str, dict[str, str]],
                                                         plain: dict[str, str]) -> None:
    text, files = built
    for ruleset in ("s", "g", "gx"):
        card = Shown(files[f"cards/{ruleset}/card-1.html"])
        baseline = Shown(plain[f"cards/{ruleset}/card-1.html"])
        assert [t for t, _ in card.tags if t in ("script", "a", "img", "svg", "iframe", "!--")] == \
               [t for t, _ in baseline.tags if t in ("script", "a", "img", "svg", "iframe", "!--")]
        assert not any(a.startswith("on") for _, attrs in card.tags for a in attrs)
        assert all(browser_scheme(h) in (None, "https", "http") for h in card.hrefs), card.hrefs
        assert norm(text) in norm("".join(card.text))


def strings(data: Any) -> list[str]:
    """Every string in a JSON document."""
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in [k, *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return [data] if isinstance(data, str) else []


def test_csv_and_json_hold_the_text_verbatim(built: tuple[str, dict[str, str]]) -> None:
    text, files = built
    for ruleset in ("s", "g", "gx"):
        assert text in strings(json.loads(files[f"cards/{ruleset}/tables.json"]))
        rows = list(csv.reader(io.StringIO(files[f"cards/{ruleset}/1.1-g.csv"], newline="")))
        titles = [r[rows[0].index("title")] for r in rows[1:]]
        # a cell a spreadsheet would read as a formula carries an apostrophe (guarantee 4a)
        assert titles == [text, text] or titles == ["'" + text, "'" + text]
