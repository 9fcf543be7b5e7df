// Matching live sessions (what an assistant reports about the terminal it runs in) to this
// window's editor terminals, and reading the three process-table formats it needs.
// Pure: no vscode, no I/O. The editor reads the table once per match round and hands it here.
//
// DESIGN "Live sessions and their terminal": pid = Terminal.processId first (walking the reported
// pid up its parent chain, since an assistant may report a process below the shell), then tty,
// and only where neither is given, cwd = the terminal's shell-integration cwd.

import { parseProcStat as readStatLine, ttyDevice } from '../api/proc-stat';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Terminal device without "/dev/" (e.g. "pts/3", "ttys004"); undefined when it has none. */
  tty?: string;
  comm?: string;
}

export type ProcessTable = ReadonlyMap<number, ProcessEntry>;

export function tableOf(entries: Iterable<ProcessEntry>): ProcessTable {
  const table = new Map<number, ProcessEntry>();
  for (const e of entries) table.set(e.pid, e);
  return table;
}

/** "/dev/pts/3", "pts/3" and "ttys004" name devices the same way once "/dev/" is dropped. */
export function normalizeTty(tty: string | undefined): string | undefined {
  if (tty === undefined) return undefined;
  const t = tty.trim().replace(/^\/dev\//, '');
  if (t === '' || t === '?' || t === '??' || t === '-' || t === 'not a tty') return undefined;
  return t;
}

/**
 * Linux `tty_nr` (field 7 of /proc/<pid>/stat) to a device name without "/dev/" (api/proc-stat
 * decodes it); a device of an unknown kind as "dev/major:minor", still comparable between processes.
 */
export function linuxTtyName(ttyNr: number): string | undefined {
  const dev = ttyDevice(ttyNr);
  return dev && (dev.name ?? `dev/${dev.major}:${dev.minor}`);
}

/** One /proc/<pid>/stat line as a process-table entry. */
export function parseProcStat(stat: string): ProcessEntry | undefined {
  const parsed = readStatLine(stat);
  if (!parsed) return undefined;
  const entry: ProcessEntry = { pid: parsed.pid, ppid: parsed.ppid, comm: parsed.comm };
  const tty = linuxTtyName(parsed.ttyNr);
  if (tty) entry.tty = tty;
  return entry;
}

/** The stat files of /proc, one string each (unreadable ones already dropped by the reader). */
export function parseLinuxProc(stats: Iterable<string>): ProcessTable {
  const out: ProcessEntry[] = [];
  for (const s of stats) {
    const e = parseProcStat(s);
    if (e) out.push(e);
  }
  return tableOf(out);
}

/** Output of `ps -axo pid=,ppid=,tty=,comm=` (macOS; Linux procps prints the same shape). */
export function parsePs(text: string): ProcessTable {
  const out: ProcessEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!m) continue;
    const entry: ProcessEntry = { pid: Number(m[1]), ppid: Number(m[2]), comm: (m[4] ?? '').trim() };
    const tty = normalizeTty(m[3]);
    if (tty) entry.tty = tty;
    out.push(entry);
  }
  return tableOf(out);
}

/**
 * PowerShell: `Get-CimInstance Win32_Process | Select-Object ProcessId,ParentProcessId,Name |
 * ConvertTo-Json -Compress`. One process prints an object, not an array. Windows has no tty.
 */
export function parseWindowsCim(json: string): ProcessTable {
  const trimmed = json.trim();
  if (trimmed === '') return tableOf([]);
  const parsed: unknown = JSON.parse(trimmed);
  const rows = Array.isArray(parsed) ? parsed : [parsed];
  const out: ProcessEntry[] = [];
  for (const r of rows) {
    if (typeof r !== 'object' || r === null) continue;
    const row = r as Record<string, unknown>;
    const pid = row.ProcessId;
    const ppid = row.ParentProcessId;
    if (typeof pid !== 'number' || typeof ppid !== 'number') continue;
    out.push({ pid, ppid, comm: typeof row.Name === 'string' ? row.Name : undefined });
  }
  return tableOf(out);
}

/** pid, its parent, its grandparent... up to the root. Stops on a loop or a missing entry. */
export function ancestry(pid: number, table: ProcessTable | undefined, maxDepth = 64): number[] {
  const chain = [pid];
  const seen = new Set(chain);
  let current = pid;
  for (let i = 0; i < maxDepth && table; i++) {
    const parent = table.get(current)?.ppid;
    if (parent === undefined || parent <= 0 || seen.has(parent)) break;
    chain.push(parent);
    seen.add(parent);
    current = parent;
  }
  return chain;
}

/** An editor terminal as the matcher sees it. `key` is whatever the editor uses to find it again. */
export interface TerminalFacts {
  key: string;
  processId?: number;
  /** Shell integration's cwd, else the cwd the terminal was created with. */
  cwd?: string;
}

/** A live session as the matcher sees it (from GET /v1/assistants). */
export interface SessionFacts {
  appSessionId: string;
  cwd?: string;
  terminal?: { pid?: number; tty?: string };
}

export type MatchedBy = 'pid' | 'tty' | 'cwd';
export interface TerminalMatch { terminalKey: string; by: MatchedBy }

export interface MatchOptions {
  /** Compare cwds without case (Windows, default macOS file systems). */
  caseInsensitivePaths?: boolean;
}

function normalizePath(p: string, caseInsensitive: boolean): string {
  let s = p.trim().replace(/\\/g, '/');
  if (s.length > 1) s = s.replace(/\/+$/, '');
  return caseInsensitive ? s.toLowerCase() : s;
}

/**
 * Matches each session to at most one terminal. Sessions that match nothing are absent from the
 * result ("not in this window"). A cwd shared by several terminals is ambiguous and matches none:
 * focusing the wrong terminal would be worse than saying we do not know.
 */
export function matchSessions(
  sessions: readonly SessionFacts[],
  terminals: readonly TerminalFacts[],
  table: ProcessTable | undefined,
  options: MatchOptions = {},
): Map<string, TerminalMatch> {
  const result = new Map<string, TerminalMatch>();
  const byPid = new Map<number, string>();
  const byTty = new Map<string, string>();
  for (const t of terminals) {
    if (t.processId === undefined) continue;
    if (!byPid.has(t.processId)) byPid.set(t.processId, t.key);
    const tty = table?.get(t.processId)?.tty;
    if (tty && !byTty.has(tty)) byTty.set(tty, t.key);
  }
  const ci = options.caseInsensitivePaths ?? false;
  const byCwd = new Map<string, string[]>();
  for (const t of terminals) {
    if (!t.cwd) continue;
    const k = normalizePath(t.cwd, ci);
    byCwd.set(k, [...(byCwd.get(k) ?? []), t.key]);
  }

  for (const s of sessions) {
    const pid = s.terminal?.pid;
    const tty = normalizeTty(s.terminal?.tty);
    let match: TerminalMatch | undefined;
    if (pid !== undefined && pid > 0) {
      for (const p of ancestry(pid, table)) {
        const key = byPid.get(p);
        if (key !== undefined) { match = { terminalKey: key, by: 'pid' }; break; }
      }
    }
    if (!match && tty !== undefined) {
      const key = byTty.get(tty);
      if (key !== undefined) match = { terminalKey: key, by: 'tty' };
    }
    if (!match && (pid === undefined || pid <= 0) && tty === undefined && s.cwd) {
      const keys = byCwd.get(normalizePath(s.cwd, ci));
      if (keys && keys.length === 1 && keys[0] !== undefined) match = { terminalKey: keys[0], by: 'cwd' };
    }
    if (match) result.set(s.appSessionId, match);
  }
  return result;
}
