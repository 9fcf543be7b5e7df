import { strict as assert } from 'node:assert';
import {
  ancestry, linuxTtyName, matchSessions, normalizeTty, parseLinuxProc, parseProcStat, parsePs,
  parseWindowsCim, type TerminalFacts,
} from '../../src/sync/terminal-match';
import { CachedProcessTable, readProcessTable } from '../../src/sync/process-table';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

// Recorded process tables (trimmed to the processes that matter) from an editor with two
// terminals on each OS. Terminal A's shell runs a node assistant directly; terminal B's shell
// runs a nested shell which runs the assistant, so its pid must be walked up two steps.

/** Linux: /proc/<pid>/stat lines (tty_nr 34816 = pts/0, 34817 = pts/1). */
const LINUX_STATS = [
  '1 (systemd) S 0 1 1 0 -1 4194560 37291 2115709 0 700 62 276 3040 1927 20 0 1 0 24 47869952 3983',
  '1200 (code) S 1 1200 1200 0 -1 4194560 847 0 0 0 0 2 0 0 20 0 3 0 69535 5677056 274',
  '1300 (code) S 1200 1200 1200 0 -1 4194560 847 0 0 0 0 2 0 0 20 0 3 0 69535 5677056 274',
  '2001 (bash) S 1300 2001 2001 34816 2050 4194560 3741 40672 0 7 2 2 34 15 20 0 1 0 69536 5124096 982',
  '2050 (node) S 2001 2050 2001 34816 2050 4194560 3741 40672 0 7 2 2 34 15 20 0 1 0 69536 5124096 982',
  '2101 (bash) S 1300 2101 2101 34817 2160 4194560 3741 40672 0 7 2 2 34 15 20 0 1 0 69536 5124096 982',
  '2150 (zsh) S 2101 2150 2101 34817 2160 4194560 3741 40672 0 7 2 2 34 15 20 0 1 0 69536 5124096 982',
  '2160 (my (odd) tool) S 2150 2160 2101 34817 2160 4194560 3741 40672 0 7 2 2 34 15 20 0 1 0 69536',
  '3000 (sshd) S 1 3000 3000 0 -1 4194560 3741 40672 0 7 2 2 34 15 20 0 1 0 69536 5124096 982',
  'garbage line',
];

/** macOS: `ps -axo pid=,ppid=,tty=,comm=`. */
const MAC_PS = `    1     0 ??       /sbin/launchd
  612     1 ??       /Applications/Visual Studio Code.app/Contents/MacOS/Electron
  640   612 ??       /Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper (Plugin).app/Contents/MacOS/Code Helper (Plugin)
  701   640 ttys000  -zsh
  702   640 ttys001  /bin/zsh
  880   701 ttys000  node
  950   702 ttys001  /bin/bash
  990   950 ttys001  claude
 1200     1 ttys009  -zsh
`;

/** Windows: PowerShell `Get-CimInstance Win32_Process | Select-Object ProcessId,ParentProcessId,Name | ConvertTo-Json -Compress`. */
const WINDOWS_JSON = JSON.stringify([
  { ProcessId: 0, ParentProcessId: 0, Name: 'System Idle Process' },
  { ProcessId: 4, ParentProcessId: 0, Name: 'System' },
  { ProcessId: 5120, ParentProcessId: 3000, Name: 'Code.exe' },
  { ProcessId: 6200, ParentProcessId: 5120, Name: 'Code.exe' },
  { ProcessId: 7300, ParentProcessId: 6200, Name: 'powershell.exe' },
  { ProcessId: 7400, ParentProcessId: 6200, Name: 'pwsh.exe' },
  { ProcessId: 7310, ParentProcessId: 7300, Name: 'node.exe' },
  { ProcessId: 7410, ParentProcessId: 7400, Name: 'cmd.exe' },
  { ProcessId: 7420, ParentProcessId: 7410, Name: 'node.exe' },
  // pid reuse on Windows can make a parent point at a newer child: a loop the walk must survive
  { ProcessId: 8000, ParentProcessId: 8001, Name: 'a.exe' },
  { ProcessId: 8001, ParentProcessId: 8000, Name: 'b.exe' },
]);

describe('terminal-match: process tables', () => {
  it('decodes Linux tty_nr', () => {
    assert.equal(linuxTtyName(0), undefined);
    assert.equal(linuxTtyName(34816), 'pts/0');
    assert.equal(linuxTtyName(34817 + 2), 'pts/3');
    assert.equal(linuxTtyName((137 << 8) | 4), 'pts/260');
    assert.equal(linuxTtyName((4 << 8) | 1), 'tty1');
    // minor above 255 keeps its high bits in bits 20-31
    assert.equal(linuxTtyName((136 << 8) | (0x1 << 20) | 2), 'pts/258');
    assert.equal(linuxTtyName((4 << 8) | 65), 'ttyS1');
    assert.equal(linuxTtyName(5 << 8), 'tty');
    // a device of an unknown kind: still comparable between processes
    assert.equal(linuxTtyName((204 << 8) | 64), 'dev/204:64');
  });

  it('parses /proc stat lines, including a command name with spaces and parentheses', () => {
    const t = parseLinuxProc(LINUX_STATS);
    assert.equal(t.size, 9);
    assert.deepEqual(t.get(2001), { pid: 2001, ppid: 1300, comm: 'bash', tty: 'pts/0' });
    assert.deepEqual(t.get(2160), { pid: 2160, ppid: 2150, comm: 'my (odd) tool', tty: 'pts/1' });
    assert.equal(t.get(3000)?.tty, undefined);
    assert.equal(parseProcStat('no parens here'), undefined);
  });

  it('parses macOS ps output, "??" meaning no tty and names with spaces kept', () => {
    const t = parsePs(MAC_PS);
    assert.equal(t.size, 9);
    assert.deepEqual(t.get(701), { pid: 701, ppid: 640, comm: '-zsh', tty: 'ttys000' });
    assert.equal(t.get(612)?.tty, undefined);
    assert.match(t.get(640)?.comm ?? '', /Code Helper \(Plugin\)$/);
  });

  it('parses the Windows CIM JSON, also when PowerShell prints a single object', () => {
    const t = parseWindowsCim(WINDOWS_JSON);
    assert.equal(t.size, 11);
    assert.deepEqual(t.get(7420), { pid: 7420, ppid: 7410, comm: 'node.exe' });
    const one = parseWindowsCim('{"ProcessId":12,"ParentProcessId":4,"Name":"x.exe"}');
    assert.deepEqual([...one.keys()], [12]);
    assert.equal(parseWindowsCim('  ').size, 0);
  });

  it('walks the parent chain and stops at a loop', () => {
    assert.deepEqual(ancestry(2160, parseLinuxProc(LINUX_STATS)), [2160, 2150, 2101, 1300, 1200, 1]);
    assert.deepEqual(ancestry(8000, parseWindowsCim(WINDOWS_JSON)), [8000, 8001]);
    assert.deepEqual(ancestry(99999, parseWindowsCim(WINDOWS_JSON)), [99999]);
    assert.deepEqual(ancestry(5, undefined), [5]);
  });

  it('normalizes tty names from every source to one form', () => {
    assert.equal(normalizeTty('/dev/pts/3'), 'pts/3');
    assert.equal(normalizeTty('pts/3'), 'pts/3');
    assert.equal(normalizeTty('ttys001'), 'ttys001');
    assert.equal(normalizeTty('??'), undefined);
    assert.equal(normalizeTty('not a tty'), undefined);
  });
});

describe('terminal-match: matching sessions to terminals', () => {
  const linux = parseLinuxProc(LINUX_STATS);
  const mac = parsePs(MAC_PS);
  const win = parseWindowsCim(WINDOWS_JSON);

  const two = (a: number, b: number, cwds: [string?, string?] = []): TerminalFacts[] => [
    { key: 'A', processId: a, cwd: cwds[0] },
    { key: 'B', processId: b, cwd: cwds[1] },
  ];

  it('Linux: the shell pid matches directly; a child pid is walked up to its shell', () => {
    const m = matchSessions([
      { appSessionId: 's1', terminal: { pid: 2001 } },
      { appSessionId: 's2', terminal: { pid: 2160 } },
      { appSessionId: 's3', terminal: { pid: 3000 } },
    ], two(2001, 2101), linux);
    assert.deepEqual(m.get('s1'), { terminalKey: 'A', by: 'pid' });
    assert.deepEqual(m.get('s2'), { terminalKey: 'B', by: 'pid' });
    assert.equal(m.has('s3'), false, 'a process outside both terminals is not in this window');
  });

  it('macOS: pid walk through a nested shell; tty when the pid is unknown to the table', () => {
    const m = matchSessions([
      { appSessionId: 's1', terminal: { pid: 880 } },
      { appSessionId: 's2', terminal: { pid: 990 } },
      { appSessionId: 's3', terminal: { pid: 4242, tty: '/dev/ttys001' } },
      { appSessionId: 's4', terminal: { tty: 'ttys000' } },
      { appSessionId: 's5', terminal: { tty: 'ttys009' } },
    ], two(701, 702), mac);
    assert.deepEqual(m.get('s1'), { terminalKey: 'A', by: 'pid' });
    assert.deepEqual(m.get('s2'), { terminalKey: 'B', by: 'pid' });
    assert.deepEqual(m.get('s3'), { terminalKey: 'B', by: 'tty' });
    assert.deepEqual(m.get('s4'), { terminalKey: 'A', by: 'tty' });
    assert.equal(m.has('s5'), false, 'a tty of a terminal outside this window');
  });

  it('Windows: no tty; the parent chain finds the shell', () => {
    const m = matchSessions([
      { appSessionId: 's1', terminal: { pid: 7310 } },
      { appSessionId: 's2', terminal: { pid: 7420 } },
      { appSessionId: 's3', terminal: { pid: 8000 } },
      { appSessionId: 's4', terminal: { pid: 6200 } },
    ], two(7300, 7400), win);
    assert.deepEqual(m.get('s1'), { terminalKey: 'A', by: 'pid' });
    assert.deepEqual(m.get('s2'), { terminalKey: 'B', by: 'pid' });
    assert.equal(m.has('s3'), false);
    assert.equal(m.has('s4'), false, 'the editor itself, above the shells, is not a terminal');
  });

  it('without a process table only the exact pid matches', () => {
    const m = matchSessions([
      { appSessionId: 's1', terminal: { pid: 2001 } },
      { appSessionId: 's2', terminal: { pid: 2160 } },
    ], two(2001, 2101), undefined);
    assert.deepEqual(m.get('s1'), { terminalKey: 'A', by: 'pid' });
    assert.equal(m.has('s2'), false);
  });

  it('cwd matches only when neither pid nor tty is given, and only when one terminal has it', () => {
    const terms = two(2001, 2101, ['/home/p/proj-a/', '/home/p/proj-b']);
    const m = matchSessions([
      { appSessionId: 'cwdOnly', cwd: '/home/p/proj-b/' },
      { appSessionId: 'cwdOnlyA', cwd: '/home/p/proj-a', terminal: {} },
      { appSessionId: 'pidGiven', cwd: '/home/p/proj-a', terminal: { pid: 3000 } },
      { appSessionId: 'ttyGiven', cwd: '/home/p/proj-a', terminal: { tty: 'pts/9' } },
      { appSessionId: 'nowhere', cwd: '/tmp' },
    ], terms, linux);
    assert.deepEqual(m.get('cwdOnly'), { terminalKey: 'B', by: 'cwd' });
    assert.deepEqual(m.get('cwdOnlyA'), { terminalKey: 'A', by: 'cwd' });
    assert.equal(m.has('pidGiven'), false, 'a pid that matches nothing is not rescued by cwd');
    assert.equal(m.has('ttyGiven'), false, 'a tty that matches nothing is not rescued by cwd');
    assert.equal(m.has('nowhere'), false);

    const same = matchSessions([{ appSessionId: 's', cwd: '/w' }],
      [{ key: 'A', cwd: '/w' }, { key: 'B', cwd: '/w' }], undefined);
    assert.equal(same.has('s'), false, 'two terminals in one folder: ambiguous, no guess');
  });

  it('pid wins over tty, tty over cwd', () => {
    const m = matchSessions(
      [{ appSessionId: 's', cwd: '/home/p/proj-b', terminal: { pid: 2050, tty: 'pts/1' } }],
      two(2001, 2101, ['/x', '/home/p/proj-b']), linux);
    assert.deepEqual(m.get('s'), { terminalKey: 'A', by: 'pid' });
  });

  it('Windows paths compare without case and with either slash when asked', () => {
    const m = matchSessions([{ appSessionId: 's', cwd: 'C:\\Users\\P\\Proj' }],
      [{ key: 'A', cwd: 'c:/users/p/proj/' }], undefined, { caseInsensitivePaths: true });
    assert.deepEqual(m.get('s'), { terminalKey: 'A', by: 'cwd' });
  });
});

describe('process-table: reading this computer', () => {
  it('reads the live table and finds this process under its parent', async () => {
    const table = await readProcessTable();
    assert.ok(table, 'the table is readable on this OS');
    assert.equal(table.get(process.pid)?.ppid, process.ppid);
    assert.ok(ancestry(process.pid, table).includes(process.ppid));
  });

  it('reads a recorded /proc folder and skips a process gone since the listing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'proc-'));
    for (const line of LINUX_STATS.slice(0, 4)) {
      const pid = line.split(' ')[0] ?? '';
      await mkdir(path.join(dir, pid));
      await writeFile(path.join(dir, pid, 'stat'), line);
    }
    await mkdir(path.join(dir, '4444')); // no stat: exited
    await mkdir(path.join(dir, 'self'));
    const table = await readProcessTable({ platform: 'linux', procDir: dir });
    assert.deepEqual([...(table?.keys() ?? [])].sort((a, b) => a - b), [1, 1200, 1300, 2001]);
  });

  it('an unreadable table is undefined, not an error', async () => {
    assert.equal(await readProcessTable({ platform: 'linux', procDir: '/nonexistent-proc' }), undefined);
  });

  it('the cache reads once per round and again after invalidate or expiry', async () => {
    let reads = 0;
    let now = 0;
    const cache = new CachedProcessTable(async () => { reads++; return parseLinuxProc(LINUX_STATS); }, 1000, () => now);
    await Promise.all([cache.get(), cache.get()]);
    assert.equal(reads, 1);
    now = 500; await cache.get();
    assert.equal(reads, 1);
    cache.invalidate(); await cache.get();
    assert.equal(reads, 2);
    now = 2000; await cache.get();
    assert.equal(reads, 3);
  });
});
