// A fake clock with timers, for pure schedule tests (no server).
import type { TimerHandle, Timers } from '../../src/api/runtime';

/** A fake clock with timers, for pure schedule tests. */
export class FakeTimers implements Timers {
  now = 0;
  private seq = 0;
  private q = new Map<number, { at: number; fn: () => void }>();
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.q.set(id, { at: this.now + ms, fn });
    return { cancel: () => this.q.delete(id) };
  }
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      const due = [...this.q].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.q.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = target;
  }
}

