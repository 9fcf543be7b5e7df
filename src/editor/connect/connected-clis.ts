// Which assistant CLIs are connected now (their settings hold a hook of ours), for the Assistants
// view's rows (#54 item 5). The connector tells it after each Connect or Disconnect and once at
// activation; it outlives every signed-in set, so a new set's view shows it at once.
import * as vscode from 'vscode';
import { DisposableBase } from '../base/disposable';

export interface ConnectedCli {
  /** The adapter's id (`claude-code`). */
  id: string;
  /** The product's name (not translated). */
  name: string;
  /** The file that holds its hooks of Assistant Cards. */
  file: string;
}

export class ConnectedClis extends DisposableBase {
  private clis: readonly ConnectedCli[] = [];
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;

  list(): readonly ConnectedCli[] { return this.clis; }

  set(next: readonly ConnectedCli[]): void {
    const same = next.length === this.clis.length && next.every((c, i) => c.id === this.clis[i]?.id && c.file === this.clis[i]?.file);
    this.clis = [...next];
    if (!same) this.emitter.fire();
  }
}
