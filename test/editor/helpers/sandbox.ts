// Starts the sandbox (node dist/sandbox.js, built by the runner) from a host test, on port 0.
// The extension host's own Node runs it (ELECTRON_RUN_AS_NODE for test-electron's Electron).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { testEnv } from './env';

export interface RunningSandbox {
  url: string;
  /** The 0600 file holding the control secret (a demo assistant's --secret-file). */
  secretFile: string;
  /** POST/GET on the control surface (/_sandbox/...), JSON in and out. */
  control<T = unknown>(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown): Promise<T>;
  /** Its process (the identity files it writes name it). */
  pid: number;
  close(): Promise<void>;
  /** Killed outright (SIGKILL: it blanks nothing), once it has exited. */
  kill(): Promise<void>;
}

/**
 * `args` may carry `--port N` (default 0) and `--public-url URL`; `url` is the address it prints
 * (the public one when given), and the control surface is reached on 127.0.0.1 either way.
 */
export async function startSandboxProcess(args: string[] = []): Promise<RunningSandbox> {
  const script = path.join(testEnv.root, 'dist', 'sandbox.js');
  const port = args.includes('--port') ? [] : ['--port', '0'];
  // --work: the run's folder, where the test's identity file is (the sandbox writes nowhere else).
  const child = spawn(process.execPath, [script, ...port, '--work', path.dirname(testEnv.machineFile), ...args], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  // The address, then the control secret every control write sends (DESIGN, docs/decisions.md).
  const [url, secret, secretFile] = await new Promise<[string, string, string]>((resolve, reject) => {
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /listening on (https?:\/\/\S+)\ncontrol secret (\S+) \(file (.+)\)\n/.exec(out);
      if (m?.[1] && m[2] && m[3]) { child.stdout.off('data', onData); resolve([m[1], m[2], m[3]]); }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening: ${stderr}`)));
    setTimeout(() => reject(new Error(`sandbox did not print its address within 15 s: ${stderr}`)), 15_000).unref();
  });
  child.stdout.resume();
  const i = args.indexOf('--port');
  const controlUrl = i >= 0 ? `http://127.0.0.1:${args[i + 1]}` : url;
  return {
    url,
    secretFile,
    async control<T>(method: string, route: string, body?: unknown): Promise<T> {
      const res = await fetch(`${controlUrl}${route}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${secret}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${route} -> ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    pid: child.pid!,
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
    kill: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }),
  };
}
