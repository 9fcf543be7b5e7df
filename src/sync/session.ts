// The client core: the one object the editor holds. It moves its parts (built and wired in
// core-parts.ts) through the connection's life: start, sign in (device flow), sync, going offline
// and back, sign-out (the person's, another window's, or the service's refusal). The connection
// state is a pure reducer (connection-state.ts); this file turns what happened into its events.
// It is the only place that mints user gestures (handed to the editor's UI handlers); presses are
// sent by press-sending.ts.
import { ApiProblemError, MalformedResponseError, NetworkError, OAuthRefusalError } from '../api/errors';
import { Emitter, redactingLogger, silentLogger, systemClock, systemTimers } from '../api/runtime';
import type { Clock, Logger, Timers } from '../api/runtime';
import { checkServiceAddress } from '../api/service-address';
import type { Me, Scope } from '../api/schemas';
import { runDeviceFlow } from '../auth/device-flow';
import { NotSetUpError, SignedOutError } from '../auth/errors';
import { REFRESH_REFUSED, RENEWAL_LOST } from '../auth/token-set';
import type { TokenSet } from '../auth/token-set';
import type { AssistantsModel } from './assistants-model';
import type { AnswersModel } from './answers-model';
import type { Card } from '../api/schemas';
import type { CardModel } from './card-model';
import { INITIAL_CONNECTION, nextConnection } from './connection-state';
import type { Connection, ConnectionEvent } from './connection-state';
import type { ActOptions, ClientCore, ConnectionState, FeedOwnership, PressOutcome, SignInOptions, SignOutReason } from './contract';
import { buildCoreParts } from './core-parts';
import type { ClientCoreOptions, CoreParts } from './core-parts';
import { createGestureMinter } from './press';
import type { Press, PressAction, SeenCard, UserGesture } from './press';

export type { ClientCoreOptions } from './core-parts';

export const DEFAULT_SCOPES: readonly Scope[] = [
  'cards:read', 'cards:answer', 'cards:reply', 'cards:later', 'cards:delegate', 'assistants:read', 'presence:desk',
];

export function createClientCore(options: ClientCoreOptions): ClientCore {
  return new ClientCoreImpl(options);
}

/**
 * A Press made outside the one path (`act`), for the tests that hold the press's own rules (one
 * request, one key, cancel, high stakes refused before any request). Not in the contract and not
 * exported from sync/index, so the editor cannot reach it (eslint-rules/layers.mjs).
 * @internal
 */
export function pressOutsideThePath(core: ClientCore, gesture: UserGesture, card: SeenCard, action: PressAction): Press {
  if (!(core instanceof ClientCoreImpl)) throw new TypeError('Not a client core made by createClientCore');
  return core.press(gesture, card, action);
}

class ClientCoreImpl implements ClientCore {
  private connection: Connection = INITIAL_CONNECTION;
  private readonly stateE = new Emitter<ConnectionState>();
  readonly onDidChangeState = this.stateE.event;

  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly log: Logger;
  private readonly parts: CoreParts;
  private disposed = false;
  private storeWatch: { dispose(): void } | undefined;
  private starting: Promise<void> | undefined;
  private loadingMe: Promise<void> | undefined;

  readonly cards: CardModel;
  readonly assistants: AssistantsModel;
  readonly answers: AnswersModel;
  readonly presence;
  readonly feed: FeedOwnership;
  readonly gestures;

  constructor(private readonly o: ClientCoreOptions) {
    checkServiceAddress(o.baseUrl);
    this.clock = o.clock ?? systemClock;
    this.timers = o.timers ?? systemTimers;
    this.log = redactingLogger(o.logger ?? silentLogger);
    this.parts = buildCoreParts(o, { clock: this.clock, timers: this.timers, log: this.log }, {
      isSyncing: () => this.connection.syncing,
      serviceAnswered: () => this.markOnline(),
      failed: (e) => this.handleFailure(e),
      signedInAs: () => {
        const me = this.connection.me;
        return me && { app: { id: me.app.id, name: me.app.name }, ...(me.grant.machine ? { machine: me.grant.machine } : {}) };
      },
    });
    this.cards = this.parts.model;
    this.assistants = this.parts.assistants;
    this.answers = this.parts.answers;
    this.presence = { setHere: (here: boolean) => this.parts.pinger.setHere(here) };
    this.feed = this.parts.owner;
    this.gestures = createGestureMinter(this.clock);
    if (o.secretStore.onDidChange) {
      this.storeWatch = o.secretStore.onDidChange(({ key }) => {
        if (this.parts.link.tokens && key === this.parts.link.tokens.storeKey) void this.onTokensChanged();
      });
    }
  }

  get state(): ConnectionState {
    return this.connection.shown;
  }

  /** The periodic full reads (every 10 minutes) begun so far: the bench counts a prompt's own reads apart from them. */
  get periodicFullReads(): number {
    return this.parts.schedule.periodicReads;
  }

  start(): Promise<void> {
    this.starting ??= (async () => {
      let tokens: TokenSet;
      try {
        tokens = await this.parts.link.tokenSet();
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
      tokens = await this.parts.link.tokenSet();
    } catch (e) {
      if (e instanceof NotSetUpError) this.dispatch({ type: 'not-set-up', reason: e.message });
      throw e;
    }
    const before = this.connection.shown;
    this.dispatch({ type: 'device-flow-started' });
    try {
      const t = await runDeviceFlow({
        baseUrl: this.o.baseUrl, endpoints: this.parts.link.endpoints, key: tokens.key, machineFile: this.parts.link.machineFile,
        scopes: [...new Set([...(this.o.scopes ?? DEFAULT_SCOPES), ...(options.extraScopes ?? [])])], clock: this.parts.link.serverTime, timers: this.timers, logger: this.log,
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
      this.dispatch({ type: 'signed-in-again', me: await this.parts.link.api.me().catch(() => undefined) });
      this.allowPresence();
      // The new grant may reach further (cards:read:all): cards coming into reach make no change.
      await this.parts.schedule.fullRead().catch(() => undefined);
    }
    await this.startSync();
    // Signed in and stored; the state shows offline and clears itself once the service answers.
    const me = this.connection.me;
    if (!me) throw new NetworkError(`${this.o.baseUrl}/v1/me`, 'signed in, but the service could not be reached to confirm it');
    return me;
  }

  async signOut(): Promise<void> {
    await this.parts.pinger.dispose();
    await this.stopSync();
    const tokens = await this.parts.link.tokenSet();
    await tokens.signOut('signed out by the person');
    this.afterSignOut('person');
  }

  /** For `pressOutsideThePath` only: see there. */
  press(gesture: UserGesture, card: SeenCard, action: PressAction): Press {
    return this.parts.presses.press(gesture, card, action);
  }

  act(gesture: UserGesture, shown: Card, action: PressAction, opts?: ActOptions): Promise<PressOutcome> {
    return this.parts.path.act(gesture, shown, action, opts);
  }

  async pageUrl(card: { id: string; url?: string | undefined }): Promise<string | undefined> {
    const service = new URL(this.o.baseUrl).origin;
    const onService = (u: string) => {
      try {
        return new URL(u).origin === service;
      } catch {
        return false;
      }
    };
    // A link elsewhere (an update card's notice link) is opened as it is.
    if (card.url !== undefined && !onService(card.url)) return card.url;
    try {
      const link = await this.parts.link.api.pageLink(card.id);
      if (onService(link.url)) return link.url;
      this.log.warn('the service gave a card page link on another origin; opening the card\'s own address');
    } catch (e) {
      this.log.info('no one-time link to the card\'s page; opening its address (read-only there)', { error: e instanceof Error ? e.message : String(e) });
    }
    return card.url;
  }

  private async startSync(): Promise<void> {
    if (this.connection.syncing || this.disposed) return;
    this.dispatch({ type: 'sync-started' });
    this.parts.schedule.begin();
    try {
      this.dispatch({ type: 'me', me: await this.parts.link.api.me() });
      this.allowPresence();
      this.markOnline();
      await this.parts.feedLoop.begin();
      await this.parts.schedule.fullReadNow();
    } catch (e) {
      this.handleFailure(e);
      if (!this.connection.syncing) return;
    }
    this.parts.feedLoop.start();
    this.parts.schedule.schedule();
    this.parts.owner.start();
  }

  /** Presence pings only when the person allowed presence:desk (else each ping would be refused). */
  private allowPresence(): void {
    this.parts.pinger.setEnabled(this.connection.syncing && !!this.connection.me?.grant.scopes.includes('presence:desk'));
  }

  private async stopSync(): Promise<void> {
    this.dispatch({ type: 'sync-stopped' });
    this.parts.schedule.stop();
    this.parts.owner.stop();
    this.parts.pinger.setEnabled(false);
    await this.parts.feedLoop.stop();
  }

  private markOnline(): void {
    if (!this.connection.syncing) return;
    if (!this.connection.me) {
      // Started while offline: learn who we are before saying "online".
      this.loadingMe ??= this.parts.link.api.me().then(
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
    if (wasOffline && shown.kind === 'online') void this.parts.schedule.fullRead().catch(() => undefined);
  }

  private handleFailure(e: unknown): void {
    const appRemoved = e instanceof ApiProblemError && e.code === 'app_not_available';
    // Only the service's own refusals are told as refused; a lost renewal says what happened.
    const reason: SignOutReason = appRemoved ? 'app-removed' : e instanceof SignedOutError && e.ended === 'renewal-lost' ? 'renewal-lost' : 'refused';
    if (appRemoved || e instanceof SignedOutError || (e instanceof OAuthRefusalError && (e.error === 'invalid_token' || e.error === 'invalid_grant'))) {
      // invalid_token after a renewed token: the sign-in was revoked (or replaced) on the service.
      // app_not_available: the person removed this app; every request would be refused.
      if (!this.connection.syncing) return;
      void this.stopSync()
        .then(async () => {
          if (!(e instanceof SignedOutError)) await this.parts.link.tokens?.signOut(reason);
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
    // Answers first: the model's clear removes every card, which must not start reads for rows.
    this.parts.answers.clear();
    this.parts.model.clear();
    this.parts.assistants.clear();
    this.parts.link.api.clearCache();
    this.parts.feedLoop.forget();
    this.dispatch({ type: 'signed-out', reason });
  }

  /** Another window signed in or out (the store tells). */
  private async onTokensChanged(): Promise<void> {
    if (this.disposed) return;
    const tokens = await this.parts.link.tokenSet();
    const signedIn = await tokens.load();
    if (!signedIn && this.connection.syncing) {
      await this.stopSync();
      // This window's own refresh may be what ended it (refused, or its answer lost); else another window signed out.
      const own = tokens.lastSignOutReason;
      this.afterSignOut(own === REFRESH_REFUSED ? 'refused' : own === RENEWAL_LOST ? 'renewal-lost' : 'elsewhere');
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
    await this.parts.pinger.dispose();
    this.disposed = true;
    await this.stopSync();
    await this.parts.owner.dispose();
    this.storeWatch?.dispose();
    this.parts.answers.dispose();
    this.parts.model.dispose();
    this.parts.assistants.dispose();
    this.stateE.clear();
    await this.parts.link.transport.close();
  }
}
