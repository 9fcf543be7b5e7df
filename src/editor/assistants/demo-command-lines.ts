// The demo terminals of `npm start`, as command lines this extension builds itself. The
// environment only says where the local sandbox is and which demo assistants to start; it never
// carries a command. Each terminal starts the bundled demo assistant (dist/bridge.js in this
// extension's own folder) against a loopback address. Pure: no `vscode`, tested in plain Node.
import { t } from '../../shared/l10n';
import * as path from 'node:path';

/** What `npm start` puts in ASSISTANT_CARDS_DEMO_TERMINALS (JSON). */
export interface DemoTerminalsRequest {
  baseUrl: string;
  machineFile: string;
  assistants: string[];
}

export interface DemoTerminal { name: string; command: string }

const LOOPBACK_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;
const ASSISTANT_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;
const MAX_TERMINALS = 4;

/** A shell word for the platform's default shell; undefined when the text cannot be one safely. */
function quote(s: string, platform: NodeJS.Platform): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) return undefined;
  if (platform === 'win32') return /["`$%]/.test(s) ? undefined : `"${s}"`;
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/**
 * The terminals to open for the request, or why none: anything but a loopback sandbox, short
 * lowercase assistant names and an absolute identity file path is refused whole.
 */
export function demoTerminalsFor(raw: string | undefined, extensionPath: string, platform: NodeJS.Platform = process.platform): { terminals: DemoTerminal[]; refused?: string } {
  if (!raw) return { terminals: [] };
  let req: Partial<DemoTerminalsRequest>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { terminals: [], refused: t('not a {baseUrl, machineFile, assistants} object') };
    req = parsed as Partial<DemoTerminalsRequest>;
  } catch {
    return { terminals: [], refused: t('not JSON') };
  }
  if (typeof req.baseUrl !== 'string' || !LOOPBACK_URL.test(req.baseUrl)) return { terminals: [], refused: t('baseUrl is not a loopback http address') };
  if (typeof req.machineFile !== 'string' || !path.isAbsolute(req.machineFile)) return { terminals: [], refused: t('machineFile is not an absolute path') };
  const names = Array.isArray(req.assistants) ? req.assistants : [];
  if (!names.length || names.length > MAX_TERMINALS || !names.every((n): n is string => typeof n === 'string' && ASSISTANT_NAME.test(n))) {
    return { terminals: [], refused: t('assistants must be 1 to {0} short lowercase names', MAX_TERMINALS) };
  }
  const script = quote(path.join(extensionPath, 'dist', 'bridge.js'), platform);
  const machineFile = quote(req.machineFile, platform);
  if (!script || !machineFile) return { terminals: [], refused: t('a path cannot be quoted safely for this shell') };
  return {
    terminals: names.map((name) => ({
      name: t('demo assistant: {0}', name),
      command: `node ${script} demo --base ${req.baseUrl} --name ${name} --machine-file ${machineFile}`,
    })),
  };
}
