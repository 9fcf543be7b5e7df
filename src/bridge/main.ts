// `node dist/bridge.js <command>`: the assistants' side of this computer, in one small bundle.
//   hook <app> [--wait SECONDS]   the connected CLIs' hooks (hook.ts); the event on stdin
//   hook-host                     serves those events on a private socket (hook-host.ts, Linux)
//   ask <kind> <title> ...        ask the person from any script (ask-command.ts)
//   demo --base URL ...           the demo assistant (demo-assistant.ts)
// It speaks only the local service's asking surface, found through local-service.json.
import type * as ChildProcess from 'node:child_process';
import * as path from 'node:path';
import { ASK_EXIT, parseAskArgs, runAsk } from './ask-command';
import { runDemoAssistant } from './demo-assistant';
import { runHook } from './hook';
import { hostLog } from './hook-host-log';
import { HOOK_HOST_ENV, hookHostFits, hookHostSocket, hostAnswers, serveHooks } from './hook-host';
import { bridgeHome, SERVICE_FILE } from './home';
import { SESSIONS_DIR } from './session-keys';
import { readServiceFile } from './service-link';
import { hookTerminal, sharedServerUi } from './terminal';
import { terminalSafe } from './terminal-safe';

/** A line for the terminal: what a service, an answer or an event says, without its escape sequences (#52 F12). */
const toErr = (l: string) => process.stderr.write(`${terminalSafe(l)}\n`);
const toOut = (l: string) => process.stdout.write(`${terminalSafe(l)}\n`);

/** Under a hook's default timeout (Claude Code: 60 s) when no --wait is given; Connect gives one. */
export const DEFAULT_HOOK_WAIT_S = 50;
const STDIN_LIMIT = 4 * 1024 * 1024;
/** A CLI writes the event and closes stdin at once; a hook left waiting for more gives up. */
const STDIN_MS = 3_000;

function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => { clearTimeout(t); resolve(Buffer.concat(chunks).toString('utf8')); };
    const t = setTimeout(finish, STDIN_MS);
    process.stdin.on('data', (c: Buffer) => { size += c.length; if (size <= STDIN_LIMIT) chunks.push(c); });
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}

/** Ctrl+C, a kill by the CLI when its hook timeout ends, or the terminal closing: stop waiting. */
function stopSignal(): AbortSignal {
  const stop = new AbortController();
  for (const s of (process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP']) as NodeJS.Signals[]) {
    process.once(s, () => stop.abort());
  }
  return stop.signal;
}

/** A hook's wait: --wait's seconds when it gives a positive number, else the default. */
const waitMsOf = (waitS: number | undefined) => (waitS !== undefined && Number.isFinite(waitS) && waitS > 0 ? waitS : DEFAULT_HOOK_WAIT_S) * 1000;

/**
 * The launcher found no hook host to run this event (hook-host.ts) and asks for one: started apart
 * from this hook (its own session, no stdio), it serves the next events. Not while this event is
 * on its way: a Node start beside it would slow the card it carries (2 cores), so once the event
 * is done, or after HOST_START_AFTER_MS (a permission then waits for the person). Only on this
 * path, so node:child_process is loaded here and not at every hook's start.
 */
function hookHostStarter(): { soon(): void; now(): Promise<void> } {
  let started: Promise<void> | undefined;
  const now = () => (started ??= (async () => {
    const socket = hookHostSocket(bridgeHome());
    // One answers there (it refused this event: another bridge.js): no second one.
    if (!hookHostFits(socket) || await hostAnswers(socket)) return;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, see above
      const { spawn } = require('node:child_process') as typeof ChildProcess;
      const env = { ...process.env };
      delete env[HOOK_HOST_ENV];
      spawn(process.execPath, [process.argv[1]!, 'hook-host'], { detached: true, stdio: 'ignore', env }).unref();
    } catch {
      // No host: the next event starts Node again, as before there was one.
    }
  })());
  let timer: NodeJS.Timeout | undefined;
  return { soon: () => { timer = setTimeout(() => void now(), HOST_START_AFTER_MS); }, now: () => { clearTimeout(timer); return now(); } };
}

/** When a hook that asked for a host starts it, if the event is not done by then. */
const HOST_START_AFTER_MS = 300;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'hook') {
    const app = rest[0] ?? 'other';
    const i = rest.indexOf('--wait');
    const host = process.platform === 'linux' && process.env[HOOK_HOST_ENV] === 'start' ? hookHostStarter() : undefined;
    host?.soon();
    const out = await runHook({
      app, input: await readStdin(), service: readServiceFile(), terminal: hookTerminal,
      sharedServerUi: (at) => sharedServerUi(process.env, at), hookArgv: [process.execPath, process.argv[1]!, 'hook', app],
      waitMs: waitMsOf(i >= 0 ? Number(rest[i + 1]) : undefined),
      signal: stopSignal(), log: toErr,
    });
    if (out) process.stdout.write(`${out}\n`);
    await host?.now();
    return 0;
  }
  if (command === 'hook-host') {
    const bridgeFile = process.argv[1]!;
    const home = bridgeHome();
    // Not the first hook's project folder: the host outlives it, and an event names its own folder.
    try { process.chdir(home); } catch { /* stays where it started */ }
    const log = hostLog(home);
    const host = await serveHooks({
      home, bridgeFile, servesEnv: (env) => bridgeHome(env) === home,
      runEvent: ({ app, input, waitS, at, signal }) => {
        const hook = { self: at.pid, parent: at.ppid };
        return runHook({
          app, input, env: at.env, cwd: at.cwd, keysDir: path.join(home, SESSIONS_DIR),
          service: readServiceFile(path.join(home, SERVICE_FILE)), terminal: () => hookTerminal(at.env, hook),
          sharedServerUi: (x) => sharedServerUi(at.env, x, hook), hookArgv: [process.execPath, bridgeFile, 'hook', app],
          waitMs: waitMsOf(waitS), signal, log,
        });
      },
      log,
    });
    if (host) await host.closed;
    return 0;
  }
  if (command === 'ask') {
    let args;
    try { args = parseAskArgs(rest); } catch (e) { toErr((e as Error).message); return ASK_EXIT.usage; }
    return runAsk({ args, service: readServiceFile(), out: toOut, err: toErr, signal: stopSignal() });
  }
  if (command === 'demo') return runDemoAssistant(argv);
  process.stderr.write('usage: bridge.js hook <cli> [--wait SECONDS] | hook-host | ask <kind> <title> ... | demo --base URL ...\n');
  return 2;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e: unknown) => {
  toErr(`assistant-cards: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(0);
});
