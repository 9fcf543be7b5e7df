// The person's local service in the window (#51), loaded just after activation
// (local-service-handle.ts is all that loads at activation). Every 5 s it looks whether the
// service runs (the context key the Cards view's welcome reads, the reason a start failed as the
// view's message), starts it again when it died in a window set up
// for it (not when the person stopped it, not after a failed start), notices a new sign-in, and
// sees this window's own sign-in to the local service begin. What acts (Start, Stop, the sign-in
// dialog, the announcement) is local-service-actions.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { LOCAL_SERVICE_FILES } from '../../bridge/service-files';
import { lastStartFailure, readServiceState, type ServiceState } from '../../bridge/service-state';
import type { ConnectionState } from '../../sync';
import * as localServiceActions from './local-service-actions';
import type { LocalServiceHost } from './local-service-actions';

export type { LocalServiceHost };

/** What acts, as a promise: called from the 5 s look and from commands alike, never in the same tick as the look's reads. */
const actions = () => Promise.resolve(localServiceActions);

/** How often a window looks whether the service still runs (a stat, a read and a signal 0). */
const LOOK_EVERY_MS = 5_000;


export class LocalService implements vscode.Disposable, localServiceActions.ServiceSide {
  readonly home: string;
  readonly stoppedMark: string;
  readonly signIns: string;
  /** User codes this window already asked the person about. */
  readonly asked = new Set<string>();
  /** How much of sign-ins.jsonl was already told of. */
  signInsSeen: number;
  private starting: Promise<ServiceState | undefined> | undefined;
  private shownFailure: string | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly host: LocalServiceHost) {
    this.home = host.home;
    this.stoppedMark = path.join(this.home, LOCAL_SERVICE_FILES.stopped);
    this.signIns = path.join(this.home, LOCAL_SERVICE_FILES.signIns);
    this.signInsSeen = this.signInsSize();
    this.timer = setInterval(() => this.look(), LOOK_EVERY_MS);
    this.timer.unref?.();
    this.look();
  }

  /** Whether this window is set up for the local service (its identity file is the service's). */
  usedHere(): boolean {
    return path.resolve(this.host.machineFile()) === path.resolve(path.join(this.home, LOCAL_SERVICE_FILES.machine));
  }

  signInsSize(): number {
    try { return fs.statSync(this.signIns).size; } catch { return 0; }
  }

  look(): void {
    const running = readServiceState(this.home);
    const failure = running ? undefined : lastStartFailure(this.home);
    this.host.setKey(!this.usedHere() && !running ? 'unused' : running ? 'running' : failure ? 'failed' : 'stopped');
    const shown = this.usedHere() ? failure : undefined;
    if (shown !== this.shownFailure) {
      this.shownFailure = shown;
      void actions().then((a) => a.showFailure(this, shown));
    }
    // It died (not stopped by the person, not failing to start): the next window that needs it starts it again.
    if (!running && !failure && this.usedHere() && !fs.existsSync(this.stoppedMark)) void this.ensure('it had ended'); // l10n-ignore: the log's words
    if (this.signInsSize() !== this.signInsSeen) void actions().then((a) => a.tellNewSignIns(this));
  }

  /** Starts it when none runs, without asking (one start at a time in this window; the lock makes it one across windows). */
  ensure(why: string): Promise<ServiceState | undefined> {
    this.starting ??= actions().then((a) => a.ensure(this, why)).finally(() => { this.starting = undefined; this.look(); });
    return this.starting;
  }

  /** F2: this window's own sign-in to the local service is allowed here, in a dialog (the person pressed Sign In). */
  onState(s: ConnectionState): void {
    if (s.kind !== 'signing-in' || this.asked.has(s.userCode)) return;
    const state = readServiceState(this.home);
    if (!state || !s.verificationUri.startsWith(`${state.url}/`)) return;
    this.asked.add(s.userCode);
    void actions().then((a) => a.allow(this, s.userCode));
  }

  async start(): Promise<void> { await (await actions()).start(this); }
  async stop(): Promise<void> { await (await actions()).stop(this); }
  async allowTyped(): Promise<void> { await (await actions()).allowTyped(this); }
  async afterConnect(): Promise<void> { await (await actions()).afterConnect(this); }

  dispose(): void {
    clearInterval(this.timer);
  }
}
