// Every context key the extension sets, in one file, so `when` clauses in package.json and the
// code cannot drift apart. Values are set only through `setContext` here.
import * as vscode from 'vscode';
import type { ConnectionState } from '../sync/contract';

export const CONTEXT = {
  /** running | stopped | failed | unused: the person's local service (#51), for the Cards view's welcome. */
  localService: 'assistantCards.localService',
  /** signedOut | notSetUp | signingIn | offline | signedIn: drives the welcome views. */
  state: 'assistantCards.state',
  /** True while a card filter is active (the clear-filter button shows). */
  filtered: 'assistantCards.filtered',
  /** True while the Answers view is searched (its clear-search button shows). */
  answersSearched: 'assistantCards.answersSearched',
  /** True while the cards tree shows the cards of one terminal only (the clear-filter button shows). */
  terminalScope: 'assistantCards.terminalScope',
  /** The scope setting in force, `workspace`, `machine` or `everywhere` (which scope button, so which icon, shows). */
  scope: 'assistantCards.scope',
  /** True when signed in and no card is in any group (the "nothing waits" welcome shows). */
  noCards: 'assistantCards.noCards',
  /** Number of cards waiting on the person ("Open Next Card" shows in the view menu when > 0). */
  waiting: 'assistantCards.waiting',
  /** True once the person answered a card in this window (the walkthrough's "answer" step ticks). */
  answered: 'assistantCards.answered',
  /** The sign-in was allowed `cards:answer` (answer, Got it, undo); see grant.ts. */
  canAnswer: 'assistantCards.canAnswer',
  /** The sign-in was allowed `cards:reply` (write to the assistant). */
  canReply: 'assistantCards.canReply',
  /** The sign-in was allowed `cards:later` (Later, Back). */
  canLater: 'assistantCards.canLater',
  /** The sign-in was allowed `cards:delegate` (take back). */
  canDelegate: 'assistantCards.canDelegate',
  /** The sign-in was allowed `cards:delegate` and `assistants:read` (hand over: the helper is picked from the assistants). */
  canHandOver: 'assistantCards.canHandOver',
  /**
   * The CLIs whose settings hold our hooks, their ids separated by spaces ("claude-code codex"):
   * Disconnect is offered while it is not empty; a `when` can ask for one (`=~ /(^| )codex( |$)/`).
   */
  connectedClis: 'assistantCards.connectedClis',
  /** True while every adapter's CLI is connected: Connect is offered while it is not (unset before the first look). */
  allClisConnected: 'assistantCards.allClisConnected',
} as const;

export type StateKey = 'signedOut' | 'notSetUp' | 'signingIn' | 'offline' | 'signedIn';

export function stateKey(s: ConnectionState): StateKey {
  switch (s.kind) {
    case 'signed-out': return 'signedOut';
    case 'not-set-up': return 'notSetUp';
    case 'signing-in': return 'signingIn';
    case 'offline': return 'offline';
    case 'online': return 'signedIn';
  }
}

export type ContextKey = (typeof CONTEXT)[keyof typeof CONTEXT];

/**
 * The context key of an action's `enablement` (shared/card-actions.ts), one of the `can*` keys
 * above: test/shared/card-actions.test.ts holds every row's key to be one of them.
 */
export const grantKey = (name: string): ContextKey => `assistantCards.${name}` as ContextKey;

/**
 * The window's context keys as this extension set them. One per activation (App makes it and
 * hands it to each part that sets a key): it remembers each key's last value so a repeat is not
 * sent again, which is right only while it is the one setter of the window's keys.
 */
export class ContextKeys {
  private readonly last = new Map<ContextKey, unknown>();

  set(key: ContextKey, value: unknown): void {
    if (this.last.has(key) && this.last.get(key) === value) return;
    this.last.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  /** The walkthrough's "answer a card" step is done once a press answered one, from any place. */
  noteAnswered(out: { ok: boolean; action?: string }): void {
    if (out.ok && (out.action === 'answer' || out.action === 'gotIt')) this.set(CONTEXT.answered, true);
  }
}
