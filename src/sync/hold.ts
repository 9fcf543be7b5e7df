// The 5-second hold (undo) on ONE clock: this computer's. The service says when its hold ends on
// its own clock (`undoUntil`); the model keeps every card's hold as a local deadline, converted
// here once, so the tree, the panel, a notification and the palette all count down to the same
// instant whatever this computer's clock says.

/** The service's hold is 5 s; a deadline further off than this is a clock we cannot trust. */
const HOLD_MAX_MS = 6_000;
const HOLD_MS = 5_000;

/**
 * The service's `undoUntil` on this computer's clock (ms), through the server-time offset
 * (`skewMs`: service minus local, as far as it is known). A press's own answer (`fresh`) is at most
 * 5 s off the end of its hold: when the clocks disagree beyond that, the 5 s count from now. A
 * card read later may be past its hold already: that stays in the past.
 */
export function holdDeadline(undoUntil: string | undefined, skewMs: number, nowMs: number, fresh: boolean): number | undefined {
  if (!undoUntil) return undefined;
  const end = Date.parse(undoUntil);
  if (Number.isNaN(end)) return undefined;
  const left = end - (nowMs + skewMs);
  if (left > HOLD_MAX_MS || (fresh && left < 0)) return nowMs + HOLD_MS;
  return nowMs + left;
}
