"""The language server, driven over its protocol: JSON-RPC on the stdio of `python -m rulec.lsp`."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import RULES

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

DAK = RULES / "dak" / "dak.rules"
MISTAKE = "override 4.5z F: not negatable"


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    before = text[:text.index(needle) + offset]
    return types.Position(line=before.count("\n"), character=len(before.rsplit("\n", 1)[-1]))


class Session:
    """A client with a server subprocess, and the diagnostics the server published."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("rulec-test", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.published = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = params.diagnostics
            self.published.set()

    async def __aenter__(self) -> Session:
        await self.client.start_io(sys.executable, "-m", "rulec.lsp")
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=self.root.as_uri()))
        self.client.initialized(types.InitializedParams())
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.published.clear()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="rulec", version=1, text=text)))
        await self.wait_for(uri)
        return uri

    async def change(self, uri: str, text: str, version: int) -> None:
        self.published.clear()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await self.wait_for(uri)

    async def wait_for(self, uri: str) -> None:
        async def until() -> None:
            while uri not in self.diagnostics:
                self.published.clear()
                await self.published.wait()
            await asyncio.sleep(0.2)  # the rest of the files' diagnostics

        await asyncio.wait_for(until(), 60)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    shutil.copytree(RULES, tmp_path / "rules")
    return tmp_path


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_diagnostics_hover_definition_completion_and_formatting(workspace: Path) -> None:
    dak = workspace / "rules" / "dak" / "dak.rules"
    good = dak.read_text(encoding="utf-8")
    bad = good.replace("override 4.5a F: not negatable", MISTAKE)
    assert bad != good

    async def scenario() -> None:
        async with Session(workspace) as s:
            uri = await s.open(dak, bad)
            # diagnostics: the mistake, where it is
            diags = s.diagnostics[uri]
            r105 = [d for d in diags if d.code == "R105"]
            assert r105, diags
            assert r105[0].range.start == position_of(bad, "4.5z")
            assert "4.5z" in r105[0].message and "did you mean" in r105[0].message

            # fixing it as you type clears it
            s.diagnostics.pop(uri)
            await s.change(uri, good, 2)
            assert [d for d in s.diagnostics[uri] if d.severity == types.DiagnosticSeverity.Error] == []

            # hover on a rule reference: number, title and text
            ch4 = workspace / "rules" / "ocs" / "ch4-general-concepts.rules"
            ch4_text = ch4.read_text(encoding="utf-8")
            ch4_uri = await s.open(ch4, ch4_text)
            at = position_of(ch4_text, "see 4.5b", 5)
            hover = await s.client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=ch4_uri), position=at))
            assert hover is not None
            value = hover.contents.value  # type: ignore[union-attr]
            assert "4.5b" in value and "Negating ZOC" in value
            assert "An enemy ZOC in a hex is negated if that hex contains a friendly combat unit" in value

            # definition of a rule reference: where rule 4.5b is declared
            found = await s.client.text_document_definition_async(types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=ch4_uri), position=at))
            assert isinstance(found, list) and len(found) == 1
            assert found[0].uri == ch4_uri
            assert found[0].range.start == position_of(ch4_text, 'rule 4.5b "Negating ZOC"')

            # definition of a name: the call attack_capable(u) goes to its table in 4.4
            call = position_of(ch4_text, "attack_capable(u)", 3)
            found = await s.client.text_document_definition_async(types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=ch4_uri), position=call))
            assert isinstance(found, list) and found
            assert found[0].range.start == position_of(ch4_text, "table attack_capable(u: Unit)")

            # hover on a name: its declaration
            hover = await s.client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=ch4_uri), position=call))
            assert hover is not None and "table attack_capable(u: Unit) -> bool" in hover.contents.value  # type: ignore[union-attr]

            # completion: rule numbers after `see`, names elsewhere
            text2 = good + "\nrule 1.3 {\n  see 4.\n  define x(u: Unit) -> bool = attack\n}\n"
            await s.change(uri, text2, 3)
            comp = await s.client.text_document_completion_async(types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), position=position_of(text2, "see 4.", 6)))
            labels = {i.label for i in (comp.items if isinstance(comp, types.CompletionList) else comp or [])}
            assert {"4.5a", "4.5b", "4.8"} <= labels
            comp = await s.client.text_document_completion_async(types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=position_of(text2, "= attack", 8)))
            labels = {i.label for i in (comp.items if isinstance(comp, types.CompletionList) else comp or [])}
            assert {"attack_capable", "ezoc_allows", "Unit", "combat"} <= labels

            # formatting: the edits of rulec fmt
            messy = 'series  X "X"\nrule 1.1 "A" { text "t" }\n'
            other = workspace / "rules" / "x" / "x.rules"
            other.parent.mkdir()
            other.write_text(messy, encoding="utf-8")
            x_uri = await s.open(other, messy)
            edits = await s.client.text_document_formatting_async(types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=x_uri),
                options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
            assert edits and len(edits) == 1
            assert edits[0].new_text == 'series X "X"\nrule 1.1 "A" {\n  text "t"\n}\n'
            assert edits[0].range.start == types.Position(line=0, character=0)

    run(scenario())


def test_a_syntax_error_is_published_at_its_place(workspace: Path) -> None:
    path = workspace / "rules" / "dak" / "dak.rules"
    text = path.read_text(encoding="utf-8") + '\nrule 9.9 "Broken" {\n  text "never closed\n}\n'

    async def scenario() -> None:
        async with Session(workspace) as s:
            uri = await s.open(path, text)
            errors = [d for d in s.diagnostics[uri] if d.severity == types.DiagnosticSeverity.Error]
            assert errors and errors[0].code in ("R001", "R002", "R003")
            assert errors[0].range.start.line == position_of(text, '"never closed').line

    run(scenario())


def test_a_document_that_is_not_a_file_yet_is_compiled_alone(workspace: Path) -> None:
    async def scenario() -> None:
        async with Session(workspace) as s:
            uri = "untitled:Untitled-1"
            s.published.clear()
            s.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
                uri=uri, language_id="rulec", version=1, text='series X "X"\nrule 1.1 {\n  see 9.9\n}\n')))
            await s.wait_for(uri)
            assert [d.code for d in s.diagnostics[uri]] == ["R102"]

    run(scenario())


def test_hover_shows_rules_text_as_written_not_as_markdown() -> None:
    """A title or text holding Markdown, a command link or backticks is shown as typed in the hover."""
    from rulec.parser import parse  # noqa: PLC0415
    from rulec.symbols import build_index, hover_text  # noqa: PLC0415

    source = ('series S "A [x](command:workbench.action.terminal.new) series"\n\n'
              'rule 1.1 "**Bold** <b>tag</b> {{% gist x %}}" {\n'
              '  text "First [y](javascript:alert(1)) paragraph.\\n\\n# Second\\n\\n```"\n'
              '  define f(x: int) -> text = "```"\n'
              '}\n\n'
              'rule 1.2 "Uses" {\n  see 1.1\n  define g(x: int) -> text = f(x)\n}\n')
    tree, errors = parse(source, "s.rules")
    assert tree is not None and not errors
    index = build_index([tree], {"s.rules": source})
    rule = hover_text(index, source, source.splitlines().index("  see 1.1"), 7)
    assert rule is not None
    for raw in ("**Bold**", "<b>", "{{%", "[y](", "\n# Second", "```"):
        assert raw not in rule, (raw, rule)
    assert "\\*\\*Bold\\*\\*" in rule and "\\# Second" in rule
    name = hover_text(index, source, source.splitlines().index("  define g(x: int) -> text = f(x)"), 30)
    assert name is not None and name.startswith("````rulec\n") and "\n````\n" in name


def test_a_document_outside_a_rules_folder_compiles_with_its_own_folder_only(tmp_path: Path) -> None:
    """A rules folder's whole tree is compiled together; a document elsewhere (at worst /x.rules)
    takes only the files beside it, never the folders under it."""
    from rulec.lsp import folder_files, rules_root  # noqa: PLC0415

    for f in ("rules/s.rules", "rules/game/g.rules", "loose/a.rules", "loose/deep/b.rules"):
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text('series S "s"\n', encoding="utf-8")
    rules = rules_root(tmp_path / "rules/game/g.rules")
    assert rules == (tmp_path / "rules").resolve()
    assert [f.name for f in folder_files(rules)] == ["g.rules", "s.rules"]
    loose = rules_root(tmp_path / "loose/a.rules")
    assert loose == (tmp_path / "loose").resolve()
    assert [f.name for f in folder_files(loose)] == ["a.rules"]
