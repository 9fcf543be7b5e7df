// Activation: the first, minimal wiring. It sets the connection state context key (which drives
// the welcome views), registers both views and every command. The editor layer grows from here.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { CONTEXT, setContext, type StateKey } from './context-keys';
import { createLog } from './log';

/** DESIGN: the computer identity file's default place. */
export function defaultMachineFile(): string {
  return process.platform === 'win32'
    ? path.join(process.env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'assistant-cards', 'machine.json')
    : path.join(os.homedir(), '.config', 'assistant-cards', 'machine.json');
}

function machineFile(): string {
  const configured = vscode.workspace.getConfiguration('assistantCards').get<string>('machineFile')?.trim();
  return configured ? configured : defaultMachineFile();
}

class EmptyTree implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem { return element; }
  getChildren(): never[] { return []; }
}

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog();
  context.subscriptions.push(log);

  const status = vscode.window.createStatusBarItem('assistantCards.status', vscode.StatusBarAlignment.Left, 100);
  status.name = 'Assistant Cards';
  context.subscriptions.push(status);

  const refreshState = () => {
    // Without a stored sign-in the best we can say is: set up (so signed out) or not set up.
    const state: StateKey = fs.existsSync(machineFile()) ? 'signedOut' : 'notSetUp';
    setContext(CONTEXT.state, state);
    status.text = state === 'signedOut' ? '$(account) Assistant Cards: sign in' : '$(warning) Assistant Cards: not set up';
    status.command = state === 'signedOut' ? 'assistantCards.signIn' : 'assistantCards.startSandbox';
    status.show();
    log.info(`state ${state}`);
  };

  context.subscriptions.push(
    vscode.window.registerTreeDataProvider('assistantCards.cards', new EmptyTree()),
    vscode.window.registerTreeDataProvider('assistantCards.assistants', new EmptyTree()),
    ...registerCommands({ log, refreshState }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('assistantCards')) refreshState();
    }),
  );
  refreshState();
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
