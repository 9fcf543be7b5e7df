// The idle-hour simulation: a signed-in person with two editor windows (one owns the feed, one
// reads it slowly), present at the desk, no card changes, for one hour of the sandbox's manual
// clock. Counts every request by limit class. `npm run bench` can call simulateIdleHour().
import { classesOf, LIMITS_PER_MINUTE } from '../../src/sync/budget';
import type { LimitClass } from '../../src/sync/budget';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { makeWorld, signInCore } from '../kit';

export interface ClassReport {
  limitPerMinute: number;
  total: number;
  /** Average per minute over the hour. */
  perMinute: number;
  /** The busiest 60 s window. */
  peakMinute: number;
  /** perMinute / limit, in percent. */
  averagePercent: number;
  peakPercent: number;
}

export interface IdleHourReport {
  minutes: number;
  windows: number;
  classes: Record<LimitClass, ClassReport>;
}

export async function simulateIdleHour(o: { minutes?: number; windows?: number; stepMs?: number } = {}): Promise<IdleHourReport> {
  const minutes = o.minutes ?? 60;
  const windows = o.windows ?? 2;
  const stepMs = o.stepMs ?? 5000;
  const w = await makeWorld({ me: false });
  try {
    const events: { at: number; classes: LimitClass[] }[] = [];
    let counting = false;
    const onRequest = (info: { method: string; path: string; waits: boolean }) => {
      if (counting) events.push({ at: w.sb.clock.now(), classes: classesOf(info.method, info.path, info.waits) });
    };
    const store = new MemorySecretStore();
    const cores = Array.from({ length: windows }, () => w.core({ store, onRequest }));
    const first = cores[0]!;
    first.feed.setFocused(true);
    await signInCore(w, first);
    for (const c of cores.slice(1)) await c.start();
    await w.card({ title: 'an open card, seen once' });
    first.presence.setHere(true);
    counting = true;
    const start = w.sb.clock.now();
    for (let t = 0; t < minutes * 60_000; t += stepMs) await w.advance(stepMs);
    counting = false;
    first.presence.setHere(false);
    const classes = {} as Record<LimitClass, ClassReport>;
    for (const c of Object.keys(LIMITS_PER_MINUTE) as LimitClass[]) {
      const times = events.filter((e) => e.classes.includes(c)).map((e) => e.at - start);
      let peak = 0;
      for (let i = 0, j = 0; j < times.length; j++) {
        while (times[j]! - times[i]! >= 60_000) i++;
        peak = Math.max(peak, j - i + 1);
      }
      const limit = LIMITS_PER_MINUTE[c];
      const perMinute = times.length / minutes;
      classes[c] = {
        limitPerMinute: limit, total: times.length, perMinute, peakMinute: peak,
        averagePercent: (100 * perMinute) / limit, peakPercent: (100 * peak) / limit,
      };
    }
    return { minutes, windows, classes };
  } finally {
    await w.close();
  }
}

export function formatIdleHour(r: IdleHourReport): string {
  const rows = Object.entries(r.classes).map(([c, v]) =>
    `${c.padEnd(7)} total ${String(v.total).padStart(5)}  avg ${v.perMinute.toFixed(2).padStart(6)}/min (${v.averagePercent.toFixed(1)} %)  peak ${String(v.peakMinute).padStart(3)}/min (${v.peakPercent.toFixed(1)} %) of ${v.limitPerMinute}/min`);
  return [`idle ${r.minutes} min, ${r.windows} windows:`, ...rows].join('\n');
}
