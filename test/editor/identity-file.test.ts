// The computer identity file rewritten in place (truncate, then write: what most tools do) at the
// same address: a window whose core found it unusable meanwhile reads it again on the next change,
// instead of staying "not set up" (a busy CI run's alone window, #36).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { signedOutStart, until } from './cards-helpers';
import { testEnv } from './helpers/env';

describe('the identity file: read again when it changes after it was found unusable', function () {
  this.timeout(120_000);
  after(async () => { await signedOutStart(); });

  it('a file without its key, then the whole file in place at the same address: signed out, not "not set up"', async () => {
    const app = await signedOutStart();
    const parsed = JSON.parse(fs.readFileSync(testEnv.machineFile, 'utf8')) as Record<string, unknown>;
    // Another address where nothing listens (a new live set is built for it), and the file without
    // its computer's name and key, as a half-written file may read; then the whole file at that address.
    const good = JSON.stringify({ ...parsed, baseUrl: 'http://127.0.0.1:10' }, null, 2);
    const bad = JSON.stringify({ baseUrl: 'http://127.0.0.1:10' }, null, 2);
    fs.writeFileSync(testEnv.machineFile, bad);
    await app.refreshState();
    await until('not set up (no key in the file)', () => app.live?.core.state.kind === 'not-set-up' || undefined, 30_000);
    const unusable = app.live;
    fs.writeFileSync(testEnv.machineFile, good); // in place, the same address: only the file watcher tells the window
    await until('signed out: the file read again', () => app.live?.core.state.kind === 'signed-out' || undefined, 30_000);
    assert.notEqual(app.live, unusable, 'a new live set read it');
  });
});
