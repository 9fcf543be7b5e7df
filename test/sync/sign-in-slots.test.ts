// A sign-in belongs to one service and one computer: switching the service address, or two
// computers (remote windows) sharing one SecretStore, never sends one sign-in's tokens to
// another service, never signs anyone out elsewhere, and never shares a DPoP key.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { LEGACY_DPOP_KEY_SECRET, LEGACY_TOKENS_SECRET } from '../../src/auth/sign-in-slot';
import { makeWorld, signInCore } from '../kit';
import type { CountingTransport, World } from '../kit';

/** Every token a transport sent: Authorization headers and refresh_token form fields. */
function sentTokens(transports: CountingTransport[]): Set<string> {
  const out = new Set<string>();
  for (const t of transports) {
    for (const l of t.log) {
      const auth = l.headers.authorization;
      if (auth) out.add(auth.replace(/^DPoP /, ''));
      const rt = l.body?.includes('refresh_token=') ? new URLSearchParams(l.body).get('refresh_token') : null;
      if (rt) out.add(rt);
    }
  }
  return out;
}

function dpopThumbprintKeys(t: CountingTransport): Set<string> {
  const out = new Set<string>();
  for (const l of t.log) {
    const proof = l.headers.dpop;
    if (!proof) continue;
    const header = JSON.parse(Buffer.from(proof.split('.')[0]!, 'base64url').toString('utf8')) as { jwk: { x: string; y: string } };
    out.add(`${header.jwk.x}.${header.jwk.y}`);
  }
  return out;
}

describe('sync: a sign-in is tied to its service and its computer', () => {
  let a: World;
  let b: World;
  beforeEach(async () => {
    a = await makeWorld({ me: false });
    b = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  it('sign in on A, switch to B, sign in on B, switch back: A still works and neither service saw the other one\'s tokens', async () => {
    const store = new MemorySecretStore();
    const onA = a.core({ store });
    await signInCore(a, onA);
    await onA.dispose();

    // "Start Local Sandbox": the address changes; B finds no sign-in of its own.
    const onB = b.core({ store });
    await onB.start();
    assert.equal(onB.state.kind, 'signed-out', 'B starts signed out instead of trying A\'s tokens');
    await signInCore(b, onB);
    assert.equal(onB.state.kind, 'online');
    await onB.dispose();

    // Switching back finds A's sign-in still there, and it still works (a refresh included).
    const backOnA = a.core({ store });
    await backOnA.start();
    assert.equal(backOnA.state.kind, 'online', 'A\'s sign-in survived the visit to B');
    await a.advance(14 * 60_000);
    await backOnA.cards.refresh();
    assert.equal(backOnA.state.kind, 'online');

    const seenByA = sentTokens(a.transports);
    const seenByB = sentTokens(b.transports);
    assert.ok(seenByA.size >= 2 && seenByB.size >= 1, 'the test looks at real requests');
    for (const t of seenByB) assert.ok(!seenByA.has(t), 'A\'s server saw one of B\'s tokens');
    for (const t of seenByA) assert.ok(!seenByB.has(t), 'B\'s server saw one of A\'s tokens');
  });

  it('two computers (two identity files, two lock folders) sharing one secret store keep two sign-ins', async () => {
    const store = new MemorySecretStore();
    const secondFile = path.join(a.dir, 'desktop.json');
    const second = await a.ctl('POST', '/_sandbox/machines', { name: 'desktop', writeTo: secondFile });
    assert.ok(second.status < 300, JSON.stringify(second.json));
    const laptop = a.core({ store });
    const desktop = a.core({ store, machineFile: secondFile, lockDir: path.join(a.dir, 'desktop-locks') });
    await signInCore(a, laptop);
    await desktop.start();
    assert.equal(desktop.state.kind, 'signed-out', 'the other computer does not pick up this one\'s sign-in');
    await signInCore(a, desktop);

    // Each window's grant names its own computer, and a fresh window on each finds its own.
    const machineOf = (core: typeof laptop) => (core.state.kind === 'online' ? core.state.me.grant.machine?.id : core.state.kind);
    assert.equal(machineOf(laptop), a.machineId);
    assert.equal(machineOf(desktop), second.json.id);
    const laptopAgain = a.core({ store });
    await laptopAgain.start();
    assert.equal(machineOf(laptopAgain), a.machineId, 'the laptop\'s sign-in was not replaced by the desktop\'s');

    // Refreshes on both: nobody refreshes (or sends) the other computer's tokens.
    await a.advance(14 * 60_000);
    await laptop.cards.refresh();
    await desktop.cards.refresh();
    assert.equal(laptop.state.kind, 'online');
    assert.equal(desktop.state.kind, 'online');
    const laptopSent = sentTokens([laptop.transport, laptopAgain.transport]);
    for (const t of sentTokens([desktop.transport])) assert.ok(!laptopSent.has(t), 'a token crossed computers');
    const laptopKeys = dpopThumbprintKeys(laptop.transport);
    const desktopKeys = dpopThumbprintKeys(desktop.transport);
    assert.equal(laptopKeys.size, 1);
    assert.equal(desktopKeys.size, 1);
    assert.notDeepEqual([...laptopKeys], [...desktopKeys], 'each computer attests its own DPoP key');

    // Signing out on one computer leaves the other signed in.
    await desktop.signOut();
    await laptop.cards.refresh();
    assert.equal(laptop.state.kind, 'online');
  });

  it('a sign-in stored under the old fixed keys is dropped, never sent', async () => {
    const store = new MemorySecretStore();
    await store.store(LEGACY_TOKENS_SECRET, JSON.stringify({ accessToken: 'legacy-at', refreshToken: 'legacy-rt', expiresAt: a.sb.clock.now() + 600_000, scope: '' }));
    await store.store(LEGACY_DPOP_KEY_SECRET, '{"kty":"EC"}');
    const core = a.core({ store });
    await core.start();
    assert.equal(core.state.kind, 'signed-out');
    assert.equal(await store.get(LEGACY_TOKENS_SECRET), undefined);
    assert.equal(await store.get(LEGACY_DPOP_KEY_SECRET), undefined);
    assert.ok(!sentTokens([core.transport]).has('legacy-at'));
  });
});
