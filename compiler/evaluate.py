"""`rulec eval`: ask a compiled ruleset a question written in the rules language.

The question is checked against the ruleset's names and types and answered by the reference
interpreter, which records the rules it used, so the answer carries the rules that decided it.
With `--module` it is compiled to Python with the same expression compiler as the generated
module and run against that module (built in memory from the same rules) instead.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from fractions import Fraction
from typing import Any

from . import crosscheck
from . import model as m
from .diagnostics import Diagnostic, did_you_mean
from .emit_python import ModuleEmitter, emit_python, tidy, would_try
from .exprs import EnumInfo, Lowerer, Signature
from .interp import EvalError, Interpreter, Record, budget, to_json
from .parser import parse_query
from .state_schema import INT, INVARIANT_KEYWORD, MAX_DIGITS, NUMBER, invariant_parts, state_schema
from .types import TEXT, BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, Type


class EvalFailure(Exception):
    """The question could not be answered; `diagnostics` say why, or `message` does."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None, usage: bool = False,
                 field: str | None = None):
        super().__init__(message)
        self.diagnostics = diagnostics or []
        self.usage = usage
        # for a --state value refused: the value blamed, within its record, written as the generated
        # from_json names it ("points", "units[0].mode"; "" for the record itself)
        self.field = field


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
    # the whole module: the question, compiled as the module's own code is, may call a helper or a traced
    # twin the written module leaves out because nothing in it calls them
    return crosscheck.load_module(next(iter(emit_python(model, whole=True).values())), model.manifest.ruleset)


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
    if _the_check_alone(model, node):  # its violations, as a program gets them
        assert isinstance(node, m.Call)
        code = tidy(emitter.ec.call_itself(node, True))
    else:
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
    text = module.Answer(value, tuple(cites), tuple(changes)).explanation
    rules = [{"layer": c.layer, "clause": c.clause, "item": c.item, "title": c.title, "note": c.note,
              "text": str(c)} for c in cites]
    return EvalAnswer(query, model.manifest.ruleset, value, rules, text, changes)


def cite_text(layer: str, clause: str | None, item: str | None, title: str | None, note: str | None) -> str:
    """A cite in words, as the module's `Cite.__str__` writes it (tests/test_citations.py holds them equal)."""
    if clause is None:  # declared outside any numbered clause
        text = f"{title or item or ''} ({layer})".strip()
    else:
        where = " ".join(x for x in (clause, item) if x)
        text = f"{where} {title}" if title else where
    if note is not None:
        text += f" (overridden by {layer}: {note})" if note else f" (overridden by {layer})"
    return text


def _on_interpreter(model: m.Resolved, query: str, expr: Any, state: dict[str, Any]) -> EvalAnswer:
    interp = Interpreter(model)
    env: dict[str, Any] = {}
    local_types: dict[str, Type] = {}
    for name, entry in state.items():
        record, value = _state_entry(name, entry, model)
        env[name] = _state_value(interp, RecordT(record), value, name)
        local_types[name] = RecordT(record)
    # The records' invariants, checked as the state was read, are no rule the answer rests on (the
    # module's from_json checks them untraced): cited, they came first in every answer from a state.
    interp.trace.clear()
    lowerer = Lowerer(ModelScope(model))
    node = lowerer.lower(expr, local_types)
    if lowerer.diags:
        raise EvalFailure("the question has mistakes", lowerer.diags)
    try:
        with budget():
            if _the_check_alone(model, node):  # its violations, as a program gets them
                assert isinstance(node, m.Call)
                value = interp.call(node.fn, [interp.eval(a, env) for a in node.args])
            else:
                value = interp.eval(node, env)
            changes = _would_change_on(interp, node, env) if value is False else []
    except (EvalError, ZeroDivisionError) as e:
        raise EvalFailure(f"the rules give no answer: {e}") from None
    titles = ModuleEmitter(model)
    rules: list[dict[str, Any]] = []
    texts: list[str] = []
    for c in interp.trace:
        title = c.title if c.item is not None else titles.title_of(c.clause, None)
        text = cite_text(c.layer, c.clause, c.item, title, c.note)
        rules.append({"layer": c.layer, "clause": c.clause, "item": c.item, "title": title, "note": c.note,
                      "text": text})
        texts.append(text)
    shown = value if isinstance(value, (bool, int, Fraction, str)) else to_json(value)
    return EvalAnswer(query, model.manifest.ruleset, shown, rules, explanation(value, texts, changes), changes)


def _the_check_alone(model: m.Resolved, node: m.Expr) -> bool:
    """Whether a question is a limits check and nothing more: its answer is then the limits broken
    with their totals, bounds and excesses (the module's Violations); inside a larger question, a
    limits check is the names of the limits broken, as everywhere in the rules."""
    return isinstance(node, m.Call) and any(g.name == node.fn for g in model.limits)


def explanation(value: Any, cites: list[str], changes: list[str]) -> str:
    """An answer as a player says it, as the module's `Answer.explanation` words it (value: the
    interpreter's; a limit broken as a dict)."""
    text = said(value)
    if cites:
        text += ", because of " + "; ".join(cites)
    text += "."
    if changes:
        text += " It would be yes if " + " or ".join(changes) + "."
    return text


def said(value: Any) -> str:
    """A value in words, as the module's `_said`."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, dict) and "excess" in value:  # a limit broken
        return f"{value['title'] or value['limit']}: {_word(value['total'])} where at most {_word(value['bound'])} " \
               f"({value['rule']})"
    if isinstance(value, (tuple, list, frozenset)):
        return "; ".join(said(x) for x in value) if value else "None"
    if isinstance(value, (int, Fraction, str)):
        return _word(value)
    return "The answer"


def read_state(model: m.Resolved, state: dict[str, Any]) -> dict[str, Any]:
    """--state as the interpreter's values by name, checked against the state schema and each
    record's invariants; EvalFailure (with its `field`) for the first value refused, the one the
    generated from_json would refuse first."""
    check_state(model, state)
    interp = Interpreter(model)
    values = {}
    for name, entry in state.items():
        record, value = _state_entry(name, entry, model)
        values[name] = _state_value(interp, RecordT(record), value, name)
    return values


def _state_value(interp: Interpreter, t: Type, value: Any, path: str, at: str = "") -> Any:
    """A --state value (already checked against the state schema) as the interpreter's value, each
    record's invariants checked as the generated from_json checks them and blamed on the same field
    (at: where the value is, from the --state value's record, as from_json writes it)."""
    match t:
        case RecordT(record):
            fields = {f.name: f.t for f in interp.records[record].fields}
            made = interp.default_record(record, {  # in the record's order, as from_json reads them
                n: _state_value(interp, t, value[n], f"{path}.{n}", f"{at}.{n}".lstrip("."))
                for n, t in fields.items() if n in value})
            for d in interp.defines.values():
                if d.invariant is not None and d.params[0].t == t and interp.call(d.name, [made]) is False:
                    env = {d.params[0].name: made}
                    first = next((f for f, part in invariant_parts(d) if interp.eval(part, env) is False),
                                 d.invariant[0] if d.invariant else "")
                    where = f"{path}.{first}" if first else path
                    raise EvalFailure(f"--state: {where}: breaks {d.origin.clause or d.origin.layer}: "
                                      f"{d.title or d.name}", usage=True,
                                      field=f"{at}.{first}".strip(".") if first else at)
            return made
        case ListT(item):
            return tuple(_state_value(interp, item, v, f"{path}[{i}]", f"{at}[{i}]") for i, v in enumerate(value))
        case SetT(item):
            return frozenset(_state_value(interp, item, v, f"{path}[{i}]", f"{at}[{i}]")
                             for i, v in enumerate(value))
        case NumberT():
            exact = Fraction(repr(value) if isinstance(value, float) else str(value))
            return int(exact) if exact.denominator == 1 else exact
        case IntT() if isinstance(value, float):  # 1.0 or 1e3: whole, as the schema says (read as written)
            return Fraction(repr(value)).numerator
    return value


def _would_change_on(interp: Interpreter, node: m.Expr, env: dict[str, Any]) -> list[str]:
    """For a no from a single check, the single changes to its inputs that would make it a yes (yes/no
    and list values, a record's fields of those kinds, the items of a list: removed, changed, one
    more), in the order and words of the module's explain_ twins (runtime `_alternatives`)."""
    if not isinstance(node, m.Call):
        return []
    d = interp.defines.get(node.fn) or interp.tables.get(node.fn)
    if d is None:
        return []
    args = [interp.eval(a, env) for a in node.args]
    return [words for i, p in enumerate(d.params)
            for words, alt in _alternatives(interp, p.name, args[i], p.t, 0)
            if _says_yes(interp, d.name, [*args[:i], alt, *args[i + 1:]])]


def _alternatives(interp: Interpreter, name: str, value: Any, t: Type, depth: int) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(t, ListT) and would_try(t, depth):
        items = list(value)
        out += [(f"{name}[{j}] removed", tuple(items[:j] + items[j + 1:])) for j in range(len(items))]
        for j, item in enumerate(items):
            out += [(words, tuple(items[:j] + [alt] + items[j + 1:]))
                    for words, alt in _alternatives(interp, f"{name}[{j}]", item, t.item, depth + 1)]
        if isinstance(t.item, RecordT):
            if not any(f.required for f in interp.records[t.item.name].fields):
                out.append((f"{name} had one more {t.item.name} {{}}",
                            tuple(items + [interp.default_record(t.item.name, {})])))
        else:
            out += [(f"{name} had one more {_word(v)}", tuple(items + [v])) for v in _domain(interp, t.item)]
    elif isinstance(t, RecordT):
        for f in interp.records[t.name].fields:
            if would_try(f.t, depth):
                out += [(words, Record({**value, f.name: alt}))
                        for words, alt in _alternatives(interp, f"{name}.{f.name}", value[f.name], f.t, depth)]
    else:
        out += [(f"{name} = {_word(v)}", v) for v in _domain(interp, t) if v != value]
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
    """Validate --state against the ruleset's state schema. Of a value's errors, the one reported
    is the one the generated from_json meets first (it reads unknown fields, then each field in
    the record's order, then the missing ones, then the invariants), named by its path; a broken
    invariant is reported as the interpreter finds it, blaming the field from_json blames."""
    import jsonschema

    schema = state_schema(model)
    records = {r.name: r for r in model.records}
    for name, entry in state.items():
        record, value = _state_entry(name, entry, model)
        # Each value against its own record's schema, so an error names the field, not the whole entry.
        root = {"$ref": f"#/$defs/{record}", "$defs": schema["$defs"]}
        errors = list(jsonschema.Draft202012Validator(root).iter_errors(value))
        if not errors:
            continue
        found = [(_order(records, record, e, _invariant_of(root, e)), i, e) for i, e in enumerate(errors)]
        (first, at_record, invariant), _, best = min(found, key=lambda x: (x[0][0], x[1]))
        # A record whose fields are all valid may break an invariant the schema cannot say (one not
        # exact): from_json meets that first if it comes first.
        wrong = [list(e.absolute_path) for (_, _, inv), _, e in found if inv is None]
        interp = Interpreter(model)
        for inside, there, part in _records_in(records, record, value, []):
            if _key(records, record, inside) + (_LAST + 1,) >= first:
                break
            if not any(w[:len(inside)] == inside for w in wrong):
                _state_value(interp, RecordT(there), part, f"{name}.{_at(inside)}".rstrip("."), _at(inside))
        at = _at(best.absolute_path)
        if invariant is not None:  # the fields of the record there are valid: the interpreter says which it blames
            record_there, part = _record_at(records, record, list(best.absolute_path)[:at_record], value)
            path = _at(list(best.absolute_path)[:at_record])
            where = f"{name}.{path}".rstrip(".")
            _state_value(Interpreter(model), RecordT(record_there), part, where, path)
            raise RuntimeError(f"the state schema and the interpreter disagree on {where}: the schema says it "
                               f"breaks {invariant['rule']}: {invariant['title']}")  # a bug: they agree
        where = ".".join([name, "value", *(str(p) for p in best.absolute_path)])
        message = best.message
        numbers = [e for e in (best, best.parent) if e is not None and isinstance(e.schema, dict)
                   and e.schema.get("description") == NUMBER["description"]]
        if numbers:  # a pattern of another schema (a field's name) is no number's
            message = (f"{shown_value(best.instance)} is not a number "
                       f"(write 2, 2.5 or 1/2; at most {MAX_DIGITS:,} digits a part)")
        elif isinstance(best.schema, dict) and best.schema.get("description") == INT["description"]:
            message = f"{shown_value(best.instance)} is not a whole number (at most {MAX_DIGITS:,} digits)"
        if best.validator == "additionalProperties" and isinstance(best.instance, dict):
            known = best.schema.get("properties", {})
            at = f"{at}.{next(k for k in best.instance if k not in known)}".lstrip(".")
        raise EvalFailure(f"--state: {where}: {message}", usage=True, field=at)


_LAST = 1 << 62  # after every field of a record


def _order(records: dict[str, m.RecordDef], record: str, error: Any,
           invariant: tuple[dict[str, Any], int] | None) -> tuple[tuple[int, ...], int, dict[str, Any] | None]:
    """When from_json meets a schema error: the position of its value in reading order (each
    record's unknown fields first, then its fields in order, the missing ones, its invariants),
    with how deep in the value the record of a broken invariant is, and that invariant."""
    path = list(error.absolute_path)
    depth = invariant[1] if invariant is not None else len(path)
    key = list(_key(records, record, path[:depth]))
    if invariant is not None:
        key.append(_LAST + 1)
    elif error.validator == "additionalProperties":
        key.append(-1)
    elif error.validator == "required":
        key.append(_LAST)
    return tuple(key), depth, invariant[0] if invariant is not None else None


def _key(records: dict[str, m.RecordDef], record: str, path: list[Any]) -> tuple[int, ...]:
    """Where a value at path comes in from_json's reading order: each field by its place in its record."""
    key: list[int] = []
    t: Type = RecordT(record)
    for step in path:
        if isinstance(t, RecordT):
            names = [f.name for f in records[t.name].fields]
            key.append(names.index(str(step)) if step in names else -1)
            t = records[t.name].fields[names.index(str(step))].t if step in names else t
        elif isinstance(t, (ListT, SetT)):
            key.append(int(step))
            t = t.item
    return tuple(key)


def _records_in(records: dict[str, m.RecordDef], record: str, value: Any,
                path: list[Any]) -> Iterator[tuple[list[Any], str, Any]]:
    """The records in a value (path, record, JSON value) in the order from_json checks their
    invariants: a record's fields (the records in them) first, then the record."""
    if not isinstance(value, dict):
        return
    for f in records[record].fields:
        if f.name in value:
            yield from _records_of(records, f.t, value[f.name], [*path, f.name])
    yield path, record, value


def _records_of(records: dict[str, m.RecordDef], t: Type, value: Any,
                path: list[Any]) -> Iterator[tuple[list[Any], str, Any]]:
    match t:
        case RecordT(name):
            yield from _records_in(records, name, value, path)
        case ListT(item) | SetT(item) if isinstance(value, list):
            for i, v in enumerate(value):
                yield from _records_of(records, item, v, [*path, i])


def _invariant_of(root: dict[str, Any], error: Any) -> tuple[dict[str, Any], int] | None:
    """The invariant (its INVARIANT_KEYWORD words) whose subschema an error comes from, and how
    deep in the value its record is; None for an error of a field's own schema."""
    node: Any = root
    depth, found = 0, None
    keys = list(error.absolute_schema_path)
    i = 0
    while i < len(keys) and type(node) in (dict, list):
        key = keys[i]
        while isinstance(node, dict) and key not in node and "$ref" in node:  # a path goes through a $ref unsaid
            node = root["$defs"][str(node["$ref"]).removeprefix("#/$defs/")]
        if key == "$ref" and isinstance(node, dict):
            node = root["$defs"][str(node["$ref"]).removeprefix("#/$defs/")]
        elif key == "properties" and i + 1 < len(keys):
            node, depth = node["properties"][keys[i + 1]], depth + 1
            i += 1
        else:
            node = node[key]
            depth += key == "items"
        if isinstance(node, dict) and INVARIANT_KEYWORD in node:
            found = (node[INVARIANT_KEYWORD], depth)
        i += 1
    return found


def _record_at(records: dict[str, m.RecordDef], record: str, path: list[Any], value: Any) -> tuple[str, Any]:
    """The record (its name and JSON value) at path in a record's value."""
    t: Type = RecordT(record)
    for step in path:
        if isinstance(t, RecordT):
            t = next(f.t for f in records[t.name].fields if f.name == step)
        elif isinstance(t, (ListT, SetT)):
            t = t.item
        value = value[step]
    assert isinstance(t, RecordT)
    return t.name, value


def _at(path: Any) -> str:
    """A path in a value as the generated from_json writes it: fields by '.', list items by [i]."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


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
