// What the card panel's plain-Node tests build their state from: one time, a card waiting on the
// person (choice, two options, version 3), the host's card message, and a request with its reply.
import type { PanelCard } from '../../../src/shared/panel-card';
import type { RequestKind, ToWebview } from '../../../src/shared/protocol';
import type { PanelEvent } from '../../../media/webview/state';

export const NOW = Date.parse('2026-11-23T12:00:00Z');

export const card = (over: Partial<PanelCard> = {}): PanelCard => ({
  kind: 'choice', title: 'Pick', status: 'pending', turn: 'you', version: 3,
  options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], ...over,
} as PanelCard);

/** The host shows `c` (its version on screen, presses on, the host's clock at NOW). */
export const cardMsg = (c: PanelCard, over: Partial<Extract<ToWebview, { type: 'card' }>> = {}): PanelEvent =>
  ({ type: 'card', card: c, shownVersion: c.version, timeZone: 'UTC', canAct: true, hostNowMs: NOW, ...over });

/** A request the webview sent (id 'q') and the host's reply to it: replies are matched by id. */
export const asked = (what: RequestKind, reply: PanelEvent): PanelEvent[] => [{ type: 'requested', requestId: 'q', what }, reply];
