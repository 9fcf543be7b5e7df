// The person's local service in the window (#51), loaded just after activation
// (local-service-handle.ts is all that loads at activation). It looks whether the service runs
// (the context key the Cards view's welcome reads, the reason a start failed as the view's
// message), starts it again when it died in a window set up for it (not when the person stopped
// it, not after a failed start), notices a new sign-in, and sees this window's own sign-in to the
// local service begin. What acts (Start, Stop, the sign-in dialog, the announcement) is
// local-service-actions.ts.
//
// When it looks: on a change in the service's home folder (fs.watch), on a change of this
// extension's settings, and after each command. Only a window that uses the service (or tried to
// start it) also looks every 5 s: a process killed with SIGKILL changes no file, and that window
// is the one that starts it again. A window with nothing set up does no fs work on a timer.
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

/** How often a window that uses the service looks whether it still runs (a stat, a read and a signal 0). */
const LOOK_EVERY_MS = 5_000;
/** File events come in bursts (a write, a rename): one look after the last of them. */
const SETTLE_MS = 50;
/** The files a look reads: the store's own writes (every answer) and the log make no look. */
const LOOKED_AT: readonly string[] = [LOCAL_SERVICE_FILES.state, LOCAL_SERVICE_FILES.failed, LOCAL_SERVICE_FILES.signIns, LOCAL_SERVICE_FILES.stopped];


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
  startError: string | undefined;
  /** This window ran Start, or started it for a connected CLI: a failure is shown here even before it is set up. */
  private wanted = false;
  private timer: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  /** The watch on the home folder, or on its parent while the home is not there yet. */
  private watcher: fs.FSWatcher | undefined;
  private watching: string | undefined;
  private readonly settings: vscode.Disposable;
  private disposed = false;

  constructor(readonly host: LocalServiceHost, private readonly lookEveryMs = LOOK_EVERY_MS) {
    this.home = host.home;
    this.stoppedMark = path.join(this.home, LOCAL_SERVICE_FILES.stopped);
    this.signIns = path.join(this.home, LOCAL_SERVICE_FILES.signIns);
    this.signInsSeen = this.signInsSize();
    // Set up for the service or not is the identity file setting: a change of it may start or end the 5 s look.
    this.settings = host.vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('assistantCards')) this.look(); });
    this.look();
  }

  /** Whether this window looks on a timer: it uses the service, or asked for it. */
  private needsTimer(): boolean {
    return this.wanted || this.usedHere();
  }

  /** This window asked for the service (Start, a CLI connected): it shows why a start failed and looks on a timer. */
  want(): void {
    this.wanted = true;
  }

  /** Watches the home (or its parent until the home is made); without fs.watch, only the other looks remain. */
  private watchHome(): void {
    const target = fs.existsSync(this.home) ? this.home : path.dirname(this.home);
    if (this.watching === target) return;
    this.watcher?.close();
    this.watcher = undefined;
    this.watching = undefined;
    try {
      const wanted = target === this.home ? LOOKED_AT : [path.basename(this.home)];
      this.watcher = fs.watch(target, { persistent: false }, (_event, name) => { if (!name || wanted.includes(String(name))) this.soon(); });
      this.watcher.on('error', () => { this.watcher?.close(); this.watcher = undefined; this.watching = undefined; });
      this.watching = target;
    } catch { /* the folder is not there (no service was ever started) or fs.watch is not offered here */ }
  }

  private soon(): void {
    if (this.disposed) return;
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => { this.settle = undefined; this.look(); }, SETTLE_MS);
    this.settle.unref?.();
  }

  private schedule(): void {
    if (this.disposed || !this.needsTimer()) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => { this.timer = undefined; this.look(); }, this.lookEveryMs);
    this.timer.unref?.();
  }

  /** Whether this window is set up for the local service (its identity file is the service's). */
  usedHere(): boolean {
    return path.resolve(this.host.machineFile()) === path.resolve(path.join(this.home, LOCAL_SERVICE_FILES.machine));
  }

  signInsSize(): number {
    try { return fs.statSync(this.signIns).size; } catch { return 0; }
  }

  look(): void {
    if (this.disposed) return;
    this.watchHome();
    const running = readServiceState(this.home);
    const failure = running ? undefined : lastStartFailure(this.home) ?? (this.wanted ? this.startError : undefined);
    const here = this.usedHere();
    this.host.setKey(!here && !running && !(this.wanted && failure) ? 'unused' : running ? 'running' : failure ? 'failed' : 'stopped');
    const shown = here || this.wanted ? failure : undefined;
    if (shown !== this.shownFailure) {
      this.shownFailure = shown;
      void actions().then((a) => a.showFailure(this, shown));
    }
    // It died (not stopped by the person, not failing to start): the next window that needs it starts it again.
    if (!running && !failure && here && !fs.existsSync(this.stoppedMark)) void this.ensure('it had ended'); // l10n-ignore: the log's words
    if (this.signInsSize() !== this.signInsSeen) void actions().then((a) => a.tellNewSignIns(this));
    this.schedule();
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
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.settle) clearTimeout(this.settle);
    this.watcher?.close();
    this.settings.dispose();
  }
}
