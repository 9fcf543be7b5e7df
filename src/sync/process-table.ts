// Reads this computer's process table once, for one match round (see terminal-match.ts).
// Linux: /proc; macOS (and other Unixes): `ps`; Windows: PowerShell CIM. Never throws: a table
// that cannot be read is undefined, and matching falls back to exact pids.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { parseLinuxProc, parsePs, parseWindowsCim, type ProcessTable } from './terminal-match';

function run(file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, windowsHide: true },
      (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

async function readLinux(procDir: string): Promise<ProcessTable> {
  const names = (await readdir(procDir)).filter((n) => /^\d+$/.test(n));
  const stats = await Promise.all(names.map((n) =>
    readFile(`${procDir}/${n}/stat`, 'utf8').catch(() => undefined))); // gone since readdir
  return parseLinuxProc(stats.filter((s): s is string => s !== undefined));
}

export interface ReadOptions { platform?: NodeJS.Platform; procDir?: string; timeoutMs?: number }

export async function readProcessTable(options: ReadOptions = {}): Promise<ProcessTable | undefined> {
  const platform = options.platform ?? process.platform;
  const timeoutMs = options.timeoutMs ?? 5000;
  try {
    if (platform === 'linux') return await readLinux(options.procDir ?? '/proc');
    if (platform === 'win32') {
      return parseWindowsCim(await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command',
        'Get-CimInstance Win32_Process | Select-Object ProcessId,ParentProcessId,Name | ConvertTo-Json -Compress'],
      timeoutMs));
    }
    return parsePs(await run('ps', ['-axo', 'pid=,ppid=,tty=,comm='], timeoutMs));
  } catch {
    return undefined;
  }
}

/**
 * One read per match round: callers in the same round (within `ttlMs`) share one read, and
 * concurrent callers share the read in flight.
 */
export class CachedProcessTable {
  private last: { at: number; table: Promise<ProcessTable | undefined> } | undefined;
  constructor(
    private readonly read: () => Promise<ProcessTable | undefined> = () => readProcessTable(),
    private readonly ttlMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<ProcessTable | undefined> {
    const t = this.now();
    if (!this.last || t - this.last.at > this.ttlMs) this.last = { at: t, table: this.read() };
    return this.last.table;
  }

  /** A terminal opened or closed: the next round must read again. */
  invalidate(): void { this.last = undefined; }
}
