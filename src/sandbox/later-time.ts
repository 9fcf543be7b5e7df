// `until` of POST /v1/cards/{id}/later: an ISO 8601 datetime from one minute to two months ahead,
// or a preset (`1h`, `tonight` = 6:00 PM, `tomorrow` = 8:00 AM) in the given IANA time zone.
export const MIN_AHEAD_MS = 60_000;

export type UntilResult = { ok: true; at: number } | { ok: false; field: string; reason: string };

/** Two calendar months after `now` (UTC calendar; the 31st clamps to the month's last day). */
export function twoMonthsAfter(now: number): number {
  const d = new Date(now);
  const day = d.getUTCDate();
  const target = new Date(d);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + 2);
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target.getTime();
}

export function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Wall-clock parts of `ms` in `tz`. */
function partsIn(ms: number, tz: string): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
    hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { y: p.year!, m: p.month!, d: p.day!, h: p.hour!, min: p.minute!, s: p.second! };
}

/** The instant when the wall clock in `tz` reads y-m-d h:00 (two passes settle DST offsets). */
export function zonedToUtc(y: number, m: number, d: number, h: number, tz: string): number {
  const wall = Date.UTC(y, m - 1, d, h, 0, 0);
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = partsIn(guess, tz);
    const seen = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s);
    guess += wall - seen;
  }
  return guess;
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function resolveUntil(until: unknown, timeZone: unknown, now: number): UntilResult {
  if (timeZone !== undefined && (typeof timeZone !== 'string' || !validTimeZone(timeZone))) {
    return { ok: false, field: 'timeZone', reason: 'must be an IANA time zone such as Europe/Berlin' };
  }
  const tz = (timeZone as string | undefined) ?? 'UTC';
  if (typeof until !== 'string') return { ok: false, field: 'until', reason: 'required: an ISO 8601 datetime, 1h, tonight or tomorrow' };
  if (until === '1h') return { ok: true, at: now + 3_600_000 };
  if (until === 'tonight' || until === 'tomorrow') {
    const p = partsIn(now, tz);
    const hour = until === 'tonight' ? 18 : 8;
    // tonight: 6 PM today, or tomorrow's when today's is less than a minute ahead.
    const offsetDays = until === 'tomorrow' ? 1 : 0;
    let at = zonedToUtc(p.y, p.m, p.d + offsetDays, hour, tz);
    if (at - now < MIN_AHEAD_MS) at = zonedToUtc(p.y, p.m, p.d + offsetDays + 1, hour, tz);
    return { ok: true, at };
  }
  if (!ISO_DATETIME.test(until)) {
    return { ok: false, field: 'until', reason: 'must be an ISO 8601 datetime with a time zone offset, or 1h, tonight, tomorrow' };
  }
  const at = Date.parse(until);
  if (!Number.isFinite(at)) return { ok: false, field: 'until', reason: 'not a valid datetime' };
  if (at - now < MIN_AHEAD_MS) return { ok: false, field: 'until', reason: 'must be at least one minute ahead' };
  if (at > twoMonthsAfter(now)) return { ok: false, field: 'until', reason: 'must be at most two months ahead' };
  return { ok: true, at };
}
