// How soon a new card reaches the model through the feed owner's long-poll, in real time (for
// `npm run bench`; tests never assert timings). Card creation -> the model's `added` event.
// Above 3 changes a minute the owner switches to non-waiting reads every 3 s (waits budget).
import { until, makeWorld, signInCore } from '../kit';

export interface FeedLatencyReport {
  samples: number[];
  p50: number;
  p95: number;
  max: number;
}

export async function measureFeedLatency(o: { cards?: number } = {}): Promise<FeedLatencyReport> {
  const n = o.cards ?? 20;
  const w = await makeWorld({ me: false });
  try {
    const core = w.core();
    core.feed.setFocused(true);
    await signInCore(w, core);
    const seen = new Map<string, number>();
    core.cards.added((c) => seen.set(c.id, performance.now()));
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      // A realistic pace (3 new cards a minute on the sandbox clock) keeps the waits budget free.
      await w.advance(20_000);
      await until(() => core.transport.longPolls === 1);
      const t0 = performance.now();
      const c = await w.card({ title: `latency ${i}` });
      await until(() => seen.has(c.id));
      samples.push(seen.get(c.id)! - t0);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    return { samples, p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
  } finally {
    await w.close();
  }
}
