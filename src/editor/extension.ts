// Activation, and the loop that rebuilds the live set of parts when the settings change. Cheap and
// synchronous: the status bar, the commands, the auth provider and the views are set up at once;
// the client core is built and started after, so activate() stays fast. One live set exists per
// service address (live-parts.ts builds it); when the address, the computer identity or the network
// settings change it is rebuilt. The three tree views are made once, at activation, and outlive every
// live set (tree-view-slot.ts says why).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { say } from './base/say';
import type { Me } from '../api/schemas';
import { redact as redactFacts } from '../api/runtime';
import type { ClientCore, ConnectionState, Counts } from '../sync';
import { CardsAuthProvider } from './sign-in/auth-provider';
import { CardPanelManager } from './panel/card-panel-manager';
import { CardUriHandler } from './panel/card-uri-handler';
import type { Node as CardsTreeNode } from './cards/cards-tree';
import type { AnswersNode } from './answers/answers-view';
import type { AssistantsTreeNode } from './assistants/assistants-view';
import type { AssistantsFeature } from './assistants/assistants-feature';
import { registerCommands } from './commands';
import { CONTEXT, ContextKeys, stateKey } from './context-keys';
import type { LiveParts } from './live-parts';
import { isSignedIn } from './signed-in';
import { DEMO_TERMINALS_ENV } from './assistants/demo-terminals';
import { publicApi, type AssistantCardsApi } from './public-api';
import { createLog, type Log } from './base/log';
import { setLocale, setTranslator } from '../shared/l10n';
import { affectsNetwork, networkKey, networkSettings } from './connection/network-settings';
import { SandboxLauncher } from './connection/sandbox-launcher';
import { forgetDeadSandbox, sandboxOf, whileSandboxLives, type SandboxProcess } from './connection/sandbox-alive';
import { createTransport } from '../api/http';
import { vscodeSecretStore } from './sign-in/secret-storage';
import { machineFile, resolveBaseUrl, startingScope, watchMachineFile } from './connection/service-settings';
import { signInFlow, startSandboxAskedFlow, startSandboxFlow, type SetupHost } from './sign-in/setup-flows';
import { plainText, shownCode } from '../shared/plain-text';
import { CardsStatusBar } from './cards/status-bar';
import { registerCardLinks } from './assistants/terminal-links';
import { TreeViewSlot } from './base/tree-view-slot';
import { CliConnector } from './connect/cli-connector';

export const systemTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The extension's state, reachable from tests through the exported API. */
export class App implements vscode.Disposable {
  readonly log: Log;
  readonly status: CardsStatusBar;
  readonly auth: CardsAuthProvider;
  readonly launcher: SandboxLauncher;
  readonly cardsView: TreeViewSlot<CardsTreeNode>;
  readonly assistantsView: TreeViewSlot<AssistantsTreeNode>;
  /** The card panels and their serializer: from activation on, lent each live set's core. */
  readonly panels: CardPanelManager;
  readonly answersView: TreeViewSlot<AnswersNode>;
  /** The window's context keys, set by this activation's parts only. */
  readonly contextKeys = new ContextKeys();
  /** Card links into the editor (`vscode://assistant-cards.assistant-cards/card?id=…`): they open, never act. */
  readonly cardLinks: CardUriHandler;
  /** Connect and Disconnect of Claude Code and Codex (their hook entries and the hook command). */
  readonly connector: CliConnector;
  /** The live set of parts of the current client core; none while not set up. */
  live: LiveParts | undefined;
  private readonly secrets;
  private readonly setup: SetupHost;
  private reauthPrompt: Thenable<unknown> | undefined;
  private lastState: ConnectionState = { kind: 'signed-out' };
  private rebuilding: Promise<void> = Promise.resolve();
  /** The demo terminals `npm start` asks for open once per extension host, with the first core. */
  private demoTerminalsAsked = false;
  private waiting = 0;
  /** Addresses whose sandbox was found gone in this window: not called again unless a live sandbox's file names them (#37). */
  private readonly goneSandboxes = new Set<string>();
  private readonly waitingChanged = new vscode.EventEmitter<number>();

  constructor(readonly ctx: vscode.ExtensionContext) {
    this.log = createLog();
    this.status = new CardsStatusBar();
    this.secrets = vscodeSecretStore(ctx.secrets);
    // The sandbox ended: its address left its identity file; the window stops calling that port now (#37).
    this.launcher = new SandboxLauncher(ctx.extensionUri, this.log, path.join(ctx.globalStorageUri.fsPath, 'sandbox'), () => void this.refreshState());
    this.auth = new CardsAuthProvider({ current: () => this.live?.core, signIn: () => this.signIn() });
    this.cardsView = new TreeViewSlot<CardsTreeNode>('assistantCards.cards');
    this.assistantsView = new TreeViewSlot<AssistantsTreeNode>('assistantCards.assistants');
    this.panels = new CardPanelManager({ log: this.log, extensionUri: ctx.extensionUri, workspaceState: ctx.workspaceState, contextKeys: this.contextKeys });
    this.answersView = new TreeViewSlot<AnswersNode>('assistantCards.answers');
    this.connector = new CliConnector({ log: this.log, extensionPath: ctx.extensionUri.fsPath, version: extensionVersion(ctx) });
    this.cardLinks = new CardUriHandler({
      log: this.log,
      signedIn: () => !!this.live && isSignedIn(this.live.core.state),
      openCard: (id, opts) => this.openCard(id, opts),
      signIn: () => this.signIn(),
    });
    this.setup = {
      log: this.log, launcher: this.launcher, live: () => this.live,
      settled: () => this.rebuilding, refreshState: () => this.refreshState(),
    };
    ctx.subscriptions.push(
      this.cardsView, this.assistantsView, this.panels, this.answersView, this.waitingChanged, this.connector,
      this, this.log, this.status, this.auth, this.launcher, this.secrets,
      ...registerCommands({
        log: this.log,
        live: () => this.live,
        openCard: (id, opts) => this.openCard(id, opts),
        signIn: () => this.signIn(),
        signOut: () => this.signOut(),
        refreshState: () => this.refreshState(),
        // The command (any extension or link can run it): confirmed while another service is in use (#37).
        startSandbox: () => startSandboxAskedFlow(this.setup),
        timeZone: systemTimeZone,
        contextKeys: this.contextKeys,
        cli: this.connector,
      }),
      watchMachineFile(() => void this.refreshState()),
      registerCardLinks((id) => this.openCard(id)),
      this.cardLinks.register(),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // assistantCards.scope is followed by the live set's ScopeController, without a rebuild.
        if (e.affectsConfiguration('assistantCards.baseUrl') || e.affectsConfiguration('assistantCards.machineFile') || affectsNetwork(e)) void this.refreshState();
      }),
    );
  }

  /** `preserveFocus`: shown without taking the keyboard (when the person did not ask for it). */
  openCard(id: string, opts: { preserveFocus?: boolean } = {}): void {
    this.panels.open(id, vscode.ViewColumn.Active, opts.preserveFocus ?? false);
  }

  signIn(): Promise<Me | undefined> {
    return signInFlow(this.setup);
  }

  async signOut(): Promise<void> {
    await this.live?.core.signOut();
    this.auth.update({ kind: 'signed-out' });
    this.log.info('signed out');
  }

  startSandbox(): Promise<void> {
    return startSandboxFlow(this.setup);
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
    // A sandbox's address is called only while the process its identity file names lives (#37);
    // a new sandbox at the same address (a new process) is a new live set.
    const sandbox = baseUrl ? sandboxOf(file, baseUrl) : undefined;
    const key = `${baseUrl ?? ''}|${file}|${fs.existsSync(file)}|${networkKey(network)}|${sandbox?.pid ?? ''}`;
    if (this.live && this.live.key === key) return;
    void this.live?.dispose();
    this.live = undefined;
    if (!baseUrl || !fs.existsSync(file)) {
      this.log.info(baseUrl ? `not set up: no identity file at ${file}` : 'not set up: no service address and no identity file');
      // No client core: the views are empty already (the old live set let go of them); the welcome says why.
      this.onState({ kind: 'not-set-up', reason: 'missing' });
      return;
    }
    if (!sandbox && this.goneSandboxes.has(baseUrl)) {
      // The setting still names a sandbox found gone, and no live sandbox's file vouches for the
      // address again: whatever listens there now is not called (#37).
      this.log.warn(`not calling ${baseUrl}: the local sandbox there has ended; start one again, or change assistantCards.baseUrl`);
      this.onState({ kind: 'offline', since: Date.now(), lastError: vscode.l10n.t('the local sandbox at {0} has stopped', plainText(baseUrl, 100)) });
      return;
    }
    // The client core and its live set load here, on the first live set, never in activate() (live-core.ts).
    const { createClientCore, identityFileExposure, InsecureAddressError, LiveParts, openDemoTerminals } = await import('./live-core.js');
    let core: ClientCore;
    try {
      core = createClientCore({
        baseUrl, secretStore: this.secrets, machineFile: file, transportOptions: network,
        ...(sandbox ? {
          transport: whileSandboxLives((beforeConnect) => createTransport({ ...network, beforeConnect }), sandbox, () => this.sandboxGone(file, baseUrl, sandbox, key),
            vscode.l10n.t('the local sandbox (process {0}) has ended; this window no longer calls its address', sandbox.pid)),
        } : {}),
        lockDir: this.ctx.globalStorageUri.fsPath,
        appVersion: extensionVersion(this.ctx),
        logger: {
          info: (m, facts) => this.log.info(withFacts(m, facts)),
          warn: (m, facts) => this.log.warn(withFacts(m, facts)),
          error: (m, facts) => this.log.error(withFacts(m, facts)),
        },
        scope: startingScope(),
      });
    } catch (e) {
      this.log.error(`client core: ${String(e)}`);
      // An http: address to another computer is the person's to fix: say so, not just "offline".
      if (e instanceof InsecureAddressError) void say.error(vscode.l10n.t('Assistant Cards: {0}', e.message));
      this.onState({ kind: 'offline', since: Date.now(), lastError: (e as Error).message });
      return;
    }
    // The core logs it when it reads the file; the person is told here.
    void identityFileExposure(file).then((warning) => {
      if (warning) void say.warn(vscode.l10n.t('Assistant Cards: {0}', warning));
    });
    this.log.info(`service ${baseUrl}`);
    this.live = new LiveParts({
      log: this.log, cardsView: this.cardsView, assistantsView: this.assistantsView, panels: this.panels, answersView: this.answersView,
      openCard: (id) => this.openCard(id), onState: (s) => this.onState(s), onCounts: (c) => this.onCounts(c), timeZone: systemTimeZone, contextKeys: this.contextKeys,
    }, core, key);
    if (!this.demoTerminalsAsked) {
      this.demoTerminalsAsked = true;
      openDemoTerminals(this.log, process.env[DEMO_TERMINALS_ENV], this.ctx);
    }
  }

  /**
   * The sandbox serving this window's address is gone (another window's, `npm start`'s, or one
   * killed outright): nothing more was sent there; its address leaves the identity file (every
   * window watching it looks again) and the person is told why the cards went.
   */
  private sandboxGone(file: string, baseUrl: string, sandbox: SandboxProcess, key: string): void {
    this.goneSandboxes.add(baseUrl);
    const blanked = forgetDeadSandbox(file, baseUrl, sandbox);
    this.log.warn(`the local sandbox at ${baseUrl} (process ${sandbox.pid}) has ended: this window stopped calling it${blanked ? `; its address left ${file}` : ''}`);
    if (this.live && this.live.key !== key) return; // a live set made since (a new sandbox) has nothing to tell
    void say.warn(vscode.l10n.t('Assistant Cards: the local sandbox at {0} has stopped. This window no longer calls that address.', plainText(baseUrl, 100)));
    void this.refreshState();
  }

  /** What waits on the person: the status bar, and the public API's count. */
  private onCounts(c: Counts): void {
    this.status.setCounts(c);
    if (c.waiting !== this.waiting) { this.waiting = c.waiting; this.waitingChanged.fire(c.waiting); }
  }

  /** The read-only API other extensions get (public-api.ts). */
  publicApi(): AssistantCardsApi {
    return publicApi({
      waiting: () => (this.live && isSignedIn(this.live.core.state) ? this.waiting : 0),
      onDidChangeWaiting: this.waitingChanged.event,
      holds: (id) => !!this.live?.core.cards.get(id),
      open: (id) => {
        if (!this.live || !isSignedIn(this.live.core.state)) return false;
        this.openCard(id, { preserveFocus: true });
        return true;
      },
    });
  }

  private onState(s: ConnectionState): void {
    const prev = this.lastState;
    this.lastState = s;
    this.contextKeys.set(CONTEXT.state, stateKey(s));
    this.status.setState(s);
    this.auth.update(s);
    // The code in the view's header, above the welcome's Copy and Open and Cancel (a welcome's
    // words cannot change, and a view message would hide the welcome).
    if (s.kind === 'signing-in') this.cardsView.view.description = vscode.l10n.t('code {0}', shownCode(s.userCode));
    else if (prev.kind === 'signing-in') this.cardsView.view.description = undefined;
    if (s.kind !== prev.kind) this.log.info(`state ${stateKey(s)}`);
    // The service ended the sign-in while in use, or a renewal's answer was lost (possibly while
    // offline): prompt once, however many requests failed. A sign-out the person made (here or in
    // another window) needs no telling. Only the service's refusals are told as ended by it.
    const ended = s.kind === 'signed-out' && (s.reason === 'refused' || s.reason === 'app-removed' || s.reason === 'renewal-lost');
    const wasIn = prev.kind === 'online' || (prev.kind === 'offline' && s.kind === 'signed-out' && s.reason === 'renewal-lost');
    if (wasIn && ended && !this.reauthPrompt) {
      const text = s.reason === 'app-removed'
        ? vscode.l10n.t('Assistant Cards: this app was removed from your account, so the service refuses it. Sign in again to allow it.')
        : s.reason === 'renewal-lost'
          ? vscode.l10n.t('Assistant Cards: the connection dropped while renewing your sign-in, so it could not be kept. Sign in again to keep seeing your cards.')
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

const extensionVersion = (ctx: vscode.ExtensionContext): string => String((ctx.extension.packageJSON as { version?: unknown }).version ?? '0');

/** The core's log line with its facts; log.ts redacts the whole line again. */
function withFacts(message: string, facts?: Record<string, unknown>): string {
  if (!facts || Object.keys(facts).length === 0) return message;
  try { return `${message} ${JSON.stringify(redactFacts(facts))}`; } catch { return message; }
}

/**
 * The handle the extension-host tests get, and only they: `activate()` returns it when VS Code
 * runs the extension in its test mode (extensionTestsPath). Everywhere else, other extensions get
 * the read-only `AssistantCardsApi` and nothing that reaches the context, the secrets or the core.
 */
export interface ExtensionApi extends AssistantCardsApi {
  app: App;
  /** The assistants feature of the live set (assistants view, terminals, scope, presence), if any. */
  assistants(): AssistantsFeature | undefined;
}

/** True only in the extension-host tests' build (esbuild.mjs --test-handle); false in every release. */
declare const __TEST_HANDLE__: boolean;

/** What `deactivate` ends; set by `activate`. Module state on purpose: VS Code calls deactivate with nothing else. */
let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): AssistantCardsApi {
  // The words of the code shared with the card panel (src/shared) in VS Code's language.
  setTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  setLocale(vscode.env.language);
  const app = new App(context);
  shutdown = () => app.dispose();
  void app.refreshState();
  // A hook command installed before is brought up to date in the background (never awaited here).
  app.connector.refreshInstalled();
  const api = app.publicApi();
  if (context.extensionMode !== vscode.ExtensionMode.Test && !__TEST_HANDLE__) return api;
  const forTests: ExtensionApi = { ...api, app, assistants: () => app.live?.assistants };
  return forTests;
}

/** VS Code waits for the returned promise on shutdown: presence ends and the feed lease is freed. */
export function deactivate(): Promise<void> | undefined {
  const end = shutdown;
  shutdown = undefined;
  return end?.();
}
