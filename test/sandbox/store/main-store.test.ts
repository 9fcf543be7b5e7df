// #51: the sandbox's main on a store it cannot open ends its start with what to do (exit 1) and
// leaves the file as it was: never a silent empty desk, nothing overwritten.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

describe('the sandbox started on a store it cannot open', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-main-store-')); });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  it('a damaged file: exit 1, a message that names the file and what to do, the file untouched', () => {
    const file = path.join(dir, 'store.db');
    const junk = Buffer.from('not a store\n'.repeat(500));
    fs.writeFileSync(file, junk);
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts', '--port', '0', '--store', file, '--work', dir], { cwd: root, encoding: 'utf8', timeout: 50_000 });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /store .*store\.db cannot be read/);
    assert.match(r.stderr, /move it aside/);
    assert.doesNotMatch(r.stdout, /listening on/, 'it never serves an empty desk');
    assert.deepEqual(fs.readFileSync(file), junk);
  });
});
