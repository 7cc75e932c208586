"""The rules language server (`rulec lsp`, over stdio): diagnostics as you type, hover on rule
references and names, go to definition, completion of rule numbers and names, and formatting.

Needs pygls (`pip install 'rulec[lsp]'`). Every open document is compiled together with the
other .rules files of its rules folder (the nearest enclosing folder named `rules`, else the
document's own folder), so mistakes that span files (an override of a rule that does not
exist) are found while typing.

Whatever arrives on standard input, the server stays up and answers every request it can read
(SECURITY.md, "The language server stays up"): `FramingGuard` reads the message framing in front
of pygls (a Content-Length above `MAX_MESSAGE_BYTES` is never allocated; a missing, garbled or
lying header is skipped up to the next `Content-Length:`), `RulesProtocol` answers a request
whose parameters do not fit (a negative position) with the empty answer, every feature answers
empty for a document that is not open or a position outside it, and compiling runs beside the
requests, in a thread, debounced, and never twice for the same text.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.workspace import TextDocument

from . import __version__, ast, project
from .build import compile_sources, source_name
from .cache import Work
from .diagnostics import Diagnostic, Span
from .fmt import FormatError, format_text
from .limits import MAX_FILE_BYTES
from .sources import read_rules_file
from .symbols import Index, build_index, completions, definitions, hover_text

DEBOUNCE_SECONDS = 0.3
# A document this long (characters) compiles only once typing has paused this long.
LARGE_DOCUMENT_CHARS = 200_000
LARGE_DEBOUNCE_SECONDS = 2.0
# The largest message read: a rules file at its limit with every byte written as a JSON escape
# (`\u0001` is 6 bytes), and the message around it. A larger Content-Length is never allocated.
MAX_MESSAGE_BYTES = 6 * MAX_FILE_BYTES + 65_536
MAX_HEADER_BYTES = 8_192  # the header lines of one message

log = logging.getLogger(__name__)

_KINDS = {
    "rule": types.CompletionItemKind.Reference, "define": types.CompletionItemKind.Function,
    "table": types.CompletionItemKind.Function, "limits": types.CompletionItemKind.Function,
    "invariant": types.CompletionItemKind.Function, "const": types.CompletionItemKind.Constant,
    "enum": types.CompletionItemKind.Enum, "value": types.CompletionItemKind.EnumMember,
    "record": types.CompletionItemKind.Struct, "field": types.CompletionItemKind.Field,
    "layer": types.CompletionItemKind.Module, "ruleset": types.CompletionItemKind.Module,
    "keyword": types.CompletionItemKind.Keyword,
}


def uri_to_path(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def rules_root(path: Path) -> Path:
    """The folder a document is compiled with: the nearest enclosing `rules` folder, else its own."""
    for parent in path.resolve().parents:
        if parent.name == "rules":
            return parent
    return path.resolve().parent


def folder_files(root: Path, tree: bool = False) -> list[Path]:
    """The .rules files compiled with a document of root: a `rules` folder's whole tree (or any folder a
    project names), another folder's own files only (a document at /x.rules must not walk the whole disk)."""
    if not root.is_dir():
        return []
    return sorted(root.rglob("*.rules") if tree or root.name == "rules" else root.glob("*.rules"))


Roots = tuple[tuple[Path, str | None], ...]  # the folders compiled together, each with its label (or None)


def roots_of(path: Path) -> tuple[Roots, bool]:
    """The folders a document is compiled with, and whether they come from a project: the rules folders
    and installed series of the nearest rulec.toml whose folders hold the document, else its rules root."""
    here = path.resolve()
    p = project.load(here.parent)
    if p.file is not None:
        roots = tuple((r.path.resolve(), r.label) for r in p.roots)
        if any(here.is_relative_to(folder) for folder, _ in roots):
            return roots, True
    return ((rules_root(path), None),), False


_LENGTH = re.compile(rb"content-length[ \t]*:", re.I)  # where a message may begin
# A header line ending a message that lied about its length: this cannot occur in a JSON body (the
# name could only be inside a string, which cannot hold a raw line break).
_NEXT_MESSAGE = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r?\n", re.I)
_FIRST_LINE = re.compile(rb"content-length[ \t]*:[ \t]*([0-9]{1,12})[ \t]*", re.I)
_FIELD = re.compile(rb"[!-9;-~]+[ \t]*:[^\r\n]*")  # name: value
_LINE_END = re.compile(rb"\r?\n")


class FramingGuard:
    """Standard input as pygls reads it (`readline`, `read`), made of well-framed messages only.

    It reads the stream itself: a message is a `Content-Length: N` line (in any case), header lines,
    a blank line and N bytes. A length above MAX_MESSAGE_BYTES, a header that is not a number, header
    lines longer than MAX_HEADER_BYTES or that are not headers, or a body in which the next message's
    header appears (the length lied) are skipped, with what follows, up to the next
    `Content-Length:`; nothing is held beyond MAX_MESSAGE_BYTES and a little. pygls is handed each
    good body behind a header it cannot misread."""

    CHUNK = 65_536

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.buf = bytearray()
        self.eof = False
        self.body: bytes | None = None
        self.skipped = 0  # bytes dropped as not part of any message, since the last message
        self.why = ""  # why the first of them was

    def readline(self) -> bytes:
        if self.body is None:
            body = self.next_message()
            if body is None:
                return b""
            self.body = body
            return b"Content-Length: %d\r\n" % len(body)
        return b"\r\n"

    def read(self, n: int) -> bytes:
        body, self.body = self.body or b"", None
        return body

    def _fill(self) -> bool:
        if self.eof:
            return False
        read1 = getattr(self.stream, "read1", None)
        chunk = read1(self.CHUNK) if read1 is not None else self.stream.read(1)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def _skip(self, n: int, why: str) -> None:
        if n > 0:
            self.skipped += n
            self.why = self.why or why
            del self.buf[:n]

    def _more(self) -> bool:
        """Read until a line ends (a header may be complete) or the header bound is passed."""
        while True:
            before = len(self.buf)
            if not self._fill():
                return False
            if b"\n" in self.buf[before:] or len(self.buf) > MAX_HEADER_BYTES:
                return True

    def next_message(self) -> bytes | None:
        """The next well-framed body, or None at the end of input."""
        while True:
            m = _LENGTH.search(self.buf)
            if m is None:
                keep = 64  # a header's beginning, split across reads
                self._skip(len(self.buf) - keep, "not a message")
                if not self._fill():
                    return None
                continue
            self._skip(m.start(), "not a message")
            head = self._header()
            if head is None:
                if not self._more():
                    return None
                continue
            length, start = head
            if length < 0:  # malformed: look for the next header after this one's beginning
                self._skip(1, "a malformed header")
                continue
            if length == 0 or length > MAX_MESSAGE_BYTES:
                self._skip(start, f"a message of {length} bytes (at most {MAX_MESSAGE_BYTES:,} are read)")
                continue
            body = self._body(start, length)
            if body is None:
                return None
            if isinstance(body, int):  # the length lied: the next message begins inside
                self._skip(body, "a message shorter than its Content-Length")
                continue
            if self.skipped:
                log.warning("skipped %d bytes of input before this message (first: %s)", self.skipped, self.why)
                self.skipped, self.why = 0, ""
            return body

    def _header(self) -> tuple[int, int] | None:
        """At a `Content-Length:`: (length, where the body starts), (-1, 0) if malformed, None if
        more input is needed."""
        lines: list[bytes] = []
        pos = 0
        while True:
            end = _LINE_END.search(self.buf, pos, MAX_HEADER_BYTES + 2)
            if end is None:
                if len(self.buf) > MAX_HEADER_BYTES:
                    return -1, 0
                rest = bytes(self.buf[pos:MAX_HEADER_BYTES])
                if _LENGTH.search(rest, 1 if pos == 0 else 0):
                    return -1, 0  # another message begins: this one's header is cut short
                return None
            line = bytes(self.buf[pos:end.start()])
            if end.end() > MAX_HEADER_BYTES:
                return -1, 0
            if not line:
                break
            if not lines:
                if _FIRST_LINE.fullmatch(line) is None:
                    return -1, 0
            elif _FIELD.fullmatch(line) is None or _LENGTH.search(line):
                return -1, 0
            lines.append(line)
            pos = end.end()
        if not lines:
            return -1, 0
        first = _FIRST_LINE.fullmatch(lines[0])
        assert first is not None
        return int(first.group(1)), end.end()

    def _body(self, start: int, length: int) -> bytes | int | None:
        """The body; or how much to skip, if the next message begins inside or the body cannot be
        JSON; None at the end of input."""
        scanned = start
        while True:
            found = _NEXT_MESSAGE.search(self.buf, scanned, start + length)
            if found is not None:
                return found.start()
            if len(self.buf) >= start + length:
                body = bytes(self.buf[start:start + length])
                if not body.rstrip().endswith((b"}", b"]")):
                    return 1  # not JSON: look again from just after this header's beginning, past
                    # the body, for a next header the length cut in two
                del self.buf[:start + length]
                return body
            scanned = max(start, len(self.buf) - 64)
            if not self._fill():
                return None


class _Unreadable:
    """A request whose parameters do not fit its method (a negative position, a missing field)."""

    def __init__(self, msg_id: int | str, method: str) -> None:
        self.id = msg_id
        self.method = method


# What a request whose parameters do not fit is answered: nothing found.
_EMPTY_ANSWERS: dict[str, Any] = {
    types.TEXT_DOCUMENT_HOVER: None, types.TEXT_DOCUMENT_DEFINITION: [],
    types.TEXT_DOCUMENT_COMPLETION: [], types.TEXT_DOCUMENT_FORMATTING: [],
}


def _request_id(data: Any) -> int | str | None:
    if isinstance(data, dict) and "method" in data:
        msg_id = data.get("id")
        if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
            return msg_id
    return None


class RulesProtocol(LanguageServerProtocol):
    """pygls's protocol, answering every request it can read: one whose parameters do not fit gets
    the empty answer of its method (or an invalid-params error), one that is not a JSON-RPC request
    an invalid-request error; never a traceback."""

    def structure_message(self, data: Any) -> Any:
        try:
            return super().structure_message(data)
        except Exception:
            msg_id = _request_id(data)
            if msg_id is None:
                raise
            return _Unreadable(msg_id, str(data["method"]))

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Unreadable):
            if message.method in _EMPTY_ANSWERS:
                self._send_response(message.id, result=_EMPTY_ANSWERS[message.method])
            else:
                self._send_response(message.id, None, JsonRpcInvalidParams().to_response_error())
            return
        if not hasattr(message, "jsonrpc"):  # JSON, but not a JSON-RPC message
            msg_id = _request_id(message)
            log.warning("not a JSON-RPC message")
            if msg_id is not None:
                self._send_response(msg_id, None, JsonRpcInvalidRequest().to_response_error())
            return
        super().handle_message(message)


class RulesServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulec", __version__, protocol_cls=RulesProtocol)
        self.index = Index()
        self.paths: dict[str, Path] = {}  # display name (as in diagnostics) -> file
        self.published: set[str] = set()
        self.parsed: dict[str, tuple[str, ast.File]] = {}  # name -> (text, last tree that parsed)
        self.uris: dict[str, str] = {}  # documents that are not files: name -> uri
        self.versions: dict[str, int] = {}  # the latest change of each document
        self.work = Work(None)  # each file's parse and each table's analysis, kept between compiles
        self.compiled: dict[str, str] = {}  # what each folder (or lone document) was last compiled from
        self.waiting: dict[str, None] = {}  # documents to compile, in order
        self.compiling: asyncio.Task[None] | None = None
        self.compiles = 0
        self.texts: dict[str, str] = {}  # display name -> the text last compiled, to count a span's columns

    @property
    def encoding(self) -> str:
        """The position encoding agreed at initialize: the client's first choice of utf-8, utf-16 and utf-32
        (pygls negotiates it and announces it), else utf-16, the protocol's default."""
        try:
            return str(self.workspace.position_encoding or UTF16)
        except RuntimeError:  # not initialized yet
            return UTF16

    def document(self, uri: str) -> TextDocument | None:
        """An open document, or None: a request about any other gets the empty answer."""
        doc: TextDocument | None = self.workspace.text_documents.get(unquote(uri))
        return doc

    def open_texts(self, roots: Roots, tree: bool = False) -> dict[Path, str]:
        out = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = uri_to_path(uri).resolve()
            if path.suffix == ".rules" and any(
                    path.is_relative_to(root) if tree or root.name == "rules" else path.parent == root
                    for root, _ in roots):
                out[path] = doc.source
        return out

    def request_compile(self, uri: str) -> None:
        """Compile the document's folder beside the requests (one compile at a time; a document
        asked for while one runs is compiled after it, once)."""
        self.waiting[uri] = None
        if self.compiling is None or self.compiling.done():
            self.compiling = asyncio.ensure_future(self._compile_waiting())

    async def _compile_waiting(self) -> None:
        while self.waiting:
            uri = next(iter(self.waiting))
            del self.waiting[uri]
            try:
                await self.refresh_async(uri)
            except Exception:
                log.exception("compiling %s failed", uri)

    async def refresh_async(self, uri: str) -> None:
        """Compile the document's rules folder (open documents as they are in the editor) and
        publish every file's diagnostics; a document that is not a file yet is compiled alone. The
        compile runs in a thread of its own, so that requests are answered meanwhile."""
        snapshot = self.snapshot(uri)
        if snapshot is None:
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()

        def deliver(ok: bool, value: Any) -> None:
            if not done.done():
                (done.set_result if ok else done.set_exception)(value)

        def work() -> None:
            try:
                outcome: tuple[bool, Any] = (True, self.compile(*snapshot))
            except BaseException as e:  # noqa: BLE001 (handed to the loop)
                outcome = (False, e)
            try:
                loop.call_soon_threadsafe(deliver, *outcome)
            except RuntimeError:  # the loop is closed: the server is stopping
                pass

        threading.Thread(target=work, name="rulec-compile", daemon=True).start()
        result = await done
        if result is not None:
            self.publish(*result)

    def snapshot(self, uri: str) -> tuple[str, Roots | None, bool, dict[Path, str]] | None:
        """What a compile of the document reads from the editor, taken on the server's own thread."""
        if not uri.startswith("file:"):
            doc = self.document(uri)
            if doc is None:
                return None
            return uri, None, False, {Path(uri_to_path(uri).name or "untitled.rules"): doc.source}
        roots, tree = roots_of(uri_to_path(uri))
        return uri, roots, tree, self.open_texts(roots, tree)

    def compile(self, uri: str, roots: Roots | None, tree: bool, open_texts: dict[Path, str]
                ) -> tuple[dict[str, Path], dict[str, str], dict[str, list[types.Diagnostic]], Index] | None:
        """Compile, off the server's thread; None if nothing changed since the last compile."""
        names: dict[Path, str] = {}
        read_errors: list[Diagnostic]
        if roots is None:
            [(path, text)] = open_texts.items()
            sources, read_errors = {path.name: text}, []
            names[path] = path.name
            key = uri
        else:
            sources, read_errors = {}, []
            for root, label in roots:
                for f in folder_files(root, tree):
                    name = source_name(root, f, label)
                    read = read_rules_file(f, root.resolve())  # never a pipe, a device or a link out
                    if isinstance(read, str):
                        sources[name] = read
                    else:
                        read_errors.append(Diagnostic(Span(name, 1, 1, 1, 1), read[0],
                                                      f"cannot read {name}: {read[1]}"))
                    names[f.resolve()] = name
            for path, text in open_texts.items():
                root, label = next((r, lb) for r, lb in roots if path.is_relative_to(r))
                name = names.get(path) or f"{label or root.name}/{path.relative_to(root).as_posix()}"
                names[path] = name
                sources[name] = text
            key = repr(roots)
        digest = hashlib.blake2b(repr(sorted(sources.items())).encode("utf-8", "surrogatepass")
                                 + repr(sorted(read_errors)).encode("utf-8", "surrogatepass")).hexdigest()
        if self.compiled.get(key) == digest:
            return None  # the same texts: the same diagnostics, already published
        self.compiles += 1
        result = compile_sources(sources, work=self.work)
        diags = sorted(set(result.diagnostics + read_errors))
        files = []
        for name, text in sources.items():
            cached = self.parsed.get(name)
            if cached is None or cached[0] != text:
                parsed, _ = self.work.parses.parse(text, name)
                if parsed is not None:
                    self.parsed[name] = (text, parsed)
            if name in self.parsed:
                files.append(self.parsed[name][1])
        self.work.finish()
        index = build_index(files, {n: t for n, (t, _) in self.parsed.items()})
        by_file: dict[str, list[types.Diagnostic]] = {name: [] for name in sources}
        encoding = self.encoding
        for d in diags:
            by_file.setdefault(d.span.file, []).append(to_lsp(d, sources.get(d.span.file), encoding))
        self.compiled[key] = digest
        uris = {path.name: uri} if roots is None else {}
        self.texts.update(sources)
        return {name: path for path, name in names.items()}, uris, by_file, index

    def publish(self, paths: dict[str, Path], uris: dict[str, str],
                by_file: dict[str, list[types.Diagnostic]], index: Index) -> None:
        self.paths.update(paths)
        self.uris.update(uris)
        self.index = index
        for name in set(by_file) | self.published:
            target = self.uri_of(name)
            if target is not None:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=target, diagnostics=by_file.get(name, [])))
        self.published = {n for n, ds in by_file.items() if ds}

    def uri_of(self, name: str) -> str | None:
        if name in self.uris:
            return self.uris[name]
        path = self.paths.get(name)
        return None if path is None else path.as_uri()

    def location(self, span: Span) -> types.Location | None:
        target = self.uri_of(span.file)
        if target is None:
            return None
        return types.Location(uri=target, range=to_range(span, self.texts.get(span.file), self.encoding))


# ---- columns -------------------------------------------------------------------------------------
# rulec counts columns in characters (code points); the protocol counts them in the code units of the
# encoding agreed at initialize, UTF-16 unless the client offers another. After a 🎲 (one character,
# two UTF-16 units, four UTF-8 bytes) the two counts differ: every position is converted on its way out
# and on its way in, against the text of its line.

UTF16 = str(types.PositionEncodingKind.Utf16)


def units(text: str, encoding: str) -> int:
    """The length of text in the encoding's code units."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_client(line: str, character: int, encoding: str) -> int:
    """A 0-based column in characters -> in the client's code units."""
    return units(line[:character], encoding) + max(0, character - len(line))


def from_client(line: str, unit: int, encoding: str) -> int:
    """A 0-based column in the client's code units -> in characters (inside a character: that character)."""
    count = 0
    for i, c in enumerate(line):
        width = units(c, encoding)
        if count + width > unit:
            return i
        count += width
    return len(line) + max(0, unit - count)


def _line(lines: list[str] | None, i: int) -> str:
    return lines[i].removesuffix("\r") if lines is not None and 0 <= i < len(lines) else ""


def to_range(span: Span, text: str | None = None, encoding: str = UTF16) -> types.Range:
    """A span (1-based, in characters) as a protocol range in the encoding's units, against its file's text."""
    lines = text.split("\n") if text is not None else None
    sl, el = max(0, span.line - 1), max(0, span.end_line - 1)
    start = types.Position(line=sl, character=to_client(_line(lines, sl), max(0, span.col - 1), encoding))
    end = types.Position(line=el, character=to_client(_line(lines, el), max(0, span.end_col - 1), encoding))
    if (end.line, end.character) <= (start.line, start.character):
        width = units(_line(lines, sl)[span.col - 1:span.col], encoding) or 1
        end = types.Position(line=start.line, character=start.character + width)
    return types.Range(start=start, end=end)


def to_lsp(d: Diagnostic, text: str | None = None, encoding: str = UTF16) -> types.Diagnostic:
    severity = types.DiagnosticSeverity.Error if d.severity == "error" else types.DiagnosticSeverity.Warning
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return types.Diagnostic(range=to_range(d.span, text, encoding), message=message, severity=severity,
                            code=d.code, source="rulec")


def character_of(doc: TextDocument, position: types.Position, encoding: str) -> int:
    """The column, in characters, of a position the client sent."""
    return from_client(_line(doc.source.split("\n"), position.line), position.character, encoding)


server = RulesServer()

F = TypeVar("F", bound=Callable[..., Any])


def answers(empty: Callable[[], Any]) -> Callable[[F], F]:
    """A request's handler that answers `empty()` instead of failing: for a document that is not
    open, a position outside it, or whatever goes wrong (logged on standard error, never a traceback to the client)."""
    def wrap(handler: F) -> F:
        @functools.wraps(handler)
        def safe(ls: RulesServer, params: Any) -> Any:
            try:
                doc = ls.document(params.text_document.uri)
                position = getattr(params, "position", None)
                if doc is None or (position is not None and not inside(doc.source, position, ls.encoding)):
                    return empty()
                return handler(ls, params)
            except Exception:
                log.exception("%s failed", handler.__name__)
                return empty()
        return safe  # type: ignore[return-value]
    return wrap


def inside(text: str, position: types.Position, encoding: str = UTF16) -> bool:
    """Whether a position is in the text: on one of its lines, at most at the line's end (counted in
    the agreed encoding's code units, as positions are)."""
    if position.line > text.count("\n"):
        return False
    start = 0
    for _ in range(position.line):
        start = text.index("\n", start) + 1
    end = text.find("\n", start)
    line = text[start:end if end >= 0 else len(text)]
    return position.character <= units(line, encoding)


def debounce(ls: RulesServer, doc: TextDocument | None) -> float:
    return (LARGE_DEBOUNCE_SECONDS if doc is not None and len(doc.source) > LARGE_DOCUMENT_CHARS
            else DEBOUNCE_SECONDS)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.request_compile(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
    """Compile once typing pauses (longer for a long document): a burst of changes compiles only
    the last, and a change back to the text last compiled compiles nothing."""
    uri, version = params.text_document.uri, params.text_document.version
    ls.versions[uri] = version
    await asyncio.sleep(debounce(ls, ls.document(uri)))
    if ls.versions.get(uri) == version:
        ls.request_compile(uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.request_compile(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_HOVER)
@answers(lambda: None)
def hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    text = hover_text(ls.index, doc.source, params.position.line, character_of(doc, params.position, ls.encoding))
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@answers(list)
def definition(ls: RulesServer, params: types.DefinitionParams) -> list[types.Location]:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    spans = definitions(ls.index, doc.source, params.position.line, character_of(doc, params.position, ls.encoding))
    return [loc for loc in (ls.location(s) for s in spans) if loc is not None]


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ","]))
@answers(lambda: types.CompletionList(is_incomplete=False, items=[]))
def completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    items = [types.CompletionItem(label=c.label, kind=_KINDS.get(c.kind), detail=c.detail or None)
             for c in completions(ls.index, doc.source, params.position.line,
                                  character_of(doc, params.position, ls.encoding))]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@answers(list)
def formatting(ls: RulesServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    try:
        new = format_text(doc.source, uri_to_path(doc.uri).name)
    except FormatError:
        return None  # the diagnostics already say why
    if new == doc.source:
        return []
    lines = doc.source.split("\n")
    end = types.Position(line=len(lines) - 1, character=units(lines[-1], ls.encoding))
    return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=new)]


def main(argv: Any = None) -> int:
    """Serve the language over standard input and output, behind the framing guard."""
    server.start_io(stdin=FramingGuard(sys.stdin.buffer))  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
