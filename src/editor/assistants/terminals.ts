// The editor side of terminal matching: which live session runs in which of this window's
// terminals. Collects what VS Code knows about each terminal (processId, shell-integration cwd),
// reads the process table once per round when a pid or tty needs it, and asks the pure matcher
// (src/sync/terminal-match.ts). Re-matches when terminals open or close, gain shell integration,
// and when the assistants change.
import * as vscode from 'vscode';
import type { Assistant, LiveSession } from '../../api/schemas';
import type { Event } from '../../sync/contract';
import { CachedProcessTable, matchSessions, type MatchedBy, type SessionFacts, type TerminalFacts } from '../../sync';
import { DisposableBase } from '../base/disposable';
import type { Log } from '../base/log';

export interface SessionMatch {
  terminal: vscode.Terminal;
  by: MatchedBy;
}

export interface MatcherSources {
  assistants(): readonly Assistant[];
  onDidChangeAssistants: Event<readonly Assistant[]>;
  /** This computer's id: sessions of assistants on other computers never match a local terminal. */
  localMachineId(): string | undefined;
}

export class TerminalMatcher extends DisposableBase {
  private readonly keys = new WeakMap<vscode.Terminal, string>();
  private nextKey = 1;
  private matches = new Map<string, SessionMatch>();
  private readonly table: CachedProcessTable;
  private pending: ReturnType<typeof setTimeout> | undefined;
  private round = 0;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** Fires after a match round that changed anything. */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly sources: MatcherSources, private readonly log: Log, table?: CachedProcessTable) {
    super();
    this.table = table ?? new CachedProcessTable();
    const soon = () => this.schedule();
    this._register(vscode.window.onDidOpenTerminal(() => { this.table.invalidate(); soon(); }));
    this._register(vscode.window.onDidCloseTerminal(() => { this.table.invalidate(); soon(); }));
    this._register(vscode.window.onDidChangeTerminalShellIntegration(soon));
    // A new session's first card waits on this round to come into scope (cards-aside.ts): an
    // assistants read is one event, so no debounce for it.
    this._register(sources.onDidChangeAssistants(() => this.schedule(0)));
    this._register({ dispose: () => { if (this.pending) clearTimeout(this.pending); } });
    this.schedule();
  }

  private keyOf(t: vscode.Terminal): string {
    let k = this.keys.get(t);
    if (!k) { k = `t${this.nextKey++}`; this.keys.set(t, k); }
    return k;
  }

  /** Bursts of events (several terminals opening) become one round. */
  schedule(delayMs = 50): void {
    if (this.isDisposed) return;
    if (this.pending) clearTimeout(this.pending);
    this.pending = setTimeout(() => { this.pending = undefined; void this.rematch(); }, delayMs);
  }

  /** One match round. Safe to call at any time; a newer round wins over an older one. */
  async rematch(): Promise<void> {
    const round = ++this.round;
    try {
      const terminals = vscode.window.terminals;
      const facts: TerminalFacts[] = await Promise.all(terminals.map(async (t) => {
        const processId = await Promise.race([t.processId, new Promise<undefined>((r) => setTimeout(() => r(undefined), 2000))]);
        const f: TerminalFacts = { key: this.keyOf(t) };
        if (processId !== undefined) f.processId = processId;
        const cwd = t.shellIntegration?.cwd ?? creationCwd(t);
        if (cwd) f.cwd = cwd.fsPath;
        return f;
      }));
      const sessions = this.localSessions();
      const table = needsTable(sessions, facts) ? await this.table.get() : undefined;
      if (round !== this.round || this.isDisposed) return;
      const result = matchSessions(sessions, facts, table, {
        caseInsensitivePaths: process.platform === 'win32' || process.platform === 'darwin',
      });
      const byKey = new Map(terminals.map((t) => [this.keyOf(t), t] as const));
      const next = new Map<string, SessionMatch>();
      for (const [appSessionId, m] of result) {
        const terminal = byKey.get(m.terminalKey);
        if (terminal) next.set(appSessionId, { terminal, by: m.by });
      }
      const changed = !sameMatches(this.matches, next);
      this.matches = next;
      if (changed) {
        this.log.debug(`terminals: ${next.size} of ${sessions.length} live sessions matched in this window`);
        this._onDidChange.fire();
      }
    } catch (e) {
      this.log.warn(`terminals: matching failed: ${(e as Error).message}`);
    }
  }

  private localSessions(): SessionFacts[] {
    const local = this.sources.localMachineId();
    const out: SessionFacts[] = [];
    for (const a of this.sources.assistants()) {
      if (local && a.machine.id !== local) continue;
      for (const agent of a.agents) for (const s of agent.liveSessions) out.push(sessionFacts(s));
    }
    return out;
  }

  terminalOf(appSessionId: string): SessionMatch | undefined { return this.matches.get(appSessionId); }

  /** Assistants with at least one live session in this window's terminals (workspace scope). */
  assistantIdsInWindow(): string[] {
    const ids = new Set<string>();
    for (const a of this.sources.assistants()) {
      for (const agent of a.agents) {
        if (agent.liveSessions.some((s) => this.matches.has(s.appSessionId))) ids.add(a.id);
      }
    }
    return [...ids];
  }

  /** Assistant ids whose sessions run in the given terminal. */
  assistantIdsIn(terminal: vscode.Terminal): string[] {
    const ids = new Set<string>();
    for (const a of this.sources.assistants()) {
      for (const agent of a.agents) {
        if (agent.liveSessions.some((s) => this.matches.get(s.appSessionId)?.terminal === terminal)) ids.add(a.id);
      }
    }
    return [...ids];
  }

  /** The first matched terminal of an agent, else of its assistant. */
  terminalFor(target: { assistantId?: string; agentId?: string; appSessionId?: string }): vscode.Terminal | undefined {
    if (target.appSessionId) return this.matches.get(target.appSessionId)?.terminal;
    const assistants = this.sources.assistants().filter((a) => !target.assistantId || a.id === target.assistantId);
    const agents = assistants.flatMap((a) => a.agents);
    const preferred = target.agentId ? agents.filter((g) => g.id === target.agentId) : [];
    for (const group of [preferred, target.assistantId ? agents : []]) {
      for (const agent of group) {
        for (const s of agent.liveSessions) {
          const m = this.matches.get(s.appSessionId);
          if (m) return m.terminal;
        }
      }
    }
    return undefined;
  }
}

function creationCwd(t: vscode.Terminal): vscode.Uri | undefined {
  const opts = t.creationOptions as vscode.TerminalOptions;
  if (!opts || !('cwd' in opts) || opts.cwd === undefined) return undefined;
  return typeof opts.cwd === 'string' ? vscode.Uri.file(opts.cwd) : opts.cwd;
}

function sessionFacts(s: LiveSession): SessionFacts {
  const f: SessionFacts = { appSessionId: s.appSessionId, cwd: s.cwd };
  if (s.terminal) {
    f.terminal = {};
    if (s.terminal.pid !== undefined) f.terminal.pid = s.terminal.pid;
    if (s.terminal.tty !== undefined) f.terminal.tty = s.terminal.tty;
  }
  return f;
}

/** The table costs a read of /proc or a process spawn: skip it when every pid matches directly. */
function needsTable(sessions: readonly SessionFacts[], terminals: readonly TerminalFacts[]): boolean {
  const pids = new Set(terminals.map((t) => t.processId));
  return sessions.some((s) => {
    const pid = s.terminal?.pid;
    return pid !== undefined ? !pids.has(pid) : s.terminal?.tty !== undefined;
  });
}

function sameMatches(a: Map<string, SessionMatch>, b: Map<string, SessionMatch>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!w || w.terminal !== v.terminal || w.by !== v.by) return false;
  }
  return true;
}
