"""The rule sheet of one model as chapter pages: clauses in rule order, with their lists, notes and links."""

from __future__ import annotations

from typing import Any

from .. import model as m
from ..types import BoolT
from .text import Words, blocks, chapter_of, chapter_page, rule_key, section_of
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


def chapters(model: m.Resolved, marks: set[str]) -> list[dict[str, Any]]:
    """One page per chapter, as the online rulebook has them."""
    titles = chapter_titles(model)
    pages = {ch: chapter_page(ch, t) for ch, t in titles.items()}
    by_chapter: dict[str, list[m.Clause]] = {}
    for c in model.clauses:
        by_chapter.setdefault(chapter_of(c.number), []).append(c)
    out = []
    for ch in sorted(titles, key=int):
        clauses = sorted(by_chapter.get(ch, []), key=lambda c: rule_key(c.number))
        views = [clause_view(model, c, marks) for c in clauses]
        intro = views[0] if views and views[0]["level"] == "page" else None
        out.append({
            "chapter": ch, "title": f"{ch}.0 {titles[ch]}", "page": pages[ch], "weight": int(ch) * 10,
            "intro": intro, "clauses": [v for v in views if v is not intro],
            "links": link_table(model, pages, ch),
        })
    return out


def index_links(model: m.Resolved) -> dict[str, str]:
    """Links from the section's index page (one level above the chapter pages)."""
    titles = chapter_titles(model)
    pages = {ch: chapter_page(ch, t) for ch, t in titles.items()}
    return {n: (u[3:] if u.startswith("../") else u) for n, u in link_table(model, pages, None).items()}
