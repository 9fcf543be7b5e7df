// Finding the Codex terminal UI behind a hook that Codex's shared background server runs
// (src/bridge/codex-ui.ts), on a /proc of the test's own making: which processes count as a UI of
// that server in that folder, and which one a session gets when there are several. The real Codex
// in a pty is in real-codex-tui.test.ts ("two UIs of one background server").
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codexHomeOf, codexUis, isCodexServer, pickUi } from '../../src/bridge/codex-ui';

describe('bridge: the Codex UI behind its background server', () => {
  let proc: string;
  let folder: string;
  let other: string;
  const home = '/home/dev';
  beforeEach(() => {
    proc = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-ui-proc-'));
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-ui-shop-'));
    other = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-ui-other-'));
  });
  afterEach(() => { for (const d of [proc, folder, other]) fs.rmSync(d, { recursive: true, force: true }); });

  /** One process as /proc shows it: stat (name, tty), cmdline, environ, cwd. */
  const add = (pid: number, o: { comm?: string; tty?: number; argv?: string[]; env?: Record<string, string>; cwd?: string }) => {
    const dir = path.join(proc, String(pid));
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'stat'), `${pid} (${o.comm ?? 'codex'}) S 1 ${pid} ${pid} ${o.tty ?? 34816} ${pid} 4194560 0 0`);
    fs.writeFileSync(path.join(dir, 'cmdline'), `${(o.argv ?? ['/usr/lib/codex/bin/codex']).join('\0')}\0`);
    fs.writeFileSync(path.join(dir, 'environ'), `${Object.entries(o.env ?? { HOME: home, TERM_PROGRAM: 'vscode' }).map(([k, v]) => `${k}=${v}`).join('\0')}\0`);
    fs.symlinkSync(o.cwd ?? folder, path.join(dir, 'cwd'));
  };
  const uis = () => codexUis({ cwd: folder, codexHome: path.join(home, '.codex'), proc }).map((u) => u.pid).sort();

  it('the server is told by its command line', () => {
    add(10, { tty: 0, argv: ['/home/dev/.codex/packages/app-server-daemon/current/bin/codex', 'app-server', '--listen', 'unix://', '--managed-daemon'] });
    add(11, {});
    assert.equal(isCodexServer(10, proc), true);
    assert.equal(isCodexServer(11, proc), false);
    assert.equal(isCodexServer(99, proc), false, 'a process gone is no server');
  });

  it('a UI is a `codex` on a terminal, of the same CODEX_HOME, in the session\'s folder, talking to the server', () => {
    add(20, { env: { HOME: home, TERM_PROGRAM: 'vscode' } });
    add(21, { env: { HOME: '/elsewhere', CODEX_HOME: path.join(home, '.codex') } });
    add(30, { tty: 0, argv: ['codex', 'app-server', '--managed-daemon'] }); // the server: no terminal
    add(31, { argv: ['codex', 'exec', 'do it'] }); // not a UI
    add(32, { argv: ['codex', '--no-daemon'] }); // a UI with its own server
    add(33, { cwd: other }); // another folder
    add(34, { env: { HOME: home, CODEX_HOME: '/tmp/another-codex-home' } }); // another server
    add(35, { comm: 'node', argv: ['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js'] }); // the npm wrapper above a UI
    add(36, { comm: 'bash', argv: ['bash'] });
    assert.deepEqual(uis(), [20, 21]);
    assert.deepEqual(codexUis({ cwd: folder, codexHome: path.join(home, '.codex'), proc }).find((u) => u.pid === 20)?.program, 'vscode', 'the terminal program is the UI\'s own');
  });

  it('the session gets the only UI there, else the only one no other session claimed, else none', () => {
    const a = { pid: 20 };
    const b = { pid: 21 };
    assert.equal(pickUi([a], new Set([20])), a, 'the only UI in the folder, even claimed (a new thread in the same UI)');
    assert.equal(pickUi([a, b], new Set([20])), b, 'the second UI, started after the first asked');
    assert.equal(pickUi([a, b], new Set()), undefined, 'two UIs, neither claimed: not known (no terminal rather than a wrong one)');
    assert.equal(pickUi([a, b], new Set([20, 21])), undefined);
    assert.equal(pickUi([], new Set()), undefined);
  });

  it('CODEX_HOME is Codex\'s own rule: the variable, else ~/.codex', () => {
    assert.equal(codexHomeOf(new Map([['CODEX_HOME', '/x/y/../z'], ['HOME', home]])), '/x/z');
    assert.equal(codexHomeOf(new Map([['HOME', home]])), '/home/dev/.codex');
    assert.equal(codexHomeOf(new Map()), undefined);
  });
});
