// Connects a CLI the way a person does: the Connect command on that CLI (as its row in the
// Assistants view runs it), one press on its question.
// VS Code refuses modal dialogs in its test mode, so the press goes through the app's
// `connector.ask` (connect-cli.test.ts checks what the modal says). The CLI's settings folder and
// the bridge home come from the environment the extension reads at the press; both are set for
// that press only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { App } from '../../../src/editor/extension';

export type ConnectCli = 'claude-code' | 'codex';

/** Runs Connect for `cli` with `env` (CLAUDE_CONFIG_DIR or CODEX_HOME, ASSISTANT_CARDS_HOME) and presses Connect. */
export async function connectThroughCommand(app: App, cli: ConnectCli, env: Record<string, string>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const ask = app.connector.ask;
  let asked = 0;
  app.connector.ask = async () => { asked++; return true; };
  Object.assign(process.env, env);
  try {
    assert.equal(await vscode.commands.executeCommand<string>('assistantCards.connectCli', cli), 'connected');
    assert.equal(asked, 1, 'Connect asked once');
  } finally {
    app.connector.ask = ask;
    for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
  }
}

interface HookFile { hooks: Record<string, { hooks: { command: string; timeout?: number }[] }[]> }

/**
 * A shorter wait for PermissionRequest in the file Connect wrote: only its `--wait` and timeout
 * change, kept 10 s apart as Connect keeps them; every other byte of Connect's entries stays.
 */
export function shortenPermissionWait(file: string, waitS: number): void {
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as HookFile;
  const hook = settings.hooks.PermissionRequest?.[0]?.hooks[0];
  assert.ok(hook && / --wait \d+$/.test(hook.command), `Connect's PermissionRequest hook in ${file}`);
  hook.command = hook.command.replace(/ --wait \d+$/, ` --wait ${waitS}`);
  hook.timeout = waitS + 10;
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}
