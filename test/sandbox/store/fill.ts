// A sandbox's worth of state for the store tests (and the v1 fixture): a computer's assistant,
// a sign-in with tokens, and three cards: answered and picked up (done), in Later, waiting.
import { buildSandbox, type Sandbox } from '../../../src/sandbox/server';
import type { Grant } from '../../../src/sandbox/context';
import type { Origin } from '../../../src/sandbox/state';
import type { SandboxStore } from '../../../src/sandbox/store/store';
import { ManualServiceClock } from '../../../src/sandbox/clock';

export interface Filled {
  sb: Sandbox;
  done: string;
  later: string;
  laterUntil: number;
  waiting: string;
  refreshToken: string;
  accessToken: string;
}

export function fill(store: SandboxStore, start: number): Filled {
  const sb = buildSandbox({ store, clock: new ManualServiceClock(start) });
  const now = sb.clock.now();
  sb.state.assistants.set('con_fixture', { id: 'con_fixture', name: 'api', app: 'claude-code', machineId: 'mch_fixture', hears: 'while-working', createdAt: now });
  sb.state.agents.set('agt_fixture', { id: 'agt_fixture', assistantId: 'con_fixture', name: 'main', liveAt: null, createdAt: now });
  const app = sb.auth.core.store.appByClientId('assistant-cards-vscode')!;
  const grantRec = sb.auth.core.store.createGrant({ app, userId: sb.ctx.person.userId, scopes: ['cards:read', 'cards:answer', 'cards:later'] });
  const tokens = sb.auth.core.store.issueTokens(grantRec);
  const grant: Grant = grantRec;
  const origin: Origin = { grantId: grant.id, appId: app.id, clientId: app.clientId, appName: app.name };
  const card = (title: string) => sb.cards.create({ agentId: 'agt_fixture', kind: 'choice', title, options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] });
  const done = card('done');
  sb.cards.answer(grant, origin, done.id, { version: 1, choiceIds: ['a'] });
  sb.clock.advance!(6_000);
  sb.cards.pickup(done);
  const later = card('later');
  const laterUntil = sb.clock.now() + 3_600_000;
  sb.cards.later(grant, origin, later.id, () => laterUntil);
  const waiting = card('waiting');
  sb.store.commit();
  return { sb, done: done.id, later: later.id, laterUntil, waiting: waiting.id, refreshToken: tokens.refresh_token, accessToken: tokens.access_token };
}
