// The CLIs Assistant Cards connects, one adapter each: Connect, the hook, the commands and the
// manifest's entries come from this list (test/bridge/clis/index.test.ts keeps the manifest in step).
// A new CLI: its adapter file, its id here, and its commands in package.json (the test names them).
import type { CliAdapter } from './adapter';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { copilotCli } from './copilot-cli';
import { geminiCli } from './gemini-cli';
import { openCode } from './opencode';

export const CLIS = ['claude-code', 'codex', 'gemini-cli', 'copilot-cli', 'opencode'] as const;
export type Cli = (typeof CLIS)[number];

const BY_ID: Readonly<Record<Cli, CliAdapter>> = { 'claude-code': claudeCode, codex, 'gemini-cli': geminiCli, 'copilot-cli': copilotCli, opencode: openCode };

export const ADAPTERS: readonly CliAdapter[] = CLIS.map((id) => BY_ID[id]);

/** The adapter of a CLI. */
export const adapter = (cli: Cli): CliAdapter => BY_ID[cli];

/** The adapter of an app id, or undefined for one no adapter knows. */
export function adapterOf(id: string): CliAdapter | undefined {
  return ADAPTERS.find((a) => a.id === id);
}

/** Each CLI's name as people know it, by app id. */
export const CLI_NAMES: Readonly<Record<string, string>> = Object.fromEntries(ADAPTERS.map((a) => [a.id, a.name]));
