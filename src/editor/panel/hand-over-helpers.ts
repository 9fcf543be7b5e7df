// The helpers a hand-over in the card panel may name: the assistants in reach, read afresh, as the
// webview's `loadAssistants` reply lists them (names and states, nothing else of the service's).
import type { Card } from '../../api/schemas';
import type { ClientCore } from '../../sync';
import { helperChoices } from '../../shared/hand-over';
import { problemMessage } from '../../shared/problem-messages';
import type { PanelReply } from './panel-reply';

/** The reply to `loadAssistants` for `card` (as shown), or the problem that kept the list from being read. */
export async function helpersReply(core: ClientCore, card: Card | undefined, requestId: string): Promise<PanelReply> {
  try {
    await core.assistants.refresh();
    // The asking assistant is never its own helper (a delegated card's helper is named from this list too).
    const list = card?.status === 'delegated' ? core.assistants.list() : helperChoices(core.assistants.list(), card);
    return {
      type: 'assistants', requestId,
      assistants: list.map((a) => ({
        id: a.id, name: a.name, appName: a.appName,
        agents: a.agents.map((g) => ({ id: g.id, name: g.name, state: g.state })),
      })),
    };
  } catch (e) {
    return { type: 'problem', requestId, problem: problemMessage((e as { code?: string }).code ?? 'offline') };
  }
}
