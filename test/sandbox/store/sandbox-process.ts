// The sandbox as a process of its own on a store file, for the crash test and `npm run bench`
// (bench/store.ts): started, and stopped or killed. fill.ts fills it over HTTP for both.
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import { noteControlSecret } from '../helpers';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Running { child: ChildProcess; url: string }

/**
 * Starts `args[0]` (a script: the bundle, or `--import tsx src/sandbox/main.ts`) with the rest of
 * `args` and `--port`, `--work`, `--store`; resolves once it listens and has said its control secret.
 */
export async function startProcess(o: { args: string[]; port: number; work: string; store?: string; cwd?: string }): Promise<Running> {
  const child = spawn(process.execPath, [...o.args, '--port', String(o.port), '--work', o.work, ...(o.store ? ['--store', o.store] : [])], {
    ...(o.cwd ? { cwd: o.cwd } : {}), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 30 s: ${out} ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const secret = /control secret (\S+)/.exec(out);
      const listening = /listening on (\S+)/.exec(out);
      if (secret && listening) {
        clearTimeout(timer);
        noteControlSecret(listening[1]!, secret[1]!);
        resolve(listening[1]!);
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}: ${err}`)); });
  });
  child.removeAllListeners('exit');
  return { child, url };
}

/** Ends it: SIGKILL (a crash) or SIGTERM (a stop, the store closed). */
export function endProcess(child: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
