// The change log in commit order and the long-polls waiting on it. A change names a card and a
// type only; who may see it is decided when it is read (the card's reach at that moment).
import type { ChangeRec, ChangeType, SandboxState } from './state';

interface Waiter {
  wake: () => void;
}

export class ChangeFeed {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly state: SandboxState) {}

  emit(type: ChangeType, cardId: string, at: number): ChangeRec {
    const rec: ChangeRec = { seq: ++this.state.seq, type, cardId, at };
    this.state.changes.push(rec);
    // Waiters look once the step that made the change is whole: a card is created, then made a
    // notice, in one step; judged at `emit` it would be out of reach and the wait not woken.
    queueMicrotask(() => { for (const w of [...this.waiters]) w.wake(); });
    return rec;
  }

  /** Changes after `seq`, oldest first. */
  after(seq: number): ChangeRec[] {
    const log = this.state.changes;
    // seq numbers are dense inside the log, so the start index is a subtraction.
    const start = Math.max(0, seq - this.state.firstSeq + 1);
    return log.slice(start);
  }

  /** Long polls waiting for a change now (a test moves the clock once one waits, not when it was sent). */
  get listening(): number {
    return this.waiters.size;
  }

  /** Calls `wake` on every new change until the returned function is called. */
  listen(wake: () => void): () => void {
    const w: Waiter = { wake };
    this.waiters.add(w);
    return () => this.waiters.delete(w);
  }

  /** Ends every waiting request (reset, close). */
  wakeAll(): void {
    for (const w of [...this.waiters]) w.wake();
  }
}
