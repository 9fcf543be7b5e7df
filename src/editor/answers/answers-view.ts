// The Answers view (`assistantCards.answers`): every card answered, handed over, put off, undone
// or closed in the last 30 days, newest first: what was asked, what was answered, who and from
// where, when, and how long it waited. Each row opens to its steps. The first page is read when
// the view shows, more on "Load more"; the search and the parts the service refused are told in
// the view. Card words are plain text everywhere (plainText / plainLines).
import * as vscode from 'vscode';
import type { Me } from '../../api/schemas';
import type { ClientCore } from '../../sync';
import type { AnswerRow, AnswerSearch, AnswerStep, Outcome, SearchProgress, WhoKey } from '../../sync';
import { isSearchEmpty, whoKey } from '../../sync';
import { CONTEXT, type ContextKeys } from '../context-keys';
import { DisposableBase } from '../base/disposable';
import type { Log } from '../base/log';
import { answerWords, outcomeWords, searchWords, waitedWords, whenWords, whoKeyWords, whoWords } from './answer-words';
import { plainLines, plainText } from '../../shared/plain-text';
import type { TreeViewSlot } from '../base/tree-view-slot';

export interface RowNode { kind: 'row'; id: string }
export interface StepNode { kind: 'step'; id: string; index: number }
export interface MoreNode { kind: 'more' }
export interface ProblemNode { kind: 'problem'; index: number }
export type AnswersNode = RowNode | StepNode | MoreNode | ProblemNode;

const ICONS: Partial<Record<Outcome, [string, string?]>> = {
  answered: ['pass', 'charts.green'], 'got-it': ['pass', 'charts.green'], 'helper-answered': ['person', 'charts.blue'],
  proposal: ['person', 'charts.blue'], 'handed-over': ['person-add'], 'put-off': ['clock'], undone: ['discard', 'charts.yellow'],
  words: ['comment'], resolved: ['zap'], withdrawn: ['circle-slash'], closed: ['circle-slash'],
};

type Dim = 'assistant' | 'area' | 'machine' | 'app';

/**
 * Names of ids the search offers and shows, from the rows read: the assistants, areas, computers
 * (asking or answering) and apps (the answer's, by its `app_` id; the asking assistant's, by the
 * spec's app name).
 */
export function namesOf(rows: readonly AnswerRow[]): Record<Dim, Map<string, string>> {
  const n = { assistant: new Map<string, string>(), area: new Map<string, string>(), machine: new Map<string, string>(), app: new Map<string, string>() };
  for (const r of rows) {
    if (r.assistant) { n.assistant.set(r.assistant.id, r.assistant.name); n.app.set(r.assistant.app, r.assistant.app); }
    if (r.area) n.area.set(r.area.id, r.area.name);
    if (r.machine) n.machine.set(r.machine.id, r.machine.name);
    if (r.who.kind === 'person' && r.who.machine) n.machine.set(r.who.machine.id, r.who.machine.name);
    if (r.who.kind === 'person' && r.who.appId) n.app.set(r.who.appId, r.who.appName ?? r.who.appId);
  }
  return n;
}

export class AnswersTree extends DisposableBase implements vscode.TreeDataProvider<AnswersNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<AnswersNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  readonly view: vscode.TreeView<AnswersNode>;
  private readonly rowNodes = new Map<string, RowNode>();
  /** The "Load more" row (tests reveal it: the list draws only the rows in sight). */
  readonly moreNode: MoreNode = { kind: 'more' };
  /** How many tree items were made (the bench's figure). */
  renderedItems = 0;
  /** The sign-in as /v1/me last said (the export's header), kept while offline. */
  me: Me | undefined;

  constructor(
    private readonly core: Pick<ClientCore, 'answers' | 'state'>,
    private readonly log: Log,
    slot: TreeViewSlot<AnswersNode>,
    private readonly showing: () => boolean,
    private readonly timeZone: () => string,
    private readonly contextKeys: ContextKeys,
  ) {
    super();
    this.view = slot.view;
    this._register(slot.show(this));
    this._register(core.answers.changed(({ ids }) => {
      // Rows already drawn change alone; anything else (a new row, a search, a page) redraws the list.
      if (ids && ids.every((id) => this.rowNodes.has(id))) {
        this.updateWords();
        for (const id of ids) this.emitter.fire(this.rowNodes.get(id));
      } else this.refreshAll();
    }));
    // Read when the person looks at it, not before: paging through history costs reads.
    this._register(this.view.onDidChangeVisibility((e) => { if (e.visible) this.startIfShown(); }));
    this.refreshAll();
    this.startIfShown();
  }

  /**
   * Read when the view is on screen and the service answers: not at start-up behind a hidden or
   * collapsed view, and not while offline (a start-up read then would only keep its failure).
   */
  private startIfShown(): void {
    if (this.view.visible && this.core.state.kind === 'online' && !this.core.answers.started()) void this.load(() => this.core.answers.loadFirst());
  }

  async load(step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (e) {
      this.log.warn(`answers: ${String(e)}`);
    }
  }

  /** Signed in or out, a search, a page: every row again, and the view's words. */
  refreshAll(): void {
    if (this.core.state.kind === 'online') this.me = this.core.state.me;
    if (!this.showing()) {
      this.view.description = undefined;
      this.view.message = undefined;
      this.contextKeys.set(CONTEXT.answersSearched, false);
    } else this.updateWords();
    this.emitter.fire(undefined);
  }

  private updateWords(): void {
    const a = this.core.answers;
    const search = a.getSearch();
    const searched = !isSearchEmpty(search);
    this.contextKeys.set(CONTEXT.answersSearched, searched);
    const all = a.all().length;
    const shown = a.visible().length;
    const progress = a.searchProgress();
    if (searched && progress) {
      const names = namesOf(a.all());
      const words = plainText(searchWords(search, (dim, id) => names[dim].get(id) ?? id), 100);
      const read = progressWords(progress);
      this.view.description = vscode.l10n.t('{0} of {1} · {2} · {3}', shown, all, words, read);
      this.view.message = shown > 0 || a.loading() || progress.running ? undefined
        : progress.daysRead >= progress.days && !a.hasMore()
          ? vscode.l10n.t('No answer of the last {0} days matches: {1}. Clear the search to see them all.', progress.days, words)
          : vscode.l10n.t('No answer read so far matches: {0} ({1}). Search further back, or clear the search.', words, read);
    } else {
      this.view.description = a.started() ? vscode.l10n.t('{0} in 30 days{1}', all, a.hasMore() ? '+' : '') : undefined;
      this.view.message = a.started() && !a.loading() && all === 0 && !a.hasMore() && a.problems().length === 0
        ? vscode.l10n.t('No card was answered, handed over, put off, undone or closed in the last 30 days.')
        : undefined;
    }
  }

  getChildren(el?: AnswersNode): AnswersNode[] {
    if (el?.kind === 'row') return (this.core.answers.get(el.id)?.steps ?? []).map((_s, index) => ({ kind: 'step', id: el.id, index }));
    if (el) return [];
    if (!this.showing()) return [];
    if (!this.core.answers.started()) { this.startIfShown(); return []; }
    const a = this.core.answers;
    const rows = a.visible().map((r) => this.rowNode(r.id));
    const problems = a.problems().map((_p, index): ProblemNode => ({ kind: 'problem', index }));
    // A refused part stands above the rows: the list is not whole, and the person is told why.
    return [...problems, ...rows, ...(a.hasMore() || a.loading() ? [this.moreNode] : [])];
  }

  getParent(el: AnswersNode): AnswersNode | undefined {
    return el.kind === 'step' ? this.rowNodes.get(el.id) : undefined;
  }

  private rowNode(id: string): RowNode {
    let n = this.rowNodes.get(id);
    if (!n) { n = { kind: 'row', id }; this.rowNodes.set(id, n); }
    return n;
  }

  getTreeItem(el: AnswersNode): vscode.TreeItem {
    this.renderedItems++;
    switch (el.kind) {
      case 'more': return this.moreItem();
      case 'problem': return this.problemItem(el.index);
      case 'step': return this.stepItem(el);
      case 'row': return this.rowItem(el.id);
    }
  }

  private rowItem(id: string): vscode.TreeItem {
    const r = this.core.answers.get(id);
    const item = new vscode.TreeItem(vscode.l10n.t('(gone)'), vscode.TreeItemCollapsibleState.None);
    item.id = `answer:${id}`;
    if (!r) return item;
    item.label = plainText(r.title, 80) || vscode.l10n.t('(no title)');
    item.collapsibleState = r.steps.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
    const w = rowWords(r, this.timeZone());
    item.description = r.whole
      ? plainText([w.what, w.who, w.when, w.waited ? vscode.l10n.t('waited {0}', w.waited) : ''].filter(Boolean).join(' · '), 200)
      : vscode.l10n.t('not read: who and what are not known');
    item.tooltip = plainLines([
      vscode.l10n.t('Asked: {0}', plainText(r.title, 500)),
      r.whole ? vscode.l10n.t('Outcome: {0}', outcomeWords(r.outcome)) : vscode.l10n.t('The service did not give this card whole: who and what are not known.'),
      w.what ? vscode.l10n.t('Answer: {0}', plainText(w.what, 500)) : undefined,
      r.whole ? vscode.l10n.t('Who: {0}', plainText(w.who, 200)) : undefined,
      w.when ? vscode.l10n.t('When: {0}', w.when) : undefined,
      w.waited ? vscode.l10n.t('Waited: {0}', w.waited) : undefined,
      r.assistant ? vscode.l10n.t('Assistant: {0}', plainText(r.assistant.name, 80)) : undefined,
      r.area ? vscode.l10n.t('Area: {0}', plainText(r.area.name, 80)) : undefined,
      r.machine ? vscode.l10n.t('Asked on: {0}', plainText(r.machine.name, 80)) : undefined,
    ]);
    const [icon, color] = ICONS[r.outcome] ?? ['question'];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = `answer answer:${whoKey(r.who)}`;
    item.accessibilityInformation = {
      label: plainText([r.title, outcomeWords(r.outcome), w.what, w.who, w.when, w.waited ? vscode.l10n.t('waited {0}', w.waited) : ''].filter(Boolean).join(', '), 400),
    };
    item.command = { command: 'assistantCards.openCard', title: vscode.l10n.t('Open card'), arguments: [this.rowNode(id)] };
    return item;
  }

  private stepItem(el: StepNode): vscode.TreeItem {
    const s: AnswerStep | undefined = this.core.answers.get(el.id)?.steps[el.index];
    const item = new vscode.TreeItem(s ? stepLabel(s) : vscode.l10n.t('(gone)'), vscode.TreeItemCollapsibleState.None);
    item.id = `answer:${el.id}:${el.index}`;
    if (!s) return item;
    item.description = plainText([whoWords(s.who), whenWords(s.at, this.timeZone()), s.detail && s.outcome !== 'put-off' ? s.detail : ''].filter(Boolean).join(' · '), 200);
    item.tooltip = plainLines([stepLabel(s), item.description]);
    item.accessibilityInformation = { label: plainText(vscode.l10n.t('{0}, {1}', stepLabel(s), String(item.description ?? '')), 300) };
    return item;
  }

  private moreItem(): vscode.TreeItem {
    const progress = this.core.answers.searchProgress();
    if (progress?.running) {
      // The search reads on: how far back, and one press stops it.
      const item = new vscode.TreeItem(progressWords(progress), vscode.TreeItemCollapsibleState.None);
      item.id = 'answers:more';
      item.description = vscode.l10n.t('press to stop');
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      item.contextValue = 'answers:searching';
      item.command = { command: 'assistantCards.stopAnswerSearch', title: vscode.l10n.t('Stop searching') };
      return item;
    }
    if (progress) {
      const item = new vscode.TreeItem(vscode.l10n.t('Search further back'), vscode.TreeItemCollapsibleState.None);
      item.id = 'answers:more';
      item.description = progressWords(progress);
      item.iconPath = new vscode.ThemeIcon('search');
      item.contextValue = 'answers:more';
      item.command = { command: 'assistantCards.loadMoreAnswers', title: vscode.l10n.t('Search further back') };
      return item;
    }
    const loading = this.core.answers.loading();
    const item = new vscode.TreeItem(loading ? vscode.l10n.t('Loading…') : vscode.l10n.t('Load more'), vscode.TreeItemCollapsibleState.None);
    item.id = 'answers:more';
    item.iconPath = new vscode.ThemeIcon(loading ? 'loading~spin' : 'fold-down');
    item.contextValue = 'answers:more';
    if (!loading) item.command = { command: 'assistantCards.loadMoreAnswers', title: vscode.l10n.t('Load more') };
    return item;
  }

  private problemItem(index: number): vscode.TreeItem {
    const p = this.core.answers.problems()[index];
    const item = new vscode.TreeItem(
      p?.what === 'card' ? vscode.l10n.t('A card could not be read whole')
        : p?.what === 'open' ? vscode.l10n.t('Cards put off, handed over or undone could not be read')
          : vscode.l10n.t('The service refused part of the answers'),
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = `answers:problem:${index}`;
    item.description = p ? plainText(vscode.l10n.t('{0}: {1}', p.code, p.message), 160) : undefined;
    item.tooltip = p ? plainLines([
      p.what === 'card' ? vscode.l10n.t('The card {0} came without its history: who and what are not known.', plainText(p.id ?? '', 60))
        : p.what === 'open' ? vscode.l10n.t('Cards still open (in Later, with a helper, waiting again) may be missing. Refresh asks again.')
          : vscode.l10n.t('Older answers may be missing below. Load more asks again from where it stopped.'),
      vscode.l10n.t('{0}: {1}', p.code, p.message),
    ]) : undefined;
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    item.contextValue = 'answers:problem';
    if (p?.what === 'page') item.command = { command: 'assistantCards.loadMoreAnswers', title: vscode.l10n.t('Try again') };
    return item;
  }

  /** Whether `arg` is a row node this tree handed to VS Code (the person clicked the row). */
  owns(arg: unknown): arg is RowNode {
    return typeof arg === 'object' && arg !== null && this.rowNodes.get((arg as Partial<RowNode>).id ?? '') === arg;
  }

  setSearch(s: AnswerSearch): void {
    this.core.answers.setSearch(s);
  }
}

/** "searching… 12 of 30 days read", or where a stopped or finished search got to. */
function progressWords(p: SearchProgress): string {
  if (p.running) return vscode.l10n.t('searching… {0} of {1} days read', p.daysRead, p.days);
  if (p.stopped) return vscode.l10n.t('stopped: {0} of {1} days read', p.daysRead, p.days);
  return vscode.l10n.t('{0} of {1} days read', p.daysRead, p.days);
}

function stepLabel(s: AnswerStep): string {
  return s.outcome === 'unknown' ? vscode.l10n.t('unknown ({0})', plainText(s.type, 40)) : outcomeWords(s.outcome);
}

/** The words of a row: what, who, when, waited. */
export function rowWords(r: AnswerRow, timeZone: string): { what: string; who: string; when: string; waited: string } {
  const answer = answerWords(r.answer, r.outcome);
  const outcome = outcomeWords(r.outcome);
  return {
    what: answer && r.outcome === 'answered' ? answer : answer ? vscode.l10n.t('{0}: {1}', outcome, answer) : outcome,
    who: whoWords(r.who),
    when: whenWords(r.at, timeZone),
    waited: waitedWords(r.waitedMs),
  };
}

type SearchDim = 'assistants' | 'areas' | 'machines' | 'apps' | 'who';
type SearchItem = vscode.QuickPickItem & { dim?: SearchDim; value?: string };

/**
 * The search, in two steps: words (in the question, the answer, or the names of its assistant,
 * area, computer and app), then any assistants, areas, computers, apps and who. The values offered
 * are every one of the 30 days: from the moment the second step shows, the rest of the 30 days is read
 * (as a search reads on, under its share of the reads), and the pick fills in as they come, saying
 * how far it got. Closing it stops the reading; Esc at either step keeps the search as it was.
 */
export async function pickAnswerSearch(tree: AnswersTree, core: Pick<ClientCore, 'answers'>): Promise<void> {
  const reading = new AbortController();
  try {
    const cur = core.answers.getSearch();
    const words = await vscode.window.showInputBox({
      title: vscode.l10n.t('Search answers (1/2): words in the question or the answer'),
      prompt: vscode.l10n.t('Also the names of the assistant, area, computer and app. Empty: any words. Next: pick assistants, areas, computers, apps or who.'),
      value: cur.words ?? '',
      ignoreFocusOut: true,
    });
    if (words === undefined) return;
    const read = core.answers.readAll({ signal: reading.signal, scan: true }).catch(() => false);
    const picked = await pickValues(core, cur, read);
    if (!picked) return;
    const of = (dim: SearchDim) => picked.filter((p) => p.dim === dim && p.value).map((p) => p.value!);
    const next: AnswerSearch = {
      ...(words.trim() ? { words: words.trim() } : {}),
      ...(of('assistants').length ? { assistants: of('assistants') } : {}),
      ...(of('areas').length ? { areas: of('areas') } : {}),
      ...(of('machines').length ? { machines: of('machines') } : {}),
      ...(of('apps').length ? { apps: of('apps') } : {}),
      ...(of('who').length ? { who: of('who') as AnswerSearch['who'] } : {}),
    };
    tree.setSearch(next);
  } finally {
    // The search set reads on by itself; this reading was for the pick's values.
    reading.abort();
  }
}

/** The second step: one pick of many, filled in while the 30 days are read. Undefined on Esc. */
async function pickValues(core: Pick<ClientCore, 'answers'>, cur: AnswerSearch, read: Promise<boolean>): Promise<readonly SearchItem[] | undefined> {
  const qp = vscode.window.createQuickPick<SearchItem>();
  qp.canSelectMany = true;
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  const title = vscode.l10n.t('Search answers (2/2): assistants, areas, computers, apps, who (none picked: any)');
  // One item per value, kept: the pick keeps what is ticked while more values come in.
  const known = new Map<string, SearchItem>();
  const itemOf = (dim: SearchDim, value: string, name: string): SearchItem => {
    const key = `${dim}\u0000${value}`;
    let item = known.get(key);
    if (!item) {
      item = { label: plainText(name, 80) || plainText(value, 80), description: plainText(value, 80), dim, value };
      known.set(key, item);
    }
    return item;
  };
  const whoKeys: WhoKey[] = ['person', 'phone', 'helper', 'webhook', 'assistant', 'service', 'unknown'];
  const build = (): SearchItem[] => {
    const names = namesOf(core.answers.all());
    const items: SearchItem[] = [];
    const section = (label: string, dim: SearchDim, entries: [string, string][]) => {
      if (!entries.length) return;
      items.push({ label, kind: vscode.QuickPickItemKind.Separator });
      for (const [value, name] of entries.sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]))) items.push(itemOf(dim, value, name));
    };
    section(vscode.l10n.t('Assistant'), 'assistants', [...names.assistant]);
    section(vscode.l10n.t('Area'), 'areas', [...names.area]);
    section(vscode.l10n.t('Computer'), 'machines', [...names.machine]);
    section(vscode.l10n.t('App'), 'apps', [...names.app]);
    section(vscode.l10n.t('Who'), 'who', whoKeys.map((k) => [k, whoKeyWords(k)]));
    return items;
  };
  let reading = true;
  let shown = '';
  const show = (): void => {
    const p = core.answers.readProgress();
    qp.busy = reading && !p.whole;
    qp.title = p.whole ? title : reading
      ? vscode.l10n.t('{0} · reading the 30 days for more: {1} of {2} days read', title, p.daysRead, p.days)
      : vscode.l10n.t('{0} · values of {1} of {2} days read', title, p.daysRead, p.days);
    // The items change only when a value comes that was not there: a person ticking one is not
    // undone by a redraw for every page read.
    const items = build();
    const values = items.map((i) => `${i.dim ?? ''}\u0000${i.value ?? i.label}`).join('\u0001');
    if (values === shown) return;
    shown = values;
    const selected = qp.selectedItems;
    const active = qp.activeItems;
    qp.items = items;
    qp.selectedItems = selected;
    qp.activeItems = active;
  };
  show();
  // What the search held is ticked at first.
  const was: Record<SearchDim, readonly string[] | undefined> = { assistants: cur.assistants, areas: cur.areas, machines: cur.machines, apps: cur.apps, who: cur.who };
  qp.selectedItems = qp.items.filter((i) => i.dim && i.value && was[i.dim]?.includes(i.value));
  const sub = core.answers.changed(() => show());
  void read.then(() => { reading = false; show(); });
  try {
    return await new Promise<readonly SearchItem[] | undefined>((resolve) => {
      qp.onDidAccept(() => { resolve(qp.selectedItems); qp.hide(); });
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
  } finally {
    sub.dispose();
    qp.dispose();
  }
}
