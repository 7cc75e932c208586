"""Exact reasoning about a table's rows: the conditions as formulas for the SMT solver z3.

A row's `when` says something about the table's inputs; whether it can ever be true, whether the
rows above it already take every case it covers, whether some input matches no row, and whether
two exceptions give different answers for one input, are questions about every possible input,
not about a sample of them. Each is put to z3 (exact integers and rationals, true/false, list
values as their index, texts as strings, records field by field), and each "yes, there is such
an input" comes back with the input, which the reference interpreter then checks (a difference
is a bug in rulec, never a finding).

What is translated: true/false, whole and exact numbers (+, -, *, /, floor, ceil, abs, min, max),
comparisons, list values with their settings, order and `step`, texts compared for equality,
records and records in records, consts (worked out by the interpreter), definitions (inlined),
tables called from a condition (row by row), if and let, list and set literals, `in`, and the
aggregates over lists: over a list written in the rules exactly, item by item; over an input list
(`h.units`) through a few representative items, each standing for as many items as the solver
chooses. With k aggregates, `in` and `len` over input lists, 2**k representatives are enough
for any, all, count, `in` and `len` (an item matters only through which of the k tests it passes),
so those answers are exact; sum, min, max, first and product over an input list are found when
they exist but not proved absent, and a row that needs them proved is reported as not decided.

A condition z3 cannot decide within its budget (a product of two inputs, say), or an expression
outside the above (a limit group's breaches, a list compared with a list), is reported as not
decided (R304, a warning) with the row and the part of it, never skipped in silence. The solver's
budget is counted in its own steps (rlimit), not seconds, so a result is the same on any machine.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import sys
import time
import types
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from . import model as m
from .interp import EvalError, Interpreter, Record, from_json, index, item_exprs
from .pyexpr import nonzero_constant
from .types import BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type


def imported_when_used(name: str) -> types.ModuleType:
    """The module name, imported when first used (importlib.util.LazyLoader): z3 takes 35 ms to import,
    a tenth of a `rulec build` after an edit of a rule's words, which analyses no table."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, f"{name} is not installed"
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    import z3 as z3
else:  # analysis.py and conflicts.py take it from here (an `import z3` would import it at once)
    z3 = imported_when_used("z3")

# The solver's budget, in its own steps (about 6 million a second on this project's machines): for
# one question, and for all the questions of one table. A shipped table's questions take under 100,000.
QUESTION_RLIMIT = 5_000_000
TABLE_RLIMIT = 25_000_000
# Some of z3's procedures (nonlinear real arithmetic, conversions between whole and exact numbers)
# can run long without counting steps: a clock bounds each question and each table as well. Only a
# question that reaches it can answer differently on a slower machine (it is then "unknown": R304).
QUESTION_SECONDS = 2.0
TABLE_SECONDS = 8.0
MAX_REPRESENTATIVES = 16  # items standing for an input list (2**k for k aggregates, at most this)
MAX_DEPTH = 64  # definitions inlined inside one another
# Parts of expressions translated for one table, definitions inlined: a definition called again with
# the same arguments is translated once, but rules written to grow (each definition calling the one
# before with different arguments) still could without end. About 0.5 s of translation.
MAX_READS = 100_000


class Undecided(Exception):
    """A part of a condition the solver is not given: the expression and why."""

    def __init__(self, expr: m.Expr | None, why: str):
        super().__init__(why)
        self.expr = expr
        self.why = why


# ---- symbolic values ---------------------------------------------------------------------------
# bool: z3.BoolRef; int: an Int term; number: a Real term (an Int term where it is whole and
# nothing made it a Real yet); text: a String term; a list value: Enum; a record: Rec; a list or
# a set: Seq.


@dataclass(frozen=True)
class Enum:
    """A value of a list (enum): its index in the list's order, as an Int term."""

    enum: str
    i: z3.ArithRef


@dataclass
class Rec:
    """A record. An input's fields are made as they are read (by the translator that made it:
    input), so a state names only what the conditions read; a record written in the rules has
    every field."""

    record: str
    fields: dict[str, Any]
    input: str | None = None  # an input's name for the solver: 'u', 'h.units[0]'
    path: str | None = None  # and for a designer: 'u', 'h.units[]'


@dataclass
class Seq:
    """A list or a set: items, each with how many times it stands (None: exactly once, as written
    in the rules; an Int term >= 0: a representative of an input list). inexact: the list is an
    input, so only any, all, count, `in` and `len` over it are exact."""

    item: Type
    items: list[tuple[z3.ArithRef | None, Any]]
    is_set: bool = False
    inexact: bool = False


Sym = Any  # one of the above


@dataclass
class Reading:
    """A condition or value translated: the term, and when it can be worked out at all (a division
    by zero, a table no row of which matches, first of nothing: the interpreter raises there)."""

    v: Sym
    ok: z3.BoolRef


# ---- the translation -------------------------------------------------------------------------


@dataclass
class Inputs:
    """The table's inputs as symbols, and what every valid state meets (list indexes in range,
    counts not negative, the records' invariants)."""

    params: dict[str, Sym] = field(default_factory=dict)
    facts: list[z3.BoolRef] = field(default_factory=list)
    whole: list[z3.ArithRef] = field(default_factory=list)  # numbers a designer expects not negative
    counts: list[z3.ArithRef] = field(default_factory=list)
    unassumed: list[str] = field(default_factory=list)  # invariants not translated (checked on each state)
    inexact: list[m.Expr] = field(default_factory=list)  # aggregates found but not proved absent
    lists_read: bool = False  # an input list was gone over, tested with `in` or counted


class Translator:
    """Expressions of one model as z3 terms."""

    def __init__(self, model: m.Resolved, interp: Interpreter, representatives: int, ctx: z3.Context | None = None):
        self.model = model
        self.interp = interp
        self.enums = {e.name: e for e in model.enums}
        self.order = index(model).enum_order
        self.invariants = index(model).invariants  # made once per model, not per table
        self.representatives = representatives
        self.inputs = Inputs()
        self.depth = 0
        # A table's own context (or one shared by the translators of one question): what the solver
        # answers then depends on the question alone, not on what was asked before in the process.
        self.ctx = z3.Context() if ctx is None else ctx
        self.true, self.false = z3.BoolVal(True, self.ctx), z3.BoolVal(False, self.ctx)
        self._consts: dict[str, Sym] = {}
        self.touched: set[str] = set()  # the input fields read (a row's, when emptied before it)
        self.reads = 0  # parts translated, against MAX_READS
        # a definition's reading by its arguments (the arguments kept, so no key's id is reused),
        # with the input fields it read
        self._called: dict[tuple[Any, ...], tuple[list[Sym], Reading, frozenset[str]]] = {}
        self.loose = False  # read_ok: a choice between records or lists takes either

    def read_ok(self, e: m.Expr, env: dict[str, Sym]) -> z3.BoolRef:
        """When a value can be worked out, for a value the solver cannot hold whole: the first of a
        list of records, where only whether some item passes decides if there is an answer. A choice
        between two records or lists takes either of them, so what is read after the choice may be
        read of the wrong one: a state this gives is a guess, which the table analysis checks on the
        interpreter before it reports anything. The readings of calls made so are not kept."""
        called, self._called = self._called, {}
        self.loose = True
        try:
            return self.read(e, env).ok
        finally:
            self.loose = False
            self._called = called

    def every(self, xs: Any) -> z3.BoolRef:
        """And of the terms, leaving out those that are true as written (most `ok`s are)."""
        kept = []
        for x in xs:
            if x is self.false:
                return self.false
            if x is not self.true:
                kept.append(x)
        return self.true if not kept else kept[0] if len(kept) == 1 else z3.And(*kept)

    def some(self, xs: Any) -> z3.BoolRef:
        kept = []
        for x in xs:
            if x is self.true:
                return self.true
            if x is not self.false:
                kept.append(x)
        return self.false if not kept else kept[0] if len(kept) == 1 else z3.Or(*kept)

    def when(self, c: z3.BoolRef, a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
        """if c then a else b, for two conditions."""
        return a if a is b or c is self.true else b if c is self.false else z3.If(c, a, b)

    def total(self, xs: Any) -> z3.ArithRef:
        return _sum(xs, self.ctx)

    def present(self, count: z3.ArithRef | None) -> z3.BoolRef:
        return self.true if count is None else count > 0

    # -- inputs

    def fresh(self, t: Type, path: str) -> Sym:
        match t:
            case BoolT():
                return z3.Bool(path, self.ctx)
            case IntT():
                v = z3.Int(path, self.ctx)
                self.inputs.whole.append(v)
                return v
            case NumberT():
                r = z3.Real(path, self.ctx)
                self.inputs.whole.append(r)
                return r
            case TextT():
                return z3.String(path, self.ctx)
            case EnumT(name):
                i = z3.Int(path, self.ctx)
                self.inputs.facts += [i >= 0, i < len(self.order[name])]
                return Enum(name, i)
            case RecordT(name):
                return self.fresh_record(name, path)
            case ListT(item) | SetT(item):
                items: list[tuple[z3.ArithRef | None, Any]] = []
                is_set = isinstance(t, SetT)
                for n in range(self.representatives):
                    count = z3.Int(f"{path}#{n}", self.ctx)
                    self.inputs.counts.append(count)
                    self.inputs.facts.append(count >= 0)
                    if is_set:
                        self.inputs.facts.append(count <= 1)
                    items.append((count, self.fresh(item, f"{path}[{n}]")))
                if is_set:  # a set holds each item once: two representatives present are different
                    for (ca, a), (cb, b) in itertools.combinations(items, 2):
                        eq = self.equal(a, b, None)
                        self.inputs.facts.append(z3.Implies(z3.And(self.present(ca), self.present(cb)), z3.Not(eq)))
                return Seq(item, items, is_set, inexact=True)
        raise Undecided(None, f"an input of type {t}")

    def fresh_record(self, name: str, path: str) -> Rec:
        rec = Rec(name, {}, input=path, path=re.sub(r"\[\d+\]", "[]", path))
        for inv in self.invariants.get(name, []):
            try:
                got = self.call_define(inv, [rec])
                self.inputs.facts.append(z3.And(got.ok, got.v))
            except Undecided:
                self.inputs.unassumed.append(inv.name)
        return rec

    def field(self, rec: Rec, name: str) -> Sym:
        if rec.path is not None:
            self.touched.add(f"{rec.path}.{name}")
        if name not in rec.fields:
            if rec.input is None:
                raise Undecided(None, f"the field {name} of a {rec.record}")
            t = next(f.t for f in self.interp.records[rec.record].fields if f.name == name)
            rec.fields[name] = self.fresh(t, f"{rec.input}.{name}")
        return rec.fields[name]

    # -- values the rules write

    def concrete(self, value: Any, t: Type) -> Sym:
        """An interpreter value (a const, a default, a list setting) as a term."""
        match t:
            case BoolT():
                return z3.BoolVal(bool(value), self.ctx)
            case IntT():
                return z3.IntVal(int(value), self.ctx)
            case NumberT():
                f = Fraction(value)
                return (z3.IntVal(f.numerator, self.ctx) if f.denominator == 1
                        else z3.RealVal(f"{f.numerator}/{f.denominator}", self.ctx))
            case TextT():
                return z3.StringVal(value, self.ctx)
            case EnumT(name):
                return Enum(name, z3.IntVal(self.order[name].index(value), self.ctx))
            case RecordT(name):
                fields = {f.name: self.concrete(value[f.name], f.t) for f in self.interp.records[name].fields
                          if value.get(f.name) is not None}
                return Rec(name, fields)
            case ListT(item) | SetT(item):
                items = sorted(value, key=repr) if isinstance(value, frozenset) else list(value)
                return Seq(item, [(None, self.concrete(v, item)) for v in items], isinstance(t, SetT))
        raise Undecided(None, f"a value of type {t}")

    # -- expressions

    def read(self, e: m.Expr, env: dict[str, Sym]) -> Reading:
        self.reads += 1
        if self.reads > MAX_READS:
            raise Undecided(None, f"conditions that grow past {MAX_READS:,} parts once their definitions "
                                  "are written out")
        match e:
            case m.Lit(t=t, v=v):
                return Reading(self.concrete(v, t), self.true)
            case m.Var(name=name):
                return Reading(env[name], self.true)
            case m.Const(name=name, t=t):
                if name not in self._consts:
                    try:
                        self._consts[name] = self.concrete(self.interp._const(name), t)
                    except (EvalError, ArithmeticError, KeyError, TypeError, ValueError) as err:
                        raise Undecided(e, f"the constant {name}, which cannot be computed ({err})") from None
                return Reading(self._consts[name], self.true)
            case m.Member(enum=enum, name=name):
                return Reading(Enum(enum, z3.IntVal(self.order[enum].index(name), self.ctx)), self.true)
            case m.Field(of=of, name=name):
                got = self.read(of, env)
                if not isinstance(got.v, Rec):
                    raise Undecided(e, "a field of something that is not a record")
                return Reading(self.field(got.v, name), got.ok)
            case m.Attr(of=of, enum=enum, name=name, t=t):
                got = self.read(of, env)
                values = [self.concrete(from_json(dict(mem.attrs)[name].value, t), t)
                          for mem in self.enums[enum].members]
                return Reading(self.pick(got.v.i, values, e), got.ok)
            case m.Call(fn=fn, args=args):
                read = [self.read(a, env) for a in args]
                ok = self.every(r.ok for r in read)
                if fn in self.interp.defines:
                    got = self.call_define(self.interp.defines[fn], [r.v for r in read])
                elif fn in self.interp.tables:
                    got = self.call_table(self.interp.tables[fn], [r.v for r in read])
                else:
                    raise Undecided(e, f"the breaches of the limits {fn}")
                return Reading(got.v, self.every((ok, got.ok)))
            case m.Op():
                return self.op(e, env)
            case m.If(cond=cond, then=then, else_=else_):
                c, a, b = self.read(cond, env), self.read(then, env), self.read(else_, env)
                return Reading(self.choose(c.v, a.v, b.v, e), self.every((c.ok, self.when(c.v, a.ok, b.ok))))
            case m.Let(name=name, value=value, body=body):
                bound = self.read(value, env)
                got = self.read(body, {**env, name: bound.v})
                return Reading(got.v, self.every((bound.ok, got.ok)))
            case m.Builtin():
                return self.builtin(e, env)
            case m.Agg():
                return self.agg(e, env)
            case m.RecordLit(record=record, fields=fields):
                given = {n: self.read(v, env) for n, v in fields}
                made: dict[str, Sym] = {}
                for rf in self.interp.records[record].fields:
                    if rf.name in given:
                        made[rf.name] = given[rf.name].v
                    elif rf.default is not None:
                        made[rf.name] = self.concrete(from_json(rf.default, rf.t), rf.t)
                return Reading(Rec(record, made), self.every(r.ok for r in given.values()))
            case m.ListLit(t=t, items=items) | m.SetLit(t=t, items=items):
                read = [self.read(i, env) for i in items]
                item = t.item if isinstance(t, (ListT, SetT)) else None
                if item is None:
                    raise Undecided(e, "a list of no known type")
                if isinstance(e, m.ListLit):
                    return Reading(Seq(item, [(None, r.v) for r in read]), self.every(r.ok for r in read))
                # A set holds an item once: one written again ({2, 2}, {x, y} where x is y) is not there.
                counted: list[tuple[z3.ArithRef | None, Any]] = []
                for n, r in enumerate(read):
                    again = self.some(self.equal(r.v, earlier.v, e) for earlier in read[:n])
                    counted.append((None, r.v) if again is self.false else
                                   (z3.If(again, z3.IntVal(0, self.ctx), z3.IntVal(1, self.ctx)), r.v))
                return Reading(Seq(item, counted, is_set=True), self.every(r.ok for r in read))
        raise Undecided(e, "an expression with a mistake in it")

    def call_define(self, d: m.Define, args: list[Sym]) -> Reading:
        if self.depth >= MAX_DEPTH:
            raise Undecided(None, f"definitions called inside one another more than {MAX_DEPTH} deep")
        key = (d.name, *(_key(a) for a in args))
        if key in self._called:
            _, got, touched = self._called[key]
            self.touched |= touched
            return got
        outer, self.touched = self.touched, set()
        self.depth += 1
        try:
            env = dict(zip((p.name for p in d.params), args, strict=False))
            got = self.read(d.body, env)
            if d.requires is not None:  # outside the inputs it answers, it has no answer
                req = self.read(d.requires, env)
                got = Reading(got.v, self.every((req.ok, req.v, got.ok)))
        finally:
            self.depth -= 1
            inner, self.touched = self.touched, outer | self.touched
        self._called[key] = (args, got, frozenset(inner))
        return got

    def call_table(self, t: m.Table, args: list[Sym]) -> Reading:
        """The first row that matches, as the interpreter reads them: a row whose condition cannot
        be worked out stops the table, and no row matching is no answer."""
        if self.depth >= MAX_DEPTH:
            raise Undecided(None, f"tables called inside one another more than {MAX_DEPTH} deep")
        self.depth += 1
        try:
            env = dict(zip((p.name for p in t.params), args, strict=False))
            value: Sym | None = None
            ok: z3.BoolRef = self.false
            for row in reversed(t.rows):
                v = self.read(row.value, env)
                if row.when is None:
                    value, ok = v.v, v.ok
                    continue
                w = self.read(row.when, env)
                value = v.v if value is None else self.choose(w.v, v.v, value, row.value)
                ok = self.every((w.ok, self.when(w.v, v.ok, ok)))
            if value is None:
                raise Undecided(None, f"the table {t.name}, which has no rows")
            if t.requires is not None:  # outside the inputs it answers, it has no answer
                req = self.read(t.requires, env)
                ok = self.every((req.ok, req.v, ok))
            return Reading(value, ok)
        finally:
            self.depth -= 1

    def call_limits(self, g: m.Limits, args: list[Sym]) -> dict[str, tuple[z3.BoolRef, Sym, Sym, z3.BoolRef]]:
        """What a limits group answers, limit by limit: (broken, total, bound, can be worked out),
        as the interpreter reads it (an `unless` that holds, or an exception, and no limit is broken)."""
        env = dict(zip((p.name for p in g.params), args, strict=False))
        unless = [self.read(u.cond, env) for u in g.unless]
        spared = self.some(u.v for u in unless)
        ok = self.every(u.ok for u in unless)
        out = {}
        for item in g.items:
            exempt = [self.read(x.cond, env) for x in item.exempt]
            total, bound = self.read(item.measure, env), self.read(item.bound, env)
            x, y = _same_sort(_num(total.v, item.measure), _num(bound.v, item.bound))
            free = z3.Or(spared, self.some(x_.v for x_ in exempt))
            can = z3.And(ok, z3.Or(spared, z3.And(self.every(x_.ok for x_ in exempt),
                                                    z3.Or(free, z3.And(total.ok, bound.ok)))))
            out[item.name] = (z3.And(z3.Not(free), x > y), total.v, bound.v, can)
        return out

    def op(self, e: m.Op, env: dict[str, Sym]) -> Reading:
        op, args = e.op, e.args
        if op in ("and", "or"):
            a, b = self.read(args[0], env), self.read(args[1], env)
            if op == "and":  # b is read only when a is true
                return Reading(z3.And(a.v, b.v), self.every((a.ok, self.some((z3.Not(a.v), b.ok)))))
            return Reading(z3.Or(a.v, b.v), self.every((a.ok, self.some((a.v, b.ok)))))
        if op == "not":
            a = self.read(args[0], env)
            return Reading(z3.Not(a.v), a.ok)
        if op == "neg":
            a = self.read(args[0], env)
            return Reading(-_num(a.v, args[0]), a.ok)
        a, b = self.read(args[0], env), self.read(args[1], env)
        ok = self.every((a.ok, b.ok))
        if op in ("+", "-", "*"):
            x, y = _same_sort(_num(a.v, args[0]), _num(b.v, args[1]))
            return Reading(x + y if op == "+" else x - y if op == "-" else x * y, ok)
        if op == "/":
            x, y = z3.ToReal(_num(a.v, args[0])) if _is_int(a.v) else a.v, _num(b.v, args[1])
            y = z3.ToReal(y) if _is_int(y) else y
            return Reading(x / y, z3.And(ok, y != 0))
        if op in ("==", "!="):
            eq = self.equal(a.v, b.v, e)
            return Reading(eq if op == "==" else z3.Not(eq), ok)
        if op in ("<", "<=", ">", ">="):
            x, y = a.v, b.v
            if isinstance(x, Enum) and isinstance(y, Enum):
                x, y = x.i, y.i
            elif not (_is_arith(x) and _is_arith(y)):
                raise Undecided(e, "an order of values that are not numbers or ordered list values")
            x, y = _same_sort(x, y)
            return Reading({"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op], ok)
        if op in ("in", "not in"):
            if not isinstance(b.v, Seq):
                raise Undecided(e, "'in' of something that is not a list or set")
            self.inputs.lists_read |= b.v.inexact
            found = self.some(z3.And(self.present(c), self.equal(a.v, item, e)) for c, item in b.v.items)
            return Reading(found if op == "in" else z3.Not(found), ok)
        raise Undecided(e, f"the operator {op}")

    def equal(self, a: Sym, b: Sym, e: m.Expr | None) -> z3.BoolRef:
        if isinstance(a, Enum) and isinstance(b, Enum):
            return a.i == b.i
        if isinstance(a, Rec) and isinstance(b, Rec):
            fields = self.interp.records[a.record].fields
            return self.every(self.equal(self.field(a, f.name) if f.name in a.fields or a.input else self.default(f),
                                         self.field(b, f.name) if f.name in b.fields or b.input else self.default(f), e)
                        for f in fields)
        if isinstance(a, Seq) or isinstance(b, Seq):
            if isinstance(a, Seq) and isinstance(b, Seq) and not (a.inexact or b.inexact) \
                    and not (a.is_set or b.is_set) and len(a.items) == len(b.items):
                return self.every(self.equal(x, y, e) for (_, x), (_, y) in zip(a.items, b.items, strict=True))
            raise Undecided(e, "a list or set compared with another")
        if _is_arith(a) and _is_arith(b):
            x, y = _same_sort(a, b)
            return x == y
        return a == b

    def default(self, f: m.RecordField) -> Sym:
        if f.default is None:
            raise Undecided(None, f"the field {f.name}, which has no default")
        return self.concrete(from_json(f.default, f.t), f.t)

    def pick(self, i: z3.ArithRef, values: list[Sym], e: m.Expr) -> Sym:
        """values[i] for a symbolic index."""
        out = values[-1]
        for n in range(len(values) - 2, -1, -1):
            out = self.choose(i == n, values[n], out, e)
        return out

    def choose(self, c: z3.BoolRef, a: Sym, b: Sym, e: m.Expr) -> Sym:
        """if c then a else b, for values of one type."""
        if isinstance(a, Enum) and isinstance(b, Enum):
            return Enum(a.enum, z3.If(c, a.i, b.i))
        if isinstance(a, Rec) or isinstance(b, Rec) or isinstance(a, Seq) or isinstance(b, Seq):
            if a is b or self.loose:
                return a
            raise Undecided(e, "a choice between two records or lists")
        if _is_arith(a) and _is_arith(b):
            a, b = _same_sort(a, b)
        elif not (isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef) and a.sort() == b.sort()):
            raise Undecided(e, "a choice between values of different kinds")
        return z3.If(c, a, b)

    def nothing(self, t: Type, e: m.Expr) -> Sym:
        """A value of type t that stands where there is none (first of an empty list): never read, as
        what it is part of cannot be worked out there."""
        match t:
            case BoolT():
                return self.false
            case IntT():
                return z3.IntVal(0, self.ctx)
            case NumberT():
                return z3.RealVal(0, self.ctx)
            case TextT():
                return z3.StringVal("", self.ctx)
            case EnumT(name):
                return Enum(name, z3.IntVal(0, self.ctx))
        raise Undecided(e, f"a {t} from an empty list")

    def builtin(self, e: m.Builtin, env: dict[str, Sym]) -> Reading:
        read = [self.read(a, env) for a in e.args]
        ok = self.every(r.ok for r in read)
        vals = [r.v for r in read]
        fn = e.fn
        if fn == "floor":
            return Reading(z3.ToInt(vals[0]) if not _is_int(vals[0]) else vals[0], ok)
        if fn == "ceil":
            return Reading(-z3.ToInt(-vals[0]) if not _is_int(vals[0]) else vals[0], ok)
        if fn == "abs":
            return Reading(z3.If(vals[0] < 0, -vals[0], vals[0]), ok)
        if fn == "len":
            seq = vals[0]
            if not isinstance(seq, Seq):
                raise Undecided(e, "len of something that is not a list")
            self.inputs.lists_read |= seq.inexact
            return Reading(self.total(_times(c, z3.IntVal(1, self.ctx)) for c, _ in seq.items), ok)
        if fn == "step" and isinstance(vals[0], Enum):
            n = len(self.order[vals[0].enum])
            i = vals[0].i + vals[1]
            i = i % n if e.cyclic else z3.If(i < 0, 0, z3.If(i > n - 1, n - 1, i))
            return Reading(Enum(vals[0].enum, i), ok)
        if fn in ("min", "max"):
            best = vals[0]
            for v in vals[1:]:
                if isinstance(best, Enum) and isinstance(v, Enum):
                    take = v.i < best.i if fn == "min" else v.i > best.i
                else:
                    x, y = _same_sort(v, best)
                    take = x < y if fn == "min" else x > y
                best = self.choose(take, v, best, e)
            return Reading(best, ok)
        raise Undecided(e, f"the builtin {fn}")

    def agg(self, e: m.Agg, env: dict[str, Sym]) -> Reading:
        over = self.read(e.over, env)
        seq = over.v
        if not isinstance(seq, Seq):
            raise Undecided(e, "an aggregate over something that is not a list")
        fn = e.fn
        self.inputs.lists_read |= seq.inexact
        if seq.inexact and fn not in ("any", "all", "count"):
            self.inputs.inexact.append(e)
        # Each item: present (how many times), passes `where`, its body; all worked out on the item.
        parts: list[tuple[z3.ArithRef | None, z3.BoolRef, Reading | None, z3.BoolRef]] = []
        for count, item in seq.items:
            inner = {**env, e.var: item}
            w = self.read(e.where, inner) if e.where is not None else Reading(self.true, self.true)
            body = self.read(e.body, inner) if fn != "count" else None
            oks = [w.ok] + ([self.some((z3.Not(w.v), body.ok))] if body is not None else [])
            parts.append((count, w.v, body, self.every(oks)))
        ok = self.every((over.ok, *(item_ok if c is None else z3.Implies(c > 0, item_ok)
                                    for c, _, _, item_ok in parts if item_ok is not self.true)))
        if fn == "any":
            return Reading(self.some(z3.And(self.present(c), w, b.v) for c, w, b, _ in parts if b is not None), ok)
        if fn == "all":
            return Reading(self.every(z3.Implies(z3.And(self.present(c), w), b.v)
                                      for c, w, b, _ in parts if b is not None), ok)
        if fn == "count":
            return Reading(self.total(z3.If(w, _times(c, z3.IntVal(1, self.ctx)), 0) for c, w, _, _ in parts), ok)
        if fn == "sum":
            terms = [z3.If(w, _times(c, _num(b.v, e.body)), 0) for c, w, b, _ in parts if b is not None]
            return Reading(self.total(terms), ok)
        if fn in ("min", "max", "first"):
            passing = [(z3.And(self.present(c), w), b.v) for c, w, b, _ in parts if b is not None]
            if not passing:
                return Reading(self.nothing(e.t, e), self.false)
            some = self.some(p for p, _ in passing)
            best = passing[-1][1]
            found = passing[-1][0]
            for p, v in reversed(passing[:-1]):
                if fn == "first":
                    best = self.choose(p, v, best, e)
                else:
                    if isinstance(v, Enum):
                        better = v.i < best.i if fn == "min" else v.i > best.i
                    else:
                        x, y = _same_sort(v, best)
                        better = x < y if fn == "min" else x > y
                    best = self.choose(z3.And(p, z3.Or(z3.Not(found), better)), v, best, e)
                found = z3.Or(found, p)
            return Reading(best, self.every((ok, some)))
        raise Undecided(e, f"the aggregate {fn}")


def _key(v: Sym) -> Any:
    """An argument as a memo key: a term by its id (z3 makes one term of equal terms), a list
    value by its index's, anything else by the object itself."""
    if isinstance(v, z3.AstRef):
        return ("term", v.get_id())
    if isinstance(v, Enum):
        return ("enum", v.i.get_id())
    return ("object", id(v))


def _num(v: Sym, e: m.Expr) -> z3.ArithRef:
    if not _is_arith(v):
        raise Undecided(e, "arithmetic on something that is not a number")
    return v


def _is_arith(v: Sym) -> bool:
    return isinstance(v, z3.ArithRef)


def _is_int(v: Sym) -> bool:
    return isinstance(v, z3.ArithRef) and v.is_int()


def _same_sort(a: z3.ArithRef, b: z3.ArithRef) -> tuple[z3.ArithRef, z3.ArithRef]:
    if a.is_int() and not b.is_int():
        return z3.ToReal(a), b
    if b.is_int() and not a.is_int():
        return a, z3.ToReal(b)
    return a, b



def _times(count: z3.ArithRef | None, v: z3.ArithRef) -> z3.ArithRef:
    if count is None:
        return v
    return count if z3.is_int_value(v) and v.as_long() == 1 else (z3.ToReal(count) if not v.is_int() else count) * v




def _sum(xs: Any, ctx: z3.Context) -> z3.ArithRef:
    xs = list(xs)
    if not xs:
        return z3.IntVal(0, ctx)
    if any(not x.is_int() for x in xs):
        xs = [z3.ToReal(x) if x.is_int() else x for x in xs]
    return xs[0] if len(xs) == 1 else z3.Sum(*xs)


# ---- states: a solver's model as the interpreter's values, and as rules text --------------------


class Solver:
    """The questions of one table, each asked on its own (push, pop) with what every valid state
    meets, within the table's budget of solver steps (TABLE_RLIMIT): once it is spent,
    every answer is "unknown"."""

    def __init__(self, tr: Translator, params: dict[str, Any], types: tuple[m.Param, ...]):
        self.tr = tr
        self.params = [(p.name, params[p.name], p.t) for p in types]
        self.s = z3.Solver(ctx=tr.ctx)
        self.added = 0  # how many of tr.inputs.facts the solver holds
        self.left = TABLE_RLIMIT
        self.until = time.monotonic() + TABLE_SECONDS

    def _facts(self) -> None:
        """What every valid state meets, as far as the translator knows it now: a field read first
        by a question (a value two rows give) brings its own facts (a list value's index in range)."""
        facts = self.tr.inputs.facts
        if self.added < len(facts):
            self.s.add(*facts[self.added:])
            self.added = len(facts)

    def _check(self) -> Any:
        seconds = min(QUESTION_SECONDS, self.until - time.monotonic())
        if self.left <= 0 or seconds <= 0:
            return z3.unknown
        before = self._spent()
        self.s.set("rlimit", min(QUESTION_RLIMIT, self.left))
        self.s.set("timeout", max(1, int(seconds * 1000)))
        verdict = self.s.check()
        self.left -= self._spent() - before
        return verdict

    def _spent(self) -> int:
        """The solver's steps so far ("rlimit count" of its statistics; its place among them is
        found once, not looked up by name every time: that walks every key through the C API)."""
        stats = self.s.statistics()
        ref, ctx = stats.stats, stats.ctx.ref()
        at = self._rlimit_at
        if at is None or at >= len(stats) or z3.Z3_stats_get_key(ctx, ref, at) != "rlimit count":
            at = self._rlimit_at = next((i for i in range(len(stats))
                                         if z3.Z3_stats_get_key(ctx, ref, i) == "rlimit count"), None)
        return 0 if at is None else int(z3.Z3_stats_get_uint_value(ctx, ref, at))

    _rlimit_at: int | None = None

    def spent(self) -> bool:
        """The table's budget is gone: every later question is "unknown" without asking (even
        putting a question to the solver took time, 6 s of a 1,000-row table's 15)."""
        return self.left <= 0 or time.monotonic() >= self.until

    def check(self, formula: z3.BoolRef) -> str:
        if self.spent():
            return str(z3.unknown)
        self._facts()
        self.s.push()
        try:
            self.s.add(formula)
            return str(self._check())
        finally:
            self.s.pop()

    def state(self, formula: z3.BoolRef) -> State | None:
        """An input for which formula holds, as the interpreter's values, or None if there is none
        (or none found within the budget). One a designer reads easily is tried first: numbers
        not negative, and input lists of one item in all, else three, else eight."""
        if self.spent():
            return None
        self._facts()
        self.s.push()
        try:
            self.s.add(formula)
            if self._check() != z3.sat:
                return None
            zm = self.s.model()
            counts = self.tr.inputs.counts
            for most in ((1, 3, 8) if counts else (0,)):
                self.s.push()
                self.s.add(*(x >= 0 for x in self.tr.inputs.whole))
                if counts:
                    self.s.add(z3.Sum(*counts) <= most)
                found = self._check() == z3.sat
                if found:
                    zm = self.s.model()
                self.s.pop()
                if found:
                    break
            states = States(self.tr)
            found = State({name: states.value(zm, sym, t, name) for name, sym, t in self.params})
            found.read = frozenset(states.read)
            found.approximate = states.approximate
            return found
        finally:
            self.s.pop()


def representatives(interp: Interpreter, exprs: list[m.Expr]) -> tuple[int, bool]:
    """How many items stand for an input list: 2**k for the k different tests of an item that the
    expressions make (the `where` and body of an aggregate, the item an `in` looks for; followed
    through calls), at least one and at most MAX_REPRESENTATIVES; and whether that is fewer than
    2**k (then an input list's answers are found but not proved absent). An item matters to any,
    all, count, `in` and `len` only through which of the k tests it passes, so 2**k kinds of item,
    each present any number of times, give every answer a list can give."""
    tests: set[str] = set()
    seen: set[str] = set()
    todo = list(exprs)
    while todo:
        for x in m.walk(todo.pop()):
            match x:
                case m.Agg(var=var, where=where, body=body, fn=fn):
                    parts = [where] + ([body] if fn != "count" else [])
                    tests |= {f"{fn} {_renamed(p, var)}" for p in parts if p is not None}
                case m.Op(op="in" | "not in", args=(item, _)):
                    tests.add(f"in {source(item)}")
                case m.Call(fn=fn) if fn not in seen:
                    seen.add(fn)
                    callee = interp.defines.get(fn) or interp.tables.get(fn)
                    if callee is not None:
                        todo += item_exprs(callee)
    wanted = 2 ** min(len(tests), 10)
    return max(1, min(wanted, MAX_REPRESENTATIVES)), wanted > MAX_REPRESENTATIVES


def can_fail(interp: Interpreter, exprs: list[m.Expr]) -> bool:
    """Whether working out the expressions may stop with no answer for some input, as the
    interpreter does at a division by zero, at the first, min or max of nothing, and at a table
    that answers nothing; followed through the definitions and tables they call. Where none can,
    a row's condition is always either true or false, and a few plain inputs may show a table whole."""
    safe = _NEVER_FAILING.setdefault(interp.model, set())  # what earlier tables' walks went through
    seen: set[str] = set()
    todo = list(exprs)
    while todo:
        for x in m.walk(todo.pop()):
            match x:
                case m.Op(op="/", args=(_, divisor)) if nonzero_constant(divisor):
                    pass  # a number written as a fraction (1/2), or halved: its divisor is never 0
                case m.Op(op="/") | m.Agg(fn="first" | "min" | "max"):
                    return True
                case m.Call(fn=fn) if fn not in seen and fn not in safe:
                    seen.add(fn)
                    if fn in interp.defines:
                        if interp.defines[fn].requires is not None:
                            return True
                        todo.append(interp.defines[fn].body)
                    elif fn in interp.tables:
                        rows = interp.tables[fn].rows
                        if not rows or rows[-1].when is not None or interp.tables[fn].requires is not None:
                            return True
                        todo += [e for r in rows for e in (r.when, r.value) if e is not None]
    safe |= seen  # every definition and table the walk went through, and all they call, cannot fail
    return False


# Per model, the definitions and tables can_fail found cannot stop with no answer: each table's
# walk goes through those of the tables before it only once (a 10,000-clause build asks for most).
_NEVER_FAILING: weakref.WeakKeyDictionary[m.Resolved, set[str]] = weakref.WeakKeyDictionary()


def _renamed(e: m.Expr, var: str) -> str:
    """A test of an item as text, whatever its variable is called."""
    return re.sub(rf"(?<![.\w]){re.escape(var)}\b", "\x00", source(e))


class State(dict[str, Any]):
    """An input of a table found by the solver: each parameter's value as the interpreter takes it,
    and the fields the conditions read (shown in its rules text whatever their value)."""

    read: frozenset[str] = frozenset()
    # A number the solver gave is irrational (x * x == 2 holds only for the square root of 2): the
    # state holds a fraction within 10**-APPROXIMATE of it, which the interpreter may not agree with.
    approximate: bool = False


APPROXIMATE = 20  # decimal places of a rational stand-in for an irrational number the solver gives


class States:
    """Turns a solver model into the interpreter's values of the inputs, and notes which fields
    the conditions read (read: 'u.size', 'h.units[].type'), which a state shows whatever their value."""

    def __init__(self, tr: Translator):
        self.tr = tr
        self.read: set[str] = set()
        self.approximate = False  # a number was irrational: see State.approximate

    def value(self, zm: z3.ModelRef, sym: Sym, t: Type, path: str = "") -> Any:
        match t:
            case BoolT():
                return z3.is_true(zm.eval(sym, model_completion=True))
            case IntT():
                return zm.eval(sym, model_completion=True).as_long()
            case NumberT():
                v = zm.eval(sym, model_completion=True)
                if z3.is_algebraic_value(v):  # no rulec input is irrational: a fraction near it
                    v = v.approx(APPROXIMATE)
                    self.approximate = True
                f = Fraction(v.as_long()) if z3.is_int_value(v) else v.as_fraction()
                return int(f) if f.denominator == 1 else f
            case TextT():
                return zm.eval(sym, model_completion=True).as_string()
            case EnumT(name):
                return self.tr.order[name][zm.eval(sym.i, model_completion=True).as_long()]
            case RecordT(name):
                out = Record()
                for f in self.tr.interp.records[name].fields:
                    if f.name in sym.fields:
                        self.read.add(f"{path}.{f.name}")
                        out[f.name] = self.value(zm, sym.fields[f.name], f.t, f"{path}.{f.name}")
                    elif f.default is not None:
                        out[f.name] = from_json(f.default, f.t)
                    else:
                        out[f.name] = self.blank(f.t)
                return out
            case ListT(item) | SetT(item):
                items = []
                for count, s in sym.items:
                    n = 1 if count is None else zm.eval(count, model_completion=True).as_long()
                    items += [self.value(zm, s, item, f"{path}[]")] * n
                return frozenset(items) if isinstance(t, SetT) else tuple(items)
        raise Undecided(None, f"a value of type {t}")

    def blank(self, t: Type) -> Any:
        """A value for a field no condition reads and that has no default."""
        return blank(t, self.tr.interp, self.tr.order)


def blank(t: Type, interp: Interpreter, order: dict[str, list[str]]) -> Any:
    """The plainest value of a type: false, 0, "", a list's first value, no items, a record of its
    defaults (and of the plainest values where a field has none)."""
    match t:
        case BoolT():
            return False
        case IntT() | NumberT():
            return 0
        case TextT():
            return ""
        case EnumT(name):
            return order[name][0]
        case RecordT(name):
            return interp.default_record(name, {f.name: blank(f.t, interp, order)
                                                for f in interp.records[name].fields if f.default is None})
        case ListT():
            return ()
        case SetT():
            return frozenset()
    raise Undecided(None, f"a value of type {t}")


def literal(value: Any, t: Type, records: dict[str, m.RecordDef], path: str = "",
            read: frozenset[str] | set[str] = frozenset()) -> str:
    """A value as the rules write it: `Unit { mode: dg, ma: 16 }`, `"Jock Column"`, `1/2`. A record
    shows the fields at a path in read, those that differ from their defaults, and those without one."""
    match t:
        case BoolT():
            return "true" if value else "false"
        case IntT() | NumberT():
            f = Fraction(value)
            return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
        case TextT():
            return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        case EnumT():
            return str(value)
        case RecordT(name):
            shown = []
            for rf in records[name].fields:
                v = value[rf.name]
                default = from_json(rf.default, rf.t) if rf.default is not None else None
                at = f"{path}.{rf.name}"
                if at not in read and default is not None and v == default and type(v) is type(default):
                    continue
                shown.append(f"{rf.name}: {literal(v, rf.t, records, at, read)}")
            return f"{name} {{ {', '.join(shown)} }}" if shown else f"{name} {{}}"
        case ListT(item):
            return "[" + ", ".join(literal(v, item, records, f"{path}[]", read) for v in value) + "]"
        case SetT(item):
            return "{" + ", ".join(sorted(literal(v, item, records, f"{path}[]", read) for v in value)) + "}"
    return repr(value)


_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4, "not in": 4,
         "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7}


def source(e: m.Expr, outer: int = 0) -> str:
    """An expression as the rules write it (for a diagnostic): `u.marks == ["Low", "Exhausted"]`."""
    match e:
        case m.Lit(t=t, v=v):
            return literal(v, t, {})
        case m.Var(name=name) | m.Const(name=name) | m.Member(name=name):
            return name
        case m.Field(of=of, name=name) | m.Attr(of=of, name=name):
            return f"{source(of, 9)}.{name}"
        case m.Call(fn=fn, args=args) | m.Builtin(fn=fn, args=args):
            return f"{fn}({', '.join(source(a) for a in args)})"
        case m.Op(op=op, args=args):
            prec = _PREC[op]
            if op == "not":
                text = f"not {source(args[0], prec)}"
            elif op == "neg":
                text = f"-{source(args[0], prec)}"
            else:
                text = f"{source(args[0], prec)} {op} {source(args[1], prec + 1)}"
            return f"({text})" if prec < outer else text
        case m.If(cond=cond, then=then, else_=else_):
            text = f"if {source(cond)} then {source(then)} else {source(else_)}"
            return f"({text})" if outer else text
        case m.Let(name=name, value=value, body=body):
            text = f"let {name} = {source(value)}; {source(body)}"
            return f"({text})" if outer else text
        case m.Agg(fn=fn, var=var, over=over, where=where, body=body):
            held = f" where {source(where)}" if where is not None else ""
            inner = var if fn == "count" else source(body)
            return f"{fn}({inner} for {var} in {source(over)}{held})"
        case m.RecordLit(record=record, fields=fields):
            return f"{record} {{ {', '.join(f'{n}: {source(v)}' for n, v in fields)} }}"
        case m.ListLit(items=items):
            return "[" + ", ".join(source(i) for i in items) + "]"
        case m.SetLit(items=items):
            return "{" + ", ".join(source(i) for i in items) + "}"
    return "..."


# ---- plain inputs to try first ------------------------------------------------------------------

MAX_PROBES = 300


def probes(model: m.Resolved, interp: Interpreter, table: m.Table) -> Iterator[dict[str, Any]]:
    """Plain, valid inputs of a table, to try on the interpreter before starting the solver: every
    parameter at its default, then one value changed at a time, then two (each value of a list or
    yes/no field or parameter the conditions read, the whole numbers they name and one either side,
    the texts they name), at most MAX_PROBES in all, always in the same order."""
    exprs: list[m.Expr] = []
    seen: set[str] = set()
    todo = [e for r in table.rows for e in (r.when,) if e is not None]
    reads: dict[str, set[str]] = {}
    numbers: set[Fraction] = {Fraction(0), Fraction(1)}
    texts: set[str] = {""}
    while todo:
        e = todo.pop()
        exprs.append(e)
        for x in m.walk(e):
            match x:
                case m.Field(of=of, name=name) if isinstance(of.t, RecordT):
                    reads.setdefault(of.t.name, set()).add(name)
                case m.Lit(t=IntT() | NumberT(), v=v) if not isinstance(v, (bool, str)):
                    numbers |= {Fraction(v) - 1, Fraction(v), Fraction(v) + 1}
                case m.Lit(t=TextT(), v=v):
                    texts.add(str(v))
                case m.Const(name=name, t=IntT() | NumberT()):
                    try:
                        c = Fraction(interp._const(name))
                        numbers |= {c - 1, c, c + 1}
                    except (EvalError, ArithmeticError, KeyError, TypeError, ValueError):
                        pass
                case m.Call(fn=fn) if fn not in seen:
                    seen.add(fn)
                    callee = interp.defines.get(fn) or interp.tables.get(fn)
                    if callee is not None:
                        todo += item_exprs(callee)
    order = interp.enum_order
    records = interp.records

    def candidates(t: Type) -> list[Any]:
        match t:
            case BoolT():
                return [False, True]
            case EnumT(name):
                return list(order[name])
            case IntT():
                return sorted({int(n) for n in numbers if n.denominator == 1})
            case NumberT():
                return [int(n) if n.denominator == 1 else n for n in sorted(numbers)]
            case TextT():
                return sorted(texts)
        return []

    def plain(t: Type) -> Any:
        return blank(t, interp, order)

    # Each change: (parameter, the path of fields under it, value); a list's one item counts as a field.
    changes: list[tuple[str, tuple[str, ...], Any]] = []

    def changes_of(param: str, path: tuple[str, ...], t: Type, depth: int) -> None:
        match t:
            case RecordT(name) if depth < 3:
                for f in records[name].fields:
                    if f.name in reads.get(name, ()):
                        changes_of(param, (*path, f.name), f.t, depth + 1)
            case ListT(item) | SetT(item) if depth < 3:
                changes.append((param, path, ("item", plain(item))))
                changes_of(param, (*path, "[0]"), item, depth + 1)
            case _:
                changes.extend((param, path, v) for v in candidates(t))

    base = {p.name: plain(p.t) for p in table.params}
    types = {p.name: p.t for p in table.params}
    for p in table.params:
        changes_of(p.name, (), p.t, 0)

    def changed(state: dict[str, Any], change: tuple[str, tuple[str, ...], Any]) -> dict[str, Any]:
        param, path, value = change
        state = dict(state)
        state[param] = _put(state[param], types[param], path, value, plain, records)
        return state

    made = 0
    everything = range(len(changes))
    for group in (((),), itertools.combinations(everything, 1), itertools.combinations(everything, 2)):
        for picked in group:
            state = base
            for i in picked:
                state = changed(state, changes[i])
            made += 1
            if made > MAX_PROBES:
                return
            yield state


def _put(value: Any, t: Type, path: tuple[str, ...], new: Any, plain: Any, records: dict[str, m.RecordDef]) -> Any:
    """value with the part at path set to new (a list's item '[0]': its one item, made if missing)."""
    if not path:
        if isinstance(new, tuple) and len(new) == 2 and new[0] == "item":
            return frozenset([new[1]]) if isinstance(t, SetT) else (new[1],)
        return new
    head, rest = path[0], path[1:]
    if head == "[0]" and isinstance(t, (ListT, SetT)):
        items = list(value) or [plain(t.item)]
        first = _put(items[0], t.item, rest, new, plain, records)
        return frozenset([first]) if isinstance(t, SetT) else (first,)
    if isinstance(t, RecordT) and isinstance(value, dict):
        out = Record(value)
        field_t = next(f.t for f in records[t.name].fields if f.name == head)
        out[head] = _put(value[head], field_t, rest, new, plain, records)
        return out
    return value
