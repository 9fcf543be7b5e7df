// The hook's terminal facts on Linux: /proc answers, and no `ps` is started when it does (a hook
// runs without a terminal, and each `ps` was tens of ms on the card's way to the tree: #53/#54).
// A `ps` of our own, first on PATH, notes each time it is run.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTsChild } from './ts-child';

const terminalModule = path.resolve(__dirname, '../../src/bridge/terminal.ts');

describe('hook terminal facts (Linux)', function () {
  this.timeout(30_000);
  let dir: string;
  before(function () { if (process.platform !== 'linux') this.skip(); });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hook-terminal-'));
    fs.writeFileSync(path.join(dir, 'ps'), `#!/bin/sh\necho "$@" >> "${path.join(dir, 'ps-ran')}"\necho '?'\n`, { mode: 0o755 });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** hookTerminal() in a process of its own session (no controlling terminal), as a CLI runs its hook. */
  const factsWithoutTerminal = async () => {
    const out = await runTsChild(`const t = require(${JSON.stringify(terminalModule)}); console.log(JSON.stringify(t.hookTerminal({})))`, {
      env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}` }, detached: true,
    });
    return JSON.parse(out.trim().split('\n').at(-1)!) as { pid?: number; tty?: string };
  };

  it('a hook without a terminal: its CLI\'s process, no tty, and no `ps` run', async () => {
    const facts = await factsWithoutTerminal();
    assert.equal(typeof facts.pid, 'number');
    assert.equal(facts.tty, undefined);
    assert.equal(fs.existsSync(path.join(dir, 'ps-ran')), false, `ps was run: ${fs.existsSync(path.join(dir, 'ps-ran')) ? fs.readFileSync(path.join(dir, 'ps-ran'), 'utf8') : ''}`);
  });
});
