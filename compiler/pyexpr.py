"""Compile model expressions to Python source text, for the generated check modules.

Conventions of the generated code:
- a `number` is exact: an int or a Fraction.  Inside a module every number is
  carried scaled by SCALE (the least common multiple of the denominators the
  rules write), so RE sums such as 1/2 + 1/4 + 3 are integer additions; public
  functions take and return unscaled exact values;
- a list value (enum member) is its name as a str; a record is a frozen dataclass;
- literals are written with repr(), never spliced, so no text in a rule file can
  change what the code does.
"""

from __future__ import annotations

import ast as pyast
import builtins
import hashlib
import keyword
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import model as m
from .interp import EvalError, Interpreter, budget, item_exprs
from .types import (
    ANY,
    BOOL,
    INT,
    NUMBER,
    BoolT,
    EnumT,
    IntT,
    ListT,
    NumberT,
    RecordT,
    SetT,
    TextT,
    Type,
    join,
)

RESERVED = {
    "Any", "Answer", "Callable", "Cite", "Final", "Fraction", "Generic", "InvalidInput", "Literal", "Mapping",
    "Number", "RuleError", "SCALE", "Sequence", "TypeVar", "Violation", "annotations", "dataclass", "dataclasses",
    "field", "math", "replace", "T", "MANIFEST", "RULESET", "TITLE", "SERIES", "SERIES_VERSION", "GAME",
    "GAME_VERSION", "SCENARIO", "OPTIONS", "LAYERS", "STATE_SCHEMA", "from_json", "U", "N", "cast",
    "RULESET_HASH", "RULEC_VERSION", "to_json",
}


def py_name(name: str) -> str:
    """A rule name as a Python identifier: keywords and names the module uses get a trailing _."""
    if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in RESERVED:
        return name + "_"
    return name


# Python's own names: the module's code calls them (type, isinstance, tuple, len), so no name the rules
# give hides one: at module level none at all (a const or check named type), in a check's body those
# the compiled expressions call (a parameter or loop variable named len).
PY_BUILTINS = frozenset(dir(builtins))
CODE_BUILTINS = frozenset({"abs", "all", "any", "frozenset", "isinstance", "len", "list", "max", "min", "sum",
                           "tuple", "type"})


def local_name(name: str) -> str:
    """A rule name as a Python local (a parameter, a loop variable): never a builtin the code calls, nor a
    letter Python's style guide calls ambiguous (l, O, I: `for l in leaders` is written `for l_ in leaders`)."""
    name = py_name(name)
    while name in CODE_BUILTINS or name in ("l", "O", "I"):
        name += "_"
    return name


class Namer:
    """Module-level names: every one registered once, so none can shadow another (nor a builtin)."""

    def __init__(self) -> None:
        self.taken: set[str] = set(RESERVED)

    def claim(self, wanted: str) -> str:
        name = wanted
        while name in self.taken or name in PY_BUILTINS:
            name += "_"
        self.taken.add(name)
        return name


# The kinds of module constants in the order they are written: the cites, then the tuples of cites, each
# by name; then the values (fractions, sets, lists, the domains what_would_change tries), which read each
# other (a list of lists its lists, a set its fractions, a Hex's domain its Unit's), in the order they
# were made, which is the read one first.
CONST_KINDS = ("CITE", "RULES")


def const_stem(code: str) -> str:
    """A constant's name from what it holds: Fraction(1, 2) -> 1_2, frozenset({'hq', 'sp'}) -> hq_sp; a long
    one keeps its start and a hash of the whole, so a name never depends on what else the module holds."""
    stem = re.sub(r"\W+", "_", re.sub(r"^(Fraction|frozenset)\(", "", code)).strip("_").replace("-", "m")
    if len(stem) <= 40:
        return stem or "none"
    return f"{stem[:24].rstrip('_')}_{hashlib.sha1(code.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


@dataclass
class Consts:
    """Module constants the expressions need (sets, fractions, cites and their tuples), each named for what
    it holds (`_CITE_OCS_4_5a_F`, `_Q_1_2`), so one module's names are another's where they hold the same;
    written by kind, then by name."""

    namer: Namer
    entries: list[tuple[int, str, str]] = field(default_factory=list)  # kind, its order in the kind, line
    by_code: dict[str, str] = field(default_factory=dict)
    annotate: Callable[[Type], str] | None = None  # a rules type as the module's annotation (enum names known)

    def add(self, prefix: str, code: str, annotation: str = "", stem: str | None = None) -> str:
        key = annotation + "=" + code
        if key not in self.by_code:
            name = self.namer.claim(f"_{prefix}_{stem or const_stem(code)}")
            ann = f": Final[{annotation}]" if annotation else ": Final"
            kind = CONST_KINDS.index(prefix) if prefix in CONST_KINDS else len(CONST_KINDS)
            order = name if prefix in CONST_KINDS else f"{len(self.entries):09d}"
            self.entries.append((kind, order, f"{name}{ann} = {code}"))
            self.by_code[key] = name
        return self.by_code[key]

    @property
    def lines(self) -> list[str]:
        return [line for _, _, line in sorted(self.entries)]


def type_of(t: Type | str, enum_names: dict[str, str], record_names: dict[str, str], public: bool = False) -> str:
    """The Python annotation for a rules type ("limits": what a limits group returns)."""
    match t:
        case ListT(item):
            inner = type_of(item, enum_names, record_names, public)
            return f"Sequence[{inner}]" if public else f"tuple[{inner}, ...]"
        case SetT(item):
            return f"frozenset[{type_of(item, enum_names, record_names, public)}]"
        case EnumT(name):
            return enum_names[name]
        case RecordT(name):
            return record_names[name]
    return {"bool": "bool", "int": "int", "number": "Number", "text": "str", "any": "Any",
            "limits": "list[Violation]"}[str(t)]


def literal(value: Any, t: Type, scale: int, consts: Consts) -> str:
    """Python source for a constant value of type t (numbers scaled)."""
    if isinstance(t, NumberT):
        v = Fraction(value) * scale
        if v.denominator == 1:
            return repr(int(v))
        return consts.add("Q", f"Fraction({v.numerator}, {v.denominator})", "Fraction")
    if isinstance(t, ListT):
        items = [literal(v, t.item, scale, consts) for v in value]
        code = "(" + "".join(f"{i}, " for i in items).rstrip(" ") + ")"
        if consts.annotate is not None and (not items or holds_enum(t)):
            # () alone, or ('combat', 'move'): mypy would know no type, or any str, for what a loop takes
            return consts.add("EMPTY" if not items else "LIST", code, consts.annotate(t))
        return code
    if isinstance(t, SetT):
        items = sorted(literal(v, t.item, scale, consts) for v in value)
        # annotated: a set of list values is not a frozenset[str] to mypy, nor one of 2 and 1/2 of objects
        annotation = consts.annotate(t) if consts.annotate is not None else ("" if items else "frozenset[Any]")
        return consts.add("SET", "frozenset({" + ", ".join(items) + "})" if items else "frozenset()", annotation)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, str)):
        return repr(value)
    raise ValueError(f"cannot write {value!r} as a constant")


def holds_number(t: Type) -> bool:
    """Whether values of type t hold numbers (a number, a list of sets of numbers, ...)."""
    if isinstance(t, (ListT, SetT)):
        return holds_number(t.item)
    return isinstance(t, NumberT)


def holds_enum(t: Type) -> bool:
    """Whether values of type t hold list values (a list value, a set of them, ...)."""
    if isinstance(t, (ListT, SetT)):
        return holds_enum(t.item)
    return isinstance(t, EnumT)


def mapped(code: str, t: Type, leaf: Callable[[str], str], leaf_type: Type = NUMBER, depth: int = 0) -> str:
    """Python for the value `code` of type t with leaf() applied to each of its parts of type
    leaf_type, however deep in lists and sets: `tuple(_x * 4 for _x in xs)`, and for a list of
    lists `tuple(tuple(_x1 * 4 for _x1 in _x) for _x in xs)`. Lists are rebuilt as tuples."""
    if t == leaf_type:
        return leaf(code)
    if isinstance(t, (ListT, SetT)):
        wrap = "tuple" if isinstance(t, ListT) else "frozenset"
        var = "_x" if depth == 0 else f"_x{depth}"
        return f"{wrap}({mapped(var, t.item, leaf, leaf_type, depth + 1)} for {var} in {_operand(code)})"
    return code


def _operand(code: str) -> str:
    """code as the operand of `in`: in parentheses unless it is a name, a call, an index or a literal."""
    try:
        node = pyast.parse(code, mode="eval").body
    except SyntaxError:
        return f"({code})"
    return code if isinstance(node, (pyast.Name, pyast.Attribute, pyast.Call, pyast.Subscript, pyast.Tuple,
                                     pyast.Constant)) else f"({code})"


def ints_for_numbers(t: Type, want: Type) -> bool:
    """Whether t is want with whole numbers where want has numbers: a list of lists of ints where a
    list of lists of numbers is wanted (the checker lets one stand for the other)."""
    match t, want:
        case IntT(), NumberT():
            return True
        case (ListT(a), ListT(b)) | (SetT(a), SetT(b)):
            return ints_for_numbers(a, b)
    return False


def is_constant(node: m.Expr) -> bool:
    """Whether an expression reads nothing but literals and list values (the emitter works it out
    ahead, and analysis.constant_errors computes it to report what cannot be)."""
    match node:
        case m.Lit() | m.Member():
            return True
        case m.Op(args=args) | m.Builtin(args=args):
            return all(is_constant(a) for a in args)
        case m.ListLit(items=items) | m.SetLit(items=items):
            return all(is_constant(a) for a in items)
        case m.If(cond=cond, then=then, else_=else_):
            return is_constant(cond) and is_constant(then) and is_constant(else_)
    return False


@dataclass
class ExprCompiler:
    """Python source for model expressions, untraced (fast) or traced (records the rules used)."""

    model: m.Resolved
    scale: int
    consts: Consts
    names: dict[str, str]  # rule name -> Python name of what a call should use (untraced)
    traced_names: dict[str, str]  # rule name -> traced twin
    attr_tables: dict[tuple[str, str], str]  # (enum, attr) -> table of values (scaled if numbers)
    attr_cites: dict[tuple[str, str], str]  # (enum, attr) -> table of cites per value
    const_names: dict[str, str]  # const -> scaled module constant
    const_cites: dict[str, str]  # const -> cite tuple
    ref_cites: Callable[[tuple[m.Ref, ...]], str]
    enum_order: dict[str, str]  # ordered or cyclic enum -> {value: index} table
    enum_values: dict[str, str]  # enum -> tuple of its values
    records: dict[str, str]
    local: dict[str, str] = field(default_factory=dict)  # rule variable -> Python local
    optimize: bool = True  # untraced code: inline small definitions and tables, fold tests of one value
    rewrote: bool = False  # set when untraced code was written unlike the rule (a call in place, tests folded)
    reads: dict[str, str] = field(default_factory=dict)  # a field read (u.type) -> the local holding it

    def __post_init__(self) -> None:
        self.folder = Interpreter(self.model)
        self.defines = self.folder.defines
        self.tables = self.folder.tables
        self._raises: dict[str, bool] = {}
        self._passing: dict[Any, list[str] | None] = {}
        self._expanded: dict[Any, m.Expr | None] = {}
        # folded()'s answer for each run, by the node's id with the node itself (kept, so no id is used again)
        self._folded: dict[tuple[int, str], tuple[m.Expr, tuple[list[m.Expr], bool]]] = {}
        # the sets of list values fold writes (u.type in {...}): constants, priced as written values
        # are, not as sets written in the rules; kept, so that no other node takes their id
        self._written: dict[int, m.Expr] = {}

    # -- helpers
    def num(self, node: m.Expr, traced: bool) -> str:
        """The node as a scaled number, whatever its numeric type."""
        if isinstance(node.t, IntT) and is_constant(node):
            value = self.constant_value(node)
            if value is not _NOT_FOLDED:
                return literal(value, NUMBER, self.scale, self.consts)
        code = self.ex(node, traced)
        if isinstance(node.t, IntT) and self.scale != 1:
            return f"({code} * {self.scale})"
        return code

    def typed(self, node: m.Expr, want: Type, traced: bool) -> str:
        """The node as a value of type `want` as the module carries it. The checker lets a whole
        number stand where a number is wanted, and a list or set of whole numbers where one of
        numbers is; only numbers are carried scaled, so those are scaled here."""
        if isinstance(want, NumberT):
            return self.num(node, traced)
        t = node.t
        if self.scale != 1 and t != want and ints_for_numbers(t, want):  # at any depth: [[3]] for [[1/2]]
            return mapped(self.ex(node, traced), t, lambda x: f"{x} * {self.scale}", INT)
        return self.ex(node, traced)

    def annotation(self, t: Type) -> str:
        """The module's annotation for a rules type (as emit_python.type_of writes it)."""
        enums = {e: v.removesuffix("_values") for e, v in self.enum_values.items()}
        return type_of(t, enums, self.records)

    def var(self, name: str) -> str:
        return self.local.get(name, py_name(name))

    def ex(self, node: m.Expr, traced: bool) -> str:
        if is_constant(node) and not isinstance(node, m.Member):
            value = self.constant_value(node)
            if value is not _NOT_FOLDED:
                return literal(_plain(value), node.t, self.scale, self.consts)
        match node:
            case m.Member():
                return repr(node.name)
            case m.Var():
                return self._var(node, traced)
            case m.Const():
                return self._const(node, traced)
            case m.Field():
                return self._field(node, traced)
            case m.Attr():
                return self._attr(node, traced)
            case m.Call():
                return self._call(node, traced)
            case m.Builtin():
                return self._builtin(node, traced)
            case m.Op():
                return self._op(node, traced)
            case m.If():
                return self._if(node, traced)
            case m.Agg():
                return self._agg(node, traced)
            case m.Let():
                return self._let(node, traced)
            case m.RecordLit():
                return self._record(node, traced)
            case m.ListLit():
                return self._list(node, traced)
            case m.SetLit():
                return self._set(node, traced)
        raise ValueError(f"cannot compile {type(node).__name__}")

    def constant_value(self, node: m.Expr) -> Any:
        """The value of a constant node, worked out now; _NOT_FOLDED when it has none (t(0) written
        in place made 1 / 0 of 1 / c): then it is compiled, and fails when run, as the rules do."""
        try:
            with budget(FOLD_STEPS):  # its own bound: what the build's examples and analyses spent is not this
                return self.folder.eval(node, {})
        except (EvalError, ArithmeticError):
            return _NOT_FOLDED
        finally:
            self.folder.trace.clear()

    # -- leaves
    def _var(self, node: m.Var, traced: bool) -> str:
        name = self.var(node.name)
        if traced and node.see:
            return f"{_citing(node)}(_t, {self.ref_cites(node.see)}, {name})"
        return name

    def _const(self, node: m.Const, traced: bool) -> str:
        name = self.const_names[node.name]
        if traced:
            return f"{_citing(node)}(_t, {self.const_cites[node.name]}, {name})"
        return name

    def _field(self, node: m.Field, traced: bool) -> str:
        code = f"{self.ex(node.of, traced)}.{py_name(node.name)}"
        if not traced:
            code = self.reads.get(code, code)
        return self.scaled_read(code, node.t)

    def count_reads(self, node: Parts, names: set[str]) -> dict[str, int]:
        """How often the untraced code of node reads each field of the named variables (calls
        written in place counted in), by the Python code of the read: {'u.type': 3}."""
        counts: dict[str, int] = {}

        def walk(n: Parts, names: set[str]) -> None:
            if isinstance(n, (list, tuple)):
                for x in n:
                    walk(x, names)
                return
            if n is None or not names:
                return
            if isinstance(n, m.Call) and self.optimize:
                expanded = self.expand(n)
                if expanded is not None:
                    walk(expanded, names)
                    return
            if isinstance(n, m.Op) and n.op in ("and", "or") and self.optimize:
                walk(self.folded(n, n.op)[0], names)  # as the code is written: tests folded into one
                return
            if isinstance(n, m.Field) and isinstance(n.of, m.Var) and n.of.name in names:
                code = f"{self.var(n.of.name)}.{py_name(n.name)}"
                counts[code] = counts.get(code, 0) + 1
                return
            match n:
                case m.Agg(var=var, over=over, where=where, body=body):
                    walk(over, names)
                    walk([where, body], names - {var})
                    return
                case m.Let(name=name, value=value, body=body):
                    walk(value, names)
                    walk(body, names - {name})
                    return
            walk(list(m.children(n)), names)

        walk(node, names)
        return counts

    def bound_locals(self, node: Parts, own: str) -> set[str]:
        """The Python names the untraced code of node binds for its own parts (an aggregate's item),
        calls written in place counted in, but for those binding the rule variable `own` (they hide
        it in the rules as in Python). A loop that gives its variable another Python name than its
        rule name (a fused limits loop) must not take one of these: the inner loop would capture it."""
        found: set[str] = set()
        todo: list[Parts] = [node]
        while todo:
            n = todo.pop()
            if isinstance(n, (list, tuple)):
                todo.extend(n)
                continue
            if n is None:
                continue
            if isinstance(n, m.Agg) and n.var != own:
                found.add(local_name(n.var))
            if isinstance(n, m.Call) and self.optimize:
                expanded = self.expand(n)
                if expanded is not None:
                    todo.append(expanded)
            todo.extend(m.children(n))
        return found

    def scaled_read(self, code: str, t: Type) -> str:
        """A record field holds exact values; scale it where it is read."""
        if self.scale == 1:
            return code
        if isinstance(t, NumberT):
            return f"_scaled({code})"
        if holds_number(t):  # lists and sets of them, however deep
            return mapped(code, t, lambda x: f"{x} * {self.scale}")
        return code

    def _attr(self, node: m.Attr, traced: bool) -> str:
        key = (node.enum, node.name)
        table = self.attr_tables[key]
        of = self.ex(node.of, traced)
        if traced:
            return f"{'_attr_yes' if isinstance(node.t, BoolT) else '_attr'}(_t, {self.attr_cites[key]}, {table}, {of})"
        return f"{table}[{of}]"

    # -- calls
    def _call(self, node: m.Call, traced: bool) -> str:
        fn = node.fn
        if not traced and self.optimize:
            inlined = self.inline(node)
            if inlined is not None:
                self.rewrote = True
                return inlined
        called = self.call_itself(node, traced)
        if fn in self.folder.limits:  # in an expression, the names of the limits broken (a list of text)
            return f"tuple(v.limit for v in {called})"
        return called

    def call_itself(self, node: m.Call, traced: bool) -> str:
        """The call as written, of the function a program calls too: a limits check's answers its
        violations (rulec eval shows them for a question that is the check alone)."""
        fn = node.fn
        args = [self.typed(a, p, traced) for a, p in zip(node.args, self.signature(fn), strict=True)]
        if traced:
            return f"{self.traced_names[fn]}({', '.join([*args, '_t'])})"
        return f"{self.names[fn]}({', '.join(args)})"

    # -- inlining (untraced code only: the traced twin keeps every call, for its citations)
    def inline(self, node: m.Call) -> str | None:
        expanded = self.expand(node)
        if expanded is None:
            return None
        return self.typed(expanded, node.t, False)  # as the call's type: a body of 1 for a number is scaled

    def expand(self, node: m.Expr) -> m.Expr | None:
        """A call to a small definition or table as the expression it stands for: the body with
        the arguments put for the parameters (a table: its rows as if-then-else). Only when every
        argument is a plain read (a variable, a field, a list value), so nothing is computed twice,
        and for tables only when an 'otherwise' row ends them (no RuleError to raise)."""
        if not isinstance(node, m.Call):
            return None
        fn = node.fn
        d: m.Define | m.Table | None = self.defines.get(fn) or self.tables.get(fn)
        if d is None or not all(_plain_read(a) for a in node.args):
            return None
        key = (fn, tuple(_key(a) for a in node.args))  # kept: a call is looked at more than once
        if key not in self._expanded:
            self._expanded[key] = self._expand(d, node)
        return self._expanded[key]

    def _expand(self, d: m.Define | m.Table, node: m.Call) -> m.Expr | None:
        if isinstance(d, m.Table):
            rows = d.rows
            if not rows or rows[-1].when is not None or len(rows) > INLINE_ROWS or d.requires is not None:
                return None  # a table that may answer nothing (no row matches, or outside its requires)
            body: m.Expr = rows[-1].value
            for r in reversed(rows[:-1]):
                assert r.when is not None
                body = _row(r.when, r.value, body, d.returns)
        elif d.requires is not None:
            return None  # a definition that answers nothing outside its requires
        else:
            body = d.body
        inside = m.walk(body)
        if len(inside) > INLINE_SIZE:
            return None
        bound = {b for b in map(_binds, inside) if b is not None}
        if any(isinstance(n, m.Var) and n.name in bound for a in node.args for n in m.walk(a)):
            return None  # an argument would be captured by the body's own loop variable
        if any(p.t != a.t for p, a in zip(d.params, node.args, strict=True)):
            return None  # a list of whole numbers for a list of numbers: the body's types would not hold
        args = {p.name: a for p, a in zip(d.params, node.args, strict=True)}
        return _substitute(body, args)

    def may_raise(self, node: Parts) -> bool:
        """Whether evaluating the node can raise RuleError (a division, min or max of nothing, a
        table no row of which matches, a call outside a `requires`). Operands that cannot may be
        tested in any order."""
        if isinstance(node, (list, tuple)):
            return any(self.may_raise(x) for x in node)
        if node is None:
            return False
        if isinstance(node, m.Op) and node.op == "/" and not nonzero_constant(node.args[1]):
            return True
        if isinstance(node, m.Agg) and node.fn in ("min", "max", "first"):
            return True
        if isinstance(node, m.Call):
            fn = node.fn
            if fn not in self._raises:
                self._raises[fn] = True  # while deciding, and for recursion: assume it may
                d = self.defines.get(fn) or self.tables.get(fn)
                if d is None:
                    pass
                elif isinstance(d, m.Table):
                    self._raises[fn] = (not d.rows or d.rows[-1].when is not None or d.requires is not None
                                        or any(self.may_raise([r.when, r.value]) for r in d.rows))
                else:
                    self._raises[fn] = d.requires is not None or self.may_raise(d.body)
            if self._raises[fn]:
                return True
        return any(self.may_raise(v) for v in m.children(node))

    def signature(self, fn: str) -> list[Type]:
        d = self.defines.get(fn) or self.tables.get(fn) or self.folder.limits.get(fn)
        if d is None:
            raise KeyError(fn)
        return [p.t for p in d.params]

    def _builtin(self, node: m.Builtin, traced: bool) -> str:
        fn, args, t = node.fn, node.args, node.t
        if fn == "step":
            assert isinstance(t, EnumT)
            enum = t.name
            helper = "_step_around" if node.cyclic else "_step_within"
            return (f"{helper}({self.enum_values[enum]}, {self.enum_order[enum]}, "
                    f"{self.ex(args[0], traced)}, {self.ex(args[1], traced)})")
        if fn in ("min", "max") and isinstance(t, EnumT):  # 'north' alone would be any str to mypy: cast
            codes = [(a, self.ex(a, traced)) for a in args]
            # a call written in place (f3() -> 'company') may give a literal or an if, too
            levels = ", ".join(f"cast({self.annotation(t)!r}, {code})" if _loose(a) or code.startswith(("'", "("))
                               else code for a, code in codes)
            return f"{fn}({levels}, key={self.enum_order[t.name]}.__getitem__)"
        if fn == "len":  # of a list (a tuple), through _len: mypy narrows len() of a tuple
            return f"{'_len' if isinstance(args[0].t, ListT) else 'len'}({self.ex(args[0], traced)})"
        if fn in ("floor", "ceil"):
            x = self.num(args[0], traced)
            if isinstance(args[0].t, IntT):
                return self.ex(args[0], traced)
            if fn == "floor":
                return f"({x} // {self.scale})"
            return f"(-(-{x} // {self.scale}))"
        number = isinstance(t, NumberT)
        if fn == "abs":  # of an int | Fraction, abs() is an object to mypy
            return f"{'_abs' if number else 'abs'}({self.ex(args[0], traced)})"
        parts = [self.num(a, traced) if number else self.ex(a, traced) for a in args]
        if number:  # min/max of int | Fraction: to mypy a union of protocols, so through _nmin, _nmax
            return f"_n{fn}({', '.join(parts)})"
        return f"{fn}({', '.join(parts)})"

    # -- operators
    def _op(self, node: m.Op, traced: bool) -> str:
        op, args, t = node.op, node.args, node.t
        if op in ("and", "or"):
            operands = as_written = _chain(node, op)
            if not traced and self.optimize:
                operands = self.run(node, op)
                if [id(a) for a in operands] != [id(a) for a in as_written]:
                    self.rewrote = True
            return "(" + f" {op} ".join(self.ex(a, traced) for a in operands) + ")"
        if op == "not":
            return f"(not {self.ex(args[0], traced)})"
        if op == "neg":
            return f"(-{self.ex(args[0], traced)})"
        if op in ("+", "-"):
            if isinstance(t, NumberT):
                return f"({self.num(args[0], traced)} {op} {self.num(args[1], traced)})"
            return f"({self.ex(args[0], traced)} {op} {self.ex(args[1], traced)})"
        if op == "*":
            a, b = args
            if isinstance(t, IntT):
                return f"({self.ex(a, traced)} * {self.ex(b, traced)})"
            if isinstance(a.t, IntT) or isinstance(b.t, IntT):  # an int times a scaled number stays scaled
                return f"({self.ex(a, traced)} * {self.ex(b, traced)})"
            return f"_mul({self.ex(a, traced)}, {self.ex(b, traced)})"
        if op == "/":
            return f"_div({self.num(args[0], traced)}, {self.num(args[1], traced)})"
        return self._compare(node, traced)

    def run(self, node: m.Expr, op: str) -> list[m.Expr]:
        """The operands of a run of and (or) as the untraced code tests them: calls written in
        place, the tests of one list value folded into one, in the rules' order but for a bool
        parameter read as it is, tested first where no operand can raise (`action.negatable and
        negated` is `negated and ...`: half of 4.5a's questions end at the flag). A fuller
        ordering by estimated cost paid nothing more the benchmark could see: bench/RESULTS.md."""
        return self.folded(node, op)[0]

    def folded(self, node: m.Expr, op: str) -> tuple[list[m.Expr], bool]:
        """The operands of the run, calls written in place and folded (only when none can raise:
        then the second answer is true, and they may be tested in any order). Worked out once per
        run: the code's writing and its count of reads (count_reads) both ask, and so does each
        hoisted row (half the emitter's time, before). Callers only read the list."""
        kept = self._folded.get((id(node), op))
        if kept is not None and kept[0] is node:
            return kept[1]
        operands = self._expanded_chain(_chain(node, op), op)
        if any(self.may_raise(a) for a in operands):
            answer = (operands, False)
        else:
            folded = self.fold(operands, op)
            answer = (sorted(folded, key=lambda a: not _bare_flag(a)), True)  # stable: flags first
        self._folded[(id(node), op)] = (node, answer)
        return answer

    def fold(self, operands: list[m.Expr], op: str) -> list[m.Expr]:
        """The tests of a run of and (or) that read nothing but one list value (u.type != hq,
        u.type.combat, u.mode in {strat, reserve}) as one test of that value. A list's settings are
        constants, so the values that pass all of those tests (for or: any) are worked out here,
        exactly, with the interpreter: `u.type.combat and u.type != hq` becomes `u.type in {...}`,
        and a test another implies is gone (`u.mode == combat and u.mode not in {strat, reserve}`
        is `u.mode == combat`). The folded test takes the place of the first of its tests."""
        groups: dict[str, list[tuple[int, m.Expr, m.Expr]]] = {}
        for i, a in enumerate(operands):
            found = self.one_value_test(a)
            if found is not None:
                key, read, closed = found
                groups.setdefault(key, []).append((i, read, closed))
        out: list[m.Expr | None] = list(operands)
        for tests in groups.values():
            if len(tests) < 2:
                continue
            read = tests[0][1]
            assert isinstance(read.t, EnumT)
            values = self.enum_members(read.t.name)
            passing = self.passing(read, [closed for _, _, closed in tests], values, op)
            if passing is None:
                continue
            one = out[tests[0][0]] = _membership(read, passing, values)
            if isinstance(one, m.Op) and isinstance(one.args[1], m.SetLit):
                self._written[id(one.args[1])] = one.args[1]
            for i, _, _ in tests[1:]:
                out[i] = None
        # a test folded to a constant: true drops out of an and, false out of an or; the other ends it
        neutral = op == "and"
        result = []
        for test in out:
            if test is None or _is_bool(test, neutral):
                continue
            if _is_bool(test, not neutral):
                return [test]
            result.append(test)
        return result or [_bool(neutral)]

    def one_value_test(self, node: m.Expr) -> tuple[str, m.Expr, m.Expr] | None:
        """(key, read, node with calls written in place) when the node reads one list value and
        nothing else but constants: `is_combat(u)` reads u.type alone, as `u.type.combat`."""
        reads: list[m.Expr] = []
        closed = self._closed(node, reads)
        if closed is None or not reads:
            return None
        keys = {_key(r) for r in reads}
        if len(keys) != 1:
            return None
        return keys.pop(), reads[0], closed

    def _closed(self, node: m.Expr, reads: list[m.Expr]) -> m.Expr | None:
        match node:
            case m.Lit() | m.Member() | m.Const():
                return node
            case m.Var() | m.Field():
                if _plain_read(node) and isinstance(node.t, EnumT):
                    reads.append(node)
                    return node
                return None
            case m.Call():
                expanded = self.expand(node)
                return None if expanded is None else self._closed(expanded, reads)
            case m.Attr():
                of = self._closed(node.of, reads)
                return None if of is None else m.Attr(node.t, of, node.enum, node.name)
            case m.Op() if node.op != "/":
                args = self._all_closed(node.args, reads)
                return None if args is None else m.Op(node.t, node.op, args)
            case m.SetLit():
                items = self._all_closed(node.items, reads)
                return None if items is None else m.SetLit(node.t, items)
            case m.ListLit():
                items = self._all_closed(node.items, reads)
                return None if items is None else m.ListLit(node.t, items)
            case m.If():
                parts = self._all_closed((node.cond, node.then, node.else_), reads)
                return None if parts is None else m.If(node.t, *parts)
        return None

    def _all_closed(self, items: tuple[m.Expr, ...], reads: list[m.Expr]) -> tuple[m.Expr, ...] | None:
        closed = [self._closed(x, reads) for x in items]
        done = [c for c in closed if c is not None]
        return tuple(done) if len(done) == len(closed) else None

    def passing(self, read: m.Expr, tests: list[m.Expr], values: list[str], op: str) -> list[str] | None:
        """The list's values for which all the tests hold (op and) or any does (op or), in the
        list's order; None when the interpreter cannot say. Kept: a run is compiled more than once
        (its reads are counted first)."""
        memo = (op, tuple(_key(t) for t in tests))
        if memo not in self._passing:
            self._passing[memo] = None
            out = []
            try:
                with budget(FOLD_STEPS):  # its own bound: the build's is not spent here
                    for v in values:
                        results = [bool(self.folder.eval(_put(t, read, v), {})) for t in tests]
                        if (all if op == "and" else any)(results):
                            out.append(v)
                self._passing[memo] = out
            except (EvalError, ArithmeticError, TypeError, KeyError, ValueError, IndexError):
                pass
            finally:
                self.folder.trace.clear()
        return self._passing[memo]

    def enum_members(self, enum: str) -> list[str]:
        return list(self.folder.enum_order.get(enum, []))

    def first_test(self, node: m.Expr) -> m.Expr:
        """The part of a condition the untraced code always evaluates: its first test."""
        if isinstance(node, m.Call):
            expanded = self.expand(node)
            return node if expanded is None else self.first_test(expanded)
        if not isinstance(node, m.Op) or node.op not in ("and", "or"):
            return node
        return self.first_test(self.run(node, node.op)[0])

    def values_of(self, t: Type) -> int:
        if isinstance(t, EnumT):
            return len(self.folder.enum_order.get(t.name, []))
        return 0

    def _expanded_chain(self, operands: list[m.Expr], op: str) -> list[m.Expr]:
        """The operands of a run of and (or or), calls written in place, so that a definition's
        own tests join the run: attack_capable(u) and x is a and b and c and x."""
        out = []
        for a in operands:
            expanded = self.expand(a) if isinstance(a, m.Call) else None
            if isinstance(expanded, m.Op) and expanded.op == op:
                out += self._expanded_chain(_chain(expanded, op), op)
            else:
                out.append(a)
        return out

    def _compare(self, node: m.Op, traced: bool) -> str:
        op, (a, b) = node.op, node.args
        if op in ("in", "not in"):
            bt = b.t
            assert isinstance(bt, (ListT, SetT))
            item = bt.item
            if isinstance(item, IntT) and isinstance(a.t, NumberT):  # a number in whole numbers: both scaled
                item = NUMBER
            left = self.num(a, traced) if isinstance(item, NumberT) else self.ex(a, traced)
            if isinstance(item, EnumT) and _loose(a):  # ('a' if c else 'b') in a set of list values
                left = f"cast({self.annotation(item)!r}, {left})"
            want: Type = ListT(item) if isinstance(bt, ListT) else SetT(item)
            right = self.typed(b, want, traced)
            if "cast(" in left or any(isinstance(n, m.Op) and n.op in ("==", "!=") for n in m.walk(a)):
                # mypy checks `in` again when the left operand holds a check this module turns off (a
                # redundant cast, a comparison that can never be equal), and then wants the container's
                # items to be of its type: `Number in tuple[int, int]` would be an [operator] error.
                right = f"cast({self.annotation(want)!r}, {right})"
            return f"({left} {op} {right})"
        numeric = isinstance(a.t, (IntT, NumberT)) and isinstance(b.t, (IntT, NumberT))
        if numeric and (isinstance(a.t, NumberT) or isinstance(b.t, NumberT)):
            return f"({self.num(a, traced)} {op} {self.num(b, traced)})"
        if isinstance(a.t, EnumT) and op in ("<", "<=", ">", ">="):
            order = self.enum_order[a.t.name]
            return f"({order}[{self.ex(a, traced)}] {op} {order}[{self.ex(b, traced)}])"
        both = join(a.t, b.t) or a.t  # a list of whole numbers against one of numbers
        return f"({self.typed(a, both, traced)} {op} {self.typed(b, both, traced)})"

    def _if(self, node: m.If, traced: bool) -> str:
        t = node.t
        then, other = self.typed(node.then, t, traced), self.typed(node.else_, t, traced)
        return f"({then} if {self.ex(node.cond, traced)} else {other})"

    def in_order(self, t: SetT, over: str) -> str:
        """A set's items in the order the interpreter goes over them (Interpreter.order_of): values of
        a list in the list's order, yes/no, numbers and text by value, lists and sets item by item,
        records field by field (by name). Python keeps a set's text in an order that changes with
        the process's hash seed. The key is written out here, from the type: a const computed as
        the module is imported may go over a set, before any table of the module is made."""
        item = t.item
        if isinstance(item, (BoolT, IntT, NumberT, TextT)):
            return f"sorted({over})"
        if isinstance(item, EnumT):
            return f"sorted({over}, key={self._enum_place(item.name)})"
        return f"sorted({over}, key=lambda _k0: {self._order_key(item, '_k0', 1)})"

    def _enum_place(self, enum: str) -> str:
        """A function from a list's value to its place in the list."""
        return f"{self.enum_order[enum]}.__getitem__" if enum in self.enum_order else f"{self.enum_values[enum]}.index"

    def _order_key(self, t: Type, x: str, depth: int) -> str:
        """The code of x's place among a set's items of type t (in_order)."""
        match t:
            case EnumT(name):
                return f"{self._enum_place(name)}({x})"
            case RecordT(name):
                record = self.folder.records[name]
                parts = [self._order_key(f.t, f"{x}.{py_name(f.name)}", depth)
                         for f in sorted(record.fields, key=lambda f: f.name)]
                return "(" + "".join(f"{p}, " for p in parts).rstrip(" ") + ")"
            case ListT(item):
                v = f"_k{depth}"
                return f"tuple({self._order_key(item, v, depth + 1)} for {v} in {x})"
            case SetT(item):
                v = f"_k{depth}"
                return f"tuple(sorted({self._order_key(item, v, depth + 1)} for {v} in {x}))"
        return x

    def _agg(self, node: m.Agg, traced: bool) -> str:
        var = local_name(node.var)
        saved = self.local.get(node.var)
        over = whole = self.ex(node.over, traced)  # read where the generator starts: outside its variable
        if isinstance(node.over.t, SetT) and (traced or node.fn in ("any", "all", "first")):
            # the items in one order: what `first` finds, where any/all stop (an item that fails
            # after the one that decides is not reached) and the order the rules are cited in; a sum,
            # a count, a min or a max is the same in any order
            over = self.in_order(node.over.t, over)
        # Inside, `var` is the generator's own: a field of a parameter of that name read once into a
        # local ahead (u.type -> _u_type) is not this variable's field.
        shadowed = {code: local for code, local in self.reads.items() if code.startswith(f"{var}.")}
        for code in shadowed:
            del self.reads[code]
        self.local[node.var] = var
        try:
            where = f" if {self.ex(node.where, traced)}" if node.where is not None else ""
            fn, t = node.fn, node.t
            if fn == "count":
                if not where:
                    return f"{'_len' if isinstance(node.over.t, ListT) else 'len'}({whole})"
                return f"_count({var} for {var} in {over}{where})"
            number = isinstance(t, NumberT)
            body = self.num(node.body, traced) if number else self.ex(node.body, traced)
            # 'combat' would be any str to mypy, and so would a call written in place that gives it (f1(storm))
            if isinstance(t, EnumT) and (_loose(node.body) or body.startswith(("'", "("))):
                body = f"cast({self.annotation(t)!r}, {body})"
            if fn == "first":
                first = f"_first(next(({body} for {var} in {over}{where}), _NOTHING))"  # see _first
                # The call is cast to the rule's type, as mypy reads it as "item | Any" (the sentinel
                # is Any, so that the items are inferred as they would be alone): abs() or max() around
                # it made Any of that (tests/fixtures/progen/mypy-s1131-1099, mypy-s1131-1242), and a
                # `where` folded to False left only the Any (mypy-s1130-1022). And mypy types `a if c
                # else False` with no type wanted around it by typing a as the else's Literal[False],
                # so `_first(...) and x` there would want items of that type: a yes/no is a bool.
                return f"cast({('Number' if number else self.annotation(t))!r}, {first})"
            gen = f"{body} for {var} in {over}{where}"
            if fn == "sum":
                return f"_sum({gen})"
            if fn in ("any", "all"):
                return f"{fn}({gen})"
            if fn == "product":
                return f"_product(({gen}))" if number else f"_prod({gen})"
            if isinstance(t, EnumT):
                return f"_{fn}(({gen}), key={self.enum_order[t.name]}.__getitem__)"
            return f"_{fn}(({gen}))"
        finally:
            self.reads.update(shadowed)
            if saved is None:
                self.local.pop(node.var, None)
            else:
                self.local[node.var] = saved

    def _let(self, node: m.Let, traced: bool) -> str:
        """`let n = v; body`: the body as a function of n, called with v. A lambda, not a walrus: each
        let has its own n (two lets of one name, or a let in a definition written in place, do not
        share a variable), and it may stand where a walrus may not, in what a loop goes over. A list
        value, or a list or set, is cast to its type: mypy would take 'combat' for any str."""
        name = "_let_" + py_name(node.name)
        saved = self.local.get(node.name)
        vt = node.value.t
        value = self.num(node.value, traced) if isinstance(vt, NumberT) else self.ex(node.value, traced)
        if isinstance(vt, (EnumT, ListT, SetT)):
            value = f"cast({self.annotation(vt)!r}, {value})"
        self.local[node.name] = name
        try:
            body = self.ex(node.body, traced)
        finally:
            if saved is None:
                self.local.pop(node.name, None)
            else:
                self.local[node.name] = saved
        # its result cast too: mypy would infer it from the context (Literal[True] after `x or true and`)
        # or take a list value for any str
        return f"cast({self.annotation(node.t)!r}, _let_in({value}, lambda {name}: {body}))"

    def _record(self, node: m.RecordLit, traced: bool) -> str:
        parts = []
        for name, value in node.fields:
            # a record holds exact values: numbers the module carries scaled are unscaled into it
            code = self.ex(value, traced)
            t = self._field_type(node.record, name)
            if isinstance(value.t, (NumberT, IntT)) and isinstance(t, NumberT):
                code = f"_exact({self.num(value, traced)})"
            elif holds_number(t) and self.scale != 1:  # lists and sets of numbers, however deep
                code = mapped(self.typed(value, t, traced), t, lambda x: f"_exact({x})")
            parts.append(f"{py_name(name)}={code}")
        return f"{self.records[node.record]}({', '.join(parts)})"

    def _field_type(self, record: str, name: str) -> Type:
        r = self.folder.records.get(record)
        for f in r.fields if r is not None else ():
            if f.name == name:
                return f.t
        return ANY

    def _list(self, node: m.ListLit, traced: bool) -> str:
        assert isinstance(node.t, ListT)
        item = node.t.item
        parts = [self.typed(i, item, traced) for i in node.items]
        code = "(" + "".join(f"{p}, " for p in parts).rstrip(" ") + ")"
        return f"cast({self.annotation(node.t)!r}, {code})" if holds_enum(item) else code

    def _set(self, node: m.SetLit, traced: bool) -> str:
        assert isinstance(node.t, SetT)
        item = node.t.item
        parts = [self.typed(i, item, traced) for i in node.items]
        # from a tuple, not a set display: mypy can fail {j} of a j narrowed to Literal[True]
        code = "frozenset((" + "".join(f"{p}, " for p in parts).rstrip(" ") + "))"
        # a set of list values would be one of str to mypy; one of numbers all whole, of int, and an
        # int | Fraction 'in' it an error of --strict-equality
        return (f"cast({self.annotation(node.t)!r}, {code})" if holds_enum(item) or holds_number(item)
                else code)


INLINE_SIZE = 40  # nodes of a body written in place of a call
INLINE_ROWS = 6
FOLD_STEPS = 100_000  # interpreter steps to fold the tests of one run on one list value


_NOT_FOLDED = object()

Parts = m.Expr | None | list[Any] | tuple[Any, ...]  # expressions, or lists of them, as counting walks them


def _citing(node: m.Expr) -> str:
    """The runtime helper that records a read's rules: one for yes/no values that mypy cannot narrow."""
    return "_cite_yes" if isinstance(node.t, BoolT) else "_cite"


def _loose(node: m.Expr) -> bool:
    """Whether mypy may type the node's code more loosely than its list value: a value written as
    text ('combat'), or an if or let giving one."""
    return is_constant(node) or isinstance(node, (m.If, m.Let))


def _key(read: m.Expr) -> str:
    """An expression's structure as text: two reads written alike have the same key."""
    return repr(read)


def _map(node: m.Expr, f: Callable[[m.Expr], m.Expr]) -> m.Expr:
    """The node with f applied to each expression directly inside it."""
    match node:
        case m.Field():
            return m.Field(node.t, f(node.of), node.name)
        case m.Attr():
            return m.Attr(node.t, f(node.of), node.enum, node.name)
        case m.Call():
            return m.Call(node.t, node.fn, tuple(map(f, node.args)))
        case m.Builtin():
            return m.Builtin(node.t, node.fn, tuple(map(f, node.args)), node.cyclic)
        case m.Op():
            return m.Op(node.t, node.op, tuple(map(f, node.args)))
        case m.If():
            return m.If(node.t, f(node.cond), f(node.then), f(node.else_))
        case m.Let():
            return m.Let(node.t, node.name, f(node.value), f(node.body))
        case m.Agg():
            return m.Agg(node.t, node.fn, node.var, node.vart, f(node.over),
                         None if node.where is None else f(node.where), f(node.body))
        case m.RecordLit():
            return m.RecordLit(node.t, node.record, tuple((n, f(v)) for n, v in node.fields))
        case m.ListLit():
            return m.ListLit(node.t, tuple(map(f, node.items)))
        case m.SetLit():
            return m.SetLit(node.t, tuple(map(f, node.items)))
    return node


def _put(node: m.Expr, read: m.Expr, value: str) -> m.Expr:
    """The node with each read like read replaced by the list value."""
    key = _key(read)
    assert isinstance(read.t, EnumT)
    member = m.Member(read.t, read.t.name, value)

    def put(n: m.Expr) -> m.Expr:
        return member if _key(n) == key else _map(n, put)
    return put(node)


def _membership(read: m.Expr, passing: list[str], values: list[str]) -> m.Expr:
    """The test that the read is one of the passing values, written the plainest way: true or
    false, ==, !=, in or not in the shorter set."""
    if len(passing) == len(values):
        return _bool(True)
    if not passing:
        return _bool(False)
    failing = [v for v in values if v not in passing]
    assert isinstance(read.t, EnumT)
    enum = read.t.name
    if len(passing) == 1 or len(failing) == 1:
        op, (value,) = ("==", passing) if len(passing) == 1 else ("!=", failing)
        return m.Op(BOOL, op, (read, m.Member(read.t, enum, value)))
    op, members = ("in", passing) if len(passing) <= len(failing) else ("not in", failing)
    return m.Op(BOOL, op, (read, m.SetLit(SetT(read.t), tuple(m.Member(read.t, enum, v) for v in members))))


def _bool(v: bool) -> m.Expr:
    return m.Lit(BOOL, v)


def nonzero_constant(node: m.Expr) -> bool:
    """A divisor written as a number other than zero (1/4): dividing by it cannot fail (the emitter's
    may_raise and the table analysis' decide.can_fail both ask)."""
    return isinstance(node, m.Lit) and isinstance(node.t, (IntT, NumberT)) and Fraction(node.v) != 0


def _bare_flag(node: m.Expr) -> bool:
    """A bool variable read as it is, or its negation (negated, not negated): no test is cheaper."""
    if isinstance(node, m.Op) and node.op == "not":
        node = node.args[0]
    return isinstance(node, m.Var) and isinstance(node.t, BoolT)


def _plain_read(node: m.Expr) -> bool:
    match node:
        case m.Var():
            return not node.see
        case m.Member() | m.Lit():
            return True
        case m.Field():
            return _plain_read(node.of)
    return False


def _row(when: m.Expr, value: m.Expr, rest: m.Expr, t: Type) -> m.Expr:
    """if when then value else rest, as and/or when the value is true or false:
    `c => true` is `c or rest`, `c => false` is `not c and rest`."""
    if isinstance(t, BoolT) and isinstance(value, m.Lit) and isinstance(value.v, bool):
        if _is_bool(rest, value.v):
            return rest  # both answers the same: the condition does not matter
        if value.v:
            return when if _is_bool(rest, False) else m.Op(BOOL, "or", (when, rest))
        if _is_bool(rest, True):
            return _negate(when)
        return m.Op(BOOL, "and", (_negate(when), rest))
    return m.If(t, when, value, rest)


def _is_bool(node: m.Expr, v: bool | None = None) -> bool:
    return isinstance(node, m.Lit) and isinstance(node.v, bool) and (v is None or node.v is v)


_OPPOSITE = {"==": "!=", "!=": "==", "in": "not in", "not in": "in"}


def _negate(node: m.Expr) -> m.Expr:
    """not node, written without a `not` where there is a plainer way: a != b, x not in s,
    not a or not b (De Morgan)."""
    if isinstance(node, m.Op):
        op = node.op
        if op == "not":
            return node.args[0]
        if op in _OPPOSITE:
            return m.Op(node.t, _OPPOSITE[op], node.args)
        if op in ("and", "or"):
            return m.Op(node.t, "or" if op == "and" else "and", tuple(_negate(a) for a in node.args))
    if isinstance(node, m.Lit) and isinstance(node.v, bool):
        return m.Lit(node.t, not node.v)
    return m.Op(BOOL, "not", (node,))


def _substitute(node: m.Expr, args: dict[str, m.Expr]) -> m.Expr:
    """The node with each variable named in args replaced by its argument (aggregates that bind
    a variable of the same name hide it in their own parts)."""
    if isinstance(node, m.Var) and node.name in args:
        return args[node.name]
    bound = _binds(node)
    if bound in args:
        inner = {k: v for k, v in args.items() if k != bound}
        if isinstance(node, m.Agg):
            return m.Agg(node.t, node.fn, node.var, node.vart, _substitute(node.over, args),
                         None if node.where is None else _substitute(node.where, inner),
                         _substitute(node.body, inner))
        assert isinstance(node, m.Let)
        return m.Let(node.t, node.name, _substitute(node.value, args), _substitute(node.body, inner))
    return _map(node, lambda n: _substitute(n, args))


def _binds(node: m.Expr) -> str | None:
    """The variable a node binds for its own parts: an aggregate's item (not in `over`), a let's
    name (not in `value`)."""
    if isinstance(node, m.Agg):
        return node.var
    if isinstance(node, m.Let):
        return node.name
    return None


def _chain(node: m.Expr, op: str) -> list[m.Expr]:
    """The operands of a run of one boolean operator: a and b and c, not (a and b) and c."""
    if isinstance(node, m.Op) and node.op == op:
        return [x for a in node.args for x in _chain(a, op)]
    return [node]


def _plain(value: Any) -> Any:
    """An interpreter value as the JSON-like constant `literal` takes."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset):
        return [_plain(v) for v in value]
    return value


def module_scale(model: m.Resolved) -> int:
    """The least common multiple of the denominators of every number the rules write."""
    denominators = {1}
    folder = Interpreter(model)
    items: list[m.Define | m.Table] = [*model.defines, *model.tables]
    roots: list[m.Expr] = [e for d in items for e in item_exprs(d)]
    roots += [u.cond for g in model.limits for u in g.unless]
    roots += [e for g in model.limits for i in g.items for e in (i.measure, i.bound, *(x.cond for x in i.exempt))]
    roots += [c.value for c in model.consts]
    for root in roots:
        for n in m.walk(root):
            if isinstance(n, m.Lit) and isinstance(n.t, NumberT):
                denominators.add(Fraction(n.v).denominator)
            if isinstance(n, m.Op) and n.op == "/" and is_constant(n):
                denominators.add(Fraction(folder.eval(n, {})).denominator)
    for e in model.enums:
        for a in e.attrs:
            if isinstance(a.t, NumberT):
                for mem in e.members:
                    v = dict(mem.attrs)[a.name].value
                    if v is not None:
                        denominators.add(Fraction(v).denominator)  # type: ignore[arg-type]
    return math.lcm(*denominators)
