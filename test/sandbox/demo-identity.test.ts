// --demo and the person's own identity file (~/.config/assistant-cards/machine.json): the demo
// never creates it unasked, and never adopts or rewrites one that names another service; then it
// seeds a computer of its own in the run's folder. HOME points at a temporary folder here.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index';
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

  const realIdentity = () => {
    const file = defaultMachineFile();
    assert.ok(file.startsWith(home), 'the test reads a temporary HOME');
    mkdirSync(dirname(file), { recursive: true });
    const text = `${JSON.stringify(newIdentity('my laptop', 'https://cards.example.com'), null, 2)}\n`;
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

  it('POST /_sandbox/machines may set the default identity file up when there is none (0600)', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const file = defaultMachineFile();
      const res = await fetch(`${sb.url}/_sandbox/machines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', writeTo: file }) });
      assert.equal(res.status, 201);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).baseUrl, sb.url);
      assert.equal(statSync(file).mode & 0o777, 0o600);
    } finally {
      await sb.close();
    }
  });

  it('POST /_sandbox/machines cannot overwrite it either', async () => {
    const { file, text } = realIdentity();
    const sb = await startSandbox({ port: 0 });
    try {
      const res = await fetch(`${sb.url}/_sandbox/machines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', writeTo: file }) });
      assert.equal(res.status, 400);
      assert.equal(readFileSync(file, 'utf8'), text);
    } finally {
      await sb.close();
    }
  });
});
