// What other extensions get from `activate()`: a designed, read-only API. How many cards wait on
// the person, an event when that changes, and a way to open one card in the editor (it opens the
// card's panel; it never acts on it). Nothing else: no context, no secrets, no client core, no way
// to press. Every installed extension can read this object, so it holds nothing more (security.md).
import type * as vscode from 'vscode';
import { isCardId } from '../shared/card-facts';

export interface AssistantCardsApi {
  /** This API's shape; a new version adds, never changes. */
  readonly apiVersion: 1;
  /** How many cards wait on the person in this window's scope (0 when signed out). */
  waitingCount(): number;
  /** Fires with the new count when it changes. */
  readonly onDidChangeWaiting: vscode.Event<number>;
  /**
   * Opens the card's panel in the editor, without acting on it. False for a malformed id, an id
   * that is not one of the cards this window holds, or when signed out.
   */
  open(cardId: string): Promise<boolean>;
}

/** Where the API reads from: the count of this moment, and the card panels of the live set. */
export interface PublicApiSource {
  waiting(): number;
  onDidChangeWaiting: vscode.Event<number>;
  /** Whether the signed-in set holds this card (the cards the tree can list). */
  holds(cardId: string): boolean;
  /** Opens the card when a signed-in set of parts exists; false otherwise. */
  open(cardId: string): boolean;
}

/** A frozen object of functions that close over `source`: nothing behind it is reachable. */
export function publicApi(source: PublicApiSource): AssistantCardsApi {
  return Object.freeze({
    apiVersion: 1 as const,
    waitingCount: () => source.waiting(),
    onDidChangeWaiting: (listener: (n: number) => unknown, thisArgs?: unknown, disposables?: vscode.Disposable[]) =>
      source.onDidChangeWaiting(listener, thisArgs, disposables),
    // Only a card this window holds (#37): each unknown id opened a panel and spent the person's
    // read allowance as their own read, as often as any extension called.
    open: (cardId: string) => Promise.resolve(typeof cardId === 'string' && isCardId(cardId) && source.holds(cardId) ? source.open(cardId) : false),
  });
}
