// How the sandbox's records look on the wire: the whole card, the lighter form, assistants.
import { iso } from './ids';
import { APP_NAMES, type AgentRec, type CardRec, type Named, type SandboxState } from './state';

export type MachineNames = (id: string) => Named | undefined;

export function cardUrl(baseUrl: string, card: CardRec): string {
  return `${baseUrl}/cards/${card.id}`;
}

/** The status shown: the internal one (`answered` while the answer waits on the assistant). */
export function wireStatus(card: CardRec): string {
  return card.status;
}

/** The fields both forms carry. */
function coreFields(card: CardRec): Record<string, unknown> {
  return {
    id: card.id,
    version: card.version,
    status: wireStatus(card),
    turn: card.turn,
    kind: card.kind,
    title: card.title,
    urgency: card.urgency,
    blocking: card.blocking,
    threadId: card.threadId,
    highStakes: card.highStakes,
  };
}

export function lightCard(card: CardRec): Record<string, unknown> {
  return { ...coreFields(card), whole: false };
}

export function wholeCard(card: CardRec, state: SandboxState, baseUrl: string, machines: MachineNames): Record<string, unknown> {
  const assistant = card.assistantId ? state.assistants.get(card.assistantId) : undefined;
  const agent = card.agentId ? state.agents.get(card.agentId) : undefined;
  const machine = assistant ? machines(assistant.machineId) : undefined;
  const out: Record<string, unknown> = {
    ...card.extra,
    ...coreFields(card),
    summary: card.summary ?? '',
    options: card.options ?? [],
    recommendedIds: card.recommendedIds ?? [],
    url: card.notice?.link ?? cardUrl(baseUrl, card),
    createdAt: iso(card.createdAt),
    changedAt: iso(card.changedAt),
  };
  if (assistant) out.assistant = { id: assistant.id, name: assistant.name, app: assistant.app };
  if (agent) out.agent = { id: agent.id, name: agent.name };
  if (card.area) out.area = { ...card.area };
  if (machine) out.machine = { id: machine.id, name: machine.name };
  if (card.multi !== undefined) out.multi = card.multi;
  if (card.asks) out.asks = card.asks;
  if (card.steps) out.steps = card.steps;
  if (card.answeredFrom) out.answeredFrom = card.answeredFrom;
  if (card.proposal) out.proposal = card.proposal;
  const given = answerGiven(card);
  if (given) out.answer = given;
  if (card.status === 'snoozed' && card.until !== undefined) out.until = iso(card.until);
  if (card.status === 'answered' && card.answer && !card.answer.heard) out.undoUntil = iso(card.answer.undoUntil);
  if (card.status === 'delegated' && card.delegation) {
    const d = card.delegation;
    out.delegatedTo = { assistantId: d.assistantId, ...(d.agentId ? { agentId: d.agentId } : {}), mode: d.mode };
    out.undoUntil = iso(d.undoUntil);
  }
  if (card.closedAt !== undefined) {
    out.closedAt = iso(card.closedAt);
    if (card.closedBy) out.closedBy = card.closedBy;
  }
  if (card.notice) {
    const n = card.notice;
    const hook = state.webhooks.get(n.webhookId);
    out.severity = n.severity ?? 'info';
    out.count = n.count;
    out.from = n.from;
    out.webhook = { name: hook?.name ?? 'Removed webhook', ...(hook ? { area: { ...hook.area } } : {}) };
    out.firstAt = iso(n.firstAt);
    out.lastAt = iso(n.lastAt);
    if (n.worker) out.worker = n.worker;
    if (n.resolvedBy) out.resolvedBy = n.resolvedBy;
  }
  out.history = card.history.map((h) => ({
    at: iso(h.at),
    type: h.type,
    by: h.by,
    ...(h.origin
      ? { app: h.origin.appId, appName: h.origin.appName, ...(h.origin.machine ? { machine: h.origin.machine } : {}) }
      : {}),
    ...(h.detail ? { detail: h.detail } : {}),
  }));
  return out;
}

/** What was answered, on answered and done cards: the person's body, else a `freely` helper's; never `version`. */
function answerGiven(card: CardRec): Record<string, unknown> | undefined {
  if (card.status !== 'answered' && card.status !== 'done') return undefined;
  const helper = [...card.heard].reverse().find((h) => h.type === 'helper-answer')?.body;
  const body = card.answer?.body ?? (helper !== null && typeof helper === 'object' ? helper as Record<string, unknown> : undefined);
  if (!body) return undefined;
  const { version: _version, ...rest } = body;
  return rest;
}

export function agentState(agent: AgentRec, liveSessions: number, now: number): 'live' | 'recent' | 'quiet' {
  if (liveSessions > 0) return 'live';
  // recent: live within the last hour.
  if (agent.liveAt !== null && now - agent.liveAt < 3_600_000) return 'recent';
  return 'quiet';
}

export function appName(app: string): string {
  return APP_NAMES[app] ?? app;
}
