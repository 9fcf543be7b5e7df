// The person's card filter, picked in one quick pick: areas, assistants, agents, apps, computers
// and one thread. The choices come from the running assistants (complete even while the list
// holds light entries) and from the cards held; the filter itself goes to the service as the
// list's query filters (src/sync/card-filter.ts), so light entries are filtered right too.
import * as vscode from 'vscode';
import type { Card } from '../../api/schemas';
import { LIVE_GROUPS, type ClientCore } from '../../sync';
import type { CardFilter } from '../../sync';
import type { CardsTree } from './cards-tree';
import { say } from '../base/say';
import { plainText } from '../../shared/plain-text';

type Dim = 'areas' | 'assistants' | 'agents' | 'apps' | 'machines' | 'threadId';

/** Every value the filter can offer now, by dimension: id -> what the person reads. */
export interface FilterChoices {
  areas: Map<string, string>;
  assistants: Map<string, string>;
  agents: Map<string, string>;
  apps: Map<string, string>;
  machines: Map<string, string>;
  threads: Map<string, string>;
}

export function filterChoices(core: Pick<ClientCore, 'cards' | 'assistants'>): FilterChoices {
  const c: FilterChoices = {
    areas: new Map(), assistants: new Map(), agents: new Map(), apps: new Map(), machines: new Map(), threads: new Map(),
  };
  for (const a of core.assistants.list()) {
    c.assistants.set(a.id, a.name);
    c.apps.set(a.app, a.appName || a.app);
    c.machines.set(a.machine.id, a.machine.name);
    for (const g of a.agents) c.agents.set(g.id, `${g.name} (${a.name})`);
  }
  for (const g of LIVE_GROUPS) {
    for (const entry of core.cards.list(g)) {
      const w = entry as Card;
      if (w.area) c.areas.set(w.area.id, w.area.name);
      if (w.webhook?.area) c.areas.set(w.webhook.area.id, w.webhook.area.name);
      if (w.assistant) {
        if (!c.assistants.has(w.assistant.id)) c.assistants.set(w.assistant.id, w.assistant.name);
        if (!c.apps.has(w.assistant.app)) c.apps.set(w.assistant.app, w.assistant.app);
      }
      if (w.kind === 'update') c.apps.set('webhook', 'webhook');
      if (w.agent && !c.agents.has(w.agent.id)) c.agents.set(w.agent.id, w.agent.name);
      if (w.machine && !c.machines.has(w.machine.id)) c.machines.set(w.machine.id, w.machine.name);
      // A thread is named by its first card's title, when that card is held.
      if (w.threadId && (!c.threads.has(w.threadId) || w.id === w.threadId)) c.threads.set(w.threadId, w.title);
    }
  }
  return c;
}

type Item = vscode.QuickPickItem & { dim?: Dim; value?: string };

/** Asks for the filter; sets it on the tree (and so on the service's list reads). */
export async function pickFilter(core: ClientCore, tree: CardsTree): Promise<void> {
  const choices = filterChoices(core);
  const cur = tree.getFilter();
  const isPicked = (dim: Dim, value: string) => (dim === 'threadId' ? cur.threadId === value : (cur[dim] ?? []).includes(value));
  const items: Item[] = [];
  const section = (label: string, dim: Dim, entries: Map<string, string>) => {
    if (!entries.size) return;
    items.push({ label, kind: vscode.QuickPickItemKind.Separator });
    for (const [value, name] of entries) {
      items.push({ label: plainText(name, 80) || plainText(value, 80), description: plainText(value, 80), dim, value, picked: isPicked(dim, value) });
    }
  };
  section(vscode.l10n.t('Area'), 'areas', choices.areas);
  section(vscode.l10n.t('Assistant'), 'assistants', choices.assistants);
  section(vscode.l10n.t('Agent'), 'agents', choices.agents);
  section(vscode.l10n.t('App'), 'apps', choices.apps);
  section(vscode.l10n.t('Computer'), 'machines', choices.machines);
  section(vscode.l10n.t('Thread (one)'), 'threadId', choices.threads);
  if (!items.length) { void say.info(vscode.l10n.t('Assistant Cards: nothing to filter by yet.')); return; }
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: vscode.l10n.t('Filter cards (none picked: show all)') });
  if (!picked) return;
  const f = filterOf(picked);
  if (picked.filter((p) => p.dim === 'threadId').length > 1) {
    void say.info(vscode.l10n.t('Assistant Cards: one thread at a time; showing the first picked.'));
  }
  try {
    await tree.setFilter(f);
  } catch (e) {
    // The whole cards are still filtered here; light ones stay shown until the service answers.
    void say.warn(vscode.l10n.t('Assistant Cards: could not ask the service for the filtered cards ({0}).', plainText((e as Error).message, 200)));
  }
}

/** The filter the picked rows say (the first thread only: the service takes one). */
export function filterOf(picked: readonly { dim?: Dim; value?: string }[]): CardFilter {
  const f: { -readonly [K in keyof CardFilter]: K extends 'threadId' ? string : string[] } = {};
  for (const p of picked) {
    if (!p.dim || !p.value) continue;
    if (p.dim === 'threadId') f.threadId ??= p.value;
    else (f[p.dim] ??= []).push(p.value);
  }
  return f;
}
