// The assistants view (`assistantCards.assistants`): each assistant (live first, as the service
// orders them) with its app and computer, its agents (state, open cards, when live) and their live
// sessions (cwd, and the terminal of this window they run in, or "not in this window").
// A click on an assistant, agent or session shows and focuses its terminal.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Agent, Assistant, LiveSession } from '../../api/schemas';
import { DisposableBase } from '../base/disposable';
import { agentStateWords } from '../../shared/card-view';
import { ago } from '../../shared/format';
import { plainLines, plainText } from '../../shared/plain-text';
import { spokenAgent, spokenAssistant, spokenGoneAssistantItem, spokenSession } from '../../shared/spoken';
import type { TerminalMatcher } from './terminals';
import type { TreeViewSlot } from '../base/tree-view-slot';

export interface AssistantNode { kind: 'assistant'; assistantId: string }
export interface AgentNode { kind: 'agent'; assistantId: string; agentId: string }
export interface SessionNode { kind: 'session'; assistantId: string; agentId: string; appSessionId: string }
/** A CLI of the adapters, connected on this computer (its settings hold our hooks) or not, after the assistants (#54). */
export interface ConnectedCliNode { kind: 'cli'; cli: string }
export type AssistantsTreeNode = AssistantNode | AgentNode | SessionNode | ConnectedCliNode;

/** Every adapter's CLI and whether it is connected now (connect/connected-clis.ts). */
export interface ConnectedClisSource {
  list(): readonly { id: string; name: string; file: string; connected: boolean }[];
  onDidChange: vscode.Event<void>;
}

export const FOCUS_TERMINAL = 'assistantCards.focusTerminal';

export interface AssistantsSource {
  list(): readonly Assistant[];
}

export class AssistantsTree extends DisposableBase implements vscode.TreeDataProvider<AssistantsTreeNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<AssistantsTreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  readonly view: vscode.TreeView<AssistantsTreeNode>;
  // Same object per id, so VS Code keeps expansion and selection across refreshes.
  private readonly nodes = new Map<string, AssistantsTreeNode>();

  constructor(
    private readonly source: AssistantsSource,
    private readonly matcher: TerminalMatcher,
    /** The `assistantCards.assistants` view, made once for the extension's life; this tree is its source while it lives. */
    slot: TreeViewSlot<AssistantsTreeNode>,
    private readonly now: () => number = Date.now,
    private readonly connected?: ConnectedClisSource,
  ) {
    super();
    this.view = slot.view;
    this._register(slot.show(this));
    this._register(matcher.onDidChange(() => this.refresh()));
    if (connected) this._register(connected.onDidChange(() => this.refresh()));
  }

  refresh(): void { this.emitter.fire(undefined); }

  private node<T extends AssistantsTreeNode>(id: string, make: () => T): T {
    let n = this.nodes.get(id);
    if (!n) { n = make(); this.nodes.set(id, n); }
    return n as T;
  }

  private find(n: Exclude<AssistantsTreeNode, ConnectedCliNode>): { assistant?: Assistant; agent?: Agent; session?: LiveSession } {
    const assistant = this.source.list().find((a) => a.id === n.assistantId);
    if (n.kind === 'assistant' || !assistant) return { assistant };
    const agent = assistant.agents.find((g) => g.id === n.agentId);
    if (n.kind === 'agent' || !agent) return { assistant, agent };
    return { assistant, agent, session: agent.liveSessions.find((s) => s.appSessionId === n.appSessionId) };
  }

  getChildren(el?: AssistantsTreeNode): AssistantsTreeNode[] {
    if (!el) {
      return [
        ...this.source.list().map((a) => this.node<AssistantsTreeNode>(`a:${a.id}`, () => ({ kind: 'assistant', assistantId: a.id }))),
        ...(this.connected?.list() ?? []).map((c) => this.node<AssistantsTreeNode>(`c:${c.id}`, () => ({ kind: 'cli', cli: c.id }))),
      ];
    }
    if (el.kind === 'cli') return [];
    const { assistant, agent } = this.find(el);
    if (el.kind === 'assistant' && assistant) {
      return assistant.agents.map((g) => this.node(`g:${assistant.id}/${g.id}`,
        () => ({ kind: 'agent', assistantId: assistant.id, agentId: g.id })));
    }
    if (el.kind === 'agent' && assistant && agent) {
      return agent.liveSessions.map((s) => this.node(`s:${assistant.id}/${agent.id}/${s.appSessionId}`,
        () => ({ kind: 'session', assistantId: assistant.id, agentId: agent.id, appSessionId: s.appSessionId })));
    }
    return [];
  }

  getParent(el: AssistantsTreeNode): AssistantsTreeNode | undefined {
    if (el.kind === 'assistant' || el.kind === 'cli') return undefined;
    if (el.kind === 'agent') return this.nodes.get(`a:${el.assistantId}`);
    return this.nodes.get(`g:${el.assistantId}/${el.agentId}`);
  }

  getTreeItem(el: AssistantsTreeNode): vscode.TreeItem {
    if (el.kind === 'cli') return this.cliItem(el);
    const { assistant, agent, session } = this.find(el);
    const gone = (text: string): vscode.TreeItem => {
      const item = new vscode.TreeItem(text);
      item.accessibilityInformation = { label: spokenGoneAssistantItem(el.kind) };
      return item;
    };
    const focus = (terminal: vscode.Terminal | undefined): vscode.Command | undefined =>
      terminal ? { command: FOCUS_TERMINAL, title: vscode.l10n.t('Go to terminal'), arguments: [el] } : undefined;

    if (el.kind === 'assistant') {
      if (!assistant) return gone(vscode.l10n.t('(gone)'));
      const live = assistant.agents.some((g) => g.state === 'live' || g.liveSessions.length > 0);
      const terminal = this.matcher.terminalFor({ assistantId: assistant.id });
      const item = new vscode.TreeItem(plainText(assistant.name, 80) || vscode.l10n.t('(no name)'),
        assistant.agents.length ? (live ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed)
          : vscode.TreeItemCollapsibleState.None);
      // VS Code keeps an item's expansion by its id and applies collapsibleState only to an id it
      // has not seen: an assistant first shown idle (collapsed) would stay shut when it goes
      // live. Live and idle are two ids, so one that comes alive opens with its live sessions.
      item.id = `a:${assistant.id}${live ? ':live' : ''}`;
      const open = assistant.agents.reduce((n, g) => n + g.openCards, 0);
      // Short enough for a narrow side bar; the open count is on each agent and in the tooltip.
      item.description = [plainText(assistant.appName || assistant.app, 40), plainText(assistant.machine.name, 40)].filter(Boolean).join(' · ');
      item.iconPath = new vscode.ThemeIcon(live ? 'circle-filled' : 'circle-outline',
        live ? new vscode.ThemeColor('charts.green') : undefined);
      // A plain string: a MarkdownString would render links and icons from these names.
      item.tooltip = plainLines([
        open === 1
          ? vscode.l10n.t('{0} ({1}) on {2}, 1 open card', plainText(assistant.name, 200), plainText(assistant.appName || assistant.app, 80), plainText(assistant.machine.name, 80))
          : vscode.l10n.t('{0} ({1}) on {2}, {3} open cards', plainText(assistant.name, 200), plainText(assistant.appName || assistant.app, 80), plainText(assistant.machine.name, 80), open),
        terminal ? vscode.l10n.t('Runs in terminal "{0}" of this window', plainText(terminal.name, 80)) : vscode.l10n.t('Not in a terminal of this window'),
      ]);
      item.accessibilityInformation = { label: spokenAssistant(assistant, terminal?.name) };
      item.contextValue = terminal ? 'assistant assistant:terminal' : 'assistant';
      item.command = focus(terminal);
      return item;
    }

    if (el.kind === 'agent') {
      if (!agent) return gone(vscode.l10n.t('(gone)'));
      const terminal = this.matcher.terminalFor({ assistantId: el.assistantId, agentId: agent.id });
      const live = agent.liveSessions.length > 0;
      const item = new vscode.TreeItem(plainText(agent.name, 80) || vscode.l10n.t('(no name)'), live
        ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `g:${el.assistantId}/${agent.id}${live ? ':live' : ''}`; // as for the assistant
      const state = plainText(agentStateWords(agent.state), 20);
      // `state`: ours for the states we know, else the service's word (an open set); ours are whole messages.
      const when = agent.state === 'live' ? vscode.l10n.t('live') : agent.liveAt ? vscode.l10n.t('{0}, last live {1}', state, ago(agent.liveAt, this.now())) : state;
      const open = agent.openCards === 1 ? vscode.l10n.t('1 open card') : vscode.l10n.t('{0} open cards', agent.openCards);
      item.description = [when, open].join(' · ');
      item.iconPath = new vscode.ThemeIcon(agent.state === 'live' ? 'pulse' : 'person');
      item.tooltip = vscode.l10n.t('{0}: {1}, {2}', plainText(agent.name, 200), when, open);
      item.accessibilityInformation = { label: spokenAgent(agent, this.now()) };
      item.contextValue = terminal ? 'agent assistant:terminal' : 'agent';
      item.command = focus(terminal);
      return item;
    }

    if (!session) return gone(vscode.l10n.t('(ended)'));
    const match = this.matcher.terminalOf(session.appSessionId);
    const item = new vscode.TreeItem(plainText(path.basename(session.cwd) || session.cwd, 80) || vscode.l10n.t('(no folder)'), vscode.TreeItemCollapsibleState.None);
    item.id = `s:${el.assistantId}/${el.agentId}/${session.appSessionId}`;
    item.description = match ? vscode.l10n.t('terminal "{0}"', plainText(match.terminal.name, 60)) : vscode.l10n.t('not in this window');
    item.iconPath = new vscode.ThemeIcon(match ? 'terminal' : 'debug-disconnect');
    const t = session.terminal;
    item.tooltip = plainLines([
      plainText(session.cwd, 300),
      t?.pid !== undefined ? vscode.l10n.t('shell pid {0}', plainText(String(t.pid), 20)) : '',
      t?.tty ? vscode.l10n.t('tty {0}', plainText(t.tty, 60)) : '',
      t?.program ? vscode.l10n.t('in {0}', plainText(t.program, 60)) : '',
      match ? vscode.l10n.t('matched to "{0}" by {1}', plainText(match.terminal.name, 80), match.by) : vscode.l10n.t('no terminal of this window matches'),
      vscode.l10n.t('live {0}', ago(session.liveAt, this.now())),
    ]);
    item.accessibilityInformation = { label: spokenSession(session, match?.terminal.name, this.now()) };
    item.contextValue = match ? 'session assistant:terminal' : 'session';
    item.command = focus(match?.terminal);
    return item;
  }

  /**
   * A CLI of the adapters: its name, "connected" or "not connected", and the file its hooks are
   * (or would be) in. Its inline action is Disconnect or Connect, by `contextValue` (package.json).
   */
  private cliItem(el: ConnectedCliNode): vscode.TreeItem {
    const cli = this.connected?.list().find((c) => c.id === el.cli);
    if (!cli) {
      const gone = new vscode.TreeItem(vscode.l10n.t('(not connected)'));
      gone.accessibilityInformation = { label: vscode.l10n.t('A CLI that is no longer connected') };
      return gone;
    }
    const name = plainText(cli.name, 60);
    const file = plainText(cli.file, 300);
    const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
    item.id = `c:${cli.id}`;
    if (cli.connected) {
      item.description = vscode.l10n.t('connected');
      item.iconPath = new vscode.ThemeIcon('plug');
      item.tooltip = plainLines([
        vscode.l10n.t('{0} is connected: it asks here as cards.', name),
        vscode.l10n.t('Its hooks of Assistant Cards are in {0}.', file),
      ]);
      item.accessibilityInformation = { label: vscode.l10n.t('{0}, connected to Assistant Cards', name) };
      item.contextValue = `cli cli:connected cli:${cli.id}`;
    } else {
      item.description = vscode.l10n.t('not connected');
      item.iconPath = new vscode.ThemeIcon('debug-disconnect');
      item.tooltip = plainLines([
        vscode.l10n.t('{0} is not connected: what it asks stays in its terminal.', name),
        vscode.l10n.t('Connect adds hooks of Assistant Cards to {0}, after showing you the change.', file),
      ]);
      item.accessibilityInformation = { label: vscode.l10n.t('{0}, not connected to Assistant Cards', name) };
      item.contextValue = `cli cli:notConnected cli:${cli.id}`;
    }
    return item;
  }
}
