// The lists of cards read from the service, one status at a time, for a window's scope and the
// person's filter, page by page. On the same client as the reads by id (reads.ts): core-parts.ts
// gives both the session's one `api`. The card model keeps what they read.
import type { ApiClient } from '../api/client';
import type { CardListEntry, CardStatus } from '../api/schemas';
import { filterQuery, isFilterEmpty } from './card-filter';
import type { CardFilter } from './card-filter';
import type { CardScope } from './contract';

const PAGE_LIMIT = 100;
const PAGE_WHOLE = 3;
const MAX_PAGES = 50;
const FILTER_CHUNK = 20;

/** A notice from an incoming webhook (`update`): the person's, in every window's scope. */
export function isNotice(c: CardListEntry): boolean {
  return c.kind === 'update';
}

export interface CardListReaderOptions {
  api: Pick<ApiClient, 'listCards'>;
  /** Lets the session gate background list reads (budget) and learn about success/failure. */
  beforeRead: () => Promise<void>;
  /** Ends the background reads (and their retry waits) when sync stops. */
  syncSignal: () => AbortSignal | undefined;
}

export class CardListReader {
  constructor(private readonly o: CardListReaderOptions) {}

  /** Every card of `status` in `scope` that passes the person's filter, page by page. */
  async read(
    status: CardStatus, scope: CardScope, o: { filter?: CardFilter; byPerson?: boolean } = {},
  ): Promise<CardListEntry[]> {
    // Machine scope: one unfiltered read. Workspace scope: the window's assistants (20 ids a
    // request), plus the notices, which belong to the person and show in every window: the list
    // has no kind filter, so an unfiltered read of light cards (they carry `kind`) keeps only them.
    // The person's filter rides on every request (its assistants narrowed to the scope's);
    // a filtered read needs only the ids, so every card comes light.
    const filter = o.filter ?? {};
    const query = filterQuery(filter);
    const filtered = !isFilterEmpty(filter);
    const passes: { assistant?: readonly string[]; machine?: readonly string[]; noticesOnly?: boolean }[] = [];
    const noFilterOnAsker = !query.assistant && !query.agent && !query.machine;
    if (scope.kind === 'everywhere' || (scope.kind === 'machine' && scope.machineId === undefined)) {
      passes.push({ assistant: query.assistant });
    } else if (scope.kind === 'machine' && scope.machineId !== undefined) {
      // A sign-in that reaches every computer, narrowed to this one; notices have no computer.
      const id = scope.machineId;
      if (!query.machine || query.machine.includes(id)) passes.push({ assistant: query.assistant, machine: [id] });
      if (noFilterOnAsker) passes.push({ noticesOnly: true });
    } else {
      const wanted = query.assistant;
      const mine = scope.kind === 'workspace' ? scope.assistantIds : [];
      const ids = wanted ? mine.filter((id) => wanted.includes(id)) : mine;
      for (let i = 0; i < ids.length; i += FILTER_CHUNK) passes.push({ assistant: ids.slice(i, i + FILTER_CHUNK) });
      // A notice has no assistant, agent or computer: a filter on one of them lists none.
      if (noFilterOnAsker) passes.push({ noticesOnly: true });
    }
    const out: CardListEntry[] = [];
    for (const { assistant, machine, noticesOnly } of passes) {
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        if (!o.byPerson) await this.o.beforeRead();
        const res = await this.o.api.listCards(
          { status, ...query, assistant, ...(machine ? { machine } : {}), limit: PAGE_LIMIT, whole: noticesOnly || filtered ? 0 : PAGE_WHOLE, after },
          { signal: this.o.syncSignal(), byPerson: o.byPerson ?? false });
        out.push(...(noticesOnly ? res.cards.filter(isNotice) : res.cards));
        if (!res.next) break;
        after = res.next;
      }
    }
    return out;
  }
}
