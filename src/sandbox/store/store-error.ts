// A store that cannot be opened or written: what happened and what to do, never a silent empty desk.
export type StoreProblem = 'newer' | 'corrupt' | 'read-only' | 'in-use' | 'write-failed';

export class StoreError extends Error {
  constructor(readonly problem: StoreProblem, readonly file: string, message: string) {
    super(message);
    this.name = 'StoreError';
  }
}

export function storeError(problem: StoreProblem, file: string, detail?: string): StoreError {
  const why = detail ? ` (${detail})` : '';
  switch (problem) {
    case 'newer':
      return new StoreError(problem, file, `The store ${file} was written by a newer version of Assistant Cards${why}. It is left as it is: update the extension, or start with another store file.`);
    case 'corrupt':
      return new StoreError(problem, file, `The store ${file} cannot be read: it is not a store of Assistant Cards, or it is damaged${why}. It is left as it is: move it aside (a new store is made in its place at the next start) or restore a copy.`);
    case 'read-only':
      return new StoreError(problem, file, `The store ${file} cannot be written${why}. Make it and its folder writable by you, or free space on the disk, then start again.`);
    case 'in-use':
      return new StoreError(problem, file, `The store ${file} is in use by another running service${why}. Use that one, or stop it first.`);
    case 'write-failed':
      return new StoreError(problem, file, `The store ${file} could not be written${why}; nothing of this request was kept. Free space on the disk or make the file writable, then try again.`);
  }
}
