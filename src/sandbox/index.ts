// The sandbox, importable: `startSandbox({port})` listens on 127.0.0.1 and returns its address,
// the parts tests drive directly, and close().
import { closeAskSocket, listenOnAskSocket } from './ask-socket';
import type { Clock } from './context';
import { seedDemo, type DemoOptions, type DemoSeed } from './demo';
import { buildSandbox, type Sandbox, type SandboxMode } from './server';
import { SqliteStore } from './store/sqlite-store';

export interface StartOptions {
  /** `service`: the person's local service (no demo, no control surface, no manual clock; server.ts). */
  mode?: SandboxMode;
  port?: number;
  host?: string;
  clock?: Clock;
  /** Start on a clock that moves only by POST /_sandbox/clock/advance (or `advance`). */
  manualClock?: boolean;
  publicUrl?: string;
  demo?: boolean | DemoOptions;
  /** The run's own folder (--work): identity files may be written inside it. */
  workDir?: string;
  /** The identity file this run was started with (--machine-file): it may be written too. */
  machineFile?: string;
  requestTimeoutMs?: number;
  maxConnections?: number;
  /** The control surface's secret; default a fresh random one (see `controlSecret` below). */
  controlSecret?: string;
  askKey?: string;
  /** A store file (store/sqlite-store.ts): the state outlives the process. Default: in memory. */
  storeFile?: string;
  /** Also serve on this Unix socket, in a folder only this user may enter (ask-socket.ts). */
  askSocket?: string;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>` (or the public URL), no trailing slash: the `{base_url}`. */
  url: string;
  port: number;
  /** Control writes (/_sandbox/..., not GET) must send `Authorization: Bearer <controlSecret>`. */
  controlSecret: string;
  /** Assistants send it on /_ask/ (ask-routes.ts): it lets them ask, never answer. */
  askKey: string;
  clock: Clock;
  sandbox: Sandbox;
  /** What --demo seeded, when started with it. */
  demo?: DemoSeed;
  /** The Unix socket it also serves on (ask-socket.ts), when asked for one and one could serve. */
  askSocket?: string;
  /** Moves a manual clock (throws on the real one). */
  advance(ms: number): number;
  close(): Promise<void>;
}

/** The --machine-file of this run: given directly, or as the demo's. */
function machineFileOf(opts: StartOptions): string | undefined {
  return opts.machineFile ?? (typeof opts.demo === 'object' ? opts.demo.machineFile : undefined);
}

export async function startSandbox(opts: StartOptions = {}): Promise<RunningSandbox> {
  if (opts.mode === 'service' && opts.demo) throw new Error('the local service has no demo: the demo is the sandbox\'s');
  const store = opts.storeFile !== undefined ? SqliteStore.open(opts.storeFile) : undefined;
  const sandbox = buildSandbox({
    ...(store ? { store } : {}),
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.manualClock ? { manualClock: true } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    ...(opts.maxConnections !== undefined ? { maxConnections: opts.maxConnections } : {}),
    ...(opts.controlSecret !== undefined ? { controlSecret: opts.controlSecret } : {}),
    ...(opts.askKey !== undefined ? { askKey: opts.askKey } : {}),
    identityPlaces: {
      ...(opts.workDir !== undefined ? { workDir: opts.workDir } : {}),
      ...(machineFileOf(opts) !== undefined ? { machineFile: machineFileOf(opts) } : {}),
    },
  });
  const host = opts.host ?? '127.0.0.1';
  try {
    await sandbox.app.listen({ port: opts.port ?? 0, host });
  } catch (err) {
    sandbox.store.close(); // the store file is free for the next start
    throw err;
  }
  const socketPath = opts.askSocket;
  let socket;
  try {
    socket = socketPath !== undefined ? await listenOnAskSocket(sandbox.app.server, socketPath) : undefined;
  } catch (err) {
    await sandbox.app.close();
    sandbox.store.close();
    throw err;
  }
  const address = sandbox.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = opts.publicUrl?.replace(/\/+$/, '') ?? `http://${host}:${port}`;
  const running: RunningSandbox = {
    url,
    port,
    controlSecret: sandbox.controlSecret,
    askKey: sandbox.askKey,
    clock: sandbox.clock,
    sandbox,
    ...(socket && socketPath !== undefined ? { askSocket: socketPath } : {}),
    advance(ms: number) {
      if (!sandbox.clock.advance) throw new Error('the sandbox runs on real time; start it with manualClock');
      return sandbox.clock.advance(ms);
    },
    async close() {
      sandbox.stop();
      sandbox.faults.release(); // a held response ends with the sandbox, not minutes later
      if (socketPath !== undefined) await closeAskSocket(socket, socketPath);
      await sandbox.app.close();
      sandbox.store.close();
    },
  };
  if (opts.demo) {
    const demoOpts: DemoOptions = { ...(typeof opts.demo === 'object' ? opts.demo : {}), ...(opts.workDir !== undefined ? { workDir: opts.workDir } : {}) };
    running.demo = seedDemo(sandbox, url, demoOpts);
    sandbox.afterReset = async () => {
      running.demo = seedDemo(sandbox, url, demoOpts);
    };
  }
  sandbox.store.commit();
  return running;
}

export type { Sandbox } from './server';
export type { DemoSeed } from './demo';
