// #51: an acknowledged write survives `kill -9`. The real sandbox process runs on a store file;
// the client core the editor runs (signed in through the device flow, its DPoP, idempotency keys
// and retries) answers 200 cards (or puts them in Later) while the process is killed at a random
// moment, 10 rounds; after each restart every acknowledged answer and Later time is there.
import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemorySecretStore } from '../../../src/auth/secret-store';
import { createClientCore } from '../../../src/sync/session';
import { ALL_SCOPES } from '../../kit';
import { fillOverHttp, type Must } from './fill';
import { endProcess, freePort, startProcess, type Running } from './sandbox-process';

const root = path.resolve(__dirname, '..', '..', '..');
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 10);
const PER_ROUND = 20;

/** The sandbox's own main, on the store file, at the same port every time. */
const start = (port: number, store: string, work: string): Promise<Running> =>
  startProcess({ args: ['--import', 'tsx', 'src/sandbox/main.ts'], port, work, store, cwd: root });
const kill9 = (child: ChildProcess) => endProcess(child, 'SIGKILL');
type ClientCore = ReturnType<typeof createClientCore>;

/** The client core the editor runs, on this computer, signed in through the device flow (approved on the control surface). */
async function signedInCore(url: string, dir: string, must: Must): Promise<ClientCore> {
  const core = createClientCore({
    baseUrl: url, secretStore: new MemorySecretStore(), machineFile: path.join(dir, 'machine.json'), lockDir: path.join(dir, 'locks'),
    scope: { kind: 'machine' }, logger: { info() {}, warn() {}, error() {} },
  });
  let signingIn!: Promise<unknown>;
  const userCode = await new Promise<string>((resolve, reject) => {
    signingIn = core.signIn({ onProgress: (s) => { if (s.step === 'code') resolve(s.userCode); } });
    signingIn.catch(reject);
  });
  await must('POST', '/_sandbox/device/approve', { user_code: userCode, scopes: ALL_SCOPES });
  await signingIn;
  return core;
}

describe('the store keeps every acknowledged write through kill -9 (real process, 10 rounds)', function () {
  this.timeout(600_000);
  let dir: string;
  let running: Running | undefined;
  let core: ClientCore | undefined;

  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-crash-')); });
  after(async () => {
    await core?.dispose();
    if (running) await kill9(running.child);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('200 cards answered or put in Later, killed at random moments: nothing acknowledged is lost', async () => {
    const store = path.join(dir, 'data', 'store.db');
    const port = await freePort();
    running = await start(port, store, dir);
    // One sign-in for the whole test: it, too, must outlive every kill. The presses go through
    // the client core (its DPoP, idempotency keys and retries); `me` reads them back over HTTP.
    const { me, card, must } = await fillOverHttp(running.url, dir);
    core = await signedInCore(running.url, dir, must);
    const answered = new Map<string, string[]>();
    const later = new Map<string, string>();
    let killedWithWork = 0;

    for (let round = 0; round < ROUNDS; round++) {
      const ids: string[] = [];
      for (let i = 0; i < PER_ROUND; i++) ids.push(await card(`r${round} c${i}`));
      // Presses go out two at a time (each a fresh card at version 1). The kill falls among them:
      // after a random number of presses were sent, a random few milliseconds later.
      const killAfter = 2 + Math.floor(Math.random() * (PER_ROUND - 4));
      let sent = 0;
      let fire!: () => void;
      let dead = false;
      const killed = new Promise<void>((resolve) => { fire = () => setTimeout(() => { void kill9(running!.child).then(() => { dead = true; resolve(); }); }, Math.floor(Math.random() * 15)); });
      const c = core!;
      const press = async (id: string, i: number) => {
        // Once the service is dead nobody presses: what was in flight retries and fails by itself.
        if (dead) return;
        if (++sent === killAfter) fire();
        try {
          const shown = await c.cards.whole(id);
          if (i % 2 === 0) {
            const choice = i % 4 === 0 ? 'a' : 'b';
            const out = await c.act(c.gestures.fromUiEvent('crash:answer'), shown, { type: 'answer', answer: { choiceIds: [choice] } });
            if (out.ok) answered.set(id, [choice]);
          } else {
            const until = new Date(Date.now() + 3_600_000 + i * 60_000);
            until.setMilliseconds(0);
            const out = await c.act(c.gestures.fromUiEvent('crash:later'), shown, { type: 'later', until: until.toISOString() });
            if (out.ok) later.set(id, until.toISOString());
          }
        } catch { /* the process died under this request: not acknowledged */ }
      };
      const presses = (async () => {
        for (let i = 0; i < ids.length; i += 2) await Promise.all([press(ids[i]!, i), press(ids[i + 1]!, i + 1)]);
      })();
      await Promise.all([presses, killed]);
      if (ids.some((id) => !answered.has(id) && !later.has(id))) killedWithWork++;

      running = await start(port, store, dir);
      for (const [id, choiceIds] of answered) {
        const r = await me.request('GET', `/v1/cards/${id}`);
        assert.equal(r.status, 200, `round ${round}: acknowledged card ${id} is there`);
        assert.deepEqual(r.json.card.answer?.choiceIds, choiceIds, `round ${round}: the answer to ${id} is kept`);
        assert.ok(r.json.card.history.some((h: { type: string }) => h.type === 'answered'), `round ${round}: its history says answered`);
      }
      for (const [id, until] of later) {
        const r = await me.request('GET', `/v1/cards/${id}`);
        assert.equal(r.status, 200);
        assert.equal(r.json.card.status, 'snoozed', `round ${round}: ${id} is still in Later`);
        assert.equal(r.json.card.until, until, `round ${round}: the Later time of ${id} is kept`);
      }
    }
    assert.ok(answered.size > 0 && later.size > 0, 'some presses were acknowledged');
    // The kill must have cut work short in most rounds, or the test proves little.
    assert.ok(killedWithWork >= ROUNDS / 2, `the kill fell among the presses in ${killedWithWork} of ${ROUNDS} rounds`);
  });
});
