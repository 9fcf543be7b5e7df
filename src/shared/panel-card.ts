// The card as the card panel's webview gets it: only what the webview shows or judges by, named by
// the panel, not by the wire. The host maps the wire's card with `panelCardOf` before posting it,
// so a change of the wire stops here (this file fails to compile) instead of reaching the webview,
// and the webview is never sent what it does not show (ids of the assistant, area or computer, the
// answer as sent, the thread). Open enums of the wire (kind, status, turn, urgency...) are strings
// here: the webview shows a value it does not know as it came.
import type { Card } from '../api/schemas';
import { loopOnly } from './loop-only';

/** Something the panel shows by its name only (an agent, an area, a computer). */
export interface PanelNamed { name: string }
export interface PanelOption { id: string; label: string }
/** One question of a `questions` card: its options are picked, or it is answered in words. */
export interface PanelAsk { id: string; title: string; options?: PanelOption[] }
/** One step of a `failure` card's plan. */
export interface PanelStep { title: string; state?: string; detail?: string }
/** One line of the card's history (shared/history-line.ts words it). */
export interface PanelHistoryEntry {
  at: string;
  type: string;
  by?: string;
  app?: string;
  appName?: string;
  machine?: PanelNamed;
  detail?: string;
}

export interface PanelCard {
  /** The version on screen: every press names it back. */
  version: number;
  status: string;
  turn: string;
  kind: string;
  title: string;
  summary?: string;
  urgency?: string;
  blocking?: boolean;
  /** Answered only in the service: the panel offers no action on it. */
  highStakes?: boolean;
  /** The card's page in the service (Open in browser); a notice's link. */
  url?: string;
  createdAt?: string;
  assistant?: PanelNamed;
  agent?: PanelNamed;
  area?: PanelNamed;
  machine?: PanelNamed;
  options?: PanelOption[];
  recommendedIds?: string[];
  multi?: boolean;
  asks?: PanelAsk[];
  steps?: PanelStep[];
  answeredFrom?: { app: string; machine?: PanelNamed };
  /** A `loop` helper's proposal as the service sent it: hostile data, read by shared/proposal.ts. */
  proposal?: Record<string, unknown>;
  /** In Later until then. */
  until?: string;
  delegatedTo?: { assistantId: string; agentId?: string; mode: string };
  /** It gates a command a CLI will run: handed over in `loop` only (shared/hand-over.ts). */
  loopOnly?: boolean;
  history?: PanelHistoryEntry[];
  // A notice (an `update` card, from a webhook).
  severity?: string;
  count?: number;
  from?: string;
  webhook?: { name: string; area?: PanelNamed };
  firstAt?: string;
  lastAt?: string;
  worker?: string;
}

/** `o` without its undefined keys: the message holds only what the card has. */
function kept<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const named = (n: { name: string } | undefined): PanelNamed | undefined => (n ? { name: n.name } : undefined);
const optionOf = (o: { id: string; label: string }): PanelOption => ({ id: o.id, label: o.label });

/** The wire's card as the panel's webview gets it: a new value, every part copied, nothing else kept. */
export function panelCardOf(card: Card): PanelCard {
  return kept<PanelCard>({
    version: card.version,
    status: card.status,
    turn: card.turn,
    kind: card.kind,
    title: card.title,
    summary: card.summary,
    urgency: card.urgency,
    blocking: card.blocking,
    highStakes: card.highStakes,
    url: card.url,
    createdAt: card.createdAt,
    assistant: named(card.assistant),
    agent: named(card.agent),
    area: named(card.area),
    machine: named(card.machine),
    options: card.options?.map(optionOf),
    recommendedIds: card.recommendedIds ? [...card.recommendedIds] : undefined,
    multi: card.multi,
    asks: card.asks?.map((a) => kept<PanelAsk>({ id: a.id, title: a.title, options: a.options?.map(optionOf) })),
    steps: card.steps?.map((s) => kept<PanelStep>({ title: s.title, state: s.state, detail: s.detail })),
    answeredFrom: card.answeredFrom ? kept({ app: card.answeredFrom.app, machine: named(card.answeredFrom.machine) }) : undefined,
    // Read field by field where it is shown (hostile data); structuredClone keeps it apart from the model's card.
    proposal: card.proposal ? structuredClone(card.proposal) : undefined,
    until: card.until,
    delegatedTo: card.delegatedTo
      ? kept({ assistantId: card.delegatedTo.assistantId, agentId: card.delegatedTo.agentId, mode: card.delegatedTo.mode })
      : undefined,
    loopOnly: loopOnly(card) || undefined,
    history: card.history?.map((e) => kept<PanelHistoryEntry>({
      at: e.at, type: e.type, by: e.by, app: e.app, appName: e.appName, machine: named(e.machine), detail: e.detail,
    })),
    severity: card.severity,
    count: card.count,
    from: card.from,
    webhook: card.webhook ? kept({ name: card.webhook.name, area: named(card.webhook.area) }) : undefined,
    firstAt: card.firstAt,
    lastAt: card.lastAt,
    worker: card.worker,
  });
}
