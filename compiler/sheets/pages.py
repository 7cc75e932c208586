"""The rule sheet of one model as chapter pages: clauses in rule order, with their lists, notes and links."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import model as m
from ..types import BoolT
from .text import Words, blocks, chapter_of, chapter_page, per_model, rule_key, section_of
from .view import (
    attr_value,
    bool_attrs,
    chapter_titles,
    cited,
    keys_say_more,
    link_table,
    list_clause,
    mark_label,
    printed_clause,
    setting_label,
    setting_words,
    shows_list,
    signed_column,
)


def _notes(notes: tuple[m.Note, ...]) -> list[dict[str, Any]]:
    """Notes as the page templates read them (not encoding notes, which are for traceability.md)."""
    return [{"kind": n.kind, "label": n.label, "text": n.text} for n in notes if n.kind != "encoding"]


def clause_view(model: m.Resolved, clause: m.Clause, marks: set[str]) -> dict[str, Any]:
    number = clause.number
    ch = chapter_of(number)
    level = "page" if number in (f"{ch}.0", ch) else "section" if section_of(number) == number else "clause"
    text = "\n\n".join(clause.texts)
    members = []
    words = Words(model)
    for enum in model.enums:
        if not any(mb.title for mb in enum.members):
            continue
        # A list is listed under the clause that declares it, or (declared outside every clause) under
        # the clause its card table cites.
        home = printed_clause(model, enum)
        if home != number and not (home is None and shows_list(model, enum) and list_clause(model, enum) == number):
            continue
        attrs = bool_attrs(enum)
        others = [a for a in enum.attrs if not isinstance(a.t, BoolT)]
        signed = {a.name: signed_column([attr_value(mb, a.name) for mb in enum.members]) for a in others}
        keys = keys_say_more(enum)
        for mb in enum.members:
            values = {n: v.value for n, v in mb.attrs}
            mtext = "\n\n".join(mb.texts)
            members.append({
                "key": mb.name if keys else "", "title": mb.title or mb.name,
                "settings": [f"{setting_label(a)}: {setting_words(words, a, values[a.name], signed[a.name])}"
                             for a in others],
                "marks": [mark_label(a) for a in attrs if values[a.name] is True],
                "blocks": blocks(mtext), "notes": _notes(mb.notes),
                "see": cited(mb, " ".join([mtext] + [n.text for n in mb.notes])),
                "changed": [o.layer for o in mb.overridden_by],
                "marked": f"{number} {mb.name}" in marks or bool(mb.overridden_by),
            })
    return {
        "number": number, "title": clause.title, "level": level, "blocks": blocks(text),
        "notes": _notes(clause.notes),
        "see": cited(clause, " ".join([text] + [n.text for n in clause.notes])), "members": members,
        "changed": [o.layer for o in clause.overridden_by],
        "marked": number in marks or bool(clause.overridden_by),
        "illustrative": clause.illustrative,
    }


@dataclass(frozen=True)
class Head:
    """A chapter's page before its clauses are made into views: what the index lists and what its
    page is made from."""

    chapter: str
    title: str  # '4.0 General Concepts'
    page: str  # its folder name in the online rulebook
    clauses: tuple[m.Clause, ...]  # in rule order


def heads(model: m.Resolved) -> list[Head]:
    """One page per chapter, as the online rulebook has them, in chapter order."""
    return per_model(model, "chapter heads", _heads)


def _heads(model: m.Resolved) -> list[Head]:
    titles = chapter_titles(model)
    by_chapter: dict[str, list[m.Clause]] = {}
    for c in model.clauses:
        by_chapter.setdefault(chapter_of(c.number), []).append(c)
    return [Head(ch, _heading(ch, titles[ch], by_chapter.get(ch, [])), chapter_page(ch, titles[ch]),
                 tuple(sorted(by_chapter.get(ch, []), key=lambda c: rule_key(c.number))))
            for ch in sorted(titles, key=int)]


def _heading(chapter: str, title: str, clauses: list[m.Clause]) -> str:
    """A chapter page's title, numbered as its rules print the chapter's own clause (`4.0 General
    Concepts`, the ZOC system's `5 Zones of Control`); a chapter with no such clause is not given a
    number no rule has (`Chapter 1: DAK and the series rules`, after its first clause)."""
    numbers = {c.number for c in clauses}
    for number in (f"{chapter}.0", chapter):
        if number in numbers:
            return f"{number} {title}"
    return f"Chapter {chapter}: {title}"


def page_names(model: m.Resolved) -> dict[str, str]:
    """Each chapter's page (folder) name, by chapter; made once per model (every page's links ask)."""
    return per_model(model, "chapter page names", lambda md: {h.chapter: h.page for h in heads(md)})


def chapter(model: m.Resolved, head: Head, marks: set[str]) -> dict[str, Any]:
    """A chapter's page as its template reads it. It reads the chapter's clauses, the model's lists
    (those each clause declares or a card cites it for, their values' titles), the chapter titles
    and the rule numbering (its links): page_reads says so for the page's key; a view that comes
    to read more must say so there too."""
    views = [clause_view(model, c, marks) for c in head.clauses]
    intro = views[0] if views and views[0]["level"] == "page" else None
    return {
        "chapter": head.chapter, "title": head.title, "page": head.page, "weight": int(head.chapter) * 10,
        "intro": intro, "clauses": [v for v in views if v is not intro],
        "links": link_table(model, page_names(model), head.chapter),
    }


def page_reads(model: m.Resolved) -> list[Any]:
    """What any chapter's page reads beyond its own clauses (see chapter), as plain data and model
    objects for a key: the lists, the list a clause is cited for where it does not declare it, the
    external rules and every clause's number and title (the chapter titles and anchors its links
    go to). Made once per model."""
    return per_model(model, "what a chapter page reads", lambda md: [
        md.enums, md.externals, [(c.number, c.title) for c in md.clauses],
        [(e.name, list_clause(md, e)) for e in md.enums if printed_clause(md, e) is None and shows_list(md, e)]])


def chapters(model: m.Resolved, marks: set[str]) -> list[dict[str, Any]]:
    """Every chapter's page (see chapter)."""
    return [chapter(model, head, marks) for head in heads(model)]


def index_links(model: m.Resolved) -> dict[str, str]:
    """Links from the section's index page (one level above the chapter pages)."""
    pages = page_names(model)
    return {n: (u[3:] if u.startswith("../") else u) for n, u in link_table(model, pages, None).items()}
