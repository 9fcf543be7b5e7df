// What a card panel posts in reply to one request from its webview (a press, loadAssistants), and
// hands back to its caller: the tests read the reply the person was shown.
import type { ToWebview } from '../../shared/protocol';

export type PanelReply = Extract<ToWebview, { type: 'done' | 'problem' | 'assistants' }>;
