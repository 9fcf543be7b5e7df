// The Answers view's words for a row (who, what, when, how long it waited) and the export's file
// text (JSON Lines; CSV, a plain table, with what it holds in a JSON file beside it). Pure: no `vscode`, so plain-Node tests hold it. Card words are the
// service's: the view passes them through plainText; the file keeps them whole but on one line
// and, in CSV, never as a formula (a cell starting with = + - @ gets a leading ').
import type { AnswerGiven, AnswerRow, AnswerSearch, Outcome, Who, WhoKey } from '../../sync';
import { whoKey } from '../../sync';
import { oneLine } from '../../shared/format';
import { displayLocale, t } from '../../shared/l10n';

export function whoWords(w: Who): string {
  switch (w.kind) {
    case 'person': {
      const app = w.appName ?? w.appId;
      if (w.machine) return app ? t('You, {0} on {1}', app, w.machine.name) : t('You, on {0}', w.machine.name);
      return app ? t('You, {0} (no computer: phone or web)', app) : t('You');
    }
    case 'helper': return w.name ? t('Helper {0}', w.name) : t('A helper assistant');
    case 'webhook': return w.name ? t('Webhook {0}', w.name) : t('The webhook');
    case 'assistant': return t('The assistant');
    case 'service': return t('The service');
    case 'unknown': return w.by ? t('unknown ({0})', w.by) : t('unknown');
  }
}

/** Who, as the search offers and tells it. */
export function whoKeyWords(k: WhoKey): string {
  const words: Record<WhoKey, string> = {
    person: t('you, from a computer'), phone: t('you, from the phone or the web'), helper: t('a helper assistant'),
    webhook: t('a webhook'), assistant: t('the assistant'), service: t('the service'), unknown: t('unknown'),
  };
  return words[k];
}

export function outcomeWords(o: Outcome): string {
  const words: Record<Outcome, string> = {
    answered: t('answered'), 'got-it': t('got it'), 'handed-over': t('handed over'), 'taken-back': t('taken back'),
    'helper-answered': t('answered by a helper'), proposal: t('a helper proposed'), 'put-off': t('put off'), back: t('back'),
    undone: t('undone'), words: t('wrote to the assistant'), resolved: t('resolved'), withdrawn: t('withdrawn'),
    'picked-up': t('picked up'), asked: t('asked'), closed: t('closed'), unknown: t('unknown'),
  };
  return words[o];
}

/** What was answered, in the card's words; '' when nothing was. */
export function answerWords(a: AnswerGiven | undefined, outcome: Outcome): string {
  if (!a) return outcome === 'answered' || outcome === 'helper-answered' ? t('(not told)') : '';
  const parts: string[] = [];
  if (a.theyDecide) parts.push(t('left to the assistant'));
  if (a.approved === true) parts.push(t('approved'));
  if (a.approved === false) parts.push(t('declined'));
  if (a.choices.length) parts.push(a.choices.map((c) => c.label ?? t('an option no longer on the card')).join(', '));
  for (const q of a.asks) parts.push(t('{0}: {1}', q.ask, q.answer));
  if (a.failedStep) parts.push(t('about the step {0}', a.failedStep));
  if (a.text) parts.push(a.text);
  if (a.note) parts.push(t('note: {0}', a.note));
  if (!parts.length && outcome === 'got-it') return t('Got it');
  return parts.join('; ');
}

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function waitedWords(ms: number | undefined): string {
  if (ms === undefined) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return t('{0} s', s);
  const m = Math.round(s / 60);
  if (m < 60) return t('{0} min', m);
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? t('{0} h {1} min', h, m % 60) : t('{0} h', h);
  const d = Math.floor(h / 24);
  return h % 24 ? t('{0} d {1} h', d, h % 24) : t('{0} d', d);
}

/** One formatter per language and time zone: making one per row was most of an export's time. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The same words as format.ts `dateTime` (a date and time in the display language and zone). */
export function whenWords(iso: string | undefined, timeZone?: string): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const key = `${displayLocale() ?? ''}|${timeZone ?? ''}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(displayLocale(), { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
    formats.set(key, f);
  }
  return f.format(at);
}

/** What the search holds, for the view's description and the export's header. */
export function searchWords(s: AnswerSearch, names: (dim: 'assistant' | 'area' | 'machine' | 'app', id: string) => string = (_d, id) => id): string {
  const parts: string[] = [];
  if (s.words?.trim()) parts.push(t('words "{0}"', s.words.trim()));
  if (s.assistants?.length) parts.push(t('assistant {0}', s.assistants.map((id) => names('assistant', id)).join(', ')));
  if (s.areas?.length) parts.push(t('area {0}', s.areas.map((id) => names('area', id)).join(', ')));
  if (s.machines?.length) parts.push(t('computer {0}', s.machines.map((id) => names('machine', id)).join(', ')));
  if (s.apps?.length) parts.push(t('app {0}', s.apps.map((id) => names('app', id)).join(', ')));
  if (s.who?.length) parts.push(t('who {0}', s.who.map(whoKeyWords).join(', ')));
  return parts.join('; ');
}

// ---- the export ---------------------------------------------------------------------------------

export interface ExportHeader {
  /** The sign-in, as the person knows it: name and email from /v1/me (never a token). */
  signedInAs: { name?: string; email?: string; userId: string };
  app?: string;
  computer?: string;
  /**
   * The time range the file covers (ISO): the service's 30 days up to `to` when they were read
   * whole, else from the oldest row read (and `notRead` says what is missing).
   */
  from: string | undefined;
  to: string | undefined;
  filter: string;
  exportedAt: string;
  rows: number;
  /** Whether the rows carry message ids (the person asked for them). */
  messageIds: boolean;
  /** Parts the service refused, so the file says it is not whole. */
  notRead: string[];
}

/** One exported record: stable English field names, card words kept (on one line); every field through the one cell rule. */
export function exportRecord(r: AnswerRow, o: { messageIds: boolean; timeZone?: string }): Record<string, unknown> {
  return everyLine(record(r, o)) as Record<string, unknown>;
}

function record(r: AnswerRow, o: { messageIds: boolean; timeZone?: string }): Record<string, unknown> {
  const who = r.who;
  return {
    card: r.id,
    asked: line(r.title),
    outcome: r.outcome,
    answer: line(answerWords(r.answer, r.outcome)),
    who: line(whoWords(who)),
    whoKind: whoKey(who),
    app: who.kind === 'person' ? line(who.appName ?? who.appId ?? '') : '',
    computer: who.kind === 'person' ? line(who.machine?.name ?? '') : '',
    at: r.at ?? '',
    atLocal: whenWords(r.at, o.timeZone),
    waitedSeconds: r.waitedMs === undefined ? null : Math.round(r.waitedMs / 1000),
    assistant: line(r.assistant?.name ?? ''),
    area: line(r.area?.name ?? ''),
    askingComputer: line(r.machine?.name ?? ''),
    steps: r.steps.map((s) => `${s.at} ${line(s.type)} ${line(whoWords(s.who))}`),
    ...(r.whole ? {} : { notRead: true }),
    ...(o.messageIds ? { messageIds: r.messageIds } : {}),
  };
}

/**
 * The one cell rule: one line, every hidden character (C0, C1, bidi, zero-width, U+2028/U+2029)
 * shown as `[U+XXXX]` (shared/hidden-chars.ts), so no field of the file can move, hide or end a line.
 */
function line(s: string): string {
  return oneLine(s, 10_000);
}

/** Every string in a value (ids, times, names, the header's too) through `line`. */
function everyLine(v: unknown): unknown {
  if (typeof v === 'string') return line(v);
  if (Array.isArray(v)) return v.map(everyLine);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, everyLine(x)]));
  return v;
}

/** One JSON line; U+2028 and U+2029 escaped too (JSON allows them raw; JavaScript and some readers end a line there). */
function jsonLine(v: unknown): string {
  return JSON.stringify(v).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function answersJsonl(header: ExportHeader, rows: readonly AnswerRow[], o: { timeZone?: string } = {}): string {
  const out = [jsonLine(everyLine({ export: 'assistant-cards-answers', ...header }))];
  for (const r of rows) out.push(jsonLine(exportRecord(r, { messageIds: header.messageIds, timeZone: o.timeZone })));
  return `${out.join('\n')}\n`;
}

const CSV_COLUMNS = ['card', 'asked', 'outcome', 'answer', 'who', 'whoKind', 'app', 'computer', 'at', 'atLocal', 'waitedSeconds', 'assistant', 'area', 'askingComputer', 'steps'] as const;

/** One CSV cell: never read as a formula, quoted when it holds a comma, quote or line break. */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' | ') : String(v);
  // A spreadsheet runs a cell starting with = + - @ (or a tab/CR before one) as a formula.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function answersCsv(header: ExportHeader, rows: readonly AnswerRow[], o: { timeZone?: string } = {}): string {
  // A plain table: the header row first, one row per answer. What the file holds (the sign-in,
  // the range, the search) goes beside it (answersCsvAbout), so spreadsheets and CSV readers
  // read it as it is.
  const columns = csvColumns(header);
  const lines = [columns.join(',')];
  for (const r of rows) {
    const rec = exportRecord(r, { messageIds: header.messageIds, timeZone: o.timeZone });
    lines.push(columns.map((c) => csvCell(rec[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvColumns(header: ExportHeader): string[] {
  return header.messageIds ? [...CSV_COLUMNS, 'messageIds'] : [...CSV_COLUMNS];
}

/** The name of the file beside a CSV export that says what it holds: `answers.csv` -> `answers.csv.about.json`. */
export const aboutFileName = (csvName: string): string => `${csvName}.about.json`;

/** What a CSV export holds (the sign-in, the range, the search, what was not read), as JSON: the file beside it. */
export function answersCsvAbout(header: ExportHeader, csvName: string): string {
  return `${JSON.stringify(everyLine({ export: 'assistant-cards-answers', table: csvName, columns: csvColumns(header), ...header }), null, 2)}\n`;
}
