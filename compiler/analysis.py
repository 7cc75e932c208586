"""Check a resolved model by enumeration: table rows that never match, cases no row
covers, exceptions that contradict each other, and the worked examples.

The domains are small and finite (list values, true/false), so every case a
table's conditions can tell apart is tried.  Numbers are sampled around the
constants the conditions compare them with.
"""

from __future__ import annotations

import itertools
import operator
import types
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import ir
from .crosscheck import CrossChecked, Disagreement, disagreement_diagnostic
from .diagnostics import Diagnostic, Span
from .interp_ir import Cite, EvalError, Interpreter, from_json
from .ir import nodes, target_label
from .model import Resolved
from .pyexpr import is_constant

MAX_CASES = 20_000


def span_of(o: dict[str, Any]) -> Span:
    return Span(o["file"], o["line"], o["col"], o["line"], o["col"] + 1)


def analyse(model: Resolved | dict[str, Any], memo: MutableMapping[str, list[Diagnostic]] | None = None,
            examples: bool = True) -> list[Diagnostic]:
    """Every finding on one resolved model. memo, shared between the rulesets of a build (and kept
    by the build cache between builds), holds each table's findings under a hash of everything
    they depend on: a table a game takes unchanged from its series is analysed once. examples:
    run the worked examples too (on the interpreter alone)."""
    model = ir.bridge(model)
    diags: list[Diagnostic] = []
    interp = Interpreter(model)
    diags += constant_errors(model, interp)
    memo = {} if memo is None else memo
    for table in model["tables"]:
        key = interp.closure_key(table)
        if key not in memo:
            memo[key] = TableAnalysis(model, interp, table).run()
        diags += memo[key]
    diags += option_clashes(model)
    if examples:
        diags += run_examples(model)
    return diags


def option_clashes(model: dict[str, Any]) -> list[Diagnostic]:
    """Two options of one ruleset that change the same thing differently: the later one wins, as the
    ruleset lists them, but a designer should know that order decides it (a warning)."""
    options = {o["name"] for o in model["manifest"]["options"]}
    seen: dict[str, dict[str, Any]] = {}
    out = []
    for ov in model["overrides"]:
        if ov["origin"]["layer"] not in options:
            continue
        key = repr(sorted(ov["target"].items()))
        change = {k: ov[k] for k in ("set", "value", "when", "bound", "title", "texts")}
        first = seen.setdefault(key, {"ov": ov, "change": change})
        if first["ov"] is not ov and first["change"] != change:
            a, b = first["ov"]["origin"]["layer"], ov["origin"]["layer"]
            what = target_label(ov["target"])
            out.append(Diagnostic(span_of(ov["origin"]), "R303", f"options {a} and {b} both change {what}, "
                                  f"differently, in ruleset {model['manifest']['ruleset']}", severity="warning",
                                  hint=f"which one is in force depends on the order of 'with {a}, {b}'; "
                                       "make one option extend the other, or agree on one change"))
    return out


def constant_errors(model: dict[str, Any], interp: Interpreter) -> list[Diagnostic]:
    """Every constant part of a declaration that cannot be computed (1/0, a number of thousands of
    digits): the Python emitter works constant parts out ahead, so each is a mistake to report here."""
    out = []
    todo: list[tuple[Any, Any]] = [(model[k], None) for k in ("consts", "defines", "tables", "limits")]
    while todo:
        n, origin = todo.pop()
        if isinstance(n, list):
            todo += [(x, origin) for x in n]
            continue
        if not isinstance(n, dict):
            continue
        origin = n["origin"] if isinstance(n.get("origin"), dict) else origin
        if "k" in n and "t" in n and n["k"] not in ("lit", "member") and is_constant(n):
            try:
                interp.eval(n, {})
            except (EvalError, ArithmeticError, TypeError, KeyError, ValueError) as e:
                if origin is not None:
                    out.append(Diagnostic(span_of(origin), "R305", f"a value here cannot be computed: {e}",
                                          hint="a constant part of this declaration fails whatever the input"))
            continue
        todo += [(v, origin) for v in n.values() if isinstance(v, (dict, list))]
    return out


@dataclass(frozen=True)
class Axis:
    """One thing a case varies: a parameter, or a field of a record parameter."""

    param: str
    field: str | None
    t: str
    values: tuple[Any, ...]


class TableAnalysis:
    def __init__(self, model: dict[str, Any], interp: Interpreter, table: dict[str, Any]):
        self.model = model
        self.interp = interp
        self.table = table
        self.enums = {e["name"]: e for e in model["enums"]}

    def run(self) -> list[Diagnostic]:
        axes = self.axes()
        if axes is None:
            return []
        total = 1
        for a in axes:
            total *= len(a.values)
        if total > MAX_CASES:
            o = self.table["origin"]
            return [Diagnostic(span_of(o), "R304", f"table {self.table['name']} has {total:,} cases to try, "
                               f"more than the {MAX_CASES:,} rulec tries, so its rows were not checked",
                               severity="warning",
                               hint="split it into smaller tables, each deciding on fewer things")]
        rows = self.table["rows"]
        first_hits: dict[int, int] = {i: 0 for i in range(len(rows))}
        matched_any: dict[int, dict[str, Any]] = {}
        uncovered: str | None = None
        clashes: list[Diagnostic] = []
        deciders = [self.decider(row, axes) for row in rows]
        exceptions = sum(1 for r in rows if r.get("exception")) > 1
        for combo in itertools.product(*(a.values for a in axes)):
            hits = [i for i, decide in enumerate(deciders) if decide(combo)]
            if not hits:
                uncovered = uncovered or self.words(axes, combo)
                continue
            first_hits[hits[0]] += 1
            for i in hits:
                matched_any.setdefault(i, {"combo": combo, "first": hits[0]})
            if exceptions and not clashes:
                clashes += self.clash(rows, hits, self.case(axes, combo), axes, combo)
        diags = []
        for i, row in enumerate(rows):
            if first_hits[i]:
                continue
            o = row["origin"]
            where = f"row '{row['label']}' of {self.table['name']} ({self._clause(o)})"
            if i in matched_any:
                by = rows[matched_any[i]["first"]]
                diags.append(Diagnostic(span_of(o), "R301", f"{where} can never match: every case it covers "
                             f"is taken first by row '{by['label']}'",
                             hint="move it above that row, or narrow that row's condition"))
            else:
                diags.append(Diagnostic(span_of(o), "R301", f"{where} can never match: its condition is "
                             "never true"))
        if uncovered is not None:
            o = self.table["origin"]
            diags.append(Diagnostic(span_of(o), "R302", f"{uncovered} matches no row of {self._clause(o)} "
                         f"({self.table['name']})", hint="add a row for it, or an 'otherwise' row"))
        return diags + clashes[:1]

    def _clause(self, o: dict[str, Any]) -> str:
        return str(o["clause"] or o["layer"])

    def matches(self, row: dict[str, Any], case: dict[str, Any]) -> bool:
        if row["when"] is None:
            return True
        try:
            return bool(self.interp.eval(row["when"], case))
        except (EvalError, TypeError, KeyError, ZeroDivisionError):
            return False

    def clash(self, rows: list[dict[str, Any]], hits: list[int], case: dict[str, Any],
              axes: list[Axis], combo: tuple[Any, ...]) -> list[Diagnostic]:
        """Two exception rows from different clauses of one layer that both match and disagree."""
        exc = [rows[i] for i in hits if rows[i].get("exception")]
        for a, b in itertools.combinations(exc, 2):
            oa, ob = a["origin"], b["origin"]
            if oa["layer"] != ob["layer"] or oa["clause"] == ob["clause"]:
                continue
            try:
                va, vb = self.interp.eval(a["value"], case), self.interp.eval(b["value"], case)
            except (EvalError, TypeError, KeyError, ZeroDivisionError):
                continue
            if va != vb:
                return [Diagnostic(span_of(ob), "R303", f"{self._clause(oa)} and {self._clause(ob)} contradict "
                        f"each other for {self.words(axes, combo)}: {_show(va)} against {_show(vb)}",
                        hint=f"which one is in force depends on file order; narrow one of the conditions "
                             f"of {self.table['name']}")]
        return []

    def decider(self, row: dict[str, Any], axes: list[Axis]) -> Callable[[tuple[Any, ...]], bool]:
        """Whether the row matches a case, worked out once for each combination of the axes its
        condition reads: a row that reads two of a table's six axes is evaluated on their few
        combinations, then looked up for every case of the table."""
        if row["when"] is None:
            return lambda combo: True
        reads = self.reads(row["when"])
        idx = [j for j, a in enumerate(axes) if (a.param, a.field) in reads or (a.param, None) in reads]
        if not idx:
            value = self.matches(row, self.case(axes, tuple(a.values[0] for a in axes)))
            return lambda combo: value
        get = operator.itemgetter(*idx)
        yes = set()
        for sub in itertools.product(*(axes[j].values for j in idx)):
            combo = [a.values[0] for a in axes]
            for j, v in zip(idx, sub, strict=True):
                combo[j] = v
            if self.matches(row, self.case(axes, tuple(combo))):
                yes.add(get(combo))
        return lambda combo: get(combo) in yes

    def reads(self, when: dict[str, Any]) -> set[tuple[str, str | None]]:
        """What a condition reads of the table's parameters: (param, field), or (param, None) for a
        parameter read whole. Calls are followed into definitions and tables (their conditions and
        values); a parameter handed anywhere else counts as read whole, so this never misses a read."""
        out: set[tuple[str, str | None]] = set()
        self._reads(when, {p["name"]: p["name"] for p in self.table["params"]}, out, set())
        return out

    def _reads(self, node: Any, alias: dict[str, str], out: set[tuple[str, str | None]],
               seen: set[tuple[str, tuple[tuple[str, str], ...]]]) -> None:
        if isinstance(node, list):
            for x in node:
                self._reads(x, alias, out, seen)
            return
        if not isinstance(node, dict):
            return
        k = node.get("k")
        if k == "field" and node["of"].get("k") == "var" and node["of"]["name"] in alias:
            out.add((alias[node["of"]["name"]], node["name"]))
            return
        if k == "var" and node["name"] in alias:
            out.add((alias[node["name"]], None))
            return
        callee = (self.interp.defines.get(node["fn"]) or self.interp.tables.get(node["fn"])) if k == "call" else None
        if callee is not None:
            inner: dict[str, str] = {}
            for arg, p in zip(node["args"], callee["params"], strict=False):
                if arg.get("k") == "var" and arg["name"] in alias:
                    inner[p["name"]] = alias[arg["name"]]
                else:
                    self._reads(arg, alias, out, seen)
            key = (node["fn"], tuple(sorted(inner.items())))
            if key not in seen:
                seen.add(key)
                self._reads([callee.get("body"), callee.get("rows", [])], inner, out, seen)
            return
        for v in node.values():
            if isinstance(v, (dict, list)):
                self._reads(v, alias, out, seen)

    # -- the cases ------------------------------------------------------------------------

    def axes(self) -> list[Axis] | None:
        used = self.fields_used()
        axes: list[Axis] = []
        for p in self.table["params"]:
            t = p["t"]
            if t.startswith("record "):
                rec = self.interp.records[t[7:]]
                for f in rec["fields"]:
                    if f["required"] and (p["name"], f["name"]) not in used:
                        return None  # no default to put there (a record holding a Unit)
                    if (p["name"], f["name"]) in used:
                        values = self.values(f["t"], p["name"], f["name"])
                        if values is None:
                            return None
                        axes.append(Axis(p["name"], f["name"], f["t"], values))
            else:
                values = self.values(t, p["name"], None)
                if values is None:
                    return None
                axes.append(Axis(p["name"], None, t, values))
        return axes

    def values(self, t: str, param: str, field: str | None) -> tuple[Any, ...] | None:
        if t == "bool":
            return (False, True)
        if t.startswith("enum "):
            return tuple(m["name"] for m in self.enums[t[5:]]["members"])
        if t in ("int", "number"):
            points = {Fraction(0), Fraction(1)}
            for c in self.constants():
                points |= {c - 1, c, c + 1, c - Fraction(1, 2), c + Fraction(1, 2)}
            return tuple(sorted(int(x) if x.denominator == 1 else x for x in points
                                if t == "number" or x.denominator == 1))
        return None  # lists and texts: not enumerable

    def constants(self) -> set[Fraction]:
        out: set[Fraction] = set()
        for row in self.table["rows"]:
            for node in nodes(row["when"]):
                if node.get("k") == "lit" and node["t"] in ("int", "number"):
                    out.add(Fraction(node["v"]))
        return out

    def fields_used(self) -> set[tuple[str, str]]:
        """(param, field) pairs the row conditions read, following calls into definitions."""
        used: set[tuple[str, str]] = set()
        seen: set[tuple[str, tuple[str | None, ...]]] = set()
        params = [p["name"] for p in self.table["params"]]
        for row in self.table["rows"]:
            self._collect(row["when"], {p: p for p in params}, used, seen)
        return used

    def _collect(self, node: Any, alias: dict[str, str], used: set[tuple[str, str]],
                 seen: set[tuple[str, tuple[str | None, ...]]]) -> None:
        if not isinstance(node, dict):
            return
        if node.get("k") == "field" and node["of"].get("k") == "var" and node["of"]["name"] in alias:
            used.add((alias[node["of"]["name"]], node["name"]))
        if node.get("k") == "call":
            callee = self.interp.defines.get(node["fn"]) or self.interp.tables.get(node["fn"])
            if callee is not None:
                roots = [a["name"] if a.get("k") == "var" and a["name"] in alias else None for a in node["args"]]
                key = (node["fn"], tuple(alias.get(r) if r else None for r in roots))
                if key not in seen:
                    seen.add(key)
                    inner = {p["name"]: alias[r] for p, r in zip(callee["params"], roots, strict=False) if r}
                    bodies = [callee.get("body")] + [x for r in callee.get("rows", []) for x in (r["when"],)]
                    for b in bodies:
                        self._collect(b, inner, used, seen)
        for v in node.values():
            if isinstance(v, dict):
                self._collect(v, alias, used, seen)
            elif isinstance(v, list):
                for x in v:
                    self._collect(x, alias, used, seen)

    def case(self, axes: list[Axis], combo: tuple[Any, ...]) -> dict[str, Any]:
        env: dict[str, Any] = {}
        fields: dict[str, dict[str, Any]] = {}
        for a, v in zip(axes, combo, strict=False):
            if a.field is None:
                env[a.param] = v
            else:
                fields.setdefault(a.param, {})[a.field] = v
        for p in self.table["params"]:
            if p["t"].startswith("record "):
                env[p["name"]] = self.interp.default_record(p["t"][7:], fields.get(p["name"], {}))
        return env

    def words(self, axes: list[Axis], combo: tuple[Any, ...]) -> str:
        """A case in a designer's words: 'a Unit with mode Reserve, type Repl'."""
        parts: dict[str, list[str]] = {}
        for a, v in zip(axes, combo, strict=False):
            shown = self._title(a.t, v)
            label = a.field.replace("_", " ") if a.field else a.param
            parts.setdefault(a.param, []).append(f"{label} {shown}")
        out = []
        for p in self.table["params"]:
            if p["name"] in parts:
                noun = p["t"].split(" ", 1)[1] if " " in p["t"] else p["name"]
                out.append(f"a {noun} with {', '.join(parts[p['name']])}")
        return " and ".join(out) or "every case"

    def _title(self, t: str, v: Any) -> str:
        if t.startswith("enum "):
            for m in self.enums[t[5:]]["members"]:
                if m["name"] == v:
                    return str(m["title"] or m["name"])
        return _show(v)


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# ---- worked examples ------------------------------------------------------------------


def run_examples(model: Resolved | dict[str, Any], module: types.ModuleType | None = None) -> list[Diagnostic]:
    """Evaluate every example of the model; each failure points at its own line. With the ruleset's
    generated module, every call an example makes is also put to the module (R900 where it differs)."""
    model = ir.bridge(model)
    diags = []
    for ex in model["examples"]:
        diags += run_example(model, ex, module)
    return diags


def run_example(model: dict[str, Any], ex: dict[str, Any], module: types.ModuleType | None = None) -> list[Diagnostic]:
    return run_example_traced(model, ex, module)[1]


def run_example_traced(model: dict[str, Any], ex: dict[str, Any], module: types.ModuleType | None = None,
                       ) -> tuple[str, list[Diagnostic], list[Cite]]:
    """Run one example: 'pass' or 'fail', its diagnostics, and every rule its steps used. With the
    ruleset's generated module, each call is answered by the module too; a difference is R900."""
    env: dict[str, Any] = {}
    out: list[Diagnostic] = []
    used: list[Cite] = []
    for step in ex["steps"]:
        found: list[Disagreement] = []
        interp = Interpreter(model) if module is None else CrossChecked(model, module, found)
        try:
            if step["k"] == "let":
                env[step["name"]] = interp.eval(step["value"], env)
                used += interp.trace
                continue
            ok = interp.eval(step["expr"], env)
        except (EvalError, ZeroDivisionError, KeyError, TypeError) as e:
            o = step.get("origin") or ex["origin"]
            out.append(Diagnostic(span_of(o), "R402", f"example of {ex['clause']} could not be evaluated: {e}",
                                  hint="a 'let' or 'expect' line may use a value the rules cannot compute"))
            break
        finally:
            o = step.get("origin") or ex["origin"]
            out += [disagreement_diagnostic(span_of(o), model["manifest"]["ruleset"], ex["clause"], d)
                    for d in found]
        used += interp.trace
        if not ok and _changed_later(model, ex, interp):
            continue  # a later layer overrides what the example relies on: it holds where it was written
        if not ok:
            out.append(Diagnostic(span_of(step["origin"]), "R401", f"example of {ex['clause']} fails for "
                       f"{model['manifest']['ruleset']}: this is false",
                       hint=f"rules used: {', '.join(str(c) for c in interp.trace) or 'none'}"))
            continue
        missing = _missing_citations(step["cited"], interp)
        if missing:
            out.append(Diagnostic(span_of(step["origin"]), "R401", f"example of {ex['clause']} holds for "
                       f"{model['manifest']['ruleset']}, but not by {', '.join(missing)}",
                       hint=f"rules used: {', '.join(str(c) for c in interp.trace)}"))
    return ("fail" if out else "pass"), out, used


def _changed_later(model: dict[str, Any], ex: dict[str, Any], interp: Interpreter) -> bool:
    layers = model["manifest"]["layers"]
    mine = layers.index(ex["origin"]["layer"])
    return any(layers.index(c.layer) > mine for c in interp.trace if c.layer in layers)


def _missing_citations(cited: list[dict[str, Any]], interp: Interpreter) -> list[str]:
    missing = []
    for c in cited:
        found = any(t.clause == c["number"] and (c["item"] is None or t.item == c["item"])
                    and (c["layer"] is None or t.layer == c["layer"]) for t in interp.trace)
        if not found:
            missing.append(" ".join(x for x in (c["layer"], c["number"], c["item"]) if x))
    return missing


__all__ = ["analyse", "run_examples", "from_json"]
