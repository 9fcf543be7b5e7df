// One row of the Answers view per card: what was asked, what was answered, who (and from which
// app and computer), when, and how long the card waited for it. Read from the card's history
// (`by`, `app`, `appName`, `machine`) and its `answer` (decisions.md "Answers"). Pure data, no
// words: src/editor/answers/answer-words.ts says it to the person and writes the export.
import type { Card, CardListEntry, HistoryEntry, Named } from '../api/schemas';
import { isLight } from './card-filter';

/** Who made a step. `machine` absent on a person's step: an app with no computer (the phone, a website). */
export type Who =
  | { kind: 'person'; appId?: string; appName?: string; machine?: Named }
  | { kind: 'helper'; name?: string }
  | { kind: 'webhook'; name?: string }
  | { kind: 'assistant' }
  | { kind: 'service' }
  | { kind: 'unknown'; by?: string };

/** Who, as the search names it: a person's step without a computer is `phone`. */
export type WhoKey = 'person' | 'phone' | 'helper' | 'webhook' | 'assistant' | 'service' | 'unknown';

export type Outcome =
  | 'answered' | 'got-it' | 'handed-over' | 'taken-back' | 'helper-answered' | 'proposal' | 'put-off' | 'back'
  | 'undone' | 'words' | 'resolved' | 'withdrawn' | 'picked-up' | 'asked' | 'closed' | 'unknown';

const OUTCOME_OF: Record<string, Outcome> = {
  answered: 'answered', 'got-it': 'got-it', delegated: 'handed-over', 'taken-back': 'taken-back',
  'helper-answered': 'helper-answered', proposal: 'proposal', later: 'put-off', back: 'back', undone: 'undone',
  message: 'words', resolved: 'resolved', withdrawn: 'withdrawn', 'picked-up': 'picked-up', asked: 'asked', notice: 'asked',
};
/** Steps that decide a card (the row tells the last of them); the rest are on the way. */
const DECIDING: ReadonlySet<Outcome> = new Set<Outcome>([
  'answered', 'got-it', 'helper-answered', 'proposal', 'words', 'resolved', 'withdrawn', 'handed-over', 'put-off', 'undone',
]);

export interface AnswerStep {
  at: string;
  /** The history's own type (plain text; `unknown` for an entry of a shape not known). */
  type: string;
  outcome: Outcome;
  who: Who;
  detail?: string;
}

/** What was answered, by the card's own words: option labels, not ids. */
export interface AnswerGiven {
  /** Picked options: the label, or undefined when the card has no such option (the id kept aside). */
  choices: { id: string; label: string | undefined }[];
  approved?: boolean;
  text?: string;
  theyDecide?: boolean;
  /** questions cards: ask title (or id) and the answer's words. */
  asks: { ask: string; answer: string }[];
  failedStep?: string;
  note?: string;
}

export interface AnswerRow {
  id: string;
  version: number;
  status: string;
  kind: string;
  title: string;
  outcome: Outcome;
  who: Who;
  /** When the deciding step happened (ISO), if known. */
  at: string | undefined;
  askedAt: string | undefined;
  waitedMs: number | undefined;
  /** undefined: the service did not say what was answered (or nothing was). */
  answer: AnswerGiven | undefined;
  assistant?: { id: string; name: string; app: string };
  area?: Named;
  /** The asking assistant's computer. */
  machine?: Named;
  steps: AnswerStep[];
  /** false: only the lighter form could be read (no history): who and what are not known. */
  whole: boolean;
  /** Message ids of words written on the card (exported only when the person asks). */
  messageIds: string[];
}

export function whoOf(e: Pick<HistoryEntry, 'by' | 'app' | 'appName' | 'machine' | 'detail' | 'type'>): Who {
  switch (e.by) {
    case 'person':
      return { kind: 'person', ...(e.app ? { appId: e.app } : {}), ...(e.appName ? { appName: e.appName } : {}), ...(e.machine ? { machine: e.machine } : {}) };
    case 'helper':
      return { kind: 'helper', ...(e.detail ? { name: e.detail } : {}) };
    case 'webhook':
      return { kind: 'webhook', ...(e.type === 'notice' && e.detail ? { name: e.detail } : {}) };
    case 'assistant':
      return { kind: 'assistant' };
    case 'service':
      return { kind: 'service' };
    default:
      return { kind: 'unknown', ...(e.by ? { by: e.by } : {}) };
  }
}

export function whoKey(w: Who): WhoKey {
  return w.kind === 'person' && !w.machine ? 'phone' : w.kind;
}

function stepOf(e: HistoryEntry): AnswerStep {
  const outcome = OUTCOME_OF[e.type] ?? 'unknown';
  return { at: e.at, type: e.type, outcome, who: whoOf(e), ...(e.detail && e.type !== 'message' ? { detail: e.detail } : {}) };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The card's `answer` in its own words; undefined when the card carries none. */
export function answerGiven(card: Card): AnswerGiven | undefined {
  const a = card.answer;
  if (!a || typeof a !== 'object') return undefined;
  const label = (id: string, options = card.options) => options?.find((o) => o.id === id)?.label;
  const choices = Array.isArray(a.choiceIds) ? a.choiceIds.filter((x): x is string => typeof x === 'string').map((id) => ({ id, label: label(id) })) : [];
  const asks: AnswerGiven['asks'] = [];
  if (a.answers && typeof a.answers === 'object' && !Array.isArray(a.answers)) {
    for (const [askId, value] of Object.entries(a.answers as Record<string, unknown>)) {
      const ask = card.asks?.find((x) => x.id === askId);
      const v = str(value) ?? '';
      asks.push({ ask: ask?.title ?? askId, answer: (ask?.options?.length ? label(v, ask.options) : undefined) ?? v });
    }
  }
  const note = a.note && typeof a.note === 'object' ? str((a.note as { text?: unknown }).text) : undefined;
  const step = typeof a.failedStep === 'number' ? card.steps?.[a.failedStep]?.title ?? String(a.failedStep + 1) : undefined;
  return {
    choices,
    ...(typeof a.approved === 'boolean' ? { approved: a.approved } : {}),
    ...(str(a.text) ? { text: str(a.text) } : {}),
    ...(a.theyDecide === true ? { theyDecide: true } : {}),
    asks,
    ...(step !== undefined ? { failedStep: step } : {}),
    ...(note ? { note } : {}),
  };
}

/** The row of a card, whole or light (a light one says only what was asked). */
export function rowOf(entry: CardListEntry): AnswerRow {
  const base = { id: entry.id, version: entry.version, status: entry.status, kind: entry.kind, title: entry.title };
  if (isLight(entry)) {
    return { ...base, outcome: 'unknown', who: { kind: 'unknown' }, at: undefined, askedAt: undefined, waitedMs: undefined, answer: undefined, steps: [], whole: false, messageIds: [] };
  }
  const card = entry as Card;
  const steps = (card.history ?? []).map(stepOf);
  let decided: AnswerStep | undefined;
  for (let i = steps.length - 1; i >= 0 && !decided; i--) if (DECIDING.has(steps[i]!.outcome)) decided = steps[i];
  // Nothing decided it (a card closed another way, or only unknown steps): its last step says how it ended.
  decided ??= steps.length ? steps[steps.length - 1] : undefined;
  const askedAt = steps.find((s) => s.outcome === 'asked')?.at ?? card.createdAt;
  const at = decided?.at || card.changedAt;
  const waited = askedAt && at ? Date.parse(at) - Date.parse(askedAt) : NaN;
  const answered = decided && ['answered', 'got-it', 'helper-answered', 'proposal'].includes(decided.outcome);
  return {
    ...base,
    outcome: decided?.outcome ?? (card.status === 'done' ? 'closed' : 'unknown'),
    who: decided?.who ?? { kind: 'unknown' },
    at: at || undefined,
    askedAt: askedAt || undefined,
    waitedMs: Number.isFinite(waited) && waited >= 0 ? waited : undefined,
    answer: answered ? answerGiven(card) : undefined,
    ...(card.assistant ? { assistant: card.assistant } : {}),
    ...(card.area ?? card.webhook?.area ? { area: card.area ?? card.webhook?.area } : {}),
    ...(card.machine ? { machine: card.machine } : {}),
    steps,
    whole: true,
    messageIds: (card.history ?? []).filter((e) => e.type === 'message' && e.detail && /^msg_/.test(e.detail)).map((e) => e.detail!),
  };
}

/**
 * An open card's row belongs in the view when a deciding step of it (put off, handed over,
 * undone, words written...) happened since `since` (ms): a card merely asked and waiting has none.
 */
export function decidedSince(row: AnswerRow, since: number): boolean {
  return row.whole && DECIDING.has(row.outcome) && row.at !== undefined && Date.parse(row.at) >= since;
}

/** What the person searches by; every part given must hold. */
export interface AnswerSearch {
  /** Words in the question or the answer (each word must appear; any case). */
  words?: string;
  assistants?: readonly string[];
  areas?: readonly string[];
  /** The computer the answer came from, or the asking assistant's. */
  machines?: readonly string[];
  /** The app the answer came from (its `app_` id), or the asking assistant's (the spec's app enum). */
  apps?: readonly string[];
  who?: readonly WhoKey[];
}

export function isSearchEmpty(s: AnswerSearch): boolean {
  return !s.words?.trim() && !s.assistants?.length && !s.areas?.length && !s.machines?.length && !s.apps?.length && !s.who?.length;
}

/**
 * The words a row can be found by: its question, its answer, and the names of its assistant,
 * area, computers and apps (the words the row shows).
 */
export function searchText(row: AnswerRow): string {
  const a = row.answer;
  const who = row.who.kind === 'person' ? row.who : undefined;
  const parts = [row.title, row.assistant?.name ?? '', row.assistant?.app ?? '', row.area?.name ?? '', row.machine?.name ?? '', who?.machine?.name ?? '', who?.appName ?? ''];
  if (a) {
    for (const c of a.choices) parts.push(c.label ?? c.id);
    for (const q of a.asks) parts.push(q.ask, q.answer);
    parts.push(a.text ?? '', a.note ?? '', a.failedStep ?? '');
  }
  return parts.join('\n').toLocaleLowerCase();
}

export function rowMatches(row: AnswerRow, s: AnswerSearch): boolean {
  const words = (s.words ?? '').toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length) {
    const text = searchText(row);
    if (!words.every((w) => text.includes(w))) return false;
  }
  if (s.assistants?.length && !(row.assistant && s.assistants.includes(row.assistant.id))) return false;
  if (s.areas?.length && !(row.area && s.areas.includes(row.area.id))) return false;
  if (s.machines?.length) {
    const from = row.who.kind === 'person' ? row.who.machine?.id : undefined;
    if (!(from && s.machines.includes(from)) && !(row.machine && s.machines.includes(row.machine.id))) return false;
  }
  if (s.apps?.length) {
    const from = row.who.kind === 'person' ? row.who.appId : undefined;
    if (!(from && s.apps.includes(from)) && !(row.assistant && s.apps.includes(row.assistant.app))) return false;
  }
  if (s.who?.length && !s.who.includes(whoKey(row.who))) return false;
  return true;
}

/** Newest first by the deciding step (then by id, so equal times keep one order). */
export function newestFirst(a: AnswerRow, b: AnswerRow): number {
  const ta = a.at ? Date.parse(a.at) : 0;
  const tb = b.at ? Date.parse(b.at) : 0;
  return tb - ta || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
