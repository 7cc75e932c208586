"""docs/traceability.md: every clause of every layer, what encodes it, which worked examples exercise
it, and, for a clause left as text, why.

A function of the resolved models (and, to place the `external` clauses, which the model keeps
without a place, of the sources): `rulec build` writes it as generated/traceability.md and then
copies it, byte for byte, to docs/traceability.md (see published.publish_docs)."""

from __future__ import annotations

import hashlib
import pickle
import re
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field

from . import model as m
from .analysis import ExampleCites, run_example_traced
from .cache import KeptText
from .interp import MAX_STEPS, budget
from .published import TRACEABILITY
from .sheets.text import md_escape

REL = TRACEABILITY  # under generated/, and copied to docs/ (published.py)
NO_REASON = "text-only (no reason given)"


@dataclass
class Row:
    """One clause (`rule` or `external`) of a layer, as the document shows it."""

    number: str
    title: str | None
    kind: str  # encoded | text-only | external | override (one written outside a clause of its layer)
    where: str  # file:line, or "" where unknown
    encodes: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    reason: str | None = None  # a text-only clause's reason (its encoding, else design, note), None: none given
    left: list[str] = field(default_factory=list)  # an encoded clause's "Left as text: ..." encoding notes
    how: list[str] = field(default_factory=list)  # its other encoding notes: how a sentence is encoded, and why
    url: str | None = None


@dataclass
class LayerRows:
    name: str
    kind: str
    title: str
    ruleset: str
    rows: list[Row]


def layers(models: Mapping[str, m.Resolved], sources: Mapping[str, str] | None = None,
           ran: Mapping[str, ExampleCites] | None = None) -> list[LayerRows]:
    """The rows of every layer of the models, each layer read from the first ruleset (by name) whose
    own layer it is (else the first that has it), layers in the order the rulesets stack them.
    ran: the rules each example already run used (see _examples_by_clause)."""
    order: list[str] = []
    for name in sorted(models):
        for layer in models[name].manifest.layers:
            if layer not in order:
                order.append(layer)
    examples = _examples_by_clause(models, ran or {})
    out = []
    for layer in order:
        own = [n for n in sorted(models) if models[n].manifest.layers[-1] == layer]
        name = (own or [n for n in sorted(models) if layer in models[n].manifest.layers])[0]
        out.append(_layer_rows(models, name, layer, examples, sources or {}))
    return out


def _layer_kind(model: m.Resolved, layer: str) -> tuple[str, str]:
    man = model.manifest
    for kind, ref in (("series", man.series), ("game", man.game), ("scenario", man.scenario)):
        if ref is not None and ref.name == layer:
            return kind, ref.title
    for ref in man.options:
        if ref.name == layer:
            return "option", ref.title
    return "layer", layer


def _layer_rows(models: Mapping[str, m.Resolved], name: str, layer: str,
                examples: Mapping[tuple[str, str], list[str]], sources: Mapping[str, str]) -> LayerRows:
    model = models[name]
    encodes = _encodings(model, layer)
    rows: list[tuple[tuple[object, ...], Row]] = []
    files = _layer_files(model, layer)
    at = {f: i for i, f in enumerate(files)}  # each file's place (a large layer has thousands)
    for c in model.clauses:
        if c.origin.layer != layer:
            continue
        o = c.origin
        enc = encodes.get(c.number, [])
        kind = "text-only" if c.text_only else "encoded"
        own = [n for n in c.notes if n.layer in (None, layer)]
        encoding = [n.text for n in own if n.kind == "encoding"]
        reason = next(iter(encoding + [n.text for n in own if n.kind == "design"]), None) if c.text_only else None
        row = Row(c.number, c.title, kind, f"{o.file}:{o.line}", enc, examples.get((layer, c.number), []), reason,
                  left=[] if c.text_only else [x for x in encoding if _left_as_text(x)],
                  how=[] if c.text_only else [x for x in encoding if not _left_as_text(x)])
        rows.append(((rule_order(c.number), at.get(o.file, len(files)), o.line), row))
    places = _external_places(files, sources)
    for e in _own_externals(models, name, layer):
        place = places.get(e.number)
        row = Row(e.number, e.title, "external", f"{place[0]}:{place[1]}" if place else "", [],
                  examples.get((layer, e.number), []), url=e.url)
        rows.append(((rule_order(e.number), at.get(place[0], len(files)) if place else len(files),
                      place[1] if place else 0), row))
    numbers = {c.number for c in model.clauses if c.origin.layer == layer}
    loose: dict[str, list[m.Override]] = {}  # overrides written outside a clause of the layer
    for ov in model.overrides:
        if ov.origin.layer == layer and ov.origin.clause not in numbers:
            loose.setdefault(ov.origin.clause or ov.clause, []).append(ov)
    for number, ovs in loose.items():
        o = ovs[0].origin
        title = ovs[0].title or f"Override of {ovs[0].of_layer} {m.target_label(ovs[0].target)}"
        row = Row(number, title, "override", f"{o.file}:{o.line}",
                  [f"override {ov.of_layer} {m.target_label(ov.target)}" for ov in ovs],
                  examples.get((layer, number), []))
        rows.append(((rule_order(number), at.get(o.file, len(files)), o.line), row))
    rows.sort(key=lambda kr: kr[0])
    kind, title = _layer_kind(model, layer)
    return LayerRows(layer, kind, title, name, [r for _, r in rows])


def rule_order(number: str) -> tuple[tuple[int, int | str], ...]:
    """A rule number's place in rule order: 4.9 before 4.10, 4.8 before 4.8a, 3.F.1.a as written."""
    return tuple((0, int(p)) if p.isdigit() else (1, p.lower()) for p in re.findall(r"\d+|[^\W\d_]+", number))


def _layer_files(model: m.Resolved, layer: str) -> list[str]:
    """The files the layer's declarations are written in, in the order the sources are read."""
    origins: list[m.Origin] = [c.origin for c in model.clauses]
    for items in (model.enums, model.records, model.consts, model.defines, model.tables, model.limits,
                  model.examples, model.overrides):
        origins += [x.origin for x in items]
    return sorted({o.file for o in origins if o.layer == layer})


def _own_externals(models: Mapping[str, m.Resolved], name: str, layer: str) -> list[m.External]:
    """The externals a layer declares: those of its ruleset that the ruleset of the layer beneath does
    not have (the model keeps an external without its layer)."""
    model = models[name]
    layers = model.manifest.layers
    at = layers.index(layer)
    beneath: set[str] = set()
    if at > 0:
        below = [n for n in sorted(models) if models[n].manifest.layers == layers[:at]]
        if below:
            beneath = {e.number for e in models[below[0]].externals}
        else:  # no ruleset of the layers beneath: what a ruleset of them shares with this one
            beneath = {e.number for n in sorted(models) if layers[at - 1] in models[n].manifest.layers
                       and layer not in models[n].manifest.layers for e in models[n].externals}
    return [e for e in model.externals if e.number not in beneath]


_EXTERNAL = re.compile(r"^[ \t]*external[ \t]+(\d+(?:\.[0-9A-Za-z]+)*)(?![\w.])", re.M)


def _external_places(files: list[str], sources: Mapping[str, str]) -> dict[str, tuple[str, int]]:
    """Where each `external <number>` is first written among the layer's files, if the sources are
    at hand (the model keeps an external without its place): one pass over each file."""
    places: dict[str, tuple[str, int]] = {}
    for f in files:
        for number, line in _externals_written(sources.get(f, "")):
            places.setdefault(number, (f, line))
    return places


def _externals_written(text: str) -> Iterator[tuple[str, int]]:
    """Each `external <number>` of a source and the line it is written on, in one pass."""
    line, at = 1, 0
    for found in _EXTERNAL.finditer(text):
        line, at = line + text.count("\n", at, found.start()), found.start()
        yield found.group(1), line


def _encodings(model: m.Resolved, layer: str) -> dict[str, list[str]]:
    """The declarations written inside each clause of the layer, by clause number, in the order of
    where they are written."""
    found: list[tuple[m.Origin, str]] = []

    def add(o: m.Origin | None, words: str) -> None:
        if o is not None and o.layer == layer and o.clause is not None:
            found.append((o, words))

    for d in model.defines:
        add(d.origin, f"invariant `{d.name}`" if d.invariant is not None else f"define `{d.name}`")
    for t in model.tables:
        own = [r.label for r in t.rows if not r.exception and r.origin.clause == t.origin.clause
               and r.origin.layer == t.origin.layer]
        add(t.origin, f"table `{t.name}`" + (f" (rows {', '.join(f'`{x}`' for x in own)})" if own else ""))
        others: dict[tuple[str | None, bool], list[m.Row]] = {}
        for r in t.rows:
            if r.exception or (r.origin.clause, r.origin.layer) != (t.origin.clause, t.origin.layer):
                others.setdefault((r.origin.clause, r.exception), []).append(r)
        for (_, exc), rs in others.items():
            labels = ", ".join(f"`{r.label}`" for r in rs)
            add(rs[0].origin, f"except `{t.name}` (rows {labels})" if exc else f"rows {labels} of `{t.name}`")
    for c in model.consts:
        add(c.origin, f"const `{c.name}`")
    for g in model.limits:
        own = [i.name for i in g.items if i.origin.clause == g.origin.clause and i.origin.layer == g.origin.layer]
        add(g.origin, f"limits `{g.name}`" + (f" ({', '.join(f'`{x}`' for x in own)})" if own else ""))
        for i in g.items:
            if (i.origin.clause, i.origin.layer) != (g.origin.clause, g.origin.layer):
                add(i.origin, f"limit `{g.name}.{i.name}`")
        for u in g.unless:
            unless = f" (unless: {_words(u.title)})" if u.title else " (unless)"
            add(u.origin, f"except `{g.name}`{unless}")
        for i in g.items:
            for x in i.exempt:
                add(x.origin, f"except `{g.name}.{i.name}`" + (f" ({_words(x.title)})" if x.title else ""))
    for e in model.enums:
        settings = ", ".join(f"`{a.name}`" for a in e.attrs)
        add(e.origin, f"list `{e.name}`" + (f" (settings {settings})" if settings else ""))
        members: dict[str | None, list[m.EnumMember]] = {}
        for mem in e.members:
            if (mem.origin.clause, mem.origin.layer) != (e.origin.clause, e.origin.layer):
                members.setdefault(mem.origin.clause, []).append(mem)
        for ms in members.values():
            add(ms[0].origin, f"values {', '.join(f'`{x.name}`' for x in ms)} of `{e.name}`")
    for rec in model.records:
        add(rec.origin, f"record `{rec.name}`")
    for ov in model.overrides:
        add(ov.origin, f"override {ov.of_layer} {m.target_label(ov.target)}")
    found.sort(key=lambda x: (x[0].file, x[0].line, x[0].col))
    out: dict[str, list[str]] = {}
    for o, words in found:
        assert o.clause is not None
        if words not in out.setdefault(o.clause, []):
            out[o.clause].append(words)
    return out


def example_label(ex: m.Example) -> str:
    """How the document names a worked example: its clause, its title and where it is written."""
    title = f" '{ex.title}'" if ex.title else ""
    return f"{ex.clause}{title} ({ex.origin.file}:{ex.origin.line})"


def _examples_by_clause(models: Mapping[str, m.Resolved], ran: Mapping[str, ExampleCites],
                        ) -> dict[tuple[str, str], list[str]]:
    """Each (layer, clause) and the examples whose run cites it, as `rulec test` runs them: each in
    the ruleset of its own layer and in every ruleset built over it (where a later layer's change it
    meets is cited too). In the order the examples are written. An example the build has run already
    (ran: each ruleset's, by origin) is not run again."""
    found: dict[tuple[str, str], dict[tuple[str, int, int], str]] = {}
    count = sum(len(mo.examples) for mo in models.values())
    with budget(MAX_STEPS + 10_000 * count):
        for name in sorted(models):
            model = models[name]
            for ex in model.examples:
                o = ex.origin
                known = ran.get(name, {}).get((o.file, o.line, o.col))
                cites = known if known is not None else run_example_traced(model, ex)[2]
                for c in cites:
                    if c.clause is not None:
                        found.setdefault((c.layer, c.clause), {})[(o.file, o.line, o.col)] = example_label(ex)
    return {k: [v[p] for p in sorted(v)] for k, v in found.items()}


# ---- the document ---------------------------------------------------------------------------


def _cell(text: str) -> str:
    """A table cell: escaped as the sheets escape text (a '|' too), on one line."""
    return md_escape(text.strip())


_BACKTICK = "\x00"  # a '`' in a designer's words inside an encoding: never a code span's edge


def _words(text: str) -> str:
    """A designer's words (a title) put into an encoding's description: its '`' cannot open a code span."""
    return text.replace("`", _BACKTICK)


def _code_cell(words: str) -> str:
    """An encoding as the document shows it: its names in code spans, the rest escaped. A name is
    an identifier (the checker allows no '`' or '|' in one), so the code spans are safe; the words
    of a title come in through _words, so their '`' is shown, escaped, not taken for a span."""
    parts = words.split("`")
    return "".join(f"`{p}`" if i % 2 else md_escape(p).replace(_BACKTICK, "\\`") for i, p in enumerate(parts))


def document(models: Mapping[str, m.Resolved], sources: Mapping[str, str] | None = None,
             ran: Mapping[str, ExampleCites] | None = None, renders: MutableMapping[str, KeptText] | None = None,
             example_keys: Mapping[str, str] | None = None) -> str:
    """docs/traceability.md: deterministic Markdown, the same models and sources give the same bytes.
    renders: the document kept from the last build, found by what it reads before its rows are
    made (_reads_key: with example_keys, each ruleset's build.examples_key, its clauses' notes and the places
    of the external clauses), else under a hash of its rows, which are all it shows (a clause's
    wording is never among them: an edit of one leaves the document as it was)."""
    if renders is None:
        return _document(layers(models, sources, ran))
    first = None if example_keys is None else _reads_key(models, sources, example_keys)
    if first is not None and first in renders:
        return renders[first].text()
    all_layers = layers(models, sources, ran)
    key = "traceability.md of " + hashlib.sha256(pickle.dumps(
        [(lr.name, lr.kind, lr.title, lr.ruleset, [(r.number, r.title, r.kind, r.where, r.encodes, r.examples,
                                                   r.reason, r.left, r.how, r.url) for r in lr.rows])
         for lr in all_layers], protocol=5)).hexdigest()
    if key in renders:
        kept = renders[key]
        text = kept.text()
    else:
        text = _document(all_layers)
        kept = renders[key] = KeptText.of(text)
    if first is not None:
        renders[first] = kept
    return text


def _reads_key(models: Mapping[str, m.Resolved], sources: Mapping[str, str] | None,
               example_keys: Mapping[str, str]) -> str:
    """A key of all the document reads, made without its rows: each ruleset's examples' key
    (build.examples_key: its module's key, which holds every number, title, place, declaration and
    override the rows show, and its worked examples, which with the module decide the examples'
    runs, and so the rules each cites), its clauses' notes (a text-only clause's reason, an encoded
    one's encoding notes) and where each `external` is written in each source (the model keeps an
    external without its place)."""
    h = hashlib.sha256(b"traceability.md 2")
    for name in sorted(models):
        notes = [(c.number, c.notes) for c in models[name].clauses if c.notes]
        h.update(repr((name, example_keys[name], notes)).encode("utf-8", "surrogatepass"))
    for f, text in sorted((sources or {}).items()):  # every place, not the first only: a layer's own
        places = list(_externals_written(text))  # first place may be a later file's
        if places:
            h.update(repr((f, places)).encode("utf-8", "surrogatepass"))
    return "traceability.md reading " + h.hexdigest()


def _document(all_layers: list[LayerRows]) -> str:
    lines = [
        "# Traceability: every clause, what encodes it, which examples exercise it",
        "",
        "Generated by `rulec build` from the rules (generated/traceability.md, copied here); do not edit.",
        "`rulec build --check` and the tests fail when it is not what the rules produce.",
        "",
        "A clause is *encoded* when declarations are written inside it, *text-only* when it is marked so "
        "(the reason is its encoding note, else its design note, where it has one), *external* when it is a "
        "rule of another chapter cited by number and link only. An example exercises a clause when its "
        "evaluation cites the clause (as `rulec test --coverage` counts it), in the ruleset of its own layer "
        "or one built over it. An encoded clause's encoding notes (`note encoding \"...\"`, never printed on a sheet "
        "or card) name the sentences of it that are left as text, and why.",
        "",
        "## Summary",
        "",
        "| Layer | Kind | Clauses | Encoded | Text-only | Text-only, no reason | Sentences left as text "
        "| External | No example | Overrides outside a clause |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for lr in all_layers:
        count = {k: sum(1 for r in lr.rows if r.kind == k) for k in ("encoded", "text-only", "external", "override")}
        no_reason = sum(1 for r in lr.rows if r.kind == "text-only" and r.reason is None)
        no_example = sum(1 for r in lr.rows if r.kind in ("encoded", "text-only") and not r.examples)
        left = sum(len(r.left) for r in lr.rows)
        clauses = len(lr.rows) - count["override"]
        lines.append(f"| {_cell(lr.name)} | {lr.kind} | {clauses} | {count['encoded']} | {count['text-only']} "
                     f"| {no_reason} | {left} | {count['external']} | {no_example} | {count['override']} |")
    lines += ["", "Clauses: `rule` and `external` clauses. No example: `rule` clauses that no worked example "
              "cites. Sentences left as text: encoding notes of encoded clauses that begin \"Left as text\" "
              "(the others say how a sentence is encoded). Overrides outside a clause: a layer's `override` "
              "written at the top level, shown as a row of its own under the number it changes.", ""]
    for lr in all_layers:
        lines += [f"## {lr.kind.capitalize()} {_cell(lr.name)}: {_cell(lr.title)}", "",
                  f"Read from the {_cell(lr.ruleset)} ruleset.", "",
                  "| Clause | Title | Where | Encoded by | Exercised by |",
                  "| --- | --- | --- | --- | --- |"]
        for r in lr.rows:
            lines.append(f"| {_cell(r.number)} | {_cell(r.title or '')} | {_cell(r.where) if r.where else '—'} "
                         f"| {_encoded_cell(r)} | {'<br>'.join(_cell(x) for x in r.examples) or '—'} |")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _encoded_cell(r: Row) -> str:
    if r.kind == "external":
        return "external" + (f" ({_cell(r.url)})" if r.url else "")
    if r.kind == "override":
        return "; ".join(_code_cell(x) for x in r.encodes)
    if r.kind == "text-only":
        if r.reason is None:
            return NO_REASON
        return _cell(r.reason) if r.reason.lower().startswith("text-only") else f"text-only: {_cell(r.reason)}"
    said = "; ".join(_code_cell(x) for x in r.encodes) or "—"
    return "<br>".join([said] + [f"encoding: {_cell(x)}" for x in r.how] + [_cell(x) for x in r.left])


def _left_as_text(note: str) -> bool:
    """An encoding note of an encoded clause says either what is left as text (it starts so) or how a sentence
    is encoded; only the first kind counts as a sentence left as text."""
    return note.lower().startswith("left as text")


def unreasoned(models: Mapping[str, m.Resolved]) -> list[str]:
    """The text-only clauses with no reason given ('OCS 4.9b (rules/ocs/ch4-general-concepts.rules:619)')."""
    return [f"{lr.name} {r.number} ({r.where})" for lr in layers(models)
            for r in lr.rows if r.kind == "text-only" and r.reason is None]


def iter_files(models: Mapping[str, m.Resolved], sources: Mapping[str, str] | None = None,
               ran: Mapping[str, ExampleCites] | None = None,
               renders: MutableMapping[str, KeptText] | None = None,
               example_keys: Mapping[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """The file of generated/ this module makes, as (relative path, text); ran: the rules each
    example the build ran used, by ruleset and origin (the others are run here); renders: the
    document kept from the last build, and example_keys each ruleset's build.examples_key (see document)."""
    yield REL, document(models, sources, ran, renders, example_keys)
