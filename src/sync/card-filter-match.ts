// The person's filter and the ids the service lists for it. Whole cards are judged on their own
// fields; light entries (no assistant, agent, area or computer) by the service's answer: until it
// is known (or when the read failed) a light entry cannot be judged, and is kept.
import type { CardListEntry, CardStatus } from '../api/schemas';
import { isFilterEmpty, wholePasses } from './card-filter';
import type { CardFilter } from './card-filter';
import type { CardListReader } from './card-lists';
import type { CardScope } from './contract';

export interface FilterMatchOptions {
  lists: Pick<CardListReader, 'read'>;
  /** The window's scope now. */
  scope: () => CardScope;
  /** The statuses the model holds now (done once it was asked for). */
  statuses: () => CardStatus[];
  /** The filter changed, or the service's answer for it arrived. */
  changed: (filter: CardFilter) => void;
}

export class FilterMatch {
  private filter: CardFilter = {};
  private matching: Set<string> | undefined;
  private generation = 0;

  constructor(private readonly o: FilterMatchOptions) {}

  get(): CardFilter {
    return this.filter;
  }

  /** A new filter: told at once, then the service's ids for it read (the person's read). */
  async set(filter: CardFilter): Promise<void> {
    this.filter = filter;
    this.matching = undefined;
    const generation = ++this.generation;
    this.o.changed(filter);
    if (!isFilterEmpty(filter)) await this.read(generation, true);
  }

  /** Whether a card passes the filter. */
  matches(card: CardListEntry): boolean {
    return wholePasses(card, this.filter) ?? this.matching?.has(card.id) ?? true;
  }

  /** The ids read again (a full read, Done loaded): a background read. */
  async readAgain(): Promise<void> {
    if (!isFilterEmpty(this.filter)) await this.read(this.generation, false);
  }

  /** Signing out: the ids listed go; the filter stays. */
  forgetListed(): void {
    this.matching = undefined;
  }

  /** The ids the service lists for the filter, in every status the model holds. */
  private async read(generation: number, byPerson: boolean): Promise<void> {
    const filter = this.filter;
    const ids = new Set<string>();
    for (const status of this.o.statuses()) {
      const cards = await this.o.lists.read(status, this.o.scope(), { filter, byPerson });
      for (const c of cards) ids.add(c.id);
    }
    if (generation !== this.generation) return; // the person chose another filter meanwhile
    this.matching = ids;
    this.o.changed(filter);
  }
}
