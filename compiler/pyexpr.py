"""Compile IR expressions to Python source text, for the generated check modules.

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
import json
import keyword
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .exprs import join
from .interp_ir import EvalError, Interpreter, budget
from .ir import nodes

Node = dict[str, Any]

RESERVED = {
    "Any", "Answer", "Callable", "Cite", "Final", "Fraction", "Generic", "InvalidInput", "Literal", "Mapping",
    "Number", "RuleError", "SCALE", "Sequence", "TypeVar", "Violation", "annotations", "dataclass", "dataclasses",
    "field", "math", "replace", "T", "MANIFEST", "RULESET", "TITLE", "SERIES", "SERIES_VERSION", "GAME",
    "GAME_VERSION", "SCENARIO", "OPTIONS", "LAYERS", "STATE_SCHEMA", "from_json", "U", "N", "cast",
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
    """A rule name as a Python local (a parameter, a loop variable): never a builtin the code calls."""
    name = py_name(name)
    while name in CODE_BUILTINS:
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


@dataclass
class Consts:
    """Module constants the expressions need (sets, fractions, cite tuples), in order of first use."""

    namer: Namer
    lines: list[str] = field(default_factory=list)
    by_code: dict[str, str] = field(default_factory=dict)
    annotate: Callable[[str], str] | None = None  # a rules type as the module's annotation (enum names known)

    def add(self, prefix: str, code: str, annotation: str = "") -> str:
        key = annotation + "=" + code
        if key not in self.by_code:
            name = self.namer.claim(f"_{prefix}{len(self.by_code)}")
            ann = f": Final[{annotation}]" if annotation else ": Final"
            self.lines.append(f"{name}{ann} = {code}")
            self.by_code[key] = name
        return self.by_code[key]


def type_of(t: str, enum_names: dict[str, str], record_names: dict[str, str], public: bool = False) -> str:
    """The Python annotation for a rules type."""
    if t.startswith("list of "):
        inner = type_of(t[8:], enum_names, record_names, public)
        return f"Sequence[{inner}]" if public else f"tuple[{inner}, ...]"
    if t.startswith("set of "):
        return f"frozenset[{type_of(t[7:], enum_names, record_names, public)}]"
    if t.startswith("enum "):
        return enum_names[t[5:]]
    if t.startswith("record "):
        return record_names[t[7:]]
    return {"bool": "bool", "int": "int", "number": "Number", "text": "str", "any": "Any",
            "limits": "list[Violation]"}[t]


def literal(value: Any, t: str, scale: int, consts: Consts) -> str:
    """Python source for a constant value of type t (numbers scaled)."""
    if t == "number":
        v = Fraction(value) * scale
        if v.denominator == 1:
            return repr(int(v))
        return consts.add("Q", f"Fraction({v.numerator}, {v.denominator})", "Fraction")
    if t.startswith("list of "):
        items = [literal(v, t[8:], scale, consts) for v in value]
        code = "(" + "".join(f"{i}, " for i in items).rstrip(" ") + ")"
        if consts.annotate is not None and (not items or "enum " in t):
            # () alone, or ('combat', 'move'): mypy would know no type, or any str, for what a loop takes
            return consts.add("EMPTY" if not items else "LIST", code, consts.annotate(t))
        return code
    if t.startswith("set of "):
        items = sorted(literal(v, t[7:], scale, consts) for v in value)
        # annotated: a set of list values is not a frozenset[str] to mypy, nor one of 2 and 1/2 of objects
        annotation = consts.annotate(t) if consts.annotate is not None else ("" if items else "frozenset[Any]")
        return consts.add("SET", "frozenset({" + ", ".join(items) + "})" if items else "frozenset()", annotation)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, str)):
        return repr(value)
    raise ValueError(f"cannot write {value!r} as a constant")


def holds_number(t: str) -> bool:
    """Whether values of type t hold numbers (a number, a list of sets of numbers, ...)."""
    for kind in ("list of ", "set of "):
        if t.startswith(kind):
            return holds_number(t[len(kind):])
    return t == "number"


def mapped(code: str, t: str, leaf: Callable[[str], str], leaf_type: str = "number", depth: int = 0) -> str:
    """Python for the value `code` of type t with leaf() applied to each of its parts of type
    leaf_type, however deep in lists and sets: `tuple(_x * 4 for _x in xs)`, and for a list of
    lists `tuple(tuple(_x1 * 4 for _x1 in _x) for _x in xs)`. Lists are rebuilt as tuples."""
    if t == leaf_type:
        return leaf(code)
    for kind, wrap in (("list of ", "tuple"), ("set of ", "frozenset")):
        if t.startswith(kind):
            inner = t[len(kind):]
            var = "_x" if depth == 0 else f"_x{depth}"
            return f"{wrap}({mapped(var, inner, leaf, leaf_type, depth + 1)} for {var} in {_operand(code)})"
    return code


def _operand(code: str) -> str:
    """code as the operand of `in`: in parentheses unless it is a name, a call, an index or a literal."""
    try:
        node = pyast.parse(code, mode="eval").body
    except SyntaxError:
        return f"({code})"
    return code if isinstance(node, (pyast.Name, pyast.Attribute, pyast.Call, pyast.Subscript, pyast.Tuple,
                                     pyast.Constant)) else f"({code})"


def ints_for_numbers(t: str, want: str) -> bool:
    """Whether t is want with whole numbers where want has numbers: a list of lists of ints where a
    list of lists of numbers is wanted (the checker lets one stand for the other)."""
    if t == "int" and want == "number":
        return True
    for kind in ("list of ", "set of "):
        if t.startswith(kind) and want.startswith(kind):
            return ints_for_numbers(t[len(kind):], want[len(kind):])
    return False


def is_constant(node: Node) -> bool:
    k = node["k"]
    if k in ("lit", "member"):
        return True
    if k in ("op", "builtin"):
        return all(is_constant(a) for a in node["args"])
    if k in ("list", "set"):
        return all(is_constant(a) for a in node["items"])
    if k == "if":
        return all(is_constant(node[x]) for x in ("cond", "then", "else"))
    return False


@dataclass
class ExprCompiler:
    """Python source for IR expressions, untraced (fast) or traced (records the rules used)."""

    model: dict[str, Any]
    scale: int
    consts: Consts
    names: dict[str, str]  # rule name -> Python name of what a call should use (untraced)
    traced_names: dict[str, str]  # rule name -> traced twin
    attr_tables: dict[tuple[str, str], str]  # (enum, attr) -> table of values (scaled if numbers)
    attr_cites: dict[tuple[str, str], str]  # (enum, attr) -> table of cites per value
    const_names: dict[str, str]  # const -> scaled module constant
    const_cites: dict[str, str]  # const -> cite tuple
    ref_cites: Callable[[list[dict[str, Any]]], str]
    enum_order: dict[str, str]  # ordered or cyclic enum -> {value: index} table
    enum_values: dict[str, str]  # enum -> tuple of its values
    records: dict[str, str]
    local: dict[str, str] = field(default_factory=dict)  # rule variable -> Python local
    optimize: bool = True  # untraced code: inline small definitions and tables, cheap tests first
    reads: dict[str, str] = field(default_factory=dict)  # a field read (u.type) -> the local holding it

    def __post_init__(self) -> None:
        self.folder = Interpreter(self.model)
        self.defines = {d["name"]: d for d in self.model["defines"]}
        self.tables = {t["name"]: t for t in self.model["tables"]}
        self._raises: dict[str, bool] = {}
        self._passing: dict[str, list[str] | None] = {}
        self._expanded: dict[str, Node | None] = {}

    # -- helpers
    def num(self, node: Node, traced: bool) -> str:
        """The node as a scaled number, whatever its numeric type."""
        if node["t"] == "int" and (is_constant(node) or (node["k"] == "const" and not traced and self.optimize)):
            value = self.constant_value(node)
            if value is not _NOT_FOLDED:
                return literal(value, "number", self.scale, self.consts)
        code = self.ex(node, traced)
        if node["t"] == "int" and self.scale != 1:
            return f"({code} * {self.scale})"
        return code

    def typed(self, node: Node, want: str, traced: bool) -> str:
        """The node as a value of type `want` as the module carries it. The checker lets a whole
        number stand where a number is wanted, and a list or set of whole numbers where one of
        numbers is; only numbers are carried scaled, so those are scaled here."""
        if want == "number":
            return self.num(node, traced)
        t = node["t"]
        if self.scale != 1 and t != want and ints_for_numbers(t, want):  # at any depth: [[3]] for [[1/2]]
            return mapped(self.ex(node, traced), t, lambda x: f"{x} * {self.scale}", "int")
        return self.ex(node, traced)

    def annotation(self, t: str) -> str:
        """The module's annotation for a rules type (as emit_python.type_of writes it)."""
        enums = {e: v.removesuffix("_values") for e, v in self.enum_values.items()}
        return type_of(t, enums, self.records)

    def var(self, name: str) -> str:
        return self.local.get(name, py_name(name))

    def ex(self, node: Node, traced: bool) -> str:
        if is_constant(node) and node["k"] != "member":
            value = self.constant_value(node)
            if value is not _NOT_FOLDED:
                return literal(_plain(value), node["t"], self.scale, self.consts)
        method: Callable[[Node, bool], str] = getattr(self, "_" + node["k"])
        return method(node, traced)

    def constant_value(self, node: Node) -> Any:
        """The value of a constant node, worked out now; _NOT_FOLDED when it has none (t(0) written
        in place made 1 / 0 of 1 / c): then it is compiled, and fails when run, as the rules do."""
        try:
            return self.folder.eval(node, {})
        except (EvalError, ArithmeticError):
            return _NOT_FOLDED
        finally:
            self.folder.trace.clear()

    # -- leaves
    def _member(self, node: Node, traced: bool) -> str:
        return repr(node["name"])

    def _var(self, node: Node, traced: bool) -> str:
        name = self.var(node["name"])
        if traced and node.get("see"):
            return f"{_citing(node)}(_t, {self.ref_cites(node['see'])}, {name})"
        return name

    def _const(self, node: Node, traced: bool) -> str:
        name = self.const_names[node["name"]]
        if traced:
            return f"{_citing(node)}(_t, {self.const_cites[node['name']]}, {name})"
        return name

    def _field(self, node: Node, traced: bool) -> str:
        code = f"{self.ex(node['of'], traced)}.{py_name(node['name'])}"
        if not traced:
            code = self.reads.get(code, code)
        return self.scaled_read(code, node["t"])

    def count_reads(self, node: Any, names: set[str]) -> dict[str, int]:
        """How often the untraced code of node reads each field of the named variables (calls
        written in place counted in), by the Python code of the read: {'u.type': 3}."""
        counts: dict[str, int] = {}

        def walk(n: Any, names: set[str]) -> None:
            if isinstance(n, list):
                for x in n:
                    walk(x, names)
                return
            if not isinstance(n, dict) or not names:
                return
            k = n.get("k")
            if k == "call" and self.optimize:
                expanded = self.expand(n)
                if expanded is not None:
                    walk(expanded, names)
                    return
            if k == "op" and n["op"] in ("and", "or") and self.optimize:
                walk(self.folded(n, n["op"])[0], names)  # as the code is written: tests folded into one
                return
            if k == "field" and n["of"].get("k") == "var" and n["of"]["name"] in names:
                code = f"{self.var(n['of']['name'])}.{py_name(n['name'])}"
                counts[code] = counts.get(code, 0) + 1
                return
            bound = _binds(n)
            if bound is not None:
                walk([v for key, v in n.items() if key in ("over", "value")], names)
                walk([v for key, v in n.items() if key not in ("over", "value")], names - {bound})
                return
            for v in n.values():
                if isinstance(v, (dict, list)):
                    walk(v, names)

        walk(node, names)
        return counts

    def bound_locals(self, node: Any, own: str) -> set[str]:
        """The Python names the untraced code of node binds for its own parts (an aggregate's item),
        calls written in place counted in, but for those binding the rule variable `own` (they hide
        it in the rules as in Python). A loop that gives its variable another Python name than its
        rule name (a fused limits loop) must not take one of these: the inner loop would capture it."""
        found: set[str] = set()
        todo = [node]
        while todo:
            n = todo.pop()
            if isinstance(n, list):
                todo.extend(n)
                continue
            if not isinstance(n, dict):
                continue
            if n.get("k") == "agg" and n["var"] != own:
                found.add(local_name(n["var"]))
            if n.get("k") == "call" and self.optimize:
                expanded = self.expand(n)
                if expanded is not None:
                    todo.append(expanded)
            todo.extend(v for v in n.values() if isinstance(v, (dict, list)))
        return found

    def scaled_read(self, code: str, t: str) -> str:
        """A record field holds exact values; scale it where it is read."""
        if self.scale == 1:
            return code
        if t == "number":
            return f"({code} * {self.scale})"
        if holds_number(t):  # lists and sets of them, however deep
            return mapped(code, t, lambda x: f"{x} * {self.scale}")
        return code

    def _attr(self, node: Node, traced: bool) -> str:
        key = (node["enum"], node["name"])
        table = self.attr_tables[key]
        of = self.ex(node["of"], traced)
        if traced:
            return f"{'_attr_yes' if node['t'] == 'bool' else '_attr'}(_t, {self.attr_cites[key]}, {table}, {of})"
        return f"{table}[{of}]"

    # -- calls
    def _call(self, node: Node, traced: bool) -> str:
        fn = node["fn"]
        if not traced and self.optimize:
            inlined = self.inline(node)
            if inlined is not None:
                return inlined
        callee = self.signature(fn)
        args = []
        for a, p in zip(node["args"], callee, strict=True):
            args.append(self.typed(a, p, traced))
        if traced:
            args.append("_t")
            return f"{self.traced_names[fn]}({', '.join(args)})"
        return f"{self.names[fn]}({', '.join(args)})"

    # -- inlining (untraced code only: the traced twin keeps every call, for its citations)
    def inline(self, node: Node) -> str | None:
        expanded = self.expand(node)
        if expanded is None:
            return None
        return self.typed(expanded, node["t"], False)  # as the call's type: a body of 1 for a number is scaled

    def expand(self, node: Node) -> Node | None:
        """A call to a small definition or table as the expression it stands for: the body with
        the arguments put for the parameters (a table: its rows as if-then-else). Only when every
        argument is a plain read (a variable, a field, a list value), so nothing is computed twice,
        and for tables only when an 'otherwise' row ends them (no RuleError to raise)."""
        if node["k"] != "call":
            return None
        fn = node["fn"]
        d = self.defines.get(fn) or self.tables.get(fn)
        if d is None or not all(_plain_read(a) for a in node["args"]):
            return None
        key = json.dumps([fn, node["args"]], sort_keys=True)  # kept: a call is looked at more than once
        if key not in self._expanded:
            self._expanded[key] = self._expand(d, node)
        return self._expanded[key]

    def _expand(self, d: Node, node: Node) -> Node | None:
        rows = d.get("rows")
        if rows is not None:
            if not rows or rows[-1]["when"] is not None or len(rows) > INLINE_ROWS:
                return None
            body: Node = rows[-1]["value"]
            for r in reversed(rows[:-1]):
                body = _row(r["when"], r["value"], body, d["returns"])
        else:
            body = d["body"]
        if _size(body) > INLINE_SIZE:
            return None
        bound = {_binds(n) for n in nodes(body)} - {None}
        if any(n.get("k") == "var" and n["name"] in bound for n in nodes(node["args"])):
            return None  # an argument would be captured by the body's own loop variable
        if any(p["t"] != a["t"] for p, a in zip(d["params"], node["args"], strict=True)):
            return None  # a list of whole numbers for a list of numbers: the body's types would not hold
        args = {p["name"]: a for p, a in zip(d["params"], node["args"], strict=True)}
        result: Node = _substitute(body, args)
        return result

    def may_raise(self, node: Any) -> bool:
        """Whether evaluating the node can raise RuleError (a division, min or max of nothing, a
        table no row of which matches). Operands that cannot may be tested in any order."""
        if isinstance(node, list):
            return any(self.may_raise(x) for x in node)
        if not isinstance(node, dict):
            return False
        k = node.get("k")
        if k == "op" and node["op"] == "/" and not _nonzero_constant(node["args"][1]):
            return True
        if k == "agg" and node["fn"] in ("min", "max", "first"):
            return True
        if k == "call":
            fn = node["fn"]
            if fn not in self._raises:
                self._raises[fn] = True  # while deciding, and for recursion: assume it may
                d = self.defines.get(fn) or self.tables.get(fn)
                if d is None:
                    pass
                elif "rows" in d:
                    self._raises[fn] = (not d["rows"] or d["rows"][-1]["when"] is not None
                                        or any(self.may_raise([r["when"], r["value"]]) for r in d["rows"]))
                else:
                    self._raises[fn] = self.may_raise(d["body"])
            if self._raises[fn]:
                return True
        return any(self.may_raise(v) for v in node.values() if isinstance(v, (dict, list)))

    def signature(self, fn: str) -> list[str]:
        d = self.defines.get(fn) or self.tables.get(fn) or self.folder.limits.get(fn)
        if d is None:
            raise KeyError(fn)
        return [p["t"] for p in d["params"]]

    def _builtin(self, node: Node, traced: bool) -> str:
        fn, args, t = node["fn"], node["args"], node["t"]
        if fn == "step":
            enum = t[5:]
            helper = "_step_around" if node.get("cyclic") else "_step_within"
            return (f"{helper}({self.enum_values[enum]}, {self.enum_order[enum]}, "
                    f"{self.ex(args[0], traced)}, {self.ex(args[1], traced)})")
        if fn in ("min", "max") and t.startswith("enum "):  # 'north' alone would be any str to mypy: cast
            levels = ", ".join(f"cast({self.annotation(t)!r}, {self.ex(a, traced)})" if _loose(a)
                               else self.ex(a, traced) for a in args)
            return f"{fn}({levels}, key={self.enum_order[t[5:]]}.__getitem__)"
        if fn == "len":  # of a list (a tuple), through _len: mypy narrows len() of a tuple
            return f"{'_len' if args[0]['t'].startswith('list of ') else 'len'}({self.ex(args[0], traced)})"
        if fn in ("floor", "ceil"):
            x = self.num(args[0], traced)
            if args[0]["t"] == "int":
                return self.ex(args[0], traced)
            if fn == "floor":
                return f"({x} // {self.scale})"
            return f"(-(-{x} // {self.scale}))"
        if fn == "abs":  # of an int | Fraction, abs() is an object to mypy
            return f"{'_abs' if t == 'number' else 'abs'}({self.ex(args[0], traced)})"
        parts = [self.num(a, traced) if t == "number" else self.ex(a, traced) for a in args]
        if t == "number":  # min/max of int | Fraction: to mypy a union of protocols, so through _nmin, _nmax
            return f"_n{fn}({', '.join(parts)})"
        return f"{fn}({', '.join(parts)})"

    # -- operators
    def _op(self, node: Node, traced: bool) -> str:
        op, args, t = node["op"], node["args"], node["t"]
        if op in ("and", "or"):
            operands = self.run(node, op) if not traced and self.optimize else _chain(node, op)
            return "(" + f" {op} ".join(self.ex(a, traced) for a in operands) + ")"
        if op == "not":
            return f"(not {self.ex(args[0], traced)})"
        if op == "neg":
            return f"(-{self.ex(args[0], traced)})"
        if op in ("+", "-"):
            if t == "number":
                return f"({self.num(args[0], traced)} {op} {self.num(args[1], traced)})"
            return f"({self.ex(args[0], traced)} {op} {self.ex(args[1], traced)})"
        if op == "*":
            a, b = args
            if t == "int":
                return f"({self.ex(a, traced)} * {self.ex(b, traced)})"
            if a["t"] == "int" or b["t"] == "int":  # an int times a scaled number stays scaled
                return f"({self.ex(a, traced)} * {self.ex(b, traced)})"
            return f"_mul({self.ex(a, traced)}, {self.ex(b, traced)})"
        if op == "/":
            return f"_div({self.num(args[0], traced)}, {self.num(args[1], traced)})"
        return self._compare(node, traced)

    def run(self, node: Node, op: str) -> list[Node]:
        """The operands of a run of and (or) as the untraced code tests them: calls written in
        place, the tests of one list value folded into one, in the order that settles the run
        soonest. Folding and ordering only when no operand can raise: then the order of the tests
        cannot change the answer."""
        operands, safe = self.folded(node, op)
        return self.order(operands, op) if safe else operands

    def folded(self, node: Node, op: str) -> tuple[list[Node], bool]:
        """The operands of the run, calls written in place and folded (only when none can raise:
        then the second answer is true, and they may be tested in any order)."""
        operands = self._expanded_chain(_chain(node, op), op)
        if any(self.may_raise(a) for a in operands):
            return operands, False
        return self.fold(operands, op), True

    def fold(self, operands: list[Node], op: str) -> list[Node]:
        """The tests of a run of and (or) that read nothing but one list value (u.type != hq,
        u.type.combat, u.mode in {strat, reserve}) as one test of that value. A list's settings are
        constants, so the values that pass all of those tests (for or: any) are worked out here,
        exactly, with the interpreter: `u.type.combat and u.type != hq` becomes `u.type in {...}`,
        and a test another implies is gone (`u.mode == combat and u.mode not in {strat, reserve}`
        is `u.mode == combat`). The folded test takes the place of the first of its tests."""
        groups: dict[str, list[tuple[int, Node, Node]]] = {}
        for i, a in enumerate(operands):
            found = self.one_value_test(a)
            if found is not None:
                key, read, closed = found
                groups.setdefault(key, []).append((i, read, closed))
        out: list[Node | None] = list(operands)
        for tests in groups.values():
            if len(tests) < 2:
                continue
            read = tests[0][1]
            values = self.enum_members(read["t"][5:])
            passing = self.passing(read, [closed for _, _, closed in tests], values, op)
            if passing is None:
                continue
            out[tests[0][0]] = _membership(read, passing, values)
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

    def one_value_test(self, node: Node) -> tuple[str, Node, Node] | None:
        """(key, read, node with calls written in place) when the node reads one list value and
        nothing else but constants: `is_combat(u)` reads u.type alone, as `u.type.combat`."""
        reads: list[Node] = []
        closed = self._closed(node, reads)
        if closed is None or not reads:
            return None
        keys = {_key(r) for r in reads}
        if len(keys) != 1:
            return None
        return keys.pop(), reads[0], closed

    def _closed(self, node: Node, reads: list[Node]) -> Node | None:
        k = node["k"]
        if k in ("lit", "member", "const"):
            return node
        if k in ("var", "field"):
            if _plain_read(node) and node["t"].startswith("enum "):
                reads.append(node)
                return node
            return None
        if k == "call":
            expanded = self.expand(node)
            return None if expanded is None else self._closed(expanded, reads)
        if k == "attr":
            of = self._closed(node["of"], reads)
            return None if of is None else {**node, "of": of}
        parts: dict[str, Any] = {}
        if k == "op" and node["op"] != "/":
            parts = {"args": node["args"]}
        elif k in ("set", "list"):
            parts = {"items": node["items"]}
        elif k == "if":
            parts = {"cond": [node["cond"]], "then": [node["then"]], "else": [node["else"]]}
        else:
            return None
        done: dict[str, Any] = {}
        for name, items in parts.items():
            closed = [self._closed(x, reads) for x in items]
            if any(c is None for c in closed):
                return None
            done[name] = closed if name in ("args", "items") else closed[0]
        return {**node, **done}

    def passing(self, read: Node, tests: list[Node], values: list[str], op: str) -> list[str] | None:
        """The list's values for which all the tests hold (op and) or any does (op or), in the
        list's order; None when the interpreter cannot say. Kept: a run is compiled more than once
        (its reads are counted first)."""
        memo = json.dumps([op, tests], sort_keys=True)
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
        for e in self.model["enums"]:
            if e["name"] == enum:
                return [m["name"] for m in e["members"]]
        return []

    def order(self, operands: list[Node], op: str) -> list[Node]:
        """The operands of a run of and (or) in the order that settles it soonest on average: by
        cost over the chance the test ends the run (false for and, true for or), the classic
        order for independent tests. Chances come from the types: a list value is one of its
        list's N values, a yes/no is even."""
        def key(a: Node) -> float:
            p = self.chance(a)
            settles = (1 - p) if op == "and" else p
            return _cost(a) / max(settles, 0.01)
        return sorted(operands, key=key)  # stable: ties keep the rules' order

    def chance(self, node: Node) -> float:
        """A rough chance that a yes/no node is true."""
        k = node["k"]
        if k == "op":
            op, args = node["op"], node["args"]
            if op == "not":
                return 1 - self.chance(args[0])
            if op == "and":
                return self.chance(args[0]) * self.chance(args[1])
            if op == "or":
                a, b = self.chance(args[0]), self.chance(args[1])
                return a + b - a * b
            if op in ("==", "!=", "in", "not in"):
                n = self.values_of(args[0]["t"])
                if n:
                    k_true = len(args[1]["items"]) if op in ("in", "not in") and args[1]["k"] == "set" else 1
                    if op in ("in", "not in") and args[1]["k"] == "lit":
                        k_true = len(args[1]["v"])
                    p = min(1.0, k_true / n)
                    return p if op in ("==", "in") else 1 - p
        return 0.5

    def first_test(self, node: Node) -> Node:
        """The part of a condition the untraced code always evaluates: its first test."""
        if node["k"] == "call":
            expanded = self.expand(node)
            return node if expanded is None else self.first_test(expanded)
        if node["k"] != "op" or node["op"] not in ("and", "or"):
            return node
        return self.first_test(self.run(node, node["op"])[0])

    def values_of(self, t: str) -> int:
        if t.startswith("enum "):
            for e in self.model["enums"]:
                if e["name"] == t[5:]:
                    return len(e["members"])
        return 0

    def _expanded_chain(self, operands: list[Node], op: str) -> list[Node]:
        """The operands of a run of and (or or), calls written in place, so that a definition's
        own tests join the run: attack_capable(u) and x is a and b and c and x."""
        out = []
        for a in operands:
            expanded = self.expand(a) if a["k"] == "call" else None
            if expanded is not None and expanded["k"] == "op" and expanded["op"] == op:
                out += self._expanded_chain(_chain(expanded, op), op)
            else:
                out.append(a)
        return out

    def _compare(self, node: Node, traced: bool) -> str:
        op, (a, b) = node["op"], node["args"]
        if op in ("in", "not in"):
            kind, item = b["t"].split(" of ", 1)
            if item == "int" and a["t"] == "number":  # a number in whole numbers: both scaled
                item = "number"
            left = self.num(a, traced) if item == "number" else self.ex(a, traced)
            if item.startswith("enum ") and _loose(a):  # ('a' if c else 'b') in a set of list values
                left = f"cast({self.annotation(item)!r}, {left})"
            return f"({left} {op} {self.typed(b, f'{kind} of {item}', traced)})"
        numeric = a["t"] in ("int", "number") and b["t"] in ("int", "number")
        if numeric and "number" in (a["t"], b["t"]):
            return f"({self.num(a, traced)} {op} {self.num(b, traced)})"
        if a["t"].startswith("enum ") and op in ("<", "<=", ">", ">="):
            order = self.enum_order[a["t"][5:]]
            return f"({order}[{self.ex(a, traced)}] {op} {order}[{self.ex(b, traced)}])"
        both = join(a["t"], b["t"]) or a["t"]  # a list of whole numbers against one of numbers
        return f"({self.typed(a, both, traced)} {op} {self.typed(b, both, traced)})"

    def _if(self, node: Node, traced: bool) -> str:
        t = node["t"]
        then, other = self.typed(node["then"], t, traced), self.typed(node["else"], t, traced)
        return f"({then} if {self.ex(node['cond'], traced)} else {other})"

    def _agg(self, node: Node, traced: bool) -> str:
        var = local_name(node["var"])
        saved = self.local.get(node["var"])
        over = self.ex(node["over"], traced)  # read where the generator starts: outside its variable
        # Inside, `var` is the generator's own: a field of a parameter of that name read once into a
        # local ahead (u.type -> _u_type) is not this variable's field.
        shadowed = {code: local for code, local in self.reads.items() if code.startswith(f"{var}.")}
        for code in shadowed:
            del self.reads[code]
        self.local[node["var"]] = var
        try:
            where = f" if {self.ex(node['where'], traced)}" if node["where"] is not None else ""
            fn, t = node["fn"], node["t"]
            if fn == "count":
                if not where:
                    return f"{'_len' if node['over']['t'].startswith('list of ') else 'len'}({over})"
                return f"_count({var} for {var} in {over}{where})"
            body = self.num(node["body"], traced) if t == "number" else self.ex(node["body"], traced)
            if t.startswith("enum ") and _loose(node["body"]):
                body = f"cast({self.annotation(t)!r}, {body})"  # 'combat' would be any str to mypy
            if fn == "first":
                return f"_first({body} for {var} in {over}{where})"
            gen = f"{body} for {var} in {over}{where}"
            if fn == "sum":
                return f"_sum({gen})"
            if fn in ("any", "all"):
                return f"{fn}({gen})"
            if fn == "product":
                return f"_product(({gen}))" if t == "number" else f"_prod({gen})"
            if t.startswith("enum "):
                return f"_{fn}(({gen}), key={self.enum_order[t[5:]]}.__getitem__)"
            return f"_{fn}(({gen}))"
        finally:
            self.reads.update(shadowed)
            if saved is None:
                self.local.pop(node["var"], None)
            else:
                self.local[node["var"]] = saved

    def _let(self, node: Node, traced: bool) -> str:
        """`let n = v; body`: the body as a function of n, called with v. A lambda, not a walrus: each
        let has its own n (two lets of one name, or a let in a definition written in place, do not
        share a variable), and it may stand where a walrus may not, in what a loop goes over. A list
        value, or a list or set, is cast to its type: mypy would take 'combat' for any str."""
        name = "_let_" + py_name(node["name"])
        saved = self.local.get(node["name"])
        vt = node["value"]["t"]
        value = self.num(node["value"], traced) if vt == "number" else self.ex(node["value"], traced)
        if vt.startswith(("enum ", "list of ", "set of ")):
            value = f"cast({self.annotation(vt)!r}, {value})"
        self.local[node["name"]] = name
        try:
            body = self.ex(node["body"], traced)
        finally:
            if saved is None:
                self.local.pop(node["name"], None)
            else:
                self.local[node["name"]] = saved
        # its result cast too: mypy would infer it from the context (Literal[True] after `x or true and`)
        # or take a list value for any str
        return f"cast({self.annotation(node['t'])!r}, _let_in({value}, lambda {name}: {body}))"

    def _record(self, node: Node, traced: bool) -> str:
        parts = []
        for name, value in node["fields"].items():
            # a record holds exact values: numbers the module carries scaled are unscaled into it
            code = self.ex(value, traced)
            t = self._field_type(node["record"], name)
            if value["t"] in ("number", "int") and t == "number":
                code = f"_exact({self.num(value, traced)})"
            elif holds_number(t) and self.scale != 1:  # lists and sets of numbers, however deep
                code = mapped(self.typed(value, t, traced), t, lambda x: f"_exact({x})")
            parts.append(f"{py_name(name)}={code}")
        return f"{self.records[node['record']]}({', '.join(parts)})"

    def _field_type(self, record: str, name: str) -> str:
        for r in self.model["records"]:
            if r["name"] == record:
                for f in r["fields"]:
                    if f["name"] == name:
                        return str(f["t"])
        return "any"

    def _list(self, node: Node, traced: bool) -> str:
        item = node["t"][8:]
        parts = [self.typed(i, item, traced) for i in node["items"]]
        code = "(" + "".join(f"{p}, " for p in parts).rstrip(" ") + ")"
        return f"cast({self.annotation(node['t'])!r}, {code})" if "enum " in item else code

    def _set(self, node: Node, traced: bool) -> str:
        item = node["t"][7:]
        parts = [self.typed(i, item, traced) for i in node["items"]]
        # from a tuple, not a set display: mypy can fail {j} of a j narrowed to Literal[True]
        code = "frozenset((" + "".join(f"{p}, " for p in parts).rstrip(" ") + "))"
        # a set of list values would be one of str to mypy; one of numbers all whole, of int, and an
        # int | Fraction 'in' it an error of --strict-equality
        return f"cast({self.annotation(node['t'])!r}, {code})" if "enum " in item or holds_number(item) else code


INLINE_SIZE = 40  # nodes of a body written in place of a call
INLINE_ROWS = 6
FOLD_STEPS = 100_000  # interpreter steps to fold the tests of one run on one list value


_NOT_FOLDED = object()


def _citing(node: Node) -> str:
    """The runtime helper that records a read's rules: one for yes/no values that mypy cannot narrow."""
    return "_cite_yes" if node["t"] == "bool" else "_cite"


def _loose(node: Node) -> bool:
    """Whether mypy may type the node's code more loosely than its list value: a value written as
    text ('combat'), or an if or let giving one."""
    return is_constant(node) or node["k"] in ("if", "let")


def _key(read: Node) -> str:
    return json.dumps(read, sort_keys=True)


def _put(node: Any, read: Node, value: str) -> Any:
    """The node with each read like read replaced by the list value."""
    if isinstance(node, list):
        return [_put(x, read, value) for x in node]
    if not isinstance(node, dict):
        return node
    if node == read:
        return {"k": "member", "t": node["t"], "enum": node["t"][5:], "name": value}
    return {k: _put(v, read, value) for k, v in node.items()}


def _membership(read: Node, passing: list[str], values: list[str]) -> Node:
    """The test that the read is one of the passing values, written the plainest way: true or
    false, ==, !=, in or not in the shorter set."""
    if len(passing) == len(values):
        return _bool(True)
    if not passing:
        return _bool(False)
    failing = [v for v in values if v not in passing]
    enum = read["t"][5:]
    if len(passing) == 1 or len(failing) == 1:
        op, (value,) = ("==", passing) if len(passing) == 1 else ("!=", failing)
        return {"k": "op", "t": "bool", "op": op,
                "args": [read, {"k": "member", "t": read["t"], "enum": enum, "name": value}]}
    op, members = ("in", passing) if len(passing) <= len(failing) else ("not in", failing)
    return {"k": "op", "t": "bool", "op": op, "args": [read, {"k": "lit", "t": "set of " + read["t"], "v": members}]}


def _bool(v: bool) -> Node:
    return {"k": "lit", "t": "bool", "v": v}


def _nonzero_constant(node: Node) -> bool:
    """A divisor written as a number other than zero (1/4): dividing by it cannot fail."""
    return node["k"] == "lit" and node["t"] in ("int", "number") and Fraction(node["v"]) != 0


def _plain_read(node: Node) -> bool:
    k = node["k"]
    if k in ("var", "member", "lit"):
        return not node.get("see")
    if k == "field":
        return _plain_read(node["of"])
    return False


def _row(when: Node, value: Node, rest: Node, t: str) -> Node:
    """if when then value else rest, as and/or when the value is true or false:
    `c => true` is `c or rest`, `c => false` is `not c and rest`."""
    if t == "bool" and _is_bool(value):
        if _is_bool(rest, value["v"]):
            return rest  # both answers the same: the condition does not matter
        if value["v"]:
            return when if _is_bool(rest, False) else {"k": "op", "t": "bool", "op": "or", "args": [when, rest]}
        if _is_bool(rest, True):
            return _negate(when)
        return {"k": "op", "t": "bool", "op": "and", "args": [_negate(when), rest]}
    return {"k": "if", "t": t, "cond": when, "then": value, "else": rest}


def _is_bool(node: Node, v: bool | None = None) -> bool:
    return node["k"] == "lit" and isinstance(node["v"], bool) and (v is None or node["v"] is v)


_OPPOSITE = {"==": "!=", "!=": "==", "in": "not in", "not in": "in"}


def _negate(node: Node) -> Node:
    """not node, written without a `not` where there is a plainer way: a != b, x not in s,
    not a or not b (De Morgan)."""
    if node["k"] == "op":
        op = node["op"]
        if op == "not":
            return node["args"][0]  # type: ignore[no-any-return]
        if op in _OPPOSITE:
            return {**node, "op": _OPPOSITE[op]}
        if op in ("and", "or"):
            return {**node, "op": "or" if op == "and" else "and", "args": [_negate(a) for a in node["args"]]}
    if _is_bool(node):
        return {**node, "v": not node["v"]}
    return {"k": "op", "t": "bool", "op": "not", "args": [node]}


def _substitute(node: Any, args: dict[str, Node]) -> Any:
    """The node with each variable named in args replaced by its argument (aggregates that bind
    a variable of the same name hide it in their own parts)."""
    if isinstance(node, list):
        return [_substitute(x, args) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("k") == "var" and node["name"] in args:
        return args[node["name"]]
    bound = _binds(node)
    if bound in args:
        inner = {k: v for k, v in args.items() if k != bound}
        return {k: _substitute(v, args if k in ("over", "value") else inner) for k, v in node.items()}
    return {k: _substitute(v, args) for k, v in node.items()}


def _binds(node: dict[str, Any]) -> str | None:
    """The variable a node binds for its own parts: an aggregate's item (not in `over`), a let's
    name (not in `value`)."""
    if node.get("k") == "agg":
        return str(node["var"])
    if node.get("k") == "let":
        return str(node["name"])
    return None


def _size(node: Any) -> int:
    if isinstance(node, list):
        return sum(_size(x) for x in node)
    if not isinstance(node, dict):
        return 0
    return (1 if "k" in node else 0) + sum(_size(v) for v in node.values() if isinstance(v, (dict, list)))


_COSTS = {"lit": 0, "member": 0, "var": 1, "field": 2, "attr": 3, "const": 1, "if": 2, "record": 20,
          "list": 5, "set": 5, "builtin": 5, "call": 25, "agg": 60}


def _cost(node: Any) -> int:
    """A rough price of evaluating the node: reads are cheap, calls and loops are not."""
    if isinstance(node, list):
        return sum(_cost(x) for x in node)
    if not isinstance(node, dict):
        return 0
    own = _COSTS.get(node.get("k", ""), 1) if "k" in node else 0
    return own + sum(_cost(v) for v in node.values() if isinstance(v, (dict, list)))


def _chain(node: Node, op: str) -> list[Node]:
    """The operands of a run of one boolean operator: a and b and c, not (a and b) and c."""
    if node["k"] == "op" and node["op"] == op:
        return [x for a in node["args"] for x in _chain(a, op)]
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


def module_scale(model: dict[str, Any]) -> int:
    """The least common multiple of the denominators of every number the rules write."""
    denominators = {1}
    folder = Interpreter(model)
    todo: list[Any] = [model[k] for k in ("defines", "tables", "limits", "consts", "enums")]
    while todo:
        n = todo.pop()
        if isinstance(n, list):
            todo += n
        elif isinstance(n, dict):
            if n.get("k") == "lit" and n.get("t") == "number":
                denominators.add(Fraction(n["v"]).denominator)
            if n.get("k") == "op" and n.get("op") == "/" and is_constant(n):
                denominators.add(Fraction(folder.eval(n, {})).denominator)
            todo += list(n.values())
    for e in model["enums"]:
        for a in e["attrs"]:
            if a["t"] == "number":
                for m in e["members"]:
                    v = m["attrs"][a["name"]]["value"]
                    if v is not None:
                        denominators.add(Fraction(v).denominator)
    return math.lcm(*denominators)
