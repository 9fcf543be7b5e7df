// "Start Local Sandbox" takes no arguments, so any extension or command link can run it (#37).
// While this window uses a service that is not the sandbox's, the person confirms first, shown
// its address; declined, nothing starts and nothing changes. On main it started at once and
// cleared a user-level service address.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandboxAskedFlow, type SetupHost } from '../../src/editor/sign-in/setup-flows';

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, show() {}, dispose() {} };

describe('Start Local Sandbox, run by anyone, asks while another service is in use', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-sandbox-asked-'));
  const identity = path.join(dir, 'machine.json');
  const sandboxDir = path.join(dir, 'sandbox');
  const window = vscode.window as unknown as Record<string, unknown>;
  const workspace = vscode.workspace as unknown as Record<string, unknown>;
  const saved = { window: { ...window }, getConfiguration: workspace.getConfiguration };
  let asked: string[] = [];
  let answer: string | undefined;
  let file = identity;

  before(() => {
    window.showWarningMessage = async (text: string, ...buttons: unknown[]) => {
      assert.ok(buttons.every((b) => typeof b === 'string'), 'a notification, never a modal (it would take the keyboard)');
      asked.push(text);
      return answer;
    };
    window.showInformationMessage = async () => undefined;
    window.showErrorMessage = async () => undefined;
    window.withProgress = async (_o: unknown, task: () => Promise<unknown>) => task();
    workspace.getConfiguration = () => ({ get: (k: string) => (k === 'machineFile' ? file : undefined), inspect: () => undefined, update: async () => undefined });
  });
  after(() => {
    Object.assign(window, saved.window);
    workspace.getConfiguration = saved.getConfiguration;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function host(): { host: SetupHost; starts: () => number } {
    let starts = 0;
    const launcher = {
      owns: (f: string) => path.resolve(f).startsWith(`${sandboxDir}${path.sep}`),
      start: async () => { starts++; throw new Error('not started in this test'); },
    };
    return { host: { log: silent as never, launcher, live: () => undefined, settled: async () => undefined, refreshState: async () => undefined }, starts: () => starts };
  }

  it('a real service\'s identity: asks, naming its address; declined, nothing starts', async () => {
    fs.writeFileSync(identity, JSON.stringify({ baseUrl: 'https://cards.example.com' }));
    file = identity;
    asked = [];
    answer = undefined;
    const h = host();
    await startSandboxAskedFlow(h.host);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /instead of https:\/\/cards\.example\.com\?/);
    assert.equal(h.starts(), 0, 'declined: the sandbox did not start');
    answer = 'Start Sandbox';
    await startSandboxAskedFlow(h.host);
    assert.equal(h.starts(), 1, 'confirmed: it starts');
  });

  it('no service set up, or the sandbox\'s own identity: starts without asking', async () => {
    fs.mkdirSync(sandboxDir, { recursive: true });
    const own = path.join(sandboxDir, 'machine.json');
    fs.writeFileSync(own, JSON.stringify({ baseUrl: 'http://127.0.0.1:4000', madeBy: 'sandbox' }));
    for (const f of [path.join(dir, 'none.json'), own]) {
      file = f;
      asked = [];
      const h = host();
      await startSandboxAskedFlow(h.host);
      assert.deepEqual(asked, [], f);
      assert.equal(h.starts(), 1, f);
    }
  });
});
