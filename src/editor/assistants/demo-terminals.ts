// Opens the demo terminals `npm start` asks for. What runs in them is built by
// demo-command-lines.ts: the bundled demo assistant against a loopback sandbox, never a
// command from the environment. (`npm start --code-server` installs the VSIX, so this runs in an
// installed extension too.)
import * as vscode from 'vscode';
import type { Log } from '../base/log';
import { demoTerminalsFor } from './demo-command-lines';

/** `npm start` says where its sandbox is through this variable (see docs/decisions.md). */
export const DEMO_TERMINALS_ENV = 'ASSISTANT_CARDS_DEMO_TERMINALS';

/** Opens each terminal (unless one of that name is open) and starts the demo assistant in it. */
export function openDemoTerminals(log: Log, raw: string | undefined, extension: Pick<vscode.ExtensionContext, 'extensionPath'>): number {
  if (!raw) return 0;
  const { terminals, refused } = demoTerminalsFor(raw, extension.extensionPath);
  if (refused) { log.warn(`${DEMO_TERMINALS_ENV} refused (${refused}); no demo terminals opened`); return 0; }
  let opened = 0;
  for (const t of terminals) {
    if (vscode.window.terminals.some((x) => x.name === t.name)) continue;
    const terminal = vscode.window.createTerminal({ name: t.name });
    terminal.sendText(t.command, true);
    terminal.show(true);
    opened++;
    log.info(`demo: opened terminal "${t.name}"`);
  }
  return opened;
}
