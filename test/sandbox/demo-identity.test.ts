// --demo and the person's own identity file (~/.config/assistant-cards/machine.json): the demo
// never creates it unasked, and never adopts or rewrites one that names another service; then it
// seeds a computer of its own in the run's folder. HOME points at a temporary folder here.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { call, startSandbox } from './helpers';
import { defaultMachineFile, newIdentity } from '../../src/sandbox/machine-file';

describe('sandbox demo and the default identity file', () => {
  let home: string;
  let savedHome: string | undefined;
  beforeEach(() => {
    savedHome = process.env.HOME;
    home = mkdtempSync(join(tmpdir(), 'ac-home-'));
    process.env.HOME = home;
  });
  afterEach(() => {
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
  });

  /** An identity a real service's setup wrote: no sandbox mark. */
  const realIdentity = (baseUrl = 'https://cards.example.com') => {
    const file = defaultMachineFile();
    assert.ok(file.startsWith(home), 'the test reads a temporary HOME');
    mkdirSync(dirname(file), { recursive: true });
    const { madeBy: _sandboxMark, ...real } = newIdentity('my laptop', baseUrl);
    const text = `${JSON.stringify(real, null, 2)}\n`;
    writeFileSync(file, text, { mode: 0o600 });
    return { file, text };
  };

  it('--demo alone does not create the default identity file: it uses the run\'s own folder', async () => {
    const work = mkdtempSync(join(tmpdir(), 'ac-work-'));
    const sb = await startSandbox({ port: 0, demo: true, workDir: work });
    try {
      assert.equal(existsSync(defaultMachineFile()), false);
      assert.equal(sb.demo!.machineFile, join(work, 'machine.json'));
      assert.equal(JSON.parse(readFileSync(sb.demo!.machineFile, 'utf8')).baseUrl, sb.url);
    } finally {
      await sb.close();
    }
  });

  it('--demo leaves the person\'s identity of a real service as it was, even when named by --machine-file', async () => {
    const { file, text } = realIdentity();
    for (const demo of [true, { machineFile: file }] as const) {
      const sb = await startSandbox({ port: 0, demo });
      try {
        assert.equal(readFileSync(file, 'utf8'), text, 'not rewritten');
        assert.notEqual(sb.demo!.machineFile, file);
        assert.notEqual(sb.demo!.machineId, JSON.parse(text).id, 'not adopted');
        await sb.sandbox.reset(); // seeding again changes nothing either
        assert.equal(readFileSync(file, 'utf8'), text);
      } finally {
        await sb.close();
      }
    }
  });

  it('POST /_sandbox/machines may set the default identity file up when there is none (0600), marked as the sandbox\'s', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const file = defaultMachineFile();
      const res = await call('POST', `${sb.url}/_sandbox/machines`, { name: 'x', writeTo: file });
      assert.equal(res.status, 201);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(written.baseUrl, sb.url);
      assert.equal(written.madeBy, 'sandbox');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      // the next sandbox may replace its own file
      const again = await call('POST', `${sb.url}/_sandbox/machines`, { name: 'y', writeTo: file });
      assert.equal(again.status, 201, again.text);
    } finally {
      await sb.close();
    }
  });

  it('a real service\'s identity at a loopback address (a tunnel) is not the sandbox\'s: neither the demo nor POST /_sandbox/machines replaces it', async () => {
    const { file, text } = realIdentity('http://127.0.0.1:8443');
    const sb = await startSandbox({ port: 0, demo: { machineFile: file } });
    try {
      assert.notEqual(sb.demo!.machineFile, file);
      const res = await call('POST', `${sb.url}/_sandbox/machines`, { name: 'x', writeTo: file });
      assert.equal(res.status, 400);
      assert.match(res.text, /no sandbox made/);
      assert.equal(readFileSync(file, 'utf8'), text);
    } finally {
      await sb.close();
    }
  });

  it('a stopped sandbox takes its address out of the identity files it wrote: no dead port is left for the next start to send to', async () => {
    const work = mkdtempSync(join(tmpdir(), 'ac-work-'));
    const sb = await startSandbox({ port: 0, demo: true, workDir: work });
    const other = join(work, 'other.json');
    assert.equal((await call('POST', `${sb.url}/_sandbox/machines`, { name: 'x', writeTo: other })).status, 201);
    const demoFile = sb.demo!.machineFile;
    const before = JSON.parse(readFileSync(demoFile, 'utf8'));
    assert.equal(before.baseUrl, sb.url);
    assert.deepEqual(before.sandbox, { pid: process.pid, host: hostname() }, 'the process serving the address (#37)');
    await sb.close();
    for (const f of [demoFile, other]) {
      const after = JSON.parse(readFileSync(f, 'utf8'));
      assert.equal(after.baseUrl, '', f);
      assert.equal(after.sandbox, undefined, 'a blank address names no process');
      assert.equal(after.madeBy, 'sandbox');
      assert.equal(statSync(f).mode & 0o777, 0o600);
    }
    assert.equal(JSON.parse(readFileSync(demoFile, 'utf8')).id, before.id, 'the computer stays the same');
    // the next start adopts it and writes its own address
    const next = await startSandbox({ port: 0, demo: true, workDir: work });
    try {
      assert.equal(next.demo!.machineId, before.id);
      assert.equal(JSON.parse(readFileSync(demoFile, 'utf8')).baseUrl, next.url);
    } finally {
      await next.close();
    }
  });

  it('POST /_sandbox/machines cannot overwrite it either', async () => {
    const { file, text } = realIdentity();
    const sb = await startSandbox({ port: 0 });
    try {
      const res = await call('POST', `${sb.url}/_sandbox/machines`, { name: 'x', writeTo: file });
      assert.equal(res.status, 400);
      assert.equal(readFileSync(file, 'utf8'), text);
    } finally {
      await sb.close();
    }
  });
});
