// The hook's plain-JavaScript SHA-256 (src/bridge/sha256.ts) is node:crypto's: a session's key
// file written by a bridge that hashed with node:crypto is found again.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sessionFile } from '../../src/bridge/session-keys';
import { sha256Hex } from '../../src/bridge/sha256';

const nodeSha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sha256Hex', () => {
  it('equals node:crypto on the padding edges, several blocks and non-ASCII text', () => {
    // 55 and 56 bytes: the last length that fits one block, and the first that does not.
    const texts = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(63), 'a'.repeat(64), 'a'.repeat(65), 'é✓😀'.repeat(40), 'x'.repeat(1000)];
    for (const t of texts) assert.equal(sha256Hex(t), nodeSha256(t), `${t.length} characters`);
    // The published answer for "abc" (FIPS 180-2), independent of both.
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('names a session\'s files as node:crypto did (a key file written before is found)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha256-'));
    try {
      const askKey = 'ask-key-Ünïcode';
      const old = path.join(dir, `${nodeSha256(`${askKey}\nclaude-code\nsession-1`).slice(0, 32)}.key`);
      assert.equal(sessionFile(dir, askKey, 'claude-code', 'session-1', '.key'), old);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
