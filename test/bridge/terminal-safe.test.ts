// F12 (#52): text from a service printed by the bridge or `ask` loses its control and escape
// sequences. The bridge's own entry runs as a CLI runs it, against a service that answers with an
// OSC title, a screen clear, one-byte C1 sequences and a bell in its error text.
import { PROOF_PATH, proofOf } from '../../src/bridge/service-proof';
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { terminalSafe } from '../../src/bridge/terminal-safe';

const HOSTILE = 'bad\u001b]0;pwned\u0007 \u001b[2J\u001b[H\u009b31mred\u009d8;;http://x\u009c \u0090q\u001b\\ bell\u0007 del\u007f \u001bc end';
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(__dirname, '../../src/bridge/main.ts'), ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (b: Buffer) => { out += b.toString('utf8'); });
    p.stderr.on('data', (b: Buffer) => { err += b.toString('utf8'); });
    p.stdin.end();
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('text printed to a terminal loses its escape sequences (#52 F12)', function () {
  this.timeout(30_000);
  let server: http.Server;
  let home: string;
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      // It proves the ask key (#51 F1), then refuses everything with hostile words.
      if (req.url?.startsWith(PROOF_PATH)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ proof: proofOf('k', new URL(req.url, 'http://x').searchParams.get('nonce') ?? '') }));
        return;
      }
      res.writeHead(400, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'refused', detail: HOSTILE }).replace(/\\u00([0-9a-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'f12-'));
    fs.writeFileSync(path.join(home, 'local-service.json'), JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, askKey: 'k', pid: process.pid }));
  });
  after(async () => { await new Promise((r) => server.close(r)); fs.rmSync(home, { recursive: true, force: true }); });

  it('F12: terminalSafe drops OSC, CSI (both forms), DCS, other ESC sequences and C0/C1 controls; keeps tabs, line breaks and every letter', () => {
    assert.equal(terminalSafe(HOSTILE), 'bad red  bell del  end');
    assert.equal(terminalSafe('a\tb\r\nc é 漢 🙂'), 'a\tb\nc é 漢 🙂');
  });

  it('F12: `ask` prints a service\'s refusal without its escape sequences', async () => {
    const r = await run(['ask', 'approval', 'Deploy?', '--wait', '1'], { ASSISTANT_CARDS_HOME: home });
    assert.match(r.err, /ask: .*answered 400/);
    assert.match(r.err, /bad +red/, `the words are kept: ${JSON.stringify(r.err)}`);
    assert.ok(!CONTROL.test(r.err.replace(/\n/g, '')), `no control character: ${JSON.stringify(r.err)}`);
    assert.ok(!CONTROL.test(r.out.replace(/\n/g, '')));
  });

  it('F12: the hook logs a service\'s refusal without its escape sequences (stdout stays the CLI\'s, empty)', async () => {
    const event = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'SessionStart' });
    const p = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(__dirname, '../../src/bridge/main.ts'), 'hook', 'claude-code'], { env: { ...process.env, ASSISTANT_CARDS_HOME: home } });
    let err = '';
    let out = '';
    p.stderr.on('data', (b: Buffer) => { err += b.toString('utf8'); });
    p.stdout.on('data', (b: Buffer) => { out += b.toString('utf8'); });
    p.stdin.end(event);
    const code = await new Promise((r) => p.on('close', r));
    assert.equal(code, 0);
    assert.equal(out, '');
    assert.match(err, /answered 400/);
    assert.ok(!CONTROL.test(err.replace(/\n/g, '')), `no control character: ${JSON.stringify(err)}`);
  });
});
