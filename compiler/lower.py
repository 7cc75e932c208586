"""Lower each checked layer to IR form (JSON dicts with origins); the entry point of checking."""

from __future__ import annotations

import keyword
import sys
from typing import Any

from . import ast
from .checker import NOTE_KINDS, ChainScope, Checker, LayerInfo, Program, change_key, origin
from .diagnostics import Diagnostic, Span, did_you_mean
from .exprs import IR, Lowerer, literal_value
from .ir import nodes, target_label
from .model import Agg, Error, expr_ir
from .types import ANY, BOOL, NUMBER, BoolT, RecordT, Type, assignable, describe


def check(files: list[ast.File]) -> tuple[Program, list[Diagnostic]]:
    """Check every file together and lower every layer."""
    checker = Checker()
    layers, rulesets = checker.assign(files)
    ordered = checker.link(layers)
    for lay in ordered:
        checker.declare(lay)
    for lay in ordered:
        checker.resolve_types(lay)
    out: dict[str, dict[str, Any]] = {}
    for lay in ordered:
        out[lay.name] = LayerLowering(checker, lay).run()
    _check_cycles(checker, out)
    program = Program(out, _rulesets(checker, layers, rulesets))
    return program, checker.diags


class LayerLowering:
    def __init__(self, checker: Checker, lay: LayerInfo):
        self.checker = checker
        self.lay = lay
        self.scope = ChainScope(checker, lay)
        self.lowerer = Lowerer(self.scope, checker.diags)
        self.overrides_by_target: dict[str, dict[str, Any]] = {}  # R106: one change of a thing per layer

    def origin(self, clause: str | None, span: Span) -> dict[str, Any]:
        return origin(self.lay.name, clause, span)

    def run(self) -> dict[str, Any]:
        d = self.lay.decl
        out: dict[str, Any] = {
            "name": d.name, "kind": d.kind, "title": d.title, "version": d.version, "parent": d.parent,
            "origin": self.origin(None, d.span),
            "clauses": [], "externals": [], "enums": [], "records": [], "consts": [], "defines": [],
            "tables": [], "limits": [], "excepts": [], "overrides": [], "examples": [],
        }
        for item, _ in self.lay.items:
            if isinstance(item, ast.Rule):
                out["clauses"].append(self.clause(item))
                for decl in item.decls:
                    self.decl(decl, item.number, out)
                for exc in item.excepts:
                    out["excepts"].append(self.except_(exc, item.number))
                for ex in item.examples:
                    out["examples"].append(self.example(ex, item.number))
                for ov in item.overrides:
                    self.override(ov, out, item.number)
            elif isinstance(item, ast.External):
                out["externals"].append({"number": item.number, "title": item.title, "url": item.url})
            elif isinstance(item, (ast.ExceptTable, ast.ExceptLimit)):
                out["excepts"].append(self.except_(item, None))
            elif isinstance(item, ast.Override):
                self.override(item, out)
            elif isinstance(item, ast.Decl):
                self.decl(item, None, out)
        return out

    # ---- clauses ----------------------------------------------------------------

    def notes(self, notes: tuple[ast.Note, ...]) -> list[dict[str, Any]]:
        out = []
        for n in notes:
            kind = n.kind
            if kind is not None and kind not in NOTE_KINDS:
                self.checker.error(n.span, "R112", f"unknown kind of note '{kind}'",
                                   hint=did_you_mean(kind, NOTE_KINDS) or f"one of: {', '.join(NOTE_KINDS)}")
                kind = None
            out.append({"kind": kind, "label": NOTE_KINDS.get(kind or "", "Note"), "text": n.text})
        return out

    def refs(self, refs: tuple[ast.RuleRef, ...]) -> list[dict[str, Any]]:
        out = []
        for r in refs:
            if self.ref_ok(r):
                out.append({"number": r.number, "item": r.item})
        return out

    def ref_ok(self, r: ast.RuleRef) -> bool:
        scope = self.scope
        if r.layer is not None and r.layer not in [x.name for x in scope.layers]:
            self.checker.error(r.span, "R107", f"'{r.layer}' is not {self.lay.name} or a layer it extends",
                               hint=did_you_mean(r.layer, [x.name for x in scope.layers]))
            return False
        if r.number not in scope.known_numbers():
            self.checker.error(r.span, "R102", f"no rule {r.number} in {self.lay.name}",
                               hint=did_you_mean(r.number, list(scope.known_numbers()))
                               or f"declare it with: external {r.number} \"Title\" at \"link\"")
            return False
        if r.item is not None:
            found = scope.clause(r.number)
            items = []
            if found:
                _, rule = found
                items = [m.name for d in rule.decls if isinstance(d, ast.EnumDecl) for m in d.members]
                items += [d.name for d in rule.decls]
            if r.item not in items:
                self.checker.error(r.span, "R102", f"rule {r.number} has no item '{r.item}'",
                                   hint=did_you_mean(r.item, items))
                return False
        return True

    def clause(self, rule: ast.Rule) -> dict[str, Any]:
        return {
            "number": rule.number, "title": rule.title, "text_only": rule.text_only,
            "texts": list(rule.texts), "notes": self.notes(rule.notes), "see": self.refs(rule.see),
            "origin": self.origin(rule.number, rule.span),
        }

    # ---- declarations -----------------------------------------------------------------

    def decl(self, decl: Any, clause: str | None, out: dict[str, Any]) -> None:
        known = self.lay.decls.get(decl.name)
        if known is None or known[0] is not decl:
            return  # a duplicate, already reported
        o = self.origin(clause, decl.span)
        if isinstance(decl, ast.EnumDecl):
            out["enums"].append(self.enum(decl, o))
        elif isinstance(decl, ast.RecordDecl):
            out["records"].append(self.record(decl, o))
        elif isinstance(decl, ast.ConstDecl):
            value = self.lowerer.lower(decl.value, {})
            out["consts"].append({"name": decl.name, "title": decl.title, "t": str(value.t),
                                  "value": expr_ir(value), "origin": o})
        elif isinstance(decl, ast.DefineDecl):
            sig = self.scope.signature(decl.name)
            assert sig is not None
            body = expr_ir(self.lowerer.expect(decl.body, sig.returns, dict(sig.params),
                                               f"the result of {decl.name}"))
            params = self.params(decl.params or (), sig.params)
            _mark_param_reads(body, params)
            entry: dict[str, Any] = {"name": decl.name, "title": decl.title, "params": params,
                                     "returns": str(sig.returns), "body": body, "origin": o}
            if decl.invariant:
                entry["invariant"] = self.invariant_fields(decl, sig.params, body)
            out["defines"].append(entry)
        elif isinstance(decl, ast.TableDecl):
            sig = self.scope.signature(decl.name)
            assert sig is not None
            rows = [self.row(r, sig.params, sig.returns, clause) for r in decl.rows]
            _dup_labels(self.checker, decl.rows, decl.name)
            params = self.params(decl.params, sig.params)
            for r in rows:
                _mark_param_reads(r["when"], params)
                _mark_param_reads(r["value"], params)
            out["tables"].append({"name": decl.name, "title": decl.title, "params": params,
                                  "returns": str(sig.returns), "rows": rows, "origin": o})
        elif isinstance(decl, ast.LimitsDecl):
            out["limits"].append(self.limits(decl, o))

    def params(self, written: tuple[ast.Param, ...], typed: tuple[tuple[str, Type], ...]) -> list[dict[str, Any]]:
        out = []
        for p, (name, t) in zip(written, typed, strict=True):
            entry: dict[str, Any] = {"name": name, "t": str(t)}
            if p.see:
                entry["see"] = self.refs(p.see)
            out.append(entry)
        return out

    def invariant_fields(self, decl: ast.DefineDecl, params: tuple[tuple[str, Type], ...], body: IR) -> list[str]:
        """The fields an invariant reads, the first named when input breaks it."""
        record = params[0][1] if len(params) == 1 else None
        if not isinstance(record, RecordT):
            self.checker.error(decl.span, "R201", f"invariant {decl.name} must take one record",
                               hint=f"for example: invariant {decl.name}(u: Unit) \"...\" = u.step_losses >= 0")
            return []
        var = params[0][0]
        found: list[str] = []
        todo: list[Any] = [body]
        while todo:
            n = todo.pop(0)
            if isinstance(n, list):
                todo += n
            elif isinstance(n, dict):
                if n.get("k") == "field" and n["of"].get("k") == "var" and n["of"]["name"] == var:
                    if n["name"] not in found:
                        found.append(n["name"])
                todo += [v for v in n.values() if isinstance(v, (dict, list))]
        if decl.checks is not None:
            fields = self.scope.record(record.name) or {}
            if decl.checks not in fields:
                self.checker.error(decl.span, "R203", f"{record.name} has no field '{decl.checks}'",
                                   hint=did_you_mean(decl.checks, fields))
            else:
                found = [decl.checks] + [f for f in found if f != decl.checks]
        return found

    def enum(self, decl: ast.EnumDecl, o: dict[str, Any]) -> dict[str, Any]:
        info = self.scope.enum(decl.name)
        assert info is not None
        attrs = []
        for a in decl.attrs:
            t = info.attrs[a.name]
            default = None
            if a.default is not None:
                default = self.constant(a.default, t, f"the default of '{a.name}'")
            elif isinstance(t, BoolT):
                default = False
            attrs.append({"name": a.name, "t": str(t), "title": a.title, "default": default})
        members = []
        for m in decl.members:
            values = {a["name"]: {"value": a["default"], "origin": None} for a in attrs}
            for s in m.settings:
                if s.name not in info.attrs:
                    self.checker.error(s.span, "R203", f"{decl.name} has no attribute '{s.name}'",
                                       hint=did_you_mean(s.name, info.attrs)
                                       or f"declare it in the list: has {s.name}: bool")
                    continue
                values[s.name] = {"value": self.constant(s.value, info.attrs[s.name], f"'{s.name}'"),
                                  "origin": self.origin(o["clause"], s.span)}
            members.append({"name": m.name, "title": m.title, "attrs": values, "texts": list(m.texts),
                            "notes": self.notes(m.notes), "see": self.refs(m.see),
                            "origin": self.origin(o["clause"], m.span)})
        return {"name": decl.name, "title": decl.title, "ordered": decl.ordered and not decl.cyclic,
                "cyclic": decl.cyclic, "attrs": attrs,
                "members": members, "origin": o}

    def record(self, decl: ast.RecordDecl, o: dict[str, Any]) -> dict[str, Any]:
        types = self.scope.record(decl.name) or {}
        fields = []
        for f in decl.fields:
            t = types.get(f.name, (ANY, False))[0]
            default = None if f.default is None else self.constant(f.default, t, f"the default of '{f.name}'")
            fields.append({"name": f.name, "t": str(t), "title": f.title, "default": default,
                           "required": f.default is None})
        return {"name": decl.name, "title": decl.title, "fields": fields, "origin": o}

    def constant(self, expr: ast.Expr, t: Type, what: str) -> Any:
        node = self.lowerer.expect(expr, t, {}, what)
        try:
            return literal_value(node)
        except ValueError:
            if not isinstance(node, Error):
                self.checker.error(expr.span, "R205", f"{what} must be a plain value, not a calculation")
            return None

    def row(self, r: ast.Row, params: tuple[tuple[str, Type], ...], returns: Type,
            clause: str | None) -> dict[str, Any]:
        local = dict(params)
        when = None if r.when is None else expr_ir(self.lowerer.expect(r.when, BOOL, local, "a row condition"))
        value = expr_ir(self.lowerer.expect(r.value, returns, local, f"the value of row '{r.label}'"))
        return {"label": r.label, "title": r.title, "when": when, "value": value,
                "origin": self.origin(clause, r.span)}

    def limits(self, decl: ast.LimitsDecl, o: dict[str, Any]) -> dict[str, Any]:
        sig = self.scope.signature(decl.name)
        assert sig is not None
        local = dict(sig.params)
        unless = [{"cond": expr_ir(self.lowerer.expect(u.cond, BOOL, local, "an 'unless' condition")),
                   "title": u.title, "origin": self.origin(o["clause"], u.span)} for u in decl.unless]
        items = []
        for lim in decl.limits:
            measure = self.lowerer.lower(lim.measure, local)
            if not isinstance(measure, Error) and not (isinstance(measure, Agg) and measure.fn in ("sum", "count")):
                self.checker.error(lim.measure.span, "R201", "a limit measures a sum(...) or count(...) "
                                   "over the units it limits", hint="for example: count(u for u in h.units "
                                   "where u.kind == port) at most 1")
            bound = expr_ir(self.lowerer.expect(lim.bound, NUMBER, local, "a limit"))
            items.append({"name": lim.name, "title": lim.title, "measure": expr_ir(measure), "bound": bound,
                          "origin": self.origin(o["clause"], lim.span)})
        names = [i["name"] for i in items]
        for lim in decl.limits:
            if names.count(lim.name) > 1:
                self.checker.error(lim.span, "R104", f"{decl.name} has two limits named '{lim.name}'")
                break
        return {"name": decl.name, "title": decl.title, "params": self.params(decl.params, sig.params),
                "unless": unless, "items": items, "origin": o}

    # ---- exceptions and overrides -----------------------------------------------------------

    def except_(self, exc: ast.ExceptTable | ast.ExceptLimit, clause: str | None) -> dict[str, Any]:
        o = self.origin(clause, exc.span)
        target = exc.target
        found = self.scope.find_decl(target[0])
        if isinstance(exc, ast.ExceptTable):
            if found is None or not isinstance(found[1], ast.TableDecl) or len(target) != 1:
                self._missing(exc.span, ".".join(target), "table", ast.TableDecl)
                return {"kind": "error", "origin": o}
            sig = self.scope.signature(target[0])
            assert sig is not None
            rows = [self.row(r, sig.params, sig.returns, clause) for r in exc.rows]
            return {"kind": "table", "target": target[0], "rows": rows, "origin": o}
        if found is None or not isinstance(found[1], ast.LimitsDecl) or len(target) > 2:
            self._missing(exc.span, ".".join(target), "limits", ast.LimitsDecl)
            return {"kind": "error", "origin": o}
        decl = found[1]
        if len(target) == 2 and target[1] not in [lim.name for lim in decl.limits]:
            self.checker.error(exc.span, "R101", f"{decl.name} has no limit '{target[1]}'",
                               hint=did_you_mean(target[1], [lim.name for lim in decl.limits]))
            return {"kind": "error", "origin": o}
        sig = self.scope.signature(decl.name)
        assert sig is not None
        cond = expr_ir(self.lowerer.expect(exc.cond, BOOL, dict(sig.params), "an exception's condition"))
        return {"kind": "limit", "target": list(target), "cond": cond, "title": exc.title, "origin": o}

    def _missing(self, span: Span, name: str, kind: str, cls: type) -> None:
        names = [n for lay in self.scope.layers for n, (d, _) in lay.decls.items() if isinstance(d, cls)]
        self.checker.error(span, "R101", f"no {kind} named '{name}'", hint=did_you_mean(name, names))

    def override(self, ov: ast.Override, out: dict[str, Any], within: str | None = None) -> None:
        """An override: at top level it is cited as the clause it changes; inside a rule of this
        layer (`rule 13.7b { override 13.7 ... }`), as that rule."""
        found = self.scope.clause(ov.number)
        if found is None or found[0] is self.lay:
            hint = did_you_mean(ov.number, [n for x in self.scope.layers[1:] for n in x.clauses])
            if found is not None:
                hint = "an override changes a clause of the layer this one extends; edit the clause itself"
            self.checker.error(ov.number_span or ov.span, "R105", f"override of rule {ov.number}, which "
                               f"{'is in this same layer' if found else 'does not exist'}", hint=hint)
            return
        where, rule = found
        entry = self._override_target(ov, rule, where)
        if entry is None:
            return
        entry["origin"] = self.origin(within or ov.number, ov.span)
        entry["clause"] = ov.number
        entry["of_layer"] = where.name
        key = change_key(entry["target"])
        other = self.overrides_by_target.get(key)
        if other is not None:
            first = other["origin"]
            what = target_label(entry["target"])
            self.checker.error(_head_span(ov), "R106", f"{self.lay.name} overrides {what} twice "
                               f"(first at {first['file']}:{first['line']}:{first['col']})",
                               hint="put both changes in one override")
            return
        self.overrides_by_target[key] = entry
        out["overrides"].append(entry)

    def _override_target(self, ov: ast.Override, rule: ast.Rule, where: LayerInfo) -> dict[str, Any] | None:
        path = ov.target
        members = {m.name: d for d in rule.decls if isinstance(d, ast.EnumDecl) for m in d.members}
        decls = {d.name: d for d in rule.decls}
        if not path:
            return self._changes(ov, {"kind": "clause", "number": ov.number}, None, "clause")
        head = path[0]
        if len(path) == 1 and head in members:
            enum = members[head]
            return self._changes(ov, {"kind": "member", "number": ov.number, "enum": enum.name, "member": head},
                                 enum.name, "member")
        decl = decls.get(head)
        if decl is None:
            self.checker.error(ov.target_span or ov.span, "R105", f"rule {ov.number} has no '{head}' to override",
                               hint=did_you_mean(head, list(members) + list(decls)))
            return None
        if len(path) == 1 and isinstance(decl, (ast.ConstDecl, ast.DefineDecl)):
            kind = "const" if isinstance(decl, ast.ConstDecl) else "define"
            return self._changes(ov, {"kind": kind, "number": ov.number, "name": head}, head, kind)
        if len(path) == 2 and isinstance(decl, ast.TableDecl):
            labels = [r.label for r in decl.rows]
            if path[1] not in labels:
                self.checker.error(ov.target_span or ov.span, "R105", f"table {head} has no row '{path[1]}'",
                                   hint=did_you_mean(path[1], labels))
                return None
            return self._changes(ov, {"kind": "row", "number": ov.number, "table": head, "row": path[1]},
                                 head, "row")
        if len(path) == 2 and isinstance(decl, ast.LimitsDecl):
            names = [lim.name for lim in decl.limits]
            if path[1] not in names:
                self.checker.error(ov.target_span or ov.span, "R105", f"{head} has no limit '{path[1]}'",
                                   hint=did_you_mean(path[1], names))
                return None
            return self._changes(ov, {"kind": "limit", "number": ov.number, "limits": head, "limit": path[1]},
                                 head, "limit")
        self.checker.error(ov.target_span or ov.span, "R105",
                           f"cannot override '{'.'.join(path)}' of rule {ov.number}",
                           hint="name a list value (4.5a F), a const or definition, a table row "
                                "(re_size.battalion) or a limit (stacking.combat_re)")
        return None

    def _changes(self, ov: ast.Override, target: dict[str, Any], name: str | None,
                 kind: str) -> dict[str, Any] | None:
        entry: dict[str, Any] = {"target": target, "set": {}, "title": None, "texts": [], "notes": [],
                                 "see": [], "value": None, "when": None, "bound": None}
        ok = True
        for ch in ov.changes:
            if ch.kind in ("title", "text", "note", "see"):
                if ch.kind == "title":
                    entry["title"] = ch.text
                elif ch.kind == "text":
                    entry["texts"].append(ch.text)
                elif ch.kind == "note" and ch.note is not None:
                    entry["notes"] += self.notes((ch.note,))
                else:
                    entry["see"] += self.refs(ch.refs)
                continue
            ok = self._change(ch, kind, name, entry) and ok
        return entry if ok else None

    def _change(self, ch: ast.Change, kind: str, name: str | None, entry: dict[str, Any]) -> bool:
        if kind == "member" and name is not None:
            info = self.scope.enum(name)
            assert info is not None
            setting = _as_setting(ch)
            if setting is None:
                return self._misfit(ch, "a value of a list takes settings such as 'negatable', "
                                    "'not negatable' or 'cost = 2'")
            attr, expr = setting
            if attr not in info.attrs:
                self.checker.error(ch.span, "R203", f"{name} has no attribute '{attr}'",
                                   hint=did_you_mean(attr, info.attrs))
                return False
            entry["set"][attr] = self._constant_or_none(expr, info.attrs[attr], f"'{attr}'")
            return True
        if kind in ("const", "define") and ch.kind == "value" and name is not None and ch.expr is not None:
            if kind == "const":
                want = self.scope.const_type(name) or ANY
                entry["value"] = expr_ir(self.lowerer.expect(ch.expr, want, {}, f"the new value of {name}"))
            else:
                sig = self.scope.signature(name)
                assert sig is not None
                entry["value"] = expr_ir(self.lowerer.expect(ch.expr, sig.returns, dict(sig.params),
                                                             f"the new result of {name}"))
            return True
        if kind == "row" and ch.kind in ("value", "row") and name is not None and ch.expr is not None:
            sig = self.scope.signature(name)
            assert sig is not None
            local = dict(sig.params)
            if ch.kind == "row":
                assert ch.expr2 is not None
                entry["when"] = expr_ir(self.lowerer.expect(ch.expr, BOOL, local, "a row condition"))
                entry["value"] = expr_ir(self.lowerer.expect(ch.expr2, sig.returns, local, "the row's new value"))
            else:
                entry["value"] = expr_ir(self.lowerer.expect(ch.expr, sig.returns, local, "the row's new value"))
            return True
        if kind == "limit" and ch.kind == "bound" and name is not None and ch.expr is not None:
            sig = self.scope.signature(name)
            assert sig is not None
            entry["bound"] = expr_ir(self.lowerer.expect(ch.expr, NUMBER, dict(sig.params), "a limit"))
            return True
        expected = {"clause": "title, text, note or see", "const": "a new value",
                    "define": "a new result expression", "row": "'when ... => ...' or a new value",
                    "limit": "'at most N'"}[kind]
        return self._misfit(ch, f"an override of a {kind} takes {expected}")

    def _constant_or_none(self, expr: ast.Expr, t: Type, what: str) -> Any:
        return self.constant(expr, t, what)

    def _misfit(self, ch: ast.Change, message: str) -> bool:
        self.checker.error(ch.span, "R110", "this change does not fit what it overrides", hint=message)
        return False

    # ---- examples ------------------------------------------------------------------------

    def example(self, ex: ast.Example, clause: str) -> dict[str, Any]:
        local: dict[str, Type] = {}
        steps: list[dict[str, Any]] = []
        for step in ex.steps:
            if isinstance(step, ast.Let):
                node = self.lowerer.lower(step.value, local)
                local[step.name] = node.t
                steps.append({"k": "let", "name": step.name, "value": expr_ir(node)})
            else:
                expr = expr_ir(self.lowerer.expect(step.expr, BOOL, local, "what an example expects"))
                cited = [{"layer": r.layer, "number": r.number, "item": r.item}
                         for r in step.cited if self.ref_ok(r)]
                steps.append({"k": "expect", "expr": expr, "cited": cited,
                              "origin": self.origin(clause, step.span)})
        return {"title": ex.title, "clause": clause, "steps": steps, "origin": self.origin(clause, ex.span)}


def _as_setting(ch: ast.Change) -> tuple[str, ast.Expr] | None:
    if ch.kind == "set" and ch.expr is not None:
        return ch.name, ch.expr
    e = ch.expr
    if ch.kind == "value" and isinstance(e, ast.Name):
        return e.name, ast.Bool(e.span, True)
    if ch.kind == "value" and isinstance(e, ast.Op) and e.op == "not" and isinstance(e.args[0], ast.Name):
        return e.args[0].name, ast.Bool(e.span, False)
    return None


def _head_span(ov: ast.Override) -> Span:
    """The rule number and target of an override (`4.5a F`), where they are written."""
    first = ov.number_span or ov.span
    last = ov.target_span or first
    return Span(first.file, first.line, first.col, last.end_line, last.end_col)


def _mark_param_reads(node: Any, params: list[dict[str, Any]]) -> None:
    """Mark each read of a parameter that cites rules (`negated: bool see 4.5b`), so that an
    answer cites 4.5b only when the negation was looked at."""
    cites = {p["name"]: p["see"] for p in params if p.get("see")}
    if not cites:
        return

    def walk(n: Any, shadowed: frozenset[str]) -> None:
        if isinstance(n, list):
            for x in n:
                walk(x, shadowed)
            return
        if not isinstance(n, dict):
            return
        if n.get("k") == "var" and n["name"] in cites and n["name"] not in shadowed:
            n["see"] = cites[n["name"]]
        inner = shadowed | {n["var"]} if n.get("k") == "agg" else shadowed
        for key, v in n.items():
            walk(v, inner if key in ("where", "body") else shadowed)

    walk(node, frozenset())


def _dup_labels(checker: Checker, rows: tuple[ast.Row, ...], table: str) -> None:
    seen: set[str] = set()
    for r in rows:
        if r.label in seen:
            checker.error(r.span, "R104", f"table {table} has two rows labelled '{r.label}'")
        seen.add(r.label)


def _check_cycles(checker: Checker, layers: dict[str, dict[str, Any]]) -> None:
    """Definitions, tables and consts may not depend on themselves: every check must end."""
    graph: dict[str, tuple[set[str], dict[str, Any]]] = {}
    for lay in layers.values():
        for kind in ("defines", "tables", "consts"):
            for d in lay[kind]:
                calls: set[str] = set()
                roots = [d.get("body"), d.get("value")]
                roots += [x for r in d.get("rows", []) for x in (r["when"], r["value"])]
                for node in nodes(roots):
                    if node.get("k") in ("call", "const"):
                        calls.add(node["fn"] if node["k"] == "call" else node["name"])
                graph[d["name"]] = (calls, d["origin"])
    reported: set[frozenset[str]] = set()
    for start in sorted(graph):
        path = _find_cycle(start, graph)
        if path and frozenset(path) not in reported:
            reported.add(frozenset(path))
            o = graph[start][1]
            span = Span(o["file"], o["line"], o["col"], o["line"], o["col"] + 1)
            checker.error(span, "R109", f"'{start}' depends on itself: {' -> '.join(path + [start])}",
                          hint="rules must not be defined in terms of themselves")


def _find_cycle(start: str, graph: dict[str, tuple[set[str], Any]]) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph.get(node, (set(), None))[0]):
            if nxt == start:
                return path + [node] if path else [node]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [node]))
    return None


def _hides_python(name: str) -> bool:
    """A ruleset's module, python/<name>.py, must not stand in for a standard module (a ruleset
    Fractions made a fractions.py that imported itself) nor be a keyword no import can name."""
    low = name.lower()
    return low in sys.stdlib_module_names or keyword.iskeyword(low) or keyword.issoftkeyword(low)


def _rulesets(checker: Checker, layers: dict[str, LayerInfo], decls: list[ast.Ruleset]) -> list[dict[str, Any]]:
    """Every series, game and scenario builds on its own; a ruleset adds options."""
    out: list[dict[str, Any]] = [{"name": n, "title": lay.decl.title, "base": n, "options": [], "origin": None}
           for n, lay in sorted(layers.items()) if lay.decl.kind != "option"]
    taken = {r["name"].lower() for r in out}
    for span, name in [(layers[r["name"]].decl.span, r["name"]) for r in out] + [(rs.span, rs.name) for rs in decls]:
        if _hides_python(name):
            checker.error(span, "R111", f"'{name}' would compile to python/{name.lower()}.py, which hides "
                          f"Python's own module or keyword '{name.lower()}'", hint="choose another name")
    for rs in decls:
        base = layers.get(rs.base)
        if base is None or base.decl.kind == "option":
            checker.error(rs.span, "R111", f"ruleset {rs.name} is built on '{rs.base}', "
                          "which is not a series, game or scenario",
                          hint=did_you_mean(rs.base, [n for n, x in layers.items() if x.decl.kind != "option"]))
            continue
        chain = [x.name for x in base.chain()]
        ok = True
        for opt, span in zip(rs.options, rs.option_spans, strict=False):
            lay = layers.get(opt)
            if lay is None or lay.decl.kind != "option":
                checker.error(span, "R111", f"'{opt}' is not an option",
                              hint=did_you_mean(opt, [n for n, x in layers.items() if x.decl.kind == "option"]))
                ok = False
            elif lay.decl.parent not in chain:
                checker.error(span, "R111", f"option {opt} extends {lay.decl.parent}, "
                              f"which is not part of {rs.base}")
                ok = False
            else:
                chain.insert(0, opt)
        if rs.name.lower() in taken:
            checker.error(rs.span, "R111", f"ruleset name '{rs.name}' is already used",
                          hint="names of series, games, scenarios and rulesets must differ (ignoring case)")
            ok = False
        if ok:
            taken.add(rs.name.lower())
            out.append({"name": rs.name, "title": rs.title, "base": rs.base, "options": list(rs.options),
                        "origin": origin(rs.base, None, rs.span)})
    return out


__all__ = ["check", "assignable", "describe", "IR"]
