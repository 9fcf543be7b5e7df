// Types of scripts/gen-clis.mjs for the tests that import it.
export const CLIS_DIR: string;
export const GENERATED: string;
export interface FoundAdapter { file: string; name: string; id: string; order: number }
export function adaptersIn(dir?: string): FoundAdapter[];
export function generate(dir?: string): string;
