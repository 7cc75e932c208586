"""One golden case per diagnostic code: `rulec check` on a folder prints exactly expected.txt.

Each folder tests/fixtures/diagnostics/<code>-<short-name>/ holds the .rules files of one
mistake and expected.txt, the text `rulec check <folder>` prints on stderr: every diagnostic
(Diagnostic.render, then a blank line) and the summary line.  Files are named from the
folder's name down (R101-unknown-name/t.rules), so the text is the same from any directory.

To regenerate expected.txt after a deliberate change in wording, run

    RULEC_UPDATE_GOLDEN=1 python -m pytest tests/test_diagnostics_golden.py

and read the diff of every expected.txt before committing it: the message must be right,
the caret must point at the mistake, the hint must make sense.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from rulec import pyexpr
from rulec.cli import main
from rulec.diagnostics import CODES
from rulec.types import INT, NUMBER, ListT, Type

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "diagnostics"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
UPDATE = os.environ.get("RULEC_UPDATE_GOLDEN") == "1"
WARNINGS = {"R115", "R117", "R121", "R304", "R307", "R308"}  # the codes reported as warnings: they do not fail a check
HEAD = re.compile(r"^(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning) (?P<code>R\d{3}): ",
                  re.MULTILINE)


_literal = pyexpr.literal


def _unscaled_list_literals(value: Any, t: Type, scale: int, consts: Any) -> str:
    """pyexpr.literal with the bug rulec once had: the whole numbers of a list of numbers not scaled."""
    if t == ListT(NUMBER):
        items = [_literal(v, INT if int(v) == v else NUMBER, scale, consts) for v in value]
        return "(" + "".join(f"{i}, " for i in items).rstrip(" ") + ")"
    return _literal(value, t, scale, consts)


def code_of(case: Path) -> str:
    return case.name.split("-", 1)[0]


def test_every_code_has_exactly_one_case() -> None:
    assert sorted(code_of(c) for c in CASES) == sorted(CODES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # A case runs `rulec check <folder>`, or the command its `args` file names (R403 comes from
    # `rulec test --coverage --rules <folder>`).
    args = (case / "args").read_text().split() if (case / "args").exists() else ["check"]
    if (case / "miscompile").exists():  # R900: rulec itself broken, as a list literal once was
        monkeypatch.setattr(pyexpr, "literal", _unscaled_list_literals)
    rc = main([*args, str(case)])
    out, err = capsys.readouterr()
    expected = case / "expected.txt"
    if UPDATE:
        expected.write_text(err, encoding="utf-8", newline="\n")
    assert "Traceback" not in err + out
    assert err == expected.read_text(encoding="utf-8")

    code = code_of(case)
    heads = list(HEAD.finditer(err))
    # the case shows its own mistake and nothing else, in files named from the folder down
    assert heads and {h["code"] for h in heads} == {code}
    assert all(h["file"].startswith(case.name + "/") for h in heads)
    if code in WARNINGS:
        assert {h["severity"] for h in heads} == {"warning"}
        assert rc == 0
        assert out.startswith("ok: ")
    elif code == "R900":  # a bug in rulec: exit 3, and the example is failed, never passed
        assert {h["severity"] for h in heads} == {"error"}
        assert rc == 3
        assert out.endswith("0 passed, 1 failed\n")
    elif args[0] == "test":
        assert {h["severity"] for h in heads} == {"error"}
        assert rc == 1
        assert out.endswith("1 passed, 0 failed\n")
    else:
        assert {h["severity"] for h in heads} == {"error"}
        assert rc == 1
        assert out == ""
