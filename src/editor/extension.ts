// Activation, the composition root: the status bar, the commands, the auth provider and the views
// are made at once, cheap and synchronous; the client core is built and started after, so
// activate() stays fast. One live set exists per service address (live-build.ts builds it from the
// settings, live-parts.ts is the set); when the address, the computer identity or the network
// settings change it is rebuilt. The three tree views are made once, at activation, and outlive
// every live set (tree-view-slot.ts says why). What the window shows of the live set's state and
// counts: connection/state-shown.ts, cards/waiting-count.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Me } from '../api/schemas';
import { CardsAuthProvider } from './sign-in/auth-provider';
import { CardPanelManager } from './panel/card-panel-manager';
import { CardUriHandler } from './panel/card-uri-handler';
import type { Node as CardsTreeNode } from './cards/cards-tree';
import type { AnswersNode } from './answers/answers-view';
import type { AssistantsTreeNode } from './assistants/assistants-view';
import type { AssistantsFeature } from './assistants/assistants-feature';
import { registerCommands } from './commands';
import { CONTEXT, ContextKeys } from './context-keys';
import { say } from './base/say';
import type { LiveParts } from './live-parts';
import { LiveBuilder } from './live-build';
import { isSignedIn } from './signed-in';
import { publicApi, type AssistantCardsApi } from './public-api';
import { createLog, type Log } from './base/log';
import { setLocale, setTranslator } from '../shared/l10n';
import { affectsNetwork } from './connection/network-settings';
import { SandboxLauncher } from './connection/sandbox-launcher';
import { StateShown } from './connection/state-shown';
import { vscodeSecretStore } from './sign-in/secret-storage';
import { watchMachineFile } from './connection/service-settings';
import { signInFlow, startSandboxAskedFlow, startSandboxFlow, type SetupHost } from './sign-in/setup-flows';
import { CardsStatusBar } from './cards/status-bar';
import { WaitingCount } from './cards/waiting-count';
import { registerCardLinks } from './assistants/terminal-links';
import { TreeViewSlot } from './base/tree-view-slot';
import { CliConnector } from './connect/cli-connector';
import { ConnectedClis } from './connect/connected-clis';
import { LocalServiceHandle } from './connection/local-service-handle';
import { localServiceHome } from '../bridge/home';
import { machineFile, resolveBaseUrl } from './connection/service-settings';

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
  /** Connect and Disconnect of each assistant CLI (src/bridge/clis/: its hook entries or plugin, and the hook command). */
  readonly connector: CliConnector;
  /** The CLIs connected now: rows of the Assistants view (#54). */
  readonly connectedClis = new ConnectedClis();
  /** The person's local service: its commands, its start when needed, the sign-ins allowed here (#51). */
  readonly localService: LocalServiceHandle;
  /** The live set of parts of the current client core; none while not set up. */
  live: LiveParts | undefined;
  private readonly setup: SetupHost;
  private readonly builder: LiveBuilder;
  private readonly waiting: WaitingCount;
  private readonly state: StateShown;
  private rebuilding: Promise<void> = Promise.resolve();

  constructor(readonly ctx: vscode.ExtensionContext) {
    this.log = createLog();
    this.status = new CardsStatusBar();
    this.waiting = new WaitingCount(this.status);
    const secrets = vscodeSecretStore(ctx.secrets);
    // The sandbox ended: its address left its identity file; the window stops calling that port now (#37).
    this.launcher = new SandboxLauncher(ctx.extensionUri, this.log, path.join(ctx.globalStorageUri.fsPath, 'sandbox'), () => void this.refreshState());
    this.auth = new CardsAuthProvider({ current: () => this.live?.core, signIn: () => this.signIn() });
    this.cardsView = new TreeViewSlot<CardsTreeNode>('assistantCards.cards');
    this.assistantsView = new TreeViewSlot<AssistantsTreeNode>('assistantCards.assistants');
    this.panels = new CardPanelManager({ log: this.log, extensionUri: ctx.extensionUri, workspaceState: ctx.workspaceState, contextKeys: this.contextKeys });
    this.answersView = new TreeViewSlot<AnswersNode>('assistantCards.answers');
    this.connector = new CliConnector({
      log: this.log, extensionPath: ctx.extensionUri.fsPath, version: extensionVersion(ctx),
      onConnected: (clis) => {
        this.connectedClis.set(clis);
        const on = this.connectedClis.connectedIds();
        this.contextKeys.set(CONTEXT.connectedClis, on.join(' '));
        this.contextKeys.set(CONTEXT.allClisConnected, on.length === clis.length);
      },
    });
    this.cardLinks = new CardUriHandler({
      log: this.log,
      signedIn: () => !!this.live && isSignedIn(this.live.core.state),
      openCard: (id, opts) => this.openCard(id, opts),
      signIn: () => this.signIn(),
    });
    this.localService = new LocalServiceHandle({
      home: localServiceHome(), log: this.log, extensionUri: ctx.extensionUri,
      setKey: (value) => this.contextKeys.set(CONTEXT.localService, value), machineFile, say, vscode,
      signedIn: () => !!this.live && isSignedIn(this.live.core.state),
      setUpElsewhere: () => resolveBaseUrl(machineFile()) !== undefined && !this.launcher.owns(machineFile()),
      refreshState: () => this.refreshState(),
      signIn: () => this.signIn(),
      showMessage: (text) => { this.cardsView.view.message = text; },
    });
    this.state = new StateShown({ log: this.log, contextKeys: this.contextKeys, status: this.status, auth: this.auth, cardsView: this.cardsView, signIn: () => this.signIn() });
    this.builder = new LiveBuilder({
      ctx, secrets, appVersion: extensionVersion(ctx), live: () => this.live, refreshState: () => this.refreshState(),
      parts: {
        log: this.log, cardsView: this.cardsView, assistantsView: this.assistantsView, connectedClis: this.connectedClis, panels: this.panels, answersView: this.answersView,
        openCard: (id) => this.openCard(id), onState: (s) => { this.state.show(s); this.localService.onState(s); }, onCounts: (c) => this.waiting.set(c), timeZone: systemTimeZone, contextKeys: this.contextKeys,
      },
    });
    this.setup = {
      log: this.log, launcher: this.launcher, live: () => this.live,
      settled: () => this.rebuilding, refreshState: () => this.refreshState(),
    };
    ctx.subscriptions.push(
      this.cardsView, this.assistantsView, this.connectedClis, this.panels, this.answersView, this.waiting, this.connector,
      this, this.log, this.status, this.auth, this.launcher, this.localService, secrets,
      ...registerCommands({
        log: this.log,
        live: () => this.live,
        openCard: (id, opts) => this.openCard(id, opts),
        signIn: () => this.signIn(),
        signOut: () => this.signOut(),
        refreshState: () => this.refreshState(),
        // The command (any extension or link can run it): confirmed while another service is in use (#37).
        startSandbox: () => startSandboxAskedFlow(this.setup),
        localService: this.localService,
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

  /** One live set per service address, computer identity and network settings (live-build.ts). */
  private async rebuild(): Promise<void> {
    const wanted = this.builder.wanted();
    // Kept for the same settings, unless its core found the file unusable: a tool rewriting it in
    // place (truncate, then write) can be read half-written, and the next change must read it again.
    if (this.live && this.live.key === wanted.key && this.live.core.state.kind !== 'not-set-up') return;
    void this.live?.dispose();
    this.live = undefined;
    this.live = await this.builder.build(wanted);
  }

  /** The read-only API other extensions get (public-api.ts). */
  publicApi(): AssistantCardsApi {
    return publicApi({
      waiting: () => (this.live && isSignedIn(this.live.core.state) ? this.waiting.waiting : 0),
      onDidChangeWaiting: this.waiting.onDidChange,
      holds: (id) => !!this.live?.core.cards.get(id),
      open: (id) => {
        if (!this.live || !isSignedIn(this.live.core.state)) return false;
        this.openCard(id, { preserveFocus: true });
        return true;
      },
    });
  }

  dispose(): Promise<void> {
    const done = this.live?.dispose() ?? Promise.resolve();
    this.live = undefined;
    return done;
  }
}

const extensionVersion = (ctx: vscode.ExtensionContext): string => String((ctx.extension.packageJSON as { version?: unknown }).version ?? '0');

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
