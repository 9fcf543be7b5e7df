import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseProcStat, readProcStat } from '../../src/api/proc-stat';

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

  if (process.platform === 'linux') {
    it('reads this process from the real /proc', () => {
      const me = readProcStat(process.pid);
      assert.equal(me?.pid, process.pid);
      assert.equal(me?.ppid, process.ppid);
      assert.equal(me?.state, 'R');
    });
  }
});
