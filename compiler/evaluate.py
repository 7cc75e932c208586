"""`rulec eval`: ask a compiled ruleset a question written in the rules language.

The question is checked against the ruleset's names and types and answered by the reference
interpreter, which records the rules it used, so the answer carries the rules that decided it.
With `--module` it is compiled to Python with the same expression compiler as the generated
module and run against that module (built in memory from the same rules) instead.
"""

from __future__ import annotations

import json
import types
from dataclasses import dataclass, fields, is_dataclass
from fractions import Fraction
from typing import Any

from . import crosscheck
from . import model as m
from .diagnostics import Diagnostic, did_you_mean
from .emit_python import ModuleEmitter, emit_python, tidy
from .exprs import EnumInfo, Lowerer, Signature
from .interp import Cite, EvalError, Interpreter, budget, to_json
from .parser import parse_query
from .state_schema import MAX_DIGITS, NUMBER, state_schema
from .types import TEXT, BoolT, EnumT, ListT, NumberT, RecordT, SetT, Type


class EvalFailure(Exception):
    """The question could not be answered; `diagnostics` say why, or `message` does."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None, usage: bool = False):
        super().__init__(message)
        self.diagnostics = diagnostics or []
        self.usage = usage


class ModelScope:
    """The names of one resolved ruleset, for checking a question against it."""

    def __init__(self, model: m.Resolved):
        self.model = model
        self.consts = {c.name: c.t for c in model.consts}
        self.sigs: dict[str, Signature] = {}
        for d in model.defines:
            self.sigs[d.name] = Signature(tuple((p.name, p.t) for p in d.params), d.returns, "define")
        for t in model.tables:
            self.sigs[t.name] = Signature(tuple((p.name, p.t) for p in t.params), t.returns, "table")
        for g in model.limits:
            self.sigs[g.name] = Signature(tuple((p.name, p.t) for p in g.params), ListT(TEXT), "limit")
        self.enums = {e.name: EnumInfo(e.name, tuple(mem.name for mem in e.members), {a.name: a.t for a in e.attrs},
                                       e.ordered, e.cyclic)
                      for e in model.enums}
        self.records = {r.name: {f.name: (f.t, not f.required) for f in r.fields} for r in model.records}

    def const_type(self, name: str) -> Type | None:
        return self.consts.get(name)

    def signature(self, name: str) -> Signature | None:
        return self.sigs.get(name)

    def enum(self, name: str) -> EnumInfo | None:
        return self.enums.get(name)

    def record(self, name: str) -> dict[str, tuple[Type, bool]] | None:
        return self.records.get(name)

    def enums_with_member(self, name: str) -> list[str]:
        return sorted(e.name for e in self.enums.values() if name in e.members)

    def names(self) -> list[str]:
        return [*self.consts, *self.sigs, *(m for e in self.enums.values() for m in e.members)]


@dataclass
class EvalAnswer:
    query: str
    ruleset: str
    value: Any
    rules: list[dict[str, Any]]
    explanation: str
    would_change: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "ruleset": self.ruleset, "value": json_value(self.value),
                "rules": self.rules, "explanation": self.explanation, "would_change": self.would_change}


def load_module(model: m.Resolved) -> types.ModuleType:
    """The ruleset's generated module, built in memory and imported."""
    return crosscheck.load_module(next(iter(emit_python(model).values())), model.manifest.ruleset)


def evaluate(model: m.Resolved, query: str, state: dict[str, Any] | None = None,
             on_module: bool = False) -> EvalAnswer:
    """The answer to a question, from the reference interpreter (or, on_module, the generated module)."""
    expr, diags = parse_query(query)
    if expr is None:
        raise EvalFailure("the question does not parse", diags)
    if state is not None:
        check_state(model, state)
    if not on_module:
        return _on_interpreter(model, query, expr, state or {})
    module = load_module(model)
    local_types: dict[str, Type] = {}
    values: dict[str, Any] = {}
    for name, entry in (state or {}).items():
        record, value = _state_entry(name, entry, model)
        try:
            values[name] = module.from_json(record, value, name)
        except module.InvalidInput as e:
            raise EvalFailure(f"--state: {e}", usage=True) from None
        local_types[name] = RecordT(record)
    lowerer = Lowerer(ModelScope(model))
    node = lowerer.lower(expr, local_types)
    if lowerer.diags:
        raise EvalFailure("the question has mistakes", lowerer.diags)
    emitter = ModuleEmitter(model)
    emitter.ec.local = {n: n for n in values}
    code = tidy(emitter.ec.num(node, True) if isinstance(node.t, NumberT) else emitter.ec.ex(node, True))
    namespace = dict(module.__dict__)
    for line in emitter.consts.lines:  # constants the question itself needs (sets, fractions)
        exec(line, namespace)
    namespace.update(values)
    trace: list[Any] = []
    namespace["_t"] = trace
    try:
        raw = eval(code, namespace)
    except module.RuleError as e:
        raise EvalFailure(f"the rules give no answer: {e}") from None
    value = module._exact(raw) if isinstance(node.t, NumberT) else raw
    cites = module._rules(trace)
    changes = _would_change(module, emitter, node, namespace, value)
    text = "; ".join(str(c) for c in cites)
    if changes:
        text += ". The answer would be yes if " + " or ".join(changes)
    rules = [{"layer": c.layer, "clause": c.clause, "item": c.item, "title": c.title, "note": c.note,
              "text": str(c)} for c in cites]
    return EvalAnswer(query, model.manifest.ruleset, value, rules, text, changes)


def _on_interpreter(model: m.Resolved, query: str, expr: Any, state: dict[str, Any]) -> EvalAnswer:
    interp = Interpreter(model)
    env: dict[str, Any] = {}
    local_types: dict[str, Type] = {}
    for name, entry in state.items():
        record, value = _state_entry(name, entry, model)
        env[name] = _state_value(interp, RecordT(record), value, name)
        local_types[name] = RecordT(record)
    lowerer = Lowerer(ModelScope(model))
    node = lowerer.lower(expr, local_types)
    if lowerer.diags:
        raise EvalFailure("the question has mistakes", lowerer.diags)
    try:
        with budget():
            value = interp.eval(node, env)
            changes = _would_change_on(interp, node, env) if value is False else []
    except (EvalError, ZeroDivisionError) as e:
        raise EvalFailure(f"the rules give no answer: {e}") from None
    titles = ModuleEmitter(model)
    rules: list[dict[str, Any]] = []
    texts: list[str] = []
    for c in interp.trace:
        title = titles.title_of(c.clause, c.item)
        text = str(Cite(c.layer, c.clause, c.item, c.note)) if c.clause is None else (
            " ".join(str(x) for x in (c.clause, c.item, title) if x)
            + (f" (overridden by {c.layer}: {c.note})" if c.note else ""))
        rules.append({"layer": c.layer, "clause": c.clause, "item": c.item, "title": title, "note": c.note,
                      "text": text})
        texts.append(text)
    shown = value if isinstance(value, (bool, int, Fraction, str)) else to_json(value)
    explanation = "; ".join(texts)
    if changes:
        explanation += ". The answer would be yes if " + " or ".join(changes)
    return EvalAnswer(query, model.manifest.ruleset, shown, rules, explanation, changes)


def _state_value(interp: Interpreter, t: Type, value: Any, path: str) -> Any:
    """A --state value (already checked against the state schema) as the interpreter's value, each
    record's invariants checked as the generated from_json checks them."""
    match t:
        case RecordT(record):
            fields = {f.name: f.t for f in interp.records[record].fields}
            made = interp.default_record(record, {n: _state_value(interp, fields[n], v, f"{path}.{n}")
                                                  for n, v in value.items()})
            for d in interp.defines.values():
                if d.invariant is not None and d.params[0].t == t and interp.call(d.name, [made]) is False:
                    where = f"{path}.{d.invariant[0]}" if d.invariant else path
                    raise EvalFailure(f"--state: {where}: breaks {d.origin.clause}: {d.title}", usage=True)
            return made
        case ListT(item):
            return tuple(_state_value(interp, item, v, f"{path}[{i}]") for i, v in enumerate(value))
        case SetT(item):
            return frozenset(_state_value(interp, item, v, f"{path}[{i}]") for i, v in enumerate(value))
        case NumberT():
            exact = Fraction(str(value))
            return int(exact) if exact.denominator == 1 else exact
    return value


def _would_change_on(interp: Interpreter, node: m.Expr, env: dict[str, Any]) -> list[str]:
    """For a no from a single check, the single changes to its yes/no, list-value and record inputs
    (their yes/no and list-value fields) that would make it a yes: as the explain_ twins say it."""
    if not isinstance(node, m.Call):
        return []
    d = interp.defines.get(node.fn) or interp.tables.get(node.fn)
    if d is None:
        return []
    args = [interp.eval(a, env) for a in node.args]
    out = []
    for i, p in enumerate(d.params):
        tries: list[tuple[str, Any]] = [(f"{p.name} = {_word(v)}", v) for v in _domain(interp, p.t)]
        if isinstance(p.t, RecordT):
            for f in interp.records[p.t.name].fields:
                tries += [(f"{p.name}.{f.name} = {_word(v)}", {**args[i], f.name: v})
                          for v in _domain(interp, f.t) if v != args[i][f.name]]
        for words, alt in tries:
            if alt != args[i] and _says_yes(interp, d.name, [*args[:i], alt, *args[i + 1:]]):
                out.append(words)
    return out


def _domain(interp: Interpreter, t: Type) -> tuple[Any, ...]:
    match t:
        case BoolT():
            return (False, True)
        case EnumT(name):
            return tuple(interp.enum_order.get(name, ()))
    return ()


def _says_yes(interp: Interpreter, fn: str, args: list[Any]) -> bool:
    asked = Interpreter(interp.model)
    try:
        return asked.call(fn, args) is True
    except (EvalError, ZeroDivisionError):
        return False


def _word(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def check_state(model: m.Resolved, state: dict[str, Any]) -> None:
    """Validate --state against the ruleset's state schema; the first error names its path."""
    import jsonschema

    schema = state_schema(model)
    for name, entry in state.items():
        record, value = _state_entry(name, entry, model)
        # Each value against its own record's schema, so an error names the field, not the whole entry.
        validator = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{record}", "$defs": schema["$defs"]})
        errors = sorted(validator.iter_errors(value), key=lambda e: [str(p) for p in e.absolute_path])
        if errors:
            best = jsonschema.exceptions.best_match(errors)
            where = ".".join([name, "value", *(str(p) for p in best.absolute_path)])
            message = best.message
            numbers = [e for e in (best, best.parent) if e is not None and isinstance(e.schema, dict)
                       and e.schema.get("description") == NUMBER["description"]]
            if numbers:  # a pattern of another schema (a field's name) is no number's
                message = (f"{shown_value(best.instance)} is not a number "
                           f"(write 2, 2.5 or 1/2; at most {MAX_DIGITS:,} digits a part)")
            raise EvalFailure(f"--state: {where}: {message}", usage=True)


def shown_value(value: Any) -> str:
    """A value of a --state file as a message shows it: a long text cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:60] + "..."


def _state_entry(name: str, entry: Any, model: m.Resolved) -> tuple[str, Any]:
    records = [r.name for r in model.records]
    if not isinstance(entry, dict) or set(entry) != {"record", "value"}:
        raise EvalFailure(f"--state: '{name}' must be {{\"record\": \"<one of {', '.join(records)}>\", "
                          "\"value\": {...}}", usage=True)
    if entry["record"] not in records:
        hint = did_you_mean(str(entry["record"]), records)
        raise EvalFailure(f"--state: '{name}' names unknown record {entry['record']!r}"
                          + (f"; {hint}" if hint else ""), usage=True)
    if not str(name).isidentifier() or name.startswith("_"):
        raise EvalFailure(f"--state: {name!r} is not a name the rules language can use", usage=True)
    return str(entry["record"]), entry["value"]


def _would_change(module: Any, emitter: ModuleEmitter, node: m.Expr, namespace: dict[str, Any],
                  value: Any) -> list[str]:
    """For a no from a single check, the single changes that would make it a yes (its explain_ twin says)."""
    if value is not False or not isinstance(node, m.Call):
        return []
    explain = getattr(module, f"explain_{emitter.public.get(node.fn, node.fn)}", None)
    if explain is None:
        return []
    args = []
    for arg in node.args:
        code = tidy(f"_exact({emitter.ec.num(arg, False)})" if isinstance(arg.t, NumberT)
                    else emitter.ec.ex(arg, False))
        args.append(eval(code, namespace))
    return list(explain(*args).would_change)


def json_value(value: Any) -> Any:
    """An answer as JSON: exact numbers as 'p/q' text when not whole, records as objects."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_value(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):  # a record as the interpreter holds it
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(json_value(v) for v in value)
    return str(value)
