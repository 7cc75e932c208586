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

import keyword
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .interp import Interpreter

Node = dict[str, Any]

RESERVED = {
    "Any", "Answer", "Callable", "Cite", "Final", "Fraction", "Generic", "InvalidInput", "Literal", "Mapping",
    "Number", "RuleError", "SCALE", "Sequence", "TypeVar", "Violation", "annotations", "dataclass", "dataclasses",
    "field", "math", "replace", "T", "MANIFEST", "RULESET", "TITLE", "SERIES", "SERIES_VERSION", "GAME",
    "GAME_VERSION", "SCENARIO", "OPTIONS", "LAYERS", "STATE_SCHEMA", "from_json",
}


def py_name(name: str) -> str:
    """A rule name as a Python identifier: keywords and names the module uses get a trailing _."""
    if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in RESERVED:
        return name + "_"
    return name


class Namer:
    """Module-level names: every one registered once, so none can shadow another."""

    def __init__(self) -> None:
        self.taken: set[str] = set(RESERVED)

    def claim(self, wanted: str) -> str:
        name = wanted
        while name in self.taken:
            name += "_"
        self.taken.add(name)
        return name


@dataclass
class Consts:
    """Module constants the expressions need (sets, fractions, cite tuples), in order of first use."""

    namer: Namer
    lines: list[str] = field(default_factory=list)
    by_code: dict[str, str] = field(default_factory=dict)

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
        return "(" + "".join(f"{i}, " for i in items).rstrip(" ") + ")"
    if t.startswith("set of "):
        items = sorted(literal(v, t[7:], scale, consts) for v in value)
        return consts.add("SET", "frozenset({" + ", ".join(items) + "})")
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, str)):
        return repr(value)
    raise ValueError(f"cannot write {value!r} as a constant")


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
    enum_order: dict[str, str]  # ordered enum -> {value: index} table
    records: dict[str, str]
    local: dict[str, str] = field(default_factory=dict)  # rule variable -> Python local

    def __post_init__(self) -> None:
        self.folder = Interpreter(self.model)

    # -- helpers
    def num(self, node: Node, traced: bool) -> str:
        """The node as a scaled number, whatever its numeric type."""
        if node["t"] == "int" and is_constant(node):
            return literal(self.folder.eval(node, {}), "number", self.scale, self.consts)
        code = self.ex(node, traced)
        if node["t"] == "int" and self.scale != 1:
            return f"({code} * {self.scale})"
        return code

    def var(self, name: str) -> str:
        return self.local.get(name, py_name(name))

    def ex(self, node: Node, traced: bool) -> str:
        if is_constant(node) and node["k"] != "member":
            value = self.folder.eval(node, {})
            return literal(_plain(value), node["t"], self.scale, self.consts)
        method: Callable[[Node, bool], str] = getattr(self, "_" + node["k"])
        return method(node, traced)

    # -- leaves
    def _member(self, node: Node, traced: bool) -> str:
        return repr(node["name"])

    def _var(self, node: Node, traced: bool) -> str:
        name = self.var(node["name"])
        if traced and node.get("see"):
            return f"_cite(_t, {self.ref_cites(node['see'])}, {name})"
        return name

    def _const(self, node: Node, traced: bool) -> str:
        name = self.const_names[node["name"]]
        if traced:
            return f"_cite(_t, {self.const_cites[node['name']]}, {name})"
        return name

    def _field(self, node: Node, traced: bool) -> str:
        code = f"{self.ex(node['of'], traced)}.{py_name(node['name'])}"
        return self.scaled_read(code, node["t"])

    def scaled_read(self, code: str, t: str) -> str:
        """A record field holds exact values; scale it where it is read."""
        if self.scale == 1:
            return code
        if t == "number":
            return f"({code} * {self.scale})"
        if t == "list of number":
            return f"tuple(_x * {self.scale} for _x in {code})"
        return code

    def _attr(self, node: Node, traced: bool) -> str:
        key = (node["enum"], node["name"])
        table = self.attr_tables[key]
        of = self.ex(node["of"], traced)
        if traced:
            return f"_attr(_t, {self.attr_cites[key]}, {table}, {of})"
        return f"{table}[{of}]"

    # -- calls
    def _call(self, node: Node, traced: bool) -> str:
        fn = node["fn"]
        callee = self.signature(fn)
        args = []
        for a, p in zip(node["args"], callee, strict=True):
            args.append(self.num(a, traced) if p == "number" else self.ex(a, traced))
        if traced:
            args.append("_t")
            return f"{self.traced_names[fn]}({', '.join(args)})"
        return f"{self.names[fn]}({', '.join(args)})"

    def signature(self, fn: str) -> list[str]:
        for kind in ("defines", "tables", "limits"):
            for d in self.model[kind]:
                if d["name"] == fn:
                    return [p["t"] for p in d["params"]]
        raise KeyError(fn)

    def _builtin(self, node: Node, traced: bool) -> str:
        fn, args, t = node["fn"], node["args"], node["t"]
        if fn == "len":
            return f"len({self.ex(args[0], traced)})"
        if fn in ("floor", "ceil"):
            x = self.num(args[0], traced)
            if args[0]["t"] == "int":
                return self.ex(args[0], traced)
            if fn == "floor":
                return f"({x} // {self.scale})"
            return f"(-(-{x} // {self.scale}))"
        if fn == "abs":
            return f"abs({self.ex(args[0], traced)})"
        parts = [self.num(a, traced) if t == "number" else self.ex(a, traced) for a in args]
        return f"{fn}({', '.join(parts)})"

    # -- operators
    def _op(self, node: Node, traced: bool) -> str:
        op, args, t = node["op"], node["args"], node["t"]
        if op in ("and", "or"):
            return "(" + f" {op} ".join(self.ex(a, traced) for a in _chain(node, op)) + ")"
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

    def _compare(self, node: Node, traced: bool) -> str:
        op, (a, b) = node["op"], node["args"]
        if op in ("in", "not in"):
            item = b["t"].split(" of ", 1)[1]
            left = self.num(a, traced) if item == "number" else self.ex(a, traced)
            return f"({left} {op} {self.ex(b, traced)})"
        numeric = a["t"] in ("int", "number") and b["t"] in ("int", "number")
        if numeric and "number" in (a["t"], b["t"]):
            return f"({self.num(a, traced)} {op} {self.num(b, traced)})"
        if a["t"].startswith("enum ") and op in ("<", "<=", ">", ">="):
            order = self.enum_order[a["t"][5:]]
            return f"({order}[{self.ex(a, traced)}] {op} {order}[{self.ex(b, traced)}])"
        return f"({self.ex(a, traced)} {op} {self.ex(b, traced)})"

    def _if(self, node: Node, traced: bool) -> str:
        pick = self.num if node["t"] == "number" else self.ex
        return f"({pick(node['then'], traced)} if {self.ex(node['cond'], traced)} else {pick(node['else'], traced)})"

    def _agg(self, node: Node, traced: bool) -> str:
        var = py_name(node["var"])
        saved = self.local.get(node["var"])
        self.local[node["var"]] = var
        try:
            over = self.ex(node["over"], traced)
            where = f" if {self.ex(node['where'], traced)}" if node["where"] is not None else ""
            fn, t = node["fn"], node["t"]
            if fn == "count":
                if not where:
                    return f"len({over})"
                return f"sum(1 for {var} in {over}{where})"
            body = self.num(node["body"], traced) if t == "number" else self.ex(node["body"], traced)
            if fn == "first":
                return f"_first({body} for {var} in {over}{where})"
            gen = f"{body} for {var} in {over}{where}"
            if fn in ("any", "all", "sum"):
                return f"{fn}({gen})"
            if fn == "product":
                return f"_product(({gen}))" if t == "number" else f"math.prod({gen})"
            return f"_{fn}(({gen}))"
        finally:
            if saved is None:
                self.local.pop(node["var"], None)
            else:
                self.local[node["var"]] = saved

    def _record(self, node: Node, traced: bool) -> str:
        parts = []
        for name, value in node["fields"].items():
            code = self.ex(value, traced)
            if value["t"] in ("number", "int") and self._field_type(node["record"], name) == "number":
                code = f"_exact({self.num(value, traced)})"
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
        parts = [self.num(i, traced) if item == "number" else self.ex(i, traced) for i in node["items"]]
        return "(" + "".join(f"{p}, " for p in parts).rstrip(" ") + ")"

    def _set(self, node: Node, traced: bool) -> str:
        item = node["t"][7:]
        parts = [self.num(i, traced) if item == "number" else self.ex(i, traced) for i in node["items"]]
        return "frozenset({" + ", ".join(parts) + "})"


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
    todo: list[Any] = [model[k] for k in ("defines", "tables", "limits", "consts", "enums")]
    while todo:
        n = todo.pop()
        if isinstance(n, list):
            todo += n
        elif isinstance(n, dict):
            if n.get("k") == "lit" and n.get("t") == "number":
                denominators.add(Fraction(n["v"]).denominator)
            if n.get("k") == "op" and n.get("op") == "/" and is_constant(n):
                denominators.add(Fraction(Interpreter(model).eval(n, {})).denominator)
            todo += list(n.values())
    for e in model["enums"]:
        for a in e["attrs"]:
            if a["t"] == "number":
                for m in e["members"]:
                    v = m["attrs"][a["name"]]["value"]
                    if v is not None:
                        denominators.add(Fraction(v).denominator)
    return math.lcm(*denominators)
