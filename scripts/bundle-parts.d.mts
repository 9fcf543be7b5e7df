export interface BundlePart { files: string[]; bytes: number }
export type PartName = 'activation' | 'liveSet' | 'connect' | 'localService' | 'late' | 'webview' | 'bridge' | 'sandbox';
export function releaseParts(dir: string, entries?: { name: string; size: number; read(): Buffer }[]): Record<PartName, BundlePart>;
