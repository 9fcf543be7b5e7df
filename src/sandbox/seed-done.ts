// `POST /_sandbox/seed/done`: many done cards at once, spread over the last days, each with a
// history as the lifecycle would have left it (asked, maybe put off or undone, then answered by
// the person from one of three computers or the phone, by a helper, resolved by a webhook, or
// withdrawn). Records are written directly, not through the routes: a thousand cards take a few
// milliseconds, and no change goes to the feed (they closed in the past). For the Answers view's
// tests and bench (decisions.md "Seeding done cards").
import { HOLD_MS, DONE_LISTED_MS } from './lifecycle';
import { newId } from './ids';
import type { Notices } from './notices';
import type { Sessions } from './sessions';
import type { CardRec, HistoryRec, Origin, SandboxState } from './state';

export interface SeedDoneInput {
  count: number;
  /** Spread over this many days back from now (1 to 30). */
  days: number;
  /** The computer whose assistants ask (a machine sign-in there sees the cards). */
  machine: { id: string; name: string };
  /** Every card in this area (default: API and Web by turns). */
  area?: { id: string; name: string };
}

export interface SeedDoneResult {
  count: number;
  assistants: { id: string; name: string }[];
  helpers: { id: string; name: string }[];
  webhook: { id: string; name: string };
  computers: { id: string; name: string }[];
  areas: { id: string; name: string }[];
}

const QUESTIONS: { title: string; options: { id: string; label: string }[] }[] = [
  { title: 'Which database for the cache?', options: [{ id: 'pg', label: 'Postgres' }, { id: 'sqlite', label: 'SQLite' }] },
  { title: 'Run the migration now?', options: [{ id: 'now', label: 'Run it now' }, { id: 'tonight', label: 'Tonight' }] },
  { title: 'Which test runner?', options: [{ id: 'mocha', label: 'Mocha' }, { id: 'vitest', label: 'Vitest' }] },
  { title: 'Deploy to staging?', options: [{ id: 'yes', label: 'Deploy' }, { id: 'wait', label: 'Wait for review' }] },
];

export function seedDone(state: SandboxState, sessions: Sessions, notices: Notices, now: number, input: SeedDoneInput): SeedDoneResult {
  const areas = input.area ? [{ ...input.area }] : [{ id: 'prj_seed-api', name: 'API' }, { id: 'prj_seed-web', name: 'Web' }];
  const assistant = (name: string, app: string) => {
    const rec = sessions.addAssistant({ name, app, machineId: input.machine.id });
    return { rec, agent: sessions.addAgent(rec.id, 'main') };
  };
  const askers = [assistant('api', 'claude-code'), assistant('web', 'cursor')];
  const helpers = [assistant('reviewer', 'codex'), assistant('tester', 'gemini-cli')];
  const hook = notices.createWebhook('deploys', areas[areas.length - 1]!);
  const computers = [input.machine, { id: 'mch_seed-desktop', name: 'desktop' }, { id: 'mch_seed-build-box', name: 'build-box' }];
  const origin = (machine: { id: string; name: string } | undefined): Origin => ({
    grantId: 'apg_seed', appId: machine ? 'app_seed-editor' : 'app_seed-phone', clientId: 'assistant-cards-seed',
    appName: machine ? 'Assistant Cards' : 'Assistant Cards for phone', ...(machine ? { machine: { ...machine } } : {}),
  });
  const span = Math.min(input.days * 86_400_000, DONE_LISTED_MS - 60_000);
  for (let i = 0; i < input.count; i++) {
    const closedAt = Math.round(now - ((i + 0.5) * span) / input.count);
    const waited = 30_000 + ((i * 7919) % 3_600_000); // 30 s to an hour, spread
    const askedAt = closedAt - waited - HOLD_MS - 1_000;
    const q = QUESTIONS[i % QUESTIONS.length]!;
    const asker = askers[i % askers.length]!;
    const area = areas[i % areas.length]!;
    const history: HistoryRec[] = [{ at: askedAt, type: 'asked', by: 'assistant' }];
    const kind = i % 10;
    const card: CardRec = {
      id: newId('req'), version: 1, status: 'done', turn: 'agent', kind: 'choice',
      title: `${q.title} (#${i + 1})`, summary: '', urgency: 'today', blocking: i % 3 === 0, highStakes: false,
      options: q.options, extra: {}, threadId: '', assistantId: asker.rec.id, agentId: asker.agent.id, area,
      areaVersion: 1, rank: ++state.rank, createdAt: askedAt, changedAt: closedAt, closedAt,
      history, heard: [],
    };
    card.threadId = card.id;
    const answeredAt = askedAt + waited;
    if (kind <= 6) {
      // The person: from one of the three computers, or (kind 6) the phone, which has none.
      const from = origin(kind === 6 ? undefined : computers[i % computers.length]);
      if (i % 4 === 0) history.push({ at: askedAt + 1_000, type: 'later', by: 'person', origin: from, detail: new Date(askedAt + 600_000).toISOString() });
      if (i % 7 === 0) {
        history.push({ at: answeredAt - 3_000, type: 'answered', by: 'person', origin: from });
        history.push({ at: answeredAt - 1_000, type: 'undone', by: 'person', origin: from });
      }
      const body = { version: 1, choiceIds: [q.options[i % 2]!.id] };
      history.push({ at: answeredAt, type: 'answered', by: 'person', origin: from });
      history.push({ at: closedAt, type: 'picked-up', by: 'assistant' });
      card.answer = { body, origin: from, at: answeredAt, undoUntil: answeredAt + HOLD_MS, heard: true };
      card.answeredFrom = { app: from.appName, appId: from.appId, ...(from.machine ? { machine: from.machine } : {}) };
      card.closedBy = 'assistant';
    } else if (kind === 7) {
      const helper = helpers[i % helpers.length]!;
      history.push({ at: askedAt + 1_000, type: 'delegated', by: 'person', origin: origin(computers[0]), detail: `${helper.rec.name} (freely)` });
      history.push({ at: closedAt, type: 'helper-answered', by: 'helper', detail: helper.rec.name });
      card.heard.push({ at: closedAt, type: 'helper-answer', body: { choiceIds: [q.options[(i + 1) % 2]!.id] } });
      card.answeredFrom = { app: helper.rec.name, appId: helper.rec.app };
      card.closedBy = 'helper';
    } else if (kind === 8) {
      card.kind = 'update';
      card.title = `Deploy failed on web-${i % 5} (#${i + 1})`;
      card.options = undefined;
      card.assistantId = undefined;
      card.agentId = undefined;
      card.area = { ...hook.area };
      history[0] = { at: askedAt, type: 'notice', by: 'webhook', detail: hook.name };
      history.push({ at: closedAt, type: 'resolved', by: 'webhook' });
      card.notice = { webhookId: hook.id, count: 1, firstAt: askedAt, lastAt: askedAt, from: 'CI', resolvedBy: 'webhook' };
      card.closedBy = 'webhook';
    } else {
      history.push({ at: closedAt, type: 'withdrawn', by: 'assistant' });
      card.closedBy = 'withdrawn';
    }
    card.version = history.length + 1;
    state.cards.set(card.id, card);
  }
  const named = (a: { rec: { id: string; name: string } }) => ({ id: a.rec.id, name: a.rec.name });
  return {
    count: input.count, assistants: askers.map(named), helpers: helpers.map(named),
    webhook: { id: hook.id, name: hook.name }, computers: computers.map((c) => ({ ...c })), areas,
  };
}
