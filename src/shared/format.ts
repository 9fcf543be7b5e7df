// Small pure formatters shared by the tree, the status bar and the card panel. No `vscode` here.
import { showHidden } from './hidden-chars';
import { displayLocale, relativeTimeFormat, t } from './l10n';

/** "just now", "5 minutes ago", "yesterday": Intl in VS Code's display language. */
export function ago(iso: string | undefined, nowMs: number): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const s = Math.round((nowMs - at) / 1000);
  if (s < 45) return t('just now');
  const m = Math.round(s / 60);
  const rtf = relativeTimeFormat();
  if (m < 60) return rtf.format(-m, 'minute');
  const h = Math.round(m / 60);
  if (h < 24) return rtf.format(-h, 'hour');
  return rtf.format(-Math.round(h / 24), 'day');
}

/** "in 5 minutes", "in 3 hours (14:30)", or a weekday, date and time for farther away. */
export function until(iso: string | undefined, nowMs: number, timeZone?: string): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const s = Math.round((at - nowMs) / 1000);
  if (s <= 0) return t('now');
  const m = Math.round(s / 60);
  const rtf = relativeTimeFormat();
  if (m < 60) return rtf.format(Math.max(1, m), 'minute');
  const opts: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', ...(timeZone ? { timeZone } : {}) };
  const h = Math.round(m / 60);
  if (h < 12) return t('{0} ({1})', rtf.format(h, 'hour'), new Intl.DateTimeFormat(displayLocale(), opts).format(at));
  return new Intl.DateTimeFormat(displayLocale(), { ...opts, weekday: 'short', day: 'numeric', month: 'short' }).format(at);
}

/** A date and time in the display language and the person's time zone (history, Later). */
export function dateTime(iso: string | undefined, timeZone?: string): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  return new Intl.DateTimeFormat(displayLocale(), { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(at);
}

/** "seen 3 times, 5 minutes ago" for notices. */
export function seen(count: number | undefined, lastAt: string | undefined, nowMs: number): string {
  const n = count ?? 1;
  const when = ago(lastAt, nowMs);
  const times = n === 1 ? t('seen once') : t('seen {0} times', n);
  return when ? t('{0}, {1}', times, when) : times;
}

/** Printable ASCII words, one space apart, no space at either end: already one clean line. */
const PLAIN_LINE = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** A one-line, bounded version of untrusted text for tree labels and notifications. */
export function oneLine(text: string | undefined, max = 120): string {
  if (!text) return '';
  // Most titles and names are printable ASCII words one space apart: nothing to clean (a tree
  // row makes about ten of these; the checks below cost each a pass of Unicode-property regexes).
  if (text.length <= max && PLAIN_LINE.test(text)) return text;
  // Line breaks and tabs are spaces; every other hidden character (bidi controls, zero-width,
  // C0/C1 controls) is shown as a mark, `[U+202E]`, so a title can neither reorder nor hide what
  // follows, nor pass unseen (shared/hidden-chars.ts: the one rule).
  const clean = showHidden(text.replace(/[\t\n\r]+/g, ' ')).replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Seconds left in an undo window, never negative. */
export function secondsLeft(undoUntil: string | undefined, nowMs: number): number {
  const t = undoUntil ? Date.parse(undoUntil) : NaN;
  return Number.isNaN(t) ? 0 : hearsIn(t, nowMs);
}

/** Whole seconds until a hold ends (ms on this computer's clock, as the model keeps it): "hears it in N s". */
export function hearsIn(holdUntil: number | undefined, nowMs: number): number {
  return holdUntil === undefined ? 0 : Math.max(0, Math.ceil((holdUntil - nowMs) / 1000));
}

/** ISO datetime for a local date ("2026-11-22") and time ("18:30") in the person's own time zone. */
export function localDateTimeToIso(date: string, time: string, timeZone: string): string | undefined {
  const dm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const tm = /^(\d{2}):(\d{2})$/.exec(time);
  if (!dm || !tm) return undefined;
  const [y, mo, d] = [Number(dm[1]), Number(dm[2]), Number(dm[3])];
  const [h, mi] = [Number(tm[1]), Number(tm[2])];
  // Guess UTC, then correct by the zone's offset at that instant (twice, for DST edges).
  let guess = Date.UTC(y, mo - 1, d, h, mi);
  for (let i = 0; i < 2; i++) {
    const off = zoneOffsetMs(guess, timeZone);
    if (off === undefined) return undefined;
    guess = Date.UTC(y, mo - 1, d, h, mi) - off;
  }
  return new Date(guess).toISOString();
}

function zoneOffsetMs(atMs: number, timeZone: string): number | undefined {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { // l10n-ignore: not words for people
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    }).formatToParts(atMs);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return asUtc - Math.floor(atMs / 1000) * 1000;
  } catch {
    return undefined;
  }
}
