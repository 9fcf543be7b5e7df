// The client core's parts and how they are wired to each other: the service link, the models, the
// read schedule, the feed loop and its ownership, presence and press sending. Built once per core;
// what the parts tell the core (a read worked, a read failed) goes back through CoreHooks, and the
// core (session.ts) moves them through sign-in, sync and sign-out.
import { randomUUID } from 'node:crypto';
import type { HttpTransport, TransportOptions } from '../api/http';
import { sleep } from '../api/runtime';
import type { Clock, Logger, Timers } from '../api/runtime';
import type { Scope } from '../api/schemas';
import type { SecretStore } from '../auth/secret-store';
import { AnswersModel, ANSWERS_READ_SHARE, ANSWERS_SCAN_SHARE } from './answers-model';
import { AssistantsModel } from './assistants-model';
import { RequestBudget } from './budget';
import { CardModel, ROWS_READ_SHARE } from './card-model';
import { CardListReader } from './card-lists';
import { CardsAside, grownBy, holdsWaitingOf } from './cards-aside';
import type { CardScope } from './contract';
import { FeedLease } from './feed-lease';
import { BURST_READS_KEPT, FeedLoop } from './feed-loop';
import { FeedOwner } from './feed-ownership';
import type { PressedBy } from './actions-table';
import { PressSending } from './press-sending';
import { PressPath } from './press-path';
import { PresencePinger } from './presence';
import { ReadSchedule } from './read-schedule';
import { CardReads } from './reads';
import { createServiceClient } from './service-client';
import type { RequestObserver, ServiceClient } from './service-client';

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

/** What the parts tell the core that holds them. */
export interface CoreHooks {
  /** Whether the core is syncing now (a scope change reads again only then). */
  isSyncing(): boolean;
  /** A request reached the service and it answered. */
  serviceAnswered(): void;
  /** A background step failed: offline, signed out, or only logged (the core decides). */
  failed(e: unknown): void;
  /** This sign-in's app and computer as the service names them (`GET /v1/me`), once read. */
  signedInAs(): Omit<PressedBy, 'at'> | undefined;
}

export interface CoreParts {
  readonly link: ServiceClient;
  readonly model: CardModel;
  /** Cards read while outside the window's scope, let in when it grows (cards-aside.ts). */
  readonly aside: CardsAside;
  readonly reads: CardReads;
  readonly assistants: AssistantsModel;
  readonly schedule: ReadSchedule;
  readonly pinger: PresencePinger;
  readonly owner: FeedOwner;
  readonly feedLoop: FeedLoop;
  readonly presses: PressSending;
  /** The one press path every place a person presses calls (press-path.ts). */
  readonly path: PressPath;
  /** The Answers view's done cards and their history (answers-model.ts). */
  readonly answers: AnswersModel;
}

export interface CoreRuntime {
  clock: Clock;
  timers: Timers;
  log: Logger;
}

export function buildCoreParts(o: ClientCoreOptions, { clock, timers, log }: CoreRuntime, hooks: CoreHooks): CoreParts {
  const budget = new RequestBudget(clock);
  const link = createServiceClient({
    baseUrl: o.baseUrl, secretStore: o.secretStore, machineFile: o.machineFile, lockDir: o.lockDir,
    clock, timers, logger: log, clientId: o.clientId, appVersion: o.appVersion,
    transport: o.transport, transportOptions: o.transportOptions, random: o.random,
    onRequest: (info) => {
      budget.record(info.method, info.path, info.waits, info.byPerson ?? false);
      o.onRequest?.(info);
    },
  });
  const api = link.api;
  // The schedule and the models call each other only once started: the closures below run later.
  const schedule: ReadSchedule = new ReadSchedule({
    budget, timers, logger: log,
    // A full read starts the cards aside again: what it lists is current, and a feed that lost its
    // cursor may have missed a change to one of them.
    readCards: () => { aside.clear(); return model.fullRead(); },
    readAssistants: () => assistants.read(),
    onSuccess: () => hooks.serviceAnswered(),
    onFailure: (e) => hooks.failed(e),
  });
  const beforeRead = () => schedule.budgetWait(false);
  /** Sleeps until `delay` says go (0); each pause is told in the log. */
  const waitUntilGo = async (delay: () => number, why: string, signal?: AbortSignal) => {
    for (let d = delay(); d > 0; d = delay()) {
      log.info(why, { delayMs: d });
      await sleep(timers, d, signal);
    }
  };
  const fillDelay = () => Math.max(budget.delayUnder('read', ROWS_READ_SHARE), budget.delayKeeping('read', BURST_READS_KEPT));
  const reads = new CardReads({ api, clock, beforeBackgroundRead: (signal) => schedule.budgetWait(false, signal) });
  // The lists and the cards by id are read on the one client.
  const lists = new CardListReader({ api, beforeRead, syncSignal: () => schedule.signal });
  const aside = new CardsAside();
  /** Every read by id (the feed's, the fill's, the person's) tells the cards aside what it found. */
  const readCard = async (id: string, r: { byPerson: boolean; signal?: AbortSignal }) => {
    try {
      const card = await reads.read(id, r);
      aside.saw(card, model.getScope());
      return card;
    } catch (e) {
      aside.forget(id);
      throw e;
    }
  };
  const model: CardModel = new CardModel({
    lists, logger: log, syncSignal: () => schedule.signal,
    readCard,
    refresh: () => schedule.fullRead(),
    holdClock: { now: () => clock.now(), skewMs: () => link.serverTime.skewMs },
    // Filling light rows whole: under half the minute's reads, and the feed's burst room kept free.
    beforeFillRead: (signal) => waitUntilGo(fillDelay, 'rows: reads paused to stay under half the read limit', signal),
  });
  if (o.scope) model.setScope(o.scope);
  const assistants: AssistantsModel = new AssistantsModel({
    api, beforeRead, refresh: () => schedule.guard(() => assistants.read()),
  });
  let scopeWas = model.getScope();
  model.scopeChanged((scope) => {
    const added = grownBy(scopeWas, scope);
    scopeWas = scope;
    if (added) {
      // The cards read while outside it come in at once. When they are why it grew (a new
      // session's first card), the lists are read again only if the assistants read says these
      // assistants have cards waiting that the window does not hold (decisions.md "#53: a new
      // session's first prompt").
      const letIn = aside.take(added);
      for (const card of letIn) model.upsert(card);
      if (letIn.length && holdsWaitingOf(added, assistants.list(), { waitingOf: (agentId) => waitingOf(model, agentId) })) return;
    }
    if (hooks.isSyncing()) void schedule.fullRead().catch(() => undefined);
  });
  const pinger = new PresencePinger((here) => api.presence(here), timers, log);
  pinger.setEnabled(false);
  const owner = new FeedOwner({
    lease: new FeedLease(o.lockDir, o.instanceId ?? randomUUID(), clock), timers, logger: log,
    onChange: () => feedLoop.poke(), // end the current wait: long-poll now, or stop long-polling
  });
  const feedLoop: FeedLoop = new FeedLoop({
    api, model, timers, logger: log,
    isOwner: () => owner.isOwner(),
    beforeRead: (waits, signal) => schedule.budgetWait(waits, signal),
    canWait: () => budget.delayFor(['wait']) === 0,
    // A burst reads quickly only while it leaves room in the reads share for the cards themselves.
    canPollQuickly: () => budget.backgroundLeft('read') > BURST_READS_KEPT && budget.backgroundLeft('person') > BURST_READS_KEPT,
    personActive: () => reads.personActive(),
    onSuccess: () => hooks.serviceAnswered(),
    onFailure: (e) => hooks.failed(e),
    onCursorLost: () => void schedule.fullRead().catch(() => undefined),
    random: o.random,
    nonOwnerPollMs: o.nonOwnerPollMs,
    awaitingHoldEnd: () => model.awaitingHoldEnd(),
  });
  const presses = new PressSending({
    baseUrl: o.baseUrl, api, model, reads, clock,
    onSent: () => hooks.serviceAnswered(),
    onNetworkFailure: (e) => hooks.failed(e),
  });
  const answers = new AnswersModel({
    api, cards: model, logger: log, now: () => clock.now(),
    // A live refresh is background work (its share); every Answers read stays under half the minute's reads.
    beforeRead: async ({ background, scan, signal }) => {
      if (background) await schedule.budgetWait(false, signal);
      const share = scan ? ANSWERS_SCAN_SHARE : ANSWERS_READ_SHARE;
      await waitUntilGo(() => budget.delayUnder('read', share), 'answers: reads paused to stay under half the read limit', signal);
    },
  });
  const path = new PressPath({ presses, model, clock, skewMs: () => link.serverTime.skewMs, ownsFeed: () => owner.isOwner() && feedLoop.waiting, readFeedNow: () => feedLoop.readNow(), signedInAs: () => hooks.signedInAs(), logger: log });
  return { link, model, aside, reads, assistants, schedule, pinger, owner, feedLoop, presses, path, answers };
}

/** The whole cards the model holds of an agent that wait on the person (the assistants read's `openCards`). */
function waitingOf(model: CardModel, agentId: string): number {
  let n = 0;
  for (const group of ['pending', 'snoozed'] as const) {
    for (const c of model.list(group)) {
      const card = model.held(c.id);
      if (card?.agent?.id === agentId && (card.status === 'pending' || card.status === 'snoozed') && card.turn === 'you') n++;
    }
  }
  return n;
}
