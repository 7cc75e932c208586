// The rulec extension: highlighting comes from the TextMate grammar (package.json); everything
// else (diagnostics, hover, go to definition, completion, formatting) from `rulec lsp`, the
// language server of the rulec command, started here over standard input and output.
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { CloseAction, ErrorAction, LanguageClient } = require('vscode-languageclient/node');

const INSTALL_HINT = "install rulec with its lsp extra: pip install 'rulec[lsp]'";

let client = null;
let output = null;

/** The rulec command from the settings (`rulec.path`), "rulec" when unset or blank. */
function rulecCommand() {
  const configured = vscode.workspace.getConfiguration('rulec').get('path');
  return typeof configured === 'string' && configured.trim() ? configured.trim() : 'rulec';
}

/** How the language server is started: the rulec command with `lsp`, over stdio. */
function serverOptions(command) {
  const folders = vscode.workspace.workspaceFolders;
  const options = folders && folders.length ? { cwd: folders[0].uri.fsPath } : {};
  return { command, args: ['lsp'], options };
}

/** The command's file: a path as given, or the first match on PATH (with PATHEXT on Windows). */
function findCommand(command, env = process.env, platform = process.platform) {
  const windows = platform === 'win32';
  const extensions = windows ? ['', ...(env.PATHEXT || '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  const runnable = (file) => {
    try {
      if (!fs.statSync(file).isFile()) return false;
      if (!windows) fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch (_) {
      return false;
    }
  };
  const candidates = (base) => extensions.map((ext) => base + ext);
  if (command.includes('/') || (windows && command.includes('\\'))) {
    return candidates(command).find(runnable) || null;
  }
  const dirs = (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const found = candidates(path.join(dir, command)).find(runnable);
    if (found) return found;
  }
  return null;
}

function notFound(command) {
  const message = `rulec: the command "${command}" was not found; ${INSTALL_HINT}, ` +
    'or set "rulec.path" to the rulec command (for example the one in your virtual environment).';
  vscode.window.showErrorMessage(message, 'Open Settings').then((choice) => {
    if (choice === 'Open Settings') {
      vscode.commands.executeCommand('workbench.action.openSettings', 'rulec.path');
    }
  });
  return message;
}

async function startClient() {
  const command = rulecCommand();
  if (!findCommand(command)) {
    notFound(command);
    return null;
  }
  let running = false;
  let defaults = null;
  const clientOptions = {
    documentSelector: [{ language: 'rulec' }],
    outputChannel: output,
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.rules,rulec.toml}') },
    // A server that never started (rulec without its lsp extra) is not restarted over and over;
    // one that stops later is, as the client library does by default.
    initializationFailedHandler: () => false,
    errorHandler: {
      error: (error, message, count) => (running ? defaults.error(error, message, count)
        : { action: ErrorAction.Continue, handled: true }),
      closed: () => (running ? defaults.closed() : { action: CloseAction.DoNotRestart, handled: true }),
    },
  };
  // The id 'rulec' makes the client read the trace level from the setting `rulec.trace.server`.
  const started = new LanguageClient('rulec', 'rulec language server', serverOptions(command), clientOptions);
  defaults = started.createDefaultErrorHandler();
  try {
    await started.start();
    running = true;
  } catch (e) {
    // What the server wrote before it stopped (rulec without pygls says so) is in the output channel.
    const message = `rulec: "${command} lsp" did not start (see the rulec output); ` +
      `if rulec is installed without the language server, ${INSTALL_HINT}.`;
    vscode.window.showErrorMessage(message, 'Show Output').then((choice) => {
      if (choice === 'Show Output') output.show(true);
    });
    return null;
  }
  return started;
}

async function stopClient() {
  const running = client;
  client = null;
  if (running) {
    try {
      await running.stop();
    } catch (_) {
      // already stopped (the server exited); nothing to clean up
    }
  }
}

async function restart() {
  await stopClient();
  client = await startClient();
}

async function activate(context) {
  output = vscode.window.createOutputChannel('rulec');
  context.subscriptions.push(output);
  context.subscriptions.push(vscode.commands.registerCommand('rulec.restartServer', restart));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('rulec.path')) restart();
  }));
  client = await startClient();
  return { serverOptions, findCommand, client: () => client };
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate, serverOptions, findCommand, rulecCommand, INSTALL_HINT };
