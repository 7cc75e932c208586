"""Each rules file's checked and lowered items, kept for the next build (#20 item 2).

What checking and lowering one file makes depends on the file itself and on what the other files
declare: their layers, rule numbers and titles, names and signatures, lists and records, the rows
and limits an override can name, the cards and themes of a layer, the bodies a type is inferred
from. That is a file's *skeleton* (`skeleton`): its syntax tree without what the checking of no
other file reads, namely the texts and notes of its clauses, its worked examples, the bodies of
definitions that declare their type, what definitions and tables require, and the conditions and
values of table rows, limits and exceptions. A file's `Unit` (its lowered items, the diagnostics
checking its items found, and what the checks across files need of it: the names each body calls,
the overrides it made) is kept under
a hash of its text and of every file's skeleton (`program_key`). A later build takes a unit up in
place of reading, checking and lowering the file when neither changed, reading only the skeletons
of those files; the checks across files (declarations, circles, links) are made afresh each build.

So an edit that changes no skeleton (a clause's wording, a table's values, a worked example) has
the edited file read, checked and lowered again, and the others taken up as they were; an edit
that does (a new name, a changed signature) has every file checked again, as before.
tests/test_units.py checks that every shipped file checked against the others' skeletons gives what
it gives against their whole trees, and tests/fuzz_cache.py that builds taking units up write what
a build from nothing writes.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import operator
import pickle
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import ast
from . import model as m
from . import types as types_module
from .diagnostics import Diagnostic, Span

Place = tuple[int, int, int, int]  # an item's span in its file: line, col, end line, end col


def place(span: Span) -> Place:
    return (span.line, span.col, span.end_line, span.end_col)


@dataclass
class Unit:
    """What checking and lowering one file made, for a later build to take up."""

    diags: list[Diagnostic] = field(default_factory=list)  # what checking its items found
    items: dict[Place, list[tuple[str, Any]]] = field(default_factory=dict)  # each item's lowered parts, in order
    decls: dict[Place, tuple[str, Any]] = field(default_factory=dict)  # each declaration's lowered form
    changed: dict[Place, tuple[str, ...]] = field(default_factory=dict)  # each override taken: what it changes
    calls: dict[Place, frozenset[str]] = field(default_factory=dict)  # each definition's, table's, const's reads
    changes: dict[Place, tuple[str, frozenset[str]]] = field(default_factory=dict)  # each change: target, reads
    # Each lowered item's line of the IR and hash for the module's key, as the build that made the unit
    # worked them out (a later build taking the unit up need not: build.take_known)
    known: list[tuple[Any, str | None, bytes | None]] = field(default_factory=list)

    def lowered(self) -> list[Any]:
        """Every lowered item of the file, in the order kept."""
        return [x for parts in self.items.values() for kind, x in parts if kind != "theme"] + \
            [x for _, x in self.decls.values()]


# ---- skeletons ---------------------------------------------------------------------------------


def skeleton(f: ast.File) -> ast.File:
    """The file as another file's checking sees it (the module's docstring says what is left out)."""
    return dataclasses.replace(f, items=tuple(_item(x) for x in f.items))


def _item(item: Any) -> Any:
    if isinstance(item, ast.Rule):
        return dataclasses.replace(item, texts=(), notes=(), examples=(), decls=tuple(_decl(d) for d in item.decls),
                                   excepts=tuple(_except(x) for x in item.excepts))
    if isinstance(item, ast.External):
        return dataclasses.replace(item, decls=tuple(_decl(d) for d in item.decls))
    if isinstance(item, (ast.ExceptTable, ast.ExceptLimit)):
        return _except(item)
    if isinstance(item, ast.Decl):
        return _decl(item)
    return item


def _decl(d: Any) -> Any:
    if isinstance(d, ast.DefineDecl):  # an undeclared type is inferred from its body
        return dataclasses.replace(d, body=d.body if d.returns is None else _gone(d.body),
                                   requires=None if d.requires is None else _gone(d.requires))
    if isinstance(d, ast.TableDecl):
        return dataclasses.replace(d, rows=_rows(d.rows), requires=None if d.requires is None else _gone(d.requires))
    if isinstance(d, ast.LimitsDecl):
        return dataclasses.replace(d, unless=tuple(dataclasses.replace(u, cond=_gone(u.cond)) for u in d.unless),
                                   limits=tuple(dataclasses.replace(x, measure=_gone(x.measure), bound=_gone(x.bound))
                                                for x in d.limits))
    return d


def _except(x: ast.ExceptTable | ast.ExceptLimit) -> ast.ExceptTable | ast.ExceptLimit:
    if isinstance(x, ast.ExceptTable):
        return dataclasses.replace(x, rows=_rows(x.rows))
    return dataclasses.replace(x, cond=_gone(x.cond))


def _rows(rows: tuple[ast.Row, ...]) -> tuple[ast.Row, ...]:
    return tuple(dataclasses.replace(r, when=None if r.when is None else _gone(r.when), value=_gone(r.value))
                 for r in rows)


def _gone(e: ast.Expr) -> ast.Expr:
    """What stands for an expression left out: no other file's checking reads it."""
    return ast.Bool(e.span, True)


def interface(skel: ast.File) -> bytes:
    """A hash of a skeleton: its value, however its objects are shared (pickle without its memo),
    without the places of its items, which no other file's checking reads (a line put in moves
    every item below it), but for the first places of a layer's cards, theme and overrides, which
    another file's diagnostic may name ("first at ...")."""
    out = io.BytesIO()
    writer = pickle.Pickler(out, protocol=5)
    writer.fast = True
    writer.dispatch_table = _PLACELESS
    writer.dump(skel)
    for item in skel.items:
        marks = (item,) if isinstance(item, (ast.Card, ast.ThemeDecl, ast.Override)) else \
            item.overrides if isinstance(item, ast.Rule) else ()
        for x in marks:
            out.write(f"\n{type(x).__name__} {x.span.line}:{x.span.col}".encode())
    return hashlib.sha256(out.getbuffer()).digest()


_NOWHERE = (Span, ("", 0, 0, 0, 0))
_PLACELESS: dict[type, Any] = {Span: lambda span: _NOWHERE}  # every place written as the same


def program_key(interfaces: dict[str, bytes]) -> str:
    """A hash of every file's name and skeleton, which each unit is kept under as well as its text."""
    h = hashlib.sha256(b"rulec units 1\n")
    for name in sorted(interfaces):
        data = name.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(4, "big") + data + interfaces[name])
    return h.hexdigest()


# ---- keeping them --------------------------------------------------------------------------------


class Units:
    """Each file's skeleton (under its text) and unit (under its text and the program's key): in
    folder/units/, sealed as every file of the cache is, or in memory (folder None: --watch). (It
    reads and writes through cache.py's functions, imported where used: cache.py imports this.)"""

    def __init__(self, folder: Path | None):
        self.folder = None if folder is None else folder / "units"
        self.kept: dict[str, Any] = {}  # in memory: entry name -> what it holds
        self.used: set[str] = set()

    def skeleton(self, name: str, text: str) -> tuple[bytes, ast.File] | None:
        found = self._get(_key("skeleton", name, text))
        ok = (isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], bytes)
              and isinstance(found[1], ast.File) and found[1].path == name)
        return found if ok else None

    def keep_skeleton(self, name: str, text: str, tree: ast.File) -> tuple[bytes, ast.File]:
        skel = skeleton(tree)
        found = (interface(skel), skel)
        self._put(_key("skeleton", name, text), found)
        return found

    def unit(self, name: str, text: str, program: str) -> Unit | None:
        found = self._get(_key("unit", name, text, program))
        return found if isinstance(found, Unit) else None

    def keep_unit(self, name: str, text: str, program: str, unit: Unit) -> None:
        self._put(_key("unit", name, text, program), unit)

    def _get(self, key: str) -> Any:
        self.used.add(key)
        if self.folder is None:
            return self.kept.get(key)
        from .cache import _loaded
        from .manifest import read_sealed

        data = read_sealed(self.folder / f"{key}.pickle")
        return None if data is None else _loaded(data, _UnitUnpickler)

    def _put(self, key: str, value: Any) -> None:
        self.used.add(key)
        if self.folder is None:
            self.kept[key] = value
            return
        from .manifest import keep_sealed

        out = io.BytesIO()
        writer = pickle.Pickler(out, protocol=5)
        writer.dispatch_table = _REDUCERS
        try:
            writer.dump(value)
        except Exception:  # too deep for the pickler: only not kept
            return
        keep_sealed(self.folder / f"{key}.pickle", out.getvalue())

    def finish(self) -> None:
        """Keep only the entries this build used or made."""
        if self.folder is None:
            self.kept = {k: v for k, v in self.kept.items() if k in self.used}
        else:
            from .manifest import prune_folder

            prune_folder(self.folder, self.used)
        self.used = set()


def _key(kind: str, *parts: str) -> str:
    from .cache import entry_key

    return entry_key(f"unit {kind}", *parts)


def _restorer(cls: type, names: tuple[str, ...]) -> Any:
    """The function that makes an object of the typed model from its fields' values, given in the
    order of dataclasses.fields, one argument each: `_restore_model_Row(label, title, when, value, ...)`,
    each field set in a line of its own. Pickle's own way for a frozen dataclass with slots calls
    dataclasses.fields for each object (a 10,000-clause tree's lowered items took 0.44 s to load and
    1.08 s to write that way); one function for all, looping over the names, took half again as
    long as these (the 422 skeletons and units of a 10,000-clause tree: 0.29 s against 0.20 s)."""
    name = f"_restore_{cls.__module__.rsplit('.', 1)[-1]}_{cls.__name__}"
    args = [f"a{i}" for i in range(len(names))]
    lines = [f"def {name}({', '.join(args)}):", "    made = _new(cls)"]
    lines += [f"    _set(made, {n!r}, {a})" for n, a in zip(names, args, strict=True)]
    lines += ["    return made"]
    scope: dict[str, Any] = {"cls": cls, "_new": object.__new__, "_set": object.__setattr__}
    exec("\n".join(lines), scope)  # noqa: S102 (the text is made here from a dataclass's field names)
    made = scope[name]
    made.__module__, made.__qualname__ = __name__, name  # where pickle finds it again
    return made


def _reduced(restore: Any, get: Any, many: bool, value: Any) -> tuple[Any, tuple[Any, ...]]:
    return restore, get(value) if many else (get(value),)


class _UnitUnpickler(pickle.Unpickler):
    """Loads skeletons and units, nothing else: only the classes of syntax trees, of the typed
    model and its types, diagnostics and numbers may be named (an entry is a file on disk)."""

    def find_class(self, module: str, name: str) -> Any:
        found = _UNIT_CLASSES.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"not part of a unit: {module}.{name}")
        return found


def dataclasses_of(module: Any) -> dict[tuple[str, str], Any]:
    """The dataclasses a module defines, by (module, name): what a restricted unpickler may name."""
    return {(module.__name__, n): c for n, c in vars(module).items()
            if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == module.__name__}


# The typed model's classes (frozen, with slots) are written as a restorer of each and their fields' values.
_FIELDS: dict[type, tuple[str, ...]] = {
    c: tuple(f.name for f in dataclasses.fields(c))
    for c in [*dataclasses_of(m).values(), *dataclasses_of(types_module).values()]}
_RESTORERS: dict[type, Any] = {c: _restorer(c, names) for c, names in _FIELDS.items() if names}
globals().update({f.__name__: f for f in _RESTORERS.values()})  # pickle writes each by its module's name
_REDUCERS: dict[type, Any] = {
    c: functools.partial(_reduced, _RESTORERS[c], operator.attrgetter(*_FIELDS[c]), len(_FIELDS[c]) > 1)
    for c in _RESTORERS}
_UNIT_CLASSES: dict[tuple[str, str], Any] = {
    **dataclasses_of(ast), **dataclasses_of(m), **dataclasses_of(types_module),
    (Span.__module__, "Span"): Span,
    (Diagnostic.__module__, "Diagnostic"): Diagnostic,
    ("fractions", "Fraction"): Fraction,
    (__name__, "Unit"): Unit,
    **{(__name__, f.__name__): f for f in _RESTORERS.values()},
}
