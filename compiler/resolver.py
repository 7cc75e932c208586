"""Resolve a ruleset: the series, then the game, scenario and options over it, into one model.

Later layers win.  Every value keeps the origin it came from and, where a later
layer changed it, the list of overrides that did (oldest first).  The model is
the IR: plain JSON data.
"""

from __future__ import annotations

from typing import Any

from .checker import Program

IR_VERSION = 1


def layer_chain(program: Program, ruleset: dict[str, Any]) -> list[str]:
    """Layer names, series first, options last in the order the ruleset lists them."""
    chain: list[str] = []
    name: str | None = ruleset["base"]
    while name is not None and name in program.layers and name not in chain:
        chain.append(name)
        name = program.layers[name]["parent"]
    return list(reversed(chain)) + list(ruleset["options"])


def manifest(program: Program, ruleset: dict[str, Any]) -> dict[str, Any]:
    chain = layer_chain(program, ruleset)
    by_kind: dict[str, dict[str, Any] | None] = {"series": None, "game": None, "scenario": None}
    for name in chain:
        lay = program.layers[name]
        if lay["kind"] in by_kind:
            by_kind[lay["kind"]] = {"name": name, "title": lay["title"], "version": lay["version"]}
    options = [{"name": o, "title": program.layers[o]["title"], "version": program.layers[o]["version"]}
               for o in ruleset["options"]]
    return {"ruleset": ruleset["name"], "title": ruleset["title"], **by_kind, "options": options,
            "layers": chain}


def resolve(program: Program, ruleset: dict[str, Any]) -> dict[str, Any]:
    """The resolved model (IR) of one ruleset."""
    chain = layer_chain(program, ruleset)
    layers = [program.layers[n] for n in chain]
    model: dict[str, Any] = {
        "rulec_ir": IR_VERSION,
        "manifest": manifest(program, ruleset),
        "clauses": [], "externals": [], "enums": [], "records": [], "consts": [], "defines": [],
        "tables": [], "limits": [], "examples": [], "overrides": [],
    }
    # The layers' items are shared, not copied: a model is made of new dicts only where resolving
    # changes something (whom an item is overridden by, a table's rows, a limit's exceptions), so
    # the rulesets of one series share everything they do not change (a build holds one copy).
    for lay in layers:
        for kind in ("externals", "records", "consts", "defines", "examples"):
            model[kind] += [dict(item) for item in lay[kind]]
        model["clauses"] += [dict(c, overridden_by=[]) for c in lay["clauses"]]
        model["enums"] += [dict(e, members=[dict(m, overridden_by=[], attrs=dict(m["attrs"])) for m in e["members"]])
                           for e in lay["enums"]]
        model["tables"] += [dict(t, rows=[dict(r, exception=False, overridden_by=[]) for r in t["rows"]])
                            for t in lay["tables"]]
        model["limits"] += [dict(g, unless=list(g["unless"]),
                                 items=[dict(i, exempt=[], overridden_by=[]) for i in g["items"]])
                            for g in lay["limits"]]
    # Exceptions: a later layer's rows go ahead of an earlier layer's, which go ahead of the table's own.
    tables = {t["name"]: t for t in model["tables"]}
    limits = {g["name"]: g for g in model["limits"]}
    for lay in layers:
        ahead: dict[str, list[dict[str, Any]]] = {}
        for exc in lay["excepts"]:
            if exc["kind"] == "table" and exc["target"] in tables:
                for row in exc["rows"]:
                    ahead.setdefault(exc["target"], []).append(dict(row, exception=True, overridden_by=[]))
            elif exc["kind"] == "limit" and exc["target"][0] in limits:
                group = limits[exc["target"][0]]
                entry = {"cond": exc["cond"], "title": exc["title"], "origin": exc["origin"]}
                if len(exc["target"]) == 1:
                    group["unless"].append(entry)
                else:
                    for item in group["items"]:
                        if item["name"] == exc["target"][1]:
                            item["exempt"].append(entry)
        for name, rows in ahead.items():
            tables[name]["rows"] = rows + tables[name]["rows"]
    index = _Index(model)
    for lay in layers:
        for ov in lay["overrides"]:
            _apply(index, ov)
            model["overrides"].append(ov)
    return model


class _Index:
    """The model's items by what an override names (a loop over every item per override made
    resolving quadratic in the size of the rulebook)."""

    def __init__(self, model: dict[str, Any]):
        self.clauses: dict[str, list[dict[str, Any]]] = {}
        for c in model["clauses"]:
            self.clauses.setdefault(c["number"], []).append(c)
        self.named = {kind: _by_name(model[kind]) for kind in ("enums", "consts", "defines", "tables", "limits")}


def _by_name(items: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        out.setdefault(item["name"], []).append(item)
    return out


def _cite(ov: dict[str, Any]) -> dict[str, Any]:
    return {"layer": ov["origin"]["layer"], "notes": ov["notes"], "origin": ov["origin"]}


def _apply(index: _Index, ov: dict[str, Any]) -> None:
    t = ov["target"]
    kind = t["kind"]
    if kind == "clause":
        for c in index.clauses.get(t["number"], []):
            _texts(c, ov)
            c["overridden_by"].append(_cite(ov))
    elif kind == "member":
        for e in index.named["enums"].get(t["enum"], []):
            for m in e["members"]:
                if m["name"] == t["member"]:
                    for attr, value in ov["set"].items():
                        m["attrs"][attr] = {"value": value, "origin": ov["origin"]}
                    _texts(m, ov)
                    m["overridden_by"].append({**_cite(ov), "set": dict(ov["set"])})
    elif kind in ("const", "define"):
        for d in index.named["consts" if kind == "const" else "defines"].get(t["name"], []):
            d["value" if kind == "const" else "body"] = ov["value"]
            d["overridden_by"] = [*d.get("overridden_by", []), _cite(ov)]
    elif kind == "row":
        for tb in index.named["tables"].get(t["table"], []):
            for r in tb["rows"]:
                if r["label"] == t["row"] and not r["exception"]:
                    if ov["when"] is not None:
                        r["when"] = ov["when"]
                    r["value"] = ov["value"]
                    if ov["title"]:
                        r["title"] = ov["title"]
                    r["overridden_by"].append(_cite(ov))
    elif kind == "limit":
        for g in index.named["limits"].get(t["limits"], []):
            for item in g["items"]:
                if item["name"] == t["limit"]:
                    item["bound"] = ov["bound"]
                    item["overridden_by"].append(_cite(ov))


def _texts(target: dict[str, Any], ov: dict[str, Any]) -> None:
    if ov["title"]:
        target["title"] = ov["title"]
    if ov["texts"]:
        target["texts"] = list(ov["texts"])
    notes = target["notes"] = list(target.get("notes", []))  # the layer's own list stays as it was
    for n in ov["notes"]:
        same = [i for i, x in enumerate(notes) if x["text"] == n["text"]]
        if same:  # the series text already quotes the game's note: mark it, don't repeat it
            notes[same[0]] = dict(notes[same[0]], layer=ov["origin"]["layer"])
        else:
            notes.append(dict(n, layer=ov["origin"]["layer"]))
    target["see"] = target.get("see", []) + ov["see"]
