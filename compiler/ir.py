"""The JSON IR: the typed model (model.py) written as JSON data, validated against the schema kept
in compiler/schemas, written byte-stable."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from . import model as m

if TYPE_CHECKING:
    import jsonschema

IR = dict[str, Any]


@cache
def schema() -> dict[str, Any]:
    text = resources.files(__package__ or "rulec").joinpath("schemas/ir.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema  # only a check on rulec itself needs it (--check, tests): a build does not load it

    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    validator: jsonschema.protocols.Validator = cls(schema())
    return validator


def validation_errors(model: dict[str, Any]) -> list[str]:
    """Where the model breaks the schema: one line per error, with its JSON path."""
    errors = sorted(_validator().iter_errors(model), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors]


def nodes(value: Any) -> list[dict[str, Any]]:
    """Every object (dict) anywhere inside a piece of IR, without recursion."""
    out: list[dict[str, Any]] = []
    todo = [value]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            out.append(n)
            todo += [v for v in n.values() if isinstance(v, (dict, list))]
        elif isinstance(n, list):
            todo += n
    return out


def target_label(target: dict[str, Any]) -> str:
    """How a designer names the thing a change targets: '4.5a F', '4.6 re_size.battalion'."""
    kind, number = target["kind"], target["number"]
    if kind == "member":
        return f"{number} {target['member']}"
    if kind == "row":
        return f"{number} {target['table']}.{target['row']}"
    if kind == "limit":
        return f"{number} {target['limits']}.{target['limit']}"
    if kind in ("const", "define"):
        return f"{number} {target['name']}"
    return str(number)


def canonical(value: Any) -> bytes:
    """One byte string for one JSON value, whatever the order of its keys: what a content hash reads."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass")


def dumps_pretty(model: dict[str, Any]) -> str:
    """Stable text: sorted keys, two-space indent, a final newline (for small documents)."""
    return json.dumps(model, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def dumps(doc: dict[str, Any]) -> str:
    """Stable text for a large document: sorted keys, and each top-level key, and each item of a
    top-level list or object, on a line of its own (a diff shows the clause or table that changed).
    Each line is written by json's C encoder (an indented dump goes through its pure-Python one,
    five times slower: a tenth of a large build), and the pieces are joined once (a large IR is
    tens of MB: each copy of it counts in a build's memory)."""
    return _dumps(doc, {})


_ONE = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": ")).encode


def dumps_one(value: Any) -> str:
    """A value as dumps writes it on its line."""
    return _ONE(value)


def dumps_written(doc: dict[str, Any], lists: dict[str, list[str]] | None = None,
                  objects: dict[str, dict[str, str]] | None = None) -> str:
    """dumps of doc with, besides its own keys, top-level lists (lists) and objects (objects) whose
    items are already written by dumps_one: the same text as dumps of the whole document."""
    return _dumps(doc, lists or {}, objects or {})


def _dumps(doc: dict[str, Any], lines: dict[str, list[str]], objects: dict[str, dict[str, str]] | None = None) -> str:
    """dumps of doc and, for each key of lines, a top-level list whose items are already written
    (each its line of the text), and for each key of objects, an object whose values are."""
    one = _ONE
    objects = objects or {}
    pieces = ["{"]
    for n, key in enumerate(sorted(doc.keys() | lines.keys() | objects.keys())):
        pieces.append(",\n  " if n else "\n  ")
        pieces.append(one(key))
        if key in lines:
            _items(pieces, "[", lines[key], "]")
        elif key in objects:
            _items(pieces, "{", [f"{one(k)}: {objects[key][k]}" for k in sorted(objects[key])], "}")
        elif isinstance(value := doc[key], list):
            _items(pieces, "[", [one(item) for item in value], "]")
        elif isinstance(value, dict):
            _items(pieces, "{", [f"{one(k)}: {one(value[k])}" for k in sorted(value)], "}")
        else:
            pieces.append(f": {one(value)}")
    pieces.append("\n}\n")
    return "".join(pieces)


def _items(pieces: list[str], opening: str, items: list[str], closing: str) -> None:
    """A top-level list or object of _dumps: its items written already, each on a line of its own."""
    if not items:
        pieces.append(f": {opening}{closing}")
        return
    pieces.append(f": {opening}")
    for i, text in enumerate(items):
        pieces.append(",\n    " if i else "\n    ")
        pieces.append(text)
    pieces.append(f"\n  {closing}")


# ---- writing the typed model: expressions --------------------------------------------------


def ref_ir(r: m.Ref) -> IR:
    return {"number": r.number, "item": r.item}


def expr_ir(e: m.Expr) -> IR:
    """An expression as the IR writes it (keys in the order the later stages have always seen)."""
    return _EXPR_IR[type(e)](e)  # a table, not a match: this is the hot loop of writing a model


def _lit_ir(e: m.Lit) -> IR:
    return {"k": "lit", "t": str(e.t), "v": str(e.v) if isinstance(e.v, Fraction) else e.v}


def _var_ir(e: m.Var) -> IR:
    out: IR = {"k": "var", "t": str(e.t), "name": e.name}
    if e.see:
        out["see"] = [ref_ir(r) for r in e.see]
    return out


def _builtin_ir(e: m.Builtin) -> IR:
    out: IR = {"k": "builtin", "t": str(e.t), "fn": e.fn, "args": [expr_ir(a) for a in e.args]}
    if e.cyclic is not None:
        out["cyclic"] = e.cyclic
    return out


def _agg_ir(e: m.Agg) -> IR:
    return {"k": "agg", "t": str(e.t), "fn": e.fn, "var": e.var, "vart": str(e.vart), "over": expr_ir(e.over),
            "where": None if e.where is None else expr_ir(e.where), "body": expr_ir(e.body)}


def _const_ir(e: m.Const) -> IR:
    return {"k": "const", "t": str(e.t), "name": e.name}


def _member_ir(e: m.Member) -> IR:
    return {"k": "member", "t": str(e.t), "enum": e.enum, "name": e.name}


def _field_ir(e: m.Field) -> IR:
    return {"k": "field", "t": str(e.t), "of": expr_ir(e.of), "name": e.name}


def _attr_ir(e: m.Attr) -> IR:
    return {"k": "attr", "t": str(e.t), "of": expr_ir(e.of), "enum": e.enum, "name": e.name}


def _call_ir(e: m.Call) -> IR:
    return {"k": "call", "t": str(e.t), "fn": e.fn, "args": [expr_ir(a) for a in e.args]}


def _op_ir(e: m.Op) -> IR:
    return {"k": "op", "t": str(e.t), "op": e.op, "args": [expr_ir(a) for a in e.args]}


def _if_ir(e: m.If) -> IR:
    return {"k": "if", "t": str(e.t), "cond": expr_ir(e.cond), "then": expr_ir(e.then), "else": expr_ir(e.else_)}


def _let_ir(e: m.Let) -> IR:
    return {"k": "let", "t": str(e.t), "name": e.name, "value": expr_ir(e.value), "body": expr_ir(e.body)}


def _record_ir(e: m.RecordLit) -> IR:
    return {"k": "record", "t": str(e.t), "record": e.record, "fields": {n: expr_ir(v) for n, v in e.fields}}


def _list_ir(e: m.ListLit) -> IR:
    return {"k": "list", "t": str(e.t), "items": [expr_ir(i) for i in e.items]}


def _set_ir(e: m.SetLit) -> IR:
    return {"k": "set", "t": str(e.t), "items": [expr_ir(i) for i in e.items]}


def _error_ir(e: m.Error) -> IR:
    return {"k": "error", "t": str(e.t)}


_EXPR_IR: dict[type, Callable[[Any], IR]] = {
    m.Lit: _lit_ir, m.Var: _var_ir, m.Const: _const_ir, m.Member: _member_ir, m.Field: _field_ir, m.Attr: _attr_ir,
    m.Call: _call_ir, m.Builtin: _builtin_ir, m.Op: _op_ir, m.If: _if_ir, m.Let: _let_ir, m.Agg: _agg_ir,
    m.RecordLit: _record_ir, m.ListLit: _list_ir, m.SetLit: _set_ir, m.Error: _error_ir,
}


def opt_expr_ir(e: m.Expr | None) -> IR | None:
    return None if e is None else expr_ir(e)


IR_VERSION = 1


# ---- writing the typed model: declarations and rulesets ------------------------------------


def to_ir(model: m.Resolved) -> IR:
    """The resolved model of a ruleset as the IR's JSON document, which the schema validates and the
    later stages read (each key where it has always been)."""
    with m.building():
        return {**head_ir(model), **{key: [write(x) for x in getattr(model, key)] for key, write in ITEMS.items()}}


def head_ir(model: m.Resolved) -> IR:
    """The IR document less its lists of items (ITEMS): its version, manifest and external rules."""
    mf = model.manifest
    return {
        "rulec_ir": IR_VERSION,
        "manifest": {"ruleset": mf.ruleset, "title": mf.title, "series": _layer_ref(mf.series),
                     "game": _layer_ref(mf.game), "scenario": _layer_ref(mf.scenario),
                     "options": [_layer_ref(o) for o in mf.options], "layers": list(mf.layers)},
        "externals": [{"number": e.number, "title": e.title, "url": e.url} for e in model.externals],
    }


def text(model: m.Resolved) -> str:
    """dumps(to_ir(model)), the IR output, without the whole document: each item's line is written
    once while the item lives (a game shares most of its items with its series) and kept as text,
    a fraction of the size of its JSON data, which is let go at once."""
    with m.building():
        head = head_ir(model)
        lines = {key: [line(x, write) for x in getattr(model, key)] for key, write in ITEMS.items()}
    return _dumps(head, lines)


_DOCS: weakref.WeakKeyDictionary[m.Resolved, IR] = weakref.WeakKeyDictionary()


def of(model: m.Resolved) -> IR:
    """The IR document of a model, written once while the model lives (for the tests and tools that
    read it whole; a build writes text(model) and validates a document it lets go). Not to be
    changed by the reader."""
    found = _DOCS.get(model)
    if found is None:
        found = _DOCS[model] = to_ir(model)
    return found


def forget(model: m.Resolved) -> None:
    """Let the model's IR document go (of(model) writes it again if asked)."""
    _DOCS.pop(model, None)


_Item = TypeVar("_Item")
# Each item's line of the IR text and its canonical bytes, kept while the item lives.
_LINES: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_CANONICAL: weakref.WeakKeyDictionary[Any, bytes] = weakref.WeakKeyDictionary()


def line(item: _Item, write: Callable[[_Item], IR]) -> str:
    """The item's line of the IR text (write(item) as dumps writes it), made once while it lives
    (read back from its canonical bytes when those were made first)."""
    found = _LINES.get(item)
    if found is None:
        kept = _CANONICAL.get(item)
        found = _LINES[item] = _ONE(write(item)) if kept is None else kept.decode("utf-8", "surrogatepass")
    return found


def known_line(item: _Item) -> str | None:
    """The item's line of the IR text if it was made and not let go yet (a file's unit keeps it)."""
    found = _LINES.get(item)
    if found is None:
        kept = _CANONICAL.get(item)
        found = None if kept is None else kept.decode("utf-8", "surrogatepass")
    return found


def take_line(item: _Item, text: str) -> None:
    """The item's line of the IR text, as a unit kept it when the item was made (units.py)."""
    _LINES[item] = text


def forget_lines() -> None:
    """Let every item's IR line and canonical bytes go (line() and canonical_of() write them again if
    asked): once the build has written its rulesets' IR files and modules, a game's sharing its
    series' lines, nothing reads the lines, and the closure keys the cards' values ask for were
    worked out by the table analysis (29 MB of a 10,000-clause build, kept through its sheets
    and cards)."""
    _LINES.clear()
    _CANONICAL.clear()


def canonical_of(item: _Item, write: Callable[[_Item], IR]) -> bytes:
    """The bytes a content hash of the item reads (the interpreter's closure keys and the module's
    key): its line of the IR text, whose keys are sorted, encoded; made once while the item lives,
    and one JSON encoding for both (each was a tenth of an edit of the shipped rules)."""
    found = _CANONICAL.get(item)
    if found is None:
        kept = _LINES.get(item)
        found = _CANONICAL[item] = (_ONE(write(item)) if kept is None else kept).encode("utf-8", "surrogatepass")
    return found


def layer_ir(layer: m.Layer) -> IR:
    """A layer, before resolving, in the same form (what a layer holds, and its exceptions)."""
    return {
        "name": layer.name, "kind": layer.kind, "title": layer.title, "version": layer.version,
        "parent": layer.parent, "origin": origin_ir(layer.origin),
        "clauses": [clause_ir(c) for c in layer.clauses],
        "externals": [{"number": e.number, "title": e.title, "url": e.url} for e in layer.externals],
        "enums": [enum_ir(e) for e in layer.enums],
        "records": [record_ir(r) for r in layer.records],
        "consts": [const_ir(c) for c in layer.consts],
        "defines": [define_ir(d) for d in layer.defines],
        "tables": [table_ir(t) for t in layer.tables],
        "limits": [limits_ir(g) for g in layer.limits],
        "excepts": [except_ir(x) for x in layer.excepts],
        "overrides": [override_ir(o) for o in layer.overrides],
        "examples": [example_ir(e) for e in layer.examples],
    }


def _layer_ref(r: m.LayerRef | None) -> IR | None:
    return None if r is None else {"name": r.name, "title": r.title, "version": r.version}


def origin_ir(o: m.Origin) -> IR:
    return {"layer": o.layer, "clause": o.clause, "file": o.file, "line": o.line, "col": o.col}


def note_ir(n: m.Note) -> IR:
    out: IR = {"kind": n.kind, "label": n.label, "text": n.text}
    if n.layer is not None:
        out["layer"] = n.layer
    return out


def cite_ir(c: m.Cite) -> IR:
    out: IR = {"layer": c.layer, "notes": [note_ir(n) for n in c.notes], "origin": origin_ir(c.origin)}
    if c.set is not None:
        out["set"] = dict(c.set)
    if c.replaced:  # a later layer changed again all it decides: no answer cites it
        out["replaced"] = True
    return out


def _cites(cites: tuple[m.Cite, ...]) -> list[IR]:
    return [cite_ir(c) for c in cites]


def clause_ir(c: m.Clause) -> IR:
    return {"number": c.number, "title": c.title, "text_only": c.text_only, "texts": list(c.texts),
            "notes": [note_ir(n) for n in c.notes], "see": [ref_ir(r) for r in c.see],
            "origin": origin_ir(c.origin), "overridden_by": _cites(c.overridden_by)}


def enum_ir(e: m.EnumDef) -> IR:
    return {"name": e.name, "title": e.title, "ordered": e.ordered, "cyclic": e.cyclic,
            "attrs": [{"name": a.name, "t": str(a.t), "title": a.title, "default": a.default} for a in e.attrs],
            "members": [member_ir(mb) for mb in e.members], "origin": origin_ir(e.origin)}


def member_ir(mb: m.EnumMember) -> IR:
    return {"name": mb.name, "title": mb.title,
            "attrs": {n: {"value": v.value, "origin": None if v.origin is None else origin_ir(v.origin)}
                      for n, v in mb.attrs},
            "texts": list(mb.texts), "notes": [note_ir(n) for n in mb.notes], "see": [ref_ir(r) for r in mb.see],
            "origin": origin_ir(mb.origin), "overridden_by": _cites(mb.overridden_by)}


def record_ir(r: m.RecordDef) -> IR:
    return {"name": r.name, "title": r.title,
            "fields": [{"name": f.name, "t": str(f.t), "title": f.title, "default": f.default,
                        "required": f.required} for f in r.fields],
            "origin": origin_ir(r.origin)}


def params_ir(params: tuple[m.Param, ...]) -> list[IR]:
    out = []
    for p in params:
        entry: IR = {"name": p.name, "t": str(p.t)}
        if p.see is not None:
            entry["see"] = [ref_ir(r) for r in p.see]
        out.append(entry)
    return out


def const_ir(c: m.ConstDef) -> IR:
    out: IR = {"name": c.name, "title": c.title, "t": str(c.t), "value": expr_ir(c.value),
               "origin": origin_ir(c.origin)}
    if c.overridden_by:
        out["overridden_by"] = _cites(c.overridden_by)
    return out


def define_ir(d: m.Define) -> IR:
    out: IR = {"name": d.name, "title": d.title, "params": params_ir(d.params), "returns": str(d.returns)}
    if d.requires is not None:  # only where written, as a table's
        out["requires"] = expr_ir(d.requires)
    if d.requires_says is not None:
        out["requires_says"] = d.requires_says
    out |= {"body": expr_ir(d.body), "origin": origin_ir(d.origin)}
    if d.invariant is not None:
        out["invariant"] = list(d.invariant)
    if d.overridden_by:
        out["overridden_by"] = _cites(d.overridden_by)
    return out


def row_ir(r: m.Row) -> IR:
    return {"label": r.label, "title": r.title, "when": opt_expr_ir(r.when), "value": expr_ir(r.value),
            "origin": origin_ir(r.origin), "exception": r.exception, "overridden_by": _cites(r.overridden_by)}


def table_ir(t: m.Table) -> IR:
    out: IR = {"name": t.name, "title": t.title, "params": params_ir(t.params), "returns": str(t.returns)}
    if t.requires is not None:  # only where written: the IR of every other table is as it was
        out["requires"] = expr_ir(t.requires)
    if t.requires_says is not None:
        out["requires_says"] = t.requires_says
    out |= {"rows": [row_ir(r) for r in t.rows], "origin": origin_ir(t.origin)}
    if t.overridden_by:  # only where a layer changed the table itself: every other table's IR is as it was
        out["overridden_by"] = _cites(t.overridden_by)
    return out


def condition_ir(c: m.Condition) -> IR:
    return {"cond": expr_ir(c.cond), "title": c.title, "origin": origin_ir(c.origin)}


def limits_ir(g: m.Limits) -> IR:
    return {"name": g.name, "title": g.title, "params": params_ir(g.params),
            "unless": [condition_ir(u) for u in g.unless],
            "items": [{"name": i.name, "title": i.title, "measure": expr_ir(i.measure), "bound": expr_ir(i.bound),
                       "origin": origin_ir(i.origin), "exempt": [condition_ir(c) for c in i.exempt],
                       "overridden_by": _cites(i.overridden_by)} for i in g.items],
            "origin": origin_ir(g.origin)}


def except_ir(x: m.Except) -> IR:
    match x:
        case m.TableExcept(target, rows, origin):
            return {"kind": "table", "target": target, "rows": [row_ir(r) for r in rows], "origin": origin_ir(origin)}
        case m.LimitExcept(target, cond, title, origin):
            return {"kind": "limit", "target": list(target), "cond": expr_ir(cond), "title": title,
                    "origin": origin_ir(origin)}
        case m.BadExcept(origin):
            return {"kind": "error", "origin": origin_ir(origin)}


def target_ir(t: m.Target) -> IR:
    match t:
        case m.ClauseTarget(number):
            return {"kind": "clause", "number": number}
        case m.MemberTarget(number, enum, member):
            return {"kind": "member", "number": number, "enum": enum, "member": member}
        case m.NameTarget(kind, number, name):
            return {"kind": kind, "number": number, "name": name}
        case m.RowTarget(number, table, row):
            return {"kind": "row", "number": number, "table": table, "row": row}
        case m.LimitTarget(number, limits, limit):
            return {"kind": "limit", "number": number, "limits": limits, "limit": limit}


def override_ir(o: m.Override) -> IR:
    out: IR = {"target": target_ir(o.target), "set": dict(o.set), "title": o.title, "texts": list(o.texts),
               "notes": [note_ir(n) for n in o.notes], "see": [ref_ir(r) for r in o.see],
               "value": opt_expr_ir(o.value), "when": opt_expr_ir(o.when), "bound": opt_expr_ir(o.bound),
               "origin": origin_ir(o.origin), "clause": o.clause, "of_layer": o.of_layer, "says": o.says}
    if o.requires is not None:  # only where written, as a table's own
        out["requires"] = expr_ir(o.requires)
        if o.requires_says is not None:
            out["requires_says"] = o.requires_says
    return out


def example_ir(e: m.Example) -> IR:
    steps: list[IR] = []
    for s in e.steps:
        match s:
            case m.LetStep(name, value):
                steps.append({"k": "let", "name": name, "value": expr_ir(value)})
            case m.ExpectStep(expr, cited, origin):
                steps.append({"k": "expect", "expr": expr_ir(expr),
                              "cited": [{"layer": c.layer, "number": c.number, "item": c.item} for c in cited],
                              "origin": origin_ir(origin)})
    return {"title": e.title, "clause": e.clause, "steps": steps, "origin": origin_ir(e.origin)}


def ruleset_ir(r: m.Ruleset) -> IR:
    return {"name": r.name, "title": r.title, "base": r.base, "options": list(r.options),
            "origin": None if r.origin is None else origin_ir(r.origin)}


# The model's lists of items (in the IR, each under the same key), and each item's writer.
ITEMS: dict[str, Callable[[Any], IR]] = {
    "clauses": clause_ir, "enums": enum_ir, "records": record_ir, "consts": const_ir, "defines": define_ir,
    "tables": table_ir, "limits": limits_ir, "examples": example_ir, "overrides": override_ir,
}
# The items the generated module is made from: all but the worked examples, which are run on the
# module, never written into it (the module's key and RULES_HASH read these).
MODULE_ITEMS: dict[str, Callable[[Any], IR]] = {k: w for k, w in ITEMS.items() if k != "examples"}
# What of an item the generated module never shows, its wording: the texts and notes of a clause, of
# each value of a list (4.5a's A, "A unit with Truck MP ...") and of an override (the notes a check
# cites come in through the overridden item's `overridden_by`). The module's key and RULES_HASH leave
# them out (module_part): an edit of wording changes neither, and the module is not made again.
WORDING = ("texts", "notes")
NOT_IN_MODULE: dict[str, tuple[str, ...]] = {"clauses": WORDING, "overrides": WORDING}
WORDED = frozenset({*NOT_IN_MODULE, "enums"})  # the items module_part takes something out of


def module_part(name: str, doc: IR) -> IR:
    """An item's IR (ITEMS[name]'s) without its wording: what the generated module is made from."""
    if name == "enums":
        return {**doc, "members": [{k: v for k, v in mb.items() if k not in WORDING} for mb in doc["members"]]}
    left_out = NOT_IN_MODULE.get(name, ())
    return {k: v for k, v in doc.items() if k not in left_out}
