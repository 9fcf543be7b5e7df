// A pretend AI coding assistant: `node dist/bridge.js demo --base URL --name NAME`. Run inside a
// terminal, it does what a real assistant CLI would: registers itself as a live session with its
// shell's pid, its tty and cwd, asks cards of different kinds one after another, prints what it
// hears once each hold is over, picks the answer up, and keeps the session live until Ctrl+C,
// which ends the session. It asks through the same code as the hook bridge (asker.ts): the local
// service's asking surface, never the person's API, and nothing there can answer.
import * as path from 'node:path';
import { terminalSafe } from './terminal-safe';

export { terminalSafe };
import { Asker, type AskedCard, type Heard, type WaitResult } from './asker';
import { bridgeHome, SERVICE_FILE } from './home';
import { nodeCrypto } from './node-crypto';
import { readServiceFile, type ServiceInfo } from './service-link';
import { detectTty } from './terminal';

export { detectTty };

export interface DemoAssistantOptions {
  base: string;
  name: string;
  app?: string;
  /** Computer the assistant runs on; default the one the sandbox set up last. */
  machineId?: string;
  /** The identity file of `npm start`: the run's local-service.json is looked for beside it. */
  machineFile?: string;
  /** The run's ask key; else from `serviceFile`. */
  askKey?: string;
  /** local-service.json to read; default beside the identity file, then the bridge's home. */
  serviceFile?: string;
  cwd?: string;
  /** What the session reports about its terminal; detected from this process when absent. */
  terminal?: { pid?: number; tty?: string; program?: string };
  /** Pause between one card picked up and the next asked. */
  intervalMs?: number;
  /** How many cards of the script to ask (default: all of them). */
  cards?: number;
  out?: (line: string) => void;
  signal?: AbortSignal;
}

export interface DemoAssistant {
  assistantId: string;
  agentId: string;
  appSessionId: string;
  /** Card ids in the order asked. */
  asked: string[];
  /** Resolves once stopped (abort) and the session is removed. */
  done: Promise<void>;
}


/** What the demo asks, in order: one of each kind the sandbox knows. */
export const DEMO_SCRIPT: readonly (AskedCard & { kind: string; title: string })[] = [
  {
    kind: 'choice', title: 'Which store should the cache use?', blocking: true, urgency: 'now',
    // Short enough that the palette shows it whole (shared/palette-rules.ts): npm start answers it there.
    summary: 'The session cache needs a home.',
    options: [{ id: 'sqlite', label: 'SQLite file' }, { id: 'redis', label: 'Redis' }, { id: 'memory', label: 'In memory' }],
    recommendedIds: ['sqlite'],
  },
  {
    kind: 'approval', title: 'Run the database migration on the dev database?', blocking: true, urgency: 'today',
    summary: 'Adds two columns to `sessions`; reversible with the down migration.',
  },
  {
    kind: 'text', title: 'What should the release note say about the cache?', blocking: false, urgency: 'today',
    summary: 'One or two sentences for CHANGELOG.md.',
  },
  {
    kind: 'questions', title: 'A few details for the new module', blocking: true, urgency: 'today',
    asks: [
      { id: 'node', title: 'Which Node version should it target?', options: [{ id: '20', label: 'Node 20' }, { id: '22', label: 'Node 22' }] },
      { id: 'name', title: 'What should the module be called?' },
    ],
  },
  {
    kind: 'failure', title: 'The build step failed', blocking: true, urgency: 'now',
    summary: 'tsc reported 3 errors in src/cache.ts.',
    steps: [{ title: 'Install dependencies', state: 'done' }, { title: 'Build', state: 'failed', detail: 'tsc: 3 errors' }, { title: 'Run tests', state: 'pending' }],
  },
];


function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() { clearTimeout(t); signal?.removeEventListener('abort', done); resolve(); }
    signal?.addEventListener('abort', done, { once: true });
  });
}


/** The service this demo asks: its address, with the run's ask key from local-service.json. */
function serviceOf(o: DemoAssistantOptions, base: string): ServiceInfo {
  if (o.askKey) return { url: base, askKey: o.askKey };
  const files = o.serviceFile ? [o.serviceFile] : [
    ...(o.machineFile ?? process.env.ASSISTANT_CARDS_MACHINE_FILE ? [path.join(path.dirname((o.machineFile ?? process.env.ASSISTANT_CARDS_MACHINE_FILE)!), SERVICE_FILE)] : []),
    path.join(bridgeHome(), SERVICE_FILE),
  ];
  for (const f of files) {
    const info = readServiceFile(f);
    if (info && info.url === base) return info;
  }
  throw new Error(`no ask key for ${base}: no local-service.json of that sandbox in ${files.join(' or ')}; is it running?`);
}

function describeHeard(h: Heard): string {
  const b = (h.body ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (Array.isArray(b.choiceIds)) parts.push(`chose ${b.choiceIds.join(', ')}`);
  if (typeof b.approved === 'boolean') parts.push(b.approved ? 'approved' : 'declined');
  if (typeof b.text === 'string') parts.push(`"${b.text}"`);
  if (typeof b.body === 'string') parts.push(`wrote "${b.body}"`);
  if (b.answers && typeof b.answers === 'object') parts.push(`answers ${JSON.stringify(b.answers)}`);
  if (typeof b.failedStep === 'number') parts.push(`failed step ${b.failedStep}`);
  if (b.theyDecide === true) parts.push('you decide');
  const note = b.note as { text?: unknown } | undefined;
  if (note && typeof note.text === 'string') parts.push(`note "${note.text}"`);
  if (parts.length === 0) parts.push(JSON.stringify(b));
  return `${h.type}: ${parts.join('; ')}`;
}

/** Registers the session and starts asking; returns once the session is live. */
export async function startDemoAssistant(o: DemoAssistantOptions): Promise<DemoAssistant> {
  const print = o.out ?? ((l: string) => console.log(l));
  const out = (line: string) => print(terminalSafe(line));
  const base = o.base.replace(/\/+$/, '');
  const asker = new Asker(serviceOf(o, base));
  const signal = o.signal;
  const terminal = {
    pid: o.terminal?.pid ?? process.ppid,
    tty: o.terminal?.tty ?? detectTty(),
    program: o.terminal?.program ?? process.env.TERM_PROGRAM,
  };
  const appSessionId = `${o.name.replace(/[^A-Za-z0-9-]/g, '-')}-${process.pid}-${nodeCrypto().randomBytes(3).toString('hex')}`;
  const live = await asker.register({
    app: o.app ?? 'other', appSessionId, cwd: o.cwd ?? process.cwd(), name: o.name, agent: 'main',
    terminal: { pid: terminal.pid, ...(terminal.tty ? { tty: terminal.tty } : {}), ...(terminal.program ? { program: terminal.program } : {}) },
    ...(o.machineId ? { machineId: o.machineId } : {}),
  });
  out(`${o.name}: live as session ${appSessionId} (shell pid ${terminal.pid}${terminal.tty ? `, ${terminal.tty}` : ''})`);

  const asked: string[] = [];
  const script = DEMO_SCRIPT.slice(0, o.cards ?? DEMO_SCRIPT.length);

  const work = async () => {
    for (const ask of script) {
      if (signal?.aborted) return;
      const card = await asker.ask(appSessionId, ask);
      asked.push(card.id);
      out(`${o.name} asks (${ask.kind}): ${ask.title}  [${card.id}]`);
      // However long the person takes: the demo waits in long polls until it hears or is stopped.
      let r: WaitResult;
      do r = await asker.wait(appSessionId, card.id, Date.now() + 3_600_000, signal ? { signal } : {});
      while (!signal?.aborted && r.kind === 'timeout');
      if (r.kind === 'timeout') return;
      if (r.kind === 'closed') { out(`${o.name}: the card was closed (${r.card.closedBy ?? 'elsewhere'}); going on`); continue; }
      for (const h of r.heard) out(`${o.name} heard ${describeHeard(h)}`);
      try {
        await asker.pickup(appSessionId, card.id);
        out(`${o.name}: picked it up, working on it...`);
      } catch (e) {
        // The card closed elsewhere: nothing to pick up; go on.
        out(`${o.name}: could not pick it up (${(e as Error).message}); going on`);
      }
      await sleep(o.intervalMs ?? 8000, signal);
    }
    if (!signal?.aborted) out(`${o.name}: nothing more to ask; staying live (Ctrl+C ends the session)`);
  };

  const done = (async () => {
    try {
      await work();
    } catch (e) {
      if (!signal?.aborted) out(`${o.name}: ${(e as Error).message}`);
    }
    if (signal && !signal.aborted) await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
    try {
      await asker.end(appSessionId);
      out(`${o.name}: session ended`);
    } catch (e) {
      out(`${o.name}: could not end the session: ${(e as Error).message}`);
    }
  })();

  return { assistantId: live.assistantId, agentId: live.agentId, appSessionId, asked, done };
}

const USAGE = 'usage: node dist/bridge.js demo --base URL [--name NAME] [--app APP] [--machine mch_...]' +
  ' [--machine-file PATH] [--service-file PATH] [--cwd DIR] [--pid N] [--tty DEV] [--interval SECONDS] [--cards N]';

export function parseDemoArgs(argv: string[]): DemoAssistantOptions {
  const args = argv[0] === 'demo' ? argv.slice(1) : argv;
  const get = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    if (i < 0) return undefined;
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
    return v;
  };
  const base = get('--base') ?? process.env.ASSISTANT_CARDS_SANDBOX_URL;
  if (!base) throw new Error(`--base is required (the sandbox's address)\n${USAGE}`);
  if (!/^https?:\/\//.test(base)) throw new Error(`--base must be an http(s) address, got "${base}"\n${USAGE}`);
  const num = (flag: string): number | undefined => {
    const v = get(flag);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} must be a non-negative number, got "${v}"`);
    return n;
  };
  const pid = num('--pid');
  const tty = get('--tty');
  const interval = num('--interval');
  const o: DemoAssistantOptions = { base, name: get('--name') ?? 'demo-assistant' };
  const app = get('--app'); if (app) o.app = app;
  const machineId = get('--machine'); if (machineId) o.machineId = machineId;
  const machineFile = get('--machine-file'); if (machineFile) o.machineFile = machineFile;
  const serviceFile = get('--service-file'); if (serviceFile) o.serviceFile = serviceFile;
  const cwd = get('--cwd'); if (cwd) o.cwd = cwd;
  if (pid !== undefined || tty !== undefined) o.terminal = { ...(pid !== undefined ? { pid } : {}), ...(tty ? { tty } : {}) };
  if (interval !== undefined) o.intervalMs = interval * 1000;
  const cards = num('--cards'); if (cards !== undefined) o.cards = cards;
  return o;
}

/** The CLI: runs until SIGINT/SIGTERM, then ends the session. Resolves to the exit code. */
export async function runDemoAssistant(argv: string[]): Promise<number> {
  let options: DemoAssistantOptions;
  try {
    options = parseDemoArgs(argv);
  } catch (e) {
    console.error(terminalSafe((e as Error).message));
    return 2;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  // Ctrl+C, a kill, or the terminal closing (SIGHUP) all end the session cleanly.
  const signals: NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.once(s, onSignal);
  try {
    const a = await startDemoAssistant({ ...options, signal: stop.signal });
    await a.done;
    return 0;
  } catch (e) {
    console.error(terminalSafe(`${options.name}: ${(e as Error).message}`));
    return 1;
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}
