// Facts about a card that the editor, the terminal links and the card panel must judge alike.

/** A card id: `req_` and up to 100 letters, digits or dashes. Anything else is not looked up. */
const CARD_ID = /^req_[A-Za-z0-9-]{1,100}$/;

/** Card ids inside free text (a terminal line): a whole word, at least 4 characters after `req_`. */
export const CARD_ID_IN_TEXT = /(?<![A-Za-z0-9_-])req_[A-Za-z0-9-]{4,100}(?![A-Za-z0-9_-])/g;

export function isCardId(x: unknown): x is string {
  return typeof x === 'string' && CARD_ID.test(x);
}

/** The card asks the person now: pending, and the turn is theirs. */
export const waitsOnYou = (c: { status: string; turn: string }): boolean => c.status === 'pending' && c.turn === 'you';

/**
 * What the focus-terminal command was given (any extension or command link can call it with
 * anything): a well-formed card id, or a card-shaped object with one, names a card; nothing at all
 * means "let the person pick"; anything else is ignored (and logged), never looked up or shown.
 * The Assistants view's own tree items are recognised by the editor before this.
 */
export function focusTargetOf(arg: unknown): { kind: 'card'; id: string } | { kind: 'pick' } | { kind: 'ignored'; what: string } {
  if (arg === undefined || arg === null) return { kind: 'pick' };
  if (isCardId(arg)) return { kind: 'card', id: arg };
  if (typeof arg === 'object' && !Array.isArray(arg) && isCardId((arg as { id?: unknown }).id)) return { kind: 'card', id: (arg as { id: string }).id };
  return { kind: 'ignored', what: typeof arg === 'string' ? `a string of ${arg.length} characters that is no card id` : Array.isArray(arg) ? 'an array' : typeof arg }; // l10n-ignore: for the log
}
