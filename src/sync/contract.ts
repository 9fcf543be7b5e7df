// What the editor layer sees of the client core. src/sync implements it; src/editor consumes it.
// Kept small and free of vscode so it can be driven from plain-Node tests.
import type { Assistant, Card, CardListEntry, Me } from '../api/schemas';

/** Where the sign-in and the service stand, from the person's point of view. */
export type ConnectionState =
  | { kind: 'signed-out' }
  | { kind: 'not-set-up'; reason: string } // no computer identity file, or one the service rejects
  | { kind: 'signing-in'; userCode: string; verificationUri: string; verificationUriComplete: string }
  | { kind: 'online'; me: Me }
  | { kind: 'offline'; since: number; lastError: string };

export type Group = 'pending' | 'agent' | 'snoozed' | 'delegated' | 'done';

export interface Counts {
  /** Cards waiting on the person (status pending, turn you) in scope. */
  waiting: number;
  blockingWaiting: number;
}

export interface Disposable { dispose(): void }
export type Listener<T> = (e: T) => void;
export interface Event<T> { (listener: Listener<T>): Disposable }

export interface CardEvents {
  added: Event<CardListEntry>;
  changed: Event<{ card: CardListEntry; previous: CardListEntry }>;
  removed: Event<{ id: string; previous: CardListEntry }>;
  countsChanged: Event<Counts>;
}

/** One entry point per UI-facing concern. */
export interface CardModelView extends CardEvents {
  /** Cards in a group, in that group's order (stack order, soonest back, newest done, ...). */
  list(group: Group): readonly CardListEntry[];
  get(id: string): CardListEntry | undefined;
  /** The whole card, read fresh (ETag) when the model only holds the lighter form. */
  whole(id: string): Promise<Card>;
  /** Group of a card, for tree reveal / getParent. */
  groupOf(id: string): Group | undefined;
  counts(): Counts;
  /** The editor hands over the assistant ids of this window's terminals (workspace scope). */
  setScope(scope: { kind: 'machine' } | { kind: 'workspace'; assistantIds: readonly string[] }): void;
  refresh(): Promise<void>;
  /** Done cards are loaded only when asked (the tree expands the group). */
  loadDone(): Promise<void>;
}

export interface AssistantsView {
  list(): readonly Assistant[];
  changed: Event<readonly Assistant[]>;
  refresh(): Promise<void>;
}
