// What the local service's commands do (#51), loaded with local-service-flows.ts just after
// activation, not at it: start a detached service and point the
// window at it, stop it, allow a sign-in in a dialog naming the app and the computer asking (F2),
// and tell of a new sign-in in every signed-in window.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as VSCode from 'vscode';
import { LOCAL_SERVICE_FILES } from '../../bridge/service-files';
import { lastStartFailure, readServiceState, type ServiceState } from '../../bridge/service-state';
import type { say as Say } from '../base/say';
import { decideSignIn, signInAsking } from './editor-approval';
import type { Log } from '../base/log';
import { ensureLocalService, stopLocalService } from './service-starter';

export interface LocalServiceHost {
  /** The service's folder (bridge/home.ts localServiceHome). */
  home: string;
  log: Log;
  extensionUri: VSCode.Uri;
  /**
   * The window's messages (base/say.ts) and the vscode API, given rather than imported: this file
   * then shares no chunk with what loads at activation (test/scripts/bundle-budget.test.ts).
   */
  say: typeof Say;
  vscode: typeof VSCode;
  /** Sets the assistantCards.localService context key (running | stopped | failed | unused). */
  setKey(value: string): void;
  /** The identity file this window uses (service-settings.ts machineFile). */
  machineFile(): string;
  /** Whether this window is signed in (it then tells of new sign-ins). */
  signedIn(): boolean;
  /** Whether this window is set up for a service (an address and an identity that is not the local service's). */
  setUpElsewhere(): boolean;
  refreshState(): Promise<void>;
  signIn(): Promise<unknown>;
  /** The Cards view's message line (the reason the service cannot start). */
  showMessage(text: string | undefined): void;
}

/** What these actions use of the window's LocalService (local-service-flows.ts). */
export interface ServiceSide {
  readonly host: LocalServiceHost;
  readonly home: string;
  readonly stoppedMark: string;
  readonly signIns: string;
  signInsSeen: number;
  usedHere(): boolean;
  signInsSize(): number;
  look(): void;
  /** This window asked for the service: why a start failed shows in its Cards view even before it is set up. */
  want(): void;
  /** Why this window's last start failed when the service could not say it (its home not writable, no answer in time). */
  startError: string | undefined;
  ensure(why: string): Promise<ServiceState | undefined>;
}

type LocalService = ServiceSide;

export async function ensure(ls: LocalService, why: string): Promise<ServiceState | undefined> {
  const vscode = ls.host.vscode;
  try {
    const script = vscode.Uri.joinPath(ls.host.extensionUri, 'dist', 'sandbox.js').fsPath;
    const { state, started } = await ensureLocalService({ script, execPath: process.execPath, home: ls.home });
    if (started) ls.host.log.info(`local service: started (${why}) at ${state.url}, process ${state.pid}; log ${path.join(ls.home, LOCAL_SERVICE_FILES.log)}`);
    ls.startError = undefined;
    return state;
  } catch (e) {
    ls.host.log.error(`local service: did not start: ${(e as Error).message}`);
    ls.startError = (e as Error).message;
    return undefined;
  }
}

/** The Cards view says why the service cannot start (its own words) and what to do. */
export function showFailure(ls: LocalService, failure: string | undefined): void {
  const vscode = ls.host.vscode;
  ls.host.showMessage(failure === undefined ? undefined : vscode.l10n.t('The local service cannot start: {0} Fix it, then run Start Local Service.', failure));
}

/** Start Local Service: starts it (or finds it), sets this window up for it, offers Sign In. */
export async function start(ls: LocalService): Promise<void> {
  const vscode = ls.host.vscode;
  ls.want();
  fs.rmSync(ls.stoppedMark, { force: true });
  fs.rmSync(path.join(ls.home, LOCAL_SERVICE_FILES.failed), { force: true }); // the person tries again
  const state = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Assistant Cards: starting the local service') },
    () => ls.ensure('Start Local Service'), // l10n-ignore: the log's words
  );
  if (!state) {
    const failure = lastStartFailure(ls.home) ?? ls.startError ?? vscode.l10n.t('see the log');
    const pick = await ls.host.say.error(vscode.l10n.t('Assistant Cards: the local service did not start: {0}', failure), vscode.l10n.t('Show Log'));
    if (pick) ls.host.log.show();
    return;
  }
  await pointHere(ls, state);
  const pick = await ls.host.say.info(vscode.l10n.t('Assistant Cards: your local service runs at {0}. Its cards and sign-ins are kept in {1}.', state.url, ls.home), vscode.l10n.t('Sign In'));
  if (pick) await ls.host.signIn();
}

/** This window's identity file becomes the service's (the person's own identity file of another service stays as it is). */
async function pointHere(ls: LocalService, state: ServiceState): Promise<void> {
  const vscode = ls.host.vscode;
  const cfg = vscode.workspace.getConfiguration('assistantCards');
  if (cfg.inspect<string>('baseUrl')?.globalValue) await cfg.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
  if (!ls.usedHere()) await cfg.update('machineFile', state.machineFile, vscode.ConfigurationTarget.Global);
  await ls.host.refreshState();
}

/**
 * After a CLI was connected: it asks through a service, so the local one starts when this window
 * is not set up for another (nothing changes for a window using a real service).
 */
export async function afterConnect(ls: LocalService): Promise<void> {
  if (!ls.usedHere() && ls.host.setUpElsewhere()) return;
  if (ls.usedHere() && fs.existsSync(ls.stoppedMark)) return; // the person stopped it: Start is theirs
  ls.want();
  const state = await ls.ensure('an assistant CLI was connected'); // l10n-ignore: the log's words
  if (state) await pointHere(ls, state);
}

/** Stop Local Service: it ends for every window, and no window starts it again until Start. */
export async function stop(ls: LocalService): Promise<void> {
  const vscode = ls.host.vscode;
  fs.mkdirSync(ls.home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(ls.stoppedMark, `${new Date().toISOString()}\n`, { mode: 0o600 });
  const stopped = await stopLocalService(ls.home);
  ls.host.log.info(stopped ? 'local service: stopped by the person' : 'local service: none was running');
  ls.look();
  await ls.host.refreshState();
  void ls.host.say.info(stopped
    ? vscode.l10n.t('Assistant Cards: the local service stopped. Assistants ask in their own terminals until you start it again.')
    : vscode.l10n.t('Assistant Cards: no local service was running.'));
}

/** Allow a Sign-In: the code an app shows, then the dialog. */
export async function allowTyped(ls: LocalService): Promise<void> {
  const vscode = ls.host.vscode;
  const code = await vscode.window.showInputBox({
    title: vscode.l10n.t('Allow a Sign-In to Your Local Service'),
    prompt: vscode.l10n.t('The code the app shows'),
    placeHolder: 'ABCD-EFGH', // l10n-ignore: a code's form
    ignoreFocusOut: true,
  });
  if (code?.trim()) await allow(ls, code.trim());
}

/** The dialog naming the app, its publisher, the computer and the scopes; the person's Allow or Deny goes to the service. */
export async function allow(ls: LocalService, userCode: string): Promise<void> {
  const vscode = ls.host.vscode;
  const state = readServiceState(ls.home);
  if (!state) { void ls.host.say.error(vscode.l10n.t('Assistant Cards: no local service runs. Start it first.')); return; }
  try {
    const asking = await signInAsking(state, userCode);
    if ('refused' in asking) { void ls.host.say.error(vscode.l10n.t('Assistant Cards: no sign-in waits with the code {0}: {1}', userCode, asking.refused)); return; }
    // say.confirm makes the app's and computer's names inert (they are the asker's words); the
    // dialog's own Cancel is the Deny.
    const allowed = await ls.host.say.confirm(
      vscode.l10n.t('Allow "{0}" on the computer "{1}" to sign in to your local service?', asking.app.name, asking.machine.name),
      vscode.l10n.t('Publisher: {0} ({1}). Code: {2}. It asks to: {3}. Allow it only if you started this sign-in.',
        asking.app.publisher, asking.app.verified ? vscode.l10n.t('verified') : vscode.l10n.t('not verified'), asking.userCode, asking.scopes.join(', ')),
      vscode.l10n.t('Allow'),
    );
    const refused = await decideSignIn(state, userCode, allowed);
    if (refused) void ls.host.say.error(vscode.l10n.t('Assistant Cards: the decision was not taken: {0}', refused));
    ls.host.log.info(`local service: a sign-in ${allowed ? 'allowed' : 'denied'} in the editor`);
  } catch (e) {
    void ls.host.say.error(vscode.l10n.t('Assistant Cards: the local service could not be asked: {0}', (e as Error).message));
  }
}

/** Every signed-in window tells of a sign-in the person allowed (wherever it was allowed). */
export function tellNewSignIns(ls: LocalService): void {
  const vscode = ls.host.vscode;
  const size = ls.signInsSize();
  if (size <= ls.signInsSeen) { ls.signInsSeen = size; return; }
  let text = '';
  try {
    const fd = fs.openSync(ls.signIns, 'r');
    try {
      const buf = Buffer.alloc(Math.min(size - ls.signInsSeen, 64 * 1024));
      fs.readSync(fd, buf, 0, buf.length, ls.signInsSeen);
      text = buf.toString('utf8');
    } finally { fs.closeSync(fd); }
  } catch { return; }
  ls.signInsSeen = size;
  if (!ls.host.signedIn()) return;
  for (const line of text.split('\n').filter(Boolean)) {
    try {
      const s = JSON.parse(line) as { app?: unknown; machine?: unknown };
      void ls.host.say.info(vscode.l10n.t('Assistant Cards: a new sign-in to your local service: "{0}" on "{1}". Not you? Stop Local Service and look at the log.', String(s.app), String(s.machine)));
    } catch { /* a line cut short */ }
  }
}
