// What the card panels keep in the workspace's state, per card: the draft the person was typing,
// and the words they sent (the history names a message by its id only). Outlives the panels and
// the window, so a reload or a panel opened again shows both.
import type * as vscode from 'vscode';
import type { Draft } from '../../shared/protocol';

export const draftKey = (cardId: string) => `assistantCards.draft.${cardId}`;
const sentWordsKey = (cardId: string) => `assistantCards.sentWords.${cardId}`;
/** The sent words kept per card: the last ones are the ones its history shows. */
const SENT_WORDS_KEPT = 50;

export class PanelMemory {
  constructor(private readonly state: vscode.Memento) {}

  draft(cardId: string): Draft | undefined {
    return this.state.get<Draft>(draftKey(cardId));
  }

  /** Keeps the draft; undefined forgets it (the answer was sent). */
  async setDraft(cardId: string, draft: Draft | undefined): Promise<void> {
    await this.state.update(draftKey(cardId), draft);
  }

  /** Message id -> the words this editor sent for that card. */
  sentWords(cardId: string): Record<string, string> | undefined {
    return this.state.get<Record<string, string>>(sentWordsKey(cardId));
  }

  async rememberWords(cardId: string, messageId: string, words: string): Promise<void> {
    const entries = Object.entries(this.sentWords(cardId) ?? {}).slice(-(SENT_WORDS_KEPT - 1));
    await this.state.update(sentWordsKey(cardId), Object.fromEntries([...entries, [messageId, words]]));
  }
}
