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
