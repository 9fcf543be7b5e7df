// What this sign-in may do, from the scopes the person allowed (the token response's `scope`, the
// same list `/v1/me` names as `grant.scopes`). The person may allow fewer than asked: an action
// needing a scope they did not allow is not offered, and the views say how to allow it. No
// `vscode` here: the host and the card panel's webview share it.
import { oneLine } from './format';
import { t } from './l10n';

/** What the person can be offered, one flag per scope that gates an action. */
export interface Allowed {
  /** `cards:answer`: answer, Got it, undo. */
  answer: boolean;
  /** `cards:reply`: write to the asking assistant. */
  reply: boolean;
  /** `cards:later`: Later and Back. */
  later: boolean;
  /** `cards:delegate`: hand over and take back. */
  delegate: boolean;
  /** `assistants:read`: the list of assistants a hand-over picks its helper from. */
  assistants: boolean;
}

export const EVERYTHING: Allowed = { answer: true, reply: true, later: true, delegate: true, assistants: true };

/** The scope each flag stands for. */
export const SCOPE_OF: Record<keyof Allowed, string> = {
  answer: 'cards:answer', reply: 'cards:reply', later: 'cards:later', delegate: 'cards:delegate', assistants: 'assistants:read',
};

/**
 * The flags of a granted scope list. Unknown (`undefined`: not read yet) allows everything: the
 * service refuses what it must, and nothing is hidden on a guess.
 */
export function allowedBy(scopes: readonly string[] | undefined): Allowed {
  if (!scopes) return EVERYTHING;
  const has = new Set(scopes);
  return {
    answer: has.has(SCOPE_OF.answer), reply: has.has(SCOPE_OF.reply), later: has.has(SCOPE_OF.later),
    delegate: has.has(SCOPE_OF.delegate), assistants: has.has(SCOPE_OF.assistants),
  };
}

/** A hand-over needs both: the scope to delegate and the list of assistants to pick the helper from. */
export const canHandOver = (a: Allowed): boolean => a.delegate && a.assistants;

/** The scopes that gate an action and were not allowed, in a fixed order. */
export function missingScopes(a: Allowed): string[] {
  return (Object.keys(SCOPE_OF) as (keyof Allowed)[]).filter((k) => !a[k]).map((k) => SCOPE_OF[k]);
}

/** A scope in the person's words, with its name (the approval page shows the name). */
export function scopeWords(scope: string): string {
  switch (scope) {
    case 'cards:read': return t('see the cards of this computer ({0})', scope);
    case 'cards:read:all': return t('see every card ({0})', scope);
    case 'cards:answer': return t('answer cards ({0})', scope);
    case 'cards:reply': return t('write to the assistants ({0})', scope);
    case 'cards:later': return t('put cards in Later ({0})', scope);
    case 'cards:delegate': return t('hand cards over ({0})', scope);
    case 'assistants:read': return t('see the assistants ({0})', scope);
    case 'presence:desk': return t('keep your phone quiet while you are here ({0})', scope);
    default: return oneLine(scope, 60);
  }
}

/** The scope that shows every computer's cards (setting `assistantCards.scope` = `everywhere`). */
export const EVERY_CARD_SCOPE = 'cards:read:all';

/** Whether a granted scope list lets the tree show every computer's cards (unknown: not yet read, no claim). */
export const reachesEverywhere = (scopes: readonly string[] | undefined): boolean => !scopes || scopes.includes(EVERY_CARD_SCOPE);

/**
 * The person chose every computer's cards, but this sign-in sees this computer's only: why, and
 * what one press does about it. Undefined when nothing is missing.
 */
export function widerSignInNote(scopes: readonly string[] | undefined, wantsEverywhere: boolean): string | undefined {
  if (!wantsEverywhere || reachesEverywhere(scopes)) return undefined;
  return t('Every computer\'s cards need a sign-in allowed to {0}; until then only this computer\'s cards show. Sign in again and allow it to see them all.', scopeWords(EVERY_CARD_SCOPE));
}

/**
 * The person left every computer's cards, but this sign-in may still see them: what it may still
 * do, and what one press does about it. Undefined when it may not (or it is not known).
 */
export function narrowerSignInNote(scopes: readonly string[] | undefined, wantsEverywhere: boolean): string | undefined {
  if (wantsEverywhere || !scopes?.includes(EVERY_CARD_SCOPE)) return undefined;
  return t('This sign-in may still {0}, which the scope chosen does not need. Sign in again to give that back: the new sign-in asks for this computer\'s cards only.', scopeWords(EVERY_CARD_SCOPE));
}

/**
 * What this sign-in cannot do and how to change that, or undefined when nothing is missing. The
 * views show it as plain text.
 */
export function notAllowedNote(a: Allowed): string | undefined {
  const missing = missingScopes(a);
  if (!missing.length) return undefined;
  return t('This sign-in was not allowed to {0}. To allow it, sign out, sign in again and allow it on the approval page.', missing.map(scopeWords).join(', '));
}
