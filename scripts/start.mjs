// `npm start`: the extension, running against the local sandbox, with two demo assistants in two
// editor terminals. Nothing else to configure:
//   0. on a fresh clone, sets up first (scripts/setup.mjs: Node check, `npm ci`);
//   1. builds (node esbuild.mjs);
//   2. starts the sandbox (node dist/sandbox.js --port 0 --demo) and reads its address;
//   3. sets this computer up for it (POST /_sandbox/machines, identity file in .cache/start/);
//   4. writes a workspace whose settings point the extension at the sandbox and that file;
//   5. starts VS Code with the extension: desktop `code` when it is on the PATH, otherwise the
//      code-server the tests use (installed once per user into ~/.cache/assistant-cards), printing the address to open;
//   6. the extension opens two terminals running the demo assistant (ASSISTANT_CARDS_DEMO_TERMINALS,
//      see docs/decisions.md);
//   7. runs until Ctrl+C, then stops everything it started.
// Options: --port N (code-server's port; default 8080, or a free one if taken), --code-server
// (use code-server even when `code` is on the PATH), --no-demo-terminals, --work DIR (where this
// run keeps its files; default .cache/start).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureNode, ensureSystemPackages, systemPackages } from './setup.mjs';

ensureNode();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (m) => console.log(`[start] ${m}`);
const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const value = (f) => { const i = args.indexOf(f); return i >= 0 ? args[i + 1] : undefined; };
// Everything this run makes (identity file, workspace, editor profile, logs) lives here.
const work = path.resolve(value('--work') ?? path.join(root, '.cache', 'start'));

const children = [];
let stopping = false;

function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  say('stopping everything started here...');
  for (const c of children.reverse()) {
    try { process.kill(c.group ? -c.child.pid : c.child.pid, 'SIGTERM'); } catch { /* gone */ }
  }
  setTimeout(() => {
    for (const c of children) { try { process.kill(c.group ? -c.child.pid : c.child.pid, 'SIGKILL'); } catch { /* gone */ } }
    process.exit(code);
  }, 1500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

function onPath(cmd) {
  const probe = process.platform === 'win32' ? spawnSync('where', [cmd]) : spawnSync('sh', ['-c', `command -v ${cmd}`]);
  return probe.status === 0;
}

function freePort(preferred) {
  const tryPort = (p) => new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(undefined));
    s.listen(p, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
  return tryPort(preferred).then((p) => p ?? tryPort(0));
}

/** The sandbox's control secret (its second line of output): control writes send it. */
let controlSecret = '';

async function control(base, method, route, body) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${controlSecret}` },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : {};
}

function build() {
  say('building (node esbuild.mjs)');
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the build failed (see above)');
}

/** The sandbox, its output into .cache/start/sandbox.log; resolves with its address. */
function startSandbox(machineFile) {
  const log = fs.createWriteStream(path.join(work, 'sandbox.log'));
  // --machine-file: the demo's computer is this one (its assistants and cards are in reach of a
  // computer sign-in), and the person's own ~/.config identity is never touched. --work: the only
  // folder the sandbox writes identity files in besides that file.
  const child = spawn(process.execPath, [path.join(root, 'dist', 'sandbox.js'), '--port', '0', '--demo', '--announce', '--machine-file', machineFile, '--work', work],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push({ child, group: false });
  child.stderr.pipe(log);
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    let first = true;
    let url;
    lines.on('line', (line) => {
      // The control secret stays out of the log (the log is not private).
      const secret = /^control secret (\S+)/.exec(line);
      log.write(`${secret ? line.replace(secret[1], '<hidden>') : line}\n`);
      if (url !== undefined && secret) { controlSecret = secret[1]; resolve(url); return; }
      if (!first) return;
      first = false;
      const m = /(https?:\/\/\S+)/.exec(line);
      if (m) url = m[1].replace(/\/+$/, '');
      else reject(new Error(`the sandbox's first line has no address: ${line}`));
    });
    child.on('exit', (code) => {
      if (first) reject(new Error(`the sandbox exited (${code}) before it listened; see ${path.join(work, 'sandbox.log')}`));
      else if (!stopping) { say(`the sandbox exited (${code}); see ${path.join(work, 'sandbox.log')}`); stopAll(1); }
    });
  });
}

function readMachineId(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')).id; } catch { return undefined; }
}

function writeWorkspace(baseUrl) {
  const ws = path.join(work, 'workspace');
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, 'README.md'), [
    '# Assistant Cards demo workspace',
    '',
    `The extension here talks to the local sandbox at ${baseUrl}.`,
    'Two terminals run a demo assistant each; sign in from the Assistant Cards view in the activity bar,',
    'allow the sign-in on the page it opens, then answer the cards the assistants ask.',
    '',
  ].join('\n'));
  return ws;
}

/**
 * The editor profile's settings. `assistantCards.machineFile` is a machine-scoped setting, which
 * VS Code ignores in workspace settings, so both settings go into this run's own profile: the
 * user settings, and for code-server also the remote ("Machine") settings.
 */
function writeSettings(userData, baseUrl, machineFile) {
  const ours = { 'assistantCards.baseUrl': baseUrl, 'assistantCards.machineFile': machineFile };
  const user = path.join(userData, 'User', 'settings.json');
  let current = {};
  try { current = JSON.parse(fs.readFileSync(user, 'utf8')); } catch { /* first run */ }
  fs.mkdirSync(path.dirname(user), { recursive: true });
  fs.writeFileSync(user, JSON.stringify({
    'workbench.startupEditor': 'readme', 'security.workspace.trust.enabled': false, 'telemetry.telemetryLevel': 'off',
    'extensions.autoUpdate': false, 'extensions.autoCheckUpdates': false,
    // The demo workspace sits inside this repository: no "open the parent repository?" prompt.
    'git.openRepositoryInParentFolders': 'never',
    'workbench.secondarySideBar.defaultVisibility': 'hidden', 'chat.disableAIFeatures': true,
    ...current, ...ours,
  }, null, 2));
  const machine = path.join(userData, 'Machine', 'settings.json');
  fs.mkdirSync(path.dirname(machine), { recursive: true });
  fs.writeFileSync(machine, JSON.stringify(ours, null, 2));
}


async function runDesktop(ws, env) {
  const userData = path.join(work, 'user-data');
  say('starting VS Code (code) with the extension loaded from this folder');
  const child = spawn('code', [
    `--extensionDevelopmentPath=${root}`, `--user-data-dir=${userData}`, `--extensions-dir=${path.join(work, 'extensions')}`,
    '--new-window', '--wait', ws,
  ], { env, stdio: 'inherit', detached: process.platform !== 'win32', shell: process.platform === 'win32' });
  children.push({ child, group: process.platform !== 'win32' });
  child.on('exit', () => { if (!stopping) { say('the VS Code window closed'); stopAll(0); } });
}

async function runCodeServer(ws, env) {
  const { codeServerInstalled, ensureCodeServer } = await import('./install-code-server.mjs');
  // The person's own browser opens the editor: only the build tools, and only until installed.
  ensureSystemPackages(systemPackages({ browser: false, buildTools: !codeServerInstalled() }));
  const cs = ensureCodeServer();
  // The extension as a person gets it: packaged, then installed into this run's extensions dir.
  say('packaging the extension (npm run package) and installing it into code-server');
  const pkg = spawnSync(process.execPath, [path.join(root, 'scripts', 'package.mjs')], { cwd: root, stdio: 'inherit' });
  if (pkg.status !== 0) throw new Error('packaging failed (see above)');
  const extensionsDir = path.join(work, 'extensions');
  const userData = path.join(work, 'user-data');
  const port = await freePort(Number(value('--port') ?? 8080));
  const config = path.join(work, 'code-server.yaml');
  fs.writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const install = spawnSync(cs.node, [cs.entry, '--config', config, '--extensions-dir', extensionsDir, '--user-data-dir', userData,
    '--install-extension', path.join(root, 'artifacts', 'assistant-cards.vsix'), '--force'], { stdio: 'inherit' });
  if (install.status !== 0) throw new Error('code-server could not install the VSIX');

  const log = fs.createWriteStream(path.join(work, 'code-server.log'));
  const child = spawn(cs.node, [cs.entry, '--config', config, '--user-data-dir', userData, '--extensions-dir', extensionsDir,
    // code-server opens links to loopback addresses (the sandbox's approval page) through its
    // port proxy (/proxy/<port>/); the page's form posts back relative to it.
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ws], {
    env: { ...env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}` },
    detached: true, stdio: ['ignore', 'pipe', 'pipe'], cwd: ws,
  });
  children.push({ child, group: true });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  child.on('exit', (code) => { if (!stopping) { say(`code-server exited (${code}); see ${path.join(work, 'code-server.log')}`); stopAll(1); } });
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`;
  for (let i = 0; i < 240; i++) {
    try { const r = await fetch(`http://127.0.0.1:${port}/healthz`); if (r.status < 500) break; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  return url;
}

async function main() {
  fs.mkdirSync(work, { recursive: true });
  ensureDependencies();
  build();
  const machineFile = path.join(work, 'machine.json');
  // An identity file an older sandbox left here carries no `madeBy` mark, so a sandbox now leaves
  // it alone; it is this script's own (in .cache/start), made for the sandbox: start afresh.
  try {
    if (!('madeBy' in JSON.parse(fs.readFileSync(machineFile, 'utf8')))) fs.rmSync(machineFile);
  } catch { /* none yet, or not JSON: the sandbox says */ }
  const baseUrl = await startSandbox(machineFile);
  say(`sandbox listening on ${baseUrl} (log: ${path.join(work, 'sandbox.log')})`);
  let machineId = readMachineId(machineFile);
  if (!machineId) {
    // A sandbox whose --demo wrote no identity file: set this computer up through the control surface.
    machineId = (await control(baseUrl, 'POST', '/_sandbox/machines', { name: os.hostname(), writeTo: machineFile })).id;
  }
  say(`this computer is ${machineId} for the sandbox (identity file ${machineFile})`);
  const ws = writeWorkspace(baseUrl);
  writeSettings(path.join(work, 'user-data'), baseUrl, machineFile);
  const env = { ...process.env, ASSISTANT_CARDS_SANDBOX_URL: baseUrl };
  if (!flag('--no-demo-terminals')) env.ASSISTANT_CARDS_DEMO_TERMINALS = JSON.stringify({ baseUrl, machineFile, assistants: ['builder', 'reviewer'] });

  const desktop = !flag('--code-server') && onPath('code');
  if (desktop) {
    await runDesktop(ws, env);
    say('VS Code is open with the extension; two terminals start a demo assistant each.');
  } else {
    const url = await runCodeServer(ws, env);
    say('VS Code (code-server) is ready. Open this address in your browser:');
    console.log(`\n    ${url}\n`);
  }
  say('Sign in from the Assistant Cards view (activity bar), allow it on the page that opens, and answer the cards.');
  say('Ctrl+C stops the sandbox and the editor started here.');
  fs.writeFileSync(path.join(work, 'state.json'), JSON.stringify({ baseUrl, machineFile, workspace: ws, pid: process.pid }, null, 2));
}

main().catch((e) => {
  console.error(`[start] ${e instanceof Error ? e.message : e}`);
  stopAll(1);
});
