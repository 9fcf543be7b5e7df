// The person's running assistants (GET /v1/assistants with ETag), for terminal matching and
// the assistants view.
import type { ApiClient } from '../api/client';
import { Emitter } from '../api/runtime';
import type { Assistant } from '../api/schemas';
import type { AssistantsView } from './contract';

export interface AssistantsModelOptions {
  api: ApiClient;
  /** Lets the session gate background reads (budget). */
  beforeRead?: () => Promise<void>;
  /** What `refresh()` does (the session: a read that reports offline/online); default `read()`. */
  refresh?: () => Promise<void>;
}

export class AssistantsModel implements AssistantsView {
  private assistants: readonly Assistant[] = [];
  private last = '[]';
  private readonly changedE = new Emitter<readonly Assistant[]>();
  readonly changed = this.changedE.event;

  constructor(private readonly o: AssistantsModelOptions) {}

  list(): readonly Assistant[] {
    return this.assistants;
  }

  async refresh(): Promise<void> {
    await (this.o.refresh ? this.o.refresh() : this.read());
  }

  async read(): Promise<void> {
    await this.o.beforeRead?.();
    this.set(await this.o.api.assistants());
  }

  set(list: readonly Assistant[]): void {
    const json = JSON.stringify(list);
    if (json === this.last) return; // a 304 or an equal answer: no event
    this.last = json;
    this.assistants = list;
    this.changedE.fire(list);
  }

  clear(): void {
    this.set([]);
  }

  dispose(): void {
    this.changedE.clear();
  }
}
