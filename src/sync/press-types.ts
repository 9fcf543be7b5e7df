// What a press is about and what it answers: plain data that the press (press.ts) and the action
// table (actions-table.ts) both name. Apart from both, so that neither imports the other's types
// back (the table's rows send; the press reads the table).

/** What the person saw when they pressed. */
export interface SeenCard {
  id: string;
  version: number;
  highStakes?: boolean;
  url?: string;
}

/** What every action answers: the card's new status and version (plus per-action extras). */
export interface PressResult {
  id: string;
  status?: string;
  version: number;
  undoUntil?: string;
  until?: string;
  messageId?: string;
  turn?: string;
  hears?: string;
}
