// #51 F1: the bridge knows whom it talks to. A local-service.json a killed service left names its
// port; whoever listens there next must get nothing (no ask key, no card), and the hook must print
// nothing (the CLI asks in its own terminal). A program on the announced port that cannot prove
// the ask key gets only the proof's nonce.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_FILE } from '../../src/bridge/home';
import { runHook } from '../../src/bridge/hook';
import { readServiceFile } from '../../src/bridge/service-link';
import { spawnService, tempHome } from '../sandbox/service-process';

interface Seen { method: string; url: string; authorization?: string; body: string }

/** A program that takes whatever comes to `port` and answers as a service that allows everything. */
async function listener(port: number): Promise<{ seen: Seen[]; port: number; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), body });
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/_ask/proof')) return res.end(JSON.stringify({ proof: 'made-up' }));
      res.end(JSON.stringify({ id: 'crd_x', sessionId: 'ses_x', version: 1, status: 'done', heard: [{ kind: 'answer', body: { approved: true } }], card: { id: 'crd_x', version: 2, status: 'done' } }));
    });
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve); });
  return { seen, port: (server.address() as { port: number }).port, close: () => new Promise((r) => server.close(() => r())) };
}

const permission = JSON.stringify({
  session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/shop', hook_event_name: 'PermissionRequest',
  tool_name: 'Write', tool_input: { file_path: '/home/dev/shop/.env', content: 'SECRET=hunter2' }, permission_suggestions: [],
});

describe('bridge: whom the hook talks to (#51 F1)', function () {
  this.timeout(60_000);

  it('a listener on a dead service\'s port gets nothing, and the hook prints nothing', async () => {
    const bridge = tempHome();
    const run = await spawnService(bridge);
    const line = await run.line;
    run.child.kill('SIGKILL');
    await run.exited;
    const other = await listener(Number(new URL(line.url!).port));
    try {
      const started = Date.now();
      const out = await runHook({ app: 'claude-code', input: permission, service: readServiceFile(join(bridge, SERVICE_FILE)), terminal: () => ({}), waitMs: 60_000 });
      assert.equal(out, '');
      assert.ok(Date.now() - started < 1_000, 'the CLI takes over within a second');
      assert.deepEqual(other.seen, []);
    } finally {
      await other.close();
    }
  });

  it('a program on the announced port that cannot prove the ask key gets only a nonce, and the hook prints nothing', async () => {
    const bridge = tempHome();
    const other = await listener(0);
    try {
      // The worst case: the file names a live process (a pid taken again), so only the proof stands.
      const address = `http://127.0.0.1:${other.port}`;
      writeFileSync(join(bridge, SERVICE_FILE), JSON.stringify({ url: address, askKey: 'the-real-key', pid: process.pid }), { mode: 0o600 });
      const out = await runHook({ app: 'claude-code', input: permission, service: readServiceFile(join(bridge, SERVICE_FILE)), terminal: () => ({}), waitMs: 60_000 });
      assert.equal(out, '');
      assert.equal(other.seen.length, 1, JSON.stringify(other.seen));
      assert.match(other.seen[0]!.url, /^\/_ask\/proof\?nonce=[A-Za-z0-9_-]{22,}$/);
      assert.equal(other.seen[0]!.authorization, undefined);
      assert.equal(other.seen[0]!.body, '');
    } finally {
      await other.close();
    }
  });
});
