// "Start Local Sandbox": one click from "this computer is not set up" to a working service.
// Starts the bundled sandbox (dist/sandbox.js --port 0 --demo --machine-file F --work W) as a child
// process: its demo seeds this computer with assistants and cards, in F when F is free or a
// sandbox's own, otherwise (F is the identity of a real service, which stays untouched) in a file
// of its own in W, whose path it prints. When the sandbox does not report a demo computer, this
// computer's identity is made with POST /_sandbox/machines {name, writeTo: F}. The caller then
// points baseUrl, and the identity file when it is another, at it.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { withoutDeadAddress } from '../../shared/identity-address';
import { writeWholeSync } from '../../bridge/write-whole';
import { createTransport } from '../../api/http';
import type { Log } from '../base/log';

export class SandboxLauncher implements vscode.Disposable {
  private child: ChildProcess | undefined;
  private url: string | undefined;

  private identity: string | undefined;

  /** `workDir`: the sandbox's own folder (identity files it makes go there). */
  /** `exited`: told when the sandbox process ends, however it ended (the window stops calling its port at once). */
  constructor(private readonly extensionUri: vscode.Uri, private readonly log: Log, private readonly workDir: string, private readonly exited: () => void = () => undefined) {}

  get running(): string | undefined { return this.url; }

  /** Whether `file` is in the sandbox's own folder (an identity file it made). */
  owns(file: string): boolean {
    const rel = path.relative(path.resolve(this.workDir), path.resolve(file));
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  }

  /** Blanks `url` in the sandbox-made identity file `file` (shared/identity-address.ts says why). */
  private forgetAddress(file: string, url: string): void {
    try {
      const blanked = withoutDeadAddress(fs.readFileSync(file, 'utf8'), url);
      if (blanked) { writeWholeSync(file, blanked); this.log.info(`sandbox gone: its address left ${file}`); }
    } catch (e) {
      this.log.warn(`sandbox gone: could not clear its address from ${file}: ${String(e)}`);
    }
  }

  /** The service address, and the identity file this computer has for it. */
  async start(machineFile: string): Promise<{ url: string; machineFile: string }> {
    if (this.url && this.identity && this.child && this.child.exitCode === null) return { url: this.url, machineFile: this.identity };
    const script = vscode.Uri.joinPath(this.extensionUri, 'dist', 'sandbox.js').fsPath;
    fs.mkdirSync(this.workDir, { recursive: true });
    // In desktop VS Code execPath is Electron: run it as plain Node.
    const child = spawn(process.execPath, [script, '--port', '0', '--demo', '--announce', '--machine-file', machineFile, '--work', this.workDir], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let demoFile: string | undefined;
    let secret = '';
    const url = await new Promise<string>((resolve, reject) => {
      let buf = '';
      const timer = setTimeout(() => reject(new Error(vscode.l10n.t('the sandbox did not start within 20 s'))), 20_000);
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (d: string) => {
        buf += d;
        // The address, then the control secret (control writes send it), printed at once.
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\ncontrol secret ([A-Za-z0-9_-]+) /.exec(buf);
        if (m) secret = m[2]!;
        // The demo line follows at once; wait for it briefly.
        if (m) setTimeout(() => { clearTimeout(timer); resolve(m[1]!); }, /demo: computer/.test(buf) ? 0 : 300);
        const demo = /demo: computer mch_[A-Za-z0-9_-]+ \(identity file (.+)\)\n/.exec(buf);
        if (demo) demoFile = demo[1];
      });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (d: string) => this.log.debug(`sandbox: ${d.trimEnd()}`));
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(vscode.l10n.t('the sandbox exited (code {0})', String(code)))); });
      child.once('error', (e) => { clearTimeout(timer); reject(e); });
    });
    child.on('exit', (code, signal) => {
      this.log.info(`sandbox exited (${code ?? signal})`);
      this.url = undefined;
      // However it ended (a SIGKILL gives it no chance to): its address leaves its identity file.
      if (this.identity) this.forgetAddress(this.identity, url);
      // Not while the window closes (dispose): nothing is left to rebuild then.
      if (this.child === child) this.exited();
    });
    this.log.info(`sandbox listening on ${url}`);
    if (demoFile) {
      this.log.info(`sandbox: its demo set this computer up in ${demoFile}`);
      this.url = url;
      this.identity = demoFile;
      return { url, machineFile: demoFile };
    }
    // Our own transport: loopback never goes through a proxy there (VS Code's patched fetch may).
    const transport = createTransport();
    try {
      const res = await transport.send({
        method: 'POST',
        url: `${url}/_sandbox/machines`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` }, // l10n-ignore: not words for people
        body: JSON.stringify({ name: os.hostname() || vscode.l10n.t('this computer'), writeTo: machineFile }),
      });
      if (res.status !== 201) throw new Error(vscode.l10n.t('the sandbox refused to set up this computer ({0})', res.status));
    } finally {
      await transport.close();
    }
    this.log.info(`sandbox: this computer's identity written to ${machineFile}`);
    this.url = url;
    this.identity = machineFile;
    return { url, machineFile };
  }

  dispose(): void {
    if (this.child && this.child.exitCode === null) this.child.kill('SIGTERM');
    this.child = undefined;
    this.url = undefined;
    this.identity = undefined;
  }
}
