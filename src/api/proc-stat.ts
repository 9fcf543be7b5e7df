// One reader of Linux's /proc/<pid>/stat line, for the editor's terminal matching (sync) and the
// bridge's process walks (terminal, Codex's UI, a process's end), and the one decoder of its
// terminal's device number. Pure but for the one read.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface ProcStat {
  pid: number;
  /** The command name, as the kernel keeps it (at most 15 bytes; may hold spaces or ")"). */
  comm: string;
  /** One letter: R, S, D, Z (zombie), X (dead), T... */
  state: string;
  ppid: number;
  /** The controlling terminal's device number; 0 when the process has none. */
  ttyNr: number;
}

/** One stat line: "pid (comm) state ppid pgrp session tty_nr ...". The name may hold ")", so the last one ends it. */
export function parseProcStat(stat: string): ProcStat | undefined {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(stat.slice(0, open).trim());
  const rest = stat.slice(close + 1).trim().split(/\s+/);
  const ppid = Number(rest[1]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid)) return undefined;
  const ttyNr = Number(rest[4]);
  return { pid, comm: stat.slice(open + 1, close), state: rest[0] ?? '', ppid, ttyNr: Number.isInteger(ttyNr) ? ttyNr : 0 };
}

/** The stat of a process, or undefined when there is none to read (gone, not Linux, no /proc). */
export function readProcStat(pid: number, proc = '/proc'): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(path.join(proc, String(pid), 'stat'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** A terminal's device number, decoded: its two halves, and its name under /dev for a known kind. */
export interface TtyDevice {
  major: number;
  minor: number;
  /** "pts/3", "tty1", "ttyS0", "tty"; undefined for a device of another kind. */
  name?: string;
}

/**
 * `tty_nr` (ProcStat.ttyNr) decoded, or undefined for 0 (no terminal). The kernel's
 * `new_encode_dev`: major = bits 8-19, minor = bits 0-7 and 20-31.
 */
export function ttyDevice(ttyNr: number): TtyDevice | undefined {
  if (!ttyNr) return undefined;
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >>> 12) & 0xfff00);
  const name =
    major >= 136 && major <= 143 ? `pts/${(major - 136) * 256 + minor}`
    : major === 4 ? (minor < 64 ? `tty${minor}` : `ttyS${minor - 64}`)
    : major === 5 && minor === 0 ? 'tty'
    : undefined;
  return name === undefined ? { major, minor } : { major, minor, name };
}
