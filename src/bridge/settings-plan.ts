// What Connect and Disconnect plan for a settings file, and why one is refused: shared by the
// planner (connect-settings.ts) and the writer (settings-file.ts) without an import circle.
export type Refusal =
  | { kind: 'unparsable'; detail: string; line: number }
  | { kind: 'unexpected'; detail: string }
  /** A key twice in one object: which one the CLI reads is not ours to guess. */
  | { kind: 'duplicate'; detail: string; line: number }
  /** Bytes that are not UTF-8: written back as text they would be lost. */
  | { kind: 'encoding'; detail: string };

export type Plan =
  /** `remove`: Disconnect of a whole file of ours (Copilot CLI's): the file goes. */
  | { ok: true; before: string; after: string; changed: boolean; events: string[]; remove?: boolean }
  | { ok: false; refusal: Refusal };
