// Tokens kept by their hash: a copy of the store file holds no token a caller could send.
import { createHash } from 'node:crypto';
import type { Table } from './table';

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

export class TokenTable<T> {
  constructor(private readonly inner: Table<T>) {}

  get(token: string): T | undefined {
    return this.inner.get(tokenHash(token));
  }

  set(token: string, rec: T): void {
    this.inner.set(tokenHash(token), rec);
  }

  delete(token: string): void {
    this.inner.delete(tokenHash(token));
  }

  /** Forgets every record `drop` says (the sweep of expired tokens). */
  deleteWhere(drop: (rec: T) => boolean): void {
    for (const [hash, rec] of [...this.inner.entries()]) if (drop(rec)) this.inner.delete(hash);
  }

  values(): IterableIterator<T> {
    return this.inner.values();
  }

  clear(): void {
    this.inner.clear();
  }

  get size(): number {
    return this.inner.size;
  }
}
