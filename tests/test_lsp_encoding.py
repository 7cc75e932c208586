"""Positions in the language server's protocol are counted in the code units of the encoding agreed at
initialize: UTF-16 unless the client offers UTF-8 or UTF-32 (LSP 3.17 `general.positionEncodings`).
rulec counts characters; after four 🎲 (4 characters, 8 UTF-16 units, 16 UTF-8 bytes) the two differ,
so an underline or a go-to-definition would land on the wrong characters without the conversion.
Driven over the raw protocol (tests/lsp_client.py), as an editor would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

from rulec.lsp import from_client, to_client, units  # noqa: E402
from tests.lsp_client import Server  # noqa: E402

TEXT = ('series S "s" version "1"\n\nrule 1.1 "One" {\n  define a(n: int) -> int = n\n'
        '  define b(t: text) -> bool = t == "🎲🎲🎲🎲" and a(1) == zzz\n}\n')
LINE = TEXT.split("\n")[4]


def _start(tmp_path: Path, encodings: list[str] | None) -> tuple[Server, dict[str, Any]]:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.rules").write_text(TEXT, encoding="utf-8")
    client = Server(tmp_path)
    general = {} if encodings is None else {"general": {"positionEncodings": encodings}}
    answer = client.request("initialize", {"processId": None, "capabilities": general,
                                           "rootUri": tmp_path.as_uri()})
    client.notify("initialized", {})
    return client, answer["result"]["capabilities"]


@pytest.mark.parametrize("encodings, agreed, width", [
    (None, "utf-16", 2),  # the protocol's default
    (["utf-8", "utf-16"], "utf-8", 4),
    (["utf-32"], "utf-32", 1),
])
def test_columns_are_in_the_agreed_code_units(tmp_path: Path, encodings: list[str] | None, agreed: str,
                                              width: int) -> None:
    client, capabilities = _start(tmp_path, encodings)
    try:
        assert capabilities.get("positionEncoding", "utf-16") == agreed
        client.open(TEXT)
        [diag] = [d for m in client.messages if m.get("method") == "textDocument/publishDiagnostics"
                  for d in m["params"]["diagnostics"]]
        chars = LINE.index("zzz")  # 54 characters before it, four of them 🎲
        assert diag["code"] == "R101"
        assert diag["range"]["start"] == {"line": 4, "character": chars + 4 * (width - 1)}
        assert diag["range"]["end"]["character"] - diag["range"]["start"]["character"] == 3
        # go to the definition of `a`, asked at its column in the agreed units: it is line 4's `a`
        at = LINE.index("a(1)") + 4 * (width - 1)
        answer = client.request("textDocument/definition", {"textDocument": {"uri": client.uri},
                                                            "position": {"line": 4, "character": at}})
        [loc] = answer["result"]
        assert loc["range"]["start"]["line"] == 3
        # two units to the left is not `a` (the column in characters would have been inside the 🎲s)
        answer = client.request("textDocument/definition", {"textDocument": {"uri": client.uri},
                                                            "position": {"line": 4, "character": at - 2}})
        assert answer["result"] in ([], None)
    finally:
        client.close()


def test_the_conversions() -> None:
    line = 'x "🎲🎲" y'
    assert [units(line, e) for e in ("utf-8", "utf-16", "utf-32")] == [14, 10, 8]
    assert to_client(line, line.index("y"), "utf-16") == 9 and to_client(line, line.index("y"), "utf-8") == 13
    assert from_client(line, 9, "utf-16") == line.index("y")
    assert from_client(line, 4, "utf-16") == 3  # inside the first 🎲's pair of units: that character
    assert from_client(line, to_client(line, 5, "utf-8"), "utf-8") == 5
    assert to_client("ab", 4, "utf-16") == 4 and from_client("ab", 4, "utf-16") == 4  # past the end: as is
