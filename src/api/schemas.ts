// Wire shapes of the Person API (docs/spec/person-api.md) and the extra fields docs/spec/DESIGN.md adds.
// Unknown fields are tolerated (zod objects strip them by default: kept out of the way), and
// enums the service may grow (kind, status, turn, urgency, app, state) parse as plain strings,
// so a new value never breaks a read; the UI falls back to a generic rendering for it.
// zod/mini (the tree-shakeable form of zod 4; same parser, functions instead of methods) keeps
// the extension bundle small. The English messages are loaded once so malformed-answer errors
// read as they did with classic zod ("Invalid input: expected string, received number").
import * as z from 'zod/mini';
import { en } from 'zod/locales';

z.config(en());

import { CARD_STATUSES, KNOWN_APPS, KNOWN_KINDS, PROBLEM_CODES, SCOPES, SERVICE_VERSION } from './constants';

export { CARD_STATUSES, KNOWN_APPS, KNOWN_KINDS, PROBLEM_CODES, SCOPES, SERVICE_VERSION };
export type { CardStatus, KnownKind, ProblemCode, Scope } from './constants';

/** A string enum that accepts values added later by the service. */
const openEnum = <T extends readonly [string, ...string[]]>(_known: T) =>
  z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;

const Named = z.object({ id: z.string(), name: z.string() });
export type Named = z.infer<typeof Named>;

export const Option = z.object({ id: z.string(), label: z.string() });
export type Option = z.infer<typeof Option>;

export const Ask = z.object({
  id: z.string(),
  title: z.string(),
  options: z.optional(z.array(Option)),
});
export type Ask = z.infer<typeof Ask>;

export const Step = z.object({
  title: z.string(),
  state: z.optional(z.string()),
  detail: z.optional(z.string()),
});
export type Step = z.infer<typeof Step>;

export const HistoryEntry = z.object({
  at: z.string(),
  type: z.string(),
  by: z.optional(z.string()),
  app: z.optional(z.string()),
  appName: z.optional(z.string()),
  machine: z.optional(Named),
  detail: z.optional(z.string()),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** A history entry of a shape not known is kept as `type: 'unknown'` (its time when it has one): told, not dropped. */
const HistoryEntryOrUnknown = z.catch(HistoryEntry, (ctx) => {
  const at = (ctx.value as { at?: unknown } | null)?.at;
  return { at: typeof at === 'string' ? at : '', type: 'unknown' };
});

/** The lighter card form: what every card in a list has, whole or not. */
export const CardLight = z.object({
  id: z.string(),
  version: z.int(),
  status: openEnum(['pending', 'snoozed', 'delegated', 'done', 'answered'] as const),
  turn: openEnum(['you', 'agent'] as const),
  kind: openEnum(KNOWN_KINDS),
  title: z.string(),
  urgency: z.optional(z.string()),
  blocking: z.optional(z.boolean()),
  threadId: z.optional(z.string()),
  highStakes: z.optional(z.boolean()),
  whole: z.optional(z.literal(false)),
});

export const Card = z.extend(CardLight, {
  summary: z.optional(z.string()),
  options: z.optional(z.array(Option)),
  recommendedIds: z.optional(z.array(z.string())),
  url: z.optional(z.string()),
  createdAt: z.optional(z.string()),
  changedAt: z.optional(z.string()),
  assistant: z.optional(z.object({ id: z.string(), name: z.string(), app: z.string() })),
  agent: z.optional(Named),
  area: z.optional(Named),
  machine: z.optional(Named),
  multi: z.optional(z.boolean()),
  asks: z.optional(z.array(Ask)),
  steps: z.optional(z.array(Step)),
  answeredFrom: z.optional(z.object({ app: z.string(), machine: z.optional(Named) })),
  proposal: z.optional(z.record(z.string(), z.unknown())),
  /** What was answered (answered and done cards): the body as given, without `version` (decisions.md). */
  answer: z.optional(z.record(z.string(), z.unknown())),
  until: z.optional(z.string()),
  undoUntil: z.optional(z.string()),
  delegatedTo: z.optional(z.object({
    assistantId: z.string(), agentId: z.optional(z.string()), mode: z.string(),
  })),
  history: z.optional(z.array(HistoryEntryOrUnknown)),
  // update cards (incoming notices)
  severity: z.optional(z.string()),
  count: z.optional(z.int()),
  from: z.optional(z.string()),
  webhook: z.optional(z.object({ name: z.string(), area: z.optional(Named) })),
  firstAt: z.optional(z.string()),
  lastAt: z.optional(z.string()),
  worker: z.optional(z.string()),
});
export type Card = z.infer<typeof Card>;

/** A list entry is whole (`whole` absent or true) or light (`whole: false`). */
export const CardListEntry = z.union([Card, CardLight]);
export type CardListEntry = z.infer<typeof CardListEntry>;

export const CardList = z.object({
  cards: z.array(CardListEntry),
  next: z.optional(z.nullable(z.string())),
});
export type CardList = z.infer<typeof CardList>;

export const CardEnvelope = z.object({ card: Card });

export const Me = z.object({
  // name and email: additive (decisions.md); a service without them still parses.
  user: z.object({ id: z.string(), name: z.optional(z.string()), email: z.optional(z.string()) }),
  workspace: z.object({ id: z.string() }),
  app: z.object({ id: z.string(), name: z.string(), verified: z.boolean() }),
  grant: z.object({
    id: z.string(),
    scopes: z.array(z.string()),
    reach: openEnum(['machine', 'all'] as const),
    machine: z.optional(Named),
    dpop: z.boolean(),
    createdAt: z.string(),
    expiresAt: z.string(),
  }),
});
export type Me = z.infer<typeof Me>;

export const SessionTerminal = z.object({
  pid: z.optional(z.int()),
  tty: z.optional(z.string()),
  program: z.optional(z.string()),
});
export type SessionTerminal = z.infer<typeof SessionTerminal>;

export const LiveSession = z.object({
  appSessionId: z.string(),
  cwd: z.string(),
  liveAt: z.string(),
  terminal: z.optional(SessionTerminal),
});
export type LiveSession = z.infer<typeof LiveSession>;

export const Agent = z.object({
  id: z.string(),
  name: z.string(),
  state: openEnum(['live', 'recent', 'quiet'] as const),
  liveAt: z.optional(z.nullable(z.string())),
  openCards: z.int(),
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
  id: z.string(), status: z.string(), version: z.int(), undoUntil: z.string(),
});
export const StatusResult = z.object({ id: z.string(), status: z.string(), version: z.int() });
/** POST /v1/cards/{id}/page-link (additive, decisions.md "#35"): the card's page with a one-time ticket. */
export const PageLink = z.object({ url: z.string(), expiresAt: z.string() });
export type PageLink = z.infer<typeof PageLink>;
export const MessageResult = z.object({
  id: z.string(), messageId: z.string(), turn: z.string(), version: z.int(),
});
export const LaterResult = z.extend(StatusResult, { until: z.string() });
export const DelegateResult = z.extend(StatusResult, { hears: z.string(), undoUntil: z.string() });

// Request bodies.
export const AnswerBody = z.object({
  version: z.int(),
  choiceIds: z.optional(z.array(z.string())),
  approved: z.optional(z.boolean()),
  text: z.optional(z.string()),
  note: z.optional(z.object({ text: z.string() })),
  via: z.optional(z.enum(['text', 'voice'])),
  theyDecide: z.optional(z.literal(true)),
  answers: z.optional(z.record(z.string(), z.string())),
  failedStep: z.optional(z.int()),
  askId: z.optional(z.string()),
});
export type AnswerBody = z.infer<typeof AnswerBody>;

export const MessageBody = z.object({ body: z.string(), via: z.optional(z.enum(['text', 'voice'])) });
export type MessageBody = z.infer<typeof MessageBody>;

export const LaterBody = z.object({ until: z.string(), timeZone: z.optional(z.string()) });
export type LaterBody = z.infer<typeof LaterBody>;

export const DelegateBody = z.object({
  to: z.object({ assistantId: z.string(), agentId: z.optional(z.string()) }),
  mode: z.enum(['freely', 'loop']),
  note: z.optional(z.string()),
});
export type DelegateBody = z.infer<typeof DelegateBody>;

export const PresenceBody = z.object({ here: z.boolean() });

// Problems (RFC 9457) beyond sign-in.

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  code: z.string(),
  detail: z.string(),
  requestId: z.string(),
  url: z.optional(z.string()),
  errors: z.optional(z.array(z.object({ field: z.string(), reason: z.string() }))),
});
export type Problem = z.infer<typeof Problem>;

/** OAuth error body (sign-in refusals, device polling). */
export const OAuthError = z.object({ error: z.string(), error_description: z.optional(z.string()) });
export type OAuthError = z.infer<typeof OAuthError>;

export const DeviceAuthorization = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  // Optional in RFC 8628 section 3.2 (the service sends both): the client then shows the plain
  // verification_uri with the code, and polls every 5 s (src/auth/device-flow.ts).
  verification_uri_complete: z.optional(z.string()),
  expires_in: z.int(),
  interval: z.optional(z.int()),
  client_id: z.optional(z.string()),
});
export type DeviceAuthorization = z.infer<typeof DeviceAuthorization>;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.string(),
  // Only RECOMMENDED in RFC 6749 section 5.1: absent, the token set assumes the spec's 15 minutes.
  expires_in: z.optional(z.int()),
  refresh_token: z.optional(z.string()),
  scope: z.optional(z.string()),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** The computer identity file of docs/spec/DESIGN.md. */
export const MachineIdentity = z.object({
  id: z.string().check(z.regex(/^mch_[A-Za-z0-9-]+$/)),
  name: z.string(),
  baseUrl: z.string(),
  privateJwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string(), d: z.string() }),
  /** `"sandbox"` on a file a sandbox wrote (docs/decisions.md); absent on a real service's. */
  madeBy: z.optional(z.string()),
});
export type MachineIdentity = z.infer<typeof MachineIdentity>;
