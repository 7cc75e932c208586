"""rulec eval: questions in the rules language, answered by the compiled rules with their reasons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import RULES

from rulec.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["eval", "--rules", str(RULES), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_dak_forbids_port_operations_in_a_negated_ezoc_citing_its_note(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "DAK", "ezoc_allows(F, true)", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["value"] is False
    notes = [r["note"] for r in answer["rules"] if r["layer"] == "DAK"]
    assert notes == ["In either edition of DAK, units do not negate EZOCs for Port Operations (F)."]
    assert ("4.5a", "F") in [(r["clause"], r["item"]) for r in answer["rules"]]
    assert "overridden by DAK" in answer["explanation"]


def test_the_series_allows_it_citing_4_5a_and_4_5b(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "OCS", "ezoc_allows(F, true)", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["value"] is True
    clauses = [r["clause"] for r in answer["rules"]]
    assert "4.5a" in clauses and "4.5b" in clauses
    assert all(r["layer"] == "OCS" for r in answer["rules"])


def test_text_output_and_what_would_change_a_no(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ocs", "ezoc_allows(A, false)")
    assert code == 0
    assert out.splitlines()[0] == "ezoc_allows(A, false)  [OCS]  =  false"
    assert "because 4.5a A Truck Movement" in out
    assert "it would be yes if negated = true" in out


def test_exact_numbers_and_records_inline(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "OCS", "re_size(Unit { size: battalion }) + re_size(Unit { type: repl, mode: move })",
                       "--json")
    assert code == 0
    assert json.loads(out)["value"] == "3/4"
    code, out, _ = run(capsys, "OCS", "odds(2.5 + 3.25 + 4, 2)", "--json")
    assert json.loads(out)["value"] == 5


def test_state_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = tmp_path / "hex.json"
    state.write_text(json.dumps({"h": {"record": "Hex", "value": {
        "units": [{"multi_step": True, "printed_re": 6}, {"multi_step": True, "printed_re": "5"},
                  {"size": "battalion"}]}}}))
    code, out, err = run(capsys, "OCS", "stacking(h)", "--state", str(state), "--json")
    assert code == 0, err
    [violation] = json.loads(out)["value"]
    assert violation["limit"] == "combat_re" and violation["excess"] == "3/2" and violation["rule"] == "4.8"
    assert len(violation["units"]) == 3


def test_bad_state_names_the_field(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = tmp_path / "bad.json"
    state.write_text(json.dumps({"h": {"record": "Hex", "value": {"units": [{"size": "platoon"}]}}}))
    code, _, err = run(capsys, "OCS", "stacking(h)", "--state", str(state))
    assert code == 2
    assert "h.value.units.0.size" in err and "platoon" in err and "Traceback" not in err


def test_a_question_with_a_mistake_is_located(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "OCS", "ezoc_allows(F, 1/2)")
    assert code == 1
    assert "<query>:1:16: error R201" in err
    code, _, err = run(capsys, "OCS", "ezoc_alows(F, true)")
    assert code == 1 and "did you mean 'ezoc_allows'?" in err


def test_unknown_ruleset_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "DKA", "1")
    assert code == 2 and "did you mean 'DAK'?" in err


def test_answers_come_from_the_interpreter_unless_the_module_is_asked(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    """The interpreter is the reference; --module asks the generated module, and the two agree here."""
    (tmp_path / "ls.rules").write_text(
        (Path(__file__).parent / "fixtures" / "regressions" / "list-literals" / "ls.rules").read_text())
    answers = []
    for flag in ([], ["--module"]):
        code = main(["eval", "--rules", str(tmp_path), "LS", "tripled(1)", "--json", *flag])
        out, err = capsys.readouterr()
        assert code == 0, err
        answers.append(json.loads(out))
    assert answers[0] == answers[1]
    assert answers[0]["value"] == 3
    assert [r["text"] for r in answers[0]["rules"]] == ["1.1 Modifiers"]


def test_the_interpreter_answers_from_a_state_file_and_refuses_a_broken_invariant(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    state.write_text(json.dumps({"u": {"record": "Unit", "value": {"type": "repl", "mode": "combat"}}}))
    code, _, err = run(capsys, "OCS", "re_size(u)", "--state", str(state))
    assert code == 2 and "u.mode" in err and "Traceback" not in err


@pytest.mark.parametrize(("text", "said"), [
    ('{"h": ' * 100_000 + "1" + "}" * 100_000, "nested more than 100 deep"),
    ('{"u": {"record": "Unit", "value": {"printed_re": ' + "9" * 5000 + "}}}", "more than 1,200 digits"),
    ('{"u": {"record": "Unit", "value": {"printed_re": 1e400}}}', "more than 1,200 digits: 1e400"),
    ('{"u": {"record": "Unit", "value": {"printed_re": NaN}}}', "NaN is not a number"),
    ('{"u": {"record": "Unit", "value": {"printed_re": -Infinity}}}', "-Infinity is not a number"),
    ('{"u": {"record": "Unit", "value": {"printed_re": "1e99999999"}}}',
     'u.value.printed_re: "1e99999999" is not a number (write 2, 2.5 or 1/2'),
    ('{"u": {"record": "Unit", "value": {"printed_re": "' + "7" * 1201 + '"}}}', "at most 1,200 digits a part"),
    ('{"u": {"record": "Unit", "value": {"printed_re": "1\\ud800"}}}', "is not a number"),
    ("[1, 2]", "a JSON object of named records"),
])
def test_a_hostile_state_file_is_a_message_not_a_crash_or_a_hang(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, said: str) -> None:
    """Nesting, digits and NaN are refused while reading (JSON nested 100,000 deep was a
    RecursionError, 5,000 digits a ValueError: exit 3); a number text '1e99999999' by the state
    schema, before anything works it out (it hung)."""
    state = tmp_path / "state.json"
    state.write_text(text, encoding="utf-8")
    for on_module in ([], ["--module"]):
        code, _, err = run(capsys, "OCS", "u.printed_re", "--state", str(state), *on_module)
        assert code == 2, err
        assert said in err and "internal error" not in err


def test_brackets_inside_texts_of_a_state_file_are_not_nesting(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"u": {"record": "Unit", "value": {"printed_re": "1/2"}},
                                 '[{"\\' * 300: {"record": "Unit", "value": {}}}), encoding="utf-8")
    code, _, err = run(capsys, "OCS", "u.printed_re", "--state", str(state))
    assert code == 2
    assert "is not a name the rules language can use" in err and "nested" not in err


def test_an_answer_from_a_state_cites_what_the_module_cites(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    """The interpreter checked the state's records against their invariants as it read them, and
    cited those checks first in the answer (13.2b, 13.2d, 13.5, 4.6, 4.8b, 9.11 before 4.8's
    stacking), where the module, whose from_json checks them untraced, did not."""
    state = tmp_path / "hex.json"
    state.write_text(json.dumps({"h": {"record": "Hex", "value": {
        "units": [{"multi_step": True, "printed_re": 6}, {"multi_step": True, "printed_re": 6}]}}}))
    answers = []
    for more in ((), ("--module",)):
        code, out, err = run(capsys, "OCS", "stacking(h)", "--state", str(state), "--json", *more)
        assert code == 0, err
        answers.append(json.loads(out))
    assert answers[0] == answers[1]
    assert [r["clause"] for r in answers[0]["rules"]][:2] == ["3.3", "3.3"]
    assert not {"13.2b", "13.2d", "13.5", "9.11"} & {r["clause"] for r in answers[0]["rules"]}


@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_a_broken_limit_reads_the_same_from_the_interpreter_and_the_module(capsys: pytest.CaptureFixture[str],
                                                                            flags: list[str]) -> None:
    """Byte for byte: the interpreter's violation has its fields in the order of the module's Violation
    (limit, title, rule, total, bound, excess, units); it had rule last."""
    query = "stacking(Hex { units: [Unit { multi_step: true, printed_re: 11 }] })"
    outs = []
    for module in ([], ["--module"]):
        code, out, err = run(capsys, "DAK", query, *flags, *module)
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1]
    if not flags:
        assert '[{"limit": "combat_re", "title": "Combat units (RE)", "rule": "4.8", "total": 11' in outs[0]
