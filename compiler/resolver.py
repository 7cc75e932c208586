"""Resolve a ruleset: the series, then the game, scenario and options over it, into one typed model.

Later layers win. Every value keeps the origin it came from and, where a later layer changed it,
the list of overrides that did (oldest first). `ir.to_ir` writes the result as the IR.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from . import model as m


def layer_chain(program: m.Program, ruleset: m.Ruleset) -> list[str]:
    """Layer names, series first, options last in the order the ruleset lists them."""
    chain: list[str] = []
    name: str | None = ruleset.base
    while name is not None and name in program.layers and name not in chain:
        chain.append(name)
        name = program.layers[name].parent
    return list(reversed(chain)) + list(ruleset.options)


def manifest(program: m.Program, ruleset: m.Ruleset) -> m.Manifest:
    chain = layer_chain(program, ruleset)
    by_kind: dict[str, m.LayerRef | None] = {"series": None, "game": None, "scenario": None}
    for name in chain:
        lay = program.layers[name]
        if lay.kind in by_kind:
            by_kind[lay.kind] = m.LayerRef(name, lay.title, lay.version)
    options = tuple(m.LayerRef(o, program.layers[o].title, program.layers[o].version) for o in ruleset.options)
    return m.Manifest(ruleset.name, ruleset.title, by_kind["series"], by_kind["game"], by_kind["scenario"],
                      options, tuple(chain))


def resolve(program: m.Program, ruleset: m.Ruleset) -> m.Resolved:
    """The resolved model of one ruleset.

    The layers' items are shared, not copied: a new item is made only where resolving changes one
    (whom it is overridden by, a table's rows, a limit's exceptions), so the rulesets of one series
    share everything they do not change."""
    layers = [program.layers[n] for n in layer_chain(program, ruleset)]
    work = _Work(layers)
    # Exceptions: a later layer's rows go ahead of an earlier layer's, which go ahead of the table's own.
    for lay in layers:
        ahead: dict[int, list[m.Row]] = {}
        for exc in lay.excepts:
            if isinstance(exc, m.TableExcept) and exc.target in work.table_at:
                ahead.setdefault(work.table_at[exc.target], []).extend(
                    replace(r, exception=True) for r in exc.rows)
            elif isinstance(exc, m.LimitExcept) and exc.target[0] in work.limits_at:
                work.except_limit(exc)
        for i, rows in ahead.items():
            work.tables[i] = replace(work.tables[i], rows=(*rows, *work.tables[i].rows))
    overrides = [ov for lay in layers for ov in lay.overrides]
    for ov in overrides:
        work.apply(ov)
    return m.Resolved(manifest(program, ruleset), tuple(work.clauses),
                      tuple(x for lay in layers for x in lay.externals), tuple(work.enums),
                      tuple(x for lay in layers for x in lay.records), tuple(work.consts), tuple(work.defines),
                      tuple(work.tables), tuple(work.limits), tuple(x for lay in layers for x in lay.examples),
                      tuple(overrides), _cards(layers), next((x.theme for x in reversed(layers) if x.theme), None))


def _cards(layers: list[m.Layer]) -> tuple[m.Card, ...]:
    """The declared cards in force: in the order first declared, a later layer's card of a name in
    the place of the earlier one's."""
    cards: dict[str, m.Card] = {}
    for lay in layers:
        for card in lay.cards:
            cards[card.name] = card
    return tuple(cards.values())


def files_of(program: m.Program, ruleset: m.Ruleset) -> set[str]:
    """Every file that gives the ruleset something: its layers' declarations, items and examples."""
    return {o.file for name in layer_chain(program, ruleset) if name in program.layers
            for o in _origins(program.layers[name])}


def _origins(lay: m.Layer) -> list[m.Origin]:
    out = [lay.origin]
    out += [c.origin for c in lay.clauses]
    for e in lay.enums:
        out.append(e.origin)
        for mb in e.members:
            out.append(mb.origin)
            out += [v.origin for _, v in mb.attrs if v.origin is not None]
    out += [r.origin for r in lay.records]
    out += [c.origin for c in lay.consts]
    out += [d.origin for d in lay.defines]
    for t in lay.tables:
        out += [t.origin, *(r.origin for r in t.rows)]
    for g in lay.limits:
        out += [g.origin, *(u.origin for u in g.unless), *(i.origin for i in g.items)]
    for x in lay.excepts:
        out.append(x.origin)
        if isinstance(x, m.TableExcept):
            out += [r.origin for r in x.rows]
    out += [ov.origin for ov in lay.overrides]
    for ex in lay.examples:
        out += [ex.origin, *(s.origin for s in ex.steps if isinstance(s, m.ExpectStep))]
    return out


class _Work:
    """The items being resolved, each list indexed by what an override names (a loop over every
    item per override made resolving quadratic in the size of the rulebook)."""

    def __init__(self, layers: list[m.Layer]):
        self.clauses = [c for lay in layers for c in lay.clauses]
        self.enums = [e for lay in layers for e in lay.enums]
        self.consts = [c for lay in layers for c in lay.consts]
        self.defines = [d for lay in layers for d in lay.defines]
        self.tables = [t for lay in layers for t in lay.tables]
        self.limits = [g for lay in layers for g in lay.limits]
        self.clause_at = _at(c.number for c in self.clauses)
        self.enum_at = _at(e.name for e in self.enums)
        self.const_at = _at(c.name for c in self.consts)
        self.define_at = _at(d.name for d in self.defines)
        self.tables_at = _at(t.name for t in self.tables)
        self.limits_all = _at(g.name for g in self.limits)
        # An exception goes to the last table (limits group) of its name.
        self.table_at = {name: at[-1] for name, at in self.tables_at.items()}
        self.limits_at = {name: at[-1] for name, at in self.limits_all.items()}

    def except_limit(self, exc: m.LimitExcept) -> None:
        i = self.limits_at[exc.target[0]]
        group = self.limits[i]
        entry = m.Condition(exc.cond, exc.title, exc.origin)
        if len(exc.target) == 1:
            self.limits[i] = replace(group, unless=(*group.unless, entry))
        else:
            self.limits[i] = replace(group, items=tuple(
                replace(item, exempt=(*item.exempt, entry)) if item.name == exc.target[1] else item
                for item in group.items))

    def apply(self, ov: m.Override) -> None:
        def cite(*decides: str | None) -> m.Cite:
            return m.Cite(ov.origin.layer, ov.notes, ov.origin, decides=tuple(d for d in decides if d))

        match ov.target:
            case m.ClauseTarget(number):
                for i in self.clause_at.get(number, []):
                    c = self.clauses[i]
                    title, texts, notes, see = _texts(c.title, c.texts, c.notes, c.see, ov)
                    self.clauses[i] = replace(c, title=title, texts=texts, notes=notes, see=see,
                                              overridden_by=_then(c.overridden_by, cite()))
            case m.MemberTarget(enum=enum, member=member):
                for i in self.enum_at.get(enum, []):
                    e = self.enums[i]
                    self.enums[i] = replace(e, members=tuple(
                        _set(mb, ov) if mb.name == member else mb for mb in e.members))
            case m.NameTarget(kind="const", name=name):
                for i in self.const_at.get(name, []):
                    k = self.consts[i]
                    self.consts[i] = replace(k, value=_or(ov.value, k.value), title=ov.title or k.title,
                                             overridden_by=_then(k.overridden_by, cite(_value(ov.value))),
                                             says=_says(ov, ov.value is not None, k.says))
            case m.NameTarget(kind="table", name=name):
                for i in self.tables_at.get(name, []):
                    t = self.tables[i]
                    self.tables[i] = replace(t, title=ov.title or t.title, **_requires(ov, t),
                                             overridden_by=_then(t.overridden_by,
                                                                 cite("requires" if ov.requires is not None else None)))
            case m.NameTarget(name=name):
                for i in self.define_at.get(name, []):
                    d = self.defines[i]
                    decides = cite(_value(ov.value), "requires" if ov.requires is not None else None)
                    self.defines[i] = replace(d, body=_or(ov.value, d.body), title=ov.title or d.title,
                                              overridden_by=_then(d.overridden_by, decides),
                                              says=_says(ov, ov.value is not None, d.says), **_requires(ov, d))
            case m.RowTarget(table=table, row=label):
                for i in self.tables_at.get(table, []):
                    t = self.tables[i]
                    self.tables[i] = replace(t, rows=tuple(
                        _change_row(r, ov, cite("when" if ov.when is not None else None, _value(ov.value)))
                        if r.label == label and not r.exception else r for r in t.rows))
            case m.LimitTarget(limits=limits, limit=name):
                for i in self.limits_all.get(limits, []):
                    g = self.limits[i]
                    self.limits[i] = replace(g, items=tuple(
                        replace(item, bound=_or(ov.bound, item.bound), title=ov.title or item.title,
                                overridden_by=_then(item.overridden_by,
                                                    cite("bound" if ov.bound is not None else None)),
                                says=_says(ov, ov.bound is not None, item.says))
                        if item.name == name else item for item in g.items))


def _at(names: Iterable[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        out.setdefault(name, []).append(i)
    return out


def _requires(ov: m.Override, item: m.Table | m.Define) -> dict[str, Any]:
    """What a table or definition requires after an override: the override's, with its own words (or
    none), where it gives one (`requires true`: nothing, it answers every input); else what it required."""
    if ov.requires is None:
        return {"requires": item.requires, "requires_says": item.requires_says}
    if isinstance(ov.requires, m.Lit) and ov.requires.v is True:
        return {"requires": None, "requires_says": None}
    return {"requires": ov.requires, "requires_says": ov.requires_says}


def _value(new: m.Expr | None) -> str | None:
    """"value", for an override that gives a new value (not one that changes only words)."""
    return None if new is None else "value"


def _then(earlier: tuple[m.Cite, ...], cite: m.Cite) -> tuple[m.Cite, ...]:
    """An item's overrides with a new one last, each earlier one marked replaced once the overrides
    after it changed again all it decides (a scenario's 6 over its game's 8: the game's no longer
    decides any answer)."""
    out = [*earlier, cite]
    later: set[str] = set()
    for i in range(len(out) - 1, -1, -1):
        c = out[i]
        if c.decides and not c.replaced and set(c.decides) <= later:
            out[i] = replace(c, replaced=True)
        later |= set(c.decides)
    return tuple(out)


def _or(new: m.Expr | None, old: m.Expr) -> m.Expr:
    """An override's new expression; one that changes only words keeps the old."""
    return old if new is None else new


def _set(mb: m.EnumMember, ov: m.Override) -> m.EnumMember:
    """A list value with an override's settings, texts and notes."""
    attrs = dict(mb.attrs)
    for attr, value in ov.set:
        attrs[attr] = m.AttrValue(value, ov.origin)
    cite = m.Cite(ov.origin.layer, ov.notes, ov.origin, ov.set, decides=tuple(name for name, _ in ov.set or ()))
    title, texts, notes, see = _texts(mb.title, mb.texts, mb.notes, mb.see, ov)
    return replace(mb, attrs=tuple(attrs.items()), title=title, texts=texts, notes=notes, see=see,
                   overridden_by=_then(mb.overridden_by, cite))


def _change_row(r: m.Row, ov: m.Override, cite: m.Cite) -> m.Row:
    """A row with an override's changes. The series' title describes the series' row: an override that
    changes what the row decides without a title of its own leaves the row untitled (warning R114),
    so no answer or card prints "Battalions are 1/2 RE" beside a value of 1/3; its `says` phrase goes too."""
    changed = ov.when is not None or ov.value is not None
    return replace(r, when=r.when if ov.when is None else ov.when, value=_or(ov.value, r.value),
                   title=ov.title or (None if changed else r.title), overridden_by=_then(r.overridden_by, cite),
                   says=_says(ov, changed, r.says))


def _says(ov: m.Override, changed: bool, says: str | None) -> str | None:
    """The phrase a card prints for an item an override changes: the override's own (`says "..."`),
    else none once the value changed (the old phrase described the old value), else the old one."""
    return ov.says if ov.says is not None else None if changed else says


def _texts(title: str | None, texts: tuple[str, ...], notes: tuple[m.Note, ...], see: tuple[m.Ref, ...],
           ov: m.Override) -> tuple[str | None, tuple[str, ...], tuple[m.Note, ...], tuple[m.Ref, ...]]:
    """The title, texts, notes and references of a clause or list value an override changes."""
    out = list(notes)
    for n in ov.notes:
        same = [i for i, x in enumerate(out) if x.text == n.text]
        if same:  # the series text already quotes the game's note: mark it, don't repeat it
            out[same[0]] = replace(out[same[0]], layer=ov.origin.layer)
        else:
            out.append(replace(n, layer=ov.origin.layer))
    return ov.title or title, ov.texts or texts, tuple(out), (*see, *ov.see)
