// `node dist/sandbox.js --port 0 [--manual-clock] [--demo] [--store FILE] [--machine-file PATH] [--work DIR] [--public-url URL] [--announce]`
// --public-url: the address the sandbox is reached at when not at 127.0.0.1:<port> (a proxy, a
// code-server port forward); only that Host and the loopback ones are answered.
// --work DIR: the run's own folder; POST /_sandbox/machines may write identity files inside it.
// prints `listening on http://127.0.0.1:<port>` first, then `control secret <secret> (file <path>)`:
// every control write (/_sandbox/..., not GET) sends `Authorization: Bearer <secret>`; the file
// (mode 0600, in --work or a private temporary folder) holds the same secret and is removed on
// exit. Runs until SIGINT/SIGTERM.
// --store FILE: keep the state in this SQLite file (made 0600 in a 0700 folder when new): cards,
// their history, assistants, sign-ins and notice addresses outlive the process; an answer is on
// disk before it is acknowledged. A store that cannot be opened ends the start with what to do.
// --announce: also write local-service.json (address and ask key) into the bridge's home, where
// the hooks of Claude Code and Codex find it (src/bridge/home.ts); removed on exit if still ours.
//
// `node dist/sandbox.js --service [--store FILE]`: the person's local service instead (#51,
// local-service.ts): no demo, no control surface, no manual clock, one per person (its home is
// <bridge home>/service, 0700). It prints one JSON line, `{"event":"ready"|"running"|"failed",...}`
// (ready: this process serves; running: another already did, this one exits), and writes
// service.json, which the editor reads instead of scraping text.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { bridgeHome, localServiceHome, SERVICE_FILE } from '../bridge/home';

import { ASK_SOCKET_NAME } from './ask-socket';
import { becomeLocalService, forgetLocalService, keptAskKey, noteStartFailed, preferredPort, readServiceState, takeServiceLock } from './local-service';
import { writeWholeSync } from '../bridge/write-whole';

function argValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i !== -1) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'assistant') {
    console.error('sandbox: the demo assistant moved to the assistants\' side: node dist/bridge.js demo --base URL ...');
    process.exit(2);
  }
  const portText = argValue(argv, '--port') ?? '0';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`sandbox: --port must be 0 to 65535, not ${portText}`);
    process.exit(2);
  }
  const publicUrl = argValue(argv, '--public-url');
  const machineFile = argValue(argv, '--machine-file');
  const work = argValue(argv, '--work');
  const storeFile = argValue(argv, '--store');
  const service = argv.includes('--service');
  const home = localServiceHome();
  if (service) {
    const sandboxOnly = ['--demo', '--manual-clock', '--announce', '--machine-file', '--work'].filter((f) => argv.some((a) => a === f || a.startsWith(`${f}=`)));
    if (sandboxOnly.length > 0) {
      console.error(`sandbox: ${sandboxOnly.join(', ')} belong to the sandbox, not to the local service (--service)`);
      process.exit(2);
    }
    const lock = await takeServiceLock(home);
    if (lock.kind === 'running') {
      process.stdout.write(`${JSON.stringify({ event: 'running', url: lock.state.url, pid: lock.state.pid, home })}\n`);
      return;
    }
  }
  const { startSandbox } = await import('./index.js');
  // The hooks' socket, in a folder only this user may enter (ask-socket.ts): the service's home
  // (0700), or a fresh one of the sandbox's own (its --work folder may be anyone's to read).
  const askDir = service ? home : mkdtempSync(join(tmpdir(), 'ac-ask-'));
  const running = await startSandbox({
    askSocket: join(askDir, ASK_SOCKET_NAME),
    ...(service ? { mode: 'service' as const, askKey: keptAskKey(home) } : {}),
    port: service && portText === '0' && argValue(argv, '--port') === undefined ? await preferredPort(home) : port,
    ...(argv.includes('--manual-clock') ? { manualClock: true } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(machineFile ? { machineFile: resolve(machineFile) } : {}),
    ...(work ? { workDir: resolve(work) } : {}),
    ...(storeFile ? { storeFile: resolve(storeFile) } : {}),
    ...(argv.includes('--demo') ? { demo: machineFile ? { machineFile } : true } : {}),
  });
  if (service) {
    const state = becomeLocalService(running, home);
    const stop = () => {
      forgetLocalService(home);
      void running.close().then(() => process.exit(0));
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
    process.on('exit', () => forgetLocalService(home));
    process.stdout.write(`${JSON.stringify({ event: 'ready', url: state.url, pid: state.pid, home, machineFile: state.machineFile })}\n`);
    return;
  }
  process.stdout.write(`listening on ${running.url}\n`);
  // Like a notebook server's token: shown to whoever started it, in a file only they can read.
  const secretDir = work ? resolve(work) : mkdtempSync(join(tmpdir(), 'assistant-cards-sandbox-'));
  mkdirSync(secretDir, { recursive: true, mode: 0o700 });
  const secretFile = join(secretDir, `sandbox-${running.port}.secret`);
  writeFileSync(secretFile, `${running.controlSecret}\n`, { mode: 0o600 });
  process.stdout.write(`control secret ${running.controlSecret} (file ${secretFile})\n`);
  if (running.demo) process.stdout.write(`demo: computer ${running.demo.machineId} (identity file ${running.demo.machineFile})\n`);
  // Where assistants find it: the run's own folder, and with --announce the bridge's home too.
  const announced = JSON.stringify({ url: running.url, askKey: running.askKey, pid: process.pid, ...(running.askSocket ? { socket: running.askSocket } : {}) });
  // The person's local service keeps the hooks: the demo never takes them from it (#51).
  const serviceRuns = readServiceState(home) !== undefined;
  if (argv.includes('--announce') && serviceRuns) process.stdout.write('the local service runs: the assistants\' hooks stay with it (no --announce)\n');
  const serviceFiles = [join(secretDir, SERVICE_FILE), ...(argv.includes('--announce') && !serviceRuns ? [join(bridgeHome(), SERVICE_FILE)] : [])];
  for (const f of serviceFiles) {
    mkdirSync(dirname(f), { recursive: true, mode: 0o700 });
    writeWholeSync(f, `${announced}\n`); // hooks read it on every call
  }
  process.stdout.write(`assistants ask through ${serviceFiles.join(' and ')}\n`);
  const stop = () => {
    rmSync(secretFile, { force: true });
    for (const f of serviceFiles) {
      // Another sandbox may have announced itself since: its file stays.
      try { if ((JSON.parse(readFileSync(f, 'utf8')) as { pid?: unknown }).pid === process.pid) rmSync(f, { force: true }); } catch { /* gone */ }
    }
    void running.close().then(() => { rmSync(askDir, { recursive: true, force: true }); process.exit(0); });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error('sandbox:', message);
  if (process.argv.includes('--service')) {
    // The window that started it shows this (the Cards view); the lock goes so the next start tries again.
    noteStartFailed(localServiceHome(), message);
    process.stdout.write(`${JSON.stringify({ event: 'failed', message, pid: process.pid })}\n`);
    forgetLocalService(localServiceHome());
  }
  process.exit(1);
});
