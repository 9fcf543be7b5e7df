export interface BundlePart { files: string[]; bytes: number }
export type PartName = 'activation' | 'liveSet' | 'connect' | 'localService' | 'palette' | 'late' | 'webview' | 'bridge' | 'sandbox';
export const EXTENSION_PARTS: readonly PartName[];
export function releaseParts(dir: string, entries?: { name: string; size: number; read(): Buffer }[]): Record<PartName, BundlePart>;
