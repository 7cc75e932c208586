"""`rulec diff OLD NEW`: what changed between two rule trees (folders or git revisions), in a designer's words.

Both sides are parsed, checked and resolved (worked examples are not run: a rule
change usually breaks an example, and the diff should still say what changed).
Each resolved ruleset is cut into items a designer names (a clause '4.5a', a
list value '4.5a F', a table row '4.6 re_size.battalion', a limit '4.8
stacking.combat_re', a const, a definition, an example) and the items are
compared field by field: '4.5a F: negation removed'.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import model as m
from .build import find_sources
from .checker import check
from .diagnostics import Diagnostic, has_errors, unique_sorted
from .lower import lower
from .parser import parse
from .resolver import resolve
from .sheets.text import Words, flat, rule_key
from .sheets.view import plain_label
from .types import BoolT


class SourceError(Exception):
    """OLD or NEW is neither a rules folder or file nor a git revision."""


@dataclass(frozen=True)
class Change:
    ruleset: str
    key: str  # the item, as a designer names it: '4.5a F'
    what: str  # in words: 'negation removed'
    where: str | None = None  # the source line that made the new value, when it is an override

    @property
    def clause(self) -> str:
        return self.key.split(" ")[0]


# ---- reading a side -------------------------------------------------------------------------


def read_side(spec: str, rules: str = "rules", repo: Path | None = None) -> tuple[str, dict[str, str]]:
    """The .rules sources of OLD or NEW: a folder or file if one exists at `spec`, else a git revision
    (its `rules` folder).  Returns a label for the side and the sources by name."""
    path = Path(spec)
    if path.exists():
        sources, errors = find_sources([path])
        if errors:
            raise SourceError("; ".join(d.message for d in errors))
        return spec, sources
    git = ["git", "-C", str(repo or Path.cwd())]
    rev = subprocess.run([*git, "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"],
                         capture_output=True, text=True)
    if rev.returncode != 0:
        raise SourceError(f"'{spec}' is neither a rules folder or file nor a git revision")
    commit = rev.stdout.strip()
    listed = subprocess.run([*git, "ls-tree", "-r", "--name-only", commit, "--", rules],
                            capture_output=True, text=True, check=True).stdout.split()
    sources = {}
    for name in sorted(n for n in listed if n.endswith(".rules")):
        blob = subprocess.run([*git, "show", f"{commit}:{name}"], capture_output=True, check=True).stdout
        sources[name] = blob.decode("utf-8", errors="replace")
    if not sources:
        raise SourceError(f"revision {spec} has no .rules files under {rules}/")
    return f"{spec} ({commit[:10]})", sources


def resolve_all(sources: dict[str, str]) -> tuple[dict[str, m.Resolved], list[Diagnostic]]:
    """Every ruleset of the sources, resolved; worked examples are not run."""
    files, diags = [], []
    for name in sorted(sources):
        tree, found = parse(sources[name], name)
        diags += found
        if tree is not None:
            files.append(tree)
    if has_errors(diags):
        return {}, unique_sorted(diags)
    checked, found = check(files)
    diags += found
    if has_errors(diags):
        return {}, unique_sorted(diags)
    program = lower(checked)
    return {rs.name: resolve(program, rs) for rs in program.rulesets}, unique_sorted(diags)


# ---- items --------------------------------------------------------------------------------


def _notes(item: m.Clause | m.EnumMember) -> list[tuple[str, str]]:
    return [(n.label, n.text) for n in item.notes]


def _see(item: m.Clause | m.EnumMember) -> list[str]:
    return [r.number for r in item.see]


def _where(origin: m.Origin) -> str:
    return f"{origin.layer}; {origin.file}:{origin.line}"


def _last(item: m.Table | m.Row | m.Limit | m.ConstDef | m.Define) -> str:
    """Where an item was last set: its last override, else where it is written."""
    return _where(item.overridden_by[-1].origin if item.overridden_by else item.origin)


def items(model: m.Resolved) -> dict[str, dict[str, Any]]:
    """The model cut into named items, each a dict of comparable fields (plus '_where', its origin)."""
    words = Words(model)
    out: dict[str, dict[str, Any]] = {}
    enums = {e.name: e for e in model.enums}
    for c in model.clauses:
        out[c.number] = {"kind": "clause", "title": c.title, "text": [flat(t) for t in c.texts],
                         "notes": _notes(c), "see": _see(c), "_where": _where(c.origin)}
    for x in model.externals:
        out.setdefault(x.number, {"kind": "external", "title": x.title, "link": x.url, "_where": None})
    for e in model.enums:
        number = e.origin.clause
        for mb in e.members:
            key = f"{number} {mb.name}" if number else f"{e.name}.{mb.name}"
            attrs = {a: v.value for a, v in mb.attrs}
            origins = {a: _where(v.origin) for a, v in mb.attrs if v.origin is not None}
            out[key] = {"kind": "member", "enum": e.name, "title": mb.title, "attrs": attrs,
                        "text": [flat(t) for t in mb.texts], "notes": _notes(mb), "see": _see(mb),
                        "_attr_where": origins, "_where": _where(mb.origin)}
    for t in model.tables:
        # the table itself (its title, what it requires); its rows are items of their own
        out[f"{t.origin.clause} {t.name}" if t.origin.clause else t.name] = {
            "kind": "table", "title": t.title, "requires": _requires(t, words), "_where": _last(t)}
        for r in t.rows:
            number = r.origin.clause or t.origin.clause
            out[f"{number} {t.name}.{r.label}"] = {
                "kind": "row", "title": r.title, "value": words.value(r.value, pretty=False),
                "condition": words.expr(r.when, pretty=False) if r.when is not None else "otherwise",
                "_where": _last(r)}
    for g in model.limits:
        number = g.origin.clause
        out[f"{number} {g.name}"] = {"kind": "limits", "title": g.title,
                                     "unless": [u.title or words.expr(u.cond, False) for u in g.unless],
                                     "_where": _where(g.origin)}
        for i in g.items:
            out[f"{number} {g.name}.{i.name}"] = {
                "kind": "limit", "title": i.title, "bound": words.value(i.bound, pretty=False),
                "measure": words.expr(i.measure, pretty=False),
                "exempt": [x.title or words.expr(x.cond, False) for x in i.exempt], "_where": _last(i)}
    for k in model.consts:
        number = k.origin.clause
        out[f"{number} {k.name}" if number else k.name] = {
            "kind": "const", "title": k.title, "value": words.value(k.value, pretty=False), "_where": _last(k)}
    for d in model.defines:
        number = d.origin.clause
        out[f"{number} {d.name}" if number else d.name] = {
            "kind": "define", "title": d.title, "value": words.expr(d.body, pretty=False),
            "requires": _requires(d, words), "_where": _last(d)}
    for ex in model.examples:
        out[f"{ex.clause} example \"{ex.title or ''}\""] = {
            "kind": "example", "steps": len(ex.steps), "_where": _where(ex.origin)}
    for item in out.values():
        if item["kind"] == "member":
            item["_labels"] = {a.name: plain_label(a) if isinstance(a.t, BoolT) else a.name
                               for a in enums[item["enum"]].attrs}
    return out


# ---- comparing ------------------------------------------------------------------------------


def _requires(item: m.Table | m.Define, words: Any) -> str | None:
    return None if item.requires is None else words.expr(item.requires, pretty=False)


def _quote(text: Any) -> str:
    s = str(text)
    return f'"{s[:60]}…"' if len(s) > 61 else f'"{s}"'


def compare_item(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str | None]]:
    """(words, where) for every field that differs between two versions of one item."""
    out: list[tuple[str, str | None]] = []
    where = new["_where"] if new["_where"] != old["_where"] else None
    if old["kind"] != new["kind"]:
        return [(f"now a {new['kind']} (was a {old['kind']})", where)]
    for attr in sorted(set(old.get("attrs", {})) | set(new.get("attrs", {}))):
        a, b = old["attrs"].get(attr), new["attrs"].get(attr)
        if a == b:
            continue
        label = new["_labels"].get(attr, attr)
        at = new["_attr_where"].get(attr) if new["_attr_where"].get(attr) != old["_attr_where"].get(attr) else None
        if isinstance(a, bool) and isinstance(b, bool):
            out.append((f"{label} {'added' if b else 'removed'}", at))
        else:
            out.append((f"{label}: {a} → {b}", at))
    if old.get("title") != new.get("title"):
        out.append((f"title changed: {_quote(old.get('title'))} → {_quote(new.get('title'))}", where))
    for field, noun in (("text", "text"), ("condition", "condition"), ("measure", "what is counted"),
                        ("link", "link"), ("steps", "steps")):
        if old.get(field) != new.get(field):
            out.append((f"{noun} changed", where))
    for field, noun in (("value", "value"), ("bound", "at most")):
        if old.get(field) != new.get(field):
            out.append((f"{noun} {old.get(field)} → {new.get(field)}", where))
    if old.get("requires") != new.get("requires"):
        out.append((f"requires {old.get('requires') or 'nothing'} → {new.get('requires') or 'nothing'}", where))
    out += _list_changes(old.get("notes", []), new.get("notes", []), lambda n: f"{n[0].lower()} {_quote(n[1])}")
    out += _list_changes(old.get("see", []), new.get("see", []), lambda n: f"see {n}")
    out += _list_changes(old.get("exempt", []), new.get("exempt", []), lambda n: f"exception {_quote(n)}")
    out += _list_changes(old.get("unless", []), new.get("unless", []), lambda n: f"no-limit case {_quote(n)}")
    return out


def _list_changes(old: list[Any], new: list[Any], name: Any) -> list[tuple[str, str | None]]:
    gone = [x for x in old if x not in new]
    came = [x for x in new if x not in old]
    out: list[tuple[str, str | None]] = [(f"{name(x)} removed", None) for x in gone]
    return out + [(f"{name(x)} added", None) for x in came]


def diff_models(old: Mapping[str, m.Resolved], new: Mapping[str, m.Resolved]) -> list[Change]:
    """Every change between two sets of resolved rulesets, in rule order."""
    out: list[Change] = []
    for rs in sorted(set(old) | set(new)):
        if rs not in new:
            out.append(Change(rs, "(ruleset)", "ruleset removed"))
            continue
        if rs not in old:
            out.append(Change(rs, "(ruleset)", "ruleset added"))
            continue
        a, b = items(old[rs]), items(new[rs])
        for key in sorted(set(a) | set(b), key=_item_order):
            if key not in b:
                out.append(Change(rs, key, f"{a[key]['kind']} removed"))
            elif key not in a:
                out.append(Change(rs, key, f"{b[key]['kind']} added", b[key]["_where"]))
            else:
                out += [Change(rs, key, what, where) for what, where in compare_item(a[key], b[key])]
    return out


def _item_order(key: str) -> tuple[Any, ...]:
    head = key.split(" ")[0]
    try:
        return (0, rule_key(head), key)
    except (ValueError, AssertionError):
        return (1, (), key)


def render(changes: list[Change], rulesets: list[str]) -> list[str]:
    """Lines for a designer: each change once, with the rulesets it shows in."""
    grouped: dict[tuple[str, str, str | None], list[str]] = {}
    for c in changes:
        grouped.setdefault((c.key, c.what, c.where), []).append(c.ruleset)
    lines = []
    for (key, what, where), rss in grouped.items():
        whom = ", ".join(rss)
        lines.append(f"{key}: {what}  ({whom}{'; ' + where.split('; ', 1)[1] if where else ''})")
    unchanged = [r for r in rulesets if r not in {c.ruleset for c in changes}]
    n = len(grouped)
    tail = f"; unchanged: {', '.join(unchanged)}" if unchanged else ""
    lines.append(f"{n} change{'' if n == 1 else 's'}{tail}")
    return lines


def marks_of(changes: list[Change], ruleset: str) -> frozenset[str]:
    """The keys a rule sheet marks with ✓: each changed item and the clause it belongs to."""
    keys = set()
    for c in changes:
        if c.ruleset == ruleset:
            keys.add(c.key)
            keys.add(c.clause)
    return frozenset(keys)


# ---- the command ------------------------------------------------------------------------------


def command(args: Any) -> int:
    """`rulec diff OLD NEW [--sheets DIR] [--exit-code]`."""
    from . import sheets
    from .build import Result
    from .cli import EXIT_OK, EXIT_RULES, EXIT_USAGE, report
    from .writing import write_atomic

    sides = []
    for spec in (args.old, args.new):
        try:
            label, sources = read_side(spec, args.rules)
        except SourceError as e:
            print(f"rulec: {e}", file=sys.stderr)
            return EXIT_USAGE
        sources = {**getattr(args, "beside", {}), **sources}  # the series the project extends, on both sides
        models, diags = resolve_all(sources)
        if not models:
            report(Result(sources=sources, diagnostics=diags))
            print(f"rulec: {label} has mistakes; fix them to compare", file=sys.stderr)
            return EXIT_RULES
        sides.append((label, models))
    (old_label, old), (new_label, new) = sides
    changes = diff_models(old, new)
    print(f"rulec diff {old_label} -> {new_label}")
    for line in render(changes, sorted(set(old) | set(new))):
        print(line)
    if args.sheets is not None:
        files = {}
        for name, model in sorted(new.items()):
            pages = sheets.rule_sheet(new, model, marks_of(changes, name), since=old_label)
            files.update({f"{sheets.folder(model)}/{rel}": text for rel, text in pages.items()})
        write_atomic(files, args.sheets)
        print(f"wrote {len(files)} rule sheet pages into {args.sheets}/; changed clauses are marked ✓")
    return EXIT_RULES if args.exit_code and changes else EXIT_OK
