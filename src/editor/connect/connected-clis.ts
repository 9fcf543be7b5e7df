// Every assistant CLI of the adapters and whether it is connected now (its settings hold a hook of
// ours), for the Assistants view's rows (#54 item 5). The connector tells it after each Connect or
// Disconnect and once at activation; it outlives every signed-in set, so a new set's view shows it
// at once.
import * as vscode from 'vscode';
import { DisposableBase } from '../base/disposable';

export interface ConnectedCli {
  /** The adapter's id (`claude-code`). */
  id: string;
  /** The product's name (not translated). */
  name: string;
  /** The file that holds (or would hold) its hooks of Assistant Cards. */
  file: string;
  /** Whether that file holds our hooks now. */
  connected: boolean;
}

export class ConnectedClis extends DisposableBase {
  private clis: readonly ConnectedCli[] = [];
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;

  /** Every adapter's CLI, connected or not, by the adapters' order. */
  list(): readonly ConnectedCli[] { return this.clis; }

  /** The ids of the CLIs connected now. */
  connectedIds(): string[] { return this.clis.filter((c) => c.connected).map((c) => c.id); }

  set(next: readonly ConnectedCli[]): void {
    const same = next.length === this.clis.length && next.every((c, i) => c.id === this.clis[i]?.id && c.file === this.clis[i]?.file && c.connected === this.clis[i]?.connected);
    this.clis = [...next];
    if (!same) this.emitter.fire();
  }
}
