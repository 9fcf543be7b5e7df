// The sandbox's data: the person, assistants, agents, live sessions, cards, webhooks, the change
// log, presence and what each assistant heard. Plain records; the rules live in lifecycle.ts,
// notices.ts and the routes.
import type { SessionTerminal } from '../api/schemas';
import { MemoryStore, type SandboxStore } from './store/store';
import type { Table } from './store/table';
import type { ChangeRec } from './store/change';

export type { ChangeRec, ChangeType } from './store/change';

export type InternalStatus = 'pending' | 'answered' | 'snoozed' | 'delegated' | 'done';

export interface Named {
  id: string;
  name: string;
}

export interface AssistantRec {
  id: string;
  name: string;
  app: string;
  machineId: string;
  hears: string;
  createdAt: number;
}

export interface AgentRec {
  id: string;
  assistantId: string;
  name: string;
  /** Last moment a session of the agent was live (null: never). */
  liveAt: number | null;
  createdAt: number;
}

export interface SessionRec {
  appSessionId: string;
  agentId: string;
  cwd: string;
  terminal?: SessionTerminal;
  liveAt: number;
}

/** Where an answer or a message came from: the app and its computer. */
export interface Origin {
  grantId: string;
  appId: string;
  clientId: string;
  appName: string;
  machine?: Named;
}

export interface HeardRec {
  at: number;
  type: 'answer' | 'message' | 'helper-answer';
  body: unknown;
  from?: { app: string; appId: string; machine?: Named };
}

export interface HistoryRec {
  at: number;
  type: string;
  by: string;
  origin?: Origin;
  detail?: string;
}

export interface NoticeInfo {
  webhookId: string;
  dedupeKey?: string;
  count: number;
  firstAt: number;
  lastAt: number;
  severity?: string;
  from: string;
  worker?: string;
  link?: string;
  resolvedBy?: 'webhook';
}

export interface CardRec {
  id: string;
  version: number;
  status: InternalStatus;
  turn: 'you' | 'agent';
  kind: string;
  title: string;
  summary?: string;
  urgency: string;
  blocking: boolean;
  highStakes: boolean;
  options?: { id: string; label: string }[];
  recommendedIds?: string[];
  multi?: boolean;
  asks?: { id: string; title: string; options?: { id: string; label: string }[] }[];
  steps?: { title: string; state?: string; detail?: string }[];
  /** Other card fields given through the control surface, shown as they are. */
  extra: Record<string, unknown>;
  threadId: string;
  assistantId?: string;
  agentId?: string;
  area?: Named;
  /** The version at which the area last changed (area_change). */
  areaVersion: number;
  /** Place in the stack: kept through Later, undo, take-back and notice repeats. */
  rank: number;
  createdAt: number;
  changedAt: number;
  closedAt?: number;
  closedBy?: string;
  until?: number;
  /** The last Later request as it arrived (`until`, `timeZone`): the control surface shows it. */
  laterAsked?: { until: unknown; timeZone: unknown };
  answer?: { body: Record<string, unknown>; origin: Origin; at: number; undoUntil: number; heard: boolean };
  delegation?: {
    assistantId: string;
    agentId?: string;
    mode: 'freely' | 'loop';
    note?: string;
    at: number;
    undoUntil: number;
    origin: Origin;
  };
  proposal?: Record<string, unknown>;
  answeredFrom?: { app: string; appId: string; machine?: Named };
  /** Words written on the card and not yet acted on. */
  pendingMessage?: { id: string; at: number };
  history: HistoryRec[];
  heard: HeardRec[];
  notice?: NoticeInfo;
  /** The live session (its `appSessionId`) that asked it through the asking surface (ask-routes.ts). */
  appSessionId?: string;
  /** Why the asker asked it (the hook bridge: `permission`, `waiting`, `question`); a session withdraws its cards by reason. */
  reason?: string;
}

export interface WebhookRec {
  id: string;
  name: string;
  area: Named;
  token: string;
  paused: boolean;
  createdAt: number;
  /** Deliveries in the last minute (rate limit). */
  deliveries: number[];
  counts: { delivered: number; paused: number; rateLimited: number; tooManyOpen: number; refused: number };
}

export interface PresencePing {
  at: number;
  here: boolean;
  grantId: string;
  appId: string;
  machineId?: string;
}

/**
 * The sandbox's data as its parts read it: tables of the one store (store/store.ts) and the change
 * log, plus presence, which lives only as long as the process.
 */
export class SandboxState {
  readonly assistants: Table<AssistantRec>;
  readonly agents: Table<AgentRec>;
  readonly sessions: Table<SessionRec>;
  readonly cards: Table<CardRec>;
  readonly webhooks: Table<WebhookRec>;
  readonly changes: ChangeRec[];
  readonly presence: PresencePing[] = [];
  presenceUntil = 0;
  lastPresenceAt: number | null = null;

  constructor(readonly store: SandboxStore = new MemoryStore()) {
    this.assistants = store.table('assistant');
    this.agents = store.table('agent');
    this.sessions = store.table('session');
    this.cards = store.table('card');
    this.webhooks = store.table('webhook');
    this.changes = store.changes;
  }

  /** Kept across resets so an old cursor never points into a new log by accident. */
  get seq(): number {
    return this.store.counters.seq;
  }

  set seq(n: number) {
    this.store.counters.seq = n;
  }

  /** Sequence number of the first change still kept in `changes`. */
  get firstSeq(): number {
    return this.store.counters.firstSeq;
  }

  set firstSeq(n: number) {
    this.store.counters.firstSeq = n;
  }

  get rank(): number {
    return this.store.counters.rank;
  }

  set rank(n: number) {
    this.store.counters.rank = n;
  }

  /** The cards, notice addresses and the change log go (the reset; Sessions.clear does the rest). */
  clear(): void {
    this.cards.clear();
    this.webhooks.clear();
    this.store.dropChanges();
    this.firstSeq = this.seq + 1;
    this.presence.length = 0;
    this.presenceUntil = 0;
    this.lastPresenceAt = null;
  }
}

/** Display names of the app enum. */
export const APP_NAMES: Record<string, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  cursor: 'Cursor',
  'gemini-cli': 'Gemini CLI',
  opencode: 'opencode',
  pi: 'Pi',
  grok: 'Grok',
  muse: 'Muse',
  chatgpt: 'ChatGPT',
  claude: 'Claude',
  dots: 'Dots',
  other: 'Other',
  webhook: 'Webhook',
};
