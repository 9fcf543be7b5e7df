// Every way a press can fail becomes one problem code the views explain (src/shared
// problem-messages): the PressProblem of the PressOutcome (contract.ts) a press comes back with.
import type { Card } from '../api/schemas';
import type { PressProblem } from './contract';

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
