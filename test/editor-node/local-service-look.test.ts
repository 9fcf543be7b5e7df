// #51: a window looks at the local service's files when they change (a watch of its home), not on
// a timer, unless it uses the service: a window with nothing set up does no periodic fs work.
// The window that uses it still looks on a timer (a SIGKILL changes no file), and one that tried
// to start it shows why the start failed in its Cards view even before it is set up.
import '../../bench/with-vscode-stub'; // first: what LocalService loads lazily may import `vscode`
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalService, type LocalServiceHost } from '../../src/editor/connection/local-service-flows';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The look's interval in these tests (the window's is 5 s). */
const EVERY_MS = 40;

/** Counts the fs calls of the kinds the look makes, on paths under `dir`. */
function countFsUnder(dir: string): { calls: string[]; restore(): void } {
  const calls: string[] = [];
  const names = ['existsSync', 'statSync', 'readFileSync', 'openSync'] as const;
  // The module itself (an import's namespace has getters only); the code under test reads through it at each call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('node:fs') as Record<string, (...a: unknown[]) => unknown>;
  const before = names.map((n) => mod[n]!);
  names.forEach((n, i) => {
    mod[n] = (...a: unknown[]) => {
      if (typeof a[0] === 'string' && a[0].startsWith(dir)) calls.push(`${n} ${path.basename(a[0])}`);
      return before[i]!(...a);
    };
  });
  return { calls, restore: () => names.forEach((n, i) => { mod[n] = before[i]!; }) };
}

describe('editor: when a window looks at the local service', function () {
  this.timeout(20_000);
  let dir: string;
  const services: LocalService[] = [];
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-look-')); });
  afterEach(() => {
    for (const s of services.splice(0)) s.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function windowWith(machineFile: string) {
    const home = path.join(dir, 'bridge', 'service');
    const keys: string[] = [];
    const messages: (string | undefined)[] = [];
    let onSettings: ((e: { affectsConfiguration(s: string): boolean }) => void) | undefined;
    const host = {
      home, machineFile: () => machineFile, setKey: (k: string) => keys.push(k), showMessage: (m: string | undefined) => messages.push(m),
      log: { info() {}, error() {}, show() {} }, signedIn: () => false, setUpElsewhere: () => false,
      vscode: {
        workspace: { onDidChangeConfiguration: (h: typeof onSettings) => { onSettings = h; return { dispose() { onSettings = undefined; } }; } },
        l10n: { t: (m: string, ...a: unknown[]) => m.replace(/\{(\d+)\}/g, (_x, i: string) => String(a[Number(i)])) },
      },
    } as unknown as LocalServiceHost;
    const ls = new LocalService(host, EVERY_MS);
    services.push(ls);
    return { ls, home, keys, messages, settingsChanged: () => onSettings?.({ affectsConfiguration: () => true }) };
  }

  it('a window with nothing set up does no fs work on a timer; a file the service writes makes it look', async () => {
    fs.mkdirSync(path.join(dir, 'bridge', 'service'), { recursive: true });
    const w = windowWith(path.join(dir, 'elsewhere', 'machine.json'));
    await sleep(100); // its first look is done
    const fsCalls = countFsUnder(dir);
    try {
      await sleep(EVERY_MS * 10);
      assert.deepEqual(fsCalls.calls, [], 'no look on a timer');
      assert.equal(w.keys.at(-1), 'unused');
      // The service starts (another window): its service.json, naming a live process, is seen by the watch.
      fs.writeFileSync(path.join(w.home, 'service.json'), JSON.stringify({
        version: 1, url: 'http://127.0.0.1:1', pid: process.pid, askKey: 'k', ownerKey: 'o', machineFile: path.join(w.home, 'machine.json'), home: w.home, startedAt: new Date().toISOString(),
      }));
      for (let i = 0; i < 100 && w.keys.at(-1) !== 'running'; i++) await sleep(20);
      assert.equal(w.keys.at(-1), 'running', 'the watch saw it start');
      // A write of the store (every answer) is no reason to look.
      const seen = fsCalls.calls.length;
      fs.writeFileSync(path.join(w.home, 'cards.db'), 'x');
      await sleep(EVERY_MS * 5);
      assert.equal(fsCalls.calls.length, seen, 'the store\'s writes make no look');
    } finally {
      fsCalls.restore();
    }
  });

  it('the home not made yet: its parent is watched, and the home\'s making is seen', async () => {
    const w = windowWith(path.join(dir, 'elsewhere', 'machine.json'));
    fs.mkdirSync(path.join(dir, 'bridge'));
    w.settingsChanged(); // a look now watches the parent that was made
    fs.mkdirSync(w.home);
    fs.writeFileSync(path.join(w.home, 'start-failed.json'), JSON.stringify({ pid: 1, message: 'not shown here' }));
    await sleep(200);
    // Not set up and not asked for: a failure of another window's start is not this window's message.
    assert.deepEqual(w.messages.filter(Boolean), []);
    const fsCalls = countFsUnder(dir);
    try {
      await sleep(EVERY_MS * 5);
      assert.equal(fsCalls.calls.length, 0, 'still no look on a timer');
    } finally {
      fsCalls.restore();
    }
  });

  it('a window set up for the service looks on a timer (a killed service changes no file)', async () => {
    const home = path.join(dir, 'bridge', 'service');
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'stopped-by-person'), 'x'); // so the look does not start one
    windowWith(path.join(home, 'machine.json'));
    await sleep(100);
    const fsCalls = countFsUnder(dir);
    try {
      await sleep(EVERY_MS * 8);
      assert.ok(fsCalls.calls.filter((c) => c.endsWith('service.json')).length >= 3, `it looks on a timer: ${fsCalls.calls.join(', ')}`);
    } finally {
      fsCalls.restore();
    }
  });

  it('the window that asked for the service shows why its start failed in its Cards view, before it is set up', async () => {
    const w = windowWith(path.join(dir, 'elsewhere', 'machine.json'));
    fs.mkdirSync(w.home, { recursive: true });
    fs.writeFileSync(path.join(w.home, 'start-failed.json'), JSON.stringify({ pid: 1, message: 'The store X cannot be read.' }));
    w.ls.want();
    w.ls.look();
    for (let i = 0; i < 50 && !w.messages.some(Boolean); i++) await sleep(20);
    assert.equal(w.keys.at(-1), 'failed');
    assert.match(String(w.messages.find(Boolean)), /^The local service cannot start: The store X cannot be read\. Fix it, then run Start Local Service\.$/);
  });
});
