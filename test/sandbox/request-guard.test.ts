// The sandbox runs on the person's computer, where any web page can aim requests at it. Another
// site's form post, a DNS-rebound name in Host, a forwarded Host, and a `writeTo` aimed at any file
// are refused; identity files are written only in the run's own places, mode 0600.
import { strict as assert } from 'node:assert';
import { chmod, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/index';
import { startSandbox } from './helpers';

interface Raw { status: number; type: string; text: string }

/** node:http, so Host and Origin can be anything (fetch sets Host itself). */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, setHost: false, headers: { ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('sandbox request guard: Host, Origin, JSON-only control, identity file places', () => {
  let sb: RunningSandbox;
  let work: string;
  let host: string;
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'ac-guard-'));
    sb = await startSandbox({ port: 0, workDir: work });
    host = `127.0.0.1:${sb.port}`;
  });
  afterEach(async () => {
    await sb.close();
  });
  const json = (o: unknown) => JSON.stringify(o);
  const auth = (of: RunningSandbox = sb) => ({ authorization: `Bearer ${of.controlSecret}` });

  it('a cross-site form post cannot make a computer that writes a file (form and text bodies: 415)', async () => {
    const target = join(work, 'victim.txt');
    await writeFile(target, 'precious\n');
    const form = await raw(sb.port, 'POST', '/_sandbox/machines', { host, 'content-type': 'application/x-www-form-urlencoded' }, `name=x&writeTo=${encodeURIComponent(target)}`);
    assert.equal(form.status, 415, form.text);
    const text = await raw(sb.port, 'POST', '/_sandbox/machines', { host, 'content-type': 'text/plain' }, json({ name: 'x', writeTo: target }));
    assert.equal(text.status, 415, text.text);
    const multipart = await raw(sb.port, 'POST', '/_sandbox/reset', { host, 'content-type': 'multipart/form-data; boundary=b' }, '--b--');
    assert.equal(multipart.status, 415);
    const none = await raw(sb.port, 'POST', '/_sandbox/apps', { host }, json({ name: 'x' }));
    assert.equal(none.status, 415, 'a body without a content type is refused too');
    const emptyForm = await raw(sb.port, 'POST', '/_sandbox/reset', { host, 'content-type': 'application/x-www-form-urlencoded' }, '');
    assert.equal(emptyForm.status, 415, 'an empty form post too');
    assert.equal(await readFile(target, 'utf8'), 'precious\n');
    assert.equal(sb.sandbox.auth.machines.size, 0);
  });

  it('a foreign Origin is refused on every control route, even with a JSON body; its own is served', async () => {
    for (const [method, path, body] of [
      ['POST', '/_sandbox/reset', undefined],
      ['POST', '/_sandbox/apps', json({ name: 'evil', scopes: ['cards:read'] })],
      ['POST', '/_sandbox/device/approve', json({ user_code: 'ABCD-EFGH' })],
      ['GET', '/_sandbox/grants', undefined],
    ] as const) {
      for (const origin of ['https://evil.example', 'null', `http://127.0.0.1.evil.example:${sb.port}`]) {
        const headers: Record<string, string> = { host, origin, ...(body ? { 'content-type': 'application/json' } : {}) };
        const r = await raw(sb.port, method, path, headers, body);
        assert.equal(r.status, 403, `${method} ${path} from ${origin}: ${r.text}`);
      }
    }
    // Percent-encoded paths reach the same routes: the check follows the route, not the raw URL.
    for (const path of ['/%5Fsandbox/reset', '/_sandbo%78/reset']) {
      assert.equal((await raw(sb.port, 'POST', path, { host, origin: 'https://evil.example' })).status, 403, path);
      assert.equal((await raw(sb.port, 'POST', path, { host, 'content-type': 'text/plain' }, 'x')).status, 415, path);
    }
    assert.equal((await raw(sb.port, 'POST', '/devic%65', { host, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, 'x=1')).status, 403);
    const own = await raw(sb.port, 'POST', '/_sandbox/reset', { host, origin: `http://${host}`, ...auth() });
    assert.equal(own.status, 200, own.text);
  });

  it('a foreign Host (DNS rebinding) is refused everywhere: control, /v1 (problem+json), pages, OAuth', async () => {
    const evil = `evil.example:${sb.port}`;
    const control = await raw(sb.port, 'GET', '/_sandbox/grants', { host: evil });
    assert.equal(control.status, 403);
    const v1 = await raw(sb.port, 'GET', '/v1/cards', { host: evil });
    assert.equal(v1.status, 403);
    assert.match(v1.type, /^application\/problem\+json/);
    assert.equal(JSON.parse(v1.text).code, 'forbidden');
    assert.equal((await raw(sb.port, 'GET', '/device', { host: evil })).status, 403);
    assert.equal((await raw(sb.port, 'GET', '/cards/req_x', { host: evil })).status, 403);
    assert.equal((await raw(sb.port, 'POST', '/oauth/token', { host: evil, 'content-type': 'application/x-www-form-urlencoded' }, 'a=b')).status, 403);
    assert.equal((await raw(sb.port, 'GET', '/v1/openapi.json', {})).status, 400, 'no Host at all (Node refuses it first)');
    // Loopback names are this computer (a port forward keeps its own port).
    for (const h of [host, `localhost:${sb.port}`, `[::1]:${sb.port}`]) {
      assert.equal((await raw(sb.port, 'GET', '/_sandbox/grants', { host: h })).status, 200, h);
    }
  });

  it('--public-url names the one other Host served', async () => {
    const pub = await startSandbox({ port: 0, publicUrl: 'https://cards.example.com' });
    try {
      assert.equal((await raw(pub.port, 'GET', '/_sandbox/grants', { host: 'cards.example.com' })).status, 200);
      assert.equal((await raw(pub.port, 'GET', '/_sandbox/grants', { host: 'other.example.com' })).status, 403);
      const post = await raw(pub.port, 'POST', '/_sandbox/reset', { host: 'cards.example.com', origin: 'https://cards.example.com', ...auth(pub) });
      assert.equal(post.status, 200);
    } finally {
      await pub.close();
    }
  });

  it('X-Forwarded-Host never reaches an identity file or a link (no trustProxy)', async () => {
    const file = join(work, 'machine.json');
    const r = await raw(sb.port, 'POST', '/_sandbox/machines', {
      host, 'content-type': 'application/json', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', ...auth(),
    }, json({ name: 'pc', writeTo: file }));
    assert.equal(r.status, 201, r.text);
    const written = JSON.parse(await readFile(file, 'utf8')) as { baseUrl: string };
    assert.equal(written.baseUrl, `http://${host}`);
  });

  it('writeTo: only inside the run\'s folder, the --machine-file or the default path; never over another file', async () => {
    const post = (writeTo: string) => raw(sb.port, 'POST', '/_sandbox/machines', { host, 'content-type': 'application/json', ...auth() }, json({ name: 'pc', writeTo }));
    const elsewhere = await mkdtemp(join(tmpdir(), 'ac-elsewhere-'));
    for (const path of [join(elsewhere, 'machine.json'), join(work, '..', 'escape.json'), 'relative.json', join(work, 'a', '..', '..', 'x.json')]) {
      const r = await post(path);
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.equal(JSON.parse(r.text).errors[0].field, 'writeTo');
    }
    // Inside the folder, over a file that is not an identity file: refused, left as it was.
    const notes = join(work, 'notes.txt');
    await writeFile(notes, 'mine');
    assert.equal((await post(notes)).status, 400);
    assert.equal(await readFile(notes, 'utf8'), 'mine');
    // Over the identity of a real service (no sandbox mark, even at a loopback address): left alone.
    const real = join(work, 'real.json');
    const realBody = json({ id: 'mch_real', name: 'pc', baseUrl: 'http://127.0.0.1:8443', privateJwk: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' } });
    await writeFile(real, realBody);
    assert.equal((await post(real)).status, 400);
    assert.equal(await readFile(real, 'utf8'), realBody);
    // A sandbox's own identity file is replaced, and ends up 0600 even when it was wider.
    const own = join(work, 'sub', 'machine.json');
    assert.equal((await post(own)).status, 201);
    await chmod(own, 0o644);
    assert.equal((await post(own)).status, 201);
    assert.equal((await stat(own)).mode & 0o777, 0o600);
    // The --machine-file the sandbox was started with, wherever it is.
    const named = join(elsewhere, 'named', 'machine.json');
    await mkdir(join(elsewhere, 'named'));
    const withFile = await startSandbox({ port: 0, machineFile: named });
    try {
      const r = await raw(withFile.port, 'POST', '/_sandbox/machines', { host: `127.0.0.1:${withFile.port}`, 'content-type': 'application/json', ...auth(withFile) }, json({ name: 'pc', writeTo: named }));
      assert.equal(r.status, 201, r.text);
      assert.equal((await stat(named)).mode & 0o777, 0o600);
    } finally {
      await withFile.close();
    }
  });

  it('a control write without this run\'s secret is refused (401, code forbidden), on every write route; reads and a wrong secret too', async () => {
    const target = join(work, 'planted.json');
    const writes: [string, string, string | undefined][] = [
      ['POST', '/_sandbox/machines', json({ name: 'planted', writeTo: target })],
      ['POST', '/_sandbox/reset', undefined],
      ['POST', '/_sandbox/device/approve', json({ user_code: 'ABCD-EFGH' })],
      ['POST', '/_sandbox/cards', json({ agentId: 'agt_x', kind: 'text', title: 'x' })],
      ['DELETE', '/_sandbox/sessions/x', undefined],
      ['POST', '/_sandbox/hold', json({ ms: 0 })],
      ['POST', '/_sandbox/clock/jump', json({ ms: 0 })],
      ['POST', '/_sandbox/faults/release', undefined],
      ['PUT', '/_sandbox/apps/app_x/testers', json({ testers: [] })],
      ['POST', '/%5Fsandbox/machines', json({ name: 'planted', writeTo: target })],
    ];
    for (const [method, path, body] of writes) {
      for (const extra of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: sb.controlSecret }, { authorization: `Basic ${sb.controlSecret}` }]) {
        const r = await raw(sb.port, method, path, { host, ...(body ? { 'content-type': 'application/json' } : {}), ...extra }, body);
        assert.equal(r.status, 401, `${method} ${path} ${JSON.stringify(extra)}: ${r.text}`);
        assert.equal(JSON.parse(r.text).code, 'forbidden');
      }
    }
    await assert.rejects(stat(target), 'no identity file planted');
    assert.equal(sb.sandbox.auth.machines.size, 0);
    // Reads need no secret; with it, the write is done.
    assert.equal((await raw(sb.port, 'GET', '/_sandbox/grants', { host })).status, 200);
    const ok = await raw(sb.port, 'POST', '/_sandbox/machines', { host, 'content-type': 'application/json', ...auth() }, json({ name: 'pc', writeTo: target }));
    assert.equal(ok.status, 201, ok.text);
  });

  it('a Host header naming another port does not change the address written into an identity file or a link', async () => {
    const file = join(work, 'machine.json');
    for (const h of ['127.0.0.1:1', 'localhost:65535', `[::1]:${sb.port + 1}`]) {
      const r = await raw(sb.port, 'POST', '/_sandbox/machines', { host: h, 'content-type': 'application/json', ...auth() }, json({ name: 'pc', writeTo: file }));
      assert.equal(r.status, 201, r.text);
      const written = JSON.parse(await readFile(file, 'utf8')) as { baseUrl: string; madeBy: string };
      const name = h.slice(0, h.lastIndexOf(':'));
      assert.equal(written.baseUrl, `http://${name}:${sb.port}`, h);
      assert.equal(written.madeBy, 'sandbox');
      const hook = await raw(sb.port, 'POST', '/_sandbox/webhooks', { host: h, 'content-type': 'application/json', ...auth() }, json({ name: 'n', area: { id: 'prj_a', name: 'A' } }));
      assert.ok((JSON.parse(hook.text) as { url: string }).url.startsWith(`http://${name}:${sb.port}/in/`), hook.text);
    }
  });
});
