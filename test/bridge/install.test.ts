// The stable hook command (issue #35): the launcher in <bridgeHome>/bin runs bin/bridge.js with the
// editor's runtime, is rewritten only when its text changes (extension version, runtime path), and
// when anything is missing prints nothing and exits 0, leaving the CLI's own prompt in charge.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BRIDGE_FILE, hookInstalled, installHook, launcherName, launcherText } from '../../src/bridge/install';
import { hookHostRuns } from './hook-host-status';

const posix = process.platform !== 'win32';

describe('install: the hook command in <bridgeHome>/bin', () => {
  let dir: string;
  let bin: string;
  let source: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-hook-'));
    bin = path.join(dir, 'home with space', 'bin');
    source = path.join(dir, 'dist-bridge.js');
    // A stand-in for dist/bridge.js: says what it got (the lead's bridge reads the hook's JSON on stdin).
    fs.writeFileSync(source, "let s='';process.stdin.on('data',(d)=>{s+=d;}).on('end',()=>{process.stdout.write(JSON.stringify({argv:process.argv.slice(2),stdin:s,asNode:process.env.ELECTRON_RUN_AS_NODE,host:process.env.ASSISTANT_CARDS_HOOK_HOST}));});\n");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const facts = (over: Partial<Parameters<typeof installHook>[0]> = {}) => ({
    binDir: bin, bridgeSource: source, runtime: process.execPath, version: '1.2.3', platform: process.platform, ...over,
  });

  it('writes bridge.js and the launcher (0755), then nothing while nothing changed', async function () {
    const first = await installHook(facts());
    assert.equal(first.launcher, path.join(bin, launcherName(process.platform)));
    assert.deepEqual(first.written, [path.join(bin, BRIDGE_FILE), first.launcher]);
    assert.equal(first.bridge, true);
    assert.equal(fs.readFileSync(path.join(bin, BRIDGE_FILE), 'utf8'), fs.readFileSync(source, 'utf8'));
    if (posix) assert.equal(fs.statSync(first.launcher).mode & 0o777, 0o755);
    assert.deepEqual((await installHook(facts())).written, [], 'up to date: nothing written');
    assert.equal(await hookInstalled(bin, process.platform), true);
    assert.equal(await hookInstalled(path.join(dir, 'nowhere'), process.platform), false);
  });

  it('rewrites the launcher when the version or the runtime changes, bridge.js when it differs', async () => {
    await installHook(facts());
    const launcher = path.join(bin, launcherName(process.platform));
    assert.deepEqual((await installHook(facts({ version: '1.2.4' }))).written, [launcher]);
    assert.deepEqual((await installHook(facts({ version: '1.2.4', runtime: '/elsewhere/code' }))).written, [launcher]);
    assert.match(fs.readFileSync(launcher, 'utf8'), /\/elsewhere\/code/);
    fs.appendFileSync(source, '// a new build\n');
    assert.deepEqual((await installHook(facts({ version: '1.2.4', runtime: '/elsewhere/code' }))).written, [path.join(bin, BRIDGE_FILE)]);
  });

  it('a build without dist/bridge.js still writes the launcher, and says so', async () => {
    const done = await installHook(facts({ bridgeSource: path.join(dir, 'missing.js') }));
    assert.equal(done.bridge, false);
    assert.deepEqual(done.written, [done.launcher]);
  });

  it('the POSIX launcher: VS Code\'s runtime as Node (ELECTRON_RUN_AS_NODE=1), exec, arguments and stdin passed on', async function () {
    if (!posix) this.skip();
    const { launcher } = await installHook(facts());
    const text = fs.readFileSync(launcher, 'utf8');
    assert.match(text, /^#!\/bin\/sh\n/);
    assert.match(text, /ELECTRON_RUN_AS_NODE=1 exec "\$runtime" "\$bridge" "\$@"/);
    const r = spawnSync(launcher, ['hook', 'claude-code'], { input: '{"hook_event_name":"Stop"}', encoding: 'utf8', env: { PATH: path.join(dir, 'no-curl-here') } });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { argv: ['hook', 'claude-code'], stdin: '{"hook_event_name":"Stop"}', asNode: '1' });
  });

  it('the Linux launcher with curl and no hook host: reads the event first, runs bridge.js with it and asks it to start a host; anything else as before', async function () {
    if (!hookHostRuns()) this.skip();
    const { launcher } = await installHook(facts());
    const env = { PATH: process.env.PATH!, ASSISTANT_CARDS_HOME: path.join(dir, 'home with space') };
    const event = '{"hook_event_name":"Stop","x":"$HOME `id` \\" \\\\n"}';
    const r = spawnSync(launcher, ['hook', 'claude-code', '--wait', '55'], { input: event, encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    // The event whole, nothing expanded in it; the shell hands it on with one newline after it.
    assert.deepEqual(JSON.parse(r.stdout), { argv: ['hook', 'claude-code', '--wait', '55'], stdin: `${event}\n`, asNode: '1', host: 'start' });
    // Not a hook event as Connect writes it: the launcher passes stdin through untouched and asks for no host.
    for (const args of [['hook', 'claude-code', '--wait', '5.5'], ['hook', 'Claude Code'], ['ask', 'choice', 'Title']]) {
      const other = spawnSync(launcher, args, { input: event, encoding: 'utf8', env });
      assert.deepEqual(JSON.parse(other.stdout), { argv: args, stdin: event, asNode: '1' }, args.join(' '));
    }
  });

  it('the POSIX launcher, broken: no bridge.js, or no runtime and no node on the PATH: prints nothing, exits 0, at once', async function () {
    if (!posix) this.skip();
    const { launcher } = await installHook(facts({ runtime: path.join(dir, 'gone', 'code') }));
    // The runtime is gone (an editor update moved it): node on the PATH runs the bridge instead.
    const viaPath = spawnSync(launcher, ['hook', 'codex'], { input: '{}', encoding: 'utf8', env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` } });
    assert.equal(viaPath.status, 0, viaPath.stderr);
    assert.deepEqual((JSON.parse(viaPath.stdout) as { argv: string[] }).argv, ['hook', 'codex']);
    const started = Date.now();
    const noNode = spawnSync(launcher, ['hook', 'codex'], { input: '{}', encoding: 'utf8', env: { PATH: path.join(dir, 'empty') } });
    assert.deepEqual([noNode.status, noNode.stdout, noNode.stderr], [0, '', '']);
    fs.rmSync(path.join(bin, BRIDGE_FILE));
    const noBridge = spawnSync(launcher, ['hook', 'codex'], { input: '{}', encoding: 'utf8' });
    assert.deepEqual([noBridge.status, noBridge.stdout, noBridge.stderr], [0, '', '']);
    assert.ok(Date.now() - started < 5_000);
  });

  it('the Windows launcher: cmd, the runtime as Node, %* passed on, quiet exit 0 when a file is missing, % doubled', () => {
    const text = launcherText({ binDir: 'C:\\Users\\Ada\\AppData\\Roaming\\assistant-cards\\bin', runtime: 'C:\\Program Files\\Microsoft VS Code\\Code.exe', version: '1.2.3', platform: 'win32' });
    const lines = text.split('\r\n');
    assert.equal(lines[0], '@echo off');
    assert.ok(lines.includes('set "AC_BRIDGE=C:\\Users\\Ada\\AppData\\Roaming\\assistant-cards\\bin\\bridge.js"'));
    assert.ok(lines.includes('set "AC_RUNTIME=C:\\Program Files\\Microsoft VS Code\\Code.exe"'));
    assert.ok(lines.includes('if not exist "%AC_BRIDGE%" exit /b 0'));
    assert.ok(lines.includes('if not exist "%AC_RUNTIME%" exit /b 0'));
    assert.ok(lines.includes('set ELECTRON_RUN_AS_NODE=1'));
    assert.ok(lines.includes('"%AC_RUNTIME%" "%AC_BRIDGE%" %*'));
    assert.match(launcherText({ binDir: 'C:\\100%\\bin', runtime: 'C:\\x.exe', version: '1', platform: 'win32' }), /C:\\100%%\\bin/);
    assert.equal(launcherName('win32'), 'assistant-cards-hook.cmd');
  });
});
