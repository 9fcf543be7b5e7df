// The window's handle on the person's local service (#51), the only part of it loaded at
// activation: local-service-flows.ts (the 5 s look, the restart, the sign-in seen beginning) is
// loaded just after activate() returns, local-service-actions.ts at the first command that acts.
import type * as vscode from 'vscode';
import type { ConnectionState } from '../../sync';
import type { LocalService, LocalServiceHost } from './local-service-flows';

export class LocalServiceHandle implements vscode.Disposable {
  private loading: Promise<LocalService> | undefined;

  constructor(private readonly host: LocalServiceHost) {
    // After activation: an import() here is a require on first call (esbuild.mjs).
    setImmediate(() => void this.load());
  }

  load(): Promise<LocalService> {
    this.loading ??= import('./local-service-flows.js').then((m) => new m.LocalService(this.host));
    return this.loading;
  }

  /** A command of the service's: Start, Stop, Allow a Sign-In, or the start after a CLI connected. */
  run(what: 'start' | 'stop' | 'allowTyped' | 'afterConnect'): Promise<void> {
    return this.load().then((l) => l[what]());
  }

  onState(s: ConnectionState): void {
    if (s.kind === 'signing-in') void this.load().then((l) => l.onState(s));
  }

  dispose(): void {
    void this.loading?.then((l) => l.dispose());
  }
}
