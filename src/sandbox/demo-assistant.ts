// A pretend AI coding assistant for the sandbox: `node dist/sandbox.js assistant --base URL --name NAME`.
// Run inside a terminal, it does what a real assistant CLI would: registers itself as a live
// session with its shell's pid, its tty and cwd, asks cards of different kinds one after another,
// prints what it hears once each hold is over, picks the answer up, and keeps the session live
// until Ctrl+C, which ends the session. It speaks only the sandbox's control surface (plain fetch),
// never the person's API: it is the other side of the service.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import * as path from 'node:path';

export interface DemoAssistantOptions {
  base: string;
  name: string;
  app?: string;
  /** Computer the assistant runs on; else from the identity file; else a new one is made. */
  machineId?: string;
  machineFile?: string;
  /** The sandbox's control secret; else read from `secretFile`. */
  controlSecret?: string;
  /**
   * The file holding it (mode 0600); default `sandbox-<port>.secret` next to the identity file,
   * where a sandbox started with `--work` (that folder) keeps it.
   */
  secretFile?: string;
  cwd?: string;
  /** What the session reports about its terminal; detected from this process when absent. */
  terminal?: { pid?: number; tty?: string; program?: string };
  /** Pause between one card picked up and the next asked. */
  intervalMs?: number;
  pollMs?: number;
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

type CardAsk = Record<string, unknown> & { kind: string; title: string };

/** What the demo asks, in order: one of each kind the sandbox knows. */
export const DEMO_SCRIPT: readonly CardAsk[] = [
  {
    kind: 'choice', title: 'Which store should the cache use?', blocking: true, urgency: 'now',
    summary: 'The session cache needs a home before I wire up the login flow.',
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

class ControlError extends Error {}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() { clearTimeout(t); signal?.removeEventListener('abort', done); resolve(); }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Text for the terminal: C0 controls but tab and newline, DEL, C1 controls and ESC sequences
 * removed. What the assistant heard comes from whoever answered; an escape sequence in it could
 * retitle the terminal, hide lines or (on some terminals) answer back into the shell.
 */
export function terminalSafe(text: string): string {
  return text
    // ESC [ ... final (CSI), ESC ] ... BEL or ST (OSC), ESC P/X/^/_ ... ST (DCS, SOS, PM, APC), other two-byte ESC sequences
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b[\]PX^_][\s\S]*?(?:\u0007|\u001b\\|\u009c)|\u001b[ -/]*[0-~]?/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** The control secret: given, or read from its file (a missing file: none, and writes are refused). */
function controlSecretOf(o: DemoAssistantOptions): string | undefined {
  if (o.controlSecret) return o.controlSecret;
  let file = o.secretFile;
  if (!file) {
    const port = /^https?:\/\/[^/]+:(\d{1,5})(?:\/|$)/.exec(o.base)?.[1];
    const identity = o.machineFile ?? process.env.ASSISTANT_CARDS_MACHINE_FILE;
    if (!port || !identity) return undefined;
    file = path.join(path.dirname(identity), `sandbox-${port}.secret`);
  }
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Where the control surface is, and the secret its writes carry. */
interface Link { base: string; secret: string | undefined }

async function call<T>(link: Link, method: string, route: string, body?: unknown): Promise<T> {
  const { base, secret } = link;
  let res: Response;
  try {
    res = await fetch(`${base}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(secret && method !== 'GET' ? { authorization: `Bearer ${secret}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ControlError(`cannot reach the sandbox at ${base} (${(e as Error).message}); is it running?`);
  }
  const text = await res.text();
  if (!res.ok) throw new ControlError(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** Linux tty_nr (/proc/<pid>/stat field 7) to "/dev/pts/N" and friends. */
function linuxTty(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const nr = Number(stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/)[4]);
    if (!nr) return undefined;
    const major = (nr >> 8) & 0xfff;
    const minor = (nr & 0xff) | ((nr >>> 12) & 0xfff00);
    if (major >= 136 && major <= 143) return `/dev/pts/${(major - 136) * 256 + minor}`;
    if (major === 4) return minor < 64 ? `/dev/tty${minor}` : `/dev/ttyS${minor - 64}`;
    return undefined;
  } catch {
    return undefined;
  }
}

/**
 * The terminal device this assistant runs on. Our own tty, which is the shell's too: reading our
 * own stays right even when a shell exec'd us (`bash -c node ...`) and our parent is no shell.
 */
export function detectTty(pid = process.pid): string | undefined {
  if (process.platform === 'win32') return undefined;
  if (process.platform === 'linux') {
    const t = linuxTty(pid);
    if (t) return t;
  }
  try {
    const out = execFileSync('ps', ['-o', 'tty=', '-p', String(pid)], { encoding: 'utf8', timeout: 3000 }).trim();
    if (!out || out === '?' || out === '??') return undefined;
    return out.startsWith('/dev/') ? out : `/dev/${out}`;
  } catch {
    return undefined;
  }
}

function defaultMachineFile(): string {
  if (process.platform === 'win32') {
    return path.join(process.env.APPDATA ?? path.join(homedir(), 'AppData', 'Roaming'), 'assistant-cards', 'machine.json');
  }
  return path.join(homedir(), '.config', 'assistant-cards', 'machine.json');
}

async function resolveMachineId(o: DemoAssistantOptions, link: Link, out: (l: string) => void): Promise<string> {
  if (o.machineId) return o.machineId;
  const file = o.machineFile ?? process.env.ASSISTANT_CARDS_MACHINE_FILE ?? defaultMachineFile();
  try {
    const id = (JSON.parse(readFileSync(file, 'utf8')) as { id?: unknown }).id;
    if (typeof id === 'string') return id;
  } catch { /* fall through: no identity file here */ }
  out(`no computer identity at ${file}; registering a new computer with the sandbox`);
  return (await call<{ id: string }>(link, 'POST', '/_sandbox/machines', { name: hostname() })).id;
}

function describeHeard(h: { type: string; body: unknown }): string {
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
  const link: Link = { base, secret: controlSecretOf(o) };
  const signal = o.signal;
  const machineId = await resolveMachineId(o, link, out);
  const assistant = await call<{ id: string }>(link, 'POST', '/_sandbox/assistants',
    { name: o.name, app: o.app ?? 'other', machineId, hears: 'while-working' });
  const agent = await call<{ id: string }>(link, 'POST', '/_sandbox/agents', { assistantId: assistant.id, name: 'main' });
  const terminal = {
    pid: o.terminal?.pid ?? process.ppid,
    tty: o.terminal?.tty ?? detectTty(),
    program: o.terminal?.program ?? process.env.TERM_PROGRAM,
  };
  const appSessionId = `${o.name.replace(/[^A-Za-z0-9-]/g, '-')}-${process.pid}-${randomBytes(3).toString('hex')}`;
  await call(link, 'POST', '/_sandbox/sessions', { agentId: agent.id, appSessionId, cwd: o.cwd ?? process.cwd(), terminal });
  out(`${o.name}: live as session ${appSessionId} (shell pid ${terminal.pid}${terminal.tty ? `, ${terminal.tty}` : ''})`);

  const asked: string[] = [];
  const script = DEMO_SCRIPT.slice(0, o.cards ?? DEMO_SCRIPT.length);
  const pollMs = o.pollMs ?? 1000;

  const work = async () => {
    for (const ask of script) {
      if (signal?.aborted) return;
      const card = await call<{ id: string }>(link, 'POST', '/_sandbox/cards', { agentId: agent.id, ...ask });
      asked.push(card.id);
      out(`${o.name} asks (${ask.kind}): ${ask.title}  [${card.id}]`);
      let seen = 0;
      while (!signal?.aborted) {
        const { heard } = await call<{ heard: { at: string; type: string; body: unknown }[] }>(
          link, 'GET', `/_sandbox/cards/${card.id}/heard`);
        for (const h of heard.slice(seen)) out(`${o.name} heard ${describeHeard(h)}`);
        seen = heard.length;
        if (seen > 0) break;
        await sleep(pollMs, signal);
      }
      if (signal?.aborted) return;
      try {
        await call(link, 'POST', `/_sandbox/cards/${card.id}/pickup`);
        out(`${o.name}: picked it up, working on it...`);
      } catch (e) {
        // Words written on the card, or the card closed elsewhere: nothing to pick up; go on.
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
      await call(link, 'DELETE', `/_sandbox/sessions/${encodeURIComponent(appSessionId)}`);
      out(`${o.name}: session ended`);
    } catch (e) {
      out(`${o.name}: could not end the session: ${(e as Error).message}`);
    }
  })();

  return { assistantId: assistant.id, agentId: agent.id, appSessionId, asked, done };
}

const USAGE = 'usage: node dist/sandbox.js assistant --base URL [--name NAME] [--app APP] [--machine mch_...]' +
  ' [--machine-file PATH] [--secret-file PATH] [--cwd DIR] [--pid N] [--tty DEV] [--interval SECONDS] [--cards N]';

export function parseDemoArgs(argv: string[]): DemoAssistantOptions {
  const args = argv[0] === 'assistant' ? argv.slice(1) : argv;
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
  const secretFile = get('--secret-file'); if (secretFile) o.secretFile = secretFile;
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
    console.error((e as Error).message);
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
