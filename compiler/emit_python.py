"""Emit one standalone, typed Python module of check functions per resolved ruleset."""

from __future__ import annotations

import ast
import functools
import hashlib
import itertools
import keyword
import re
import textwrap
import weakref
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import __version__
from . import model as m
from .interp import Cite as ICite
from .interp import EvalError, Interpreter, item_exprs, item_titles, override_note, requires_message
from .model import Resolved
from .pyexpr import (
    Consts,
    ExprCompiler,
    Namer,
    Parts,
    holds_number,
    is_constant,
    literal,
    local_name,
    mapped,
    module_scale,
    py_name,
    type_of,
)
from .runtime_src import RUNTIME
from .state_schema import expr_text, invariant_parts, state_schema
from .types import BOOL, NUMBER, BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type
from .wrap import data_literal, joined, lines_of, wrap_module, wrapped

MAX_PRECOMPUTED = 4096

Item = m.Define | m.Table | m.Limits  # what the module makes a check of


def module_name(model: Resolved) -> str:
    return model.manifest.ruleset.lower()


def emit_python(model: Resolved, verify: bool = True, whole: bool = False) -> dict[str, str]:
    """The module of one ruleset. verify: compile it first, so a module that does not compile
    is never written (a check on rulec itself: `rulec build --check`, CI and the tests make it; a
    plain `rulec build` skips it, as it is a quarter of the emitter's time). whole: keep the private
    helpers nothing in the module reads, which a question compiled against it (`rulec eval --module`) may."""
    source = ModuleEmitter(model).run(prune=not whole)
    if verify:
        compile(source, f"{module_name(model)}.py", "exec")
    return {f"python/{module_name(model)}.py": source}


LIMITS_LOCALS = frozenset({"out", "total", "bound"})  # the locals of a limits function's own code


@dataclass
class Writer:
    """All output goes through here, so indentation lives in one place."""

    lines: list[str] = field(default_factory=list)
    depth: int = 0

    def line(self, text: str = "") -> None:
        self.lines.append(("    " * self.depth + text) if text else "")

    def block(self, text: str) -> None:
        for ln in text.splitlines():
            self.line(ln)

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        self.depth -= 1


def block_doc(text: str, indent: str) -> str:
    """A docstring of several lines, each indented as the body it heads; repr() where quotes or
    backslashes or unprintable characters would need escapes."""
    lines = text.split("\n")
    if all(line.isprintable() and '"' not in line and "\\" not in line for line in lines):
        body = ("\n" + indent).join(lines).replace(indent + "\n", "\n")
        return f'"""{body}\n{indent}"""' if len(lines) > 1 else f'"""{body}"""'
    return repr(text)


def doc(text: str) -> str:
    """A docstring literal that holds any text verbatim: triple quotes where that is plainly
    safe, else repr(), which escapes quotes, backslashes and newlines."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"""{text}"""'
    return repr(text)


class _Unparser(ast._Unparser):  # type: ignore[name-defined,misc]
    """ast.unparse, but a generator that is a call's only argument is written f(x for x in y), as Python
    allows and ruff asks (UP034), not f((x for x in y))."""

    def visit_Call(self, node: ast.Call) -> None:
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp):
            self.set_precedence(ast._Precedence.ATOM, node.func)  # type: ignore[attr-defined]
            self.traverse(node.func)
            with self.delimit("(", ")"):
                self.traverse(node.args[0].elt)
                for gen in node.args[0].generators:
                    self.traverse(gen)
            return
        super().visit_Call(node)


@functools.lru_cache(maxsize=65_536)
def tidy(code: str) -> str:
    """An expression with only the parentheses Python needs (the same code, re-printed by ast).
    Kept for the next call: a game's module repeats most of its series' expressions."""
    result: str = _Unparser().visit(ast.parse(code, mode="eval"))
    return result


def forget() -> None:
    """Let go of what the emitter keeps from one module to the next (tidy's expressions, 19 MB
    after a 10,000-clause series and its game, and the long lines wrap.wrapped broke): once a
    build's modules are made."""
    tidy.cache_clear()
    wrapped.cache_clear()


class ModuleEmitter:
    row_names: dict[str, str] = {}  # while a table is written: its parameters (rule name -> Python name)
    row_totals: dict[str, int] = {}  # and how often its rows read each field
    row_counts: dict[int, dict[str, int]] = {}  # and each row's reads, by the row's id

    def __init__(self, model: Resolved):
        self.model = model
        self.converted: dict[str, str] = {}  # while a table's exact rows are written: parameter -> its local
        self.m = model.manifest
        self.scale = module_scale(model)
        self.namer = Namer()
        self.consts = Consts(self.namer)
        self.out = Writer()
        # an external clause's title too: what it states is cited by its number
        self.clause_titles = {**{e.number: e.title for e in model.externals},
                              **{c.number: c.title for c in model.clauses}}
        self.clause_layers = {c.number: c.origin.layer for c in model.clauses}
        self.cite_names: dict[tuple[Any, ...], str] = {}
        self.enum_names = {e.name: self.namer.claim(py_name(e.name)) for e in model.enums}
        self.record_names = {r.name: self.namer.claim(py_name(r.name)) for r in model.records}
        self.consts.annotate = lambda t: type_of(t, self.enum_names, self.record_names)
        self.public: dict[str, str] = {}
        self.internal: dict[str, str] = {}
        self.traced: dict[str, str] = {}
        items: list[Item] = [*model.defines, *model.tables, *model.limits]
        for d in items:
            name = d.name
            self.public[name] = self.namer.claim(py_name(name))
            self.internal[name] = self.namer.claim(f"_s_{name}") if self.needs_wrapper(d) else self.public[name]
            self.traced[name] = self.namer.claim(f"_t_{name}")
        self.const_public = {c.name: self.namer.claim(py_name(c.name)) for c in model.consts}
        self.const_scaled = {c.name: (self.namer.claim(f"_s_{c.name}") if holds_number(c.t)
                                         and self.scale != 1 else self.const_public[c.name])
                             for c in model.consts}
        self.attr_tables: dict[tuple[str, str], str] = {}
        self.attr_scaled: dict[tuple[str, str], str] = {}
        self.attr_cites: dict[tuple[str, str], str] = {}
        self.enum_order: dict[str, str] = {}
        for e in model.enums:
            for a in e.attrs:
                key = (e.name, a.name)
                self.attr_tables[key] = self.namer.claim(f"{self.enum_names[e.name]}_{a.name}")
                self.attr_scaled[key] = (self.namer.claim(f"_s_{e.name}_{a.name}")
                                         if isinstance(a.t, NumberT) and self.scale != 1 else self.attr_tables[key])
                self.attr_cites[key] = self.namer.claim(f"_CITES_{e.name}_{a.name}")
            if e.ordered or e.cyclic:
                self.enum_order[e.name] = self.namer.claim(f"_ORDER_{e.name}")
        self.const_cites = {c.name: self.cite_tuple(self.const_trace(c)) for c in model.consts}
        self.ec = ExprCompiler(
            model=model, scale=self.scale, consts=self.consts, names=self.internal, traced_names=self.traced,
            attr_tables=self.attr_scaled, attr_cites=self.attr_cites, const_names=self.const_scaled,
            const_cites=self.const_cites, ref_cites=self.ref_cites, enum_order=self.enum_order,
            enum_values={e.name: f"{self.enum_names[e.name]}_values" for e in model.enums},
            records=self.record_names)

    # ---- naming and cites ----------------------------------------------------------------

    def const_trace(self, c: m.ConstDef) -> list[str]:
        """The rules a const's value rests on, as the reference interpreter cites them: the const
        (and the layers that override it), then what its value reads (other consts, list settings)."""
        interp = Interpreter(self.model)
        try:
            interp._const(c.name)
        except (EvalError, ArithmeticError, RecursionError, TypeError, KeyError, ValueError):
            return [self.cite(c.origin)] + self.override_cites(c)
        return [self.icite_name(x) for x in interp.trace]

    def needs_wrapper(self, d: Item) -> bool:
        """Numbers cross a public boundary unscaled; only then is a wrapper needed."""
        if self.scale == 1:
            return False
        types = [p.t for p in d.params] + ([] if isinstance(d, m.Limits) else [d.returns])
        return any(holds_number(t) for t in types)

    def cite(self, origin: m.Origin, item: str | None = None, note: str | None = None,
             title: str | None = None) -> str:
        """A cite of a clause (item None) or of an item with its own title as the ruleset has it."""
        return self.cite_at(origin.layer, origin.clause, item, note, title)

    def cite_at(self, layer: str, clause: str | None, item: str | None = None, note: str | None = None,
                title: str | None = None) -> str:
        if item is None:
            title = None if clause is None else self.clause_titles.get(clause)
        key = (layer, clause, item, note, title)
        if key not in self.cite_names:
            code = (f"Cite(layer={layer!r}, clause={clause!r}, item={item!r}, "
                    f"title={title!r}, note={note!r})")
            # named for what it cites: _CITE_OCS_4_5a_F (an override's by its layer: _CITE_DAK_4_5a_F)
            stem = re.sub(r"\W+", "_", "_".join(x for x in (layer, clause, item) if x)).strip("_")
            self.cite_names[key] = self.consts.add("CITE", code, "Cite", stem or None)
        return self.cite_names[key]

    def title_of(self, clause: str | None, item: str | None) -> str | None:
        """The title of a clause, or of an item a `see` names in it (a list value, a table row, a limit)."""
        if item is not None:
            return item_titles(self.model).get((clause, item))
        title = None if clause is None else self.clause_titles.get(clause)
        return None if title is None else str(title)

    def cite_tuple(self, names: list[str]) -> str:
        """The cites of one step of a check, as one constant named for them: _RULES_OCS_4_5a__OCS_4_5a_F."""
        code = "(" + "".join(f"{n}, " for n in names).rstrip(" ") + ")"
        stem = "__".join(n.removeprefix("_CITE_") for n in names) or "none"
        if len(stem) > 48:
            digest = hashlib.sha1(code.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            stem = f"{names[0].removeprefix('_CITE_')}_and_{len(names) - 1}_{digest}"
        return self.consts.add("RULES", code, "tuple[Cite, ...]", stem)

    def ref_cites(self, refs: tuple[m.Ref, ...]) -> str:
        names = []
        for r in refs:
            layer = self.clause_layers.get(r.number, self.m.layers[0])
            names.append(self.cite_at(layer, r.number, r.item, None, self.title_of(r.number, r.item)))
        return self.cite_tuple(names)

    def override_cites(self, owner: m.Define | m.Table | m.ConstDef | m.Row | m.EnumMember | m.Limit,
                       item: str | None = None, attr: str | None = None, title: str | None = None) -> list[str]:
        """The layers' overrides of an item still in force, each with its note ("" for none), as the
        interpreter cites them (m.cited_overrides)."""
        return [self.cite(ov.origin, item, override_note(ov), title)
                for ov in m.cited_overrides(owner.overridden_by, attr)]

    def icite_name(self, c: ICite) -> str:
        """The module constant for a cite the interpreter recorded."""
        return self.cite_at(c.layer, c.clause, c.item, c.note, c.title)

    # ---- the module --------------------------------------------------------------------

    def run(self, prune: bool = True) -> str:
        body = Writer()
        self.out = body
        self.emit_enums()
        self.emit_records()
        self.emit_functions()
        self.emit_consts()
        self.emit_validation()
        head = Writer()
        self.emit_header(head)
        lines = head.lines + [""] + self.consts.lines + ["", ""] + body.lines
        # A large rulebook's module is tens of MB: each step's text is let go once the next is made
        # (the lines, joined a thousand at a time as they are let go, then each version of the
        # text), so that no more than two are held at once.
        head.lines = body.lines = []
        text = _trimmed(lines) + "\n"
        if prune:
            text = _without_unused(text)
        text = _used_imports(text)
        text = _with_exports(text)
        return wrap_module(text)

    def emit_header(self, w: Writer) -> None:
        mf = self.m
        files = sorted({x.origin.file for x in self.model.clauses} | {x.origin.file for x in self.model.enums}
                       | {x.origin.file for x in self.model.records})
        w.line('"""' + _docline(f"{mf.title}: rule checks compiled by rulec {__version__}.") )
        w.line()
        w.line(_docline(self.manifest_words()))
        w.line()
        w.block(textwrap.fill("Generated from " + _docline(", ".join(files)) + " by `rulec build`; do not edit.",
                              100, break_long_words=False, break_on_hyphens=False))
        w.line("Standalone: it needs only the Python standard library, so it can be copied into any program.")
        w.line("Every check has an explain_ twin whose Answer cites the rules that decided it.")
        w.line('"""')
        w.line()
        w.block(RUNTIME.replace("__SCALE__", str(self.scale)))
        w.line()
        w.line(f"RULESET: Final = {mf.ruleset!r}")
        w.line("# which rules this module runs: a hash of the rules as resolved (not of where they are written)")
        w.line(f"RULESET_HASH: Final = {ruleset_hash(self.model)!r}")
        w.line(f"RULEC_VERSION: Final = {__version__!r}")
        w.line(f"TITLE: Final = {mf.title!r}")
        w.line(f"SERIES: Final[str | None] = {mf.series and mf.series.name!r}")
        w.line(f"SERIES_VERSION: Final[str | None] = {mf.series and mf.series.version!r}")
        w.line(f"GAME: Final[str | None] = {mf.game and mf.game.name!r}")
        w.line(f"GAME_VERSION: Final[str | None] = {mf.game and mf.game.version!r}")
        w.line(f"SCENARIO: Final[str | None] = {mf.scenario and mf.scenario.name!r}")
        w.line(f"OPTIONS: Final[tuple[str, ...]] = {tuple(o.name for o in mf.options)!r}")
        w.line(f"LAYERS: Final[tuple[str, ...]] = {tuple(mf.layers)!r}")
        w.block("MANIFEST: Final[dict[str, Any]] = " + data_literal(_manifest(mf), lead=35))

    def manifest_words(self) -> str:
        mf = self.m
        parts = []
        for kind, x in (("series", mf.series), ("game", mf.game), ("scenario", mf.scenario)):
            if x:
                v = f" version {x.version}" if x.version else ""
                parts.append(f"{kind} {x.name} ({x.title}){v}")
        opts = ", ".join(o.name for o in mf.options) or "none"
        return "; ".join(parts) + f"; options: {opts}."

    # ---- lists of values and records ------------------------------------------------------

    def emit_enums(self) -> None:
        w = self.out
        w.line("# ---- lists of values " + "-" * 60)
        for e in self.model.enums:
            name = self.enum_names[e.name]
            o = e.origin
            w.line()
            w.line(f"# {o.file}:{o.line}  {o.clause or o.layer}  {_comment(e.title or e.name)}")
            values = [mem.name for mem in e.members]
            w.line(f"{name} = Literal[{', '.join(repr(v) for v in values)}]")
            w.line(f"{name}_values: Final[tuple[{name}, ...]] = ({''.join(repr(v) + ', ' for v in values).rstrip()})")
            w.line(f"_{name}_set: Final[frozenset[str]] = frozenset({name}_values)")
            titles = {mem.name: mem.title or mem.name for mem in e.members}
            w.line(f"{name}_titles: Final[dict[{name}, str]] = {{")
            for v in values:
                w.line(f"    {v!r}: {titles[v]!r},")
            w.line("}")
            if e.ordered or e.cyclic:
                w.line(f"{self.enum_order[e.name]}: Final[dict[{name}, int]] = {{"
                       + ", ".join(f"{v!r}: {i}" for i, v in enumerate(values)) + "}")
            for a in e.attrs:
                self.emit_attr(e, a, name)

    def emit_attr(self, e: m.EnumDef, a: m.EnumAttr, name: str) -> None:
        w = self.out
        key = (e.name, a.name)
        t = type_of(a.t, self.enum_names, self.record_names)
        w.line(f"{self.attr_tables[key]}: Final[dict[{name}, {t}]] = {{")
        for mem in e.members:
            value = dict(mem.attrs)[a.name].value
            w.line(f"    {mem.name!r}: {self.exact_literal(value, a.t)},{_overridden(mem, a.name)}")
        w.line("}")
        if self.attr_scaled[key] != self.attr_tables[key]:
            w.line(f"{self.attr_scaled[key]}: Final[dict[{name}, Number]] = {{")
            for mem in e.members:
                value = dict(mem.attrs)[a.name].value
                w.line(f"    {mem.name!r}: {literal(value, a.t, self.scale, self.consts)},")
            w.line("}")
        cites = {}
        for mem in e.members:
            names = [self.cite(mem.origin, mem.name, None, mem.title or None)]
            names += self.override_cites(mem, mem.name, a.name, mem.title or None)
            cites[mem.name] = self.cite_tuple(names)
        w.line(f"{self.attr_cites[key]}: Final[dict[{name}, tuple[Cite, ...]]] = {{")
        for k, v in cites.items():
            w.line(f"    {k!r}: {v},")
        w.line("}")

    def exact_literal(self, value: Any, t: Type) -> str:
        if isinstance(t, NumberT) and value is not None:
            v = Fraction(value)
            return repr(int(v)) if v.denominator == 1 else f"Fraction({v.numerator}, {v.denominator})"
        if isinstance(t, ListT) and value is not None:
            return "(" + "".join(self.exact_literal(v, t.item) + ", " for v in value).rstrip() + ")"
        return literal(value, t, 1, self.consts)

    def emit_records(self) -> None:
        w = self.out
        w.line()
        w.line()
        w.line("# ---- game state " + "-" * 64)
        for r in self.model.records:
            o = r.origin
            w.line()
            w.line()
            w.line(f"# {o.file}:{o.line}  {o.clause or o.layer}")
            w.line("@dataclass(frozen=True, slots=True)")
            w.line(f"class {self.record_names[r.name]}:")
            w.indent()
            fields = sorted(r.fields, key=lambda f: f.required, reverse=True)
            w.line(block_doc(self.record_doc(r, fields), "    "))
            w.line()
            for f in fields:
                t = type_of(f.t, self.enum_names, self.record_names)
                default = "" if f.required else f" = {self.exact_literal(f.default, f.t)}"
                w.line(f"{py_name(f.name)}: {t}{default}")
            # Every field's value is checked where the record is made, naming the field (InvalidInput):
            # a float, a text or a list where the checks read an exact number, a bool or a tuple gave a
            # wrong answer or an AttributeError deep in a check. Inline tests, not a helper called per
            # field: a frozenset lookup for a list's values (not enum.StrEnum, which cost 665 ns to make
            # and 4 to 14 ns on every read), `type(x) is` for the rest (timeit, CPython 3.11, this
            # machine: a record of 27 fields made in 2.1 µs against 1.85 µs with its 6 values alone
            # checked).
            if fields:
                w.line()
                w.line("def __post_init__(self) -> None:")
                w.indent()
                for f in fields:
                    where = repr(f"{self.record_names[r.name]}.{py_name(f.name)}")
                    self.field_check(f"self.{py_name(f.name)}", f.t, where, f"_{py_name(f.name)}")
                w.dedent()
            w.dedent()

    def field_check(self, value: str, t: Type, where: str, loop: str) -> None:
        """The lines that refuse a value of the wrong kind for a field of type t (and each of its items,
        in a loop whose variable, loop + "_item", is the field's own: mypy types each)."""
        w = self.out
        if isinstance(t, EnumT):
            enum = self.enum_names[t.name]
            w.line(f"if {value} not in _{enum}_set:")
            w.line(f'    raise InvalidInput({where}, f"{{_shown({value})}} is not one of the values", {enum}_values)')
            return
        wrong, kind = _wrong_kind(value, t, self.record_names)
        w.line(f"if {wrong}:")
        w.line(f"    raise InvalidInput({where}, _not_a({value}, {kind!r}))")
        if isinstance(t, (ListT, SetT)):
            item = f"{loop}_item"
            w.line(f"for {item} in {value}:")
            w.indent()
            self.field_check(item, t.item, where, item)
            w.dedent()

    def record_doc(self, r: m.RecordDef, fields: list[m.RecordField]) -> str:
        """A record's docstring: its title, then each field with its description (what help() shows)."""
        lines = [r.title or r.name, "", "Fields:"]
        for f in fields:
            words = _comment(f.title) or "(no description)"
            enum = _enum_of(f.t)
            if enum is not None:
                words += f" (one of: {', '.join(self.ec.enum_members(enum))})"
            lines.append(textwrap.fill(f"{py_name(f.name)}: {words}", 100, initial_indent="    ",
                                       subsequent_indent="        ", break_long_words=False, break_on_hyphens=False))
        return "\n".join(lines)

    # ---- functions ----------------------------------------------------------------------

    def header_comment(self, d: Item) -> None:
        o = d.origin
        clause = o.clause
        title = self.clause_titles.get(clause) if clause else None
        words = f"  {_comment(title)}" if title else ""
        self.out.line(f"# {o.file}:{o.line}  {clause or o.layer}{words}")

    def params(self, d: Item, public: bool) -> list[tuple[str, str, str]]:
        """(rule name, Python name, annotation) per parameter."""
        out = []
        taken = self.namer.taken  # every module name: read, never copied (a large rulebook has thousands)
        own = LIMITS_LOCALS if isinstance(d, m.Limits) else frozenset()
        for p in d.params:
            pname = local_name(p.name)
            while pname in taken or pname in own:
                pname += "_"
            out.append((p.name, pname, type_of(p.t, self.enum_names, self.record_names, public)))
        return out

    def emit_functions(self) -> None:
        w = self.out
        w.line()
        w.line()
        w.line("# ---- checks " + "-" * 68)
        for d in self.model.defines:
            self.emit_define(d)
        for t in self.model.tables:
            self.emit_table(t)
        for g in self.model.limits:
            self.emit_limits(g)

    def describe(self, d: Item) -> str:
        clause = d.origin.clause or d.origin.layer
        title = d.title or d.name.replace("_", " ")
        return f"{title} ({clause})."

    def emit_define(self, d: m.Define) -> None:
        entry = [self.cite(d.origin)] + self.override_cites(d)
        entry_cites = self.cite_tuple(entry)

        def body(traced: bool) -> None:
            self.emit_requires(d, traced)
            if traced:
                self.out.line(f"_t.extend({entry_cites})")
            node = d.body
            self.ec.local = {name: py for name, py, _ in self.params(d, False)}
            while isinstance(node, m.Let):  # leading lets become typed local variables
                value = node.value
                local = local_name(node.name)
                while local in self.namer.taken or local in self.ec.local.values():
                    local += "_"
                number = isinstance(value.t, NumberT)
                ann = "Number" if number else type_of(value.t, self.enum_names, self.record_names)
                self.ec.rewrote = False
                code = tidy(self.ec.typed(value, NUMBER if number else value.t, traced))
                self.rule_note(value, self.ec.rewrote)
                self.out.line(f"{local}: {ann} = {code}")
                self.ec.local[node.name] = local
                node = node.body
            self.ec.rewrote = False
            code = tidy(self.ec.typed(node, d.returns, traced))
            self.rule_note(node, self.ec.rewrote)
            self.out.line(f"return {code}")

        self.emit_function(d, d.returns, body)

    def emit_table(self, t: m.Table) -> None:
        table_cites = [self.cite(t.origin)] + self.override_cites(t)

        def body(traced: bool) -> None:
            w = self.out
            self.emit_requires(t, traced)
            has_otherwise = False
            for row in t.rows:
                cites = [*table_cites, self.cite(row.origin, row.label, None, row.title or None)]
                cites += self.override_cites(row, row.label, title=row.title or None)
                self.row_comment(row)
                if not traced:
                    self.hoist_row(t, row)
                value = self.expr(t, row.value, traced, t.returns)
                value_rewritten = self.ec.rewrote
                if row.when is None:
                    has_otherwise = True
                    if traced:
                        w.line(f"_t.extend({self.cite_tuple(cites)})")
                    self.rule_note(row.value, value_rewritten)
                    w.line(f"return {value}")
                    break
                when = self.expr(t, row.when, traced, BOOL)
                self.rule_note(row.when, self.ec.rewrote)
                w.line(f"if {when}:")
                w.indent()
                if traced:
                    w.line(f"_t.extend({self.cite_tuple(cites)})")
                self.rule_note(row.value, value_rewritten)
                w.line(f"return {value}")
                w.dedent()
            if not has_otherwise:
                w.line(f"raise RuleError({('no row of ' + t.name + ' matches')!r})")

        self.emit_function(t, t.returns, body)

    def emit_requires(self, t: m.Table | m.Define, traced: bool) -> None:
        """A table's or a definition's `requires`: a call outside the inputs it answers has no answer
        (RuleError), as the interpreter says. Its fields are read in place, before any row reads
        them into locals."""
        if t.requires is None:
            return
        reads, self.ec.reads = self.ec.reads, {}
        test = self.expr(t, t.requires, traced, BOOL)
        self.ec.reads = reads
        self.rule_note(t.requires, self.ec.rewrote)
        self.out.line(f"if not ({test}):  # requires")
        self.out.line(f"    raise RuleError({requires_message(t)!r})")

    def row_comment(self, row: m.Row) -> None:
        """Where a row comes from, and each layer that changed it with its note."""
        o = row.origin
        self.out.line(f"# {row.label}: {o.clause or o.layer} ({o.layer}) {o.file}:{o.line}")
        for ov in row.overridden_by:
            self.out.line(_override_comment(ov, 90))

    def expr(self, d: Item, node: m.Expr, traced: bool, want: Type) -> str:
        """The node's code; self.ec.rewrote says after it whether a rewrite made it unlike the rule."""
        self.ec.local = {name: py for name, py, _ in self.params(d, False)} | self.converted
        self.ec.rewrote = False
        return tidy(self.ec.typed(node, want, traced))

    def rule_note(self, node: m.Expr, rewritten: bool) -> None:
        """Above a statement of fast code that a rewrite made unlike the rule (a small definition
        written in place of its call, tests of one list value folded into one set): the rule's
        expression, `# rule: ...`. The traced twin never has one, as it is never rewritten: it is
        the rule as written, with its citations (tests/test_one_body.py holds the two to one body
        but for these)."""
        if rewritten:
            self.out.line(f"# rule: {expr_text(node)}")

    def hoist(self, d: Item, nodes: Parts, names: dict[str, str]) -> None:
        """Fields the untraced code reads more than once, read once into locals first
        (_u_type = u.type), as one would by hand. names: rule variable -> Python name."""
        if not self.ec.optimize:
            return
        self.ec.local = {**{name: py for name, py, _ in self.params(d, False)}, **names}
        for code, n in sorted(self.ec.count_reads(nodes, set(names)).items()):
            if n >= 2 and code not in self.ec.reads:
                local = "_" + code.replace(".", "_")
                self.out.line(f"{local} = {code}")
                self.ec.reads[code] = local

    def start_row_hoisting(self, t: m.Table, names: dict[str, str]) -> None:
        """In a table, a field read more than once is read into a local just before the first row
        that reads it: rows that answer earlier do not pay for it."""
        self.ec.local = {**{name: py for name, py, _ in self.params(t, False)}, **names}
        self.row_names = names
        # each row's reads, counted once for the table's totals and for the row's own hoisting
        self.row_counts = {id(r): self.ec.count_reads([r.when, r.value], set(names)) for r in t.rows}
        self.row_totals = {}
        for counts in self.row_counts.values():
            for code, n in counts.items():
                self.row_totals[code] = self.row_totals.get(code, 0) + n

    def hoist_row(self, t: m.Table, row: m.Row) -> None:
        if not self.ec.optimize or not self.row_totals:
            return
        self.ec.local = {**{name: py for name, py, _ in self.params(t, False)}, **self.row_names}
        here = self.row_counts[id(row)]
        first = self.ec.count_reads(self.ec.first_test(row.when), set(self.row_names)) if row.when else {}
        for code in sorted(here):
            # read twice on this row's own path, or read for sure here and again by a later row
            again = here[code] >= 2 or (code in first and self.row_totals.get(code, 0) >= 2)
            if again and code not in self.ec.reads:
                local = "_" + code.replace(".", "_")
                self.out.line(f"{local} = {code}")
                self.ec.reads[code] = local

    def emit_function(self, d: Item, returns: Type | str, body: Any) -> None:
        w = self.out
        name = d.name
        params = self.params(d, False)
        scaled_ret = "Number" if isinstance(returns, NumberT) else type_of(returns, self.enum_names, self.record_names)
        sig = ", ".join(f"{p}: {a}" for _, p, a in params)
        wrapped = self.internal[name] != self.public[name]
        for traced in (False, True):
            w.line()
            w.line()
            self.header_comment(d)
            fname = self.traced[name] if traced else self.internal[name]
            tsig = sig + (", " if sig else "") + "_t: list[Cite]" if traced else sig
            w.line(f"def {fname}({tsig}) -> {scaled_ret}:")
            w.indent()
            if not traced and not wrapped:
                w.line(doc(self.describe(d)))
            elif traced:
                w.line(doc(f"{name}, recording in _t each rule it uses."))
            else:
                w.line(doc(f"{name} with numbers scaled by SCALE."))
            names = {p.name: py for p, (_, py, _) in zip(d.params, params, strict=True)}
            if not traced and isinstance(d, m.Define):
                self.hoist(d, d.body, names)
            elif not traced and isinstance(d, m.Table):
                self.start_row_hoisting(d, names)
            body(traced)
            self.ec.reads = {}
            w.dedent()
        if wrapped:
            self.emit_wrapper(d, returns, params)
        self.emit_explain(d, returns, params)

    def emit_wrapper(self, d: Item, returns: Type | str, params: list[tuple[str, str, str]]) -> None:
        w = self.out
        pub = self.params(d, True)
        w.line()
        w.line()
        self.header_comment(d)
        ret = type_of(returns, self.enum_names, self.record_names, True)
        w.line(f"def {self.public[d.name]}({', '.join(f'{p}: {a}' for _, p, a in pub)}) -> {ret}:")
        w.indent()
        w.line(doc(self.describe(d) + " Numbers are exact: int or Fraction."))
        if isinstance(d, m.Table) and self.ec.optimize:
            self.emit_table_rows_exact(d, pub, d.returns)
        else:
            call = f"{self.internal[d.name]}({', '.join(self.scale_arg(p, t) for p, t in self.ptypes(d, pub))})"
            w.line(f"return {self.unscale(call, returns)}")
        w.dedent()

    def emit_table_rows_exact(self, t: m.Table, pub: list[tuple[str, str, str]], returns: Type) -> None:
        """A table's rows once more, answering exact values directly: a constant row returns its
        exact value (no division by SCALE at run time), a row of sums and differences of record
        fields computes them unscaled, any other row scales back its scaled value."""
        w = self.out
        names = {p.name: py for p, (_, py, _) in zip(t.params, pub, strict=True)}
        for (py, pt), p in zip(self.ptypes(t, pub), t.params, strict=True):
            if not ((holds_number(pt) and self.scale != 1) or "list of " in str(pt)):
                continue
            why = "conditions compare scaled numbers" if holds_number(pt) and self.scale != 1 else \
                "lists as tuples, as the conditions compare them"
            if str(pt).count(" of ") > 1:  # a list of lists: a local of its own (mypy keeps a parameter's Sequence)
                local = f"_as_{py}"
                ann = type_of(pt, self.enum_names, self.record_names)
                w.line(f"{local}: {ann} = {self.scale_arg(py, pt)}  # {why}")
                self.converted[p.name] = names[p.name] = local
            else:
                w.line(f"{py} = {self.scale_arg(py, pt)}  # {why}")
        unscaled = [r for r in t.rows if _scale_free(r.value) and not _reads_numbers(r.value)]
        if isinstance(returns, NumberT) and any(not is_constant(r.value) for r in unscaled):
            w.line("_v: Number")
        self.emit_requires(t, False)
        self.start_row_hoisting(t, names)
        for row in t.rows:
            self.row_comment(row)
            self.hoist_row(t, row)
            if row.when is not None:
                when = self.expr(t, row.when, False, BOOL)
                self.rule_note(row.when, self.ec.rewrote)
                w.line(f"if {when}:")
                w.indent()
            self.emit_exact_return(t, row.value, returns)
            if row.when is None:
                self.ec.reads = {}
                self.converted = {}
                return
            w.dedent()
        w.line(f"raise RuleError({('no row of ' + t.name + ' matches')!r})")
        self.ec.reads = {}
        self.converted = {}

    def emit_exact_return(self, t: m.Table, node: m.Expr, returns: Type) -> None:
        w = self.out
        if not isinstance(returns, NumberT):  # a list of numbers (however deep) is given back exact
            w.line(f"return {tidy(self.unscale(self.expr(t, node, False, returns), returns))}")
        elif is_constant(node):
            w.line(f"return {literal(self.ec.folder.eval(node, {}), NUMBER, 1, self.consts)}")
        elif _scale_free(node) and not _reads_numbers(node):
            self.ec.local = {name: py for name, py, _ in self.params(t, False)}
            w.line(f"_v = {tidy(self._unscaled(node))}")
            w.line("return _v if _v.__class__ is int else _plain(_v)")
        else:
            w.line(f"return _exact({self.expr(t, node, False, NUMBER)})")

    def _unscaled(self, node: m.Expr) -> str:
        """A _scale_free node computed on exact values."""
        if isinstance(node, m.Lit):
            return repr(int(Fraction(node.v)))
        if isinstance(node, m.Field):
            return f"{self.ec.ex(node.of, False)}.{py_name(node.name)}"
        assert isinstance(node, m.Op)
        if node.op == "neg":
            return f"(-{self._unscaled(node.args[0])})"
        return f"({self._unscaled(node.args[0])} {node.op} {self._unscaled(node.args[1])})"

    def ptypes(self, d: Item, params: list[tuple[str, str, str]]) -> list[tuple[str, Type]]:
        return [(py, p.t) for (_, py, _), p in zip(params, d.params, strict=True)]

    def scale_arg(self, name: str, t: Type) -> str:
        """A public argument as the internal functions take it: numbers scaled, lists as tuples."""
        if self.scale != 1 and holds_number(t):  # every list on the way to a number rebuilt as a tuple
            return f"{name} * SCALE" if isinstance(t, NumberT) else mapped(name, t, lambda x: f"{x} * SCALE")
        return _tupled(name, t)

    def unscale(self, code: str, t: Type | str) -> str:
        """An internal value as the public functions give it: numbers exact, however deep in lists."""
        if self.scale == 1 or isinstance(t, str) or not holds_number(t):
            return code
        return mapped(code, t, lambda x: f"_exact({x})")

    def emit_explain(self, d: Item, returns: Type | str, params: list[tuple[str, str, str]]) -> None:
        w = self.out
        name = d.name
        pub = self.params(d, True)
        limits = isinstance(d, m.Limits)
        ret = type_of(returns, self.enum_names, self.record_names, True) if not limits else "list[Violation]"
        precomputed = self.precompute(d) if isinstance(d, (m.Define, m.Table)) else None
        if precomputed is not None:
            table = self.namer.claim(f"_ANSWERS_{name}")
            key_t = ", ".join(a for _, _, a in params)
            w.line()
            w.line(f"{table}: Final[dict[tuple[{key_t or '()'}], Answer[{ret}]]] = {{")
            for key, answer in precomputed:
                w.line(f"    {key}: {answer},")
            w.line("}")
        w.line()
        w.line()
        self.header_comment(d)
        w.line(f"def explain_{self.public[name]}({', '.join(f'{p}: {a}' for _, p, a in pub)}) -> Answer[{ret}]:")
        w.indent()
        w.line(doc(f"{self.describe(d)[:-1]}, with the rules that decided it."))
        if precomputed is not None:
            key = ", ".join(p for _, p, _ in params) + ("," if len(params) == 1 else "")
            w.line(f"return {table}[({key})]")
        else:
            w.line("_t: list[Cite] = []")
            args = ", ".join(self.scale_arg(p, t) for p, t in self.ptypes(d, pub))
            w.line(f"_value = {self.traced[name]}({args}{', ' if args else ''}_t)")
            changes = self.counterfactual_call(d, pub, returns)
            w.line(f"return Answer({self.unscale('_value', returns)}, _rules(_t), {changes})")
        w.dedent()

    def counterfactual_call(self, d: Item, pub: list[tuple[str, str, str]], returns: Type | str) -> str:
        """For a no: the single changes to finite inputs that would turn it into a yes."""
        if not isinstance(returns, BoolT) or isinstance(d, m.Limits):
            return "()"
        domains = []
        for (_, py, _), p in zip(pub, d.params, strict=True):  # named as the rules name it (l, not l_)
            domains.append(f"({p.name!r}, {py}, {self.domain_code(p.t)})")
        return (f"() if _value else _would_change({self.public[d.name]}, ({''.join(x + ', ' for x in domains)}))")

    def domain_code(self, t: Type, depth: int = 0) -> str:
        """What would_change tries on an input of type t (runtime `_alternatives`); the interpreter's
        twin is evaluate._would_change_on. A list's items are tried one level deep."""
        if isinstance(t, BoolT):
            return "(False, True)"
        if isinstance(t, EnumT):
            return repr(tuple(self.ec.enum_members(t.name)))
        if isinstance(t, RecordT):
            r = self.ec.folder.records[t.name]
            parts = [f"{py_name(f.name)!r}: {self.domain_code(f.t, depth)}" for f in r.fields
                     if would_try(f.t, depth)]
            return self.consts.add("DOMAINS", "{" + ", ".join(parts) + "}", "dict[str, Any]", f"{r.name}_{depth}")
        if isinstance(t, ListT) and depth == 0 and would_try(t, depth):
            item = self.domain_code(t.item, depth + 1)
            if isinstance(t.item, RecordT) and not any(f.required for f in self.ec.folder.records[t.item.name].fields):
                # a lambda: the domains are module constants, written before the record classes
                return f"_Items({item}, lambda: {self.record_names[t.item.name]}(), {t.item.name + ' {}'!r})"
            return f"_Items({item})"
        return "()"

    def precompute(self, d: m.Define | m.Table) -> list[tuple[str, str]] | None:
        """Every answer of a check over finite inputs, worked out now by the reference interpreter."""
        if "record " in str(d.returns):
            return None  # an answer holding a record cannot be written as a constant
        domains: list[list[Any]] = []
        for p in d.params:
            if isinstance(p.t, BoolT):
                domains.append([False, True])
            elif isinstance(p.t, EnumT):
                domains.append(self.ec.enum_members(p.t.name))
            else:
                return None
        combos = list(itertools.product(*domains))
        if not combos or len(combos) > MAX_PRECOMPUTED:
            return None
        results = []
        for combo in combos:
            # a fresh interpreter each time: one that has worked a const out already cites only the
            # const, not what its value read (as the interpreter answers one question at a time)
            interp = Interpreter(self.model)
            try:
                value = interp.call(d.name, list(combo))
            except EvalError:
                return None
            results.append((combo, value, interp.trace))
        out = []
        by_combo = {c: v for c, v, _ in results}  # not a search per alternative: quadratic in a long enum
        for combo, value, trace in results:
            changes = []
            if value is False:
                for i, p in enumerate(d.params):
                    for alt in domains[i]:
                        if alt == combo[i]:
                            continue
                        other = by_combo[combo[:i] + (alt,) + combo[i + 1:]]
                        if other is True:
                            changes.append(f"{p.name} = {_words(alt)}")
            rules = "(" + "".join(self.icite_name(c) + ", " for c in trace).rstrip(" ") + ")"
            key = "(" + "".join(repr(v) + ", " for v in combo).rstrip(" ") + ")"
            out.append((key, f"Answer({self.exact_literal(_json(value), d.returns)}, {rules}, "
                             f"{tuple(changes)!r})"))
        return out

    # ---- limits ------------------------------------------------------------------------------

    def emit_limits(self, g: m.Limits) -> None:
        def body(traced: bool) -> None:
            w = self.out
            for u in g.unless:
                cond = self.expr(g, u.cond, traced, BOOL)
                self.rule_note(u.cond, self.ec.rewrote)
                w.line(f"if {cond}:  # {_comment(u.title or '')}")
                w.indent()
                if traced:
                    w.line(f"_t.extend({self.cite_tuple([self.cite(u.origin)])})")
                w.line("return []")
                w.dedent()
            w.line("out: list[Violation] = []")
            if g.items:
                w.line("total: Number  # limits of whole numbers and of numbers alike")
                w.line("bound: Number")
            fused = {} if traced or not self.ec.optimize else self.emit_fused_totals(g)
            for item in g.items:
                self.emit_limit_item(g, item, traced, fused.get(item.name))
            w.line("return out")

        self.emit_function(g, "limits", body)

    def emit_fused_totals(self, g: m.Limits) -> dict[str, tuple[str, str | None]]:
        """The sums and counts of a limits group over one list, in one pass over it: each limit
        adds up its own total (_nI) as the loop goes. Counts of one field's values (u.type == port,
        u.type == air_base) test that field once, as an if/elif chain. Returns, by limit, the
        local holding its total and, for a limit whose exceptions are tested before the loop, the
        local saying whether it applies (None: its exceptions are tested after, on a breach)."""
        w = self.out
        groups: dict[str, list[tuple[int, m.Limit]]] = {}
        for i, item in enumerate(g.items):
            ms = item.measure
            if not isinstance(ms, m.Agg) or ms.fn not in ("sum", "count") or not _plain_over(ms.over):
                continue
            if self.ec.may_raise(ms.over):
                continue
            if ms.var in {p.name for p in g.params}:
                continue  # count(h for h in h.units): h is the parameter in the other limits' tests
            groups.setdefault(self.expr(g, ms.over, False, ms.over.t), []).append((i, item))
        if not groups:
            return {}
        over, members = max(groups.items(), key=lambda kv: len(kv[1]))
        if len(members) < 2:
            return {}
        measures = {i: _agg(item.measure) for i, item in members}
        names = [item.name for _, item in members]
        w.line(f"# rule: the totals of {', '.join(names[:-1])} and {names[-1]}, counted in one pass over "
               f"{expr_text(measures[members[0][0]].over)} (the benchmark's stacking rows: bench/RESULTS.md):")
        for i, item in members:
            w.line(f"#   {item.name}: {expr_text(measures[i])}")
        var = local_name(measures[members[0][0]].var)
        # A statement's loop: its variable is a local of the whole function, so it must hide nothing
        # the function reads (a parameter, a module name such as a const, the locals of the limits'
        # code); and each limit's own variable takes its name, so no loop inside one may bind it.
        taken = {py for _, py, _ in self.params(g, False)} | LIMITS_LOCALS  # and self.namer.taken, read in place
        for i, _ in members:
            ms = measures[i]
            taken |= self.ec.bound_locals([ms.where, ms.body], ms.var)
        while var in taken or var in self.namer.taken:
            var += "_"
        out: dict[str, tuple[str, str | None]] = {}
        for i, item in members:
            ms = measures[i]
            on = None
            if item.exempt and self.ec.may_raise([ms.where, ms.body, item.bound] + [x.cond for x in item.exempt]):
                on = f"_on{i}"  # a total or bound that may fail is not computed where the limit does not apply
                exempt = [self.expr(g, x.cond, False, BOOL) for x in item.exempt]
                w.line(f"{on} = not ({_either(exempt, self.all_tested(item))})  # {item.name} applies")
            numeric = isinstance(ms.t, NumberT) or isinstance(item.bound.t, NumberT)
            w.line(f"_n{i}: {'Number' if numeric else 'int'} = 0")
            out[item.name] = (f"_n{i}", on)
        w.line(f"for {var} in {over}:")
        w.indent()
        loop_vars = {measures[i].var: var for i, _ in members}
        # read once at the top of the loop: fields every unit's tests read (and the sums reuse)
        self.ec.local = {**{name: py for name, py, _ in self.params(g, False)}, **loop_vars}
        tested = self.ec.count_reads([measures[i].where for i, _ in members], set(loop_vars))
        if sum(tested.values()) >= 2:
            everywhere = self.ec.count_reads([[measures[i].where, measures[i].body] for i, _ in members
                                             if measures[i].fn == "sum"], set(loop_vars))
            for code in sorted(tested):
                if tested[code] + everywhere.get(code, 0) >= 2:
                    local = "_" + code.replace(".", "_")
                    w.line(f"{local} = {code}")
                    self.ec.reads[code] = local
        chains: dict[str, list[tuple[int, str, str]]] = {}  # field read -> (limit, value tested, what it adds)
        chain_values: dict[str, tuple[str, list[str]]] = {}  # field read -> (the field's name, the values)
        plain: list[tuple[int, list[str], str]] = []
        inline: dict[int, list[tuple[str, str | None, str]]] = {}  # limit -> its table's rows, in place
        for i, item in members:
            ms = measures[i]
            self.ec.local = {name: py for name, py, _ in self.params(g, False)}
            self.ec.local[ms.var] = var
            numeric = isinstance(ms.t, NumberT) or isinstance(item.bound.t, NumberT)
            one = str(self.scale) if numeric else "1"  # a count under a bound of numbers counts scaled
            add = one if ms.fn == "count" else tidy(self.ec.num(ms.body, False) if numeric
                                                       else self.ec.ex(ms.body, False))
            on = out[item.name][1]
            test = _value_test(ms.where, ms.var)
            if test is not None and on is None and ms.fn == "count":
                read = tidy(self.ec.ex(test[0], False))
                chains.setdefault(read, []).append((i, repr(test[1]), one))
                chain_values.setdefault(read, (_field_name(test[0]), []))[1].append(test[1])
                continue
            tests = [on] if on else []
            if ms.where is not None:
                tests.append(tidy(self.ec.ex(ms.where, False)))
            rows = self.rows_in_place(g, ms, var, numeric) if ms.fn == "sum" else None
            if rows is not None:
                inline[i] = rows
            plain.append((i, tests, add))
        # A chain that can only count what a sum's test leaves out goes on as that test's elif (a
        # combat unit is never a port): an element the sum takes is not tested against each value.
        # Proved by working the sum's test out on each value the chain tests, the field alone known.
        after: dict[int, str] = {}  # plain limit -> the chain that goes on as its elif
        for read, (fname, values) in chain_values.items():
            for i, tests, _ in plain:
                ms = measures[i]
                if tests and i not in after and read.isidentifier() \
                        and self.never_with(ms.var, ms.where, fname, values):
                    after[i] = read
                    break
        for i, tests, add in sorted(plain, key=lambda p: p[0] in after):
            if tests:
                w.line(f"if {tidy(' and '.join(f'({x})' for x in tests))}:")
                w.indent()
            if i in inline:
                w.line(f"# rule: {expr_text(measures[i].body)}, its rows written out in place:")
                for j, (label, when, value) in enumerate(inline[i]):
                    if when is None and j == 0:  # the otherwise row alone (the others ruled out): no test
                        w.line(f"_n{i} += {value}  # {label}")
                        break
                    w.line(f"{'if' if j == 0 else 'elif'} {when}:" if when else "else:")
                    w.line(f"    _n{i} += {value}  # {label}")
            else:
                w.line(f"_n{i} += {add}")
            if tests:
                w.dedent()
            if i in after:
                for limit, member, one in chains[after[i]]:
                    w.line(f"elif {after[i]} == {member}:")
                    w.line(f"    _n{limit} += {one}")
        for n, (read, pairs) in enumerate(chains.items()):
            if read in after.values():
                continue
            if len(pairs) == 1:
                w.line(f"if {read} == {pairs[0][1]}:")
                w.line(f"    _n{pairs[0][0]} += {pairs[0][2]}")
                continue
            if not read.isidentifier():
                w.line(f"_k{n} = {read}")
                read = f"_k{n}"
            for j, (limit, member, one) in enumerate(pairs):
                w.line(f"{'if' if j == 0 else 'elif'} {read} == {member}:")
                w.line(f"    _n{limit} += {one}")
        w.dedent()
        self.ec.reads = {}
        return out

    def rows_in_place(self, g: m.Limits, ms: m.Agg, var: str,
                      numeric: bool) -> list[tuple[str, str | None, str]] | None:
        """A sum of a one-parameter table's value for each element (sum(re_size(u) ...)): the
        table's rows as an if/elif chain in the loop, each adding its value, as one would write it
        by hand; no call per element. Rows the sum's own test rules out are left out (a combat unit
        is never `not is_combat(u)`), found as never_with finds them. None when the table has no
        otherwise row or a row may fail: the call then stays, to fail as the table does."""
        call = ms.body
        if not isinstance(call, m.Call) or len(call.args) != 1 or not isinstance(call.args[0], m.Var) \
                or call.args[0].name != ms.var or call.args[0].see:
            return None
        table = next((t for t in self.model.tables if t.name == call.fn), None)
        if table is None or len(table.params) != 1 or self.ec.may_raise(call):
            return None
        rows: list[tuple[str, str | None, str]] = []
        passing = self.passing_values(ms)
        self.ec.local = {name: py for name, py, _ in self.params(g, False)}
        self.ec.local[table.params[0].name] = var
        for row in table.rows:
            if row.when is not None and passing is not None and \
                    self.never_with(table.params[0].name, row.when, passing[0], passing[1]):
                continue
            value = tidy(self.ec.num(row.value, False) if numeric else self.ec.ex(row.value, False))
            when = None if row.when is None else tidy(self.ec.ex(row.when, False))
            rows.append((f"{row.label}: {row.origin.clause or row.origin.layer}", when, value))
            if when is None:
                break
        return rows

    def passing_values(self, ms: m.Agg) -> tuple[str, list[str]] | None:
        """(an enum field, the values of it the sum's test lets through) when the test reads that
        field of the element alone (is_combat(u): u.type in the combat types), else None."""
        if ms.where is None or not isinstance(ms.vart, RecordT):
            return None
        record = next((r for r in self.model.records if r.name == ms.vart.name), None)
        for f in record.fields if record else ():
            if not isinstance(f.t, EnumT):
                continue
            results = {value: self.with_one_field(ms.where, ms.var, f.name, value)
                       for value in self.ec.enum_members(f.t.name)}
            if None not in results.values():
                return f.name, [value for value, result in results.items() if result is True]
        return None

    def never_with(self, var: str, test: m.Expr | None, field_name: str, values: list[str]) -> bool:
        """Whether a test of var is false for an element whose field_name is any of values, whatever
        else it holds: worked out by the interpreter with that one field known (a test that reads
        anything else, or fails, proves nothing)."""
        return test is not None and all(self.with_one_field(test, var, field_name, value) is False
                                        for value in values)

    def with_one_field(self, test: m.Expr, var: str, field_name: str, value: str) -> bool | None:
        """test's answer for an element of which only field_name is known (value), by the
        interpreter; None when it reads anything else of it, or fails."""
        try:
            found = Interpreter(self.model).eval(test, {var: {field_name: value}})
        except (EvalError, ArithmeticError, RecursionError, TypeError, KeyError, ValueError):
            return None
        return found if isinstance(found, bool) else None

    def all_tested(self, item: m.Limit) -> bool:
        """Whether every exception to a limit must be tested even after one holds: the interpreter
        tests each (to cite each that applies), so one after the first that may fail must be run."""
        return self.ec.may_raise([x.cond for x in item.exempt[1:]])

    def emit_limit_item(self, g: m.Limits, item: m.Limit, traced: bool,
                        fused: tuple[str, str | None] | None = None) -> None:
        w = self.out
        o = item.origin
        w.line(f"# {item.name}: {o.clause or o.layer} {o.file}:{o.line}")
        for ov in item.overridden_by:
            w.line(_override_comment(ov, 90))
        exempt = [self.expr(g, x.cond, traced, BOOL) for x in item.exempt]
        every = self.all_tested(item)
        lazy = fused is not None and fused[1] is None and bool(exempt)  # exceptions tested on a breach
        if fused is not None and fused[1] is not None:
            w.line(f"if {fused[1]}:")
            w.indent()
        elif exempt and not lazy:
            if traced:
                for x, code in zip(item.exempt, exempt, strict=True):
                    w.line(f"if {code}:")
                    w.indent()
                    w.line(f"_t.extend({self.cite_tuple([self.cite(x.origin)])})")
                    w.dedent()
            w.line(f"if not ({_either(exempt, every)}):")
            w.indent()
        measure = _agg(item.measure)
        numeric = isinstance(measure.t, NumberT) or isinstance(item.bound.t, NumberT)
        total = fused[0] if fused else self.expr(g, measure, traced, NUMBER if numeric else measure.t)
        bound = self.expr(g, item.bound, traced, NUMBER if numeric else item.bound.t)
        constant = fused is not None and bound.isdigit()  # compare the running total with it directly
        if not constant:
            w.line(f"total = {total}")
            w.line(f"bound = {bound}")
        title = item.title or None  # the limit and the layers that moved its bound, held or broken
        held = [self.cite(o, item.name, None, title)] + self.override_cites(item, item.name, title=title)
        if traced and not item.exempt:
            w.line(f"_t.extend({self.cite_tuple(held)})")
        if constant:
            w.line(f"if {total} > {bound}" + (f" and not ({_either(exempt, every)}):" if lazy else ":"))
        else:
            w.line(f"if total > bound and not ({_either(exempt, every)}):" if lazy else "if total > bound:")
        w.indent()
        if constant:
            w.line(f"total, bound = {total}, {bound}")
        if traced and item.exempt:  # broken: first the clauses that say when the limit applies (4.8a)
            w.line(f"_t.extend({self.cite_tuple([self.cite(x.origin) for x in item.exempt] + held)})")
        var = local_name(measure.var)
        self.ec.local[measure.var] = var
        over = self.ec.ex(measure.over, traced)
        if isinstance(measure.over.t, SetT):  # the units counted, in the interpreter's order
            over = self.ec.in_order(measure.over.t, over)
        where = f" if {self.ec.ex(measure.where, traced)}" if measure.where is not None else ""
        self.ec.local.pop(measure.var, None)
        conv = "_exact" if numeric and self.scale != 1 else ""
        unit = self.unscale(var, _item(measure.over.t))  # the units as given: exact
        w.line(tidy(f"out.append(Violation({item.name!r}, {item.title!r}, {o.clause!r}, {conv}(total), "
                    f"{conv}(bound), {conv}(total - bound), tuple({unit} for {var} in {over}{where})))"))
        w.dedent()
        if traced and item.exempt:
            w.line("else:")
            w.line(f"    _t.extend({self.cite_tuple(held)})")
        if (exempt and not lazy) or (fused is not None and fused[1] is not None):
            w.dedent()

    # ---- constants and input validation ----------------------------------------------------

    def emit_consts(self) -> None:
        w = self.out
        consts = self.model.consts
        if not consts:
            return
        w.line()
        w.line()
        w.line("# ---- constants " + "-" * 65)
        for c in _const_order(consts, self.model):
            o = c.origin
            w.line()
            w.line(f"# {o.file}:{o.line}  {o.clause or o.layer}  {_comment(c.title or '')}")
            for ov in c.overridden_by:  # the value below is the layer's, not the series'
                w.line(_override_comment(ov, 90))
            self.ec.local = {}
            t = type_of(c.t, self.enum_names, self.record_names)
            if self.const_scaled[c.name] != self.const_public[c.name]:  # numbers: scaled, and exact
                scaled = self.const_scaled[c.name]
                w.line(f"{scaled}: Final[{'Number' if isinstance(c.t, NumberT) else t}] = "
                       f"{tidy(self.ec.typed(c.value, c.t, False))}")
                w.line(f"{self.const_public[c.name]}: Final[{t}] = {self.unscale(scaled, c.t)}")
            else:
                w.line(f"{self.const_public[c.name]}: Final[{t}] = {self.ec.ex(c.value, False)}")

    def invariant_parts(self, d: m.Define) -> str:
        """The parts of an invariant's `and` with the field each blames, as (field, lambda) pairs."""
        pairs = []
        for blamed, part in invariant_parts(d):
            var = self.params(d, False)[0][1]
            self.ec.local, self.ec.reads = {d.params[0].name: var}, {}  # no locals of a function read here
            pairs.append(f"({blamed!r}, lambda {var}: {tidy(self.ec.typed(part, BOOL, False))})")
        return "(" + "".join(p + ", " for p in pairs) + ")"

    def emit_validation(self) -> None:
        w = self.out
        w.line()
        w.line()
        w.line("# ---- input checked at the boundary " + "-" * 45)
        w.line()
        schema = state_schema(self.model)
        w.block("STATE_SCHEMA: Final[dict[str, Any]] = " + data_literal(schema, lead=39))  # 10 ** 1200, not its digits
        w.line("_FIELDS: Final[dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]]] = {")
        for r in self.model.records:
            w.line(f"    {r.name!r}: (")
            for f in r.fields:
                allowed: tuple[str, ...] = ()
                if isinstance(f.t, EnumT):
                    allowed = tuple(self.ec.enum_members(f.t.name))
                w.line(f"        ({f.name!r}, {str(f.t)!r}, {allowed!r}),")
            w.line("    ),")
        w.line("}")
        renamed = sorted({f.name for r in self.model.records for f in r.fields
                          if py_name(f.name) != f.name})
        w.line(f"_RENAMED: Final[frozenset[str]] = frozenset({renamed!r})")
        renamed_checks = {name: py for name, py in sorted(self.public.items()) if py != name}
        w.line(f"_CHECKS_RENAMED: Final[dict[str, str]] = {renamed_checks!r}  # named like a Python keyword or helper")
        w.line("_RECORD_CLASSES: Final[dict[str, Any]] = {"
               + ", ".join(f"{r.name!r}: {self.record_names[r.name]}" for r in self.model.records) + "}")
        # each invariant: its check, rule, title, the fields it reads (the first blamed) and, where
        # which field is blamed depends on which part of its `and` fails, each part with its field
        w.line("_INVARIANTS: Final[dict[str, tuple[tuple[Callable[[Any], bool], str, str, tuple[str, ...], "
               "tuple[tuple[str, Callable[[Any], bool]], ...]], ...]]] = {")
        for r in self.model.records:
            checks = [d for d in self.model.defines
                      if d.invariant is not None and d.params[0].t == RecordT(r.name)]
            if checks:
                w.line(f"    {r.name!r}: (")
                for d in checks:
                    o = d.origin
                    rule = o.clause or o.layer
                    w.line(f"        ({self.public[d.name]}, {rule!r}, {(d.title or d.name)!r}, "
                           f"{tuple(d.invariant or ())!r}, {self.invariant_parts(d)}),")
                w.line("    ),")
        w.line("}")
        w.line("_ENUM_VALUES: Final[dict[str, tuple[str, ...]]] = {"
               + ", ".join(f"{e.name!r}: {self.enum_names[e.name]}_values" for e in self.model.enums)
               + "}")
        for r in self.model.records:
            name = self.record_names[r.name]
            fn = self.namer.claim(f"{_snake(r.name)}_from_json")
            w.line()
            w.line()
            w.line(f"def {fn}(data: Any) -> {name}:")
            w.indent()
            w.line(doc(f"A {r.name} from JSON-like data, checked field by field; raises InvalidInput "
                       "naming the field and the allowed values."))
            w.line(f"value = from_json({r.name!r}, data, {_snake(r.name)!r})")
            w.line(f"assert isinstance(value, {name})")
            w.line("return value")
            w.dedent()


def _scale_free(node: m.Expr) -> bool:
    """Sums and differences of record fields and whole numbers: exact without scaling."""
    match node:
        case m.Lit():
            return isinstance(node.t, (IntT, NumberT)) and Fraction(node.v).denominator == 1
        case m.Field():
            return isinstance(node.t, (IntT, NumberT)) and isinstance(node.of, (m.Var, m.Field))
        case m.Op() if node.op in ("+", "-", "neg"):
            return all(_scale_free(a) for a in node.args)
    return False


def _reads_numbers(node: m.Expr) -> bool:
    """Whether a node reads a field that may hold a fraction: computed on exact values, a fraction
    would take it into Fraction arithmetic (two operations of a microsecond or more each); scaled
    (runtime _scaled), it stays in integers, and goes back to exact through _exact's kept fractions."""
    return any(isinstance(n, m.Field) and isinstance(n.t, NumberT) for n in m.walk(node))


def _value_test(where: m.Expr | None, var: str) -> tuple[m.Expr, str] | None:
    """(the field read, the list value) of a test `var.field == value`, else None."""
    if not isinstance(where, m.Op) or where.op != "==":
        return None
    a, b = where.args
    if isinstance(a, m.Member):
        a, b = b, a
    if not isinstance(b, m.Member) or not isinstance(a, m.Field) or not isinstance(a.of, m.Var) or a.of.name != var:
        return None
    return a, b.name


def _field_name(e: m.Expr) -> str:
    assert isinstance(e, m.Field)
    return e.name


def _plain_over(node: m.Expr) -> bool:
    """A list read from a parameter: what a fused loop may go over."""
    return isinstance(node, m.Var) or (isinstance(node, m.Field) and _plain_over(node.of))


def _agg(e: m.Expr) -> m.Agg:
    """A limit's measure: the checker makes every one a count or a sum."""
    assert isinstance(e, m.Agg)
    return e


def _item(t: Type) -> Type:
    assert isinstance(t, (ListT, SetT))
    return t.item


def _manifest(mf: m.Manifest) -> dict[str, Any]:
    """The manifest as the module's MANIFEST gives it (as the IR writes it)."""
    def ref(r: m.LayerRef | None) -> dict[str, Any] | None:
        return None if r is None else {"name": r.name, "title": r.title, "version": r.version}
    return {"ruleset": mf.ruleset, "title": mf.title, "series": ref(mf.series), "game": ref(mf.game),
            "scenario": ref(mf.scenario), "options": [ref(o) for o in mf.options], "layers": list(mf.layers)}


def _const_order(consts: tuple[m.ConstDef, ...], model: Resolved | None = None) -> list[m.ConstDef]:
    """Constants after the constants they use, also through the definitions and tables they call
    (a module works its constants out as it is imported, in this order)."""
    names = {c.name for c in consts}
    found: list[m.Define | m.Table] = [*model.defines, *model.tables] if model is not None else []
    callees = {d.name: d for d in found}

    def reads(root: m.Expr) -> set[str]:
        found: set[str] = set()
        called: set[str] = set()
        todo = [root]
        while todo:
            for n in m.walk(todo.pop()):
                if isinstance(n, m.Const):
                    found.add(n.name)
                elif isinstance(n, m.Call) and n.fn in callees and n.fn not in called:
                    called.add(n.fn)
                    todo += item_exprs(callees[n.fn])
        return found

    deps = {c.name: reads(c.value) & names - {c.name} for c in consts}
    done: list[str] = []
    while len(done) < len(consts):
        progressed = False
        for c in consts:
            if c.name not in done and deps[c.name] <= set(done):
                done.append(c.name)
                progressed = True
        if not progressed:  # a cycle, already reported by the checker
            done += [c.name for c in consts if c.name not in done]
    by = {c.name: c for c in consts}
    return [by[n] for n in done]




def _json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    return value


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _snake(name: str) -> str:
    out = ""
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out += "_"
        out += ch.lower()
    return out


def ruleset_hash(model: Resolved) -> str:
    """A hash of the rules as resolved (the IR without its source places, its worked examples, and its
    wording, the texts and notes the module never shows: ir.MODULE_ITEMS, ir.module_part): it
    changes when what a check decides or cites changes (a value, a title, a version), not when a
    rule moves down its file, its wording is edited or a worked example is added. The hash
    of the document's head and of each item's own hash, in the IR's order: no large IR, or copy of it
    without places, is held whole (tens of MB, and 2 of the 2.7 s it took a ruleset of 10,000 clauses),
    and an item a game shares with its series is hashed once for both."""
    from .ir import MODULE_ITEMS as ITEMS
    from .ir import canonical, head_ir

    head = _placeless(head_ir(model))
    h = hashlib.sha256(b"ruleset hash 3\n")
    with m.building():
        for key in sorted(head.keys() | ITEMS.keys()):
            h.update(canonical(key) + b":")
            if key not in ITEMS:
                h.update(canonical(head[key]) + b"\n")
                continue
            for item in getattr(model, key):
                h.update(_placeless_hash(key, item))
            h.update(b"\n")
    return "sha256:" + h.hexdigest()[:32]


def _placeless(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _placeless(v) for k, v in x.items() if k not in ("origin", "source", "line", "col", "file")}
    if isinstance(x, list):
        return [_placeless(v) for v in x]
    return x


_PLACELESS_HASHES: weakref.WeakKeyDictionary[Any, bytes] = weakref.WeakKeyDictionary()


def _placeless_hash(key: str, item: Any) -> bytes:
    """The sha256 of one item's IR without its places or its wording (ir.module_part), made once while
    the item lives."""
    from .ir import ITEMS, canonical, module_part

    found = _PLACELESS_HASHES.get(item)
    if found is None:
        data = _placeless(module_part(key, ITEMS[key](item)))
        found = _PLACELESS_HASHES[item] = hashlib.sha256(canonical(data)).digest()
    return found


# What rulec itself reads of a loaded module (crosscheck, evaluate): kept whether the module reads it or not.
READ_FROM_OUTSIDE = frozenset({"_CHECKS_RENAMED", "_RECORD_CLASSES", "_RENAMED", "_FIELDS", "_exact", "_rules"})


_PRIVATE_NAME = re.compile(r"(?<![\w.])_[A-Za-z_][A-Za-z0-9_]*")


def _without_unused(text: str) -> str:
    """The module without the private functions and constants nothing else in it reads (a helper of the
    runtime no check needs, a traced twin no explain_ calls, a constant only a dropped function read),
    each with the comment lines just above it. What the public code reaches, through the names each
    top-level statement reads, is kept; the rest of the private statements go. The text is read
    through the offsets of its lines, never split into them: a large module's list of lines took
    several times the memory of its text."""
    starts = array("q", [0])  # where each line starts; line n (1-based) is text[starts[n - 1]:starts[n] - 1]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    starts.append(len(text) + 1)

    def line(n: int) -> str:  # 1-based
        return text[starts[n - 1]:starts[n] - 1]

    spans: list[tuple[int, int, str | None]] = []  # first and last line, the private name it defines
    reads: dict[str, set[str]] = {}  # a private name -> the names its statement reads
    roots: set[str] = set(READ_FROM_OUTSIDE)  # the names public statements read
    for first, last, name in _statements(text):
        private = name if name is not None and name.startswith("_") and not name.startswith("__") else None
        spans.append((first, last, private))
        # the private names its lines hold (a regular expression, not a walk of a syntax tree: ten times
        # faster on a large module; a name in a string or an attribute only keeps more than needed)
        names = set(_PRIVATE_NAME.findall(text, starts[first - 1], starts[last] - 1))
        if private is None:
            roots |= names
        else:
            reads[private] = reads.get(private, set()) | names
    kept: set[str] = set()
    todo = [n for n in roots if n in reads]
    while todo:
        n = todo.pop()
        if n not in kept:
            kept.add(n)
            todo += [x for x in reads[n] if x in reads and x not in kept]
    dead = [(first, last) for first, last, name in spans if name is not None and name not in kept]
    del spans, reads, roots, kept  # 22 MB of a 10,000-clause module's, let go before its text is made again
    if not dead:
        return text
    pieces: list[str] = []
    done = 1  # the first line not yet taken
    for first, last in dead:
        start = first
        while start > 1 and line(start - 1).startswith("#") and not line(start - 1).startswith("# ----"):
            start -= 1  # the comment that heads it
        start = max(start, done)
        pieces.append(text[starts[done - 1]:starts[start - 1]])
        done = last + 1
    pieces.append(text[starts[done - 1]:])
    joined = "".join(pieces)
    del pieces
    return _BLANKS.sub("\n\n\n", joined)


_BLANKS = re.compile(r"\n{4,}")


# A string literal (its quotes on; escapes skipped; a triple-quoted one across lines) or a comment.
_STRING_OR_COMMENT = re.compile(r'''"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'''
                                r"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
                                r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
                                r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
                                r"|#[^\n]*", re.S)
_CLAUSE = re.compile(r"(?:else|elif|except|finally)\b")  # a clause of the compound statement above it
_DEFINES = re.compile(r"(?:def|class)\s+(\w+)|(\w+)\s*(?::|=(?!=))")  # def f, class C, x: T = ..., x = ...
_CHAINED = re.compile(r'\w+\s*=\s*[\w.\[\]"]+\s*=(?!=)')  # x = y = ...: no one name


def _statements(text: str) -> list[tuple[int, int, str | None]]:
    """The top-level statements of a module as ast.parse finds them: each one's first line (its first
    decorator's) and last line (1-based), and the name it defines (a def, a class, an assignment to one
    name), else None. Read line by line with its strings and comments taken out, so that every bracket
    left is one: a statement starts at a line that is not indented, not inside brackets, not after a
    backslash and not an else/except of the one above. The emitter writes one statement a line (a; b
    would be one here). ast.parse took 6 s and 800 MB of a 10,000-clause build's module; this, 0.3 s."""
    out: list[tuple[int, int, str | None]] = []
    first = last = 0
    name: str | None = None
    depth = 0  # brackets open
    joined = False  # the line before ended in a backslash
    decorated = False  # the statement so far is decorators
    for number, line in enumerate(lines_of(_STRING_OR_COMMENT.sub(_code_of, text)), 1):
        if not line or line.isspace():
            joined = False  # a backslash's line ends at a blank one
            continue
        if depth == 0 and not joined and not line[0].isspace() and not _CLAUSE.match(line):
            if not decorated:
                if first:
                    out.append((first, last, name))
                first = number
            name = _defined(line)
            decorated = line.startswith("@")
        last = number
        depth += line.count("(") + line.count("[") + line.count("{")
        depth -= line.count(")") + line.count("]") + line.count("}")
        joined = line.endswith("\\")
    if first:
        out.append((first, last, name))
    return out


def _code_of(found: re.Match[str]) -> str:
    """A string literal as an empty one, each line it runs on kept and indented (no statement starts
    inside it); a comment as nothing."""
    if found[0].startswith("#"):
        return ""
    return '"' + "\n " * found[0].count("\n") + '"'


def _defined(line: str) -> str | None:
    """The name the statement starting at this line (strings and comments out) defines, if one."""
    found = _DEFINES.match(line)
    if found is None:
        return None
    name = found[1] or found[2]
    if keyword.iskeyword(name) or (found[2] is not None and _CHAINED.match(line)):
        return None
    return name


_IMPORT = re.compile(r"^(from [\w.]+ import )(.+)$|^import (\w+)$")


def _used_imports(text: str) -> str:
    """The module with only the imported names it uses (the runtime imports what any module may need)."""
    head, sep, rest = text.partition("\nNumber = int | Fraction\n")
    out = []
    for line in head.split("\n"):
        m_ = _IMPORT.match(line)
        if m_ is None or line.startswith("from __future__"):
            out.append(line)
        elif m_[3] is not None:
            if _uses(rest, m_[3] + "."):
                out.append(line)
        else:
            names = [n.strip() for n in m_[2].split(",")]
            kept = [n for n in names if _uses(sep, n.split(" as ")[-1]) or _uses(rest, n.split(" as ")[-1])]
            if kept:
                out.append(m_[1] + ", ".join(kept))
    return "".join(("\n".join(out), sep, rest))


def _uses(text: str, name: str) -> bool:
    """Whether text holds name as a word of its own (not inside a longer one): str.find, not a regular
    expression, which took a second of a 10,000-clause build to look through its module for each name."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not _word_char(text[at - 1])) and (name.endswith(".") or end == len(text)
                                                          or not _word_char(text[end])):
            return True
        at = text.find(name, at + 1)
    return False


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


_TOP = re.compile(r"^(?:def|class) ([A-Za-z]\w*)|^([A-Za-z]\w*)(?::[^=]*)? = ", re.M)
_NOT_EXPORTED = {"T", "U", "N"}  # the runtime's type variables


def _with_exports(text: str) -> str:
    """`__all__`: every public name the module defines (checks, explain_ twins, records, lists, constants,
    Answer, Cite, InvalidInput, from_json, to_json ...), sorted; none it imports."""
    names = sorted({m_[1] or m_[2] for m_ in _TOP.finditer(text)} - _NOT_EXPORTED)
    lines = ["", "", "__all__ = ["] + [f"    {n!r}," for n in names] + ["]", ""]
    return text.rstrip("\n") + "\n" + "\n".join(lines)


def _override_comment(ov: m.Cite, width: int) -> str:
    """`# overridden by DAK: <its note>`, the note on one line of at most width characters."""
    note = _comment(override_note(ov))
    if len(note) > width:
        note = note[:width - 1].rstrip() + "…"
    return f"# overridden by {_comment(ov.layer)}" + (f": {note}" if note else "")


def _overridden(mem: m.EnumMember, attr: str) -> str:
    """The override comment after a list value's setting that a layer changed (the last layer's)."""
    layers = m.cited_overrides(mem.overridden_by, attr)
    return f"  {_override_comment(layers[-1], 70)}" if layers else ""


def _wrong_kind(value: str, t: Type, record_names: dict[str, str]) -> tuple[str, str]:
    """A test that is true when a value given a field of type t is not of its kind, and the kind in
    words (`_not_a`). A bool is not a whole number here, though Python counts it one."""
    match t:
        case BoolT():
            return f"{value} is not True and {value} is not False", "true or false"
        case IntT():
            return f"type({value}) is not int", "a whole number"
        case NumberT():
            return f"type({value}) is not int and type({value}) is not Fraction", "a number"
        case TextT():
            return f"type({value}) is not str", "a text"
        case RecordT(name):
            return f"not isinstance({value}, {record_names[name]})", f"a {record_names[name]}"
        case ListT():
            return f"type({value}) is not tuple", "a tuple"
        case SetT():
            return f"type({value}) is not frozenset", "a frozenset"
    raise AssertionError(f"a field of type {t}")


def _enum_of(t: Type) -> str | None:
    """The list a field's values must come from: its own type, or its items' (a list or set of values)."""
    if isinstance(t, EnumT):
        return t.name
    if isinstance(t, (ListT, SetT)) and isinstance(t.item, EnumT):
        return t.item.name
    return None


def _comment(text: str | None) -> str:
    """Text that is safe inside a # comment: one line, nothing Python's tokenizer refuses (NUL)."""
    return " ".join("".join(c if c.isprintable() else " " for c in text or "").split())


def _docline(text: str) -> str:
    """Text safe inside the module docstring: no quotes run, no backslash escapes, one line."""
    return _comment(text).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def would_try(t: Type, depth: int = 0) -> bool:
    """Whether would_change tries changes to an input of type t: yes/no and list values, the items of
    a list (one level deep) of those or of records; a record's fields of those kinds."""
    if isinstance(t, (BoolT, EnumT)):
        return True
    if isinstance(t, ListT) and depth == 0:
        return isinstance(t.item, (BoolT, EnumT, RecordT))
    return False


def _trimmed(lines: list[str]) -> str:
    """The lines joined: no trailing spaces, at most two blank lines in a row, none at the end.
    Empties `lines` as it goes, each line let go once its piece of the text is made (wrap.joined)."""
    def kept() -> Iterator[str]:
        lines.reverse()  # taken from the end, so that each is let go as it is read
        blank = 0
        while lines:
            ln = lines.pop().rstrip()
            blank = blank + 1 if not ln else 0
            if blank <= 2:
                yield ln

    text = joined(kept())
    # no line ends in a space or a line break (each was stripped), so the line breaks that end
    # the text are its blank lines there
    return text.rstrip("\n") if text.endswith("\n") else text


def _tupled(code: str, t: Type, depth: int = 0) -> str:
    """Python for a public value of type t with every list in it a tuple (a caller may pass lists)."""
    if isinstance(t, (ListT, SetT)):
        if not _holds_list(t.item):
            return f"tuple({code})" if isinstance(t, ListT) else code
        var = "_x" if depth == 0 else f"_x{depth}"
        wrap = "tuple" if isinstance(t, ListT) else "frozenset"
        return f"{wrap}({_tupled(var, t.item, depth + 1)} for {var} in {code})"
    return code


def _holds_list(t: Type) -> bool:
    return isinstance(t, ListT) or (isinstance(t, SetT) and _holds_list(t.item))


def _either(conditions: list[str], every: bool = False) -> str:
    """Python for `a or b or ...` of conditions written on their own (tidied: an `x if c else y`
    among them keeps its parentheses, or the `or` would join its else part). every: each is
    tested, as the interpreter tests every exception to a limit (a later one may fail)."""
    if every and len(conditions) > 1:
        return f"any(({', '.join(conditions)}))"
    return tidy(" or ".join(f"({c})" for c in conditions))
