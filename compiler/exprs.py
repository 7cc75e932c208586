"""Type-check expressions, building their typed nodes (model.py).

Every mistake is a diagnostic; the node of a wrong expression is `Error`, of type any, so
one mistake is reported once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from . import ast
from . import model as m
from . import types as ty
from .diagnostics import Diagnostic, Span, did_you_mean
from .model import Value
from .types import (
    ANY,
    BOOL,
    INT,
    NUMBER,
    TEXT,
    AnyT,
    BoolT,
    EnumT,
    IntT,
    ListT,
    NumberT,
    RecordT,
    SetT,
    Type,
    describe,
    is_numeric,
    parse_type,
)

BUILTINS: dict[str, str] = {
    "floor": "round a number down to a whole number",
    "ceil": "round a number up to a whole number",
    "abs": "the size of a number without its sign",
    "min": "the smallest of its arguments",
    "max": "the largest of its arguments",
    "len": "the number of items in a list",
    "step": "step(level, n): n levels up (or down, for n < 0) an ordered list, stopping at its ends; "
            "around a cyclic one",
}
AGGREGATES: dict[str, str] = {
    "sum": "the total of the values",
    "count": "how many items there are",
    "any": "whether at least one is true",
    "all": "whether every one is true",
    "min": "the smallest value",
    "max": "the largest value",
    "product": "all the values multiplied",
    "first": "the value for the first item (in list order) that passes 'where'",
}

Locals = dict[str, Type]


@dataclass(frozen=True)
class Signature:
    params: tuple[tuple[str, Type], ...]
    returns: Type
    kind: str  # define | table | limits | builtin


@dataclass(frozen=True)
class EnumInfo:
    name: str
    members: tuple[str, ...]
    attrs: dict[str, Type]
    ordered: bool
    cyclic: bool = False


class Scope(Protocol):
    def const_type(self, name: str) -> Type | None: ...
    def signature(self, name: str) -> Signature | None: ...
    def enum(self, name: str) -> EnumInfo | None: ...
    def record(self, name: str) -> dict[str, tuple[Type, bool]] | None: ...
    def enums_with_member(self, name: str) -> list[str]: ...
    def names(self) -> list[str]: ...


@dataclass
class Lowerer:
    """Type-checks expressions in one scope and builds their typed nodes, collecting diagnostics
    and the names called."""

    scope: Scope
    diags: list[Diagnostic] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> m.Error:
        self.diags.append(Diagnostic(span, code, message, hint=hint))
        return m.Error()

    def expect(self, expr: ast.Expr, want: Type, local: Locals, what: str) -> m.Expr:
        node = self.lower(expr, local, want)
        if not ty.assignable(node.t, want):
            self.error(expr.span, "R201", f"{what} must be {describe(want)}, but this is {describe(node.t)}",
                       hint=self._quoted_member(expr, want) or self._limits_as_condition(node, want))
        return node

    def _limits_as_condition(self, node: m.Expr, want: Type) -> str | None:
        """A limits check where a true or false is wanted: it answers the names of the limits broken."""
        sig = self.scope.signature(node.fn) if isinstance(node, m.Call) and isinstance(want, BoolT) else None
        if sig is None or sig.kind != "limits":
            return None
        assert isinstance(node, m.Call)
        return (f"a limits check answers the names of the limits it finds broken: {node.fn}(...) == [] "
                f"when none is, or \"name\" in {node.fn}(...) for one of them")

    def _quoted_member(self, expr: ast.Expr, want: Type) -> str | None:
        """"move" where a list's value is wanted: the value is written without quotes."""
        if not (isinstance(want, EnumT) and isinstance(expr, ast.Text)):
            return None
        info = self.scope.enum(want.name)
        if info is None or expr.value not in info.members:
            return None
        return f"write {expr.value} without quotes: a value of {want.name}, not a text"

    def lower(self, e: ast.Expr, local: Locals, want: Type | None = None) -> m.Expr:
        match e:  # the commonest first
            case ast.Name():
                return self._name(e, local, want)
            case ast.Field():
                return self._field(e, local)
            case ast.Op():
                return self._op(e, local)
            case ast.Number():
                if e.value.denominator == 1:
                    return m.Lit(INT, int(e.value))
                return m.Lit(NUMBER, e.value)
            case ast.Call():
                return self._call(e, local)
            case ast.Bool():
                return m.Lit(BOOL, e.value)
            case ast.Comprehension():
                return self._comprehension(e, local)
            case ast.Text():
                return m.Lit(TEXT, e.value)
            case ast.If():
                return self._if(e, local, want)
            case ast.LetIn():
                value = self.lower(e.value, local)
                body = self.lower(e.body, {**local, e.name: value.t}, want)
                return m.Let(body.t, e.name, value, body)
            case ast.RecordLit():
                return self._record(e, local)
            case ast.ListLit():
                return self._items(e.items, local, want, "list")
            case ast.SetLit():
                return self._items(e.items, local, want, "set")
        raise TypeError(f"not an expression: {e!r}")

    # -- names
    def _name(self, e: ast.Name, local: Locals, want: Type | None) -> m.Expr:
        name = e.name
        if name in local and not self._member_fits(name, want, local[name]):
            return m.Var(local[name], name)
        if isinstance(want, EnumT):
            info = self.scope.enum(want.name)
            if info and name in info.members:  # the expected list's own value comes first
                return m.Member(want, info.name, name)
        const = self.scope.const_type(name)
        if const is not None:
            self.calls.add(name)
            return m.Const(const, name)
        sig = self.scope.signature(name)
        if sig is not None and sig.kind != "builtin":
            if sig.params:
                return self.error(e.span, "R202", f"'{name}' needs {len(sig.params)} argument(s)",
                                  hint=f"call it as {name}({', '.join(p for p, _ in sig.params)})")
            self.calls.add(name)
            return m.Call(sig.returns, name, ())
        return self._member(e, want)

    def _member_fits(self, name: str, want: Type | None, local_type: Type) -> bool:
        """A value of the expected list beats a local of another type: `hq.type == hq`."""
        if not isinstance(want, EnumT) or ty.assignable(local_type, want):
            return False
        info = self.scope.enum(want.name)
        return info is not None and name in info.members

    def _member(self, e: ast.Name, want: Type | None) -> m.Expr:
        name = e.name
        if isinstance(want, EnumT):
            info = self.scope.enum(want.name)
            if info and name in info.members:
                return m.Member(want, info.name, name)
        owners = self.scope.enums_with_member(name)
        if len(owners) == 1:
            return m.Member(EnumT(owners[0]), owners[0], name)
        if len(owners) > 1:
            return self.error(e.span, "R204", f"'{name}' is a value of several lists: {', '.join(owners)}",
                              hint=f"write {owners[0]}.{name}")
        if self.scope.enum(name) or self.scope.record(name):
            return self.error(e.span, "R201", f"'{name}' is a type, not a value",
                              hint=f"write {name}.<value>" if self.scope.enum(name) else None)
        return self.error(e.span, "R101", f"unknown name '{name}'",
                          hint=did_you_mean(name, self.scope.names()))

    def _field(self, e: ast.Field, local: Locals) -> m.Expr:
        if isinstance(e.of, ast.Name) and e.of.name not in local and self.scope.enum(e.of.name):
            info = self.scope.enum(e.of.name)
            assert info is not None
            if e.name in info.members:
                return m.Member(EnumT(info.name), info.name, e.name)
            return self.error(e.span, "R203", f"{info.name} has no value '{e.name}'",
                              hint=did_you_mean(e.name, info.members))
        of = self.lower(e.of, local)
        match of.t:
            case AnyT():
                return m.Error()
            case RecordT(name=record):
                fields = self.scope.record(record) or {}
                if e.name in fields:
                    return m.Field(fields[e.name][0], of, e.name)
                return self.error(e.span, "R203", f"{record} has no field '{e.name}'",
                                  hint=did_you_mean(e.name, fields))
            case EnumT(name=enum):
                info = self.scope.enum(enum)
                if info and e.name in info.attrs:
                    return m.Attr(info.attrs[e.name], of, info.name, e.name)
                return self.error(e.span, "R203", f"{enum} has no attribute '{e.name}'",
                                  hint=did_you_mean(e.name, info.attrs if info else []))
        return self.error(e.span, "R203", f"{describe(of.t)} has no field '{e.name}'")

    # -- calls
    def _call(self, e: ast.Call, local: Locals) -> m.Expr:
        if e.fn in BUILTINS:
            return self._builtin(e, local)
        sig = self.scope.signature(e.fn)
        if sig is None:
            if e.fn in local:  # `requires ok (x + 1) / 2` in an override: the value read as a call
                return self.error(e.span, "R101", f"'{e.fn}' is a value, not a definition or table to call",
                                  hint=f"a space does not part two expressions: '{e.fn} (...)' is a call; where "
                                       "a new value follows a condition (an override's `requires ...`), write the "
                                       "value first")
            return self.error(e.span, "R101", f"unknown definition or table '{e.fn}'",
                              hint=did_you_mean(e.fn, list(self.scope.names()) + list(BUILTINS)))
        if len(e.args) != len(sig.params):
            return self.error(e.span, "R202", f"'{e.fn}' takes {len(sig.params)} argument(s), "
                              f"{len(e.args)} given",
                              hint=f"{e.fn}({', '.join(f'{p}: {t}' for p, t in sig.params)})")
        args = tuple(self.expect(a, t, local, f"argument '{p}' of {e.fn}")
                     for a, (p, t) in zip(e.args, sig.params, strict=True))
        self.calls.add(e.fn)
        return m.Call(sig.returns, e.fn, args)

    def _builtin(self, e: ast.Call, local: Locals) -> m.Expr:
        args = tuple(self.lower(a, local) for a in e.args)
        types = [a.t for a in args]
        if e.fn in ("floor", "ceil", "abs", "len") and len(args) != 1:
            return self.error(e.span, "R202", f"{e.fn} takes one argument, {len(args)} given")
        if e.fn in ("min", "max") and len(args) < 2:
            return self.error(e.span, "R202", f"{e.fn} takes two or more arguments",
                              hint=f"for the {e.fn} of a list write {e.fn}(x for x in items)")
        if e.fn == "len":
            if ty.item_type(types[0]) is None:
                return self.error(e.span, "R201", f"len needs a list, but this is {describe(types[0])}")
            return m.Builtin(INT, "len", args)
        if e.fn == "step":
            return self._step(e, args, types)
        if e.fn in ("min", "max") and self._ordered(types[0]) and not self._cyclic(types[0]):
            for a, t in zip(e.args, types, strict=True):
                if t != types[0]:
                    return self.error(a.span, "R201", f"{e.fn} of {describe(types[0])} levels, "
                                      f"but this is {describe(t)}")
            return m.Builtin(types[0], e.fn, args)
        for a, t in zip(e.args, types, strict=False):
            if not is_numeric(t):
                return self.error(a.span, "R201", f"{e.fn} needs numbers, but this is {describe(t)}")
        whole = e.fn in ("floor", "ceil") or all(isinstance(t, IntT) for t in types)
        return m.Builtin(INT if whole else NUMBER, e.fn, args)

    def _ordered(self, t: Type) -> bool:
        info = self.scope.enum(t.name) if isinstance(t, EnumT) else None
        return info is not None and (info.ordered or info.cyclic)

    def _cyclic(self, t: Type) -> bool:
        info = self.scope.enum(t.name) if isinstance(t, EnumT) else None
        return info is not None and info.cyclic

    def _step(self, e: ast.Call, args: tuple[m.Expr, ...], types: list[Type]) -> m.Expr:
        if len(args) != 2:
            return self.error(e.span, "R202", f"step takes a level and a number of steps, {len(args)} given",
                              hint="step(zoc, 1) is one level up; step(zoc, -2) two down")
        if not self._ordered(types[0]):
            return self.error(e.args[0].span, "R201", f"step needs a value of an ordered or cyclic list, "
                              f"but this is {describe(types[0])}",
                              hint="declare the list as 'ordered enum' (levels) or 'cyclic enum' (directions)")
        if not isinstance(types[1], (IntT, AnyT)):
            return self.error(e.args[1].span, "R201", f"step counts whole steps, but this is {describe(types[1])}")
        return m.Builtin(types[0], "step", args, cyclic=self._cyclic(types[0]))

    def _comprehension(self, e: ast.Comprehension, local: Locals) -> m.Expr:
        if e.fn not in AGGREGATES:
            return self.error(e.span, "R101", f"unknown aggregate '{e.fn}'",
                              hint=did_you_mean(e.fn, AGGREGATES) or f"one of: {', '.join(AGGREGATES)}")
        source = self.lower(e.source, local)
        item = ty.item_type(source.t)
        if item is None:
            return self.error(e.source.span, "R201", f"'for {e.var} in' needs a list, "
                              f"but this is {describe(source.t)}")
        inner = {**local, e.var: item}
        where = None if e.where is None else self.expect(e.where, BOOL, inner, "a 'where' condition")
        body = self.lower(e.body, inner)
        bt = body.t
        result: Type
        if e.fn in ("min", "max") and self._ordered(bt) and not self._cyclic(bt):
            result = bt
        elif e.fn in ("sum", "product", "min", "max"):
            if not is_numeric(bt):
                return self.error(e.body.span, "R201", f"{e.fn} needs numbers, but this is {describe(bt)}")
            result = INT if isinstance(bt, IntT) else NUMBER
        elif e.fn in ("any", "all"):
            if not ty.assignable(bt, BOOL):
                return self.error(e.body.span, "R201", f"{e.fn} needs a condition, but this is {describe(bt)}")
            result = BOOL
        elif e.fn == "first":
            result = bt
        else:
            result = INT
        return m.Agg(result, e.fn, e.var, item, source, where, body)

    # -- operators
    def _op(self, e: ast.Op, local: Locals) -> m.Expr:
        op = e.op
        if op in ("and", "or", "not"):
            return m.Op(BOOL, op, tuple(self.expect(a, BOOL, local, f"each side of '{op}'") for a in e.args))
        if op in ("+", "-", "*", "/", "neg"):
            args = tuple(self.lower(a, local) for a in e.args)
            for a, node in zip(e.args, args, strict=False):
                if not is_numeric(node.t):
                    return self.error(a.span, "R201", f"'{'-' if op == 'neg' else op}' needs numbers, "
                                      f"but this is {describe(node.t)}")
            fraction = op == "/" or any(isinstance(n.t, NumberT) for n in args)
            return m.Op(NUMBER if fraction else INT, op, args)
        return self._compare(e, local)

    def _compare(self, e: ast.Op, local: Locals) -> m.Expr:
        op = e.op
        left_e, right_e = e.args
        # A bare value name takes its type from the other side: `u.mode == strat`.
        if isinstance(left_e, ast.Name) and self._is_free(left_e.name, local):
            right = self.lower(right_e, local)
            want = ty.item_type(right.t) if op in ("in", "not in") else right.t
            left = self.lower(left_e, local, want)
        else:
            left = self.lower(left_e, local)
            want = SetT(left.t) if op in ("in", "not in") else left.t
            right = self.lower(right_e, local, want)
        lt, rt = left.t, right.t
        if op in ("in", "not in"):
            it = ty.item_type(rt)
            if it is None:
                return self.error(right_e.span, "R201", f"'{op}' needs a list or set on its right, "
                                  f"but this is {describe(rt)}")
            if ty.join(lt, it) is None:
                return self.error(e.span, "R201", f"{describe(lt)} can never be in {describe(rt)}")
        elif op in ("==", "!="):
            if ty.join(lt, rt) is None:
                return self.error(right_e.span, "R201", f"cannot compare {describe(lt)} with {describe(rt)}",
                                  hint=self._compare_hint(lt))
        else:
            info = self.scope.enum(lt.name) if isinstance(lt, EnumT) else None
            ordered = lt == rt and info is not None and info.ordered and not info.cyclic
            if not ((is_numeric(lt) and is_numeric(rt)) or ordered):
                bad = right_e if is_numeric(lt) else left_e
                return self.error(bad.span, "R201", f"'{op}' compares numbers or ordered levels, "
                                  f"but this is {describe(rt if is_numeric(lt) else lt)}")
        return m.Op(BOOL, op, (left, right))

    def _compare_hint(self, lt: Type) -> str | None:
        info = self.scope.enum(lt.name) if isinstance(lt, EnumT) else None
        if info is not None:
            values = ", ".join(info.members[:8]) + (", ..." if len(info.members) > 8 else "")
            return f"{describe(lt)} is one of: {values}"
        return None

    def _is_free(self, name: str, local: Locals) -> bool:
        return (name not in local and self.scope.const_type(name) is None
                and self.scope.signature(name) is None)

    def _if(self, e: ast.If, local: Locals, want: Type | None) -> m.Expr:
        cond = self.expect(e.cond, BOOL, local, "the condition of 'if'")
        then = self.lower(e.then, local, want)
        other = self.lower(e.else_, local, want or then.t)
        t = ty.join(then.t, other.t)
        if t is None:
            return self.error(e.span, "R201", f"'then' gives {describe(then.t)} but 'else' gives "
                              f"{describe(other.t)}")
        return m.If(t, cond, then, other)

    # -- literals with parts
    def _record(self, e: ast.RecordLit, local: Locals) -> m.Expr:
        fields = self.scope.record(e.record)
        if fields is None:
            return self.error(e.span, "R101", f"unknown record type '{e.record}'",
                              hint=did_you_mean(e.record, self.scope.names()))
        values: dict[str, m.Expr] = {}
        for name, value, span in e.fields:
            if name not in fields:
                self.error(span, "R203", f"{e.record} has no field '{name}'", hint=did_you_mean(name, fields))
                continue
            values[name] = self.expect(value, fields[name][0], local, f"field '{name}'")
        missing = [n for n, (_, has_default) in fields.items() if not has_default and n not in values]
        if missing:
            return self.error(e.span, "R206", f"{e.record} needs a value for {', '.join(missing)}")
        return m.RecordLit(RecordT(e.record), e.record, tuple(sorted(values.items())))

    def _items(self, items: tuple[ast.Expr, ...], local: Locals, want: Type | None, kind: str) -> m.Expr:
        inner = ty.item_type(want) if want else None
        nodes = tuple(self.lower(i, local, inner) for i in items)
        t = inner or ANY
        if nodes:
            t = nodes[0].t
            for i, n in zip(items, nodes, strict=False):
                j = ty.join(t, n.t)
                if j is None:
                    return self.error(i.span, "R201", f"the items of a {kind} must be of one kind: "
                                      f"{describe(n.t)} among {describe(t)} items")
                t = j
            if inner is not None and not isinstance(inner, AnyT) and ty.assignable(t, inner):
                t = inner  # [3] where a list of numbers is wanted is a list of numbers
        if kind == "list":
            return m.ListLit(ListT(t), nodes)
        return m.SetLit(SetT(t), nodes)


def literal_value(node: m.Expr) -> Value:
    """The JSON value of a constant expression (numbers exact, as 'p/q' text), or raise ValueError."""
    match node:
        case m.Lit(v=v):
            return str(v) if isinstance(v, Fraction) else v
        case m.Member(name=name):
            return name
        case m.Op(op="neg", args=(m.Lit(v=v),)):
            return -v if isinstance(v, int) else str(-Fraction(v))
        case m.Op(op="/", args=args) if all(_is_number_literal(a) for a in args):
            a, b = (Fraction(str(literal_value(x))) for x in args)  # -1/2 is (-1)/2
            if b == 0:
                raise ValueError("division by zero")
            q = a / b
            return int(q) if q.denominator == 1 and isinstance(node.t, IntT) else str(q)
        case m.ListLit(items=items) | m.SetLit(items=items):
            return [literal_value(i) for i in items]
    raise ValueError("not a constant")


def _is_number_literal(node: m.Expr) -> bool:
    """A number as written: 2, 2.5, or -2."""
    if isinstance(node, m.Op) and node.op == "neg":
        node = node.args[0]
    return isinstance(node, m.Lit) and isinstance(node.t, (IntT, NumberT))


# ---- the string forms, for the stages that still read types from the IR's JSON ---------------


def join(a: str, b: str) -> str | None:
    """The type both branches fit in, or None (types as the IR writes them)."""
    j = ty.join(parse_type(a), parse_type(b))
    return None if j is None else str(j)


def assignable(src: str, dst: str) -> bool:
    """Whether src fits where dst is wanted (types as the IR writes them)."""
    return ty.assignable(parse_type(src), parse_type(dst))


def item_type(t: str) -> str | None:
    """The type of the items of a list or set, or None (types as the IR writes them)."""
    item = ty.item_type(parse_type(t))
    return None if item is None else str(item)
