"""What `rulec check` and `rulec test` print for tools: JSON, GitHub annotations, JUnit XML.

The text format stays the one a designer reads (Diagnostic.render); these are the same findings for a
CI system or an editor: every diagnostic with its file, line, column, code and hint; every example run
with its ruleset, clause, title, place and outcome.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .diagnostics import Diagnostic
from .testing import Outcome, Report


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    s = d.span
    return {"file": s.file, "line": s.line, "column": s.col, "end_line": s.end_line, "end_column": s.end_col,
            "severity": d.severity, "code": d.code, "message": d.message, "hint": d.hint}


def check_json(diagnostics: list[Diagnostic], files: int, rulesets: list[str]) -> str:
    errors = sum(d.severity == "error" for d in diagnostics)
    return json.dumps({"ok": errors == 0, "errors": errors, "warnings": len(diagnostics) - errors,
                       "files": files, "rulesets": sorted(rulesets),
                       "diagnostics": [diagnostic_json(d) for d in diagnostics]},
                      indent=2, ensure_ascii=False, sort_keys=True)


def _gh_data(text: str) -> str:
    """A workflow command's message: %, CR and LF escaped, as GitHub's toolkit does."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github(diagnostics: list[Diagnostic]) -> str:
    """One `::error file=...,line=...::message` line per diagnostic (GitHub Actions annotations)."""
    lines = []
    for d in diagnostics:
        s = d.span
        props = [f"file={_gh_property(s.file)}", f"line={s.line}", f"col={s.col}"]
        if s.end_line >= s.line:
            props += [f"endLine={s.end_line}", f"endColumn={s.end_col}"]
        props.append(f"title={_gh_property(f'{d.code} {d.severity}')}")
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        lines.append(f"::{'error' if d.severity == 'error' else 'warning'} {','.join(props)}::{_gh_data(message)}")
    return "\n".join(lines)


def _outcome_json(o: Outcome, sources: Mapping[str, str]) -> dict[str, Any]:
    return {"ruleset": o.ruleset, "clause": o.clause, "title": o.title, "name": o.name, "file": o.file,
            "line": o.line, "status": o.status, "superseded_by": o.by or None,
            "failures": [{**diagnostic_json(d), "text": d.render(sources)} for d in o.failures]}


def test_json(rep: Report, sources: Mapping[str, str], uncovered: list[Diagnostic] | None = None) -> str:
    out: dict[str, Any] = {"passed": rep.passed, "failed": rep.failed, "superseded": len(rep.superseded),
                           "examples": [_outcome_json(o, sources) for o in rep.outcomes]}
    if uncovered is not None:
        out["coverage"] = {"items": len(rep.items), "exercised": len(rep.items) - len(uncovered),
                           "uncovered": [diagnostic_json(d) for d in uncovered]}
    return json.dumps(out, indent=2, ensure_ascii=False, sort_keys=True)


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _x(text: str) -> str:
    """Text XML 1.0 can hold: a character it cannot (a control character) is shown as U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def test_junit(rep: Report, sources: Mapping[str, str]) -> str:
    """JUnit XML: a test suite per ruleset, a test case per example (superseded ones skipped)."""
    root = ET.Element("testsuites", name="rulec test", tests=str(len(rep.outcomes)), failures=str(rep.failed),
                      skipped=str(len(rep.superseded)))
    suites: dict[str, ET.Element] = {}
    for o in rep.outcomes:
        suite = suites.get(o.ruleset)
        if suite is None:
            suite = suites[o.ruleset] = ET.SubElement(root, "testsuite", name=_x(o.ruleset))
        case = ET.SubElement(suite, "testcase", classname=_x(f"{o.ruleset}.{o.clause}"),
                             name=_x(o.title or o.clause), file=_x(o.file), line=str(o.line),
                             time=f"{o.seconds:.3f}")
        if o.status == "failed":
            failure = ET.SubElement(case, "failure", message=_x(o.failures[0].message if o.failures else "failed"),
                                    type=o.failures[0].code if o.failures else "R401")
            failure.text = _x("\n\n".join(d.render(sources) for d in o.failures))
        elif o.status == "superseded":
            ET.SubElement(case, "skipped", message=_x(f"superseded by {o.by}"))
    for suite in suites.values():
        cases = list(suite)
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(c.find("failure") is not None for c in cases)))
        suite.set("skipped", str(sum(c.find("skipped") is not None for c in cases)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode")
