// What the editor layer sees of the client core. src/sync implements it; src/editor consumes it.
// Kept small and free of vscode so it can be driven from plain-Node tests.
import type { Assistant, Card, CardListEntry, Me, Scope } from '../api/schemas';
import type { CardFilter } from './card-filter';

/**
 * Which cards the model holds: every card of the person's computers the sign-in reaches
 * (`everywhere`, needs `cards:read:all`), every card of this computer (`machine`: `machineId`
 * narrows the list to it when the sign-in reaches further), or those of some assistants (a window's).
 */
export type CardScope =
  | { kind: 'everywhere' }
  | { kind: 'machine'; machineId?: string }
  | { kind: 'workspace'; assistantIds: readonly string[] };

export type { CardFilter };

/** Where the sign-in and the service stand, from the person's point of view. */
export type ConnectionState =
  | { kind: 'signed-out'; reason?: SignOutReason }
  | { kind: 'not-set-up'; reason: string } // no computer identity file, or one the service rejects
  | { kind: 'signing-in'; userCode: string; verificationUri: string; verificationUriComplete?: string } // the latter optional (RFC 8628)
  | { kind: 'online'; me: Me }
  | { kind: 'offline'; since: number; lastError: string };

/**
 * Why a sign-in ended: the person signed out (here or in another window), the service refused the
 * sign-in (revoked or replaced), the person removed the app, or the answer to a renewal was lost
 * on the way (this window dropped the sign-in rather than risk a reuse). The last three need telling.
 */
export type SignOutReason = 'person' | 'elsewhere' | 'refused' | 'app-removed' | 'renewal-lost';

/** The groups of cards, in the tree's order. */
export const GROUPS = ['pending', 'agent', 'snoozed', 'delegated', 'done'] as const;
export type Group = (typeof GROUPS)[number];
/** The groups of cards still in play: every group but Done. */
export const LIVE_GROUPS = ['pending', 'agent', 'snoozed', 'delegated'] as const satisfies readonly Group[];

export interface Counts {
  /** Cards waiting on the person (status pending, turn you) in scope. */
  waiting: number;
  blockingWaiting: number;
}

export interface Disposable { dispose(): void }
export type Listener<T> = (e: T) => void;
export interface Event<T> { (listener: Listener<T>): Disposable }

/** A card that changed; `pressedHere`: the change is the result of a press in this window (press-path.ts). */
export interface CardChange { card: CardListEntry; previous: CardListEntry; pressedHere?: boolean }

/** `read`: the whole card whose read took it out of the model (closed while Done is not held, or out of the window's scope). */
export interface CardRemoval { id: string; previous: CardListEntry; read?: Card }

export interface CardEvents {
  added: Event<CardListEntry>;
  /** A card listed in the lighter form is read whole by the model after (CardModel.fillWhole): a change then brings it whole. */
  changed: Event<CardChange>;
  removed: Event<CardRemoval>;
  countsChanged: Event<Counts>;
  /** A card out of workspace scope whose assistant the window may not know yet (CardModel.unknownAsker). */
  unknownAsker: Event<Card>;
}

/** One entry point per UI-facing concern. */
export interface CardModelView extends CardEvents {
  /** Cards in a group, in that group's order (stack order, soonest back, newest done, ...). */
  list(group: Group): readonly CardListEntry[];
  /** How many cards these groups hold together: the sum of their `list(g).length`, without building or sorting a list. */
  size(...groups: readonly Group[]): number;
  get(id: string): CardListEntry | undefined;
  /** The whole card the model holds; undefined when it holds only the lighter form, or nothing. Never a read. */
  held(id: string): Card | undefined;
  /** The whole card: the model's (`held`), read (the person's read) only when it holds the lighter form or none. */
  whole(id: string): Promise<Card>;
  /** The person's read, always sent (ETag: an unchanged card costs a 304), kept by the model: what the service says now. */
  read(id: string): Promise<Card>;
  /** Group of a card, for tree reveal / getParent. */
  groupOf(id: string): Group | undefined;
  counts(): Counts;
  /** The editor hands over the assistant ids of this window's terminals (workspace scope). */
  setScope(scope: CardScope): void;
  refresh(): Promise<void>;
  /** Done cards are loaded only when asked (the tree expands the group). */
  loadDone(): Promise<void>;
  /**
   * When the card's hold (the 5 s to undo or take back) ends, on this computer's clock; undefined
   * when none runs. The model keeps every card's `undoUntil` on this clock too (sync/hold.ts).
   */
  holdUntil(id: string): number | undefined;
  /** The person's card filter, sent to the service as the list's query filters (card-filter.ts). */
  getFilter(): CardFilter;
  setFilter(filter: CardFilter): Promise<void>;
  /** Whether a card passes the filter (a light entry: whether the service listed it for it). */
  matches(card: CardListEntry): boolean;
  filterChanged: Event<CardFilter>;
}

export interface AssistantsView {
  list(): readonly Assistant[];
  changed: Event<readonly Assistant[]>;
  refresh(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Additions for the client core. Implemented in src/sync/session.ts (`createClientCore`),
// re-exported from src/sync/index.ts. Names above this line are unchanged.
// ---------------------------------------------------------------------------------------------

/**
 * Proof that a person did something in the UI right now (a click, a command, a key, a message
 * from the card panel's button). Only the editor's UI event handlers mint one, through
 * `ClientCore.gestures.fromUiEvent`, and only at the moment of the event: a gesture is good for
 * ONE press, within a few seconds of being minted. Timers, the feed and models never hold the
 * minting function, so they cannot make a press. The brand makes it impossible to forge by hand.
 */
export type { UserGesture, PressAction, SeenCard } from './press';
import type { UserGesture, PressAction, PressResult } from './press';
export type { AnswerRow, AnswerSearch, Who, WhoKey, Outcome } from './answer-rows';
import type { AnswerRow, AnswerSearch } from './answer-rows';

// What a press comes back with: never an exception. Every way a press can fail is one problem code
// the views explain (src/shared problem-messages; press-outcome.ts maps the errors); what succeeded
// says which card it left.
export interface PressProblem {
  code: string;
  url?: string;
  retryAfterS?: number;
  /** Our own words for what failed (not shown as the service's). */
  detail?: string;
  /** The service's problem `detail` (hostile: shown as plain text only). */
  serviceDetail?: string;
  /** An `invalid` problem's field errors (hostile: shown as plain text only). */
  fields?: { field: string; reason: string }[];
  /** insufficient_scope: the scope the sign-in lacks. */
  scope?: string;
  /** On version_conflict: the card as it is now, when the core read it. */
  fresh?: Card;
}

export type PressOutcome =
  | {
    ok: true;
    action: PressAction['type'];
    result: PressResult;
    /** The card as the press left it, as the model now holds it (its `undoUntil` on this computer's clock). */
    card: Card;
    /** The end of the hold on this computer's clock (answer, Got it, hand-over), if one runs. */
    holdUntil?: number;
  }
  | { ok: false; problem: PressProblem };

export interface ActOptions {
  /** The person moved on (the panel closed): the press stops retrying. */
  signal?: AbortSignal;
}

/** How far a search has read back: `daysRead` of `days`; `running` while it reads on. */
export interface SearchProgress { running: boolean; stopped: boolean; daysRead: number; days: number }

export interface AnswersProblem {
  /**
   * `page`: a done list read was refused (more may be missing); `open`: a list of open cards
   * (put off, handed over, undone) was refused; `card`: one card's whole form.
   */
  what: 'page' | 'open' | 'card';
  id?: string;
  code: string;
  message: string;
}

/** What a view of answers needs; the editor sees only this. */
export interface AnswersView {
  /** Rows read so far that pass the search, newest first. */
  visible(): readonly AnswerRow[];
  /** Every row read so far, newest first. */
  all(): readonly AnswerRow[];
  get(id: string): AnswerRow | undefined;
  /** True once the first page was asked for. */
  started(): boolean;
  loading(): boolean;
  /** The service has more done cards than read so far. */
  hasMore(): boolean;
  /** Reads the first page again (the view opened, Refresh). */
  loadFirst(): Promise<void>;
  /** The next page (the "Load more" row). */
  loadMore(): Promise<void>;
  getSearch(): AnswerSearch;
  /** A search other than none reads on through the done list until the 30 days are read. */
  setSearch(s: AnswerSearch): void;
  /** How far back the search has read; undefined when nothing is searched. */
  searchProgress(): SearchProgress | undefined;
  /** Stops a search reading on (the rows read stay); `searchFurther` goes on from there. */
  stopSearching(): void;
  searchFurther(): Promise<void>;
  /** How far back the done list is read: `daysRead` of `days`, `whole` once all of it is. */
  readProgress(): { daysRead: number; days: number; whole: boolean };
  /**
   * Reads on, page after page, until the 30 days are read (an export, the search's pick): until
   * `signal` aborts, the service refuses a page (kept as a problem), or a new first read or a
   * sign-out drops what is read. True when the 30 days are read whole.
   */
  readAll(o: { signal: AbortSignal; scan?: boolean }): Promise<boolean>;
  /** What the service refused in the last reads (told in the view, never a silent gap). */
  problems(): readonly AnswersProblem[];
  /** Rows changed: `ids` when only those (live updates), undefined for everything. */
  changed: Event<{ ids?: readonly string[] }>;
}


/** Where a sign-in by device flow stands; `signIn`'s progress callback receives each step. */
export type DeviceProgress =
  | { step: 'code'; userCode: string; verificationUri: string; verificationUriComplete?: string; expiresAt: number }
  | { step: 'waiting'; intervalSeconds: number }
  | { step: 'approved' };

export interface PresenceControl {
  /** true while the person is active in this window; false once they leave (sends here:false once). */
  setHere(here: boolean): void;
}

/**
 * Several windows share one sign-in; only one may hold the change-feed long-poll.
 * The editor reports focus; the core claims a lease in `lockDir` when focused and keeps it while it
 * is the last focused window. Non-owners read the feed without waiting, slowly, and catch up on
 * takeover.
 */
export interface FeedOwnership {
  setFocused(focused: boolean): void;
  isOwner(): boolean;
  onDidChangeOwner: Event<boolean>;
}

export interface SignInOptions {
  onProgress?: (p: DeviceProgress) => void;
  signal?: AbortSignal;
  /** Scopes asked for besides the core's own (`cards:read:all` when the person chose every computer). */
  extraScopes?: readonly Scope[];
}

export interface ClientCore {
  readonly state: ConnectionState;
  /** The periodic full reads (every 10 minutes) begun so far: the bench counts a prompt's own reads apart from them. */
  readonly periodicFullReads: number;
  onDidChangeState: Event<ConnectionState>;
  /** Restores a stored sign-in (if any) and starts syncing; resolves once the first read is done or failed. */
  start(): Promise<void>;
  /**
   * Device flow. Rejects with DeviceFlowError (denied / expired / cancelled), NotSetUpError (no or
   * unknown computer identity; state `not-set-up`), OAuthRefusalError, or NetworkError (also when
   * signed in but /v1/me could not be read: the sign-in is kept and the state recovers by itself).
   */
  signIn(options?: SignInOptions): Promise<Me>;
  signOut(): Promise<void>;
  cards: CardModelView;
  assistants: AssistantsView;
  /** The Answers view's rows: done cards and their history, paged, searched, kept live. */
  answers: AnswersView;
  presence: PresenceControl;
  feed: FeedOwnership;
  /** The ONLY place a UserGesture is minted. Call it from a UI event handler, nowhere else. */
  gestures: { fromUiEvent(source: string): UserGesture };
  /**
   * THE press path: the card panel, a notification's button and the command palette each call
   * this, and only this, with the gesture they minted from the person's UI event and the card as
   * they showed it. It sends the press once, puts its result into the model in one write (the
   * hold on this computer's clock: `cards.holdUntil`), and resolves to a value, never an error.
   */
  act(gesture: UserGesture, shown: Card, action: PressAction, opts?: ActOptions): Promise<PressOutcome>;
  /**
   * Where "Open in Browser" opens a card, asked on that press: the one-time link into the card's
   * page in the service (POST /v1/cards/{id}/page-link), where the person may answer it, high
   * stakes too; the card's plain `url` (read-only there) when the service gives no link, or when
   * `url` is not on the service (an update card's notice link). Never rejects (docs/decisions.md "#35").
   */
  pageUrl(card: { id: string; url?: string | undefined }): Promise<string | undefined>;
  dispose(): Promise<void>;
}
