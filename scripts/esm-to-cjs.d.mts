export interface OutputMeta {
  file: string;
  imports: { path: string; kind: string }[];
  exports: string[];
  own: (path: string) => string | undefined;
}
export function esmToCommonJs(code: string, map: object | undefined, meta: OutputMeta): { code: string; map: object | undefined };
export function exportsAssignedLater(files: string[], read?: (file: string) => string): string[];
