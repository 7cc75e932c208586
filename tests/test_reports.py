"""`rulec check --format json|github` and `rulec test --format json|junit`, `rulec test --run` (compiler/reports.py):
the same findings as the text a designer reads, for CI systems and editors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulec.cli import main

RULES = '''series G "A game" version "1"

rule 1.1 "One" {
  const cap "The cap" = 3

  example "cap is four" {
    expect cap == 4
  }

  example "cap, 50%, a:b <&>" {
    expect cap == 3
  }
}

rule 1.2 "Two" {
  const two "Two" = 2

  example "two" {
    expect two == 2
  }
}
'''


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "g.rules").write_text(RULES, encoding="utf-8")
    return folder


def test_check_json_and_github(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (rules / "g.rules").write_text(RULES.replace("expect cap == 4", "expect cap == 3"), encoding="utf-8")
    rc, out, _ = run(capsys, "check", str(rules), "--format", "json")
    assert rc == 0 and json.loads(out)["ok"] is True and json.loads(out)["rulesets"] == ["G"]
    (rules / "g.rules").write_text(RULES.replace("expect two == 2", "expect twoo == 2").replace(
        'const cap "The cap" = 3', 'const cap "The cap" = 3\n  see 9.9'), encoding="utf-8")
    rc, out, err = run(capsys, "check", str(rules), "--format", "json")
    found = json.loads(out)
    assert rc == 1 and err == "" and found["ok"] is False and found["errors"] == 2
    unknown = next(d for d in found["diagnostics"] if d["code"] == "R101")
    assert unknown == {"file": "rules/g.rules", "line": 20, "column": 12, "end_line": 20, "end_column": 16,
                       "severity": "error", "code": "R101", "message": unknown["message"],
                       "hint": "did you mean 'two'?"}
    rc, out, err = run(capsys, "check", str(rules), "--format", "github")
    lines = out.splitlines()
    assert rc == 1 and len(lines) == 2 and all(line.startswith("::error file=rules/g.rules,line=") for line in lines)
    assert "title=R101 error::" in out and "(hint: did you mean 'two'?)" in out


def test_github_escapes_what_would_end_a_command() -> None:
    from rulec.diagnostics import Diagnostic, Span
    from rulec.reports import github

    d = Diagnostic(Span("a,b:c.rules", 1, 2, 1, 3), "R101", "100% wrong\nsecond line", hint="x:y")
    assert github([d]) == ("::error file=a%2Cb%3Ac.rules,line=1,col=2,endLine=1,endColumn=3,title=R101 error::"
                           "100%25 wrong%0Asecond line (hint: x:y)")


def test_test_json_junit_and_run(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "test", "--rules", str(rules), "--format", "json")
    found = json.loads(out)
    assert rc == 1 and (found["passed"], found["failed"]) == (2, 1)
    failed = [e for e in found["examples"] if e["status"] == "failed"]
    assert [e["name"] for e in failed] == ["G 1.1 cap is four"]
    assert "the left side is 3, the right side 4" in failed[0]["failures"][0]["message"]  # computed, expected
    assert failed[0]["failures"][0]["line"] == 7 and "expect cap == 4" in failed[0]["failures"][0]["text"]

    rc, out, _ = run(capsys, "test", "--rules", str(rules), "--format", "junit")
    root = ET.fromstring(out.split("\n", 1)[1])
    assert rc == 1 and root.get("tests") == "3" and root.get("failures") == "1"
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == ["cap is four", "cap, 50%, a:b <&>", "two"]
    assert cases[0].find("failure") is not None and "the right side 4" in (cases[0].find("failure").text or "")
    assert cases[1].find("failure") is None and cases[1].get("classname") == "G.1.1"

    rc, out, _ = run(capsys, "test", "--rules", str(rules), "--run", "g 1.2")
    assert (rc, out) == (0, "1 passed, 0 failed\n")
    rc, out, _ = run(capsys, "test", "--rules", str(rules), "--run", "G 1.1 cap, *")
    assert (rc, out) == (0, "1 passed, 0 failed\n")
    rc, out, err = run(capsys, "test", "--rules", str(rules), "--run", "nothing like it")
    assert rc == 2 and "no example matches 'nothing like it'" in err
    rc, out, err = run(capsys, "test", "--rules", str(rules), "--run", "two", "--coverage")
    assert rc == 0 and "coverage: not measured" in err


def test_junit_holds_only_characters_xml_can(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (rules / "g.rules").write_text(RULES.replace('"two"', '"two \u0007 bell"'), encoding="utf-8")
    rc, out, err = run(capsys, "test", "--rules", str(rules), "--format", "junit", "--run", "1.2")
    assert rc == 0, err
    root = ET.fromstring(out.split("\n", 1)[1])
    assert root.find("./testsuite/testcase").get("name") == "two \ufffd bell"
