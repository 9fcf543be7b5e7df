// A sandbox's worth of state for the store tests, in two ways. `fill`: in process (the store
// tests and the schema fixtures): a computer's assistant, a sign-in with tokens, and three cards:
// answered and picked up (done), in Later, waiting. `fillOverHttp`: a sandbox process (the crash
// test and bench/store.ts): this computer and its assistant, the person signed in, fresh cards.
import { buildSandbox, type Sandbox } from '../../../src/sandbox/server';
import type { Grant } from '../../../src/sandbox/context';
import type { Origin } from '../../../src/sandbox/state';
import type { SandboxStore } from '../../../src/sandbox/store/store';
import { ManualServiceClock } from '../../../src/sandbox/clock';
import * as path from 'node:path';
import { call, signIn, type SignedIn } from '../helpers';
import { ALL_SCOPES, setUpComputer } from '../../kit';

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
  const assistant = sb.sessions.addAssistant({ name: 'api', app: 'claude-code', machineId: 'mch_fixture' });
  const agent = sb.sessions.addAgent(assistant.id, 'main');
  const app = sb.auth.core.store.appByClientId('assistant-cards-vscode')!;
  const grantRec = sb.auth.core.store.createGrant({ app, userId: sb.ctx.person.userId, scopes: ['cards:read', 'cards:answer', 'cards:later'] });
  const tokens = sb.auth.core.store.issueTokens(grantRec);
  const grant: Grant = grantRec;
  const origin: Origin = { grantId: grant.id, appId: app.id, clientId: app.clientId, appName: app.name };
  const card = (title: string) => sb.cards.create({ agentId: agent.id, kind: 'choice', title, options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] });
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

export type Must = (method: 'GET' | 'POST' | 'DELETE', p: string, body?: unknown) => Promise<Record<string, unknown>>;

export interface FilledOverHttp {
  /** A control call that throws on anything but success. */
  must: Must;
  /** The person, signed in on this computer with every scope. */
  me: SignedIn;
  machine: { id: string; name: string; privateJwk: Record<string, unknown> };
  agentId: string;
  /** A fresh choice card (A or B) of the computer's assistant; its id. */
  card(title?: string): Promise<string>;
}

/** This computer (its identity file in `dir`), its assistant and a person signed in, over HTTP. */
export async function fillOverHttp(url: string, dir: string, o: { now?: () => number } = {}): Promise<FilledOverHttp> {
  const must: Must = async (method, p, body) => {
    const r = await call(method, url + p, body);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
    return r.json as Record<string, unknown>;
  };
  const computer = await setUpComputer(must, { name: 'laptop', writeTo: path.join(dir, 'machine.json'), assistants: [{ name: 'api', app: 'claude-code' }] });
  const agentId = (computer.assistants[0] as { agentId: string }).agentId;
  const machine = { id: computer.machine.id, name: computer.machine.name, privateJwk: computer.machine.privateJwk };
  const me = await signIn(url, { machine, scopes: ALL_SCOPES, ...(o.now ? { now: o.now } : {}) });
  const card = async (title = 'Pick one') =>
    (await must('POST', '/_sandbox/cards', { agentId, kind: 'choice', title, options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] })).id as string;
  return { must, me, machine, agentId, card };
}
