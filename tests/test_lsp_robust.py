"""The language server stays up (SECURITY.md): the real server, `python -m rulec.lsp`, driven over
its standard input with raw bytes. After every malformed message a valid request is answered, every
request gets an answer (the empty one where nothing can be found), never a traceback, and the
process is alive at the end."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lsp_client import SEE, TEXT, Server, encode, frame

pytest.importorskip("pygls")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.rules").write_text(TEXT, encoding="utf-8")
    s = Server(tmp_path)
    try:
        yield s
    finally:
        s.close()


def assert_hover_answered(s: Server) -> None:
    """A hover sent now is answered, with the rule under the cursor."""
    msg_id, data = s.hover(*SEE)
    s.send_bytes(data)
    answer = s.answer(msg_id)
    assert "error" not in answer, answer
    assert answer["result"] is not None and "The first rule." in answer["result"]["contents"]["value"]


VALID = encode({"jsonrpc": "2.0", "method": "$/ignored", "params": {}})

# Malformed framing, each followed by a valid request that must be answered.
MALFORMED = {
    "huge Content-Length": b"Content-Length: 99999999999\r\n\r\n" + VALID,
    "Content-Length of 10^40": b"Content-Length: " + b"9" * 40 + b"\r\n\r\n" + VALID,
    "Content-Length above the bound, body sent": b"Content-Length: 20000000\r\n\r\n" + b"x" * 300_000,
    "non-numeric Content-Length": b"Content-Length: abc\r\n\r\n" + VALID,
    "negative Content-Length": b"Content-Length: -5\r\n\r\n" + VALID,
    "Content-Length without a value": b"Content-Length:\r\n\r\n" + VALID,
    "missing Content-Length": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + VALID,
    "no header at all": VALID,
    "bytes that are no message": bytes(range(256)) * 40,
    "a header line that never ends": b"Content-Length: 10\r\nX-Junk: " + b"y" * 100_000,
    "Content-Length larger than the body": b"Content-Length: 500\r\n\r\n" + VALID,
    "Content-Length larger than the body by a few bytes": b"Content-Length: %d\r\n\r\n" % (len(VALID) + 7) + VALID,
    "Content-Length smaller than the body": b"Content-Length: 5\r\n\r\n" + VALID,
    "header cut short by the next message": b"Content-Length: 40\r\nContent-Ty",
}
# Well framed, and survived before the guard too: kept among the messages sent in a row.
SURVIVED = {
    "Content-Length of zero": b"Content-Length: 0\r\n\r\n",
    "body that is not JSON": frame(b"{not json"),
    "JSON nested 100,000 deep": frame(b"[" * 100_000 + b"]" * 100_000),
    "JSON that is no JSON-RPC message": frame(b'[1, "two", null]'),
}


@pytest.mark.parametrize("garbage", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_request_after_malformed_framing_is_answered(server: Server, garbage: bytes) -> None:
    server.initialize()
    server.open()
    server.send_bytes(garbage)
    assert_hover_answered(server)
    assert server.alive()


@pytest.mark.parametrize("garbage", [MALFORMED["huge Content-Length"], MALFORMED["missing Content-Length"],
                                     MALFORMED["non-numeric Content-Length"]],
                         ids=["huge", "missing", "non-numeric"])
def test_initialize_after_malformed_framing_as_the_first_message_is_answered(server: Server, garbage: bytes) -> None:
    server.send_bytes(garbage)
    server.initialize()
    server.open()
    assert_hover_answered(server)
    assert server.alive()


def test_every_malformed_message_in_a_row_then_a_request(server: Server) -> None:
    server.initialize()
    server.open()
    for garbage in [*MALFORMED.values(), *SURVIVED.values()]:
        server.send_bytes(garbage)
    assert_hover_answered(server)
    assert server.alive()


def test_a_request_that_is_not_json_rpc_gets_an_error_answer(server: Server) -> None:
    server.initialize()
    server.send_bytes(frame(b'{"id": 7, "method": "textDocument/hover"}'))
    answer = server.answer(7)
    assert answer["error"]["code"] == -32600 and "traceback" not in json.dumps(answer)
    assert server.alive()


POSITIONS = [(-1, 0), (0, -1), (-5, -5), (-(2**31), 0), (2**31, 0), (10**20, 10**20), (10**6, 0), (0, 10**6),
             (2**31 - 1, 2**31 - 1)]


@pytest.mark.parametrize(("line", "character"), POSITIONS)
def test_a_position_outside_the_document_gets_the_empty_answer(server: Server, line: int, character: int) -> None:
    server.initialize()
    server.open()
    where = {"textDocument": {"uri": server.uri}, "position": {"line": line, "character": character}}
    for method, empty in [("textDocument/hover", [None]), ("textDocument/definition", [[], None]),
                          ("textDocument/completion", [[], None, {"isIncomplete": False, "items": []}])]:
        answer = server.request(method, where)
        assert "error" not in answer, (method, answer)
        assert answer["result"] in empty, (method, answer)
    assert_hover_answered(server)
    assert server.alive()


def test_a_document_that_is_not_open_gets_the_empty_answer(server: Server) -> None:
    server.initialize()
    server.open()
    for uri in [(server.folder / "rules" / "nowhere.rules").as_uri(), (server.folder / "rules" / "x.rules").as_uri()
                .replace("x.rules", "X.rules"), "untitled:Nothing", "file:///proc/self/environ", "not a uri", ""]:
        where = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
        for method, params, empty in [
                ("textDocument/hover", where, [None]),
                ("textDocument/definition", where, [[], None]),
                ("textDocument/completion", where, [[], None, {"isIncomplete": False, "items": []}]),
                ("textDocument/formatting", {"textDocument": {"uri": uri},
                                             "options": {"tabSize": 2, "insertSpaces": True}}, [[], None])]:
            answer = server.request(method, params)
            assert "error" not in answer and "Traceback" not in json.dumps(answer), (method, uri, answer)
            assert answer["result"] in empty, (method, uri, answer)
    assert_hover_answered(server)
    assert server.alive()


def test_a_huge_content_length_is_not_allocated(server: Server) -> None:
    """The server lives through a claimed length far beyond memory, sent with part of a body, and
    answers the next request: the length was refused, never allocated."""
    server.initialize()
    server.open()
    server.send_bytes(b"Content-Length: 99999999999\r\n\r\n" + b'{"jsonrpc": "2.0", ' + b" " * 1_000_000)
    assert_hover_answered(server)
    assert server.alive()


def long_document() -> str:
    """About 1.9 MB: one long sum, slow to compile."""
    return 'series X "X"\n\nrule 1.1 "First" {\n  text "The first rule."\n}\n\nrule 1.2 "Second" {\n  see 1.1\n  ' \
        'define f(x: int) -> int = ' + " + ".join(["x"] * 475_000) + "\n}\n"


def test_a_long_document_does_not_hold_up_requests(server: Server) -> None:
    """Opening a 1.9 MB document that takes many seconds to compile: a hover sent right after is
    answered while it compiles (it took 24 s of wall time, the whole compile, before)."""
    server.initialize()
    server.open()
    assert_hover_answered(server)
    big = server.uri.replace("x.rules", "big.rules")
    text = long_document()
    assert 1_800_000 < len(text.encode()) < 2_000_000
    server.open(text, big, wait=False)
    started = time.monotonic()
    msg_id, data = server.hover(*SEE, uri=big)
    server.send_bytes(data)
    answer = server.answer(msg_id)
    took = time.monotonic() - started
    assert "error" not in answer, answer
    assert took < 5, f"the hover took {took:.1f} s"
    assert server.alive()


def test_the_same_text_is_not_compiled_again(server: Server) -> None:
    """A change or a save that leaves the text as it was compiles nothing, so publishes nothing."""
    server.initialize()
    server.open()
    server.messages.clear()
    server.notify("textDocument/didChange", {"textDocument": {"uri": server.uri, "version": 2},
                                             "contentChanges": [{"text": TEXT}]})
    server.notify("textDocument/didSave", {"textDocument": {"uri": server.uri}})
    assert server.published(3) == []
    changed = TEXT + '\nrule 1.3 "Third" {\n  see 9.9\n}\n'
    server.notify("textDocument/didChange", {"textDocument": {"uri": server.uri, "version": 3},
                                             "contentChanges": [{"text": changed}]})
    published = [m for m in server.published(10) if m["params"]["uri"] == server.uri]
    assert published and [d["code"] for d in published[-1]["params"]["diagnostics"]] == ["R102"]
    assert server.alive()


class Chunked(io.BytesIO):
    """A stream whose reads return at most `chunk` bytes, as a pipe may."""

    def __init__(self, data: bytes, chunk: int) -> None:
        super().__init__(data)
        self.chunk = chunk

    def read1(self, n: int | None = -1) -> bytes:
        return super().read1(self.chunk)


def test_the_guard_finds_every_message_after_any_junk() -> None:
    """The reader alone, on 300 random streams of malformed pieces (with repeated and cut-up
    headers) each followed by a framed message: every framed message comes out, in order, and
    uncut; read one byte at a time or in chunks."""
    import random  # noqa: PLC0415

    from rulec.lsp import FramingGuard  # noqa: PLC0415

    pieces = [*(m[:20_000] for m in MALFORMED.values()), b"content-length:" * 1000,
              b"Content-Length: 12\r\nContent-Length: 7\r\n\r\n",
              b"\r\n\r\n\r\n", b"Content-Length: 3\r\n\r\n}}}", b"\xff\xfe\x00" * 50]
    rng = random.Random(17)
    for round_ in range(300):
        stream, sent = b"", []
        for k in range(rng.randint(1, 6)):
            junk = rng.choice(pieces)
            if rng.random() < 0.3:
                junk = junk[:rng.randint(0, len(junk))]
            body = encode({"jsonrpc": "2.0", "id": k, "method": "m", "params": {"t": "Content-Length: 5 " * k}})
            stream += junk + frame(body)
            sent.append(body)

        chunk = rng.choice([1, 7, 4096, 65536])
        guard = FramingGuard(Chunked(stream, chunk))  # type: ignore[arg-type]
        got = []
        while (body := guard.next_message()) is not None:
            got.append(body)
        assert [g for g in got if g in sent] == sent, (round_, chunk)
