// One line of a card's history in the panel: local times throughout, and a message by its words
// (remembered by this editor when sent) instead of its id. No `vscode` here: the webview uses it.
import type { HistoryEntry } from '../api/schemas';

export interface HistoryLine {
  at: string;
  what: string;
  who: string;
  detail: string;
}

export function localTime(iso: string, timeZone: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toLocaleString(undefined, { timeZone });
}

/** `sentWords`: message id -> the words this editor sent. */
export function historyLine(e: HistoryEntry, timeZone: string, sentWords: Readonly<Record<string, string>> = {}): HistoryLine {
  let detail = e.detail ?? '';
  if (e.type === 'message' && detail) {
    const words = Object.prototype.hasOwnProperty.call(sentWords, detail) ? sentWords[detail] : undefined;
    // An id means nothing to the person: the words when known, else just that words were sent.
    detail = words !== undefined ? `“${words}”` : /^msg_/.test(detail) ? '' : detail;
  } else if (e.type === 'later' && detail && /^\d{4}-\d\d-\d\dT/.test(detail)) {
    detail = `until ${localTime(detail, timeZone)}`;
  }
  return {
    at: localTime(e.at, timeZone),
    what: e.type,
    who: [e.by, e.appName ?? e.app, e.machine?.name].filter(Boolean).join(' · '),
    detail,
  };
}
