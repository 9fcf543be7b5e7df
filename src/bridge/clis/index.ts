// The CLIs Assistant Cards connects, one adapter each: Connect, the hook, the Connect/Disconnect
// pick and the Assistants view's rows come from this list. A new CLI is its adapter file in this
// folder: scripts/gen-clis.mjs lists it in ./all.generated.ts (test/scripts/gen-clis.test.ts keeps
// that file fresh; test/bridge/clis/index.test.ts holds each adapter to its id).
import type { CliAdapter } from './adapter';
import { ALL_ADAPTERS, CLI_IDS } from './all.generated';

export const CLIS = CLI_IDS;
export type Cli = (typeof CLIS)[number];

export const ADAPTERS: readonly CliAdapter[] = ALL_ADAPTERS;

const BY_ID = new Map<string, CliAdapter>(ADAPTERS.map((a) => [a.id, a]));

/** The adapter of a CLI. */
export const adapter = (cli: Cli): CliAdapter => BY_ID.get(cli)!;

/** Whether a value names a CLI of ours (a command's argument, a keybinding's `args`). */
export const isCli = (id: unknown): id is Cli => typeof id === 'string' && BY_ID.has(id);

/** The adapter of an app id, or undefined for one no adapter knows. */
export function adapterOf(id: string): CliAdapter | undefined {
  return BY_ID.get(id);
}

/** Each CLI's name as people know it, by app id. */
export const CLI_NAMES: Readonly<Record<string, string>> = Object.fromEntries(ADAPTERS.map((a) => [a.id, a.name]));
