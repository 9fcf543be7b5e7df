// Connect and Disconnect of an assistant CLI (Claude Code, Codex, each adapter of src/bridge/clis/):
// one command each for every CLI, the CLI named or picked (./cli-pick.ts), then one press (#35). Connect
// installs the stable hook command (src/bridge/install.ts), shows the CLI's user settings before
// and after in a diff editor, asks once (a modal naming the file and the events), and writes only
// our hook entries (src/bridge/connect-settings.ts keeps the rest of the file, comments too).
// Disconnect takes exactly those entries out again. A file that does not parse is never written:
// the message names it and says what to do.
//
// At activation nothing is awaited: when a launcher was installed before (a Connect ran on this
// computer), it and bridge.js are refreshed in the background, so an update of the extension or of
// the editor's runtime path keeps the hook command the CLIs run working.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableBase } from '../base/disposable';
import type { Log } from '../base/log';
import { say } from '../base/say';
import { bridgeHome } from '../../bridge/home';
import { binDirOf, hookInstalled, installHook, launcherName, type Installed } from '../../bridge/install';
import type { Cli, Plan, Refusal } from '../../bridge/connect-settings';
import type { ConnectedCli } from './connected-clis';
import { runCliCommand, type CliVerb } from './cli-pick';


/**
 * The settings' planner (with jsonc-parser), loaded on the first Connect or Disconnect, not at
 * activation (docs/decisions.md, "#39 item 4").
 */
const connectSettings = () => import('../../bridge/connect-settings.js');

/** The scheme of the read-only before/after documents the diff editor shows. */
export const PREVIEW_SCHEME = 'assistant-cards-settings';

/** `unknown`: the command's argument named no CLI of ours (nothing done, the person told). */
export type ConnectOutcome = 'connected' | 'already' | 'cancelled' | 'refused' | 'failed' | 'disconnected' | 'absent' | 'unknown';

export interface ConnectorDeps {
  log: Log;
  /** The extension's folder (dist/bridge.js is copied from it). */
  extensionPath: string;
  version: string;
  /** The environment the file paths come from (tests point them at temporary folders). */
  env?: NodeJS.ProcessEnv;
  /** Told every adapter's CLI with whether it is connected (and its name and file), after each Connect or Disconnect and once at activation. */
  onConnected?: (clis: readonly ConnectedCli[]) => void;
}


export class CliConnector extends DisposableBase {
  /** The before/after texts the diff editor shows, by document address. */
  private readonly previews = new Map<string, string>();
  private providerRegistered = false;
  /**
   * Asks the person before Connect writes: a modal (say.confirm). The extension-host tests replace
   * it through their handle, because VS Code refuses modal dialogs in its test mode.
   */
  ask: (question: string, detail: string, button: string) => Thenable<boolean> = say.confirm;
  /** One Connect or Disconnect at a time: two presses would plan on the same text. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ConnectorDeps) {
    super();
  }

  private get env(): NodeJS.ProcessEnv { return this.deps.env ?? process.env; }
  private get binDir(): string { return binDirOf(bridgeHome(this.env)); }

  /** The CLIs whose settings file holds a hook of ours now. */
  async connected(): Promise<Cli[]> {
    const { CLIS, holdsOurs, readSettings, settingsFile } = await connectSettings();
    const out: Cli[] = [];
    for (const cli of CLIS) {
      const read = await readSettings(settingsFile(cli, this.env)).catch(() => undefined);
      if (read?.ok && holdsOurs(read.text, cli)) out.push(cli);
    }
    return out;
  }

  /** Every adapter's CLI, by its order: name, settings file, and whether that file holds our hooks now. */
  async states(): Promise<ConnectedCli[]> {
    const { CLIS, CLI_NAMES, settingsFile } = await connectSettings();
    const on = new Set<string>(await this.connected());
    return CLIS.map((id) => ({ id, name: CLI_NAMES[id] ?? id, file: settingsFile(id, this.env), connected: on.has(id) }));
  }

  /** Tells `onConnected` what is connected now (a failure to read is logged, not shown). */
  private connectedChanged(): void {
    if (!this.deps.onConnected) return;
    void this.states().then((clis) => { if (!this.isDisposed) this.deps.onConnected?.(clis); },
      (e: unknown) => this.deps.log.warn(`which CLIs are connected: ${String(e)}`));
  }

  /** At activation: refresh the hook command when one was installed before. Never awaited there. */
  refreshInstalled(): void {
    setTimeout(() => {
      this.connectedChanged();
      void (async () => {
        if (this.isDisposed || !(await hookInstalled(this.binDir, process.platform))) return;
        const done = await this.install();
        if (done.written.length) this.deps.log.info(`hook command refreshed: ${done.written.join(', ')}`);
      })().catch((e: unknown) => this.deps.log.warn(`hook command refresh failed: ${String(e)}`));
    }, 2_000);
  }

  private async install(): Promise<Installed> {
    const installed = await installHook({
      binDir: this.binDir,
      bridgeSource: path.join(this.deps.extensionPath, 'dist', 'bridge.js'),
      runtime: process.execPath,
      version: this.deps.version,
      platform: process.platform,
    });
    // The words the hook writes on cards, in this window's language (#54); loaded here, not at activation.
    await import('./bridge-words-file.js').then((m) => m.writeBridgeWords(bridgeHome(this.env), vscode.env.language, vscode.l10n.bundle)).catch((e: unknown) => this.deps.log.warn(`the bridge's words: ${String(e)}`));
    return installed;
  }

  /** The Connect or Disconnect command: on the CLI named (an id, a view row) or picked (./cli-pick.ts), then its flow. */
  async run(verb: CliVerb, arg?: unknown): Promise<ConnectOutcome> {
    const { isCli } = await connectSettings();
    return runCliCommand(verb, arg, {
      isCli, states: () => this.states(), warn: (line) => this.deps.log.warn(line),
      apply: (v, id) => (v === 'disconnect' ? this.disconnect(id as Cli) : this.connect(id as Cli)),
    });
  }

  connect(cli: Cli): Promise<ConnectOutcome> {
    const run = this.running.then(() => this.connectNow(cli)).catch(async (e: unknown) => this.failedOf(cli, e));
    this.running = run.catch(() => undefined);
    return run;
  }

  disconnect(cli: Cli): Promise<ConnectOutcome> {
    const run = this.running.then(() => this.disconnectNow(cli)).catch(async (e: unknown) => this.failedOf(cli, e));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async failedOf(cli: Cli, e: unknown): Promise<ConnectOutcome> {
    const { CLI_NAMES, settingsFile } = await connectSettings();
    return this.failed(CLI_NAMES[cli] ?? cli, settingsFile(cli, this.env), e);
  }

  private async connectNow(cli: Cli): Promise<ConnectOutcome> {
    const { CLI_NAMES, PERMISSION_TIMEOUT_S, adapter, hookCommand, planConnect, readSettings, settingsFile, writeSettings } = await connectSettings();
    const file = settingsFile(cli, this.env);
    const name = CLI_NAMES[cli] ?? cli;
    const read = await readSettings(file);
    if (!read.ok) return this.refuse(name, file, read.refusal);
    const text = read.text;
    const plan = planConnect(text, cli, hookCommand(path.join(this.binDir, launcherName(process.platform)), cli));
    if (!plan.ok) return this.refuse(name, file, plan.refusal);
    if (!plan.changed) {
      await this.install().catch((e: unknown) => this.deps.log.warn(`hook command: ${String(e)}`));
      void say.info(vscode.l10n.t('Assistant Cards: {0} is connected already ({1}).', name, file));
      return 'already';
    }
    const diff = await this.showDiff(cli, name, file, plan);
    const connect = vscode.l10n.t('Connect');
    const accepted = await this.ask(
      vscode.l10n.t('Connect {0} to Assistant Cards?', name),
      adapter(cli).plugin
        ? pluginDetail(name, file, PERMISSION_TIMEOUT_S[cli])
        : connectDetail(name, adapter(cli).permissionEvent, adapter(cli).approveRuns, file, plan.events, PERMISSION_TIMEOUT_S[cli]),
      connect,
    );
    await this.closeDiff(diff);
    if (!accepted) { this.deps.log.info(`connect ${cli}: not accepted`); return 'cancelled'; }
    // What the person saw is what is written: a file changed meanwhile is not written (Connect again shows the new text).
    const now = await readSettings(file);
    if (!now.ok || now.text !== text) {
      void say.warn(vscode.l10n.t('Assistant Cards: {0} changed while you looked at it. Nothing was written; connect again to see the change on the new text.', file));
      return 'cancelled';
    }
    // The command first, then the settings that run it (an error: `connect` tells it, nothing else written).
    const installed = await this.install();
    if (!installed.bridge) this.deps.log.warn('this build has no dist/bridge.js: the hook command prints nothing until an update brings it');
    await writeSettings(file, plan.after);
    this.deps.log.info(`connect ${cli}: added hooks for ${plan.events.join(', ')} to ${file}`);
    void say.info(cli === 'codex'
      ? vscode.l10n.t('Assistant Cards: Codex is connected. When Codex starts next in a terminal, it asks you to review the new hooks: trust them, and its approvals come here as cards.')
      : cli === 'claude-code'
        ? vscode.l10n.t('Assistant Cards: Claude Code is connected. Sessions started from now on ask here as cards; restart a running one to connect it too.')
        : vscode.l10n.t('Assistant Cards: {0} is connected. Sessions started from now on ask here as cards; restart a running one to connect it too.', name));
    this.connectedChanged();
    return 'connected';
  }

  private async disconnectNow(cli: Cli): Promise<ConnectOutcome> {
    const { CLI_NAMES, planDisconnect, rewriteSettings, settingsFile } = await connectSettings();
    const file = settingsFile(cli, this.env);
    const name = CLI_NAMES[cli] ?? cli;
    // Planned on the text read just before the write (#52 F10): a change made meanwhile is kept.
    const plan = await rewriteSettings(file, (text) => planDisconnect(text, cli));
    if (!plan.ok) return this.refuse(name, file, plan.refusal);
    if (!plan.changed) {
      void say.info(vscode.l10n.t('Assistant Cards: {0} was not connected; {1} holds no hook of Assistant Cards.', name, file));
      return 'absent';
    }
    this.connectedChanged();
    this.deps.log.info(`disconnect ${cli}: removed hooks of ${plan.events.join(', ')} from ${file}`);
    void say.info(vscode.l10n.t('Assistant Cards: {0} is disconnected. Its hooks of Assistant Cards were taken out of {1}; the rest of the file is as it was.', name, file));
    return 'disconnected';
  }

  private refuse(name: string, file: string, r: Refusal): ConnectOutcome {
    this.deps.log.warn(`${name}: ${file} not changed: ${r.kind} ${r.detail}`);
    const open = vscode.l10n.t('Open File');
    const text = r.kind === 'unparsable'
      ? vscode.l10n.t('Assistant Cards: {0} could not be read as JSON (line {1}: {2}), so nothing was changed. Fix the file (or move it aside), then connect {3} again.', file, r.line, r.detail, name)
      : r.kind === 'duplicate'
        ? vscode.l10n.t('Assistant Cards: {0} has a key twice: {1}. {2} reads only one of them, so nothing was changed. Keep one of them, then try again.', file, r.detail, name)
        : r.kind === 'encoding'
          ? vscode.l10n.t('Assistant Cards: {0} is not UTF-8 text ({1}), so nothing was changed (writing it would lose those bytes). Save it as UTF-8, then try again.', file, r.detail)
          : vscode.l10n.t('Assistant Cards: {0} is not shaped like {1}\'s settings ({2}), so nothing was changed. Fix the file, then try again.', file, name, r.detail);
    void say.error(text, open).then((x) => { if (x) void vscode.window.showTextDocument(vscode.Uri.file(file)); });
    return 'refused';
  }

  private failed(name: string, file: string, e: unknown): ConnectOutcome {
    this.deps.log.error(`${name}: ${file}: ${String(e)}`);
    void say.error(vscode.l10n.t('Assistant Cards: could not change {0} for {1} ({2}). The log says more.', file, name, (e as Error).message ?? String(e)), vscode.l10n.t('Show Log'))
      .then((x) => { if (x) this.deps.log.show(); });
    return 'failed';
  }

  /** The settings before and after, side by side, read-only; the person reads them behind the question. */
  private async showDiff(cli: Cli, name: string, file: string, plan: Extract<Plan, { ok: true }>): Promise<vscode.Uri> {
    if (!this.providerRegistered) {
      this.providerRegistered = true;
      this._register(vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, { provideTextDocumentContent: (uri) => this.previews.get(uri.toString()) ?? '' }));
    }
    const base = path.basename(file);
    const stamp = Date.now();
    const before = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${cli}/before/${base}`, query: String(stamp) });
    const after = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${cli}/after/${base}`, query: String(stamp) });
    this.previews.set(before.toString(), plan.before);
    this.previews.set(after.toString(), plan.after);
    const title = vscode.l10n.t('{0}: before and after connecting {1}', base, name);
    try {
      await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true, preserveFocus: true });
    } catch (e) {
      this.deps.log.warn(`the settings diff did not open: ${String(e)}`);
    }
    return after;
  }

  private async closeDiff(after: vscode.Uri): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === after.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
    for (const key of [...this.previews.keys()]) if (key.startsWith(`${PREVIEW_SCHEME}:`) && key.includes(after.query)) this.previews.delete(key);
  }
}

/** What Connect writes for a CLI that runs a plugin of ours (OpenCode): a file of its own, shown whole first. */
function pluginDetail(name: string, file: string, permissionTimeoutS: number): string {
  return [
    vscode.l10n.t('Writes {0}, a plugin of Assistant Cards that {1} loads when it starts. Each permission {1} asks waits up to {2} s for your answer on a card; if none comes, {1} asks in the terminal as usual.', file, name, permissionTimeoutS),
    vscode.l10n.t('No other file changes; the editor shows the plugin first. Disconnect {0} removes the file again.', name),
  ].join('\n\n');
}

/** The modal's detail: the file, what goes in it, and that nothing else changes. */
function connectDetail(name: string, asks: string, approveRuns: boolean, file: string, events: string[], permissionTimeoutS: number): string {
  const others = events.filter((e) => e !== asks);
  const lines = [
    vscode.l10n.t('Adds to {0}, under "hooks", one hook of Assistant Cards for each of: {1}.', file, events.join(', ')),
  ];
  if (events.includes(asks)) {
    lines.push(approveRuns
      ? vscode.l10n.t('PermissionRequest waits up to {0} s for your answer on a card; if none comes, {1} asks in the terminal as usual.', permissionTimeoutS, name)
      : vscode.l10n.t('{0} waits up to {1} s for your answer on a card before {2} runs a tool that changes files, runs a command or fetches a page. Decline stops the tool; Approve lets {2} decide by its own rules, so it may still ask in the terminal.', asks, permissionTimeoutS, name));
  }
  if (others.length) lines.push(vscode.l10n.t('The others only tell Assistant Cards what the session does.'));
  lines.push(vscode.l10n.t('Nothing else in the file changes; the editor shows it before and after. Disconnect {0} takes these hooks out again.', name));
  return lines.join('\n\n');
}
