import type { Plugin } from 'esbuild';
export const builtinsOnce: Plugin;
