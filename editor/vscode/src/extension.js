// Project: Nova for VS Code: starts `nova lsp` and hands it android scripts and rules files.
//
// Everything game-related happens in the server; this file only starts it (once a Nova file is
// open, not for every JSON file VS Code shows), passes the `nova.*` settings, and adds a palette
// command that dry-runs the active script. `npm run build` bundles it with vscode-languageclient
// into dist/extension.js, the only code the packaged extension carries.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

// The same naming convention as the server (nova_tools/lsp/features/rules_files.py) and
// package.json's `languages`/`jsonValidation`: rules.json, rules.jsonc, NAME.nova-rules.json(c),
// or JSON whose "$schema" names rules.schema.json. Not `*.rules.json` (Firebase's database rules).
const RULES_NAME = /(?:^|[\\/])(?:rules|[^\\/]+\.nova-rules)\.jsonc?$/;
const SCHEMA_MENTION = /"\$schema"\s*:\s*"[^"\n]*rules\.schema\.json"/;

let client;
let starting;

function isNovaDocument(document) {
  if (document.uri.scheme !== 'file') {
    return false;
  }
  if (document.languageId === 'typescript') {
    return true;
  }
  if (document.languageId !== 'json' && document.languageId !== 'jsonc') {
    return false;
  }
  return RULES_NAME.test(document.uri.fsPath) || SCHEMA_MENTION.test(document.getText().slice(0, 4096));
}

function settings() {
  const config = vscode.workspace.getConfiguration('nova');
  return {
    rulesFile: config.get('rulesFile') || undefined,
    gameFile: config.get('gameFile') || undefined,
    androidId: config.get('androidId') || undefined,
    // VS Code runs its own TypeScript server: by default the Nova server adds only what it knows
    // (diagnostics against the typings, hover, completion, the dry-run, the Nova checks).
    forwardTypeScript: config.get('forwardTypeScript') === true,
  };
}

function createClient() {
  const [command, ...args] = vscode.workspace.getConfiguration('nova').get('server.command') || ['nova', 'lsp'];
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'typescript' },
      // The server ignores JSON that is not a rules file.
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'jsonc' },
    ],
    initializationOptions: { nova: settings() },
    // Sends workspace/didChangeConfiguration with { nova: {...} } when a nova.* setting changes.
    synchronize: { configurationSection: 'nova' },
  };
  return new LanguageClient('nova', 'Nova', serverOptions, clientOptions);
}

function ensureStarted() {
  if (!starting) {
    client = createClient();
    starting = client.start().catch((error) => {
      vscode.window.showErrorMessage(`Nova: the language server did not start (${error.message || error}). Is \`nova\` on PATH? See the setting nova.server.command.`);
      throw error;
    });
  }
  return starting;
}

async function dryRunActiveFile() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'typescript') {
    vscode.window.showWarningMessage('Open an android script (.ts) to dry-run its turn.');
    return;
  }
  await ensureStarted();
  // The server shows the verdict itself (window/showMessage); the result is also returned.
  await vscode.commands.executeCommand('nova.dryRun', editor.document.uri.toString());
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('nova.dryRunActiveFile', dryRunActiveFile),
    vscode.commands.registerCommand('nova.restartServer', async () => {
      if (client) {
        await client.restart();
      } else {
        await ensureStarted();
      }
    }),
  );
  // Activation comes with any TypeScript or JSON file (a lone rules file has no workspace to
  // contain it); the server starts with the first Nova file.
  if (vscode.workspace.textDocuments.some(isNovaDocument)) {
    ensureStarted().catch(() => {});
  } else {
    const listener = vscode.workspace.onDidOpenTextDocument((document) => {
      if (isNovaDocument(document)) {
        listener.dispose();
        ensureStarted().catch(() => {});
      }
    });
    context.subscriptions.push(listener);
  }
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, isNovaDocument };
