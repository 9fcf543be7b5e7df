// The file a Write would replace, as the bridge may read it for the card's diff (#54): only a
// regular UTF-8 file inside the session's folder (after links), at most MAX_BYTES; anything else
// is "not compared" with its reason, and a missing file is new unless a link points nowhere.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileNow, MAX_BYTES } from '../../src/bridge/file-now';

describe('the file a Write replaces, as the card may show it (#54)', () => {
  let dir = '';
  let outside = '';
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'file-now-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'file-now-out-')));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a file in the folder: its text, a BOM kept; relative to the folder too', () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), '\uFEFFhello\r\n');
    assert.deepEqual(fileNow(path.join(dir, 'a.txt'), dir), { kind: 'text', text: '\uFEFFhello\r\n' });
    assert.deepEqual(fileNow('a.txt', dir), { kind: 'text', text: '\uFEFFhello\r\n' });
  });

  it('no file: new; a link that points nowhere is not "new" (the write would go where the card cannot say)', () => {
    assert.deepEqual(fileNow(path.join(dir, 'none.txt'), dir), { kind: 'new' });
    fs.symlinkSync(path.join(outside, 'missing'), path.join(dir, 'dangling'));
    assert.deepEqual(fileNow(path.join(dir, 'dangling'), dir), { kind: 'not-compared', why: 'unreadable', detail: 'ENOENT' });
  });

  it('outside the folder, by path, by "..", by a link, or with no folder known: not read', () => {
    fs.writeFileSync(path.join(outside, 'key'), 'SECRET');
    fs.symlinkSync(path.join(outside, 'key'), path.join(dir, 'link'));
    for (const f of [path.join(outside, 'key'), `../${path.basename(outside)}/key`, path.join(dir, 'link')]) {
      assert.deepEqual(fileNow(f, dir), { kind: 'not-compared', why: 'outside' }, f);
    }
    assert.deepEqual(fileNow(path.join(outside, 'key'), undefined), { kind: 'not-compared', why: 'outside' });
    assert.deepEqual(fileNow('key', 'relative/folder'), { kind: 'not-compared', why: 'outside' });
  });

  it('too large, not UTF-8 text, or not a file: not compared, with the reason', () => {
    fs.writeFileSync(path.join(dir, 'big'), Buffer.alloc(MAX_BYTES + 1, 0x61));
    assert.deepEqual(fileNow(path.join(dir, 'big'), dir), { kind: 'not-compared', why: 'large', detail: String(MAX_BYTES + 1) });
    fs.writeFileSync(path.join(dir, 'max'), Buffer.alloc(MAX_BYTES, 0x61));
    assert.equal(fileNow(path.join(dir, 'max'), dir).kind, 'text', 'MAX_BYTES itself is read');
    fs.writeFileSync(path.join(dir, 'nul'), 'a\u0000b');
    assert.deepEqual(fileNow(path.join(dir, 'nul'), dir), { kind: 'not-compared', why: 'not-text' });
    fs.writeFileSync(path.join(dir, 'latin1'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    assert.deepEqual(fileNow(path.join(dir, 'latin1'), dir), { kind: 'not-compared', why: 'not-text' });
    fs.mkdirSync(path.join(dir, 'sub'));
    assert.deepEqual(fileNow(path.join(dir, 'sub'), dir), { kind: 'not-compared', why: 'not-a-file' });
  });
});
