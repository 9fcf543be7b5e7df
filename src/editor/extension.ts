// Activation. Cheap and synchronous: the status bar, the commands, the auth provider and the views
// are set up at once; the client core is built and started after, so activate() stays fast.
// One "live" set (core + tree + panels + notifier + features) exists per service address; when the
// address or the computer identity changes it is rebuilt. The two tree views are made once, at
// activation, and outlive every live set (tree-view-slot.ts says why).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { say } from './say';
import type { Me } from '../api/schemas';
import { redact as redactFacts } from '../api/runtime';
import { createClientCore, identityFileExposure, InsecureAddressError, type ClientCore, type ConnectionState } from '../sync';
import { CardsAuthProvider } from './auth-provider';
import { CardPanels, registerCardPanelRevival } from './card-panel';
import { CardsTree, type Node as CardsTreeNode } from './cards-tree';
import type { AssistantsTreeNode } from './assistants-view';
import { DEMO_TERMINALS_ENV, openDemoTerminals } from './demo-terminals';
import { ASSISTANTS_HANDLERS, assistantsFeature, registerAssistantsFeature, type AssistantsFeature } from './assistants-feature';
import { registerCommands } from './commands';
import { CONTEXT, setContext, stateKey } from './context-keys';
import { createLog, type Log } from './log';
import { setLocale, setTranslator } from './shared/l10n';
import { affectsNetwork, networkKey, networkSettings } from './network-settings';
import { CardNotifier } from './notifier';
import { OfflineNotice } from './offline-notice';
import { SandboxLauncher } from './sandbox-launcher';
import { vscodeSecretStore } from './secret-storage';
import { signInInteractive } from './sign-in';
import { CardsStatusBar } from './status-bar';
import { registerCardLinks } from './terminal-links';
import { TreeViewSlot } from './tree-view-slot';
import { allowedNow, registerGrantFeature } from './grant';

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

/** What a feature that lives as long as one client core receives (issue 6 plugs in here). */
export interface FeatureContext {
  extension: vscode.ExtensionContext;
  core: ClientCore;
  log: Log;
  tree: CardsTree;
  /** The Assistants view (made once); a feature's tree shows in it through `show`. */
  assistantsView: TreeViewSlot<AssistantsTreeNode>;
  openCard(id: string, opts?: { preserveFocus?: boolean }): void;
}
export type CoreFeature = (ctx: FeatureContext) => vscode.Disposable;

/**
 * Features built per client core. Issue 6 adds its registration here, e.g.
 *   registerAssistantsFeature,   // src/editor/assistants.ts: assistants view, terminals, presence
 * A feature that registers the assistants view must be listed so the placeholder below stays away.
 */
let demoTerminalsAsked = false;
export const CORE_FEATURES: CoreFeature[] = [
  // Issue 6: assistants view, terminal matching, workspace scope, presence.
  (ctx) => registerAssistantsFeature(ctx.core, ctx.log, ctx.assistantsView),
  // What the sign-in may do: command enablement and the views' note (scopes the person did not allow).
  (ctx) => registerGrantFeature(ctx),
  // The demo terminals `npm start` asks for.
  (ctx) => {
    // Once per extension host, not once per client core.
    if (!demoTerminalsAsked) { demoTerminalsAsked = true; openDemoTerminals(ctx.log, process.env[DEMO_TERMINALS_ENV], ctx.extension); }
    return { dispose: () => undefined };
  },
];

/** The baseUrl to use: the setting, else the identity file's. Undefined when neither is there. */
function resolveBaseUrl(file: string): string | undefined {
  const configured = vscode.workspace.getConfiguration('assistantCards').get<string>('baseUrl')?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { baseUrl?: unknown };
    return typeof parsed.baseUrl === 'string' ? parsed.baseUrl.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

/** Everything bound to one client core. */
class Live implements vscode.Disposable {
  readonly tree: CardsTree;
  readonly panels: CardPanels;
  readonly notifier: CardNotifier;
  readonly offline: OfflineNotice;
  /** The silent sign-in at start; an interactive sign-in waits for it so the two never race. */
  started: Promise<void> = Promise.resolve();
  private readonly subs: vscode.Disposable[] = [];

  constructor(readonly core: ClientCore, readonly key: string, app: App) {
    this.tree = new CardsTree(core.cards, app.log, app.cardsView, () => core.state.kind === 'online' || core.state.kind === 'offline');
    this.panels = new CardPanels({
      core, log: app.log, extensionUri: app.ctx.extensionUri, workspaceState: app.ctx.workspaceState,
      timeZone: systemTimeZone, online: () => core.state.kind === 'online', allowed: () => allowedNow(core),
    });
    this.notifier = new CardNotifier(core, (id) => app.openCard(id), app.log);
    this.offline = new OfflineNotice(core, this.tree, () => this.notifier.here());
    this.subs.push(
      this.tree, this.panels, this.notifier, this.offline,
      { dispose: core.cards.countsChanged((c) => { app.status.setCounts(c); this.updateNoCards(); }).dispose },
      { dispose: core.cards.added(() => this.updateNoCards()).dispose },
      { dispose: core.cards.removed(() => this.updateNoCards()).dispose },
      vscode.window.onDidChangeWindowState((s) => core.feed.setFocused(s.focused)),
    );
    core.feed.setFocused(vscode.window.state.focused);
    const featureCtx: FeatureContext = {
      extension: app.ctx, core, log: app.log, tree: this.tree, assistantsView: app.assistantsView, openCard: (id) => app.openCard(id),
    };
    for (const f of CORE_FEATURES) {
      try { this.subs.push(f(featureCtx)); } catch (e) { app.log.error(`feature failed to start: ${String(e)}`); }
    }
    app.status.setCounts(core.cards.counts());
  }

  updateNoCards(): void {
    const c = this.core.cards;
    const none = (['pending', 'agent', 'snoozed', 'delegated'] as const).every((g) => c.list(g).length === 0);
    setContext(CONTEXT.noCards, none);
  }

  /** Resolves once the core said `here: false` and let go of the feed lease (awaited on shutdown). */
  dispose(): Promise<void> {
    for (const d of this.subs.splice(0).reverse()) { try { d.dispose(); } catch { /* keep going */ } }
    return this.core.dispose().catch(() => undefined);
  }

  /** Listeners on the core that must end with this instance (a late event must not reach a newer one). */
  own(d: vscode.Disposable): void {
    this.subs.push(d);
  }
}

export const systemTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The extension's state, reachable from tests through the exported API. */
export class App implements vscode.Disposable {
  readonly log: Log;
  readonly status: CardsStatusBar;
  readonly auth: CardsAuthProvider;
  readonly launcher: SandboxLauncher;
  readonly cardsView: TreeViewSlot<CardsTreeNode>;
  readonly assistantsView: TreeViewSlot<AssistantsTreeNode>;
  live: Live | undefined;
  private readonly secrets;
  private reauthPrompt: Thenable<unknown> | undefined;
  private lastState: ConnectionState = { kind: 'signed-out' };
  private rebuilding: Promise<void> = Promise.resolve();

  constructor(readonly ctx: vscode.ExtensionContext) {
    this.log = createLog();
    this.status = new CardsStatusBar();
    this.secrets = vscodeSecretStore(ctx.secrets);
    this.launcher = new SandboxLauncher(ctx.extensionUri, this.log, path.join(ctx.globalStorageUri.fsPath, 'sandbox'));
    this.auth = new CardsAuthProvider({ current: () => this.live?.core, signIn: () => this.signIn() });
    this.cardsView = new TreeViewSlot<CardsTreeNode>('assistantCards.cards');
    this.assistantsView = new TreeViewSlot<AssistantsTreeNode>('assistantCards.assistants');
    ctx.subscriptions.push(
      this.cardsView, this.assistantsView,
      this, this.log, this.status, this.auth, this.launcher, this.secrets,
      ...registerCommands({
        log: this.log,
        core: () => this.live?.core,
        tree: () => this.live?.tree,
        openCard: (id, opts) => this.openCard(id, opts),
        signIn: () => this.signIn(),
        signOut: () => this.signOut(),
        refreshState: () => this.refreshState(),
        startSandbox: () => this.startSandbox(),
        timeZone: systemTimeZone,
      }, ASSISTANTS_HANDLERS),
      this.watchMachineFile(),
      registerCardLinks((id) => this.openCard(id)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // assistantCards.scope is followed by issue 6's ScopeController.
        if (e.affectsConfiguration('assistantCards.baseUrl') || e.affectsConfiguration('assistantCards.machineFile') || affectsNetwork(e)) void this.refreshState();
      }),
    );
  }

  /** The identity file appearing or going away (set up elsewhere, or removed) rebuilds the core. */
  private machineWatcher: vscode.Disposable | undefined;
  private watchMachineFile(): vscode.Disposable {
    const watch = () => {
      this.machineWatcher?.dispose();
      const file = machineFile();
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      const again = () => void this.refreshState();
      this.machineWatcher = vscode.Disposable.from(w, w.onDidCreate(again), w.onDidDelete(again));
    };
    watch();
    const sub = vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('assistantCards.machineFile')) watch(); });
    return { dispose: () => { sub.dispose(); this.machineWatcher?.dispose(); } };
  }

  /** `preserveFocus`: shown without taking the keyboard (when the person did not ask for it). */
  openCard(id: string, opts: { preserveFocus?: boolean } = {}): void {
    this.live?.panels.open(id, vscode.ViewColumn.Active, opts.preserveFocus ?? false);
  }

  async signIn(): Promise<Me | undefined> {
    await this.rebuilding;
    if (!this.live) {
      await this.refreshState();
      if (!this.live) {
        const pick = await say.warn(
          vscode.l10n.t('Assistant Cards: this computer is not set up (no computer identity file, or no service address).'),
          vscode.l10n.t('Start Local Sandbox'), vscode.l10n.t('Open Settings'));
        if (pick === vscode.l10n.t('Start Local Sandbox')) await this.startSandbox();
        if (pick === vscode.l10n.t('Open Settings')) void vscode.commands.executeCommand('workbench.action.openSettings', 'assistantCards');
        return undefined;
      }
    }
    await this.live.started;
    if (this.live.core.state.kind === 'online') return this.live.core.state.me;
    const me = await signInInteractive(this.live.core, this.log);
    if (me) void vscode.authentication.getSession('assistant-cards', [], { silent: true }).then(undefined, () => undefined);
    return me;
  }

  async signOut(): Promise<void> {
    await this.live?.core.signOut();
    this.auth.update({ kind: 'signed-out' });
    this.log.info('signed out');
  }

  async startSandbox(): Promise<void> {
    try {
      const { url, machineFile: identity } = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Assistant Cards: starting the local sandbox') },
        () => this.launcher.start(machineFile()),
      );
      const cfg = vscode.workspace.getConfiguration('assistantCards');
      await cfg.update('baseUrl', url, vscode.ConfigurationTarget.Global);
      // The person's identity of a real service stays as it is; the sandbox made one of its own.
      if (path.resolve(identity) !== path.resolve(machineFile())) await cfg.update('machineFile', identity, vscode.ConfigurationTarget.Global);
      await this.refreshState();
      const pick = await say.info(vscode.l10n.t('Assistant Cards: the local sandbox runs at {0} and this computer is set up for it.', url), vscode.l10n.t('Sign In'));
      if (pick) await this.signIn();
    } catch (e) {
      this.log.error(`sandbox: ${String(e)}`);
      void say.error(vscode.l10n.t('Assistant Cards: the local sandbox did not start: {0}. See the log.', (e as Error).message), vscode.l10n.t('Show Log'))
        .then((p) => { if (p) this.log.show(); });
    }
  }

  /** (Re)builds the core when the service address or the identity file changed. */
  refreshState(): Promise<void> {
    this.rebuilding = this.rebuilding.then(() => this.rebuild()).catch((e: unknown) => this.log.error(`rebuild: ${String(e)}`));
    return this.rebuilding;
  }

  private async rebuild(): Promise<void> {
    const file = machineFile();
    const baseUrl = resolveBaseUrl(file);
    const network = networkSettings();
    const key = `${baseUrl ?? ''}|${file}|${fs.existsSync(file)}|${networkKey(network)}`;
    if (this.live && this.live.key === key) return;
    void this.live?.dispose();
    this.live = undefined;
    if (!baseUrl || !fs.existsSync(file)) {
      this.log.info(baseUrl ? `not set up: no identity file at ${file}` : 'not set up: no service address and no identity file');
      this.showNoCore({ kind: 'not-set-up', reason: 'missing' });
      return;
    }
    let core: ClientCore;
    try {
      core = createClientCore({
        baseUrl, secretStore: this.secrets, machineFile: file, transportOptions: network,
        lockDir: this.ctx.globalStorageUri.fsPath,
        appVersion: String((this.ctx.extension.packageJSON as { version?: unknown }).version ?? '0'),
        logger: {
          info: (m, facts) => this.log.info(withFacts(m, facts)),
          warn: (m, facts) => this.log.warn(withFacts(m, facts)),
          error: (m, facts) => this.log.error(withFacts(m, facts)),
        },
        scope: scopeSetting(),
      });
    } catch (e) {
      this.log.error(`client core: ${String(e)}`);
      // An http: address to another computer is the person's to fix: say so, not just "offline".
      if (e instanceof InsecureAddressError) void say.error(vscode.l10n.t('Assistant Cards: {0}', e.message));
      this.showNoCore({ kind: 'offline', since: Date.now(), lastError: (e as Error).message });
      return;
    }
    // The core logs it when it reads the file; the person is told here.
    void identityFileExposure(file).then((warning) => {
      if (warning) void say.warn(vscode.l10n.t('Assistant Cards: {0}', warning));
    });
    const live = new Live(core, key, this);
    this.live = live;
    live.own(core.onDidChangeState((s) => { this.onState(s); live.updateNoCards(); live.tree.refreshAll(); }));
    this.onState(core.state);
    this.log.info(`service ${baseUrl}`);
    // Silent sign-in: stored tokens only, never a prompt.
    live.started = core.start().catch((e: unknown) => this.log.warn(`start: ${String(e)}`));
  }

  /** No client core: the views are empty already (the old live set let go of them); the welcome says why. */
  private showNoCore(state: ConnectionState): void {
    this.onState(state);
  }

  private onState(s: ConnectionState): void {
    const prev = this.lastState;
    this.lastState = s;
    setContext(CONTEXT.state, stateKey(s));
    this.status.setState(s);
    this.auth.update(s);
    if (s.kind !== prev.kind) this.log.info(`state ${stateKey(s)}`);
    // The service ended the sign-in while in use: prompt once, however many requests failed.
    // A sign-out the person made (here or in another window) needs no telling.
    const ended = s.kind === 'signed-out' && (s.reason === 'refused' || s.reason === 'app-removed');
    if (prev.kind === 'online' && ended && !this.reauthPrompt) {
      const text = s.reason === 'app-removed'
        ? vscode.l10n.t('Assistant Cards: this app was removed from your account, so the service refuses it. Sign in again to allow it.')
        : vscode.l10n.t('Assistant Cards: your sign-in ended. Sign in again to keep seeing your cards.');
      this.reauthPrompt = say.warn(text, vscode.l10n.t('Sign In'))
        .then((p) => { if (p) void this.signIn(); })
        .then(() => { this.reauthPrompt = undefined; }, () => { this.reauthPrompt = undefined; });
    }
  }

  dispose(): Promise<void> {
    const done = this.live?.dispose() ?? Promise.resolve();
    this.live = undefined;
    return done;
  }
}

/** The core's log line with its facts; log.ts redacts the whole line again. */
function withFacts(message: string, facts?: Record<string, unknown>): string {
  if (!facts || Object.keys(facts).length === 0) return message;
  try { return `${message} ${JSON.stringify(redactFacts(facts))}`; } catch { return message; }
}

function scopeSetting(): { kind: 'machine' } | { kind: 'workspace'; assistantIds: readonly string[] } {
  // The starting scope; issue 6's ScopeController sets the matched assistants of this window.
  return vscode.workspace.getConfiguration('assistantCards').get<string>('scope') === 'machine'
    ? { kind: 'machine' }
    : { kind: 'workspace', assistantIds: [] };
}

let app: App | undefined;

/** The API the extension returns: for the extension-host tests only. */
export interface ExtensionApi {
  app: App;
  /** Issue 6's feature of the current client core (assistants view, terminals, scope, presence). */
  assistants(): AssistantsFeature | undefined;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  // The words of the code shared with the card panel (src/editor/shared) in VS Code's language.
  setTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  setLocale(vscode.env.language);
  context.subscriptions.push(registerCardPanelRevival());
  app = new App(context);
  void app.refreshState();
  return { app, assistants: assistantsFeature };
}

/** VS Code waits for the returned promise on shutdown: presence ends and the feed lease is freed. */
export function deactivate(): Promise<void> | undefined {
  const a = app;
  app = undefined;
  return a?.dispose();
}
