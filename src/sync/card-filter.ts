// The person's card filter: which areas, assistants, agents, apps, computers or thread the views
// show. It is sent to the service as the list's query filters (spec, "GET /v1/cards query"),
// because a light list entry carries none of these fields and cannot be judged here; a whole
// card carries them all and is judged here (it may be fresher than the last filtered read).
import type { CardsQuery } from '../api/client';
import type { CardListEntry } from '../api/schemas';

export interface CardFilter {
  areas?: readonly string[];
  assistants?: readonly string[];
  agents?: readonly string[];
  apps?: readonly string[];
  machines?: readonly string[];
  threadId?: string;
}

/** The most values the service takes per filter (spec, "GET /v1/cards query"). */
export const FILTER_MAX = { area: 20, assistant: 20, agent: 20, app: 13, machine: 10 } as const;

export function isFilterEmpty(f: CardFilter): boolean {
  return !f.areas?.length && !f.assistants?.length && !f.agents?.length && !f.apps?.length && !f.machines?.length && !f.threadId;
}

/** The query filters of `f`; at most FILTER_MAX values each (the pick offers fewer than that). */
export function filterQuery(f: CardFilter): Pick<CardsQuery, 'area' | 'assistant' | 'agent' | 'app' | 'machine' | 'threadId'> {
  const q: Pick<CardsQuery, 'area' | 'assistant' | 'agent' | 'app' | 'machine' | 'threadId'> = {};
  if (f.areas?.length) q.area = f.areas.slice(0, FILTER_MAX.area);
  if (f.assistants?.length) q.assistant = f.assistants.slice(0, FILTER_MAX.assistant);
  if (f.agents?.length) q.agent = f.agents.slice(0, FILTER_MAX.agent);
  if (f.apps?.length) q.app = f.apps.slice(0, FILTER_MAX.app);
  if (f.machines?.length) q.machine = f.machines.slice(0, FILTER_MAX.machine);
  if (f.threadId) q.threadId = f.threadId;
  return q;
}

/** Whether the list entry is the lighter form (no assistant, agent, area or computer). */
export function isLight(c: CardListEntry): boolean {
  return 'whole' in c && c.whole === false;
}

/**
 * Whether a whole card passes the filter, judged from its own fields, the way the service
 * judges it: every filter given must match (a notice's app is `webhook`).
 * Undefined for a light entry: only the service's filtered list can say.
 */
export function wholePasses(c: CardListEntry, f: CardFilter): boolean | undefined {
  if (isFilterEmpty(f)) return true;
  if (f.threadId && c.threadId !== f.threadId) return false;
  if (isLight(c)) return undefined;
  const w = c as { area?: { id: string }; assistant?: { id: string; app: string }; agent?: { id: string }; machine?: { id: string } };
  const app = c.kind === 'update' ? 'webhook' : w.assistant?.app;
  if (f.areas?.length && !(w.area && f.areas.includes(w.area.id))) return false;
  if (f.assistants?.length && !(w.assistant && f.assistants.includes(w.assistant.id))) return false;
  if (f.agents?.length && !(w.agent && f.agents.includes(w.agent.id))) return false;
  if (f.apps?.length && !(app && f.apps.includes(app))) return false;
  if (f.machines?.length && !(w.machine && f.machines.includes(w.machine.id))) return false;
  return true;
}
