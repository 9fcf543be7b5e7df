export function decodeMappings(mappings: string): number[][][];
export function encodeMappings(lines: number[][][]): string;
export function shiftSourceMap<T extends { mappings: string }>(map: T, code: string, edits: { start: number; end: number; text: string }[]): T;
