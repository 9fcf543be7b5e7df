// Keys that answer wait a moment after something new comes into view or the panel gets focus:
// a key pressed for the editor a moment ago (`1`, then Enter, still on its way) must not answer a
// card the person has not read. Pure, with the clock injected, so it is tested in plain Node.

/** How long answering keys are ignored after a card (or a new version) shows, or focus arrives. */
export const ANSWER_KEYS_QUIET_MS = 600;

export class AnswerKeyGuard {
  private quietUntil = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => Date.now(), private readonly quietMs = ANSWER_KEYS_QUIET_MS) {}

  /** Something new is shown, or the panel just got focus: answering keys wait again. */
  arm(): void { this.quietUntil = this.now() + this.quietMs; }

  /** Whether a key may pick or answer now. */
  allows(): boolean { return this.now() >= this.quietUntil; }
}

/** The keys that pick, answer, press or move on (N: the next card) in the card panel. */
const ACTING_KEYS = /^(Enter| |[1-9]|u|U|n|N)$/;

/**
 * A key held down repeats; the repeats are never a press. A held Enter on a tree row that opens
 * the panel would otherwise answer the card once the quiet moment is over. Only the keys that act
 * count (a held letter in a text box still types), and in a text box only Ctrl/Cmd+Enter acts.
 */
export function isHeldPress(e: { repeat: boolean; key: string; ctrlKey: boolean; metaKey: boolean }, typing: boolean): boolean {
  if (!e.repeat || !ACTING_KEYS.test(e.key)) return false;
  return !typing || (e.key === 'Enter' && (e.ctrlKey || e.metaKey));
}

/**
 * How long a click lands on nothing after a panel appears that the person did not open (a card
 * link, another extension, a command called with a bare id): the person was clicking at something
 * else where it appeared. Longer than the keys' moment: a pointer is already on its way.
 */
export const UNASKED_CLICKS_QUIET_MS = 1000;

/**
 * Whether a press in the panel may act: a keyboard activation of a focused button (`detail` 0)
 * waits out the keys' moment when the press is `guarded` (it answers); a click waits out the
 * clicks' moment (armed only when a panel appeared unasked), whatever it presses.
 */
export function pressAllowed(e: { detail: number }, guarded: boolean, keys: AnswerKeyGuard, clicks: AnswerKeyGuard): boolean {
  if (e.detail === 0) return !guarded || keys.allows();
  return clicks.allows();
}
