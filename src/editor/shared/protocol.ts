// Messages between the card panel's host (src/editor/card-panel.ts) and its webview
// (media/webview/main.ts). Both sides import this file, so it must never import `vscode`.
// Every message is validated on arrival (`isFromWebview`): the webview is treated as untrusted.
import type { Card } from '../../api/schemas';
import type { Allowed } from './scopes';

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

export interface Draft {
  choiceIds?: string[];
  note?: string;
  text?: string;
  message?: string;
  answers?: Record<string, string>;
  laterDate?: string;
  laterTime?: string;
  delegateNote?: string;
  /** The helper picked in the hand-over form, kept across re-renders. */
  delegateAssistantId?: string;
  delegateAgentId?: string;
  delegateMode?: string;
}

/** Host -> webview. */
export type ToWebview =
  /** First, before the card: VS Code's translations (message -> words; none for English) and display language. */
  | { type: 'words'; bundle: Record<string, string> | undefined; locale: string }
  | {
      type: 'card';
      card: Card;
      /** The version the webview must name back: the one it is now showing. */
      shownVersion: number;
      /** Set when a version_conflict brought a newer version: the panel says so and asks again. */
      changedSinceAnswer?: boolean;
      draft?: Draft;
      timeZone: string;
      canAct: boolean;
      /** The signed-in app's own undo window (absent when there is nothing to undo here). */
      undoUntil?: string;
      nowMs: number;
      /** Words this editor sent to the assistant, by message id (the history names only the id). */
      sentWords?: Record<string, string>;
      /** What the sign-in's scopes allow (absent: everything); the panel hides the rest. */
      allowed?: Allowed;
      /** What the sign-in was not allowed and how to allow it, when something is missing. */
      notAllowed?: string;
    }
  | { type: 'assistants'; assistants: AssistantChoice[] }
  | { type: 'busy'; action: string }
  /** `version`: the card's version after the press, shown with the message (Undo names it). */
  | { type: 'done'; action: string; message: string; version: number; undoUntil?: string; nowMs: number; answered?: string }
  | { type: 'problem'; action: string; problem: ShownProblem }
  | { type: 'gone'; message: string };

/** The presses that act on the card (each becomes one request with the shown version). */
export const ACTIONS = ['answer', 'gotIt', 'undo', 'message', 'later', 'back', 'delegate', 'takeBack'] as const;
export type ActionName = (typeof ACTIONS)[number];
export const isActionName = (v: unknown): v is ActionName => (ACTIONS as readonly unknown[]).includes(v);

/** Webview -> host. `version` is always the card version the person was shown. */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'answer'; version: number; body: AnswerPayload }
  /** Closes a notice (an `update` card): its own press, never an empty answer. */
  | { type: 'gotIt'; version: number }
  | { type: 'undo'; version: number }
  | { type: 'message'; version: number; body: string }
  | { type: 'later'; version: number; until: string }
  | { type: 'back'; version: number }
  | { type: 'delegate'; version: number; assistantId: string; agentId?: string; mode: 'freely' | 'loop'; note?: string }
  | { type: 'takeBack'; version: number }
  | { type: 'openLink'; url: string }
  | { type: 'openInBrowser' }
  | { type: 'goToTerminal' }
  | { type: 'loadAssistants' }
  | { type: 'draft'; draft: Draft }
  | { type: 'close' };

/** The parts of an answer the person chose; the host adds the version. */
export interface AnswerPayload {
  choiceIds?: string[];
  approved?: boolean;
  text?: string;
  note?: { text: string };
  via?: 'text';
  theyDecide?: true;
  answers?: Record<string, string>;
  failedStep?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isOptStr = (v: unknown) => v === undefined || isStr(v);
const isVersion = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isStrArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const MAX_TEXT = 10_000;
const isText = (v: unknown): v is string => isStr(v) && v.length <= MAX_TEXT;

function isAnswerPayload(v: unknown): v is AnswerPayload {
  if (!isObj(v)) return false;
  const known = new Set(['choiceIds', 'approved', 'text', 'note', 'via', 'theyDecide', 'answers', 'failedStep']);
  if (Object.keys(v).some((k) => !known.has(k))) return false;
  if (v.choiceIds !== undefined && !isStrArray(v.choiceIds)) return false;
  if (v.approved !== undefined && typeof v.approved !== 'boolean') return false;
  if (v.text !== undefined && !isText(v.text)) return false;
  if (v.note !== undefined && !(isObj(v.note) && isText(v.note.text))) return false;
  if (v.via !== undefined && v.via !== 'text') return false;
  if (v.theyDecide !== undefined && v.theyDecide !== true) return false;
  if (v.answers !== undefined && !(isObj(v.answers) && Object.values(v.answers).every(isText))) return false;
  if (v.failedStep !== undefined && !(typeof v.failedStep === 'number' && Number.isInteger(v.failedStep))) return false;
  return true;
}

function isDraft(v: unknown): v is Draft {
  if (!isObj(v)) return false;
  for (const [k, x] of Object.entries(v)) {
    if (k === 'choiceIds') { if (!isStrArray(x)) return false; continue; }
    if (k === 'answers') { if (!(isObj(x) && Object.values(x).every(isText))) return false; continue; }
    if (!['note', 'text', 'message', 'laterDate', 'laterTime', 'delegateNote', 'delegateAssistantId', 'delegateAgentId', 'delegateMode'].includes(k)) return false;
    if (!isText(x)) return false;
  }
  return true;
}

/** Validates a message from the webview; anything else is dropped by the host. */
export function isFromWebview(m: unknown): m is FromWebview {
  if (!isObj(m) || !isStr(m.type)) return false;
  switch (m.type) {
    case 'ready': case 'openInBrowser': case 'goToTerminal': case 'loadAssistants': case 'close': return true;
    case 'answer': return isVersion(m.version) && isAnswerPayload(m.body);
    case 'undo': case 'back': case 'takeBack': case 'gotIt': return isVersion(m.version);
    case 'message': return isVersion(m.version) && isText(m.body) && m.body.trim().length > 0;
    case 'later': return isVersion(m.version) && isStr(m.until) && m.until.length <= 64;
    case 'delegate':
      return isVersion(m.version) && isStr(m.assistantId) && isOptStr(m.agentId)
        && (m.mode === 'freely' || m.mode === 'loop') && (m.note === undefined || isText(m.note));
    case 'openLink': return isStr(m.url) && m.url.length <= 8192;
    case 'draft': return isDraft(m.draft);
    default: return false;
  }
}

/** Only http(s) links leave the editor; everything else (javascript:, data:, file:, ...) is refused. */
export function safeExternalUrl(raw: string): string | undefined {
  let u: URL;
  try { u = new URL(raw); } catch { return undefined; }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  if (u.username || u.password) return undefined;
  return u.toString();
}
