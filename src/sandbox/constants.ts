// The enums and the service version the sandbox needs at run time, without loading zod: the
// sandbox must start in under a second. test/sandbox/constants.test.ts keeps these equal to
// src/api/schemas.ts, which stays the single source of the wire shapes.
export const SERVICE_VERSION = '2026-10-05';

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
