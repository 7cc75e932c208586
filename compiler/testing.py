"""`rulec test`: run every worked example of every ruleset, and say which rules no example exercises."""

from __future__ import annotations

import fnmatch
import time
import types
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import model as m
from .analysis import later_layers, run_example_traced, span_of
from .diagnostics import Diagnostic, Span


@dataclass(frozen=True, order=True)
class Item:
    """Something an example can exercise: a clause, a table row, a list value with settings,
    a limit, an exception, an override."""

    file: str
    line: int
    col: int
    kind: str
    layer: str
    clause: str | None
    item: str | None
    words: str

    @property
    def key(self) -> tuple[str, str | None, str | None]:
        return (self.layer, self.clause, self.item)


@dataclass(frozen=True)
class Outcome:
    """One example run in one ruleset, as `rulec test --format json|junit` reports it."""

    ruleset: str
    clause: str
    title: str | None
    file: str
    line: int
    status: str  # passed | failed | superseded
    failures: tuple[Diagnostic, ...] = ()
    by: str = ""  # superseded: the changes that superseded it
    seconds: float = 0.0

    @property
    def name(self) -> str:
        return example_name(self.ruleset, self.clause, self.title)


def example_name(ruleset: str, clause: str, title: str | None) -> str:
    """How `rulec test -v` and `--run` name an example: "RULESET CLAUSE TITLE"."""
    return f"{ruleset} {clause} {title or ''}".strip()


def matches(pattern: str, name: str) -> bool:
    """`rulec test --run PATTERN`: a glob (`DAK 4.5a *`) or a part of the name, in any case."""
    p, n = pattern.casefold(), name.casefold()
    return p in n or fnmatch.fnmatchcase(n, p)


@dataclass
class Report:
    passed: int = 0
    failed: int = 0
    failures: list[Diagnostic] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    exercised: set[tuple[str, str | None, str | None]] = field(default_factory=set)
    superseded: list[str] = field(default_factory=list)  # "DAK: 4.8 'title' (example.rules:12), by ..."
    outcomes: list[Outcome] = field(default_factory=list)  # every example run, in order

    @property
    def names(self) -> list[str]:
        """The examples run and counted (passed or failed), by name."""
        return [o.name for o in self.outcomes if o.status != "superseded"]

    @property
    def uncovered(self) -> list[Item]:
        clauses = {(layer, clause) for layer, clause, _ in self.exercised}
        return [i for i in self.items
                if (i.kind == "clause" and (i.layer, i.clause) not in clauses)
                or (i.kind != "clause" and i.key not in self.exercised)]


def run_tests(models: Mapping[str, m.Resolved], modules: Mapping[str, types.ModuleType] | None = None,
              only: str | None = None) -> Report:
    """Run each example in the ruleset of its own layer (a series example in the series, a game's in the
    game), and once more in every ruleset built over it, where it must hold unless a later layer changed
    what it relies on. modules: each ruleset's generated module, which answers every call an example
    makes as well as the interpreter (a difference fails the example with R900). only: run just the examples
    whose name ("RULESET CLAUSE TITLE") the pattern matches (`matches`)."""
    report = Report()
    seen_items: set[tuple[str, str | None, str | None, str]] = set()
    for name in sorted(models):
        model = models[name]
        own_layer = model.manifest.layers[-1]
        for ex in model.examples:
            if only is not None and not matches(only, example_name(name, ex.clause, ex.title)):
                continue
            start = time.perf_counter()
            outcome, diags, cites = run_example_traced(model, ex, (modules or {}).get(name))
            took = time.perf_counter() - start
            report.exercised |= {(c.layer, c.clause, c.item) for c in cites}
            where = (name, ex.clause, ex.title, ex.origin.file, ex.origin.line)
            if outcome == "superseded":
                later = later_layers(model, ex.origin.layer, cites)
                by = ", ".join(dict.fromkeys(" ".join(x for x in (c.layer, c.clause, c.item) if x) for c in later))
                title = f" '{ex.title}'" if ex.title else ""
                report.superseded.append(f"{name}: the example of {ex.clause}{title} ({ex.origin.file}:"
                                         f"{ex.origin.line}) is superseded by {by}")
                report.outcomes.append(Outcome(*where, "superseded", by=by, seconds=took))
                continue
            if ex.origin.layer != own_layer and outcome != "fail":
                continue  # counted where it was written
            if outcome == "pass":
                report.passed += 1
                report.outcomes.append(Outcome(*where, "passed", seconds=took))
            elif outcome == "fail":
                report.failed += 1
                report.failures += diags
                report.outcomes.append(Outcome(*where, "failed", tuple(diags), seconds=took))
        for it in coverage_items(model):
            key = (it.layer, it.clause, it.item, it.kind)
            if key not in seen_items:
                seen_items.add(key)
                report.items.append(it)
    report.items.sort()
    report.failures = sorted(set(report.failures))
    return report


def coverage_items(model: m.Resolved) -> list[Item]:
    out: list[Item] = []

    def add(origin: m.Origin, kind: str, item: str | None, words: str) -> None:
        out.append(Item(origin.file, origin.line, origin.col, kind, origin.layer, origin.clause, item, words))

    computed: set[tuple[str, str | None]] = set()
    decls: list[m.Define | m.Table | m.Limits | m.ConstDef] = [*model.defines, *model.tables, *model.limits,
                                                                *model.consts]
    for d in decls:
        computed.add((d.origin.layer, d.origin.clause))
    for exc_rows in model.tables:
        for r in exc_rows.rows:
            computed.add((r.origin.layer, r.origin.clause))
    for g in model.limits:
        for x in [*g.unless, *(e for i in g.items for e in i.exempt)]:
            computed.add((x.origin.layer, x.origin.clause))
    for c in model.clauses:
        if c.text_only:
            continue
        o = c.origin
        if (o.layer, o.clause) not in computed:
            add(o, "clause", None, f"{c.number}, which decides nothing a program can check: encode it, "
                                   "or mark it text-only")
        else:
            add(o, "clause", None, f"{c.number} {c.title or ''}".strip())
    for t in model.tables:
        for ov in m.cited_overrides(t.overridden_by):
            add(ov.origin, "override", None, f"{ov.layer} override of {t.name}")
        for r in t.rows:
            kind = "exception" if r.exception else "row"
            add(r.origin, kind, r.label, f"{t.name}: row {r.label}")
            for ov in m.cited_overrides(r.overridden_by):
                add(ov.origin, "override", r.label, f"{ov.layer} override of {t.name}.{r.label}")
    for e in model.enums:
        if not e.attrs:
            continue
        for mem in e.members:
            add(mem.origin, "value", mem.name, f"{e.name} {mem.name} {mem.title or ''}".strip())
            for ov in m.cited_overrides(mem.overridden_by):
                add(ov.origin, "override", mem.name, f"{ov.layer} override of {mem.name}")
    for g in model.limits:
        for u in g.unless:
            add(u.origin, "exception", None, f"{g.name}: unless {u.title or ''}".strip())
        for i in g.items:
            add(i.origin, "limit", i.name, f"{g.name}: limit {i.name}")
            for x in i.exempt:
                add(x.origin, "exception", None, f"{g.name}.{i.name}: except {x.title or ''}".strip())
            for ov in m.cited_overrides(i.overridden_by):
                add(ov.origin, "override", None, f"{ov.layer} override of {g.name}.{i.name}")
    named: list[m.Define | m.ConstDef] = [*model.defines, *model.consts]
    for n in named:
        for ov in m.cited_overrides(n.overridden_by):
            add(ov.origin, "override", None, f"{ov.layer} override of {n.name}")
    return out


def uncovered_diagnostics(report: Report) -> list[Diagnostic]:
    out = []
    for it in report.uncovered:
        span = Span(it.file, it.line, it.col, it.line, it.col + 1)
        out.append(Diagnostic(span, "R403", f"no example exercises {it.kind} {it.words}",
                              hint="add an example that uses it (expect ...), next to its clause"))
    return out


__all__ = ["run_tests", "Report", "uncovered_diagnostics", "span_of"]

