// Project: Nova for VS Code: starts `nova lsp` and hands it android scripts and rules files.
//
// Everything game-related happens in the server; this file only starts it, passes the `nova.*`
// settings, and adds a palette command that dry-runs the active script.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function settings() {
  const config = vscode.workspace.getConfiguration('nova');
  return {
    rulesFile: config.get('rulesFile') || undefined,
    gameFile: config.get('gameFile') || undefined,
    androidId: config.get('androidId') || undefined,
  };
}

function createClient() {
  const [command, ...args] = vscode.workspace.getConfiguration('nova').get('server.command') || ['nova', 'lsp'];
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'typescript' },
      // The server ignores JSON that is not a rules file (rules.json, *.rules.json, or a
      // "$schema" naming rules.schema.json).
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'jsonc' },
    ],
    initializationOptions: { nova: settings() },
    // Sends workspace/didChangeConfiguration with { nova: {...} } when a nova.* setting changes.
    synchronize: { configurationSection: 'nova' },
  };
  return new LanguageClient('nova', 'Nova', serverOptions, clientOptions);
}

async function dryRunActiveFile() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'typescript') {
    vscode.window.showWarningMessage('Open an android script (.ts) to dry-run its turn.');
    return;
  }
  // The server shows the verdict itself (window/showMessage); the result is also returned.
  await vscode.commands.executeCommand('nova.dryRun', editor.document.uri.toString());
}

async function activate(context) {
  client = createClient();
  context.subscriptions.push(
    vscode.commands.registerCommand('nova.dryRunActiveFile', dryRunActiveFile),
    vscode.commands.registerCommand('nova.restartServer', async () => {
      if (client) {
        await client.restart();
      }
    }),
  );
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
