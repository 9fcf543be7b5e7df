// createClientCore: everything the editor needs from the client core, behind one object. This is
// the composition root: it wires the service link, the models, the feed, the read schedule, feed
// ownership and press sending, runs the sign-in, and keeps the connection state (reducer in
// connection-state.ts). It is the only place that mints user gestures (handed to the editor's UI
// handlers); presses are sent by press-sending.ts.
import { randomUUID } from 'node:crypto';
import { ApiProblemError, MalformedResponseError, NetworkError, OAuthRefusalError } from '../api/errors';
import type { HttpTransport, TransportOptions } from '../api/http';
import { Emitter, redactingLogger, silentLogger, systemClock, systemTimers } from '../api/runtime';
import type { Clock, Logger, Timers } from '../api/runtime';
import { checkServiceAddress } from '../api/service-address';
import type { Me, Scope } from '../api/schemas';
import { runDeviceFlow } from '../auth/device-flow';
import { NotSetUpError, SignedOutError } from '../auth/errors';
import type { SecretStore } from '../auth/secret-store';
import { REFRESH_REFUSED } from '../auth/token-set';
import type { TokenSet } from '../auth/token-set';
import { AssistantsModel } from './assistants-model';
import { RequestBudget } from './budget';
import { CardModel } from './card-model';
import { INITIAL_CONNECTION, nextConnection } from './connection-state';
import type { Connection, ConnectionEvent } from './connection-state';
import type { CardScope, ClientCore, ConnectionState, FeedOwnership, SignInOptions, SignOutReason } from './contract';
import { FeedLease } from './feed-lease';
import { BURST_READS_KEPT, FeedLoop } from './feed-loop';
import { FeedOwner } from './feed-ownership';
import { createGestureMinter } from './press';
import type { Press, PressAction, SeenCard, UserGesture } from './press';
import { PressSending } from './press-sending';
import { PresencePinger } from './presence';
import { ReadSchedule } from './read-schedule';
import { CardReads } from './reads';
import { createServiceClient } from './service-client';
import type { RequestObserver, ServiceClient } from './service-client';

export const DEFAULT_SCOPES: readonly Scope[] = [
  'cards:read', 'cards:answer', 'cards:reply', 'cards:later', 'cards:delegate', 'assistants:read', 'presence:desk',
];

export interface ClientCoreOptions {
  /** `{base_url}`, no trailing slash (setting assistantCards.baseUrl). */
  baseUrl: string;
  /** Where the DPoP key and tokens live (vscode SecretStorage in the editor, a file in tests). */
  secretStore: SecretStore;
  /** Computer identity file; default per DESIGN (~/.config/assistant-cards/machine.json, %APPDATA% on Windows). */
  machineFile?: string;
  /** Shared folder for the cross-window locks (refresh lock, feed-owner lease): the global storage dir. */
  lockDir: string;
  clock?: Clock;
  timers?: Timers;
  logger?: Logger;
  clientId?: string; // default 'assistant-cards-vscode'
  scopes?: readonly Scope[]; // default DEFAULT_SCOPES
  appVersion?: string; // for User-Agent
  /** Initial scope of the card model; default workspace with no assistants until the editor tells. */
  scope?: CardScope;
  /** Distinguishes windows in the feed-owner lease; default a random id. */
  instanceId?: string;
  /** Tests: a transport of their own (faults, counting). */
  transport?: HttpTransport;
  /** The editor's network settings (proxy, certificates); otherwise the environment's proxy. */
  transportOptions?: TransportOptions;
  /** Observes every request sent (the idle-hour bench counts limit classes with it). */
  onRequest?: RequestObserver;
  random?: () => number;
  /** Pace of a non-owner window's feed reads; default 30 s. */
  nonOwnerPollMs?: number;
}

export function createClientCore(options: ClientCoreOptions): ClientCore {
  return new ClientCoreImpl(options);
}

class ClientCoreImpl implements ClientCore {
  private connection: Connection = INITIAL_CONNECTION;
  private readonly stateE = new Emitter<ConnectionState>();
  readonly onDidChangeState = this.stateE.event;

  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly log: Logger;
  private readonly link: ServiceClient;
  private readonly budget: RequestBudget;
  private readonly model: CardModel;
  private readonly reads: CardReads;
  private readonly assistantsModel: AssistantsModel;
  private readonly pinger: PresencePinger;
  private readonly feedLoop: FeedLoop;
  private readonly owner: FeedOwner;
  private readonly schedule: ReadSchedule;
  private readonly presses: PressSending;
  private disposed = false;
  private storeWatch: { dispose(): void } | undefined;
  private starting: Promise<void> | undefined;
  private loadingMe: Promise<void> | undefined;

  readonly cards: CardModel;
  readonly assistants: AssistantsModel;
  readonly presence;
  readonly feed: FeedOwnership;
  readonly gestures;

  constructor(private readonly o: ClientCoreOptions) {
    checkServiceAddress(o.baseUrl);
    this.clock = o.clock ?? systemClock;
    this.timers = o.timers ?? systemTimers;
    this.log = redactingLogger(o.logger ?? silentLogger);
    this.budget = new RequestBudget(this.clock);
    this.link = createServiceClient({
      baseUrl: o.baseUrl, secretStore: o.secretStore, machineFile: o.machineFile, lockDir: o.lockDir,
      clock: this.clock, timers: this.timers, logger: this.log, clientId: o.clientId, appVersion: o.appVersion,
      transport: o.transport, transportOptions: o.transportOptions, random: o.random,
      onRequest: (info) => {
        this.budget.record(info.method, info.path, info.waits, info.byPerson ?? false);
        o.onRequest?.(info);
      },
    });
    const api = this.link.api;
    this.schedule = new ReadSchedule({
      budget: this.budget, timers: this.timers, logger: this.log,
      readCards: () => this.model.fullRead(),
      readAssistants: () => this.assistantsModel.read(),
      onSuccess: () => this.markOnline(),
      onFailure: (e) => this.handleFailure(e),
    });
    const beforeRead = () => this.schedule.budgetWait(false);
    this.reads = new CardReads({ api, clock: this.clock, beforeBackgroundRead: (signal) => this.schedule.budgetWait(false, signal) });
    this.model = new CardModel({
      api, logger: this.log, beforeRead, syncSignal: () => this.schedule.signal,
      readCard: (id, r) => this.reads.read(id, r),
      refresh: () => this.schedule.fullRead(),
    });
    if (o.scope) this.model.setScope(o.scope);
    this.model.scopeChanged(() => {
      if (this.connection.syncing) void this.schedule.fullRead().catch(() => undefined);
    });
    this.assistantsModel = new AssistantsModel({
      api, beforeRead, refresh: () => this.schedule.guard(() => this.assistantsModel.read()),
    });
    this.cards = this.model;
    this.assistants = this.assistantsModel;
    this.pinger = new PresencePinger((here) => api.presence(here), this.timers, this.log);
    this.pinger.setEnabled(false);
    this.presence = { setHere: (here: boolean) => this.pinger.setHere(here) };
    this.owner = new FeedOwner({
      lease: new FeedLease(o.lockDir, o.instanceId ?? randomUUID(), this.clock), timers: this.timers, logger: this.log,
      onChange: () => this.feedLoop.poke(), // end the current wait: long-poll now, or stop long-polling
    });
    this.feed = this.owner;
    this.feedLoop = new FeedLoop({
      api, model: this.model, timers: this.timers, logger: this.log,
      isOwner: () => this.owner.isOwner(),
      beforeRead: (waits, signal) => this.schedule.budgetWait(waits, signal),
      canWait: () => this.budget.delayFor(['wait']) === 0,
      // A burst reads quickly only while it leaves room in the reads share for the cards themselves.
      canPollQuickly: () => this.budget.backgroundLeft('read') > BURST_READS_KEPT && this.budget.backgroundLeft('person') > BURST_READS_KEPT,
      personActive: () => this.reads.personActive(),
      onSuccess: () => this.markOnline(),
      onFailure: (e) => this.handleFailure(e),
      onCursorLost: () => void this.schedule.fullRead().catch(() => undefined),
      random: o.random,
      nonOwnerPollMs: o.nonOwnerPollMs,
    });
    this.presses = new PressSending({
      baseUrl: o.baseUrl, api, model: this.model, reads: this.reads, clock: this.clock,
      onSent: () => this.markOnline(),
      onNetworkFailure: (e) => this.handleFailure(e),
    });
    this.gestures = createGestureMinter(this.clock);
    if (o.secretStore.onDidChange) {
      this.storeWatch = o.secretStore.onDidChange(({ key }) => {
        if (this.link.tokens && key === this.link.tokens.storeKey) void this.onTokensChanged();
      });
    }
  }

  get state(): ConnectionState {
    return this.connection.shown;
  }

  start(): Promise<void> {
    this.starting ??= (async () => {
      let tokens: TokenSet;
      try {
        tokens = await this.link.tokenSet();
      } catch (e) {
        if (!(e instanceof NotSetUpError)) throw e;
        this.dispatch({ type: 'not-set-up', reason: e.message });
        return;
      }
      if (await tokens.load()) await this.startSync();
      else this.dispatch({ type: 'no-sign-in' });
    })().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async signIn(options: SignInOptions = {}): Promise<Me> {
    let tokens: TokenSet;
    try {
      tokens = await this.link.tokenSet();
    } catch (e) {
      if (e instanceof NotSetUpError) this.dispatch({ type: 'not-set-up', reason: e.message });
      throw e;
    }
    const before = this.connection.shown;
    this.dispatch({ type: 'device-flow-started' });
    try {
      const t = await runDeviceFlow({
        baseUrl: this.o.baseUrl, endpoints: this.link.endpoints, key: tokens.key, machineFile: this.link.machineFile,
        scopes: this.o.scopes ?? DEFAULT_SCOPES, clock: this.link.serverTime, timers: this.timers, logger: this.log,
        signal: options.signal,
        onProgress: (p) => {
          if (p.step === 'code') {
            this.dispatch({ type: 'device-code', userCode: p.userCode, verificationUri: p.verificationUri, verificationUriComplete: p.verificationUriComplete });
          }
          options.onProgress?.(p);
        },
      });
      await tokens.adopt(t); // persisted before first use
      this.dispatch({ type: 'device-flow-done' });
    } catch (e) {
      this.dispatch({ type: 'device-flow-failed', before, notSetUp: e instanceof NotSetUpError ? e.message : undefined });
      throw e;
    }
    this.log.info('signed in');
    if (this.connection.syncing) {
      // Signed in again in a window that was signed in: same sync, new grant.
      this.dispatch({ type: 'signed-in-again', me: await this.link.api.me().catch(() => undefined) });
      this.allowPresence();
    }
    await this.startSync();
    // Signed in and stored; the state shows offline and clears itself once the service answers.
    const me = this.connection.me;
    if (!me) throw new NetworkError(`${this.o.baseUrl}/v1/me`, 'signed in, but the service could not be reached to confirm it');
    return me;
  }

  async signOut(): Promise<void> {
    await this.pinger.dispose();
    await this.stopSync();
    const tokens = await this.link.tokenSet();
    await tokens.signOut('signed out by the person');
    this.afterSignOut('person');
  }

  press(gesture: UserGesture, card: SeenCard, action: PressAction): Press {
    return this.presses.press(gesture, card, action);
  }

  private async startSync(): Promise<void> {
    if (this.connection.syncing || this.disposed) return;
    this.dispatch({ type: 'sync-started' });
    this.schedule.begin();
    try {
      this.dispatch({ type: 'me', me: await this.link.api.me() });
      this.allowPresence();
      this.markOnline();
      await this.feedLoop.begin();
      await this.schedule.fullReadNow();
    } catch (e) {
      this.handleFailure(e);
      if (!this.connection.syncing) return;
    }
    this.feedLoop.start();
    this.schedule.schedule();
    this.owner.start();
  }

  /** Presence pings only when the person allowed presence:desk (else each ping would be refused). */
  private allowPresence(): void {
    this.pinger.setEnabled(this.connection.syncing && !!this.connection.me?.grant.scopes.includes('presence:desk'));
  }

  private async stopSync(): Promise<void> {
    this.dispatch({ type: 'sync-stopped' });
    this.schedule.stop();
    this.owner.stop();
    this.pinger.setEnabled(false);
    await this.feedLoop.stop();
  }

  private markOnline(): void {
    if (!this.connection.syncing) return;
    if (!this.connection.me) {
      // Started while offline: learn who we are before saying "online".
      this.loadingMe ??= this.link.api.me().then(
        (me) => {
          this.dispatch({ type: 'me', me });
          this.allowPresence();
          this.loadingMe = undefined;
          this.markOnline();
        },
        (e: unknown) => {
          this.loadingMe = undefined;
          this.handleFailure(e);
        },
      );
      return;
    }
    const wasOffline = this.connection.shown.kind === 'offline';
    const shown = this.dispatch({ type: 'service-answered' });
    // Back from offline: read everything once (cards that came into reach make no change).
    if (wasOffline && shown.kind === 'online') void this.schedule.fullRead().catch(() => undefined);
  }

  private handleFailure(e: unknown): void {
    const appRemoved = e instanceof ApiProblemError && e.code === 'app_not_available';
    const reason: SignOutReason = appRemoved ? 'app-removed' : 'refused';
    if (appRemoved || e instanceof SignedOutError || (e instanceof OAuthRefusalError && (e.error === 'invalid_token' || e.error === 'invalid_grant'))) {
      // invalid_token after a renewed token: the sign-in was revoked (or replaced) on the service.
      // app_not_available: the person removed this app; every request would be refused.
      if (!this.connection.syncing) return;
      void this.stopSync()
        .then(async () => {
          if (!(e instanceof SignedOutError)) await this.link.tokens?.signOut(reason);
        })
        .finally(() => this.afterSignOut(reason));
      return;
    }
    if (e instanceof NetworkError || e instanceof MalformedResponseError || (e instanceof ApiProblemError && e.status >= 500)) {
      this.dispatch({ type: 'service-unreachable', at: this.clock.now(), message: e.message });
      return;
    }
    this.log.warn('sync step failed', { error: e instanceof Error ? e.message : String(e) });
  }

  private afterSignOut(reason: SignOutReason): void {
    this.model.clear();
    this.assistantsModel.clear();
    this.link.api.clearCache();
    this.feedLoop.forget();
    this.dispatch({ type: 'signed-out', reason });
  }

  /** Another window signed in or out (the store tells). */
  private async onTokensChanged(): Promise<void> {
    if (this.disposed) return;
    const tokens = await this.link.tokenSet();
    const signedIn = await tokens.load();
    if (!signedIn && this.connection.syncing) {
      await this.stopSync();
      // This window's own refresh may be what the service refused; else another window signed out.
      this.afterSignOut(tokens.lastSignOutReason === REFRESH_REFUSED ? 'refused' : 'elsewhere');
    } else if (signedIn && !this.connection.syncing && this.connection.shown.kind === 'signed-out') {
      await this.startSync();
    }
  }

  /** Moves the connection state on; tells the editor when what the person sees changed. */
  private dispatch(e: ConnectionEvent): ConnectionState {
    const before = this.connection.shown;
    this.connection = nextConnection(this.connection, e);
    if (this.connection.shown !== before) this.stateE.fire(this.connection.shown);
    return this.connection.shown;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.pinger.dispose();
    this.disposed = true;
    await this.stopSync();
    await this.owner.dispose();
    this.storeWatch?.dispose();
    this.model.dispose();
    this.assistantsModel.dispose();
    this.stateE.clear();
    await this.link.transport.close();
  }
}
