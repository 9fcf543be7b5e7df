// Where the service and this computer's identity are, as the settings and the identity file say.
// Changes to any of them rebuild the live set of parts (extension.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CardScope } from '../../sync';
import { scopeSetting } from '../cards/card-scope';

/** DESIGN: the computer identity file's default place. */
export function defaultMachineFile(): string {
  return process.platform === 'win32'
    ? path.join(process.env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'assistant-cards', 'machine.json') // l10n-ignore: not words for people
    : path.join(os.homedir(), '.config', 'assistant-cards', 'machine.json');
}

export function machineFile(): string {
  const configured = vscode.workspace.getConfiguration('assistantCards').get<string>('machineFile')?.trim();
  return configured ? configured : defaultMachineFile();
}

/** The baseUrl to use: the setting, else the identity file's. Undefined when neither is there. */
export function resolveBaseUrl(file: string): string | undefined {
  const configured = vscode.workspace.getConfiguration('assistantCards').get<string>('baseUrl')?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { baseUrl?: unknown };
    return typeof parsed.baseUrl === 'string' ? parsed.baseUrl.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/** The scope a new core starts with; the assistants feature's ScopeController sets this window's assistants. */
export function startingScope(): CardScope {
  const setting = scopeSetting();
  return setting === 'workspace' ? { kind: 'workspace', assistantIds: [] } : { kind: setting };
}

/** Calls `changed` when the identity file appears or goes away (set up elsewhere, or removed). */
export function watchMachineFile(changed: () => void): vscode.Disposable {
  let watcher: vscode.Disposable | undefined;
  const watch = () => {
    watcher?.dispose();
    const file = machineFile();
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
    // A change too (#37): a stopped sandbox blanks the address in its file, and a window that
    // went on calling that port sent the person's DPoP proofs to whoever bound it next.
    watcher = vscode.Disposable.from(w, w.onDidCreate(changed), w.onDidChange(changed), w.onDidDelete(changed));
  };
  watch();
  const sub = vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('assistantCards.machineFile')) watch(); });
  return { dispose: () => { sub.dispose(); watcher?.dispose(); } };
}
