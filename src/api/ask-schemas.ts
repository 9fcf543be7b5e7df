// The asking surface, /_ask/ (docs/ask-api.md): every body an asker sends and every answer it
// gets, once. The sandbox checks requests with these schemas (sandbox/ask-routes.ts) and its tests
// check every answer against them; the bridge (src/bridge) imports the types only, so a hook
// process never loads zod. Bodies are strict: a field an asker may not set is refused by name
// (#52 F5: proposals, areas, webhooks, answers, hand-overs and history are the service's).
// Answers are strict too: a route that answers a field this module does not name fails its test.
import * as z from 'zod/mini';
import { KNOWN_APPS } from './constants';

/** The longest text an asker may send (a title, a summary). */
export const ASK_MAX_TEXT = 10_000;
/** The longest a session id may be. */
export const ASK_MAX_SESSION_ID = 200;

const text = z.string().check(z.maxLength(ASK_MAX_TEXT));
const nonEmpty = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

const AskOption = z.strictObject({ id: nonEmpty(200), label: text });
const AskQuestion = z.strictObject({ id: nonEmpty(200), title: text, options: z.optional(z.array(AskOption).check(z.maxLength(50))) });
const AskStep = z.strictObject({ title: text, state: z.optional(z.string()), detail: z.optional(text) });

/**
 * What an asker may say about a card, and nothing else. `reason` is why it was asked (the hook
 * bridge: `permission`, `question`, `waiting`; `ask`: `ask`); `settles` withdraws the session's
 * open cards of those reasons as this one is asked (asking again means the CLI went on).
 */
export const AskedCard = z.strictObject({
  kind: nonEmpty(40),
  title: text,
  summary: z.optional(text),
  options: z.optional(z.array(AskOption).check(z.maxLength(50))),
  recommendedIds: z.optional(z.array(z.string()).check(z.maxLength(50))),
  urgency: z.optional(nonEmpty(40)),
  blocking: z.optional(z.boolean()),
  /** Answerable only on the service's own page: an asker may make a card stricter, never looser. */
  highStakes: z.optional(z.boolean()),
  multi: z.optional(z.boolean()),
  asks: z.optional(z.array(AskQuestion).check(z.maxLength(20))),
  steps: z.optional(z.array(AskStep).check(z.maxLength(50))),
  reason: z.optional(nonEmpty(100)),
  settles: z.optional(z.array(nonEmpty(100)).check(z.maxLength(20))),
});
export type AskedCard = z.infer<typeof AskedCard>;

/** The fields an asker may set on a card, for the refusal that names the others. */
export const ASKED_CARD_FIELDS = Object.keys(AskedCard.def.shape) as readonly (keyof AskedCard)[];

export const AskTerminal = z.strictObject({ pid: z.optional(z.int()), tty: z.optional(z.string()), program: z.optional(z.string()) });
export type AskTerminal = z.infer<typeof AskTerminal>;

/**
 * POST /_ask/sessions: a live session of an assistant CLI. The first registration needs the run's
 * ask key and answers the session's own key; registering again needs that key. With `card`, the
 * card is asked in the same request (a prompt costs the bridge this call and the wait).
 */
export const SessionRegistration = z.strictObject({
  app: z.enum(KNOWN_APPS.filter((a) => a !== 'webhook') as [string, ...string[]]),
  appSessionId: nonEmpty(ASK_MAX_SESSION_ID),
  cwd: z.string().check(z.maxLength(4_096)),
  terminal: z.optional(AskTerminal),
  /** The assistant's name in the Assistants view (default: the app's). */
  name: z.optional(nonEmpty(100)),
  /** The agent's name under it (default `main`). */
  agent: z.optional(nonEmpty(100)),
  machineId: z.optional(nonEmpty(100)),
  card: z.optional(AskedCard),
});
export type SessionRegistration = z.infer<typeof SessionRegistration>;

/** POST /_ask/cards: a card asked in a registered session (with the session's key). */
export const CardAskBody = z.strictObject({ ...AskedCard.def.shape, appSessionId: nonEmpty(ASK_MAX_SESSION_ID) });
export type CardAskBody = z.infer<typeof CardAskBody>;

/** POST /_ask/sessions/{appSessionId}/withdraw: the person went on in the terminal; no `reasons` means every open card. */
export const WithdrawBody = z.strictObject({ reasons: z.optional(z.array(nonEmpty(100)).check(z.maxLength(20))) });
export type WithdrawBody = z.infer<typeof WithdrawBody>;

// ---- answers -------------------------------------------------------------------------------

/** A card as its asker sees it: where it stands, never what the person's apps see. */
export const AskedCardState = z.strictObject({
  id: z.string(),
  version: z.int(),
  status: z.string(),
  turn: z.string(),
  closedBy: z.optional(z.string()),
  delegated: z.optional(z.strictObject({ mode: z.string() })),
  until: z.optional(z.string()),
});
export type AskedCardState = z.infer<typeof AskedCardState>;

/** What the card's assistant heard: the person's answer after its hold, words, a helper's answer. */
export const Heard = z.strictObject({
  at: z.string(),
  type: z.enum(['answer', 'message', 'helper-answer']),
  body: z.record(z.string(), z.unknown()),
});
export type Heard = z.infer<typeof Heard>;

export const Registered = z.strictObject({
  assistantId: z.string(),
  agentId: z.string(),
  appSessionId: z.string(),
  liveAt: z.string(),
  /** The session was not registered before. */
  new: z.boolean(),
  /** This session's key: what it reads, asks, withdraws and registers again with. */
  sessionKey: z.string(),
  card: z.optional(AskedCardState),
});
export type Registered = z.infer<typeof Registered>;

/** GET /_ask/cards/{id}/heard: the card, what it heard past `seen`, and the new `seen`. */
export const HeardAnswer = z.strictObject({ ...AskedCardState.def.shape, heard: z.array(Heard), seen: z.int(), pickedUp: z.optional(z.boolean()) });
export type HeardAnswer = z.infer<typeof HeardAnswer>;

export const Withdrawn = z.strictObject({ appSessionId: z.string(), withdrawn: z.array(z.string()) });
export type Withdrawn = z.infer<typeof Withdrawn>;

export const SessionEnded = z.strictObject({ appSessionId: z.string(), ended: z.boolean(), withdrawn: z.array(z.string()) });
export type SessionEnded = z.infer<typeof SessionEnded>;

/** Every refusal: `code` (invalid, unauthorized, forbidden, not_found, conflict), words, and the fields at fault. */
export const AskProblem = z.strictObject({
  code: z.enum(['invalid', 'unauthorized', 'forbidden', 'not_found', 'conflict']),
  detail: z.string(),
  errors: z.optional(z.array(z.strictObject({ field: z.string(), reason: z.string() }))),
});
export type AskProblem = z.infer<typeof AskProblem>;
