// A sandbox world for the core tests: a manual-clock sandbox, a computer with an assistant, agents,
// a person signed in for real (device flow + DPoP) and short-hands for the control surface.
import type { RunningSandbox } from '../../src/sandbox/index';
import { until } from '../helpers/until';
import { call, makeMachine, signIn, startSandbox, type Answer, type Machine, type SignedIn, type SignInOptions } from './helpers';

export const ALL_SCOPES = [
  'cards:read', 'cards:answer', 'cards:reply', 'cards:later', 'cards:delegate', 'assistants:read', 'presence:desk',
];

export interface World {
  sb: RunningSandbox;
  url: string;
  machine: Machine;
  /** Signed in on `machine` with every machine scope. */
  me: SignedIn;
  assistantId: string;
  agentId: string;
  /** A second assistant on the same computer (a helper). */
  helperId: string;
  helperAgentId: string;
  ctl(method: string, path: string, body?: unknown): Promise<Answer>;
  card(fields?: Record<string, unknown>): Promise<{ id: string; version: number; [k: string]: unknown }>;
  advance(ms: number): Promise<void>;
  /** Resolves once the sandbox holds a response back by a delayMs fault (its work done, its finish waiting). */
  held(): Promise<void>;
  signIn(opts?: SignInOptions): Promise<SignedIn>;
  close(): Promise<void>;
}

export async function makeWorld(o: { manualClock?: boolean } = {}): Promise<World> {
  const sb = await startSandbox({ port: 0, manualClock: o.manualClock ?? true });
  const url = sb.url;
  const now = () => sb.clock.now();
  const ctl = (method: string, path: string, body?: unknown) => call(method, `${url}${path}`, body);
  const machine = await makeMachine(url, 'laptop');
  const must = async (method: string, path: string, body?: unknown) => {
    const r = await ctl(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.json;
  };
  const assistant = await must('POST', '/_sandbox/assistants', { name: 'api', app: 'claude-code', machineId: machine.id });
  const agent = await must('POST', '/_sandbox/agents', { assistantId: assistant.id, name: 'main' });
  const helper = await must('POST', '/_sandbox/assistants', { name: 'helper', app: 'codex', machineId: machine.id });
  const helperAgent = await must('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'main' });
  const me = await signIn(url, { machine, scopes: ALL_SCOPES, now });
  let sinceRefresh = 0;
  return {
    sb, url, machine, me, ctl,
    assistantId: assistant.id, agentId: agent.id, helperId: helper.id, helperAgentId: helperAgent.id,
    card: (fields = {}) => must('POST', '/_sandbox/cards', {
      agentId: agent.id, kind: 'choice', title: 'Pick one',
      options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], ...fields,
    }),
    advance: async (ms) => {
      await must('POST', '/_sandbox/clock/advance', { ms });
      // Access tokens live 15 minutes: keep the person signed in across long jumps.
      sinceRefresh += ms;
      if (sinceRefresh >= 10 * 60_000) {
        sinceRefresh = 0;
        const r = await me.refresh();
        if (r.status !== 200) throw new Error(`refresh: ${r.status} ${r.text}`);
      }
    },
    held: async () => { await until('a response held by a delayMs fault', () => sb.sandbox.faults.holding > 0, 20_000, 2); },
    signIn: (opts = {}) => signIn(url, { now, ...opts }),
    close: () => sb.close(),
  };
}

let keyCount = 0;
export function key(): string {
  return `press-${process.pid}-${++keyCount}-${Math.random().toString(36).slice(2)}`;
}

/** Answer with a fresh Idempotency-Key. */
export function answer(me: SignedIn, id: string, body: Record<string, unknown>, k = key()): Promise<Answer> {
  return me.request('POST', `/v1/cards/${id}/answer`, { body, headers: { 'idempotency-key': k } });
}
