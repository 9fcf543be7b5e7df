// The connection state reducer, every transition, with no service and no timers.
import { strict as assert } from 'node:assert';
import type { Me } from '../../src/api/schemas';
import { INITIAL_CONNECTION, nextConnection } from '../../src/sync/connection-state';
import type { Connection, ConnectionEvent } from '../../src/sync/connection-state';

const me = { grant: { scopes: ['cards:read'] } } as unknown as Me;
const code: ConnectionEvent = { type: 'device-code', userCode: 'ABCD-EFGH', verificationUri: 'https://x/device', verificationUriComplete: 'https://x/device?c=1' };
const run = (events: ConnectionEvent[], from: Connection = INITIAL_CONNECTION) => events.reduce(nextConnection, from);
const syncingOnline = run([{ type: 'sync-started' }, { type: 'me', me }, { type: 'service-answered' }]);
const unreachable: ConnectionEvent = { type: 'service-unreachable', at: 1000, message: 'ECONNREFUSED' };

describe('connection state', () => {
  it('starts signed out, not syncing, with nobody known', () => {
    assert.deepEqual(INITIAL_CONNECTION, { shown: { kind: 'signed-out' }, syncing: false, inDeviceFlow: false, me: undefined });
  });

  it('no stored sign-in: signed out, without a reason to tell', () => {
    assert.deepEqual(run([{ type: 'no-sign-in' }]).shown, { kind: 'signed-out' });
  });

  it('no identity file: not set up, unless a sign-in is already syncing', () => {
    assert.deepEqual(run([{ type: 'not-set-up', reason: 'no file' }]).shown, { kind: 'not-set-up', reason: 'no file' });
    assert.equal(nextConnection(syncingOnline, { type: 'not-set-up', reason: 'no file' }), syncingOnline);
  });

  it('sync started, who we are, the service answered: online', () => {
    const started = run([{ type: 'sync-started' }]);
    assert.equal(started.syncing, true);
    assert.equal(nextConnection(started, { type: 'service-answered' }), started, 'not online before knowing who');
    assert.deepEqual(syncingOnline.shown, { kind: 'online', me });
    assert.equal(nextConnection(syncingOnline, { type: 'service-answered' }), syncingOnline, 'online stays the same object');
  });

  it('an answer while not syncing changes nothing', () => {
    const s = run([{ type: 'me', me }]);
    assert.equal(nextConnection(s, { type: 'service-answered' }), s);
  });

  it('offline on an unreachable service, once; online again on the next answer', () => {
    const off = nextConnection(syncingOnline, unreachable);
    assert.deepEqual(off.shown, { kind: 'offline', since: 1000, lastError: 'ECONNREFUSED' });
    assert.equal(nextConnection(off, { ...unreachable, at: 2000 }), off, 'the first failure\'s time is kept');
    assert.deepEqual(nextConnection(off, { type: 'service-answered' }).shown, { kind: 'online', me });
  });

  it('an unreachable service while not syncing is not "offline"', () => {
    assert.equal(nextConnection(INITIAL_CONNECTION, unreachable), INITIAL_CONNECTION);
  });

  it('the device flow shows its code, and background sync does not overwrite it', () => {
    const showing = run([{ type: 'device-flow-started' }, code], syncingOnline);
    assert.equal(showing.shown.kind, 'signing-in');
    assert.equal(nextConnection(showing, unreachable), showing, 'no offline over the code');
    assert.equal(nextConnection(showing, { type: 'service-answered' }), showing, 'no online over the code');
    const done = nextConnection(showing, { type: 'device-flow-done' });
    assert.equal(done.inDeviceFlow, false);
    assert.equal(done.shown.kind, 'signing-in', 'the code shows until the sign-in is confirmed');
    assert.deepEqual(nextConnection(done, { type: 'service-answered' }).shown, { kind: 'online', me });
  });

  it('signed in again in a syncing window: online with the new grant, or as before when /v1/me failed', () => {
    const showing = run([{ type: 'device-flow-started' }, code, { type: 'device-flow-done' }], syncingOnline);
    const me2 = { grant: { scopes: ['cards:read', 'presence:desk'] } } as unknown as Me;
    const again = nextConnection(showing, { type: 'signed-in-again', me: me2 });
    assert.deepEqual(again.shown, { kind: 'online', me: me2 });
    assert.equal(again.me, me2);
    assert.deepEqual(nextConnection(showing, { type: 'signed-in-again', me: undefined }).shown, { kind: 'online', me });
    assert.equal(nextConnection(INITIAL_CONNECTION, { type: 'signed-in-again', me: undefined }), INITIAL_CONNECTION);
  });

  it('a failed or cancelled device flow leaves things as they were', () => {
    const fromOut = run([{ type: 'device-flow-started' }, code]);
    assert.deepEqual(nextConnection(fromOut, { type: 'device-flow-failed', before: INITIAL_CONNECTION.shown }).shown, { kind: 'signed-out' });
    const fromOnline = run([{ type: 'device-flow-started' }, code], syncingOnline);
    const back = nextConnection(fromOnline, { type: 'device-flow-failed', before: syncingOnline.shown });
    assert.equal(back.shown, syncingOnline.shown, 'a window still signed in stays so');
    assert.equal(back.inDeviceFlow, false);
    // A second sign-in begun while the first showed its code: its failure does not bring back an old code.
    const second = nextConnection(fromOut, { type: 'device-flow-failed', before: fromOut.shown });
    assert.deepEqual(second.shown, { kind: 'signed-out' });
    // Failed before any code showed: nothing to restore.
    const early = run([{ type: 'device-flow-started' }], syncingOnline);
    const after = nextConnection(early, { type: 'device-flow-failed', before: syncingOnline.shown });
    assert.equal(after.shown, syncingOnline.shown);
    assert.equal(after.inDeviceFlow, false);
  });

  it('a device flow that finds no identity file: not set up, unless already syncing', () => {
    const flow = run([{ type: 'device-flow-started' }, code]);
    assert.deepEqual(nextConnection(flow, { type: 'device-flow-failed', before: INITIAL_CONNECTION.shown, notSetUp: 'unknown computer' }).shown,
      { kind: 'not-set-up', reason: 'unknown computer' });
    const syncing = run([{ type: 'device-flow-started' }, code], syncingOnline);
    assert.equal(nextConnection(syncing, { type: 'device-flow-failed', before: syncingOnline.shown, notSetUp: 'x' }).shown, syncingOnline.shown,
      'syncing: the code goes, the sign-in stays');
  });

  it('sign-outs keep their reason: the person, another window, refused, app removed', () => {
    for (const reason of ['person', 'elsewhere', 'refused', 'app-removed'] as const) {
      const s = run([{ type: 'sync-stopped' }, { type: 'signed-out', reason }], syncingOnline);
      assert.deepEqual(s.shown, { kind: 'signed-out', reason });
      assert.equal(s.me, undefined, 'who was signed in is forgotten');
      assert.equal(s.syncing, false);
    }
  });

  it('sync stopped: an answer or a failure after it changes nothing', () => {
    const stopped = nextConnection(syncingOnline, { type: 'sync-stopped' });
    assert.equal(stopped.syncing, false);
    assert.equal(nextConnection(stopped, unreachable), stopped);
    assert.equal(nextConnection(stopped, { type: 'sync-stopped' }), stopped);
  });

  it('never changes the state it is given', () => {
    const frozen = JSON.stringify(syncingOnline);
    nextConnection(syncingOnline, unreachable);
    nextConnection(syncingOnline, { type: 'signed-out', reason: 'person' });
    assert.equal(JSON.stringify(syncingOnline), frozen);
  });
});
