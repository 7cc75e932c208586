"""The VS Code extension as CI packages it (editors/vscode/package.sh, run by .ci/run): the .vsix holds the
manifest, the client, the grammar, the license and the language client library, and nothing of the
development tree; its extension.js, run in node against a stand-in `vscode` module, starts `rulec lsp`
with the command of the setting `rulec.path`, and says how to install rulec when that command is missing;
and the TextMate grammar, run in vscode-textmate as VS Code runs it, scopes what tests/test_highlight.py's
small tokenizer says it scopes.

Without a built .vsix the test is skipped on a developer's machine, but fails in CI (CI=true or
RULEC_CI set), where the packaging step must have run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
VSIX = Path(os.environ.get("RULEC_VSIX") or EXTENSION / "rulec.vsix")


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false") or bool(os.environ.get("RULEC_CI"))


@pytest.fixture(scope="module")
def vsix() -> Iterator[zipfile.ZipFile]:
    if not VSIX.is_file():
        message = f"{VSIX} is not built (editors/vscode/package.sh builds it)"
        if under_ci():
            pytest.fail(message + "; CI must package the extension")
        pytest.skip(message)
    with zipfile.ZipFile(VSIX) as z:
        yield z


def test_the_vsix_holds_the_extension_and_its_client_library(vsix: zipfile.ZipFile) -> None:
    names = set(vsix.namelist())
    manifest = json.loads(vsix.read("extension/package.json"))
    assert manifest == json.loads((EXTENSION / "package.json").read_text(encoding="utf-8")), \
        "the .vsix is not the checkout's extension: run editors/vscode/package.sh"
    assert manifest["main"] in ("./extension.js", "extension.js") and "onLanguage:rulec" in manifest["activationEvents"]
    assert manifest["license"] == "MIT" and manifest["repository"]
    assert set(manifest["contributes"]["configuration"]["properties"]) >= {"rulec.path", "rulec.trace.server"}
    assert manifest["contributes"]["configuration"]["properties"]["rulec.path"]["default"] == "rulec"
    # a repository not trusted cannot name the command VS Code runs
    assert manifest["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"] == ["rulec.path"]
    for path in ("extension/extension.js", "extension/language-configuration.json",
                 "extension/syntaxes/rulec.tmLanguage.json", "extension.vsixmanifest"):
        assert path in names, path
    for path in ("extension.js", "language-configuration.json", "syntaxes/rulec.tmLanguage.json"):
        assert vsix.read("extension/" + path) == (EXTENSION / path).read_bytes(), \
            f"{path} in the .vsix is not the checkout's: run editors/vscode/package.sh"
    licenses = [n for n in names if n.lower() in ("extension/license", "extension/license.txt", "extension/license.md")]
    assert licenses and b"MIT License" in vsix.read(licenses[0])
    client = "extension/node_modules/vscode-languageclient/"
    pinned = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert json.loads(vsix.read(client + "package.json"))["version"] == pinned["vscode-languageclient"]
    for module in ("vscode-languageclient/node.js", "vscode-languageserver-protocol/package.json",
                   "vscode-jsonrpc/package.json"):
        assert any(n.endswith("node_modules/" + module) for n in names), module
    junk = [n for n in names if n.endswith((".map", ".ts", ".vsix", "package-lock.json", "package.sh"))
            or "/test/" in n or "/tests/" in n or "/.bin/" in n or "/.github/" in n
            or n.startswith(("extension/node_modules/@vscode/", "extension/node_modules/.bin"))]
    assert junk == []
    assert len(vsix.read(client + "package.json")) > 0 and VSIX.stat().st_size < 2_000_000


# extension.js run in node against a stand-in `vscode` module: the members it and the client library use
# record what is asked of them, and any other member is a harmless stand-in, enough for the real
# vscode-languageclient of the .vsix to load, build its client and, with "live", start the server and
# speak the protocol with it. Without "live", start() only records the server options.
HARNESS = r"""
const Module = require('module');
const path = require('path');
const [extensionDir, configJson] = process.argv.slice(1);
const config = JSON.parse(configJson);
const seen = { errors: [], clients: [], started: 0, commands: [], output: [] };
const disposable = { dispose() {} };
const event = () => disposable;
function standIn(name, own = {}) {
  return new Proxy(function () {}, {
    get: (target, key) => key in own ? own[key]
      : key === 'prototype' ? {} : key === 'then' || typeof key === 'symbol' ? undefined
      : standIn(name + '.' + key),
    construct: () => standIn(name + '()'),
    apply: () => standIn(name + '()'),
  });
}
const events = (names) => Object.fromEntries(names.split(' ').map((n) => [n, event]));
const vscode = standIn('vscode', {
  version: '1.90.0',
  workspace: standIn('workspace', {
    getConfiguration: (section) => ({ get: (key, fallback) => config[section + '.' + key] ?? fallback }),
    workspaceFolders: [{ index: 0, name: path.basename(config.folder),
                         uri: { fsPath: config.folder, toString: () => 'file://' + config.folder } }],
    textDocuments: [],
    notebookDocuments: [],
    createFileSystemWatcher: () => ({ onDidCreate: event, onDidChange: event, onDidDelete: event, dispose() {} }),
    ...events('onDidChangeConfiguration onDidOpenTextDocument onDidChangeTextDocument onDidCloseTextDocument ' +
              'onDidSaveTextDocument onWillSaveTextDocument onDidChangeWorkspaceFolders onDidCreateFiles ' +
              'onDidRenameFiles onDidDeleteFiles onWillCreateFiles onWillRenameFiles onWillDeleteFiles ' +
              'onDidOpenNotebookDocument onDidChangeNotebookDocument onDidCloseNotebookDocument ' +
              'onDidSaveNotebookDocument'),
  }),
  window: standIn('window', {
    createOutputChannel: () => standIn('output', {
      append: (s) => seen.output.push(s), appendLine: (s) => seen.output.push(s) }),
    showErrorMessage: (message) => { seen.errors.push(message); return Promise.resolve(undefined); },
    visibleTextEditors: [],
    activeTextEditor: undefined,
    tabGroups: standIn('tabGroups', { all: [], ...events('onDidChangeTabs onDidChangeTabGroups') }),
    ...events('onDidChangeVisibleTextEditors onDidChangeActiveTextEditor'),
  }),
  languages: standIn('languages', {
    createDiagnosticCollection: () => standIn('diagnostics'),
  }),
  commands: standIn('commands', {
    registerCommand: (name) => { seen.commands.push(name); return disposable; },
    executeCommand: () => Promise.resolve(),
  }),
  extensions: standIn('extensions', { all: [], onDidChange: event }),
  env: standIn('env', { appName: 'stand-in', language: 'en' }),
});
const load = Module._load;
Module._load = function (request) {
  return request === 'vscode' ? vscode : load.apply(this, arguments);
};
process.on('uncaughtException', (e) => seen.output.push('uncaught: ' + e.message));  // a server gone
const library = require(require.resolve('vscode-languageclient/node', { paths: [extensionDir] }));
const prototype = library.LanguageClient.prototype;
const start = prototype.start;
prototype.start = function () {
  seen.clients.push({ id: this._id, name: this._name, serverOptions: this._serverOptions,
                      documentSelector: this._clientOptions.documentSelector });
  seen.started += 1;
  return config.live ? start.call(this) : Promise.resolve();
};
if (!config.live) prototype.stop = () => Promise.resolve();
const extension = require(path.join(extensionDir, 'extension.js'));
extension.activate({ subscriptions: [] }).then(async (api) => {
  const client = api.client();
  if (config.live && client) {
    seen.running = client.isRunning();
    seen.serverInfo = client.initializeResult.serverInfo;
    seen.positionEncoding = client.initializeResult.capabilities.positionEncoding;
    await extension.deactivate();
  } else if (config.live) {  // a server that did not start: its last words reach the output after
    for (let i = 0; i < 100 && !seen.output.some((s) => s.includes('exited with code')); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  // exit once the JSON is written: to a pipe, a write is asynchronous, and process.exit() right
  // after it lost the output now and then on a busy machine (CI: an empty stdout, exit 0)
  process.stdout.write(JSON.stringify(seen), () => process.exit(0));
}, (e) => { console.error(e); process.exit(1); });
"""


@pytest.fixture(scope="module")
def unpacked(vsix: zipfile.ZipFile, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("node") is None:
        if under_ci():
            pytest.fail("node is not installed; CI packages the extension with it")
        pytest.skip("node is not installed")
    out = tmp_path_factory.mktemp("vsix")
    vsix.extractall(out)
    return out / "extension"


def activate(unpacked: Path, config: dict[str, Any], path: str) -> dict[str, Any]:
    env = {**os.environ, "PATH": path}
    done = subprocess.run(["node", "-e", HARNESS, str(unpacked), json.dumps(config)],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    seen: dict[str, Any] = json.loads(done.stdout)
    return seen


def fake_rulec(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    command = folder / "rulec"
    command.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    command.chmod(0o755)
    return command


def node_path() -> str:
    return str(Path(shutil.which("node") or "node").parent)


def test_activation_starts_rulec_lsp_with_the_configured_command(unpacked: Path, tmp_path: Path) -> None:
    command = fake_rulec(tmp_path / "venv" / "bin")
    seen = activate(unpacked, {"rulec.path": str(command), "folder": str(tmp_path)}, node_path())
    assert seen["errors"] == [] and seen["started"] == 1 and "rulec.restartServer" in seen["commands"]
    [client] = seen["clients"]
    assert client["id"] == "rulec" and client["documentSelector"] == [{"language": "rulec"}]
    assert client["serverOptions"] == {"command": str(command), "args": ["lsp"], "options": {"cwd": str(tmp_path)}}


def test_activation_finds_rulec_on_the_path_by_default(unpacked: Path, tmp_path: Path) -> None:
    fake_rulec(tmp_path / "bin")
    seen = activate(unpacked, {"folder": str(tmp_path)}, os.pathsep.join([node_path(), str(tmp_path / "bin")]))
    [client] = seen["clients"]
    assert client["serverOptions"]["command"] == "rulec" and client["serverOptions"]["args"] == ["lsp"]


def test_a_missing_command_says_how_to_install_rulec(unpacked: Path, tmp_path: Path) -> None:
    seen = activate(unpacked, {"rulec.path": str(tmp_path / "nowhere" / "rulec"), "folder": str(tmp_path)},
                    node_path())
    assert seen["clients"] == [] and seen["started"] == 0
    [message] = seen["errors"]
    assert "pip install 'rulec[lsp]'" in message and "rulec.path" in message and "nowhere" in message
    if (Path(node_path()) / "rulec").exists():
        return
    seen = activate(unpacked, {"folder": str(tmp_path)}, node_path())  # no rulec on the PATH
    assert seen["clients"] == [] and "pip install 'rulec[lsp]'" in seen["errors"][0]



def test_the_packaged_client_starts_the_real_language_server(unpacked: Path, tmp_path: Path) -> None:
    """The .vsix's extension.js and client library start this environment's `rulec lsp` and finish the
    initialize handshake with it (UTF-16 positions, the protocol's default, which VS Code speaks)."""
    pytest.importorskip("pygls")
    rulec = shutil.which("rulec") or str(Path(sys.executable).parent / "rulec")
    seen = activate(unpacked, {"rulec.path": rulec, "folder": str(tmp_path), "live": True}, node_path())
    assert seen["errors"] == [], seen["output"]
    assert seen["running"] is True and seen["serverInfo"]["name"] == "rulec"
    assert seen["positionEncoding"] == "utf-16"
    assert seen["clients"][0]["serverOptions"]["args"] == ["lsp"]


def test_a_rulec_without_its_lsp_extra_says_how_to_install_it(unpacked: Path, tmp_path: Path) -> None:
    """A rulec that cannot serve (installed without pygls: it says so and exits 2) started for real: the
    extension says to install the lsp extra, and what the command wrote is in the output channel."""
    command = tmp_path / "bin" / "rulec"
    command.parent.mkdir()
    command.write_text("#!/bin/sh\necho \"rulec: the language server needs pygls (No module named 'pygls'); "
                       "pip install 'rulec[lsp]'\" >&2\nexit 2\n", encoding="utf-8")
    command.chmod(0o755)
    seen = activate(unpacked, {"rulec.path": str(command), "folder": str(tmp_path), "live": True}, node_path())
    assert seen["started"] == 1 and "running" not in seen
    ours = [e for e in seen["errors"] if e.startswith("rulec: ")]
    assert len(ours) == 1 and "did not start" in ours[0] and "pip install 'rulec[lsp]'" in ours[0]
    assert any("needs pygls" in line for line in seen["output"])


# ---- the grammar as VS Code runs it ------------------------------------------------------------

CASES = '''game DAK "Deutsches Afrikakorps" extends OCS "4.3" version "II"
override 4.5a F: not negatable note game "x \\" # y"
override 4.5b: text "new"
rule 1.1 "T" {
  text "A clause's text \U0001f3b2\U0001f3b2 see 4.5a"
  note design "d"
  record R { name: text "doc"  tags: list of text }
  define f(x: text) -> text = x  # a comment
}
'''


def test_the_grammar_scopes_as_vscode_textmate_does(tmp_path: Path) -> None:
    """tests/test_highlight.py checks scopes with a small Python tokenizer; here the grammar runs in
    vscode-textmate with Oniguruma (the extension's dev dependencies, as in VS Code) over the shipped
    rules and the cases those tests name, and every character gets the scope the Python one gives."""
    from conftest import RULES
    from test_highlight import tm_scopes

    if not (EXTENSION / "node_modules" / "vscode-textmate").is_dir() or shutil.which("node") is None:
        if under_ci():
            pytest.fail("CI installs the extension's dev dependencies (editors/vscode/package.sh)")
        pytest.skip("the extension's dev dependencies are not installed (npm ci in editors/vscode)")
    (tmp_path / "cases.rules").write_text(CASES, encoding="utf-8")
    files = [tmp_path / "cases.rules", *sorted(RULES.rglob("*.rules"))]
    done = subprocess.run(["node", str(EXTENSION / "test" / "tokenize.js"), *map(str, files)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for path, tokens in zip(files, json.loads(done.stdout), strict=True):
        text = path.read_text(encoding="utf-8")
        scopes = tm_scopes(text)
        starts = [0]
        for line in text.split("\n"):
            starts.append(starts[-1] + len(line) + 1)
        wrong = []
        for line, start, end, stack in tokens:
            inner = stack[-1] if len(stack) > 1 else None
            for i in range(starts[line] + start, starts[line] + end):
                mine = scopes[i]
                if text[i].isspace() and inner is None:
                    continue
                # an escape inside a string is scoped inside it by vscode-textmate only
                if mine != inner and not (inner and inner.startswith("constant.character.escape") and mine in stack):
                    wrong.append((line + 1, text[starts[line] + start:starts[line] + end], inner, mine))
        assert wrong == [], path
