// Wire shapes of the Person API (spec/person-api.md) and the extra fields DESIGN.md adds.
// Unknown fields are tolerated (zod objects strip them by default: kept out of the way), and
// enums the service may grow (kind, status, turn, urgency, app, state) parse as plain strings,
// so a new value never breaks a read; the UI falls back to a generic rendering for it.
import { z } from 'zod';

export const SERVICE_VERSION = '2026-10-05';

/** Values known today; the wire accepts any string (see `openEnum`). */
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
export type Scope = (typeof SCOPES)[number];
export type CardStatus = (typeof CARD_STATUSES)[number];
export type KnownKind = (typeof KNOWN_KINDS)[number];

/** A string enum that accepts values added later by the service. */
const openEnum = <T extends readonly [string, ...string[]]>(_known: T) =>
  z.string() as unknown as z.ZodType<T[number] | (string & {})>;

const Named = z.object({ id: z.string(), name: z.string() });
export type Named = z.infer<typeof Named>;

export const Option = z.object({ id: z.string(), label: z.string() });
export type Option = z.infer<typeof Option>;

export const Ask = z.object({
  id: z.string(),
  title: z.string(),
  options: z.array(Option).optional(),
});
export type Ask = z.infer<typeof Ask>;

export const Step = z.object({
  title: z.string(),
  state: z.string().optional(),
  detail: z.string().optional(),
});
export type Step = z.infer<typeof Step>;

export const HistoryEntry = z.object({
  at: z.string(),
  type: z.string(),
  by: z.string().optional(),
  app: z.string().optional(),
  appName: z.string().optional(),
  machine: Named.optional(),
  detail: z.string().optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** The lighter card form: what every card in a list has, whole or not. */
export const CardLight = z.object({
  id: z.string(),
  version: z.number().int(),
  status: openEnum(['pending', 'snoozed', 'delegated', 'done', 'answered'] as const),
  turn: openEnum(['you', 'agent'] as const),
  kind: openEnum(KNOWN_KINDS),
  title: z.string(),
  urgency: z.string().optional(),
  blocking: z.boolean().optional(),
  threadId: z.string().optional(),
  highStakes: z.boolean().optional(),
  whole: z.literal(false).optional(),
});

export const Card = CardLight.extend({
  summary: z.string().optional(),
  options: z.array(Option).optional(),
  recommendedIds: z.array(z.string()).optional(),
  url: z.string().optional(),
  createdAt: z.string().optional(),
  changedAt: z.string().optional(),
  assistant: z.object({ id: z.string(), name: z.string(), app: z.string() }).optional(),
  agent: Named.optional(),
  area: Named.optional(),
  machine: Named.optional(),
  multi: z.boolean().optional(),
  asks: z.array(Ask).optional(),
  steps: z.array(Step).optional(),
  answeredFrom: z.object({ app: z.string(), machine: Named.optional() }).optional(),
  proposal: z.record(z.string(), z.unknown()).optional(),
  until: z.string().optional(),
  undoUntil: z.string().optional(),
  delegatedTo: z.object({
    assistantId: z.string(), agentId: z.string().optional(), mode: z.string(),
  }).optional(),
  history: z.array(HistoryEntry).optional(),
  // update cards (incoming notices)
  severity: z.string().optional(),
  count: z.number().int().optional(),
  from: z.string().optional(),
  webhook: z.object({ name: z.string(), area: Named.optional() }).optional(),
  firstAt: z.string().optional(),
  lastAt: z.string().optional(),
  worker: z.string().optional(),
});
export type Card = z.infer<typeof Card>;

/** A list entry is whole (`whole` absent or true) or light (`whole: false`). */
export const CardListEntry = z.union([Card, CardLight]);
export type CardListEntry = z.infer<typeof CardListEntry>;

export const CardList = z.object({
  cards: z.array(CardListEntry),
  next: z.string().nullable().optional(),
});
export type CardList = z.infer<typeof CardList>;

export const CardEnvelope = z.object({ card: Card });

export const Me = z.object({
  user: z.object({ id: z.string() }),
  workspace: z.object({ id: z.string() }),
  app: z.object({ id: z.string(), name: z.string(), verified: z.boolean() }),
  grant: z.object({
    id: z.string(),
    scopes: z.array(z.string()),
    reach: openEnum(['machine', 'all'] as const),
    machine: Named.optional(),
    dpop: z.boolean(),
    createdAt: z.string(),
    expiresAt: z.string(),
  }),
});
export type Me = z.infer<typeof Me>;

export const SessionTerminal = z.object({
  pid: z.number().int().optional(),
  tty: z.string().optional(),
  program: z.string().optional(),
});
export type SessionTerminal = z.infer<typeof SessionTerminal>;

export const LiveSession = z.object({
  appSessionId: z.string(),
  cwd: z.string(),
  liveAt: z.string(),
  terminal: SessionTerminal.optional(),
});
export type LiveSession = z.infer<typeof LiveSession>;

export const Agent = z.object({
  id: z.string(),
  name: z.string(),
  state: openEnum(['live', 'recent', 'quiet'] as const),
  liveAt: z.string().nullable().optional(),
  openCards: z.number().int(),
  liveSessions: z.array(LiveSession),
});
export type Agent = z.infer<typeof Agent>;

export const Assistant = z.object({
  id: z.string(),
  app: openEnum(KNOWN_APPS),
  appName: z.string(),
  name: z.string(),
  machine: Named,
  hears: z.string(),
  agents: z.array(Agent),
});
export type Assistant = z.infer<typeof Assistant>;

export const AssistantList = z.object({ assistants: z.array(Assistant) });

export const Change = z.object({
  type: openEnum(['card.created', 'card.answered', 'card.changed', 'card.closed'] as const),
  cardId: z.string(),
  at: z.string(),
});
export type Change = z.infer<typeof Change>;

export const ChangeList = z.object({
  changes: z.array(Change),
  cursor: z.string(),
  more: z.boolean(),
});
export type ChangeList = z.infer<typeof ChangeList>;

// Action answers.
export const AnswerResult = z.object({
  id: z.string(), status: z.string(), version: z.number().int(), undoUntil: z.string(),
});
export const StatusResult = z.object({ id: z.string(), status: z.string(), version: z.number().int() });
export const MessageResult = z.object({
  id: z.string(), messageId: z.string(), turn: z.string(), version: z.number().int(),
});
export const LaterResult = StatusResult.extend({ until: z.string() });
export const DelegateResult = StatusResult.extend({ hears: z.string(), undoUntil: z.string() });

// Request bodies.
export const AnswerBody = z.object({
  version: z.number().int(),
  choiceIds: z.array(z.string()).optional(),
  approved: z.boolean().optional(),
  text: z.string().optional(),
  note: z.object({ text: z.string() }).optional(),
  via: z.enum(['text', 'voice']).optional(),
  theyDecide: z.literal(true).optional(),
  answers: z.record(z.string(), z.string()).optional(),
  failedStep: z.number().int().optional(),
  askId: z.string().optional(),
});
export type AnswerBody = z.infer<typeof AnswerBody>;

export const MessageBody = z.object({ body: z.string(), via: z.enum(['text', 'voice']).optional() });
export type MessageBody = z.infer<typeof MessageBody>;

export const LaterBody = z.object({ until: z.string(), timeZone: z.string().optional() });
export type LaterBody = z.infer<typeof LaterBody>;

export const DelegateBody = z.object({
  to: z.object({ assistantId: z.string(), agentId: z.string().optional() }),
  mode: z.enum(['freely', 'loop']),
  note: z.string().optional(),
});
export type DelegateBody = z.infer<typeof DelegateBody>;

export const PresenceBody = z.object({ here: z.boolean() });

// Problems (RFC 9457) beyond sign-in.
export const PROBLEM_CODES = [
  'invalid', 'app_not_available', 'high_stakes', 'area_change', 'forbidden', 'not_your_answer',
  'not_found', 'version_conflict', 'not_waiting', 'delegated', 'hold_over', 'conflict',
  'idempotency_in_progress', 'idempotency_mismatch', 'rate_limited', 'server_error',
  'not_available', 'unavailable',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  code: z.string(),
  detail: z.string(),
  requestId: z.string(),
  url: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), reason: z.string() })).optional(),
});
export type Problem = z.infer<typeof Problem>;

/** OAuth error body (sign-in refusals, device polling). */
export const OAuthError = z.object({ error: z.string(), error_description: z.string().optional() });
export type OAuthError = z.infer<typeof OAuthError>;

export const DeviceAuthorization = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_uri_complete: z.string(),
  expires_in: z.number().int(),
  interval: z.number().int(),
  client_id: z.string().optional(),
});
export type DeviceAuthorization = z.infer<typeof DeviceAuthorization>;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number().int(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** The computer identity file of DESIGN.md. */
export const MachineIdentity = z.object({
  id: z.string().regex(/^mch_[A-Za-z0-9-]+$/),
  name: z.string(),
  baseUrl: z.string(),
  privateJwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string(), d: z.string() }),
});
export type MachineIdentity = z.infer<typeof MachineIdentity>;
