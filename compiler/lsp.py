"""The rules language server (`rulec lsp`, over stdio): diagnostics as you type, hover on rule
references and names, go to definition, completion of rule numbers and names, and formatting.

Needs pygls (`pip install 'rulec[lsp]'`). Every open document is compiled together with the
other .rules files of its rules folder (the nearest enclosing folder named `rules`, else the
document's own folder), so mistakes that span files (an override of a rule that does not
exist) are found while typing.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from . import ast
from .build import compile_sources, find_sources
from .diagnostics import Diagnostic, Span
from .fmt import FormatError, format_text
from .parser import parse
from .symbols import Index, build_index, completions, definitions, hover_text

DEBOUNCE_SECONDS = 0.3

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
    """The folder a document is compiled with: the nearest enclosing `rules` folder."""
    for parent in path.resolve().parents:
        if parent.name == "rules":
            return parent
    return path.resolve().parent


class RulesServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulec", "0.1.0")
        self.index = Index()
        self.paths: dict[str, Path] = {}  # display name (as in diagnostics) -> file
        self.published: set[str] = set()
        self.parsed: dict[str, tuple[str, ast.File]] = {}  # name -> (text, last tree that parsed)
        self.uris: dict[str, str] = {}  # documents that are not files: name -> uri
        self.versions: dict[str, int] = {}  # the latest change of each document

    def open_texts(self, root: Path) -> dict[Path, str]:
        out = {}
        for uri, doc in self.workspace.text_documents.items():
            path = uri_to_path(uri).resolve()
            if path.suffix == ".rules" and path.is_relative_to(root):
                out[path] = doc.source
        return out

    def refresh(self, uri: str) -> None:
        """Compile the document's rules folder (open documents as they are in the editor) and
        publish every file's diagnostics. A document that is not a file yet is compiled alone."""
        names: dict[Path, str] = {}
        read_errors: list[Diagnostic]
        if not uri.startswith("file:"):
            path = Path(uri_to_path(uri).name or "untitled.rules")
            sources, read_errors = {path.name: self.workspace.get_text_document(uri).source}, []
            names[path] = path.name
            self.uris[path.name] = uri
        else:
            root = rules_root(uri_to_path(uri))
            sources, read_errors = find_sources([root]) if root.is_dir() else ({}, [])
            for f in sorted(root.rglob("*.rules")) if root.is_dir() else []:
                names[f.resolve()] = f"{root.name}/{f.relative_to(root).as_posix()}"
            for path, text in self.open_texts(root).items():
                name = names.get(path) or f"{root.name}/{path.relative_to(root).as_posix()}"
                names[path] = name
                sources[name] = text
        self.paths.update({name: path for path, name in names.items()})
        result = compile_sources(sources)
        diags = sorted(set(result.diagnostics + read_errors))
        files = []
        for name, text in sources.items():
            cached = self.parsed.get(name)
            if cached is None or cached[0] != text:
                tree, _ = parse(text, name)
                if tree is not None:
                    self.parsed[name] = (text, tree)
            if name in self.parsed:
                files.append(self.parsed[name][1])
        self.index = build_index(files, {n: t for n, (t, _) in self.parsed.items()})
        by_file: dict[str, list[types.Diagnostic]] = {name: [] for name in sources}
        for d in diags:
            by_file.setdefault(d.span.file, []).append(to_lsp(d))
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
        return None if target is None else types.Location(uri=target, range=to_range(span))


def to_range(span: Span) -> types.Range:
    start = types.Position(line=max(0, span.line - 1), character=max(0, span.col - 1))
    end = types.Position(line=max(0, span.end_line - 1), character=max(0, span.end_col - 1))
    if (end.line, end.character) <= (start.line, start.character):
        end = types.Position(line=start.line, character=start.character + 1)
    return types.Range(start=start, end=end)


def to_lsp(d: Diagnostic) -> types.Diagnostic:
    severity = types.DiagnosticSeverity.Error if d.severity == "error" else types.DiagnosticSeverity.Warning
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return types.Diagnostic(range=to_range(d.span), message=message, severity=severity, code=d.code,
                            source="rulec")


server = RulesServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
    """Compile once typing pauses: a burst of changes compiles only the last."""
    uri, version = params.text_document.uri, params.text_document.version
    ls.versions[uri] = version
    await asyncio.sleep(DEBOUNCE_SECONDS)
    if ls.versions.get(uri) == version:
        ls.refresh(uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    text = hover_text(ls.index, doc.source, params.position.line, params.position.character)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulesServer, params: types.DefinitionParams) -> list[types.Location]:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    spans = definitions(ls.index, doc.source, params.position.line, params.position.character)
    return [loc for loc in (ls.location(s) for s in spans) if loc is not None]


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ","]))
def completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    items = [types.CompletionItem(label=c.label, kind=_KINDS.get(c.kind), detail=c.detail or None)
             for c in completions(ls.index, doc.source, params.position.line, params.position.character)]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: RulesServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    try:
        new = format_text(doc.source, uri_to_path(doc.uri).name)
    except FormatError:
        return None  # the diagnostics already say why
    if new == doc.source:
        return []
    lines = doc.source.split("\n")
    end = types.Position(line=len(lines) - 1, character=len(lines[-1]))
    return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=new)]


def main(argv: Any = None) -> int:
    """Serve the language over standard input and output."""
    server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())
