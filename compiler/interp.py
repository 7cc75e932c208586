"""The reference interpreter: evaluates the definitions, tables and limits of a resolved model.

Values: bool, int, Fraction (exact), str (text, or the name of a list value), Record (a record),
tuple (a list) and frozenset (a set). Every evaluation also records which rules it used, so
answers can say what decided them. `rulec eval` and `rulec test` answer from here; the generated
modules must agree with it on every worked example and on random states.
"""

from __future__ import annotations

import hashlib
import json
import math
import operator
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import ir
from . import model as m
from .types import EnumT, ListT, NumberT, RecordT, SetT, Type, parse_type

MAX_STEPS = 500_000  # evaluation steps of one build's examples and table analyses (the shipped rules: 160,000)
MAX_BITS = 4_000       # size of a number the rules compute (about 1,200 digits)
_BUDGET: list[int | None] = [None]  # steps left, while a build runs inside budget()


@contextmanager
def budget(steps: int = MAX_STEPS) -> Iterator[None]:
    """Bound all evaluation inside: rules whose definitions call each other exponentially often
    fail with EvalError instead of running for hours. The bound counts steps, not seconds, so
    a build gives the same result on any machine."""
    saved, _BUDGET[0] = _BUDGET[0], steps
    try:
        yield
    finally:
        _BUDGET[0] = saved


def out_of_steps() -> bool:
    """Whether the evaluation steps of the budget() in force are spent."""
    left = _BUDGET[0]
    return left is not None and left <= 0


def _sized(value: Any) -> Any:
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool) and (
            Fraction(value).numerator.bit_length() > MAX_BITS or Fraction(value).denominator.bit_length() > MAX_BITS):
        raise TooLarge(f"a number of more than {MAX_BITS * 3 // 10:,} digits")
    return value


class Record(dict[str, Any]):
    """A record value: a dict of its fields that can also be an item of a set (`set of Unit`), as a
    module's frozen dataclass can. Never changed once made."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))


class EvalError(Exception):
    """A rule could not be evaluated (division by zero, no table row matched)."""


class TooLarge(EvalError):
    """A number grew past MAX_BITS: a bound of the interpreter's, not an answer of the rules (the
    generated module, which has no such bound, is not asked to agree)."""


@dataclass(frozen=True)
class Cite:
    """A rule the interpreter's answer rests on. `note` is None for the rule itself and the override's
    note ("" if it has none) for a layer that overrides it; `title` is an item's own title as the
    ruleset has it (a row, a list value or a limit, after any override), None for a clause."""

    layer: str
    clause: str | None
    item: str | None = None
    note: str | None = None
    title: str | None = None

    def __str__(self) -> str:
        where = " ".join(x for x in (self.clause, self.item) if x) or self.layer
        if self.note is None:
            return where
        return f"{where} ({self.layer}: {self.note})" if self.note else f"{where} ({self.layer})"


Item = m.Define | m.Table | m.ConstDef | m.Limits  # what a call or a const names


@dataclass(frozen=True)
class Index:
    """A model's lookup tables, made once per model (an interpreter is made for every example and
    every case a table analysis tries)."""

    defines: dict[str, m.Define]
    tables: dict[str, m.Table]
    consts: dict[str, m.ConstDef]
    limits: dict[str, m.Limits]
    records: dict[str, m.RecordDef]
    members: dict[tuple[str, str], tuple[m.EnumMember, dict[str, m.AttrValue]]]
    enum_order: dict[str, list[str]]  # each list's values in its order
    clause_layers: dict[str, str]
    enum_index: dict[str, dict[str, int]]  # each value's place in its list: comparisons, step, min, max, set order
    invariants: dict[str, list[m.Define]]  # each record's invariants (the table analysis assumes them), by its name


_INDEXES: weakref.WeakKeyDictionary[m.Resolved, Index] = weakref.WeakKeyDictionary()


def index(model: m.Resolved) -> Index:
    found = _INDEXES.get(model)
    if found is None:
        found = _INDEXES[model] = Index(
            defines={d.name: d for d in model.defines},
            tables={t.name: t for t in model.tables},
            consts={c.name: c for c in model.consts},
            limits={g.name: g for g in model.limits},
            records={r.name: r for r in model.records},
            members={(e.name, mem.name): (mem, dict(mem.attrs)) for e in model.enums for mem in e.members},
            enum_order={e.name: [mem.name for mem in e.members] for e in model.enums},
            clause_layers={c.number: c.origin.layer for c in model.clauses},
            enum_index={e.name: {mem.name: i for i, mem in enumerate(e.members)} for e in model.enums},
            invariants=_invariants(model),
        )
    return found


def _invariants(model: m.Resolved) -> dict[str, list[m.Define]]:
    found: dict[str, list[m.Define]] = {}
    for d in model.defines:
        if d.invariant is not None and d.params and isinstance(d.params[0].t, RecordT):
            found.setdefault(d.params[0].t.name, []).append(d)
    return found


@dataclass
class Interpreter:
    model: m.Resolved
    trace: list[Cite] = field(default_factory=list)

    def __post_init__(self) -> None:
        ix = index(self.model)
        self.defines, self.tables, self.consts, self.limits = ix.defines, ix.tables, ix.consts, ix.limits
        self.records, self.members, self.enum_order = ix.records, ix.members, ix.enum_order
        self.clause_layers = ix.clause_layers
        self.enum_index = ix.enum_index
        self._const_values: dict[str, Any] = {}

    def closure_key(self, item: Item) -> str:
        """A hash of an item of the model (a table, a definition) and of everything evaluating it
        can read: every definition, table, limit group and constant it calls or names, followed to
        the end, and the lists and records they name (_Types.hash_of). Two rulesets that agree on
        all of it get the same answers from it, so work on it is done once (a game shares most of
        its series), and a build cache finds it again in the next build. Worked out once per model
        and item (the table analysis and the cards' values both ask)."""
        keys = _CLOSURE_KEYS.get(self.model)
        if keys is None:
            keys = _CLOSURE_KEYS[self.model] = {}
        found = keys.get(id(item))
        if found is not None and found[0] is item:
            return found[1]
        parts: dict[str, Any] = {}
        types = _types(self.model)
        named = set(types.named_by(item))  # the lists and records the closure's items name
        todo: list[Item] = [item]
        while todo:
            for e in item_exprs(todo.pop()):
                for n in m.walk(e):
                    target: Item | None
                    if isinstance(n, m.Call):
                        key, target = f"call:{n.fn}", (self.defines.get(n.fn) or self.tables.get(n.fn)
                                                         or self.limits.get(n.fn))
                    elif isinstance(n, m.Const):
                        key, target = f"const:{n.name}", self.consts.get(n.name)
                    else:
                        continue
                    if key in parts:
                        continue
                    parts[key] = None if target is None else _item_canonical(target)
                    if target is not None:
                        todo.append(target)
                        named |= types.named_by(target)
        key = hashlib.sha256(types.hash_of(named) + _closure_bytes(_item_canonical(item), parts)).hexdigest()
        keys[id(item)] = (item, key)
        return key

    # ---- entry points ---------------------------------------------------------------

    def call(self, fn: str, args: list[Any]) -> Any:
        if fn in self.limits:
            return self.check_limits(fn, args)
        if fn in self.tables:
            return self._table(self.tables[fn], args)
        d = self.defines[fn]
        env = dict(zip((p.name for p in d.params), args, strict=False))
        if d.requires is not None and not self.eval(d.requires, env):  # outside the inputs it answers
            raise EvalError(requires_message(d))
        self._cite_changed(d.origin, d.overridden_by)
        return self.eval(d.body, env)

    def check_limits(self, name: str, args: list[Any]) -> list[dict[str, Any]]:
        """Every limit of the group that the arguments break, with the units counted."""
        g = self.limits[name]
        env = dict(zip((p.name for p in g.params), args, strict=False))
        for u in g.unless:
            if self.eval(u.cond, env):
                self._cite(u.origin)
                return []
        out = []
        for item in g.items:
            exempt = False
            for x in item.exempt:
                if self.eval(x.cond, env):
                    self._cite(x.origin)
                    exempt = True
            if exempt:
                continue
            measure = item.measure
            total = self.eval(measure, env)
            bound = self.eval(item.bound, env)
            if total > bound:
                for x in item.exempt:  # the clauses that say when the limit applies (4.8a in an overrun)
                    self._cite(x.origin)
            # a limit held or broken is a rule the answer rests on, and so is a layer that moved its bound
            self._cite_changed(item.origin, item.overridden_by, item.name, item.title or None)
            if total > bound:
                counted = []
                if isinstance(measure, m.Agg):  # the checker makes every measure a count or a sum
                    where, var = measure.where, measure.var
                    counted = [x for x in self._items(measure.over, env)
                               if where is None or self.eval(where, {**env, var: x})]
                out.append({"limit": item.name, "title": item.title, "rule": item.origin.clause, "total": total,
                            "bound": bound, "excess": total - bound, "units": counted})  # as a Violation has them
        return out

    def default_record(self, name: str, values: dict[str, Any]) -> Record:
        out = Record()
        for f in self.records[name].fields:
            if f.name in values:
                out[f.name] = values[f.name]
            elif f.required:  # no default to take: the caller must say (R206 in the rules)
                raise EvalError(f"{name} needs a value for {f.name}")
            else:
                out[f.name] = from_json(f.default, f.t)
        return out

    # ---- expressions -------------------------------------------------------------------

    def eval(self, e: m.Expr, env: dict[str, Any]) -> Any:
        """The value of e where env gives the variables: one step of the budget, then the reading
        of e's kind of expression (_READ: a table by class, looked up once, not a test of each
        kind in turn; a table analysis and the cards' values evaluate millions of expressions)."""
        left = _BUDGET[0]
        if left is not None:
            if left <= 0:
                raise EvalError(f"evaluating the rules takes more than {MAX_STEPS:,} steps; "
                                "do definitions call each other too often?")
            _BUDGET[0] = left - 1
        read = _READ.get(type(e))
        if read is None:  # m.Error
            raise EvalError("cannot evaluate an expression with a mistake in it")
        return read(self, e, env)

    def _var(self, e: m.Var, env: dict[str, Any]) -> Any:
        for ref in e.see:
            self._cite_ref(ref)
        return env[e.name]

    def _field(self, e: m.Field, env: dict[str, Any]) -> Any:
        return self.eval(e.of, env)[e.name]

    def _call(self, e: m.Call, env: dict[str, Any]) -> Any:
        found = self.call(e.fn, [self.eval(a, env) for a in e.args])
        if e.fn in self.limits:  # in an expression, a limits check is the names of the limits broken
            return tuple(v["limit"] for v in found)  # (a list of text), as its type says
        return found

    def _attr(self, e: m.Attr, env: dict[str, Any]) -> Any:
        member = self.eval(e.of, env)
        mem, attrs = self.members[(e.enum, member)]
        slot = attrs[e.name]  # where it was set: the member's own clause, or an override
        title = mem.title or None
        self._cite(mem.origin, item=member, title=title)
        for ov in m.cited_overrides(mem.overridden_by, e.name):
            self._cite(ov.origin, item=member, note=override_note(ov), title=title)
        return from_json(slot.value, e.t)

    def _if(self, e: m.If, env: dict[str, Any]) -> Any:
        return self.eval(e.then if self.eval(e.cond, env) else e.else_, env)

    def _let(self, e: m.Let, env: dict[str, Any]) -> Any:
        return self.eval(e.body, {**env, e.name: self.eval(e.value, env)})

    def _record(self, e: m.RecordLit, env: dict[str, Any]) -> Any:
        return self.default_record(e.record, {n: self.eval(v, env) for n, v in e.fields})

    def _op(self, e: m.Op, env: dict[str, Any]) -> Any:
        op, args = e.op, e.args
        if op == "and":  # Python's and, or and not: the value that decides, as the rules are read
            return self.eval(args[0], env) and self.eval(args[1], env)
        if op == "or":
            return self.eval(args[0], env) or self.eval(args[1], env)
        if op == "not":
            return not self.eval(args[0], env)
        if op == "neg":
            return -self.eval(args[0], env)
        a, b = self.eval(args[0], env), self.eval(args[1], env)
        if op in _ORDERINGS and isinstance(a, str) and isinstance(args[0].t, EnumT):
            index = self.enum_index[args[0].t.name]  # list values compare in their list's order
            a, b = index[a], index[b]
        return _BINARY[op](a, b)

    def _builtin(self, e: m.Builtin, args: list[Any]) -> Any:
        fn, t = e.fn, e.t
        if fn == "step" and isinstance(t, EnumT):
            order = self.enum_order[t.name]
            i = self.enum_index[t.name][args[0]] + args[1]
            i = i % len(order) if e.cyclic else max(0, min(len(order) - 1, i))
            return order[i]
        if fn in ("min", "max") and isinstance(t, EnumT):
            return (min if fn == "min" else max)(args, key=self.enum_index[t.name].__getitem__)
        if fn == "floor":
            return math.floor(args[0])
        if fn == "ceil":
            return math.ceil(args[0])
        if fn == "abs":
            return abs(args[0])
        if fn == "len":
            return len(args[0])
        return min(args) if fn == "min" else max(args)

    def _agg(self, e: m.Agg, env: dict[str, Any]) -> Any:
        fn, var, where = e.fn, e.var, e.where
        over = self._items(e.over, env)
        if fn in ("any", "all"):  # stop at the first item that decides, as the rules are read
            want = fn == "any"
            for x in over:
                inner = {**env, var: x}
                if (where is None or self.eval(where, inner)) and bool(self.eval(e.body, inner)) == want:
                    return want
            return not want
        if fn == "first":
            for x in over:
                inner = {**env, var: x}
                if where is None or self.eval(where, inner):
                    return self.eval(e.body, inner)
            raise EvalError("first of nothing: no item passes 'where'")
        items = []
        for x in over:
            inner = {**env, var: x}
            if where is None or self.eval(where, inner):
                items.append(self.eval(e.body, inner) if fn != "count" else x)
        if fn == "sum":
            return _sized(sum(items, 0))
        if fn == "count":
            return len(items)
        if fn == "product":
            return _sized(math.prod(items, start=1))
        if not items:
            raise EvalError(f"{fn} of nothing")
        if isinstance(e.t, EnumT):
            return (min if fn == "min" else max)(items, key=self.enum_index[e.t.name].__getitem__)
        return min(items) if fn == "min" else max(items)

    def _items(self, over: m.Expr, env: dict[str, Any]) -> Iterable[Any]:
        """What a `for` goes over, in order: a list as it is; a set's items in one order that depends
        on them alone (`order_of`), not on how Python happens to keep them (a text's place in a set
        changes with the process's hash seed): `first` over a set, the rules an answer cites and the
        units a limit counts are then the same on every run, in the interpreter and the module."""
        items = self.eval(over, env)
        if isinstance(over.t, SetT) and len(items) > 1:
            t = over.t.item
            return sorted(items, key=lambda x: self.order_of(t, x))
        return items  # type: ignore[no-any-return]

    def order_of(self, t: Type, x: Any) -> Any:
        """Where x goes among a set's items of type t: yes/no, numbers and text by value, a list's
        values in the list's order, lists and sets item by item, records field by field (by name)."""
        match t:
            case EnumT(name):
                return self.enum_index[name][x]
            case RecordT(name):
                fields = sorted(self.records[name].fields, key=lambda f: f.name)
                return tuple(self.order_of(f.t, x[f.name]) for f in fields)
            case ListT(item):
                return tuple(self.order_of(item, i) for i in x)
            case SetT(item):
                return tuple(sorted(self.order_of(item, i) for i in x))
        return x

    def _table(self, t: m.Table, args: list[Any]) -> Any:
        env = dict(zip((p.name for p in t.params), args, strict=False))
        if t.requires is not None and not self.eval(t.requires, env):  # outside the inputs it answers
            raise EvalError(requires_message(t))
        for row in t.rows:
            if row.when is None or self.eval(row.when, env):
                self._cite_changed(t.origin, t.overridden_by)  # the table, and a layer's change of what it requires
                self._cite_changed(row.origin, row.overridden_by, row.label, row.title or None)
                return self.eval(row.value, env)
        raise EvalError(f"no row of table {t.name} matches")

    def _const(self, name: str) -> Any:
        c = self.consts[name]
        self._cite_changed(c.origin, c.overridden_by)
        if name not in self._const_values:
            self._const_values[name] = self.eval(c.value, {})
        return self._const_values[name]

    def _cite_ref(self, ref: m.Ref) -> None:
        layer = self.clause_layers.get(ref.number, self.model.manifest.layers[0])
        title = None if ref.item is None else item_titles(self.model).get((ref.number, ref.item))
        cite = Cite(layer, ref.number, ref.item, None, title)
        if cite not in self.trace:
            self.trace.append(cite)

    def _cite_changed(self, origin: m.Origin, overridden_by: tuple[m.Cite, ...], item: str | None = None,
                      title: str | None = None) -> None:
        """Cite a rule, then each layer's override of it still in force, with its note."""
        self._cite(origin, item=item, title=title)
        for ov in m.cited_overrides(overridden_by):
            self._cite(ov.origin, item=item, note=override_note(ov), title=title)

    def _cite(self, origin: m.Origin, item: str | None = None, note: str | None = None,
              title: str | None = None) -> None:
        cite = Cite(origin.layer, origin.clause, item, note, title)
        if cite not in self.trace:
            self.trace.append(cite)


def _divided(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError("division by zero")
    return _sized(Fraction(a) / Fraction(b))


_ORDERINGS = frozenset({"<", "<=", ">", ">="})
# What a binary operator does to its two values: arithmetic kept within MAX_BITS, exact division.
_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: _sized(a + b), "-": lambda a, b: _sized(a - b), "*": lambda a, b: _sized(a * b),
    "/": _divided, "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}

# How Interpreter.eval reads each kind of expression (m.Error, a mistake already reported, has none).
_READ: dict[type, Callable[[Interpreter, Any, dict[str, Any]], Any]] = {
    m.Var: Interpreter._var,
    m.Field: Interpreter._field,
    m.Call: Interpreter._call,
    m.Op: Interpreter._op,
    m.Lit: lambda it, e, env: e.v,
    m.Const: lambda it, e, env: it._const(e.name),
    m.Member: lambda it, e, env: e.name,
    m.Attr: Interpreter._attr,
    m.Agg: Interpreter._agg,
    m.If: Interpreter._if,
    m.Let: Interpreter._let,
    m.Builtin: lambda it, e, env: it._builtin(e, [it.eval(a, env) for a in e.args]),
    m.RecordLit: Interpreter._record,
    m.ListLit: lambda it, e, env: tuple(it.eval(i, env) for i in e.items),
    m.SetLit: lambda it, e, env: frozenset(it.eval(i, env) for i in e.items),
}


_TITLES: weakref.WeakKeyDictionary[m.Resolved, dict[tuple[str | None, str], str | None]] = \
    weakref.WeakKeyDictionary()


def item_titles(model: m.Resolved) -> dict[tuple[str | None, str], str | None]:
    """The title of an item a `see 4.5a F` names, by its clause and name (list values, table rows,
    limits; the first of a name in a clause), made once per model."""
    found = _TITLES.get(model)
    if found is None:
        found = _TITLES[model] = _item_titles(model)
    return found


def _item_titles(model: m.Resolved) -> dict[tuple[str | None, str], str | None]:
    out: dict[tuple[str | None, str], str | None] = {}
    for e in model.enums:
        for mem in e.members:
            out.setdefault((mem.origin.clause, mem.name), mem.title or None)
    for t in model.tables:
        for r in t.rows:
            out.setdefault((r.origin.clause, r.label), r.title or None)
    for g in model.limits:
        for lim in g.items:
            out.setdefault((lim.origin.clause, lim.name), lim.title or None)
    return out


def override_note(ov: m.Cite) -> str:
    """An override's note as its cite carries it: "" for an override without one."""
    return ov.notes[0].text if ov.notes else ""


def item_exprs(item: Item) -> list[m.Expr]:
    """The expressions an item of the model evaluates."""
    match item:
        case m.Define(body=body, requires=requires):
            return [body] if requires is None else [requires, body]
        case m.Table(rows=rows, requires=requires):
            return [e for r in rows for e in (r.when, r.value) if e is not None] + (
                [] if requires is None else [requires])
        case m.ConstDef(value=value):
            return [value]
        case m.Limits(unless=unless, items=items):
            return [*(u.cond for u in unless),
                    *(e for i in items for e in (i.measure, i.bound, *(x.cond for x in i.exempt)))]


def _item_canonical(item: Item) -> bytes:
    """The canonical bytes of the item's IR, written once while it lives (the module's key reads
    them too); only the bytes are kept, not the IR."""
    match item:
        case m.Define():
            return ir.canonical_of(item, ir.define_ir)
        case m.Table():
            return ir.canonical_of(item, ir.table_ir)
        case m.ConstDef():
            return ir.canonical_of(item, ir.const_ir)
        case m.Limits():
            return ir.canonical_of(item, ir.limits_ir)


def _closure_bytes(item: bytes, parts: dict[str, bytes | None]) -> bytes:
    """[the item's IR, {key: IR or None}] as JSON bytes, from the bytes of each IR (ir.canonical_of,
    each a whole JSON value with its keys sorted): one byte string for one closure."""
    inner = b",".join(ir.canonical(k) + b":" + (b"null" if v is None else v) for k, v in sorted(parts.items()))
    return b"[" + item + b",{" + inner + b"}]"


# Each model's closure keys, by item (id, with the item, so a reused id is never taken for it).
_CLOSURE_KEYS: weakref.WeakKeyDictionary[m.Resolved, dict[int, tuple[Item, str]]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class _Types:
    """A model's lists and records, for closure keys: each one's canonical IR (a list's without its
    values' wording, ir.module_part, which no evaluation reads) under its name, the names of the
    others its IR names (a record's fields, a list's attributes), and the hashes worked out."""

    canonical: dict[str, bytes]
    names: dict[str, frozenset[str]]
    hashes: dict[frozenset[str], bytes] = field(default_factory=dict)

    def named_by(self, item: Item) -> frozenset[str]:
        """The lists and records the item's IR names. Every expression, parameter and result in the IR
        carries its type by name (`"t": "list of record Unit"`, `"enum": "EzocAction"`), so a list or
        record the IR does not name is one evaluating the item does not read; a name that is only a
        word of a title or a text takes in a type that is not read, which costs sharing, never
        soundness. Worked out once per item and model."""
        found = _NAMED.get(item)
        if found is not None and found[0] is self:
            return found[1]
        text = _item_canonical(item)
        named = _words_in(text, self.canonical)
        _NAMED[item] = (self, named)
        return named

    def hash_of(self, named: set[str]) -> bytes:
        """The hash of the named lists and records, and of those theirs name, followed to the end.
        A game that changes one list (DAK's 4.5a F) keeps the keys of the tables that never see it,
        and their analyses and card values are its series'."""
        key = frozenset(named)
        found = self.hashes.get(key)
        if found is None:
            read: set[str] = set()
            todo = list(key)
            while todo:
                name = todo.pop()
                if name not in read:
                    read.add(name)
                    todo += self.names[name] - read
            found = self.hashes[key] = hashlib.sha256(
                b"".join(ir.canonical(name) + self.canonical[name] for name in sorted(read))).digest()
        return found


_TYPES: weakref.WeakKeyDictionary[m.Resolved, _Types] = weakref.WeakKeyDictionary()
_NAMED: weakref.WeakKeyDictionary[Item, tuple[_Types, frozenset[str]]] = weakref.WeakKeyDictionary()
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _words_in(text: bytes, names: Iterable[str]) -> frozenset[str]:
    """The names that are whole words of text (bytes.find, then the bytes on either side; a name is
    ASCII, rules.lark's NAME)."""
    found = []
    for name in names:
        raw = name.encode()
        at = text.find(raw)
        while at >= 0:
            end = at + len(raw)
            if (at == 0 or text[at - 1] not in _WORD_BYTES) and (end == len(text) or text[end] not in _WORD_BYTES):
                found.append(name)
                break
            at = text.find(raw, at + 1)
    return frozenset(found)


def _types(model: m.Resolved) -> _Types:
    found = _TYPES.get(model)
    if found is None:
        canonical: dict[str, bytes] = {}
        for e in model.enums:
            canonical[e.name] = canonical.get(e.name, b"") + ir.canonical(ir.module_part("enums", ir.enum_ir(e)))
        for r in model.records:
            canonical[r.name] = canonical.get(r.name, b"") + ir.canonical(ir.record_ir(r))
        names = {name: _words_in(text, canonical) for name, text in canonical.items()}
        found = _TYPES[model] = _Types(canonical, names)
    return found


def from_json(value: Any, t: Type | str) -> Any:
    """A constant of the model (a default, a list setting: numbers written as 'p/q' text) as an
    interpreter value."""
    if value is None:
        return None
    t = parse_type(t) if isinstance(t, str) else t
    if isinstance(t, NumberT):
        return Fraction(value) if isinstance(value, str) else value
    if isinstance(t, ListT):
        return tuple(from_json(v, t.item) for v in value)
    if isinstance(t, SetT):
        return frozenset(from_json(v, t.item) for v in value)
    return value


def requires_message(t: m.Table | m.Define) -> str:
    """What a call outside a table's or a definition's `requires` is told (the interpreter's
    EvalError, the module's RuleError): `odds answers only where attack > 0 and defense > 0`, and
    with the card's words where the rules give them: `shown_plane answers only where an Active
    plane is in the hex (shows_plane(h))`."""
    from .state_schema import expr_text  # which reads this module: imported where it is used
    assert t.requires is not None
    if t.requires_says:
        return f"{t.name} answers only where {t.requires_says} ({expr_text(t.requires)})"
    return f"{t.name} answers only where {expr_text(t.requires)}"


def to_json(value: Any) -> Any:
    """An interpreter value as JSON: exact numbers as 'p/q' text when not whole."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if isinstance(value, int):
        return value
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, frozenset):
        return [to_json(v) for v in sorted(value, key=_set_order)]
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def _set_order(value: Any) -> tuple[int, Any]:
    """One order for the items of any set, as JSON writes them: yes/no, numbers by value (1/4 before
    1/2 before 3), text and list values by their text, records and lists by their JSON."""
    if isinstance(value, bool):
        return (0, value)
    if isinstance(value, (int, Fraction)):
        return (1, value)
    if isinstance(value, str):
        return (2, value)
    return (3, json.dumps(to_json(value), sort_keys=True))
