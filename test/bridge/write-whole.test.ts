// Files other processes read while they are written: a reader sees the old text or the new, whole.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeWhole, writeWholeSync } from '../../src/bridge/write-whole';

const MODULE = path.resolve(__dirname, '../../src/bridge/write-whole.ts');

describe('bridge: a file written whole', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-whole-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('owner-only, over a file of another mode, and no temporary file left', async () => {
    const file = path.join(dir, 'identity.json');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    writeWholeSync(file, 'new');
    assert.equal(fs.readFileSync(file, 'utf8'), 'new');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    await writeWhole(file, 'newer', 0o700);
    assert.equal(fs.readFileSync(file, 'utf8'), 'newer');
    assert.equal(fs.statSync(file).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(dir), ['identity.json']);
  });

  it('through a link: the file it points at is written, the link kept', async () => {
    const real = path.join(dir, 'real.json');
    fs.writeFileSync(real, 'old');
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(real, link);
    writeWholeSync(link, 'new');
    await writeWhole(link, 'newer');
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'still a link');
    assert.equal(fs.readFileSync(real, 'utf8'), 'newer');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['link.json', 'real.json']);
  });

  it('a write that fails leaves the old file and no temporary one', () => {
    const file = path.join(dir, 'missing-folder', 'x.json');
    assert.throws(() => writeWholeSync(file, 'x'), /ENOENT/);
    const kept = path.join(dir, 'kept.json');
    fs.writeFileSync(kept, 'old');
    fs.mkdirSync(path.join(dir, 'a-folder'));
    assert.throws(() => writeWholeSync(path.join(dir, 'a-folder'), 'x'), /EISDIR|ENOTDIR|EPERM|EEXIST/);
    assert.equal(fs.readFileSync(kept, 'utf8'), 'old');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['a-folder', 'kept.json']);
  });

  it('another process reading while it is written again and again sees only whole texts', async function () {
    this.timeout(60_000);
    const file = path.join(dir, 'local-service.json');
    // Two texts of different lengths, each ending in a mark: a cut one lacks its end or mixes them.
    const big = `${'a'.repeat(2_000_000)}END-A`;
    const small = `${'b'.repeat(700_000)}END-B`;
    writeWholeSync(file, big);
    const writer = spawn(process.execPath, ['-r', 'tsx/cjs', '-e', `
      const { writeWholeSync } = require(${JSON.stringify(MODULE)});
      const big = ${JSON.stringify('a')}.repeat(2000000) + 'END-A';
      const small = ${JSON.stringify('b')}.repeat(700000) + 'END-B';
      for (let i = 0; i < 300; i++) writeWholeSync(${JSON.stringify(file)}, i % 2 ? small : big);
    `], { stdio: 'inherit' });
    const ended = new Promise<number | null>((resolve) => writer.on('exit', resolve));
    let done = false;
    void ended.then(() => { done = true; });
    let reads = 0;
    const torn: number[] = [];
    while (!done) {
      const text = fs.readFileSync(file, 'utf8');
      reads++;
      if (text !== big && text !== small) torn.push(text.length);
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(await ended, 0, 'the writer ran to its end');
    assert.ok(reads > 10, `read while it was written (${reads} reads)`);
    assert.deepEqual(torn, [], 'no read saw a cut or mixed text');
  });
});
