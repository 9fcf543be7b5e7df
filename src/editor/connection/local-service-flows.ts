// The person's local service in the window (#51): Start Local Service and Stop Local Service, the
// start by the first window that needs it (this window set up for it, or a CLI just connected),
// started again when it died (not when the person stopped it), what the Cards view says when none
// runs or it cannot start, the sign-in allowed in a dialog naming the app and the computer (F2),
// and every signed-in window telling of a new sign-in.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_SERVICE_FILES, localServiceHome } from '../../bridge/home';
import { readServiceState, type ServiceState } from '../../bridge/service-state';
import type { ConnectionState } from '../../sync';
import type { Log } from '../base/log';
import { say } from '../base/say';
import { CONTEXT, type ContextKeys } from '../context-keys';
import { decideSignIn, signInAsking } from './editor-approval';
import { ensureLocalService, lastStartFailure, stopLocalService } from './service-starter';
import { machineFile } from './service-settings';

/** How often a window looks whether the service still runs (a stat and a signal 0). */
const LOOK_EVERY_MS = 5_000;

export type LocalServiceKey = 'running' | 'stopped' | 'failed';

export interface LocalServiceHost {
  log: Log;
  extensionUri: vscode.Uri;
  contextKeys: ContextKeys;
  /** Whether this window is signed in (it then tells of new sign-ins). */
  signedIn(): boolean;
  /** Whether this window is set up for a service (an address and an identity that is not the local service's). */
  setUpElsewhere(): boolean;
  refreshState(): Promise<void>;
  signIn(): Promise<unknown>;
  /** The Cards view's message line (the reason the service cannot start). */
  showMessage(text: string | undefined): void;
}

export class LocalService implements vscode.Disposable {
  readonly home = localServiceHome();
  private starting: Promise<ServiceState | undefined> | undefined;
  private readonly asked = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private signInsSeen: number;
  private shownMessage: string | undefined;

  constructor(private readonly host: LocalServiceHost) {
    this.signInsSeen = this.signInsSize();
    this.timer = setInterval(() => this.look(), LOOK_EVERY_MS);
    this.timer.unref?.();
    this.look();
  }

  private get stoppedMark(): string { return path.join(this.home, LOCAL_SERVICE_FILES.stopped); }
  private get machineFile(): string { return path.join(this.home, LOCAL_SERVICE_FILES.machine); }

  /** Whether this window is set up for the local service (its identity file is the service's). */
  usedHere(): boolean {
    return path.resolve(machineFile()) === path.resolve(this.machineFile);
  }

  /** The context key, the Cards view's message, a restart when it died, the sign-ins to tell of. */
  private look(): void {
    const running = readServiceState(this.home);
    const failure = running ? undefined : lastStartFailure(this.home);
    const key: LocalServiceKey = running ? 'running' : failure ? 'failed' : 'stopped';
    this.host.contextKeys.set(CONTEXT.localService, this.usedHere() || running ? key : 'unused');
    const message = this.usedHere() && failure ? vscode.l10n.t('The local service cannot start: {0} Fix it, then run Start Local Service.', failure) : undefined;
    if (message !== this.shownMessage) { this.host.showMessage(message); this.shownMessage = message; }
    // It died (not stopped by the person, not failing to start): the next window that needs it starts it again.
    if (!running && !failure && this.usedHere() && !fs.existsSync(this.stoppedMark) && !this.starting) void this.ensure('it had ended'); // l10n-ignore: the log's words
    this.tellNewSignIns();
  }

  /** Starts it when none runs, without asking: for a window that needs it. */
  ensure(why: string): Promise<ServiceState | undefined> {
    this.starting ??= (async () => {
      try {
        const script = vscode.Uri.joinPath(this.host.extensionUri, 'dist', 'sandbox.js').fsPath;
        const { state, started } = await ensureLocalService({ script, execPath: process.execPath, home: this.home });
        if (started) this.host.log.info(`local service: started (${why}) at ${state.url}, process ${state.pid}; log ${path.join(this.home, LOCAL_SERVICE_FILES.log)}`);
        return state;
      } catch (e) {
        this.host.log.error(`local service: did not start: ${(e as Error).message}`);
        return undefined;
      } finally {
        this.starting = undefined;
        this.look();
      }
    })();
    return this.starting;
  }

  /** Start Local Service: starts it (or finds it), sets this window up for it, offers Sign In. */
  async start(): Promise<void> {
    fs.rmSync(this.stoppedMark, { force: true });
    fs.rmSync(path.join(this.home, LOCAL_SERVICE_FILES.failed), { force: true }); // the person tries again
    const state = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Assistant Cards: starting the local service') },
      () => this.ensure('Start Local Service'), // l10n-ignore: the log's words
    );
    if (!state) {
      const failure = lastStartFailure(this.home) ?? vscode.l10n.t('see the log');
      const pick = await say.error(vscode.l10n.t('Assistant Cards: the local service did not start: {0}', failure), vscode.l10n.t('Show Log'));
      if (pick) this.host.log.show();
      return;
    }
    await this.pointHere(state);
    const pick = await say.info(vscode.l10n.t('Assistant Cards: your local service runs at {0}. Its cards and sign-ins are kept in {1}.', state.url, this.home), vscode.l10n.t('Sign In'));
    if (pick) await this.host.signIn();
  }

  /** This window's identity file becomes the service's (the person's own identity file of another service stays as it is). */
  private async pointHere(state: ServiceState): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('assistantCards');
    if (cfg.inspect<string>('baseUrl')?.globalValue) await cfg.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    if (!this.usedHere()) await cfg.update('machineFile', state.machineFile, vscode.ConfigurationTarget.Global);
    await this.host.refreshState();
  }

  /**
   * After a CLI was connected: it asks through a service, so the local one starts when this
   * window is not set up for another (nothing changes for a window signed in to a real service).
   */
  async afterConnect(): Promise<void> {
    if (!this.usedHere() && this.host.setUpElsewhere()) return;
    if (fs.existsSync(this.stoppedMark) && this.usedHere()) return; // the person stopped it: Start is theirs
    const state = await this.ensure('an assistant CLI was connected'); // l10n-ignore: the log's words
    if (state) await this.pointHere(state);
  }

  /** Stop Local Service: it ends in every window, and no window starts it again until Start. */
  async stop(): Promise<void> {
    fs.mkdirSync(this.home, { recursive: true, mode: 0o700 });
    fs.writeFileSync(this.stoppedMark, `${new Date().toISOString()}\n`, { mode: 0o600 });
    const stopped = await stopLocalService(this.home);
    this.host.log.info(stopped ? 'local service: stopped by the person' : 'local service: none was running');
    this.look();
    await this.host.refreshState();
    void say.info(stopped
      ? vscode.l10n.t('Assistant Cards: the local service stopped. Assistants ask in their own terminals until you start it again.')
      : vscode.l10n.t('Assistant Cards: no local service was running.'));
  }

  /**
   * F2: this window's own sign-in to the local service is allowed here, in a dialog naming the
   * app and the computer asking (the service's /device page allows nothing).
   */
  onState(s: ConnectionState): void {
    if (s.kind !== 'signing-in' || this.asked.has(s.userCode)) return;
    const state = readServiceState(this.home);
    if (!state || !s.verificationUri.startsWith(`${state.url}/`)) return;
    this.asked.add(s.userCode);
    void this.allow(s.userCode);
  }

  /** Allow a Sign-In: the code an app shows, then the dialog. */
  async allowTyped(): Promise<void> {
    const code = await vscode.window.showInputBox({
      title: vscode.l10n.t('Allow a Sign-In to Your Local Service'),
      prompt: vscode.l10n.t('The code the app shows'),
      placeHolder: 'ABCD-EFGH', // l10n-ignore: a code's form
      ignoreFocusOut: true,
    });
    if (code?.trim()) await this.allow(code.trim());
  }

  private async allow(userCode: string): Promise<void> {
    const state = readServiceState(this.home);
    if (!state) { void say.error(vscode.l10n.t('Assistant Cards: no local service runs. Start it first.')); return; }
    try {
      const asking = await signInAsking(state, userCode);
      if ('refused' in asking) { void say.error(vscode.l10n.t('Assistant Cards: no sign-in waits with the code {0}: {1}', userCode, asking.refused)); return; }
      const allow = vscode.l10n.t('Allow');
      const deny = vscode.l10n.t('Deny');
      // A modal's words are plain text: the app's and computer's names cannot be links or markup.
      const pick = await vscode.window.showWarningMessage(
        vscode.l10n.t('Allow "{0}" on the computer "{1}" to sign in to your local service?', asking.app.name, asking.machine.name),
        {
          modal: true,
          detail: vscode.l10n.t('Publisher: {0} ({1}). Code: {2}. It asks to: {3}. Allow it only if you started this sign-in.',
            asking.app.publisher, asking.app.verified ? vscode.l10n.t('verified') : vscode.l10n.t('not verified'), asking.userCode, asking.scopes.join(', ')),
        },
        allow, deny,
      );
      const refused = await decideSignIn(state, userCode, pick === allow);
      if (refused) void say.error(vscode.l10n.t('Assistant Cards: the decision was not taken: {0}', refused));
      this.host.log.info(`local service: a sign-in ${pick === allow ? 'allowed' : 'denied'} in the editor`);
    } catch (e) {
      void say.error(vscode.l10n.t('Assistant Cards: the local service could not be asked: {0}', (e as Error).message));
    }
  }

  private signInsSize(): number {
    try { return fs.statSync(path.join(this.home, LOCAL_SERVICE_FILES.signIns)).size; } catch { return 0; }
  }

  /** Every signed-in window tells of a sign-in the person allowed (wherever it was allowed). */
  private tellNewSignIns(): void {
    const size = this.signInsSize();
    if (size <= this.signInsSeen) { this.signInsSeen = size; return; }
    let text = '';
    try {
      const fd = fs.openSync(path.join(this.home, LOCAL_SERVICE_FILES.signIns), 'r');
      try {
        const buf = Buffer.alloc(Math.min(size - this.signInsSeen, 64 * 1024));
        fs.readSync(fd, buf, 0, buf.length, this.signInsSeen);
        text = buf.toString('utf8');
      } finally { fs.closeSync(fd); }
    } catch { return; }
    this.signInsSeen = size;
    if (!this.host.signedIn()) return;
    for (const line of text.split('\n').filter(Boolean)) {
      try {
        const s = JSON.parse(line) as { app?: unknown; machine?: unknown };
        void say.info(vscode.l10n.t('Assistant Cards: a new sign-in to your local service: "{0}" on "{1}". Not you? Stop Local Service and look at the log.', String(s.app), String(s.machine)));
      } catch { /* a line cut short */ }
    }
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
