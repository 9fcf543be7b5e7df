// createClientCore: everything the editor needs from the client core, behind one object.
// It wires the HTTP client, the sign-in and the live models, owns the connection state, and is
// the only place that mints user gestures (handed to the editor's UI handlers) and sends presses.
import { randomUUID } from 'node:crypto';
import { ApiClient, NonceStore } from '../api/client';
import type { RequestAuth } from '../api/client';
import {
  ApiProblemError, HighStakesError, MalformedResponseError, NetworkError, OAuthRefusalError, VersionConflictError,
} from '../api/errors';
import { createTransport } from '../api/http';
import { ServerTime } from '../api/server-time';
import { checkServiceAddress } from '../api/service-address';
import type { HttpTransport, TransportOptions } from '../api/http';
import { Emitter, redactingLogger, silentLogger, sleep, systemClock, systemTimers } from '../api/runtime';
import type { Clock, Logger, TimerHandle, Timers } from '../api/runtime';
import type { Me, Scope } from '../api/schemas';
import { runDeviceFlow } from '../auth/device-flow';
import { DpopKey } from '../auth/dpop';
import { NotSetUpError, SignedOutError } from '../auth/errors';
import { FileLock } from '../auth/file-lock';
import { defaultMachineFile, identityFileExposure, readMachineIdentity } from '../auth/machine';
import { OAuthEndpoints } from '../auth/oauth';
import type { SecretStore } from '../auth/secret-store';
import { dropLegacySignIn, signInSlot } from '../auth/sign-in-slot';
import { REFRESH_REFUSED, TokenSet } from '../auth/token-set';
import { AssistantsModel } from './assistants-model';
import { RequestBudget } from './budget';
import { CardModel } from './card-model';
import type { ClientCore, ConnectionState, SignInOptions, SignOutReason } from './contract';
import { FeedLease, FEED_LEASE_RENEW_MS } from './feed-lease';
import { FeedLoop } from './feed-loop';
import { createGestureMinter, Press } from './press';
import type { PressAction, PressResult, SeenCard, SendContext, UserGesture } from './press';
import { PresencePinger } from './presence';
import { CardReads } from './reads';

/** Full read of cards and assistants (cards coming into reach make no change). */
export const FULL_READ_MS = 10 * 60_000;

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
  scope?: { kind: 'machine' } | { kind: 'workspace'; assistantIds: readonly string[] };
  /** Distinguishes windows in the feed-owner lease; default a random id. */
  instanceId?: string;
  /** Tests: a transport of their own (faults, counting). */
  transport?: HttpTransport;
  /** The editor's network settings (proxy, certificates); otherwise the environment's proxy. */
  transportOptions?: TransportOptions;
  /** Observes every request sent (the idle-hour bench counts limit classes with it). */
  onRequest?: (info: { method: string; path: string; waits: boolean; byPerson?: boolean }) => void;
  random?: () => number;
  /** Pace of a non-owner window's feed reads; default 30 s. */
  nonOwnerPollMs?: number;
}

export interface ClientCoreInternals {
  api: ApiClient;
  budget: RequestBudget;
  feedLoop: FeedLoop;
  model: CardModel;
}

export function createClientCore(options: ClientCoreOptions): ClientCore & { readonly internals: ClientCoreInternals } {
  return new ClientCoreImpl(options);
}

class ClientCoreImpl implements ClientCore {
  private stateValue: ConnectionState = { kind: 'signed-out' };
  private readonly stateE = new Emitter<ConnectionState>();
  readonly onDidChangeState = this.stateE.event;

  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly log: Logger;
  private readonly transport: HttpTransport;
  private readonly nonces = new NonceStore();
  private readonly budget: RequestBudget;
  private readonly serverTime: ServerTime;
  private readonly api: ApiClient;
  private readonly endpoints: OAuthEndpoints;
  private readonly model: CardModel;
  private readonly reads: CardReads;
  private readonly assistantsModel: AssistantsModel;
  private readonly pinger: PresencePinger;
  private readonly feedLoop: FeedLoop;
  private readonly lease: FeedLease;
  private readonly minter;
  private tokensReady: Promise<TokenSet> | undefined;
  private tokens: TokenSet | undefined;
  private me: Me | undefined;
  private syncing = false;
  private fullReadTimer: TimerHandle | undefined;
  private leaseTimer: TimerHandle | undefined;
  private owner = false;
  private readonly ownerE = new Emitter<boolean>();
  private disposed = false;
  private storeWatch: { dispose(): void } | undefined;
  private starting: Promise<void> | undefined;
  private loadingMe: Promise<void> | undefined;
  /** While the device flow shows its code, background sync does not overwrite that state. */
  private inDeviceFlow = false;
  /** Aborted when syncing stops, so no background wait outlives it. */
  private syncAbort = new AbortController();

  readonly cards: CardModel;
  readonly assistants: AssistantsModel;
  readonly presence;
  readonly feed;
  readonly gestures;

  constructor(private readonly o: ClientCoreOptions) {
    checkServiceAddress(o.baseUrl);
    this.clock = o.clock ?? systemClock;
    this.timers = o.timers ?? systemTimers;
    this.log = redactingLogger(o.logger ?? silentLogger);
    this.transport = o.transport ?? createTransport(o.transportOptions);
    this.budget = new RequestBudget(this.clock);
    // Proofs, the attestation and token lifetimes run on the service's time (corrected on refusal).
    this.serverTime = new ServerTime(this.clock);
    const onRequest = (info: { method: string; path: string; waits: boolean; byPerson?: boolean }) => {
      this.budget.record(info.method, info.path, info.waits, info.byPerson ?? false);
      o.onRequest?.(info);
    };
    const userAgent = `assistant-cards-vscode/${o.appVersion ?? '0.0.0'} (node ${process.version}; ${process.platform})`;
    const auth: RequestAuth = {
      accessToken: async () => (await this.tokenSet()).accessToken(),
      renewAfterRejection: async (t) => (await this.tokenSet()).renewAfterRejection(t),
      proof: async (htm, url, token, nonce) => (await this.tokenSet()).proof(htm, url, token, nonce),
    };
    this.api = new ApiClient({
      baseUrl: o.baseUrl, transport: this.transport, auth, nonces: this.nonces, clock: this.clock,
      timers: this.timers, logger: this.log, userAgent, random: o.random, onRequest, serverTime: this.serverTime,
    });
    this.endpoints = new OAuthEndpoints({
      baseUrl: o.baseUrl, clientId: o.clientId ?? 'assistant-cards-vscode', transport: this.transport,
      nonces: this.nonces, clock: this.serverTime, userAgent, onRequest,
    });
    const beforeRead = () => this.budgetWait(false);
    this.reads = new CardReads({ api: this.api, clock: this.clock, beforeBackgroundRead: (signal) => this.budgetWait(false, signal) });
    this.model = new CardModel({
      api: this.api, logger: this.log, beforeRead, syncSignal: () => this.syncAbort.signal,
      readCard: (id, r) => this.reads.read(id, r),
    });
    if (o.scope) this.model.setScope(o.scope);
    this.model.refreshHook = () => this.fullRead();
    this.model.scopeChanged(() => {
      if (this.syncing) void this.fullRead().catch(() => undefined);
    });
    this.assistantsModel = new AssistantsModel(this.api, beforeRead);
    this.assistantsModel.refreshHook = () => this.guard(() => this.assistantsModel.read());
    this.cards = this.model;
    this.assistants = this.assistantsModel;
    this.pinger = new PresencePinger((here) => this.api.presence(here), this.timers, this.log);
    this.pinger.setEnabled(false);
    this.presence = { setHere: (here: boolean) => this.pinger.setHere(here) };
    this.lease = new FeedLease(o.lockDir, o.instanceId ?? randomUUID(), this.clock);
    this.feedLoop = new FeedLoop({
      api: this.api, model: this.model, timers: this.timers, logger: this.log,
      isOwner: () => this.owner,
      beforeRead: (waits, signal) => this.budgetWait(waits, signal),
      canWait: () => this.budget.delayFor(['wait']) === 0,
      personActive: () => this.reads.personActive(),
      onSuccess: () => this.markOnline(),
      onFailure: (e) => this.handleFailure(e),
      onCursorLost: () => void this.fullRead().catch(() => undefined),
      random: o.random,
      nonOwnerPollMs: o.nonOwnerPollMs,
    });
    this.feed = {
      setFocused: (focused: boolean) => void this.setFocused(focused),
      isOwner: () => this.owner,
      onDidChangeOwner: this.ownerE.event,
    };
    this.minter = createGestureMinter(this.clock);
    this.gestures = this.minter;
    if (o.secretStore.onDidChange) {
      this.storeWatch = o.secretStore.onDidChange(({ key }) => {
        if (this.tokens && key === this.tokens.storeKey) void this.onTokensChanged();
      });
    }
  }

  get internals(): ClientCoreInternals {
    return { api: this.api, budget: this.budget, feedLoop: this.feedLoop, model: this.model };
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  // ---- sign-in ----

  start(): Promise<void> {
    this.starting ??= (async () => {
      let tokens: TokenSet;
      try {
        tokens = await this.tokenSet();
      } catch (e) {
        if (!(e instanceof NotSetUpError)) throw e;
        this.setState({ kind: 'not-set-up', reason: e.message });
        return;
      }
      if (await tokens.load()) await this.startSync();
      else this.setState({ kind: 'signed-out' });
    })().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async signIn(options: SignInOptions = {}): Promise<Me> {
    let tokens: TokenSet;
    try {
      tokens = await this.tokenSet();
    } catch (e) {
      if (e instanceof NotSetUpError && !this.syncing) this.setState({ kind: 'not-set-up', reason: e.message });
      throw e;
    }
    const machineFile = this.o.machineFile ?? defaultMachineFile();
    const before = this.stateValue;
    this.inDeviceFlow = true;
    try {
      const t = await runDeviceFlow({
        baseUrl: this.o.baseUrl, endpoints: this.endpoints, key: tokens.key, machineFile,
        scopes: this.o.scopes ?? DEFAULT_SCOPES, clock: this.serverTime, timers: this.timers, logger: this.log,
        signal: options.signal,
        onProgress: (p) => {
          if (p.step === 'code') {
            this.setState({ kind: 'signing-in', userCode: p.userCode, verificationUri: p.verificationUri, verificationUriComplete: p.verificationUriComplete });
          }
          options.onProgress?.(p);
        },
      });
      await tokens.adopt(t); // persisted before first use
      this.inDeviceFlow = false;
    } catch (e) {
      this.inDeviceFlow = false;
      if (e instanceof NotSetUpError && !this.syncing) this.setState({ kind: 'not-set-up', reason: e.message });
      // A failed or cancelled sign-in leaves things as they were (a window still signed in stays so).
      else if (this.stateValue.kind === 'signing-in') this.setState(before.kind === 'signing-in' ? { kind: 'signed-out' } : before);
      throw e;
    }
    this.log.info('signed in');
    if (this.syncing) {
      // Signed in again in a window that was signed in: same sync, new grant.
      this.me = await this.api.me().catch(() => this.me);
      this.allowPresence();
      if (this.me) this.setState({ kind: 'online', me: this.me });
    }
    await this.startSync();
    // Signed in and stored; the state shows offline and clears itself once the service answers.
    if (!this.me) throw new NetworkError(`${this.o.baseUrl}/v1/me`, 'signed in, but the service could not be reached to confirm it');
    return this.me;
  }

  async signOut(): Promise<void> {
    await this.pinger.dispose();
    await this.stopSync();
    const tokens = await this.tokenSet();
    await tokens.signOut('signed out by the person');
    this.afterSignOut('person');
  }

  // ---- presses ----

  press(gesture: UserGesture, card: SeenCard, action: PressAction): Press {
    // The model's word counts too: a caller that left the flag out still cannot act on it.
    const held = this.model.get(card.id);
    const heldUrl = held && 'url' in held ? held.url : undefined;
    const seen = held?.highStakes && !card.highStakes ? { ...card, highStakes: true, url: card.url ?? heldUrl } : card;
    return Press.create(gesture, seen, action, (c, a, ctx) => this.sendPress(c, a, ctx), this.clock);
  }

  private async sendPress(card: SeenCard, action: PressAction, ctx: SendContext): Promise<PressResult> {
    // The reads of this card that follow are the person's, not background work.
    this.reads.pressed(card.id);
    // Only an answer (Got it too) is checked by the service against the version; the other
    // actions are checked here so nothing acts on a card version the person has not seen.
    const held = this.model.get(card.id);
    if (held && held.version > card.version && action.type !== 'answer' && action.type !== 'gotIt') {
      const fresh = await this.reads.read(card.id, { byPerson: true }).catch(() => undefined);
      throw new VersionConflictError(card.id, fresh, new ApiProblemError({
        type: `${this.o.baseUrl}/docs/api/errors#version_conflict`, title: 'The card changed', status: 409,
        code: 'version_conflict', detail: `The card is at version ${held.version}; you saw ${card.version}.`, requestId: 'rid_client',
      }, `${this.o.baseUrl}/v1/cards/${card.id}`));
    }
    const w = { idempotencyKey: ctx.idempotencyKey, stillWaiting: ctx.stillWaiting, signal: ctx.signal };
    try {
      let result: PressResult;
      switch (action.type) {
        case 'answer':
          result = await this.api.answer(card.id, { ...action.answer, version: card.version }, w);
          break;
        case 'gotIt':
          result = await this.api.answer(card.id, { version: card.version }, w);
          break;
        case 'undo':
          result = await this.api.undo(card.id, w);
          break;
        case 'message':
          result = await this.api.message(card.id, { body: action.body, via: action.via }, w);
          break;
        case 'later':
          result = await this.api.later(card.id, { until: action.until, timeZone: action.timeZone }, w);
          break;
        case 'back':
          result = await this.api.back(card.id, w);
          break;
        case 'delegate':
          result = await this.api.delegate(card.id, { to: action.to, mode: action.mode, note: action.note }, w);
          break;
        case 'takeBack':
          result = await this.api.takeBack(card.id, w);
          break;
      }
      this.markOnline();
      // Show the outcome at once (the feed will say so too; this window may not own it).
      void this.model.applyChanges([{ type: 'card.changed', cardId: card.id, at: '' }], { byPerson: true }).catch(() => undefined);
      return result;
    } catch (e) {
      if (e instanceof ApiProblemError && e.code === 'version_conflict') {
        const fresh = await this.reads.read(card.id, { byPerson: true }).catch(() => undefined);
        if (fresh) this.model.upsert(fresh);
        throw new VersionConflictError(card.id, fresh, e);
      }
      if (e instanceof ApiProblemError && e.code === 'high_stakes') throw new HighStakesError(card.id, e.url);
      if (e instanceof NetworkError) this.handleFailure(e);
      throw e;
    }
  }

  // ---- syncing ----

  private async startSync(): Promise<void> {
    if (this.syncing || this.disposed) return;
    this.syncing = true;
    this.syncAbort = new AbortController();
    try {
      this.me = await this.api.me();
      this.allowPresence();
      this.markOnline();
      await this.feedLoop.begin();
      await this.fullReadNow();
    } catch (e) {
      this.handleFailure(e);
      if (!this.syncing) return;
    }
    this.feedLoop.start();
    this.scheduleFullRead();
    this.scheduleLease(0);
  }

  /** Presence pings only when the person allowed presence:desk (else each ping would be refused). */
  private allowPresence(): void {
    this.pinger.setEnabled(this.syncing && !!this.me?.grant.scopes.includes('presence:desk'));
  }

  private async stopSync(): Promise<void> {
    this.syncing = false;
    this.syncAbort.abort();
    this.fullReadTimer?.cancel();
    this.leaseTimer?.cancel();
    this.pinger.setEnabled(false);
    await this.feedLoop.stop();
  }

  private async fullRead(): Promise<void> {
    await this.guard(() => this.fullReadNow());
  }

  private async fullReadNow(): Promise<void> {
    await this.model.fullRead();
    await this.assistantsModel.read().catch((e: unknown) => {
      // Without assistants:read the cards still work.
      if (!(e instanceof OAuthRefusalError)) throw e;
    });
    this.markOnline();
  }

  private scheduleFullRead(): void {
    this.fullReadTimer?.cancel();
    this.fullReadTimer = this.timers.setTimeout(() => {
      if (!this.syncing) return;
      void this.fullRead().catch(() => undefined).finally(() => {
        if (this.syncing) this.scheduleFullRead();
      });
    }, FULL_READ_MS);
  }

  /** Runs a read, turning failures into connection state (and re-throwing). */
  private async guard(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
      this.markOnline();
    } catch (e) {
      this.handleFailure(e);
      throw e;
    }
  }

  private async budgetWait(waits: boolean, signal?: AbortSignal): Promise<void> {
    const d = this.budget.delayFor(waits ? ['wait', 'person'] : ['read', 'person']);
    if (d > 0) {
      this.log.info('background reads paused to stay inside the limits', { delayMs: d });
      await sleep(this.timers, d, signal ?? this.syncAbort.signal);
    }
  }

  private markOnline(): void {
    if (!this.syncing) return;
    if (!this.me) {
      // Started while offline: learn who we are before saying "online".
      this.loadingMe ??= this.api.me().then(
        (me) => {
          this.me = me;
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
    if (this.stateValue.kind !== 'online' && !this.inDeviceFlow) {
      const wasOffline = this.stateValue.kind === 'offline';
      this.setState({ kind: 'online', me: this.me });
      // Back from offline: read everything once (cards that came into reach make no change).
      if (wasOffline) void this.fullRead().catch(() => undefined);
    }
  }

  private handleFailure(e: unknown): void {
    const appRemoved = e instanceof ApiProblemError && e.code === 'app_not_available';
    const reason: SignOutReason = appRemoved ? 'app-removed' : 'refused';
    if (appRemoved || e instanceof SignedOutError || (e instanceof OAuthRefusalError && (e.error === 'invalid_token' || e.error === 'invalid_grant'))) {
      // invalid_token after a renewed token: the sign-in was revoked (or replaced) on the service.
      // app_not_available: the person removed this app; every request would be refused.
      if (!this.syncing) return;
      void this.stopSync()
        .then(async () => {
          if (!(e instanceof SignedOutError)) await this.tokens?.signOut(reason);
        })
        .finally(() => this.afterSignOut(reason));
      return;
    }
    if (e instanceof NetworkError || e instanceof MalformedResponseError || (e instanceof ApiProblemError && e.status >= 500)) {
      if (this.stateValue.kind !== 'offline' && !this.inDeviceFlow && this.syncing) {
        this.setState({ kind: 'offline', since: this.clock.now(), lastError: e.message });
      }
      return;
    }
    this.log.warn('sync step failed', { error: e instanceof Error ? e.message : String(e) });
  }

  private afterSignOut(reason: SignOutReason): void {
    this.me = undefined;
    this.model.clear();
    this.assistantsModel.clear();
    this.api.clearCache();
    this.feedLoop.forget();
    this.setState({ kind: 'signed-out', reason });
  }

  /** Another window signed in or out (the store tells). */
  private async onTokensChanged(): Promise<void> {
    if (this.disposed) return;
    const tokens = await this.tokenSet();
    const signedIn = await tokens.load();
    if (!signedIn && this.syncing) {
      await this.stopSync();
      // This window's own refresh may be what the service refused; else another window signed out.
      this.afterSignOut(tokens.lastSignOutReason === REFRESH_REFUSED ? 'refused' : 'elsewhere');
    } else if (signedIn && !this.syncing && this.stateValue.kind === 'signed-out') {
      await this.startSync();
    }
  }

  // ---- feed ownership ----

  private async setFocused(focused: boolean): Promise<void> {
    if (focused) {
      await this.lease.claim().catch((e: unknown) => this.log.warn('feed lease claim failed', { error: String(e) }));
      this.setOwner(true);
    }
  }

  private setOwner(owner: boolean): void {
    if (owner === this.owner) return;
    this.owner = owner;
    this.ownerE.fire(owner);
    this.feedLoop.poke(); // end the current wait: long-poll now, or stop long-polling
  }

  private scheduleLease(ms = FEED_LEASE_RENEW_MS): void {
    this.leaseTimer?.cancel();
    this.leaseTimer = this.timers.setTimeout(() => void this.checkLease(), ms);
  }

  private async checkLease(): Promise<void> {
    if (!this.syncing) return;
    try {
      if (this.owner) this.setOwner(await this.lease.renew());
      else this.setOwner(await this.lease.claimIfFree());
    } catch (e) {
      this.log.warn('feed lease check failed', { error: String(e) });
    }
    if (this.syncing) this.scheduleLease();
  }

  // ---- plumbing ----

  private tokenSet(): Promise<TokenSet> {
    this.tokensReady ??= (async () => {
      // The sign-in belongs to this service and this computer (see sign-in-slot.ts).
      const machineFile = this.o.machineFile ?? defaultMachineFile();
      const identity = await readMachineIdentity(machineFile);
      const exposed = await identityFileExposure(machineFile);
      if (exposed) this.log.warn(exposed);
      const slot = signInSlot(this.o.baseUrl, identity.id);
      await dropLegacySignIn(this.o.secretStore, this.log);
      const lock = FileLock.in(this.o.lockDir, slot.lockName);
      const key = await DpopKey.loadOrCreate(this.o.secretStore, slot.dpopKeyKey, lock);
      this.tokens = new TokenSet({
        store: this.o.secretStore, slot, endpoints: this.endpoints, key, clock: this.serverTime, logger: this.log, lock,
      });
      return this.tokens;
    })();
    // A missing identity file is not remembered: setting the computer up later must work.
    this.tokensReady.catch(() => {
      this.tokensReady = undefined;
    });
    return this.tokensReady;
  }

  private setState(s: ConnectionState): void {
    this.stateValue = s;
    this.stateE.fire(s);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.pinger.dispose();
    this.disposed = true;
    await this.stopSync();
    await this.lease.release().catch(() => undefined);
    this.storeWatch?.dispose();
    this.model.dispose();
    this.assistantsModel.dispose();
    this.stateE.clear();
    this.ownerE.clear();
    await this.transport.close();
  }
}
