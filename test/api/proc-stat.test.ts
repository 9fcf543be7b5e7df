import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseProcStat, readProcStat, ttyDevice } from '../../src/api/proc-stat';

describe('proc-stat: the one reader of /proc/<pid>/stat', () => {
  it('reads a name holding spaces and ")" whole, then state, parent and terminal', () => {
    assert.deepEqual(parseProcStat('2160 (my ) (odd) tool) Z 2150 2160 2160 34817 0 4194304'), { pid: 2160, comm: 'my ) (odd) tool', state: 'Z', ppid: 2150, ttyNr: 34817 });
    assert.deepEqual(parseProcStat('7 (codex) S 1 7 7 0 -1'), { pid: 7, comm: 'codex', state: 'S', ppid: 1, ttyNr: 0 });
  });

  it('refuses a line that is not one', () => {
    assert.equal(parseProcStat('no parens here'), undefined);
    assert.equal(parseProcStat('x (a) S y'), undefined);
  });

  it('reads a process under a given /proc, and nothing for one that is not there', () => {
    const proc = fs.mkdtempSync(path.join(os.tmpdir(), 'proc-'));
    try {
      fs.mkdirSync(path.join(proc, '42'));
      fs.writeFileSync(path.join(proc, '42', 'stat'), '42 (codex) S 41 42 42 34818 0\n');
      assert.deepEqual(readProcStat(42, proc), { pid: 42, comm: 'codex', state: 'S', ppid: 41, ttyNr: 34818 });
      assert.equal(readProcStat(43, proc), undefined);
    } finally {
      fs.rmSync(proc, { recursive: true, force: true });
    }
  });

  it('decodes a terminal\'s device number: a pty, a console, a serial line, /dev/tty, and no name for another kind', () => {
    assert.equal(ttyDevice(0), undefined);
    assert.deepEqual(ttyDevice(34816), { major: 136, minor: 0, name: 'pts/0' });
    assert.deepEqual(ttyDevice((137 << 8) | 4), { major: 137, minor: 4, name: 'pts/260' });
    // a minor above 255 keeps its high bits in bits 20-31
    assert.deepEqual(ttyDevice((136 << 8) | (0x1 << 20) | 2), { major: 136, minor: 258, name: 'pts/258' });
    assert.deepEqual(ttyDevice((4 << 8) | 1), { major: 4, minor: 1, name: 'tty1' });
    assert.deepEqual(ttyDevice((4 << 8) | 65), { major: 4, minor: 65, name: 'ttyS1' });
    assert.deepEqual(ttyDevice(5 << 8), { major: 5, minor: 0, name: 'tty' });
    assert.deepEqual(ttyDevice((5 << 8) | 1), { major: 5, minor: 1 });
    assert.deepEqual(ttyDevice((204 << 8) | 64), { major: 204, minor: 64 });
  });

  if (process.platform === 'linux') {
    it('reads this process from the real /proc', () => {
      const me = readProcStat(process.pid);
      assert.equal(me?.pid, process.pid);
      assert.equal(me?.ppid, process.ppid);
      assert.equal(me?.state, 'R');
    });
  }
});
