// Messages between the card panel's host (src/editor/card-panel.ts) and its webview
// (media/webview/main.ts). Both sides import this file, so it must never import `vscode`.
// Each message from the webview is declared once, as a zod schema: its type is inferred from it,
// and the host validates every message on arrival with it (`parseFromWebview`): the webview is
// treated as untrusted. The webview imports types only, so zod stays out of its bundle.
// A message that gets a reply (a press, loadAssistants) carries a `requestId` the webview made;
// the reply names it back, and the webview matches replies by it.
import * as z from 'zod/mini';
import { isCardId } from './card-facts';
import { isActionType, VERSION_ACTIONS, type ActionType, type VersionAction } from './card-actions';
import type { Allowed } from './grant-scopes';
import type { NextCard } from './next-card';
import type { PanelCard } from './panel-card';

export interface AssistantChoice {
  id: string;
  name: string;
  appName: string;
  agents: { id: string; name: string; state: string }[];
}

/** A problem the panel shows: what happened and what to do next. */
export interface ShownProblem {
  code: string;
  /** Our sentence for the code; on insufficient_scope it names the missing scope. */
  message: string;
  next: string;
  url?: string;
  /** The service's own words for this refusal (its problem `detail`): one plain line, bounded. Show as text. */
  detail?: string;
  /** An `invalid` problem's field errors (at most 10, each a plain bounded line). Show as text, one per line. */
  fields?: ShownField[];
  /** insufficient_scope: the scope this sign-in lacks. */
  scope?: string;
}

export interface ShownField {
  field: string;
  reason: string;
}

/** Host -> webview. */
export type ToWebview =
  /** First, before the card: VS Code's translations (message -> words; none for English) and display language. */
  | { type: 'words'; bundle: Record<string, string> | undefined; locale: string }
  | {
      type: 'card';
      /** The card as the panel shows it (panel-card.ts), never the wire's. */
      card: PanelCard;
      /** The version the webview must name back: the one it is now showing. */
      shownVersion: number;
      /** Set when a version_conflict brought a newer version: the panel says so and asks again. */
      changedSinceAnswer?: boolean;
      draft?: Draft;
      timeZone: string;
      canAct: boolean;
      /** The signed-in app's own undo window (absent when there is nothing to undo here). */
      undoUntil?: string;
      /** The host's clock when it sent this (the hold's `undoUntil` is on that clock). */
      hostNowMs: number;
      /** Words this editor sent to the assistant, by message id (the history names only the id). */
      sentWords?: Record<string, string>;
      /** What the sign-in's scopes allow (absent: everything); the panel hides the rest. */
      allowed?: Allowed;
      /** What the sign-in was not allowed and how to allow it, when something is missing. */
      notAllowed?: string;
      /** The computer the card's assistant runs on, when it is not this one: no terminal is offered here. */
      elsewhere?: string;
    }
  /** The reply to `loadAssistants`. */
  | { type: 'assistants'; requestId: string; assistants: AssistantChoice[] }
  /** The press `requestId` is on its way. */
  | { type: 'busy'; requestId: string }
  /** The press went through. `version`: the card's version after it, shown with the message (Undo names it). */
  | { type: 'done'; requestId: string; message: string; version: number; undoUntil?: string; hostNowMs: number; answered?: string }
  /** A request refused or failed; without `requestId`, a problem nobody asked about (the card could not be read). */
  | { type: 'problem'; requestId?: string; problem: ShownProblem }
  | { type: 'gone'; message: string }
  /** The card that comes next once this one no longer waits on the person (none: nothing else waits). */
  | { type: 'next'; next?: NextCard }
  /** The panel appeared without the person opening it (a card link, another extension): clicks wait a moment. */
  | { type: 'guardClicks' };

const MAX_TEXT = 10_000;
const text = z.string().check(z.maxLength(MAX_TEXT));
/** A card version: always one the person was shown. */
const version = z.int().check(z.minimum(0));
const requestId = z.string().check(z.minLength(1), z.maxLength(64));

/** The parts of an answer the person chose; the host adds the version. */
export const AnswerPayload = z.strictObject({
  choiceIds: z.optional(z.array(z.string())),
  approved: z.optional(z.boolean()),
  text: z.optional(text),
  note: z.optional(z.object({ text })),
  via: z.optional(z.literal('text')),
  theyDecide: z.optional(z.literal(true)),
  answers: z.optional(z.record(z.string(), text)),
  failedStep: z.optional(z.int()),
});
export type AnswerPayload = z.infer<typeof AnswerPayload>;

/** What the person typed or picked and has not sent; kept across re-renders and reloads. */
export const Draft = z.strictObject({
  choiceIds: z.optional(z.array(z.string())),
  note: z.optional(text),
  text: z.optional(text),
  message: z.optional(text),
  answers: z.optional(z.record(z.string(), text)),
  laterDate: z.optional(text),
  laterTime: z.optional(text),
  delegateNote: z.optional(text),
  /** The helper picked in the hand-over form, kept across re-renders. */
  delegateAssistantId: z.optional(text),
  delegateAgentId: z.optional(text),
  delegateMode: z.optional(text),
});
export type Draft = z.infer<typeof Draft>;

/** A press whose message is the version alone (shared/card-actions.ts `carries: 'version'`). */
const versionMessage = <T extends VersionAction>(type: T) => z.object({ type: z.literal(type), requestId, version });
type VersionMessages = { [T in VersionAction]: ReturnType<typeof versionMessage<T>> };

/**
 * The presses that act on the card, one message for each row of the action table
 * (shared/card-actions.ts `CARD_ACTIONS`, the core's sync/actions-table.ts `ACTIONS` beside it):
 * each becomes one request naming the version the person was shown. A `version` action's message
 * is made from its row; one that carries what the person chose is declared here.
 */
const ActionMessages = {
  answer: z.object({ type: z.literal('answer'), requestId, version, body: AnswerPayload }),
  message: z.object({ type: z.literal('message'), requestId, version, body: text.check(z.refine((b) => b.trim().length > 0)) }),
  later: z.object({ type: z.literal('later'), requestId, version, until: z.string().check(z.maxLength(64)) }),
  delegate: z.object({
    type: z.literal('delegate'), requestId, version, assistantId: z.string(), agentId: z.optional(z.string()),
    mode: z.enum(['freely', 'loop']), note: z.optional(text),
  }),
  ...(Object.fromEntries(VERSION_ACTIONS.map((a) => [a, versionMessage(a)])) as VersionMessages),
} satisfies { [T in ActionType]: z.ZodMiniType<{ type: T; requestId: string; version: number }> };
export { isActionType, type ActionType };

/** Webview -> host. */
const FromWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  ...Object.values(ActionMessages),
  z.object({ type: z.literal('openLink'), url: z.string().check(z.maxLength(8192)) }),
  z.object({ type: z.literal('openInBrowser') }),
  z.object({ type: z.literal('goToTerminal') }),
  /** "Next" (or N): open, in this panel, the card whose title the panel showed. It opens; it never acts. */
  z.object({ type: z.literal('openNext'), cardId: z.string().check(z.refine(isCardId)) }),
  /** The helpers a hand-over may name; replied with `assistants`. */
  z.object({ type: z.literal('loadAssistants'), requestId }),
  z.object({ type: z.literal('draft'), draft: Draft }),
  z.object({ type: z.literal('close') }),
]);
export type FromWebview = z.infer<typeof FromWebviewSchema>;
export type ActionMessage = Extract<FromWebview, { type: ActionType }>;
/** A message that gets a reply naming its `requestId`. */
export type RequestMessage = Extract<FromWebview, { requestId: string }>;
export type RequestKind = RequestMessage['type'];
/** A request as the webview's presses build it, before it is given its id. */
export type Request = RequestMessage extends infer M ? (M extends unknown ? Omit<M, 'requestId'> : never) : never;
/** A press as actions.ts builds it. */
export type ActionRequest = Extract<Request, { type: ActionType }>;
/** A message that gets no reply. */
export type Notice = Exclude<FromWebview, RequestMessage>;

/** A message from the webview as the schema reads it (unknown keys left out), or undefined when it is not one. */
export function parseFromWebview(m: unknown): FromWebview | undefined {
  const r = FromWebviewSchema.safeParse(m);
  return r.success ? r.data : undefined;
}

export const isFromWebview = (m: unknown): m is FromWebview => parseFromWebview(m) !== undefined;

export { safeExternalUrl } from './external-url';
