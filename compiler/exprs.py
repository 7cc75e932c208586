"""Type-check expressions and lower them to the IR's expression form (plain JSON dicts).

Types are strings: bool, int, number, text, `enum NAME`, `record NAME`,
`list of T`, `set of T`, and `any` (after an error, so one mistake is reported once).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from . import ast
from .diagnostics import Diagnostic, Span, did_you_mean

IR = dict[str, Any]

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


def is_numeric(t: str) -> bool:
    return t in ("int", "number", "any")


def item_type(t: str) -> str | None:
    for prefix in ("list of ", "set of "):
        if t.startswith(prefix):
            return t[len(prefix):]
    return "any" if t == "any" else None


def assignable(src: str, dst: str) -> bool:
    if src == dst or "any" in (src, dst):
        return True
    if src == "int" and dst == "number":
        return True
    for prefix in ("list of ", "set of "):
        if src.startswith(prefix) and dst.startswith(prefix):
            return assignable(src[len(prefix):], dst[len(prefix):])
    return False


def join(a: str, b: str) -> str | None:
    """The type both branches fit in, or None."""
    if assignable(a, b):
        return b if a != "any" else a
    if assignable(b, a):
        return a
    return None


def describe(t: str) -> str:
    """A type in words, for messages: 'a Mode', 'a number', 'a list of Unit'."""
    if t.startswith("enum ") or t.startswith("record "):
        return "a " + t.split(" ", 1)[1]
    if t.startswith("list of ") or t.startswith("set of "):
        kind, rest = t.split(" of ", 1)
        return f"a {kind} of {describe(rest)[2:]}"
    return {"int": "a whole number", "number": "a number", "bool": "true or false",
            "text": "a text", "any": "anything"}.get(t, t)


@dataclass(frozen=True)
class Signature:
    params: tuple[tuple[str, str], ...]
    returns: str
    kind: str  # define | table | builtin


@dataclass(frozen=True)
class EnumInfo:
    name: str
    members: tuple[str, ...]
    attrs: dict[str, str]
    ordered: bool
    cyclic: bool = False


class Scope(Protocol):
    def const_type(self, name: str) -> str | None: ...
    def signature(self, name: str) -> Signature | None: ...
    def enum(self, name: str) -> EnumInfo | None: ...
    def record(self, name: str) -> dict[str, tuple[str, bool]] | None: ...
    def enums_with_member(self, name: str) -> list[str]: ...
    def names(self) -> list[str]: ...


@dataclass
class Lowerer:
    """Lowers expressions in one scope, collecting diagnostics and the names called."""

    scope: Scope
    diags: list[Diagnostic] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> IR:
        self.diags.append(Diagnostic(span, code, message, hint=hint))
        return {"k": "error", "t": "any"}

    def expect(self, expr: ast.Expr, want: str, local: dict[str, str], what: str) -> IR:
        node = self.lower(expr, local, want)
        if not assignable(node["t"], want):
            self.error(expr.span, "R201", f"{what} must be {describe(want)}, but this is {describe(node['t'])}")
        return node

    def lower(self, e: ast.Expr, local: dict[str, str], want: str | None = None) -> IR:
        method = getattr(self, "_" + type(e).__name__)
        node: IR = method(e, local, want)
        return node

    # -- leaves
    def _Number(self, e: ast.Number, local: dict[str, str], want: str | None) -> IR:
        if e.value.denominator == 1:
            return {"k": "lit", "t": "int", "v": int(e.value)}
        return {"k": "lit", "t": "number", "v": str(e.value)}

    def _Text(self, e: ast.Text, local: dict[str, str], want: str | None) -> IR:
        return {"k": "lit", "t": "text", "v": e.value}

    def _Bool(self, e: ast.Bool, local: dict[str, str], want: str | None) -> IR:
        return {"k": "lit", "t": "bool", "v": e.value}

    def _Name(self, e: ast.Name, local: dict[str, str], want: str | None) -> IR:
        name = e.name
        if name in local and not self._member_fits(name, want, local[name]):
            return {"k": "var", "t": local[name], "name": name}
        if want and want.startswith("enum "):
            info = self.scope.enum(want[5:])
            if info and name in info.members:  # the expected list's own value comes first
                return {"k": "member", "t": want, "enum": info.name, "name": name}
        const = self.scope.const_type(name)
        if const is not None:
            self.calls.add(name)
            return {"k": "const", "t": const, "name": name}
        sig = self.scope.signature(name)
        if sig is not None and sig.kind != "builtin":
            if sig.params:
                return self.error(e.span, "R202", f"'{name}' needs {len(sig.params)} argument(s)",
                                  hint=f"call it as {name}({', '.join(p for p, _ in sig.params)})")
            self.calls.add(name)
            return {"k": "call", "t": sig.returns, "fn": name, "args": []}
        return self._member(e, want)

    def _member_fits(self, name: str, want: str | None, local_type: str) -> bool:
        """A value of the expected list beats a local of another type: `hq.type == hq`."""
        if not want or not want.startswith("enum ") or assignable(local_type, want):
            return False
        info = self.scope.enum(want[5:])
        return info is not None and name in info.members

    def _member(self, e: ast.Name, want: str | None) -> IR:
        name = e.name
        if want and want.startswith("enum "):
            info = self.scope.enum(want[5:])
            if info and name in info.members:
                return {"k": "member", "t": want, "enum": info.name, "name": name}
        owners = self.scope.enums_with_member(name)
        if len(owners) == 1:
            return {"k": "member", "t": "enum " + owners[0], "enum": owners[0], "name": name}
        if len(owners) > 1:
            return self.error(e.span, "R204", f"'{name}' is a value of several lists: {', '.join(owners)}",
                              hint=f"write {owners[0]}.{name}")
        if self.scope.enum(name) or self.scope.record(name):
            return self.error(e.span, "R201", f"'{name}' is a type, not a value",
                              hint=f"write {name}.<value>" if self.scope.enum(name) else None)
        return self.error(e.span, "R101", f"unknown name '{name}'",
                          hint=did_you_mean(name, self.scope.names()))

    def _Field(self, e: ast.Field, local: dict[str, str], want: str | None) -> IR:
        if isinstance(e.of, ast.Name) and e.of.name not in local and self.scope.enum(e.of.name):
            info = self.scope.enum(e.of.name)
            assert info is not None
            if e.name in info.members:
                return {"k": "member", "t": "enum " + info.name, "enum": info.name, "name": e.name}
            return self.error(e.span, "R203", f"{info.name} has no value '{e.name}'",
                              hint=did_you_mean(e.name, info.members))
        of = self.lower(e.of, local)
        t = of["t"]
        if t == "any":
            return {"k": "error", "t": "any"}
        if t.startswith("record "):
            fields = self.scope.record(t[7:]) or {}
            if e.name in fields:
                return {"k": "field", "t": fields[e.name][0], "of": of, "name": e.name}
            return self.error(e.span, "R203", f"{t[7:]} has no field '{e.name}'",
                              hint=did_you_mean(e.name, fields))
        if t.startswith("enum "):
            info = self.scope.enum(t[5:])
            if info and e.name in info.attrs:
                return {"k": "attr", "t": info.attrs[e.name], "of": of, "enum": info.name, "name": e.name}
            return self.error(e.span, "R203", f"{t[5:]} has no attribute '{e.name}'",
                              hint=did_you_mean(e.name, info.attrs if info else []))
        return self.error(e.span, "R203", f"{describe(t)} has no field '{e.name}'")

    # -- calls
    def _Call(self, e: ast.Call, local: dict[str, str], want: str | None) -> IR:
        if e.fn in BUILTINS:
            return self._builtin(e, local)
        sig = self.scope.signature(e.fn)
        if sig is None:
            return self.error(e.span, "R101", f"unknown definition or table '{e.fn}'",
                              hint=did_you_mean(e.fn, list(self.scope.names()) + list(BUILTINS)))
        if len(e.args) != len(sig.params):
            return self.error(e.span, "R202", f"'{e.fn}' takes {len(sig.params)} argument(s), "
                              f"{len(e.args)} given",
                              hint=f"{e.fn}({', '.join(f'{p}: {t}' for p, t in sig.params)})")
        args = [self.expect(a, t, local, f"argument '{p}' of {e.fn}")
                for a, (p, t) in zip(e.args, sig.params, strict=True)]
        self.calls.add(e.fn)
        return {"k": "call", "t": sig.returns, "fn": e.fn, "args": args}

    def _builtin(self, e: ast.Call, local: dict[str, str]) -> IR:
        args = [self.lower(a, local) for a in e.args]
        types = [a["t"] for a in args]
        if e.fn in ("floor", "ceil", "abs", "len") and len(args) != 1:
            return self.error(e.span, "R202", f"{e.fn} takes one argument, {len(args)} given")
        if e.fn in ("min", "max") and len(args) < 2:
            return self.error(e.span, "R202", f"{e.fn} takes two or more arguments",
                              hint=f"for the {e.fn} of a list write {e.fn}(x for x in items)")
        if e.fn == "len":
            if item_type(types[0]) is None:
                return self.error(e.span, "R201", f"len needs a list, but this is {describe(types[0])}")
            return {"k": "builtin", "t": "int", "fn": "len", "args": args}
        if e.fn == "step":
            return self._step(e, args, types)
        if e.fn in ("min", "max") and self._ordered(types[0]) and not self._cyclic(types[0]):
            for a, t in zip(e.args, types, strict=True):
                if t != types[0]:
                    return self.error(a.span, "R201", f"{e.fn} of {describe(types[0])} levels, "
                                      f"but this is {describe(t)}")
            return {"k": "builtin", "t": types[0], "fn": e.fn, "args": args}
        for a, t in zip(e.args, types, strict=False):
            if not is_numeric(t):
                return self.error(a.span, "R201", f"{e.fn} needs numbers, but this is {describe(t)}")
        if e.fn in ("floor", "ceil"):
            result = "int"
        elif all(t == "int" for t in types):
            result = "int"
        else:
            result = "number"
        return {"k": "builtin", "t": result, "fn": e.fn, "args": args}

    def _ordered(self, t: str) -> bool:
        info = self.scope.enum(t[5:]) if t.startswith("enum ") else None
        return info is not None and (info.ordered or info.cyclic)

    def _cyclic(self, t: str) -> bool:
        info = self.scope.enum(t[5:]) if t.startswith("enum ") else None
        return info is not None and info.cyclic

    def _step(self, e: ast.Call, args: list[IR], types: list[str]) -> IR:
        if len(args) != 2:
            return self.error(e.span, "R202", f"step takes a level and a number of steps, {len(args)} given",
                              hint="step(zoc, 1) is one level up; step(zoc, -2) two down")
        if not self._ordered(types[0]):
            return self.error(e.args[0].span, "R201", f"step needs a value of an ordered or cyclic list, "
                              f"but this is {describe(types[0])}",
                              hint="declare the list as 'ordered enum' (levels) or 'cyclic enum' (directions)")
        if types[1] not in ("int", "any"):
            return self.error(e.args[1].span, "R201", f"step counts whole steps, but this is {describe(types[1])}")
        return {"k": "builtin", "t": types[0], "fn": "step", "args": args,
                "cyclic": self._cyclic(types[0])}

    def _LetIn(self, e: ast.LetIn, local: dict[str, str], want: str | None) -> IR:
        value = self.lower(e.value, local)
        body = self.lower(e.body, {**local, e.name: value["t"]}, want)
        return {"k": "let", "t": body["t"], "name": e.name, "value": value, "body": body}

    def _Comprehension(self, e: ast.Comprehension, local: dict[str, str], want: str | None) -> IR:
        if e.fn not in AGGREGATES:
            return self.error(e.span, "R101", f"unknown aggregate '{e.fn}'",
                              hint=did_you_mean(e.fn, AGGREGATES) or f"one of: {', '.join(AGGREGATES)}")
        source = self.lower(e.source, local)
        item = item_type(source["t"])
        if item is None:
            return self.error(e.source.span, "R201", f"'for {e.var} in' needs a list, "
                              f"but this is {describe(source['t'])}")
        inner = {**local, e.var: item}
        where = None if e.where is None else self.expect(e.where, "bool", inner, "a 'where' condition")
        body = self.lower(e.body, inner)
        bt = body["t"]
        if e.fn in ("min", "max") and self._ordered(bt) and not self._cyclic(bt):
            result = bt
        elif e.fn in ("sum", "product", "min", "max"):
            if not is_numeric(bt):
                return self.error(e.body.span, "R201", f"{e.fn} needs numbers, but this is {describe(bt)}")
            result = "int" if bt == "int" else "number"
        elif e.fn in ("any", "all"):
            if not assignable(bt, "bool"):
                return self.error(e.body.span, "R201", f"{e.fn} needs a condition, but this is {describe(bt)}")
            result = "bool"
        elif e.fn == "first":
            result = bt
        else:
            result = "int"
        return {"k": "agg", "t": result, "fn": e.fn, "var": e.var, "vart": item,
                "over": source, "where": where, "body": body}

    # -- operators
    def _Op(self, e: ast.Op, local: dict[str, str], want: str | None) -> IR:
        op = e.op
        if op in ("and", "or", "not"):
            args = [self.expect(a, "bool", local, f"each side of '{op}'") for a in e.args]
            return {"k": "op", "t": "bool", "op": op, "args": args}
        if op in ("+", "-", "*", "/", "neg"):
            args = [self.lower(a, local) for a in e.args]
            for a, node in zip(e.args, args, strict=False):
                if not is_numeric(node["t"]):
                    return self.error(a.span, "R201", f"'{'-' if op == 'neg' else op}' needs numbers, "
                                      f"but this is {describe(node['t'])}")
            t = "number" if op == "/" or any(n["t"] == "number" for n in args) else "int"
            return {"k": "op", "t": t, "op": op, "args": args}
        return self._compare(e, local)

    def _compare(self, e: ast.Op, local: dict[str, str]) -> IR:
        op = e.op
        left_e, right_e = e.args
        # A bare value name takes its type from the other side: `u.mode == strat`.
        if isinstance(left_e, ast.Name) and self._is_free(left_e.name, local):
            right = self.lower(right_e, local)
            want = item_type(right["t"]) if op in ("in", "not in") else right["t"]
            left = self.lower(left_e, local, want)
        else:
            left = self.lower(left_e, local)
            want = left["t"]
            if op in ("in", "not in"):
                want = "set of " + left["t"]
            right = self.lower(right_e, local, want)
        lt, rt = left["t"], right["t"]
        if op in ("in", "not in"):
            it = item_type(rt)
            if it is None:
                return self.error(right_e.span, "R201", f"'{op}' needs a list or set on its right, "
                                  f"but this is {describe(rt)}")
            if join(lt, it) is None:
                return self.error(e.span, "R201", f"{describe(lt)} can never be in {describe(rt)}")
        elif op in ("==", "!="):
            if join(lt, rt) is None:
                return self.error(right_e.span, "R201", f"cannot compare {describe(lt)} with {describe(rt)}",
                                  hint=self._compare_hint(lt))
        else:
            info = self.scope.enum(lt[5:]) if lt.startswith("enum ") else None
            ordered = lt == rt and info is not None and info.ordered and not info.cyclic
            if not ((is_numeric(lt) and is_numeric(rt)) or ordered):
                bad = right_e if is_numeric(lt) else left_e
                return self.error(bad.span, "R201", f"'{op}' compares numbers or ordered levels, "
                                  f"but this is {describe(rt if is_numeric(lt) else lt)}")
        return {"k": "op", "t": "bool", "op": op, "args": [left, right]}

    def _compare_hint(self, lt: str) -> str | None:
        info = self.scope.enum(lt[5:]) if lt.startswith("enum ") else None
        if info is not None:
            values = ", ".join(info.members[:8]) + (", ..." if len(info.members) > 8 else "")
            return f"{describe(lt)} is one of: {values}"
        return None

    def _is_free(self, name: str, local: dict[str, str]) -> bool:
        return (name not in local and self.scope.const_type(name) is None
                and self.scope.signature(name) is None)

    def _If(self, e: ast.If, local: dict[str, str], want: str | None) -> IR:
        cond = self.expect(e.cond, "bool", local, "the condition of 'if'")
        then = self.lower(e.then, local, want)
        other = self.lower(e.else_, local, want or then["t"])
        t = join(then["t"], other["t"])
        if t is None:
            return self.error(e.span, "R201", f"'then' gives {describe(then['t'])} but 'else' gives "
                              f"{describe(other['t'])}")
        return {"k": "if", "t": t, "cond": cond, "then": then, "else": other}

    # -- literals with parts
    def _RecordLit(self, e: ast.RecordLit, local: dict[str, str], want: str | None) -> IR:
        fields = self.scope.record(e.record)
        if fields is None:
            return self.error(e.span, "R101", f"unknown record type '{e.record}'",
                              hint=did_you_mean(e.record, self.scope.names()))
        values: dict[str, IR] = {}
        for name, value, span in e.fields:
            if name not in fields:
                self.error(span, "R203", f"{e.record} has no field '{name}'", hint=did_you_mean(name, fields))
                continue
            values[name] = self.expect(value, fields[name][0], local, f"field '{name}'")
        missing = [n for n, (_, has_default) in fields.items() if not has_default and n not in values]
        if missing:
            return self.error(e.span, "R206", f"{e.record} needs a value for {', '.join(missing)}")
        return {"k": "record", "t": "record " + e.record, "record": e.record,
                "fields": dict(sorted(values.items()))}

    def _ListLit(self, e: ast.ListLit, local: dict[str, str], want: str | None) -> IR:
        return self._items(e.items, local, want, "list")

    def _SetLit(self, e: ast.SetLit, local: dict[str, str], want: str | None) -> IR:
        return self._items(e.items, local, want, "set")

    def _items(self, items: tuple[ast.Expr, ...], local: dict[str, str], want: str | None, kind: str) -> IR:
        inner = item_type(want) if want else None
        nodes = [self.lower(i, local, inner) for i in items]
        t = inner or "any"
        if nodes:
            t = nodes[0]["t"]
            for i, n in zip(items, nodes, strict=False):
                j = join(t, n["t"])
                if j is None:
                    return self.error(i.span, "R201", f"the items of a {kind} must be of one kind: "
                                      f"{describe(n['t'])} among {describe(t)} items")
                t = j
            if inner is not None and inner != "any" and assignable(t, inner):
                t = inner  # [3] where a list of numbers is wanted is a list of numbers
        return {"k": kind, "t": f"{kind} of {t}", "items": nodes}


_NO = EnumInfo("", (), {}, False)


def literal_value(node: IR) -> Any:
    """The JSON value of a constant expression (numbers exact, as 'p/q' text), or raise ValueError."""
    k = node["k"]
    if k == "lit":
        return node["v"]
    if k == "member":
        return node["name"]
    if k == "op" and node["op"] == "neg" and node["args"][0]["k"] == "lit":
        v = node["args"][0]["v"]
        return -v if isinstance(v, int) else str(-Fraction(v))
    if k == "op" and node["op"] == "/" and all(_is_number_literal(a) for a in node["args"]):
        a, b = (Fraction(literal_value(x)) for x in node["args"])  # -1/2 is (-1)/2
        if b == 0:
            raise ValueError("division by zero")
        q = a / b
        return int(q) if q.denominator == 1 and node["t"] == "int" else str(q)
    if k in ("list", "set"):
        return [literal_value(i) for i in node["items"]]
    raise ValueError("not a constant")


def _is_number_literal(node: IR) -> bool:
    """A number as written: 2, 2.5, or -2."""
    if node["k"] == "op" and node["op"] == "neg":
        node = node["args"][0]
    return node["k"] == "lit" and node["t"] in ("int", "number")
