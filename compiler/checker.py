"""Check the syntax trees of all files: layers, names, rule numbers, types, overrides, rulesets.

Every mistake is reported here (and in layercheck.py, exprs.py, which this calls), as a diagnostic.
What checking finds out about each layer (the typed node of every expression, the value of every
constant, the target of every override, and what it refused) is kept in its `Checked`
(scope.py), from which lower.py builds the typed layers.
"""

from __future__ import annotations

import html
import html.entities
import keyword
import re
import sys
import urllib.parse
from collections.abc import Mapping
from typing import Any

from . import ast, units
from . import model as m
from .diagnostics import Diagnostic, Span, did_you_mean
from .exprs import EnumInfo
from .layercheck import LayerCheck
from .links import check_links
from .scope import ChainScope, CheckedProgram, Decl, LayerInfo, declared, origin
from .types import ANY, EnumT, ListT, RecordT, SetT, Type, parse_type
from .units import Unit

# A link a rule sheet or card may carry: a web address, or a path with no scheme (never javascript:),
# in characters that cannot end a Markdown link or an HTML attribute; and the schemes allowed once the
# link is decoded as Markdown, HTML and a browser would (see _decoded_link).
_SAFE_LINK = re.compile(r"(?:(?:https?|mailto):|(?![A-Za-z][A-Za-z0-9+.-]*:))[A-Za-z0-9._~/?#@!$&*+,;=%:-]*")
_SAFE_SCHEMES = ("http", "https", "mailto")
_REF_NO_SEMICOLON = re.compile(r"&([A-Za-z][A-Za-z0-9]*)(?![A-Za-z0-9;])")


def _decoded_link(url: str) -> str:
    """The link as the most generous reader would take it: character references (named, decimal, hex,
    with or without ';') and percent-escapes decoded until nothing changes, every space and control
    or invisible character dropped, lower case."""
    for _ in range(10):
        named = _REF_NO_SEMICOLON.sub(lambda m: f"&{m[1]};" if f"{m[1]};" in html.entities.html5 else m[0], url)
        decoded = urllib.parse.unquote(html.unescape(named))
        if decoded == url:
            break
        url = decoded
    return "".join(ch for ch in url if ch.isprintable() and not ch.isspace()).lower()


def _link_scheme(url: str) -> str | None:
    """The scheme of a decoded link ('javascript'), or None for a path or an #anchor."""
    scheme, colon, _ = url.partition(":")
    return scheme if colon and not any(c in scheme for c in "/?#") else None


PARENT_KINDS = {"series": (), "game": ("series",), "scenario": ("game", "series"),
                "option": ("series", "game", "scenario")}


class Checker:
    def __init__(self, reused: Mapping[str, Unit] | None = None, capture: bool = False) -> None:
        self.diags: list[Diagnostic] = []
        # The files whose units a build takes up (units.py): their items are neither checked nor
        # lowered, only their marks on the layer (cards, themes, overrides taken) are made again.
        self.reused: Mapping[str, Unit] = reused or {}
        # With capture, what checking and lowering each other file makes, kept as its unit.
        self.units: dict[str, Unit] | None = {} if capture else None

    def unit(self, span: Span) -> Unit | None:
        """The unit being made for the file of span, if units are made."""
        if self.units is None:
            return None
        found = self.units.get(span.file)
        if found is None:
            found = self.units[span.file] = Unit()
        return found

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, code, message, hint=hint))

    def warning(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, code, message, severity="warning", hint=hint))

    # ---- pass 1: which layer each item belongs to ---------------------------------

    def assign(self, files: list[ast.File]) -> tuple[dict[str, LayerInfo], list[ast.Ruleset]]:
        layers: dict[str, LayerInfo] = {}
        pending: list[tuple[str, ast.Item, Span]] = []
        rulesets: list[ast.Ruleset] = []
        for f in files:
            current: str | None = None
            for item in f.items:
                if isinstance(item, ast.LayerDecl):
                    if item.name in layers:
                        first = layers[item.name].decl.span
                        self.error(item.span, "R104", f"layer '{item.name}' is declared twice (first at {first})",
                                   hint=f"to add to it from another file, write: in {item.name}")
                    else:
                        layers[item.name] = LayerInfo(item)
                    current = item.name
                elif isinstance(item, ast.InLayer):
                    current = item.name
                    pending.append((item.name, item, item.span))
                elif isinstance(item, ast.Ruleset):
                    rulesets.append(item)
                elif current is None:
                    self.error(_span_of(item), "R107", "this belongs to no layer",
                               hint="start the file with a series, game, scenario or option line, or 'in NAME'")
                else:
                    pending.append((current, item, _span_of(item)))
        for name, item, span in pending:
            if name not in layers:
                if isinstance(item, ast.InLayer):
                    self.error(span, "R107", f"unknown layer '{name}'", hint=did_you_mean(name, layers))
                continue
            if not isinstance(item, ast.InLayer):
                layers[name].items.append((item, None))
        return layers, rulesets

    def link(self, layers: dict[str, LayerInfo]) -> list[LayerInfo]:
        """Connect each layer to its parent; return them parents first."""
        # Circles first: every edge of one may be of a kind no layer can extend (a game
        # extending a game), and the circle is the mistake to report, once.
        in_circle: set[str] = set()
        for lay in sorted(layers.values(), key=lambda x: x.name):
            path: list[str] = []
            name: str | None = lay.name
            while name is not None and name in layers and name not in path:
                path.append(name)
                name = layers[name].decl.parent
            if name is not None and name in path:
                circle = path[path.index(name):]
                if not in_circle & set(circle):
                    names = " -> ".join(circle + [name])
                    self.error(layers[circle[0]].decl.span, "R108",
                               f"layers extend each other in a circle: {names}",
                               hint="a game extends a series, a scenario a game or a series, "
                                    "an option any of them")
                in_circle.update(circle)
        for lay in layers.values():
            d = lay.decl
            if d.parent is None or d.name in in_circle:
                continue
            parent = layers.get(d.parent)
            if parent is None:
                self.error(d.span, "R107", f"{d.name} extends unknown layer '{d.parent}'",
                           hint=did_you_mean(d.parent, layers))
            elif parent.decl.kind not in PARENT_KINDS[d.kind]:
                self.error(d.span, "R107", f"a {d.kind} cannot extend a {parent.decl.kind} ({d.parent})",
                           hint=f"a {d.kind} extends a {' or a '.join(PARENT_KINDS[d.kind])}")
            else:
                lay.parent = parent
                if d.parent_version is not None and d.parent_version != parent.decl.version:
                    found = "no version" if parent.decl.version is None else f"version {parent.decl.version!r}"
                    self.error(d.span, "R118", f"{d.name} is written for {d.parent} version {d.parent_version!r}, "
                               f"but the {d.parent} found is {found}",
                               hint=f"use the {d.parent} rules of version {d.parent_version!r}, or check "
                                    f"{d.name} against {found} and write that after 'extends {d.parent}'")
        ordered: list[LayerInfo] = []
        for lay in sorted(layers.values(), key=lambda x: x.name):
            chain = []
            node: LayerInfo | None = lay
            while node is not None and node not in chain:
                chain.append(node)
                node = node.parent
            if node is not None:  # the walk came back to a layer: a cycle
                names = " -> ".join(n.name for n in chain + [node])
                self.error(lay.decl.span, "R108", f"layers extend each other in a circle: {names}")
                lay.parent = None
        # Each layer after the layers it extends. Not by a recursive inner function: its closure
        # refers to itself, a cycle only the garbage collector frees, and it held every layer and
        # parse of the build until then (collector.lasting).
        placed: set[str] = set()
        for lay in sorted(layers.values(), key=lambda x: x.name):
            unplaced: list[LayerInfo] = []  # lay and the layers it extends not yet placed, lay first
            node = lay
            while node is not None and node.name not in placed and node not in unplaced:
                unplaced.append(node)
                node = node.parent
            for x in reversed(unplaced):
                placed.add(x.name)
                ordered.append(x)
        return ordered

    # ---- pass 2: declarations and rule numbers --------------------------------------------

    def declare(self, lay: LayerInfo) -> None:
        scope = ChainScope(self, lay)
        for item, _ in lay.items:
            if isinstance(item, ast.Rule):
                self._declare_rule(lay, scope, item)
                for decl in item.decls:
                    self._declare(lay, scope, decl, item.number)
            elif isinstance(item, ast.External):
                if item.number in scope.known_numbers():
                    self.error(item.span, "R103", f"rule number {item.number} is declared twice")
                decoded = _decoded_link(item.url)
                if not _SAFE_LINK.fullmatch(item.url) or _link_scheme(decoded) not in (None, *_SAFE_SCHEMES):
                    reads = f" (it reads as {decoded!r})" if decoded != item.url.lower() else ""
                    self.error(item.span, "R113", f"the link of {item.number} is not a web address or a relative "
                               f"path: {item.url!r}{reads}", hint="write https://... or a path such as "
                               "../3-0-units/#31-ground-units, without spaces, quotes, brackets, character "
                               "references or a scheme other than http:, https: or mailto:; the link goes onto "
                               "rule sheets and cards")
                lay.externals[item.number] = item
                for decl in item.decls:
                    self._declare(lay, scope, decl, item.number)
            elif isinstance(item, Decl):
                self._declare(lay, scope, item, None)

    def _declare_rule(self, lay: LayerInfo, scope: ChainScope, rule: ast.Rule) -> None:
        found = scope.clause(rule.number)
        if found is not None:
            where, first = found
            hint = (f"to change {where.name}'s clause write: override {rule.number} ..."
                    if where is not lay else None)
            self.error(rule.span, "R103", f"rule number {rule.number} is declared twice "
                       f"(first at {first.span})", hint=hint)
            return
        lay.clauses[rule.number] = rule

    def _declare(self, lay: LayerInfo, scope: ChainScope, decl: Decl, clause: str | None) -> None:
        found = scope.find_decl(decl.name)
        if found is not None:
            where, first, _ = found
            hint = (f"to change {where.name}'s '{decl.name}' use an override"
                    if where is not lay else "each name is declared once")
            self.error(decl.span, "R104", f"'{decl.name}' is already declared at {first.span}", hint=hint)
            return
        lay.decls[decl.name] = (decl, clause)
        if isinstance(decl, ast.EnumDecl):
            members = []
            for m in decl.members:
                if m.name in members:
                    self.error(m.span, "R104", f"{decl.name} lists '{m.name}' twice")
                members.append(m.name)
            lay.enums[decl.name] = EnumInfo(decl.name, tuple(members), {}, decl.ordered, decl.cyclic)

    def resolve_types(self, lay: LayerInfo) -> None:
        """Field and attribute types, once every type name is known."""
        scope = ChainScope(self, lay)
        for name, (decl, _) in lay.decls.items():
            if isinstance(decl, ast.EnumDecl):
                attrs = {a.name: self.resolve_type(a.type, scope) for a in decl.attrs}
                lay.enums[name] = EnumInfo(name, lay.enums[name].members, attrs, decl.ordered, decl.cyclic)
            elif isinstance(decl, ast.RecordDecl):
                fields: dict[str, tuple[Type, bool]] = {}
                for f in decl.fields:
                    if f.name in fields:
                        self.error(f.span, "R104", f"{name} has two fields named '{f.name}'")
                    fields[f.name] = (self.resolve_type(f.type, scope), f.default is not None)
                lay.records[name] = fields

    def resolve_type(self, t: ast.TypeRef, scope: ChainScope) -> Type:
        if t.kind in ("list", "set"):
            assert t.item is not None
            item = self.resolve_type(t.item, scope)
            return ListT(item) if t.kind == "list" else SetT(item)
        if t.kind != "named":
            return parse_type(t.kind)
        if scope.enum(t.name):
            return EnumT(t.name)
        found = scope.find_decl(t.name)
        if found is not None and isinstance(found[1], ast.RecordDecl):
            return RecordT(t.name)
        types = [n for lay in scope.layers for n, (d, _) in lay.decls.items()
                 if isinstance(d, (ast.EnumDecl, ast.RecordDecl))]
        other = _TYPE_WORDS.get(t.name.lower())
        self.error(t.span, "R101", f"unknown type '{t.name}'",
                   hint=(f"did you mean '{other}'?" if other else None)
                   or did_you_mean(t.name, types + ["bool", "int", "number", "text"])
                   or "the types are bool, int, number (exact: 1/2 stays 1/2), text, list of T, set of T, "
                      "and the records and lists the rules declare")
        return ANY


# Type names from other languages, and the rules language's own for each.
_TYPE_WORDS = {"string": "text", "str": "text", "float": "number", "double": "number", "decimal": "number",
               "fraction": "number", "real": "number", "integer": "int", "boolean": "bool"}


def _span_of(item: Any) -> Span:
    span = item.span
    assert isinstance(span, Span)
    return span


# ---- the whole program -------------------------------------------------------------------------


def check(files: list[ast.File], reused: Mapping[str, Unit] | None = None,
          capture: bool = False) -> tuple[CheckedProgram, list[Diagnostic]]:
    """Check every file together: every mistake is a diagnostic; the rest is for lower.lower.
    reused: the units a build takes up (units.py), each for a file given as its skeleton, whose
    items are not checked again (their diagnostics are the unit's). capture: keep what checking
    and lowering each other file makes as its unit (checker.units)."""
    checker = Checker(reused, capture)
    with m.building():
        layers, rulesets = checker.assign(files)
        ordered = checker.link(layers)
        for lay in ordered:
            checker.declare(lay)
        for lay in ordered:
            checker.resolve_types(lay)
        for lay in ordered:
            LayerCheck(checker, lay).run()
        for unit in checker.reused.values():
            checker.diags += unit.diags
        graph = _check_cycles(checker, ordered)
        _check_change_cycles(checker, ordered, graph)
        program = CheckedProgram(checker, ordered, _rulesets(checker, layers, rulesets))
        checker.diags += check_links(program)  # R116: anchors the sheets' pages do not have (links.py)
        return program, checker.diags


Graph = dict[str, tuple[set[str], Span]]  # name -> (the names it uses, where it is declared)


def _check_cycles(checker: Checker, layers: list[LayerInfo]) -> Graph:
    """Definitions, tables and consts may not depend on themselves: every check must end."""
    graph: dict[str, tuple[set[str], Span]] = {}
    for lay in layers:
        decls = [d for d, _ in declared(lay)]
        for kind in (ast.DefineDecl, ast.TableDecl, ast.ConstDecl):
            for d in decls:
                if not isinstance(d, kind):
                    continue
                graph[d.name] = (_decl_calls(checker, lay, d), d.span)
    reported: set[frozenset[str]] = set()
    for start in sorted(graph):
        path = _find_cycle(start, graph)
        if path and frozenset(path) not in reported:
            reported.add(frozenset(path))
            at = graph[start][1]
            span = Span(at.file, at.line, at.col, at.line, at.col + 1)
            checker.error(span, "R109", f"'{start}' depends on itself: {' -> '.join(path + [start])}",
                          hint="rules must not be defined in terms of themselves")
    return graph


def _decl_calls(checker: Checker, lay: LayerInfo, d: ast.DefineDecl | ast.TableDecl | ast.ConstDecl) -> set[str]:
    """The names a definition's body, a const's value or a table's rows call or read; of a file
    taken up, as its unit kept them."""
    taken = checker.reused.get(d.span.file)
    if taken is not None:
        return set(taken.calls[units.place(d.span)])
    roots: list[ast.Expr | None] = []
    if isinstance(d, ast.DefineDecl):
        roots += [d.requires, d.body]
    elif isinstance(d, ast.ConstDecl):
        roots.append(d.value)
    else:
        roots += [d.requires, *(x for r in d.rows for x in (r.when, r.value))]
    calls = _reads(lay, roots)
    unit = checker.unit(d.span)
    if unit is not None:
        unit.calls[units.place(d.span)] = frozenset(calls)
    return calls


def _reads(lay: LayerInfo, roots: list[ast.Expr | None]) -> set[str]:
    """The definitions, tables and consts the typed expressions call or read."""
    calls: set[str] = set()
    for root in roots:
        node = None if root is None else lay.checked.exprs.get(root)
        for n in m.walk(node) if node is not None else ():
            if isinstance(n, m.Call):
                calls.add(n.fn)
            elif isinstance(n, m.Const):
                calls.add(n.name)
    return calls


def _check_change_cycles(checker: Checker, layers: list[LayerInfo], graph: Graph) -> None:
    """An override or an `except` may not make what it changes depend on itself in the layers it is
    in force (`override 1 cap: cap + 1`; an exception row of t that calls t): each change's uses
    are added to what it changes, over the layer's own chain, and a way back is R109 at the change."""
    changes = {lay.name: _changes(checker, lay) for lay in layers}
    for lay in layers:
        chain = [x.name for x in lay.chain()]
        uses = {name: set(calls) for name, (calls, _) in graph.items()}
        for name in chain:
            for target, calls, _ in changes.get(name, ()):
                uses.setdefault(target, set()).update(calls)
        for target, calls, span in changes[lay.name]:
            path = _path_back(target, calls, uses)
            if path is not None:
                at = Span(span.file, span.line, span.col, span.line, span.col + 1)
                checker.error(at, "R109", f"'{target}' depends on itself through this change: "
                              f"{' -> '.join([target, *path])}",
                              hint="a change may not use what it changes; write the new value itself")


def _changes(checker: Checker, lay: LayerInfo) -> list[tuple[str, set[str], Span]]:
    """(what it changes, the names it uses, where) for each override and `except` of a layer; of a
    file taken up, as its unit kept them."""
    items: list[ast.Override | ast.ExceptTable | ast.ExceptLimit] = []
    for item, _ in lay.items:
        if isinstance(item, ast.Rule):
            items += [*item.overrides, *(x for x in item.excepts if isinstance(x, (ast.ExceptTable, ast.ExceptLimit)))]
        elif isinstance(item, (ast.Override, ast.ExceptTable, ast.ExceptLimit)):
            items.append(item)
    out = []
    for it in items:
        taken = checker.reused.get(it.span.file)
        if taken is not None:
            kept = taken.changes.get(units.place(it.span))
            if kept is not None:
                out.append((kept[0], set(kept[1]), it.span))
            continue
        exprs: list[ast.Expr | None]
        if isinstance(it, ast.Override):
            exprs = [x for c in it.changes for x in (c.expr, c.expr2)]
        elif isinstance(it, ast.ExceptTable):
            exprs = [x for r in it.rows for x in (r.when, r.value)]
        else:
            exprs = [it.cond]
        calls = _reads(lay, exprs)
        if it.target and calls:
            out.append((it.target[0], calls, it.span))
            unit = checker.unit(it.span)
            if unit is not None:
                unit.changes[units.place(it.span)] = (it.target[0], frozenset(calls))
    return out


def _path_back(target: str, calls: set[str], uses: dict[str, set[str]]) -> list[str] | None:
    """A way from the names a change uses back to what it changes: [first, ..., target], or None."""
    todo: list[tuple[str, list[str]]] = [(c, [c]) for c in sorted(calls)]
    seen: set[str] = set()
    while todo:
        name, path = todo.pop(0)
        if name == target:
            return path
        if name in seen:
            continue
        seen.add(name)
        todo += [(n, [*path, n]) for n in sorted(uses.get(name, ()))]
    return None


def _find_cycle(start: str, graph: dict[str, tuple[set[str], Span]]) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph[node][0] if node in graph else ()):
            if nxt == start:
                return path + [node] if path else [node]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [node]))
    return None


MAX_RULESET_NAME = 64  # characters of a ruleset's name, which names files of the output


def _hides_python(name: str) -> bool:
    """A ruleset's module, python/<name>.py, must not stand in for a standard module (a ruleset
    Fractions made a fractions.py that imported itself) nor be a keyword no import can name."""
    low = name.lower()
    return low in sys.stdlib_module_names or keyword.iskeyword(low) or keyword.issoftkeyword(low)


def _rulesets(checker: Checker, layers: dict[str, LayerInfo], decls: list[ast.Ruleset]) -> tuple[m.Ruleset, ...]:
    """Every series, game and scenario builds on its own; a ruleset adds options."""
    out = [m.Ruleset(n, lay.decl.title, n, (), None)
           for n, lay in sorted(layers.items()) if lay.decl.kind != "option"]
    taken = {r.name.lower() for r in out}
    for span, name in [(layers[r.name].decl.span, r.name) for r in out] + [(rs.span, rs.name) for rs in decls]:
        if _hides_python(name):
            checker.error(span, "R111", f"'{name}' would compile to python/{name.lower()}.py, which hides "
                          f"Python's own module or keyword '{name.lower()}'", hint="choose another name")
        elif len(name) > MAX_RULESET_NAME:
            checker.error(span, "R111", f"a ruleset name of {len(name)} characters, more than {MAX_RULESET_NAME}: "
                          "it names files of the output (python/<name>.py, schemas/<name>.state.schema.json), "
                          "and file systems refuse long file names", hint="choose a shorter name")
    for rs in decls:
        base = layers.get(rs.base)
        if base is None or base.decl.kind == "option":
            checker.error(rs.span, "R111", f"ruleset {rs.name} is built on '{rs.base}', "
                          "which is not a series, game or scenario",
                          hint=did_you_mean(rs.base, [n for n, x in layers.items() if x.decl.kind != "option"]))
            continue
        chain = [x.name for x in base.chain()]
        ok = True
        for opt, span in zip(rs.options, rs.option_spans, strict=False):
            lay = layers.get(opt)
            if lay is None or lay.decl.kind != "option":
                checker.error(span, "R111", f"'{opt}' is not an option",
                              hint=did_you_mean(opt, [n for n, x in layers.items() if x.decl.kind == "option"]))
                ok = False
            elif lay.decl.parent not in chain:
                checker.error(span, "R111", f"option {opt} extends {lay.decl.parent}, "
                              f"which is not part of {rs.base}")
                ok = False
            else:
                chain.insert(0, opt)
        if rs.name.lower() in taken:
            checker.error(rs.span, "R111", f"ruleset name '{rs.name}' is already used",
                          hint="names of series, games, scenarios and rulesets must differ (ignoring case)")
            ok = False
        if ok:
            taken.add(rs.name.lower())
            out.append(m.Ruleset(rs.name, rs.title, rs.base, tuple(rs.options), origin(rs.base, None, rs.span)))
    return tuple(out)
