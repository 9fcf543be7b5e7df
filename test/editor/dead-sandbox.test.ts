// A local sandbox killed outright (#37), as `npm start` runs one: the address in the user
// settings (assistantCards.baseUrl) and an identity file the sandbox wrote. SIGKILL blanks
// nothing; a program takes the freed port at once. The window, signed in and syncing, sends it
// nothing: it finds the process its identity file names gone before its next request, takes the
// address out of the file, and stays off that address though the setting still names it. On main
// the window's reconnects reached whatever took the port, each with a DPoP proof and the token.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { testEnv } from './helpers/env';

describe('a local sandbox killed outright (extension host)', function () {
  this.timeout(120_000);
  let w: World | undefined;
  let probe: http.Server | undefined;

  after(async () => {
    await new Promise((r) => (probe ? probe.close(r) : r(undefined)));
    await unwire(w);
  });

  it('SIGKILLed while the window syncs, its port taken at once: nothing reaches it, the address leaves the identity file, the setting\'s address is not called again', async () => {
    w = await wire();
    await signInApproved(w);
    const app = w.app;
    const url = w.sb.url;
    const written = JSON.parse(fs.readFileSync(testEnv.machineFile, 'utf8')) as { baseUrl: string; sandbox?: { pid: number } };
    assert.equal(written.baseUrl, url);
    assert.equal(written.sandbox?.pid, w.sb.pid, 'the identity file names the sandbox\'s process');

    await w.sb.kill();
    const reached: string[] = [];
    probe = http.createServer((req, res) => { reached.push(`${req.method} ${req.url}`); res.writeHead(503).end(); });
    await new Promise<void>((resolve, reject) => { probe!.once('error', reject); probe!.listen(Number(new URL(url).port), '127.0.0.1', resolve); });

    // The window's next request (the change feed reconnecting) finds the sandbox gone.
    await until('the window off the dead sandbox\'s address', () => app.live === undefined || undefined, 60_000);
    assert.equal((JSON.parse(fs.readFileSync(testEnv.machineFile, 'utf8')) as { baseUrl: string }).baseUrl, '', 'the address left the identity file');
    // Looked at again (the identity file's watcher, a settings change): still not called.
    await app.refreshState();
    assert.equal(app.live, undefined);
    assert.deepEqual(reached, [], 'requests reached the program on the freed port');
  });
});
