// Where the sign-in's secrets live. The editor implements it over vscode SecretStorage; tests and
// plain-Node tools use the file or in-memory store below.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Emitter } from '../api/runtime';
import type { Event } from '../api/runtime';

export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Fires when a key changed (in this window or, where the store can tell, another). */
  onDidChange?: Event<{ key: string }>;
}

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  private readonly changes = new Emitter<{ key: string }>();
  readonly onDidChange = this.changes.event;
  async get(key: string) {
    return this.values.get(key);
  }
  async store(key: string, value: string) {
    this.values.set(key, value);
    this.changes.fire({ key });
  }
  async delete(key: string) {
    this.values.delete(key);
    this.changes.fire({ key });
  }
}

/**
 * A JSON file (mode 0600) shared by every process that opens the same path. Each read goes to
 * the file, so a rotation by another process is seen at once; writes replace the file atomically.
 */
export class FileSecretStore implements SecretStore {
  private readonly changes = new Emitter<{ key: string }>();
  readonly onDidChange = this.changes.event;
  private queue: Promise<unknown> = Promise.resolve();
  constructor(readonly file: string) {}

  private async readAll(): Promise<Record<string, string>> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw e;
    }
  }

  private async writeAll(values: Record<string, string>): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${randomUUID()}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(values), { mode: 0o600 });
    await fs.rename(tmp, this.file);
  }

  /** Writes in this process are serialised; across processes, callers hold the refresh lock. */
  private update(fn: (v: Record<string, string>) => void): Promise<void> {
    const run = this.queue.then(async () => {
      const values = await this.readAll();
      fn(values);
      await this.writeAll(values);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async get(key: string) {
    await this.queue;
    return (await this.readAll())[key];
  }
  async store(key: string, value: string) {
    await this.update((v) => {
      v[key] = value;
    });
    this.changes.fire({ key });
  }
  async delete(key: string) {
    await this.update((v) => {
      delete v[key];
    });
    this.changes.fire({ key });
  }
}
