// The sandbox's hold (DESIGN: an answer or a hand-over is held 5 s) as host tests set it. A sandbox
// starts with the real 5 s; a test that is not about the hold asks for a short one (POST
// /_sandbox/hold), and the editor follows, since it counts down the service's `undoUntil`. The
// tests that keep the real hold, one or more per action, are listed in docs/decisions.md
// ("Shorter hold for tests (#26)").
import * as assert from 'node:assert/strict';
import { until } from '../../kit/until';
import type { RunningSandbox } from './sandbox';

/** DESIGN's hold, the one a sandbox starts with (src/sandbox/lifecycle.ts HOLD_MS; not bundled here). */
export const REAL_HOLD_MS = 5_000;
/**
 * Long enough for a press's answer to reach the editor while its hold still runs on a busy
 * machine: a hold already over on arrival would be counted as 5 s from then (src/sync/hold.ts).
 */
export const SHORT_HOLD_MS = 1_000;

/** Answers and hand-overs from now on are held SHORT_HOLD_MS (holds already running keep their end). */
export async function shortHold(sb: RunningSandbox): Promise<void> {
  assert.deepEqual(await sb.control('POST', '/_sandbox/hold', { ms: SHORT_HOLD_MS }), { ms: SHORT_HOLD_MS });
}

/** Back to the real 5 s. */
export async function realHold(sb: RunningSandbox): Promise<void> {
  assert.deepEqual(await sb.control('POST', '/_sandbox/hold', { ms: REAL_HOLD_MS }), { ms: REAL_HOLD_MS });
}

/** The hold the sandbox gives answers now (ms). */
export async function holdMs(sb: RunningSandbox): Promise<number> {
  return (await sb.control<{ ms: number }>('GET', '/_sandbox/hold')).ms;
}

/** When the hold of the card's answer (or hand-over) ends, on the sandbox's clock; the card must be held now. */
export async function holdEnd(sb: RunningSandbox, cardId: string): Promise<number> {
  const { undoUntil } = await sb.control<{ undoUntil?: string }>('GET', `/_sandbox/cards/${cardId}`);
  assert.ok(undoUntil, `card ${cardId} is held on the sandbox`);
  return Date.parse(undoUntil);
}

/**
 * Resolves once the sandbox's clock is half a second past `endMs`: by then a hold that ended at
 * `endMs` has run out there and what it would have done is done (its timer fired at `endMs`).
 */
export async function pastOnSandbox(sb: RunningSandbox, endMs: number, what = 'the hold over (sandbox clock)'): Promise<void> {
  await until(what, async () => (await sb.control<{ ms: number }>('GET', '/_sandbox/clock')).ms >= endMs + 500 || undefined, 30_000);
}
