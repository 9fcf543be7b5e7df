// One line of a card's history in the panel: local times throughout, and a message by its words
// (remembered by this editor when sent) instead of its id. No `vscode` here: the webview uses it.
import type { PanelHistoryEntry } from './panel-card';
import { displayLocale, t } from './l10n';

export interface HistoryLine {
  at: string;
  what: string;
  who: string;
  detail: string;
}

/** A date and time in VS Code's display language (not the webview's own) and the person's time zone. */
export function localTime(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Date(at).toLocaleString(displayLocale(), { timeZone });
}

// The spec's step types and who took them, in the person's words; a type not known here is the
// service's own word, shown as it came (plain text).
const WHAT: Record<string, () => string> = {
  asked: () => t('asked'), answered: () => t('answered'), undone: () => t('undone'), later: () => t('put in Later'),
  back: () => t('back from Later'), delegated: () => t('handed over'), 'taken-back': () => t('taken back'),
  'helper-answered': () => t('the helper answered'), proposal: () => t('a helper proposed'), 'picked-up': () => t('picked up'), withdrawn: () => t('withdrawn'),
  resolved: () => t('resolved'), notice: () => t('notice'), message: () => t('words sent'), area: () => t('moved to another area'),
  unknown: () => t('a step of an unknown kind'),
};
const WHO: Record<string, () => string> = {
  person: () => t('you'), assistant: () => t('the assistant'), helper: () => t('the helper'),
  webhook: () => t('the webhook'), service: () => t('the service'),
};
/** `map[key]` when it is the map's own (a key from the service such as `constructor` finds nothing). */
const own = <T>(map: Readonly<Record<string, T>>, key: string | undefined): T | undefined =>
  key !== undefined && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;

/** `sentWords`: message id -> the words this editor sent. */
export function historyLine(e: PanelHistoryEntry, timeZone: string, sentWords: Readonly<Record<string, string>> = {}): HistoryLine {
  let detail = e.detail ?? '';
  if (e.type === 'message' && detail) {
    const words = own(sentWords, detail);
    // An id means nothing to the person: the words when known, else just that words were sent.
    detail = words !== undefined ? `“${words}”` : /^msg_/.test(detail) ? '' : detail;
  } else if (e.type === 'later' && detail && /^\d{4}-\d\d-\d\dT/.test(detail)) {
    detail = t('until {0}', localTime(detail, timeZone));
  }
  return {
    at: localTime(e.at, timeZone),
    what: own(WHAT, e.type)?.() ?? e.type,
    who: [own(WHO, e.by)?.() ?? e.by, e.appName ?? e.app, e.machine?.name].filter(Boolean).join(' · '),
    detail,
  };
}
