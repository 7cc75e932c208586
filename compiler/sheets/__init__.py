"""Rule sheets (Hugo Markdown) and player aid cards (print HTML, CSV/JSON tables) from the resolved models."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import operator
import pickle
import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import fields, is_dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from .. import model as model_module
from .. import types as types_module
from ..cache import KeptText, digest_of, text_of
from ..manifest import keep_sealed, read_sealed, user_cache_folder
from ..model import Origin, Resolved
from ..themes import Theme
from ..timings import stage, timed
from . import export, pages, view
from .text import hugo_anchor, md_escape, md_link_target, per_model, pieces, player_words


def _md(text: str) -> str:
    """Markdown for a title or name: escaped, without the white space around it (which would open
    a list item after the '*' of an emphasis at the start of a line)."""
    return md_escape(text.strip())


def _md_links(text: str, links: dict[str, str]) -> str:
    """Markdown for a rule text: escaped, with the rule numbers it cites linked."""
    out = []
    for i, (piece, url) in enumerate(pieces(" ".join(text.split()), links)):
        out.append(md_escape(piece, line_start=i == 0) if url is None else f"[{piece}]({md_link_target(url)})")
    return "".join(out)


# What a YAML double-quoted scalar cannot hold as it is: every character outside YAML 1.2's printable
# set (c-printable: C0 controls but tab and line breaks, DEL, C1 controls, surrogates, U+FFFE, U+FFFF),
# and besides them NEL, U+2028 and U+2029 (line breaks to YAML 1.1 parsers), the byte order mark
# (not allowed inside a document) and '{' (no front matter holds a Hugo shortcode's '{{').
_YAML_ESCAPE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
                          "\U00010000-\U0010ffff]|[{]")


def _yaml(value: Any) -> str:
    """A YAML scalar, one line: a JSON string (valid YAML in double quotes; its escapes are YAML's too)
    with every character YAML refuses, or reads as a line break, written as a \\u escape."""
    return _YAML_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


@cache
def environment(kind: str) -> jinja2.Environment:
    """The Jinja2 environment for 'md' or 'html': StrictUndefined always, autoescape for HTML; each
    template's compiled code kept between runs (KeptTemplates)."""
    html = kind == "html"
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(__name__.split(".")[0], "templates"),
        autoescape=html,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=html,
        lstrip_blocks=html,
    )
    env.bytecode_cache = KeptTemplates.of(env)
    env.filters["words"] = player_words
    env.filters["md"] = _md
    env.filters["mdl"] = _md_links
    env.filters["mdurl"] = md_link_target
    env.filters["yaml"] = _yaml
    env.filters["html_links"] = _html_links
    return env


class KeptTemplates(jinja2.BytecodeCache):
    """Each template's compiled code, kept between runs in the user's cache folder (as Lark's parser
    tables are, with or without --no-cache: neither depends on the rules): compiling rulec's seven
    templates took 0.12-0.14 s of every build process, reading them back 3 ms.
    Sealed as the build cache's files are (manifest.keep_sealed): what is read back is code, run
    only if this user's rulec wrote it. Jinja checks an entry against its template's source, its
    own version and Python's; the folder is named by the environment's options and Jinja's
    version, which the code is compiled for as well. A missing, damaged or stale entry is compiled
    again, and a folder that cannot be written only costs the compiling."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def of(cls, env: jinja2.Environment) -> KeptTemplates | None:
        """The templates of env kept in a folder of their own: one per set of options it compiles with."""
        home = user_cache_folder()
        if home is None:
            return None
        made_for = repr([jinja2.__version__, env.autoescape, env.trim_blocks, env.lstrip_blocks,
                         env.keep_trailing_newline, env.newline_sequence, env.optimized])
        return cls(home / "templates" / hashlib.sha256(made_for.encode()).hexdigest()[:16])

    def _path(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.folder / f"{bucket.key}.code"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = read_sealed(self._path(bucket))
        if data is not None:
            bucket.bytecode_from_string(data)  # Jinja takes it only if it is for this source and version

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        keep_sealed(self._path(bucket), bucket.bytecode_to_string())


def _html_links(text: str, links: dict[str, str]) -> Markup:
    return Markup("").join(escape(p) if u is None else Markup('<a href="{}">{}</a>').format(u, p)
                           for p, u in pieces(text, links))


def _tidy_md(text: str) -> str:
    """Collapse the blank lines templates leave into one, and end with a single newline."""
    lines: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line == "" and (not lines or lines[-1] == ""):
            continue
        lines.append(line)
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


Renders = MutableMapping[str, KeptText]  # a page's or card's text, kept under the hash of what its template reads


class _NoKey(Exception):
    """A context holding something that has no exact, stable key (then it is rendered every time)."""


class _KeyWriter(pickle.Pickler):
    """A template context as bytes for its key: pickle's own writing of str, numbers, bool, None,
    lists, tuples and dicts (three to four times as fast as json.dumps with sorted keys, and a
    Markup told from a str), without its memo (`fast`), so equal contexts give equal bytes however
    their objects are shared. A dict is written in its order: the views are made in one order,
    and two orders of one dict would only cost a render. Of anything else, only exact numbers,
    places and links have a key (by their exact value, their fields and the model's numbering);
    any other object has none (its pickle might hold what the template never reads, or leave out
    what it does). A set's order is not stable from one process to the next: the views hold none
    (a test builds the shipped rules' keys under two hash seeds)."""

    def __init__(self, out: io.BytesIO) -> None:
        super().__init__(out, protocol=5)
        self.fast = True

    def reducer_override(self, value: Any) -> Any:
        if isinstance(value, type):
            return NotImplemented  # the class a reduction below names
        if isinstance(value, (Fraction, Decimal, Markup)):
            return type(value), (str(value),)
        if isinstance(value, Origin):  # where a value is written: a few plain fields
            return _model_reducers()[Origin](value)
        if isinstance(value, view.Links):
            return view.Links, (value.render_key(),)
        raise _NoKey(type(value).__name__)


def render_key(template: jinja2.Template, context: dict[str, Any]) -> str | None:
    """The key a rendering is kept under: a hash of the template's name and of everything it is
    given, which is all it reads (rulec's own templates and code are in the build cache's
    fingerprint); None for a context holding something that has no exact, stable key."""
    out = io.BytesIO()
    try:
        _KeyWriter(out).dump([template.name, context])
    except (_NoKey, pickle.PicklingError, ValueError, RecursionError):  # ValueError: a cycle, in fast mode
        return None
    return hashlib.sha256(out.getbuffer()).hexdigest()


def render(template: jinja2.Template, renders: Renders | None, key: str | None = None,
           **context: Any) -> str | KeptText:
    """template.render(**context), or the text it gave before for the same context (a rule sheet's
    page, a card), kept in renders under key (render_key's, worked out here when not given) and
    given as kept: what writes it reads its text only if the file on disk is not that text, and
    records its digest for the next build if it is."""
    if renders is None:
        return template.render(**context)
    key = key or render_key(template, context)
    if key is None:
        return template.render(**context)
    if key not in renders:  # a large build's pages and cards are tens of MB, kept until it ends
        renders[key] = KeptText.of(template.render(**context))
    return renders[key]


def _page_key(model: Resolved, head: pages.Head, manifest: dict[str, Any], marks: frozenset[str], marked: bool,
              since: str | None) -> str:
    """The key of a chapter's page, found without making its view: everything pages.chapter reads
    (the chapter's clauses, pages.page_reads) and the template is given (_model_bytes). An edit of
    one clause's text makes its own chapter's page again and no other."""
    head_bytes = _model_bytes(["chapter.md.j2", head, manifest, sorted(marks), marked, since])
    reads = per_model(model, "what a chapter page reads, digested",
                      lambda md: hashlib.sha256(_model_bytes(pages.page_reads(md))).digest())
    return hashlib.sha256(head_bytes + reads).hexdigest()


def _model_bytes(value: Any) -> bytes:
    """Plain data and model objects as pickle writes them, for a key: every field of each model
    object (frozen dataclasses of plain values, written alike in any process), without pickle's
    memo, so equal values give equal bytes however their objects are shared."""
    out = io.BytesIO()
    writer = pickle.Pickler(out, protocol=5)
    writer.fast = True
    writer.dispatch_table = _model_reducers()
    writer.dump(value)
    return out.getvalue()


@cache
def _model_reducers() -> dict[type, Callable[[Any], tuple[type, tuple[Any, ...]]]]:
    """Each model and type class written as its class and its fields' values, read by attrgetter:
    what pickle writes by itself for a frozen dataclass with slots, in half the time (its own
    reduction asks dataclasses for the fields of each object)."""
    found: dict[type, Callable[[Any], tuple[type, tuple[Any, ...]]]] = {}
    for cls in [*vars(model_module).values(), *vars(types_module).values()]:
        if isinstance(cls, type) and is_dataclass(cls) and fields(cls):
            get = operator.attrgetter(*(f.name for f in fields(cls)))
            many = len(fields(cls)) > 1
            found[cls] = functools.partial(_reduced, cls, get, many)
    return found


def _reduced(cls: type, get: Callable[[Any], Any], many: bool, value: Any) -> tuple[type, tuple[Any, ...]]:
    return cls, (get(value) if many else (get(value),))


def folder(model: Resolved) -> str:
    return model.manifest.ruleset.lower()


def rule_sheet(models: Mapping[str, Resolved], model: Resolved,
               marks: frozenset[str] = frozenset(), since: str | None = None) -> dict[str, str]:
    """The model's rule sheet: an index page and one Hugo 'book' page per chapter, by relative path."""
    return {rel: text_of(t) for rel, t in iter_rule_sheet(models, model, marks, since)}


def iter_rule_sheet(models: Mapping[str, Resolved], model: Resolved,
                    marks: frozenset[str] = frozenset(), since: str | None = None,
                    renders: Renders | None = None) -> Iterator[tuple[str, str | KeptText]]:
    """rule_sheet's pages one at a time, each let go once written (a large rulebook has hundreds).
    renders: the pages' texts kept from the last build, by what each shows (render)."""
    env = environment("md")
    manifest = view.manifest_line(model)
    marked = bool(marks) or bool(model.overrides)
    for head in pages.heads(model):
        key = None if renders is None else _page_key(model, head, manifest, marks, marked, since)
        if key is not None and renders is not None and key in renders:
            yield f"{head.page}.md", renders[key]
            continue
        page = pages.chapter(model, head, set(marks))
        for c in page["clauses"]:
            c["anchor"] = hugo_anchor(f"{c['number']} {c['title'] or ''}")
        text = _tidy_md(env.get_template("chapter.md.j2").render(page=page, manifest=manifest, marked=marked,
                                                                 marked_since=since))
        if key is not None and renders is not None:
            renders[key] = KeptText.of(text)
            yield f"{head.page}.md", renders[key]
            continue
        yield f"{head.page}.md", text
    game = manifest["layers"][-1]
    title = f"{manifest['title']} ({game['name']}{' ' + game['version'] if game['version'] else ''}): rule sheet"
    # A section per layer above the series: what it changes (links.py reads the page's anchors off the
    # same view.changing_layers).
    yield "_index.md", _tidy_md(env.get_template("index.md.j2").render(
        title=title, manifest=manifest, pages=pages.heads(model), layers=view.layer_change_groups(models, model),
        links=pages.index_links(model)))


def cards(models: Mapping[str, Resolved], model: Resolved,
          memo: MutableMapping[str, export.Kept] | None = None, theme: Theme | None = None) -> dict[str, str]:
    """The model's player aid cards (HTML, one page each) and their tables for other tools."""
    return {rel: text_of(t) for rel, t in iter_cards(models, model, memo, theme)}


def iter_cards(models: Mapping[str, Resolved], model: Resolved,
               memo: MutableMapping[str, export.Kept] | None = None,
               theme: Theme | None = None, renders: Renders | None = None) -> Iterator[tuple[str, str | KeptText]]:
    """cards' files one at a time, each let go once written: a large rulebook's cards and their
    tables are tens of MB. renders: the cards' HTML kept from the last build, by what each shows."""
    env = environment("html")
    manifest = view.manifest_line(model)
    hashes = {}  # each card's, for the sheets of small cards to name what they show
    keys: dict[str, str | None] = {}  # each card's render key, which its tables are kept under too
    card_list = view.cards(models, model)
    for card, key, html in _rendered(card_list, manifest, theme, renders):
        keys[card["name"]] = key
        hashes[f"{card['name']}.html"] = digest_of(html)
        yield f"{card['name']}.html", html
    for sheet in view.imposed(card_list):
        for c in sheet["cards"]:
            c["sha256"] = hashes[c["file"]]
        yield f"{sheet['name']}.html", env.get_template("sheet.html.j2").render(sheet=sheet, manifest=manifest)

    def tables_of(card: dict[str, Any]) -> export.CardTables:
        """The card's tables, or those kept under its render key (the card's view is all they read)."""
        key = keys.get(card["name"])
        if renders is None or key is None:
            return export.card_tables(card)
        key = f"the tables of card {key}"
        if key in renders:
            return _unframed(renders[key].text())
        found = export.card_tables(card)
        renders[key] = KeptText.of(_framed(found))
        return found

    yield from timed("card tables", model.manifest.ruleset, export.iter_tables(model, card_list, memo, tables_of))


def _rendered(card_list: list[dict[str, Any]], manifest: dict[str, Any], theme: Theme | None,
              renders: Renders | None) -> Iterator[tuple[dict[str, Any], str | None, str | KeptText]]:
    """Each card of card_list (view.cards), its render key (None without renders) and its HTML."""
    template = environment("html").get_template("card.html.j2")
    for card in card_list:
        context = {"card": card, "manifest": manifest,
                   "theme_css": Markup(theme.css) if theme else "",  # made safe by themes.load
                   "logo": theme.logo if theme else None}
        key = render_key(template, context) if renders is not None else None
        yield card, key, render(template, renders, key, **context)


def theme_of(model: Resolved, themes: Mapping[str, Theme]) -> Theme | None:
    """The theme of the model's cards, from the build's themes by folder (none if it is not there)."""
    return themes.get(model.theme.folder) if model.theme is not None else None


def iter_card_pages(models: Mapping[str, Resolved], themes: Mapping[str, Theme] | None = None,
                    renders: Renders | None = None) -> Iterator[tuple[str, str | KeptText]]:
    """Each card's HTML file of generated/ (no sheet of small cards, no table), as iter_sheet_files
    makes it: what a build that prints hands its browser as soon as the rules are resolved
    (build.feed_cards)."""
    themes = themes or {}
    for name in sorted(models):
        model = models[name]
        for card, _, html in timed("cards", name, _rendered(view.cards(models, model), view.manifest_line(model),
                                                             theme_of(model, themes), renders)):
            yield f"cards/{folder(model)}/{card['name']}.html", html


def _framed(tables: export.CardTables) -> str:
    """A card's tables as one text: each part its length and a colon, then the part (what JSON
    would take most of the time to escape and read back, at 10,000 clauses)."""
    line, csvs = tables
    return "".join(f"{len(part)}:{part}" for part in [line, *(x for named in csvs for x in named)])


def _unframed(text: str) -> export.CardTables:
    parts, at = [], 0
    while at < len(text):
        colon = text.index(":", at)
        end = colon + 1 + int(text[at:colon])
        parts.append(text[colon + 1:end])
        at = end
    return parts[0], list(zip(parts[1::2], parts[2::2], strict=True))


def matrix(models: Mapping[str, Resolved]) -> str:
    text = environment("md").get_template("matrix.md.j2").render(
        title="Where each game, scenario and option departs from its series", series=view.matrix(models))
    return _tidy_md(text)


def sheet_files(models: Mapping[str, Resolved]) -> dict[str, str]:
    """Every sheet and card file of generated/, by relative path."""
    return {rel: text_of(t) for rel, t in iter_sheet_files(models)}


def iter_sheet_files(models: Mapping[str, Resolved],
                     memo: MutableMapping[str, export.Kept] | None = None,
                     themes: Mapping[str, Theme] | None = None,
                     renders: Renders | None = None) -> Iterator[tuple[str, str | KeptText]]:
    """Every sheet and card file of generated/ as (relative path, text), a ruleset at a time.
    memo: each table's per-unit values, worked out once for the rulesets (and builds) sharing it.
    themes: the cards' themes by folder (build.load_themes); a ruleset whose theme is not there has none.
    renders: the rule sheets' pages and the cards kept from the last build, by what each shows."""
    memo = {} if memo is None else memo
    themes = themes or {}
    for name in sorted(models):
        model = models[name]
        for rel, text in timed("rule sheets", name, iter_rule_sheet(models, model, renders=renders)):
            yield f"sheets/{folder(model)}/{rel}", text
        for rel, text in timed("cards", name, iter_cards(models, model, memo, theme_of(model, themes), renders)):
            yield f"cards/{folder(model)}/{rel}", text
    with stage("the matrix of changes"):
        text = matrix(models)
    yield "sheets/matrix.md", text
