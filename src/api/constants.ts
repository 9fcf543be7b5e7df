// The service version and the enums of the wire, without zod: src/api/schemas.ts builds on them
// and the sandbox reads them at run time without loading zod (it must start in under a second).
export const SERVICE_VERSION = '2026-10-05';

/** Values known today; the wire accepts any string (schemas.ts `openEnum`). */
export const KNOWN_APPS = [
  'claude-code', 'codex', 'cursor', 'gemini-cli', 'opencode', 'pi', 'grok', 'muse', 'chatgpt',
  'claude', 'dots', 'other', 'webhook',
] as const;

export const KNOWN_KINDS = ['choice', 'approval', 'text', 'questions', 'failure', 'update'] as const;

export const CARD_STATUSES = ['pending', 'snoozed', 'delegated', 'done'] as const;

export const SCOPES = [
  'cards:read', 'cards:read:all', 'cards:answer', 'cards:reply', 'cards:later', 'cards:delegate',
  'assistants:read', 'presence:desk',
] as const;

export const PROBLEM_CODES = [
  'invalid', 'app_not_available', 'high_stakes', 'area_change', 'forbidden', 'not_your_answer',
  'not_found', 'version_conflict', 'not_waiting', 'delegated', 'hold_over', 'conflict',
  'idempotency_in_progress', 'idempotency_mismatch', 'rate_limited', 'server_error',
  'not_available', 'unavailable',
] as const;

export type Scope = (typeof SCOPES)[number];
export type CardStatus = (typeof CARD_STATUSES)[number];
export type KnownKind = (typeof KNOWN_KINDS)[number];
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/**
 * The spec's limit classes ("Limits": reads, writes, answers, waits, per person); DESIGN: assistants
 * and non-waiting changes are reads, presence a write. The client pauses a class after a 429
 * (limit-classes.ts) and the sandbox counts them (sandbox/limits.ts, sandbox/v1-route-table.ts).
 */
export const LIMIT_CLASSES = ['read', 'write', 'answer', 'wait', 'person'] as const;
export type LimitClass = (typeof LIMIT_CLASSES)[number];

/**
 * The longest one wait on the asking surface holds (GET /_ask/cards/{id}/heard, docs/ask-api.md):
 * like the feed's 25 s, so no proxy or idle timeout cuts it. Here, not in ask-schemas.ts, so the
 * bridge reads it without loading zod.
 */
export const ASK_WAIT_MAX_MS = 25_000;

/**
 * A card summary's quoted block (#52): the gutter every line of text a model wrote begins with, so
 * no line of it can pass for the card's own words. The bridge writes it (src/bridge/quoted-text.ts),
 * the display reads it (src/shared/summary-blocks.ts).
 */
export const GUTTER = '\u2502 ';

/** Every line break a terminal, an editor or a browser may show as one. */
export const BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
