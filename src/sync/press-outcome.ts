// What a press comes back with: never an exception. Every way a press can fail becomes one problem
// code the views explain (src/shared problem-messages); what succeeded says which card it left.
import type { Card } from '../api/schemas';
import type { PressAction, PressResult } from './press';

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

/** Maps the core's typed errors (src/api/errors.ts, src/auth/errors.ts) to a problem code. */
export function toProblem(e: unknown): PressProblem {
  const err = e as {
    name?: string; kind?: string; code?: string; url?: string; retryAfterSeconds?: number; error?: string; fresh?: Card; message?: string;
    detail?: string; errors?: { field: string; reason: string }[]; missingScope?: string; description?: string;
  };
  switch (err?.kind) {
    case 'version-conflict': return { code: 'version_conflict', ...(err.fresh ? { fresh: err.fresh } : {}) };
    case 'high-stakes': return { code: 'high_stakes', ...(err.url ? { url: err.url } : {}) };
    case 'problem': return {
      code: err.code ?? 'server_error',
      ...(err.url ? { url: err.url } : {}),
      ...(err.retryAfterSeconds ? { retryAfterS: err.retryAfterSeconds } : {}),
      ...(err.detail ? { serviceDetail: err.detail } : {}),
      ...(err.errors?.length ? { fields: err.errors } : {}),
    };
    case 'oauth':
      if (err.error === 'insufficient_scope') {
        return { code: 'insufficient_scope', ...(err.missingScope ? { scope: err.missingScope } : {}), ...(err.description ? { serviceDetail: err.description } : {}) };
      }
      return { code: 'invalid_token' };
    case 'network': return { code: 'offline' };
    case 'malformed': return { code: 'server_error', detail: err.message ?? '' };
    case 'signed-out': return { code: 'signed_out' };
    case 'not-set-up': return { code: 'signed_out' };
    case 'press-refused': return { code: 'press_refused', detail: err.message ?? '' };
    default:
      if (err?.name === 'AbortError') return { code: 'timeout' };
      return { code: 'unknown', detail: String(err?.message ?? e) };
  }
}
