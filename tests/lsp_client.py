"""A client for the language server that speaks raw bytes: the real server, `python -m rulec.lsp`,
as a subprocess, so a test or the fuzzer (tests/fuzz_faults.py) can send it malformed framing and
see what it answers."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


class NoAnswer(AssertionError):
    """A request the server did not answer in time."""


TEXT = 'series X "X"\n\nrule 1.1 "First" {\n  text "The first rule."\n}\n\nrule 1.2 "Second" {\n  see 1.1\n}\n'
SEE = (7, 7)  # the position of `1.1` in `see 1.1`
ANSWER_SECONDS = 20  # generous: this machine is shared


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(msg: dict[str, Any]) -> bytes:
    return json.dumps(msg).encode()


class Server:
    """The server as a subprocess, spoken to in bytes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.proc = subprocess.Popen([sys.executable, "-m", "rulec.lsp"], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.next_id = 100
        self.messages: list[dict[str, Any]] = []  # everything the server sent
        self.uri = (folder / "rules" / "x.rules").as_uri()

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg: dict[str, Any]) -> None:
        self.send_bytes(frame(encode(msg)))

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_message(self, method: str, params: dict[str, Any]) -> tuple[int, bytes]:
        self.next_id += 1
        return self.next_id, frame(encode({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                           "params": params}))

    def request(self, method: str, params: dict[str, Any], timeout: float = ANSWER_SECONDS) -> dict[str, Any]:
        msg_id, data = self.request_message(method, params)
        self.send_bytes(data)
        return self.answer(msg_id, timeout)

    def _read(self, deadline: float) -> dict[str, Any] | None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end >= 0:
                headers = dict(line.split(b":", 1) for line in self.buf[:end].split(b"\r\n"))
                length = int(headers[b"Content-Length"])
                if len(self.buf) >= end + 4 + length:
                    body, self.buf = self.buf[end + 4:end + 4 + length], self.buf[end + 4 + length:]
                    msg: dict[str, Any] = json.loads(body)
                    self.messages.append(msg)
                    return msg
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buf += chunk

    def answer(self, msg_id: int, timeout: float = ANSWER_SECONDS) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while (msg := self._read(deadline)) is not None:
            if msg.get("id") == msg_id and "method" not in msg:
                return msg
        raise NoAnswer(f"request {msg_id} not answered within {timeout} s (server alive: {self.alive()})")

    def published(self, timeout: float) -> list[dict[str, Any]]:
        """The diagnostics published within the time."""
        deadline = time.monotonic() + timeout
        while self._read(deadline) is not None:
            pass
        return [m for m in self.messages if m.get("method") == "textDocument/publishDiagnostics"]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def initialize(self) -> None:
        answer = self.request("initialize", {"processId": None, "capabilities": {},
                                             "rootUri": self.folder.as_uri()})
        assert "result" in answer and "capabilities" in answer["result"]
        self.notify("initialized", {})

    def open(self, text: str = TEXT, uri: str | None = None, wait: bool = True) -> None:
        """Open a document and, unless told not to, wait for its diagnostics: it has been compiled."""
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri or self.uri, "languageId": "rulec", "version": 1, "text": text}})
        deadline = time.monotonic() + ANSWER_SECONDS
        while wait and not any(m.get("method") == "textDocument/publishDiagnostics"
                               and m["params"]["uri"] == (uri or self.uri) for m in self.messages):
            if self._read(deadline) is None:
                raise NoAnswer("no diagnostics published for an open document")

    def hover(self, line: int, character: int, uri: str | None = None) -> tuple[int, bytes]:
        return self.request_message("textDocument/hover", {
            "textDocument": {"uri": uri or self.uri}, "position": {"line": line, "character": character}})

    def close(self) -> None:
        if self.alive():
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
