"""The JSON IR: every shipped ruleset validates against the schema, a broken model does not,
and DAK's exception to 4.5a F is carried with both the clause it changes and its note."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import member

from rulec import ir
from rulec import model as m
from rulec.build import Result
from rulec.interp import Interpreter

# ---- schema --------------------------------------------------------------------------------------


def test_every_shipped_ruleset_validates(shipped: Result) -> None:
    assert {"OCS", "DAK"} <= set(shipped.models)
    for name, model in ((n, ir.of(r)) for n, r in shipped.models.items()):
        assert ir.validation_errors(model) == [], name


def test_the_schema_is_itself_valid() -> None:
    import jsonschema

    schema = ir.schema()
    jsonschema.validators.validator_for(schema).check_schema(schema)
    assert schema["properties"]["rulec_ir"] == {"const": 1}


def _drop_manifest(m: dict[str, Any]) -> None:
    del m["manifest"]


def _wrong_version(m: dict[str, Any]) -> None:
    m["rulec_ir"] = 2


def _unknown_top_level_key(m: dict[str, Any]) -> None:
    m["surprise"] = []


def _origin_without_line(m: dict[str, Any]) -> None:
    del member(m, "EzocAction", "F")["origin"]["line"]


def _line_zero(m: dict[str, Any]) -> None:
    m["clauses"][0]["origin"]["line"] = 0


def _bad_rule_number(m: dict[str, Any]) -> None:
    m["clauses"][0]["number"] = "four"


def _unknown_expression_kind(m: dict[str, Any]) -> None:
    m["defines"][0]["body"] = {"k": "magic", "t": "bool"}


def _literal_without_value(m: dict[str, Any]) -> None:
    m["defines"][0]["body"] = {"k": "lit", "t": "bool"}


def _cite_without_layer(m: dict[str, Any]) -> None:
    del member(m, "EzocAction", "F")["overridden_by"][0]["layer"]


BREAKAGES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "no manifest": (_drop_manifest, "(top)"),
    "wrong IR version": (_wrong_version, "rulec_ir"),
    "unknown top-level key": (_unknown_top_level_key, "(top)"),
    "origin without line": (_origin_without_line, "enums/"),
    "line 0": (_line_zero, "clauses/0/origin/line"),
    "bad rule number": (_bad_rule_number, "clauses/0/number"),
    "unknown expression kind": (_unknown_expression_kind, "defines/0/body"),
    "literal without value": (_literal_without_value, "defines/0/body"),
    "cite without layer": (_cite_without_layer, "enums/"),
}


@pytest.mark.parametrize("name", BREAKAGES)
def test_a_broken_model_fails_validation(dak: dict[str, Any], name: str) -> None:
    breakage, path = BREAKAGES[name]
    before = ir.dumps(dak)
    broken = copy.deepcopy(dak)
    breakage(broken)
    errors = ir.validation_errors(broken)
    assert errors, f"{name}: the schema accepted a broken model"
    assert any(e.startswith(path) for e in errors), errors
    assert ir.dumps(dak) == before  # the fixture itself was not touched (test_every_shipped_ruleset_validates)


def test_ir_files_refuse_a_model_that_breaks_the_schema(shipped: Result, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulec.build import ir_files

    model = shipped.models["DAK"]
    assert list(ir_files(model)) == ["ir/dak.json"]
    broken = copy.deepcopy(ir.of(model))
    broken["rulec_ir"] = 2
    monkeypatch.setattr(ir, "of", lambda _: broken)  # as if the writer of the IR had a bug
    with pytest.raises(RuntimeError, match="does not match its schema"):
        ir_files(model)


def test_the_ir_text_is_the_dump_of_the_ir_document(shipped: Result) -> None:
    """The build writes the IR from each item's line (ir.text), never keeping the whole document:
    that text must be the document's dump, item for item."""
    for name, model in shipped.models.items():
        assert ir.text(model) == ir.dumps(ir.to_ir(model)), name


def test_ir_files_refuse_a_text_that_is_not_the_documents_dump(shipped: Result,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from rulec.build import ir_files

    model = shipped.models["DAK"]
    monkeypatch.setattr(ir, "text", lambda m: ir.dumps(ir.to_ir(m)).replace("Port", "Pork"))
    with pytest.raises(RuntimeError, match="not its document's dump"):
        ir_files(model)
    assert list(ir_files(model, validate=False)) == ["ir/dak.json"]  # unchecked, as a plain build may be


def test_dumps_is_stable_sorted_and_round_trips(dak: dict[str, Any]) -> None:
    text = ir.dumps(dak)
    assert text.endswith("}\n")
    assert json.loads(text) == dak
    assert ir.dumps(json.loads(text)) == text
    reordered = dict(reversed(list(dak.items())))
    assert ir.dumps(reordered) == text
    top_keys = [line[3:].split('"')[0] for line in text.splitlines() if line.startswith('  "')]
    assert top_keys == sorted(top_keys)


# ---- DAK 4.5a F ------------------------------------------------------------------------------------


def test_dak_4_5a_f_is_not_negatable(dak: dict[str, Any]) -> None:
    f = member(dak, "EzocAction", "F")
    assert f["title"] == "Port Operations - Trace Supply"
    assert f["attrs"]["negatable"]["value"] is False
    # the other <Negation> actions keep the series' setting
    for name in ("A", "B", "D", "H"):
        assert member(dak, "EzocAction", name)["attrs"]["negatable"]["value"] is True
        assert member(dak, "EzocAction", name)["overridden_by"] == []


def test_dak_4_5a_f_cites_the_series_clause_and_the_dak_note(dak: dict[str, Any]) -> None:
    f = member(dak, "EzocAction", "F")
    # the value of the series clause, where it is written ...
    assert (f["origin"]["layer"], f["origin"]["clause"]) == ("OCS", "4.5a")
    assert f["origin"]["file"] == "rules/ocs/ch4-general-concepts.rules"
    # ... and the DAK override that changed it, with DAK's note
    setting = f["attrs"]["negatable"]["origin"]
    assert (setting["layer"], setting["clause"], setting["file"]) == ("DAK", "4.5a", "rules/dak/dak.rules")
    (cite,) = f["overridden_by"]
    assert cite["layer"] == "DAK"
    assert cite["set"] == {"negatable": False}
    assert (cite["origin"]["layer"], cite["origin"]["clause"]) == ("DAK", "4.5a")
    assert [n["kind"] for n in cite["notes"]] == ["game"]
    assert cite["notes"][0]["text"] == \
        "In either edition of DAK, units do not negate EZOCs for Port Operations (F)."
    # the series text quotes the same game note: it is marked as DAK's, not repeated
    same = [n for n in f["notes"] if n["text"] == cite["notes"][0]["text"]]
    assert len(same) == 1 and same[0]["layer"] == "DAK"


def test_dak_lists_its_override_of_the_series(dak: dict[str, Any]) -> None:
    (ov,) = [o for o in dak["overrides"] if o["target"].get("member") == "F"]
    assert ov["target"] == {"kind": "member", "number": "4.5a", "enum": "EzocAction", "member": "F"}
    assert (ov["of_layer"], ov["clause"], ov["origin"]["layer"]) == ("OCS", "4.5a", "DAK")
    assert ov["set"] == {"negatable": False}
    assert dak["manifest"]["layers"] == ["OCS", "DAK"]
    assert (dak["manifest"]["series"]["name"], dak["manifest"]["game"]["name"]) == ("OCS", "DAK")


def test_an_answer_about_f_in_dak_cites_both_layers(dak_model: m.Resolved, ocs_model: m.Resolved) -> None:
    interp = Interpreter(dak_model)
    assert interp.call("ezoc_allows", ["F", True]) is False
    cited = [(c.layer, c.clause, c.item) for c in interp.trace]
    assert ("OCS", "4.5a", None) in cited  # the definition of ezoc_allows
    assert ("DAK", "4.5a", "F") in cited  # the setting DAK changed
    notes = [c.note for c in interp.trace if c.layer == "DAK"]
    assert any(n and n.startswith("In either edition of DAK") for n in notes)
    # in the series alone, F is negatable and nothing of DAK is cited
    series = Interpreter(ocs_model)
    assert series.call("ezoc_allows", ["F", True]) is True
    assert all(c.layer == "OCS" for c in series.trace)


def test_dumps_written_is_dumps_of_the_whole_document() -> None:
    """tables.json is written from its parts (each card and each table's values written as they come,
    ir.dumps_written): the same text as dumps of the whole document, empty parts included."""
    from rulec.ir import dumps, dumps_one, dumps_written

    cards = [{"name": "zoc", "blocks": [{"b": 1, "a": [1, 2]}]}, {"name": "re", "blocks": []}]
    values = {"re_size": [{"size": "battalion", "re": "1/2"}], "b": []}
    doc = {"manifest": {"ruleset": "OCS", "layers": ["OCS"]}, "cards": cards, "values": values}
    written = dumps_written({"manifest": doc["manifest"]}, lists={"cards": [dumps_one(c) for c in cards]},
                            objects={"values": {k: dumps_one(v) for k, v in values.items()}})
    assert written == dumps(doc)
    assert dumps_written({"a": 1}, lists={"cards": []}, objects={"values": {}}) == dumps({"a": 1, "cards": [],
                                                                                          "values": {}})
