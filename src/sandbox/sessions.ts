// Assistants, their agents and live sessions, and each session's own key (#52 F9): the one writer
// of those records. The asking surface (/_ask), the control surface (/_sandbox), the demo and the
// seeded done cards all go through it. The keys are kept in the store, by their hash, beside the
// sessions they guard: a restart of the service keeps a hook's session and its key.
import { randomBytes } from 'node:crypto';
import type { AskTerminal } from '../api/ask-schemas';
import type { Clock } from './context';
import { newId } from './ids';
import type { AgentRec, AssistantRec, SandboxState, SessionRec } from './state';
import { TokenTable } from './store/token-table';

/** A session's key as the store keeps it (under the key's hash). */
export interface SessionKeyRec {
  appSessionId: string;
  at: number;
}

export interface NewAssistant {
  name: string;
  app: string;
  machineId: string;
  hears?: string;
}

export class Sessions {
  private readonly keys: TokenTable<SessionKeyRec>;

  constructor(private readonly state: SandboxState, private readonly clock: Clock) {
    this.keys = new TokenTable(state.store.table<SessionKeyRec>('sessionKey'));
  }

  addAssistant(a: NewAssistant): AssistantRec {
    const rec: AssistantRec = { id: newId('con'), name: a.name, app: a.app, machineId: a.machineId, hears: a.hears ?? 'while-working', createdAt: this.clock.now() };
    this.state.assistants.set(rec.id, rec);
    return rec;
  }

  addAgent(assistantId: string, name: string): AgentRec {
    const rec: AgentRec = { id: newId('agt'), assistantId, name, liveAt: null, createdAt: this.clock.now() };
    this.state.agents.set(rec.id, rec);
    return rec;
  }

  /** The assistant named `name` of `app` on the computer, and its agent `agentName`: made on first use. */
  agentFor(app: string, machineId: string, name: string, agentName: string): AgentRec {
    // Every hook call registers: the tables are walked, not copied into arrays first.
    const assistant = first(this.state.assistants.values(), (a) => a.app === app && a.machineId === machineId && a.name === name)
      ?? this.addAssistant({ name, app, machineId });
    return first(this.state.agents.values(), (a) => a.assistantId === assistant.id && a.name === agentName)
      ?? this.addAgent(assistant.id, agentName);
  }

  /** Registers (or refreshes) the live session `appSessionId` of `agent`. */
  live(agent: AgentRec, appSessionId: string, cwd: string, terminal: AskTerminal | undefined): { session: SessionRec; isNew: boolean } {
    const now = this.clock.now();
    const isNew = !this.state.sessions.has(appSessionId);
    // A key left from before (the session ended, the sandbox was reset) never carries over.
    if (isNew) this.forgetKeys(appSessionId);
    const session: SessionRec = { appSessionId, agentId: agent.id, cwd, ...(terminal ? { terminal } : {}), liveAt: now };
    this.state.sessions.set(appSessionId, session);
    this.agentLive(agent.id, now);
    return { session, isNew };
  }

  /** A new key for the session (its first registration through /_ask); only its hash is kept. */
  newKey(appSessionId: string): string {
    this.forgetKeys(appSessionId);
    const key = `ses_${randomBytes(24).toString('base64url')}`;
    this.keys.set(key, { appSessionId, at: this.clock.now() });
    return key;
  }

  /** Whether the session has a key of its own (it was registered through /_ask and is still live). */
  hasKey(appSessionId: string): boolean {
    if (!this.state.sessions.has(appSessionId)) return false;
    for (const rec of this.keys.values()) if (rec.appSessionId === appSessionId) return true;
    return false;
  }

  /** The live session whose key `key` is, or undefined. */
  sessionOfKey(key: string): string | undefined {
    const rec = this.keys.get(key);
    return rec && this.state.sessions.has(rec.appSessionId) ? rec.appSessionId : undefined;
  }

  /** The session leaves the live list with its key; its agent was live until now. Undefined: none by that id. */
  end(appSessionId: string): SessionRec | undefined {
    this.forgetKeys(appSessionId);
    const rec = this.state.sessions.get(appSessionId);
    if (!rec) return undefined;
    this.state.sessions.delete(appSessionId);
    this.agentLive(rec.agentId, this.clock.now());
    return rec;
  }

  /** The control surface's reset: no assistant, agent, session or key is left. */
  clear(): void {
    this.state.assistants.clear();
    this.state.agents.clear();
    this.state.sessions.clear();
    this.keys.clear();
  }

  private agentLive(agentId: string, at: number): void {
    const agent = this.state.agents.get(agentId);
    if (agent) agent.liveAt = at;
  }

  private forgetKeys(appSessionId: string): void {
    this.keys.deleteWhere((rec) => rec.appSessionId === appSessionId);
  }
}

function first<T>(records: Iterable<T>, wanted: (r: T) => boolean): T | undefined {
  for (const r of records) if (wanted(r)) return r;
  return undefined;
}
