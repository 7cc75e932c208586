"""TRANSITION (#13): the reference interpreter over IR dicts (compiler/interp.py is the
interpreter). Every stage of rulec reads the typed model; only the program generator's comparer
(tests/progen.py) still evaluates on the IR here, and tests/test_interp.py checks that both agree.
Goes when progen moves.

A small reference interpreter of the IR: evaluates definitions, tables and limits.

Values: bool, int, Fraction (exact), str (text, or the name of a list value),
dict (a record), tuple (a list) and frozenset (a set).  Every evaluation also
records which rules it used, so answers can say what decided them.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .interp import _BUDGET, MAX_STEPS, Cite, EvalError, Record, _sized, budget, to_json
from .ir import canonical, nodes

__all__ = ["MAX_STEPS", "Cite", "EvalError", "Interpreter", "Record", "budget", "from_json", "to_json"]

@dataclass
class Interpreter:
    model: dict[str, Any]
    trace: list[Cite] = field(default_factory=list)

    def __post_init__(self) -> None:
        (self.defines, self.tables, self.consts, self.limits, self.records, self.members, self.enum_order,
         self.clause_layers) = _index(self.model)
        self._const_values: dict[str, Any] = {}
        self._types: bytes | None = None  # the hash of the model's lists and records, for closure_key

    def closure_key(self, item: dict[str, Any]) -> str:
        """A hash of an item of the model (a table, a definition) and of everything evaluating it
        can read: every definition, table, limit group and constant it calls or names, followed to
        the end, and the model's lists and records. Two rulesets that agree on all of it get the
        same answers from it, so work on it is done once (a game shares most of its series)."""
        if self._types is None:
            self._types = hashlib.sha256(canonical([self.model["enums"], self.model["records"]])).digest()
        parts: dict[str, Any] = {}
        todo = [item]
        while todo:
            for n in nodes(todo.pop()):
                k = n.get("k")
                name = n.get("fn") if k == "call" else n.get("name") if k == "const" else None
                if not isinstance(name, str) or f"{k}:{name}" in parts:
                    continue
                target = (self.consts.get(name) if k == "const" else
                          self.defines.get(name) or self.tables.get(name) or self.limits.get(name))
                parts[f"{k}:{name}"] = target
                if target is not None:
                    todo.append(target)
        return hashlib.sha256(self._types + canonical([item, parts])).hexdigest()

    # ---- entry points ---------------------------------------------------------------

    def call(self, fn: str, args: list[Any]) -> Any:
        if fn in self.limits:
            return self.check_limits(fn, args)
        if fn in self.tables:
            return self._table(self.tables[fn], args)
        d = self.defines[fn]
        self._cite(d["origin"])
        for ov in d.get("overridden_by", []):
            self._cite(ov["origin"], note=_note(ov))
        env = dict(zip((p["name"] for p in d["params"]), args, strict=False))
        return self.eval(d["body"], env)

    def check_limits(self, name: str, args: list[Any]) -> list[dict[str, Any]]:
        """Every limit of the group that the arguments break, with the units counted."""
        g = self.limits[name]
        env = dict(zip((p["name"] for p in g["params"]), args, strict=False))
        for u in g["unless"]:
            if self.eval(u["cond"], env):
                self._cite(u["origin"])
                return []
        out = []
        for item in g["items"]:
            exempt = False
            for x in item["exempt"]:
                if self.eval(x["cond"], env):
                    self._cite(x["origin"])
                    exempt = True
            if exempt:
                continue
            measure = item["measure"]
            total = self.eval(measure, env)
            bound = self.eval(item["bound"], env)
            if total > bound:
                self._cite(item["origin"], item=item["name"])
                counted = [x for x in self.eval(measure["over"], env) if measure["where"] is None
                           or self.eval(measure["where"], {**env, measure["var"]: x})]
                out.append({"limit": item["name"], "title": item["title"], "total": total, "bound": bound,
                            "excess": total - bound, "units": counted,
                            "rule": item["origin"]["clause"]})
        return out

    def default_record(self, name: str, values: dict[str, Any]) -> dict[str, Any]:
        rec = self.records[name]
        out = Record()
        for f in rec["fields"]:
            if f["name"] in values:
                out[f["name"]] = values[f["name"]]
            elif f["required"]:  # no default to take: the caller must say (R206 in the rules)
                raise EvalError(f"{name} needs a value for {f['name']}")
            else:
                out[f["name"]] = from_json(f["default"], f["t"])
        return out

    # ---- expressions -------------------------------------------------------------------

    def eval(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        left = _BUDGET[0]
        if left is not None:
            if left <= 0:
                raise EvalError(f"evaluating the rules takes more than {MAX_STEPS:,} steps; "
                                "do definitions call each other too often?")
            _BUDGET[0] = left - 1
        k = node["k"]
        if k == "lit":
            return from_json(node["v"], node["t"])
        if k == "var":
            for ref in node.get("see", ()):
                self._cite_ref(ref)
            return env[node["name"]]
        if k == "member":
            return node["name"]
        if k == "const":
            return self._const(node["name"])
        if k == "field":
            return self.eval(node["of"], env)[node["name"]]
        if k == "attr":
            member = self.eval(node["of"], env)
            enum, mem = self.members[(node["enum"], member)]
            slot = mem["attrs"][node["name"]]  # where it was set: the member's own clause, or an override
            self._cite(mem["origin"], item=member)
            for ov in mem.get("overridden_by", []):
                if node["name"] in ov.get("set", {}):
                    self._cite(ov["origin"], item=member, note=_note(ov))
            return from_json(slot["value"], node["t"])
        if k == "call":
            return self.call(node["fn"], [self.eval(a, env) for a in node["args"]])
        if k == "builtin":
            return self._builtin(node, [self.eval(a, env) for a in node["args"]])
        if k == "let":
            return self.eval(node["body"], {**env, node["name"]: self.eval(node["value"], env)})
        if k == "op":
            return self._op(node, env)
        if k == "if":
            return self.eval(node["then"] if self.eval(node["cond"], env) else node["else"], env)
        if k == "agg":
            return self._agg(node, env)
        if k == "record":
            return self.default_record(node["record"], {n: self.eval(v, env) for n, v in node["fields"].items()})
        if k == "list":
            return tuple(self.eval(i, env) for i in node["items"])
        if k == "set":
            return frozenset(self.eval(i, env) for i in node["items"])
        raise EvalError(f"cannot evaluate a {k!r} node")

    def _op(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        op = node["op"]
        args = node["args"]
        if op == "and":
            return self.eval(args[0], env) and self.eval(args[1], env)
        if op == "or":
            return self.eval(args[0], env) or self.eval(args[1], env)
        if op == "not":
            return not self.eval(args[0], env)
        vals = [self.eval(a, env) for a in args]
        if op == "neg":
            return -vals[0]
        a, b = vals
        if op in ("<", "<=", ">", ">=") and isinstance(a, str):
            order = self.enum_order[args[0]["t"][5:]]
            a, b = order.index(a), order.index(b)
        if op == "+":
            return _sized(a + b)
        if op == "-":
            return _sized(a - b)
        if op == "*":
            return _sized(a * b)
        if op == "/":
            if b == 0:
                raise EvalError("division by zero")
            return _sized(Fraction(a) / Fraction(b))
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        if op == ">=":
            return a >= b
        if op == "in":
            return a in b
        return a not in b

    def _builtin(self, node: dict[str, Any], args: list[Any]) -> Any:
        fn, t = node["fn"], node["t"]
        if fn == "step":
            order = self.enum_order[t[5:]]
            i = order.index(args[0]) + args[1]
            i = i % len(order) if node.get("cyclic") else max(0, min(len(order) - 1, i))
            return order[i]
        if fn in ("min", "max") and t.startswith("enum "):
            order = self.enum_order[t[5:]]
            return (min if fn == "min" else max)(args, key=order.index)
        if fn == "floor":
            return math.floor(args[0])
        if fn == "ceil":
            return math.ceil(args[0])
        if fn == "abs":
            return abs(args[0])
        if fn == "len":
            return len(args[0])
        return min(args) if fn == "min" else max(args)

    def _agg(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        if node["fn"] in ("any", "all"):  # stop at the first item that decides, as the rules are read
            want = node["fn"] == "any"
            for x in self.eval(node["over"], env):
                inner = {**env, node["var"]: x}
                if (node["where"] is None or self.eval(node["where"], inner)) and \
                        bool(self.eval(node["body"], inner)) == want:
                    return want
            return not want
        if node["fn"] == "first":
            for x in self.eval(node["over"], env):
                inner = {**env, node["var"]: x}
                if node["where"] is None or self.eval(node["where"], inner):
                    return self.eval(node["body"], inner)
            raise EvalError("first of nothing: no item passes 'where'")
        items = []
        for x in self.eval(node["over"], env):
            inner = {**env, node["var"]: x}
            if node["where"] is None or self.eval(node["where"], inner):
                items.append(self.eval(node["body"], inner) if node["fn"] != "count" else x)
        fn = node["fn"]
        if fn == "sum":
            return _sized(sum(items, 0))
        if fn == "count":
            return len(items)
        if fn == "product":
            return _sized(math.prod(items, start=1))
        if fn == "any":
            return any(items)
        if fn == "all":
            return all(items)
        if not items:
            raise EvalError(f"{fn} of nothing")
        if node["t"].startswith("enum "):
            order = self.enum_order[node["t"][5:]]
            return (min if fn == "min" else max)(items, key=order.index)
        return min(items) if fn == "min" else max(items)

    def _table(self, t: dict[str, Any], args: list[Any]) -> Any:
        env = dict(zip((p["name"] for p in t["params"]), args, strict=False))
        for row in t["rows"]:
            if row["when"] is None or self.eval(row["when"], env):
                self._cite(t["origin"])
                self._cite(row["origin"], item=row["label"])
                for ov in row.get("overridden_by", []):
                    self._cite(ov["origin"], item=row["label"], note=_note(ov))
                return self.eval(row["value"], env)
        raise EvalError(f"no row of table {t['name']} matches")

    def _const(self, name: str) -> Any:
        c = self.consts[name]
        self._cite(c["origin"])
        for ov in c.get("overridden_by", []):
            self._cite(ov["origin"], note=_note(ov))
        if name not in self._const_values:
            self._const_values[name] = self.eval(c["value"], {})
        return self._const_values[name]

    def _cite_ref(self, ref: dict[str, Any]) -> None:
        layer = self.clause_layers.get(ref["number"], self.model["manifest"]["layers"][0])
        cite = Cite(layer, ref["number"], ref["item"])
        if cite not in self.trace:
            self.trace.append(cite)

    def _cite(self, origin: dict[str, Any], item: str | None = None, note: str | None = None) -> None:
        cite = Cite(origin["layer"], origin["clause"], item, note)
        if cite not in self.trace:
            self.trace.append(cite)


_INDEXES: list[tuple[dict[str, Any], tuple[Any, ...], tuple[Any, ...]]] = []


def _index(m: dict[str, Any]) -> tuple[Any, ...]:
    """The model's lookup tables. An interpreter is made for every example and every case a
    check tries, so the tables of the last few models are kept: made once, not once each
    (which made a build quadratic in the number of clauses)."""
    parts = tuple(m.get(k) for k in ("defines", "tables", "consts", "limits", "records", "enums", "clauses"))
    sizes = tuple(len(p) for p in parts if isinstance(p, list))
    for model, key, index in _INDEXES:
        if model is m and all(a is b for a, b in zip(key[0], parts, strict=True)) and key[1] == sizes:
            return index
    index = (
        {d["name"]: d for d in m["defines"]},
        {t["name"]: t for t in m["tables"]},
        {c["name"]: c for c in m["consts"]},
        {g["name"]: g for g in m["limits"]},
        {r["name"]: r for r in m["records"]},
        {(e["name"], mem["name"]): (e, mem) for e in m["enums"] for mem in e["members"]},
        {e["name"]: [mem["name"] for mem in e["members"]] for e in m["enums"]},
        {c["number"]: c["origin"]["layer"] for c in m["clauses"]},
    )
    _INDEXES.insert(0, (m, (parts, sizes), index))
    del _INDEXES[4:]
    return index


def _note(ov: dict[str, Any]) -> str | None:
    notes = ov.get("notes") or []
    return notes[0]["text"] if notes else "overridden"


def from_json(value: Any, t: str) -> Any:
    """An IR constant as an interpreter value (numbers are written as 'p/q' text)."""
    if value is None:
        return None
    if t == "number":
        return Fraction(value) if isinstance(value, str) else value
    if t.startswith("list of "):
        return tuple(from_json(v, t[8:]) for v in value)
    if t.startswith("set of "):
        return frozenset(from_json(v, t[7:]) for v in value)
    return value
