"""The anchors of `external` links, checked against the rule sheets rulec writes (R116).

An external clause's link (`external 3.F.1.a "Bad Terrain" at "#3f1a"`) goes, as written, onto
every chapter page whose text, notes or `see` cite the clause, and onto a ruleset's index page where
a change listed there is cited by it (there a leading '../' is dropped: sheets/pages.index_links).
Read from the page it is on, as a browser would, a link is checked when it leads to a page rulec
writes itself and names an anchor on it:

* `#anchor`: a heading of the page the link is on;
* a relative path with a fragment that leads to a chapter page of a rule sheet
  (`../4-0-general-concepts/#45-zone-of-control`, or `../../dak/4-0-general-concepts/#...` into
  another ruleset's sheet), to a sheet's index page, or to the matrix page.

The anchors of a page are the ids Hugo gives its headings (text.hugo_anchor; a repeated one gets
-1, -2, ...): on a chapter page its sections' ('## 4.5 Zone of Control' -> 45-zone-of-control, as
sheets/pages.chapters lays the page out); on the index page 'Chapters' and 'What X changes' for each
layer above the series (view.changing_layers); on the matrix page each series' heading.

Not checked: web addresses (http:, https:, mailto:); a link without a fragment, or with an empty
one ('#': the top of the page); and a relative path that leads to a page rulec does not write, such
as `../9-0-ground-combat/#912-retreats--advances` (a chapter not encoded here, which the designer's
Hugo site holds beside the sheets). A link no page shows (a clause nothing cites) is not checked.

`dangling_anchors` is a function of the resolved models alone; `check_links` (called at the end of
checker.check, so `rulec check`, `rulec build` and the language server report it) lowers and
resolves the rulesets whose files have no error, and places each finding at the link in the rules
file. It does so only when some link has a fragment and no scheme, and the pages are laid out only
when such a link can lead to a page rulec writes (may_dangle): for most rules files it costs a
lowering and resolving.
"""

from __future__ import annotations

import difflib
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import model as m
from .diagnostics import Diagnostic, Span

if TYPE_CHECKING:
    from .scope import CheckedProgram

_HOST = "https://sheets.invalid"  # a stand-in site root: the sheets' pages are /sheets/<folder>/<page>/


@dataclass(frozen=True)
class Page:
    """A page rulec writes, with the anchors of its headings."""

    file: str  # under generated/: sheets/zcs/5-0-zones-of-control-zoc.md
    name: str  # how a diagnostic names it: 'page 5-0-zones-of-control-zoc', 'the index page', 'the matrix page'
    sheet: str | None  # the ruleset whose sheet it is on (None: the matrix)
    anchors: frozenset[str]


@dataclass(frozen=True)
class Dangling:
    """A link that names an anchor the page it leads to does not have."""

    number: str  # the external clause
    url: str  # its link, as written
    ruleset: str  # the sheet it is shown on
    page: Page  # the page it leads to
    anchor: str  # the anchor it names (percent-escapes decoded)

    def nearest(self, n: int = 5) -> list[str]:
        """The page's anchors nearest to the one named, nearest first."""
        return difflib.get_close_matches(self.anchor, sorted(self.page.anchors), n=n, cutoff=0.0)


def checkable(url: str) -> bool:
    """Whether a link could lead into the sheets: no scheme, no host, a fragment that names something."""
    parts = urllib.parse.urlsplit(url)
    return not parts.scheme and not parts.netloc and not url.startswith("//") and bool(parts.fragment)


def _folder(model: m.Resolved) -> str:
    return model.manifest.ruleset.lower()  # as sheets.folder


def _chapters(model: m.Resolved) -> list[dict[str, Any]]:
    """The model's chapter pages as the sheets render them (sheets/pages.chapters), made once."""
    from .sheets import pages
    from .sheets.text import per_model

    return per_model(model, "chapter pages, for their links", lambda md: pages.chapters(md, set()))


def _ids(headings: list[str]) -> frozenset[str]:
    """The ids Hugo gives a page's headings, in order: a repeated one gets -1, -2, ... (Goldmark)."""
    from .sheets.text import hugo_anchor

    seen: set[str] = set()
    for heading in headings:
        base = hugo_anchor(heading)
        anchor, n = base, 0
        while anchor in seen:
            n += 1
            anchor = f"{base}-{n}"
        seen.add(anchor)
    return frozenset(seen)


def _pages(models: Mapping[str, m.Resolved]) -> dict[str, Page]:
    """Every page of generated/sheets by its path on the site ('/sheets/dak/4-0-general-concepts/'),
    with the anchors of the headings its template writes: a chapter page's sections ('## 4.5 Zone of
    Control', chapter.md.j2 and _md.j2), the index page's 'Chapters' and 'What X changes' (index.md.j2),
    the matrix page's series (matrix.md.j2)."""
    from .sheets.view import changing_layers

    out: dict[str, Page] = {}
    for name in sorted(models):
        model = models[name]
        folder = _folder(model)
        for page in _chapters(model):
            heads = [f"{c['number']} {c['title'] or ''}" for c in page["clauses"] if c["level"] == "section"]
            out[f"/sheets/{folder}/{page['page']}/"] = Page(f"sheets/{folder}/{page['page']}.md",
                                                            f"page {page['page']}", name, _ids(heads))
        heads = ["Chapters"] + [lay["heading"] for lay in changing_layers(model)]
        out[f"/sheets/{folder}/"] = Page(f"sheets/{folder}/_index.md", "the index page", name, _ids(heads))
    series = sorted((md.manifest.series for md in models.values() if md.manifest.series is not None
                     and md.manifest.layers == (md.manifest.series.name,)), key=lambda s: s.name)
    out["/sheets/matrix/"] = Page("sheets/matrix.md", "the matrix page", None,
                                  _ids([f"{s.name} {s.version or ''}: {s.title}" for s in series]))
    return out


def _texts(view: dict[str, Any]) -> Iterator[str]:
    """Every text of a clause's view on a chapter page that may cite a rule (sheets/pages.clause_view)."""
    for holder in (view, *view.get("members", ())):
        for b in holder["blocks"]:
            yield from ([b["text"]] if b["kind"] == "p" else b["items"])
        yield from (n["text"] for n in holder["notes"])
        yield from holder["see"]


def shown_on(models: Mapping[str, m.Resolved], model: m.Resolved) -> dict[str, set[str]]:
    """External clause -> the paths of the pages of this model's sheet that show its link."""
    from .sheets import view
    from .sheets.text import RULE_NUMBER

    externals = {e.number for e in model.externals}
    own = view.anchors(model)
    folder = _folder(model)
    out: dict[str, set[str]] = {}
    for page in _chapters(model):
        cited: set[str] = set()
        for v in ([page["intro"]] if page["intro"] else []) + page["clauses"]:
            for text in _texts(v):
                cited.update(RULE_NUMBER.findall(text))
        for number in cited & externals - set(own):
            out.setdefault(number, set()).add(f"/sheets/{folder}/{page['page']}/")
    for group in view.layer_change_groups(models, model):
        for change in group["changes"]:
            for number in (change["number"], change["in"]):
                if number in externals and number not in own:
                    out.setdefault(number, set()).add(f"/sheets/{folder}/")
    return out


def _lands(url: str, here: str) -> tuple[str, str] | None:
    """Where a link shown on page `here` leads on the site, as (page path, anchor), or None: off the
    site (a web address) or to no anchor. On an index page a leading '../' is dropped, as written."""
    shown = url[3:] if here.count("/") == 3 and url.startswith("../") else url  # /sheets/<folder>/
    parts = urllib.parse.urlsplit(urllib.parse.urljoin(_HOST + here, shown))
    if f"{parts.scheme}://{parts.netloc}" != _HOST or not parts.fragment:
        return None
    return (parts.path if parts.path.endswith("/") else parts.path + "/"), urllib.parse.unquote(parts.fragment)


def _page_paths(models: Mapping[str, m.Resolved]) -> dict[str, list[str]]:
    """Each model's pages (index first) by the ruleset: only their paths, which are cheap to know."""
    from .sheets.text import chapter_page
    from .sheets.view import chapter_titles

    return {name: [f"/sheets/{_folder(md)}/"] + [f"/sheets/{_folder(md)}/{chapter_page(ch, t)}/"
                                                 for ch, t in chapter_titles(md).items()]
            for name, md in models.items()}


def may_dangle(models: Mapping[str, m.Resolved]) -> bool:
    """Whether any link, from any page of its sheet, leads to an anchor on a page rulec writes: if
    not, nothing needs the pages' texts and headings (a check of most rules files stops here)."""
    paths = _page_paths(models)
    written = {p for ps in paths.values() for p in ps} | {"/sheets/matrix/"}
    for name, md in models.items():
        for e in md.externals:
            if checkable(e.url) and any((landed := _lands(e.url, here)) is not None and landed[0] in written
                                        for here in paths[name]):
                return True
    return False


def dangling_anchors(models: Mapping[str, m.Resolved], model: m.Resolved,
                     pages: Mapping[str, Page] | None = None) -> list[Dangling]:
    """The links of this model's external clauses that, from a page of its sheet that shows them,
    name an anchor the page they lead to does not have. pages: _pages(models), if already made."""
    urls = {e.number: e.url for e in model.externals if checkable(e.url)}
    if not urls:
        return []
    pages = _pages(models) if pages is None else pages
    out: list[Dangling] = []
    for number, on in sorted(shown_on(models, model).items()):
        url = urls.get(number)
        if url is None:
            continue
        for here in sorted(on):
            landed = _lands(url, here)
            page = None if landed is None else pages.get(landed[0])
            if landed is not None and page is not None and landed[1] not in page.anchors:
                out.append(Dangling(number, url, model.manifest.ruleset, page, landed[1]))
    return out


def _at_link(ext: Any) -> Span:
    """Where the link of an `external` is written. The item ends at its link when it has no braces
    (the link, being a safe one, holds no escape: R113); else, as `rulec fmt` lays the line out."""
    s = ext.span
    width = len(ext.url) + 2
    if not ext.decls and s.end_col > width:
        return Span(s.file, s.end_line, s.end_col - width, s.end_line, s.end_col)
    title = "" if ext.title is None else ' "' + ext.title.replace("\\", "\\\\").replace('"', '\\"') + '"'
    col = s.col + len(f"external {ext.number}{title} at ")
    return Span(s.file, s.line, col, s.line, col + width)


def _where(found: list[Dangling]) -> str:
    page = found[0].page
    if page.sheet is None:
        return page.name
    sheets = sorted({d.ruleset for d in found})
    names = sheets[0] if len(sheets) == 1 else ", ".join(sheets[:-1]) + " and " + sheets[-1]
    return f"{page.name} of the {names} rule sheet{'s' if len(sheets) > 1 else ''}"


def diagnostics(found: list[tuple[Span, Dangling]]) -> list[Diagnostic]:
    """One R116 for each link and page it leads to (a page shared by the sheets of several
    rulesets, with the same headings, is named once)."""
    groups: dict[tuple[Span, str, str, str, frozenset[str]], list[Dangling]] = {}
    for span, d in found:
        groups.setdefault((span, d.url, d.page.name, d.anchor, d.page.anchors), []).append(d)
    out = []
    for (span, url, _, anchor, _), ds in groups.items():
        d = ds[0]
        nearest = d.nearest()
        hint = (f"its headings nearest to '{anchor}': {', '.join(nearest)}; link one of them, "
                if nearest else "it has no headings; ")
        hint += f"or drop the fragment (or write '#', the top of the page), or link where {d.number} is written"
        out.append(Diagnostic(span, "R116", f"the link of {d.number}, {url!r}, names no heading of the page it "
                              f"leads to: {_where(ds)} has no anchor '#{anchor}'", hint=hint))
    return out


def check_links(program: CheckedProgram) -> list[Diagnostic]:
    """R116 for every dangling anchor of the rulesets none of whose files has an error."""
    externals = {(lay.name, n): e for lay in program.layers for n, e in lay.externals.items()}
    if not any(checkable(e.url) for e in externals.values()):
        return []
    from .lower import lower
    from .resolver import files_of, layer_chain, resolve

    wrong = {d.span.file for d in program.checker.diags if d.severity == "error"}
    lowered = program.lowered = lower(program)
    models = {rs.name: resolve(lowered, rs) for rs in lowered.rulesets if not files_of(lowered, rs) & wrong}
    program.resolved.update(models)
    if not may_dangle(models):
        return []
    pages = _pages(models)
    found: list[tuple[Span, Dangling]] = []
    for name in sorted(models):
        chain = layer_chain(lowered, next(rs for rs in lowered.rulesets if rs.name == name))
        for d in dangling_anchors(models, models[name], pages):
            ext = next((externals[(lay, d.number)] for lay in chain if (lay, d.number) in externals), None)
            if ext is not None:
                found.append((_at_link(ext), d))
    return diagnostics(found)
