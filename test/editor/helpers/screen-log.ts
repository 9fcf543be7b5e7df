// What a terminal program wrote to its screen, read from the file `script --flush` keeps of it
// (helpers/real-cli.ts, `screenLog`): its words with the terminal's control sequences taken out,
// and the moment words first showed, each wait bounded.
import * as fs from 'node:fs';
import { until } from '../cards-helpers';

/** Control sequences out: a cursor moved right is the spaces it skips, colours and the rest are nothing. */
export function screenWords(raw: string): string {
  return raw
    .replace(/\x1b\[(\d*)C/g, (_, n: string) => ' '.repeat(Math.min(Number(n || '1'), 200))) // eslint-disable-line no-control-regex
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '') // eslint-disable-line no-control-regex
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, ' ') // eslint-disable-line no-control-regex
    .replace(/\x1b[()#][0-9A-Za-z]|\x1b[=>78DEHMc]/g, '') // eslint-disable-line no-control-regex
    .replace(/\s+/g, ' ');
}

export class ScreenLog {
  /** How far the file is read; what was read is in `raw`. */
  private read = 0;
  private raw = '';

  constructor(readonly file: string) {}

  /** What was written since `mark` (a `mark()`), as words. */
  wordsSince(mark = 0): string {
    let fd: number | undefined;
    try { fd = fs.openSync(this.file, 'r'); } catch { /* not written yet */ }
    if (fd !== undefined) {
      try {
        const size = fs.fstatSync(fd).size;
        if (size > this.read) {
          const chunk = Buffer.alloc(size - this.read);
          fs.readSync(fd, chunk, 0, chunk.length, this.read);
          this.read = size;
          this.raw += chunk.toString('latin1');
        }
      } finally {
        fs.closeSync(fd);
      }
    }
    return screenWords(Buffer.from(this.raw.slice(mark), 'latin1').toString('utf8'));
  }

  /** Where the screen's writing is now: `showsAfter` reads only what comes after it. */
  mark(): number {
    this.wordsSince(this.raw.length);
    return this.raw.length;
  }

  /**
   * Waits (bounded by `ms`, read every 20 ms) until `words` show after `mark`; returns when they
   * were first seen (Date.now()), within a read's 20 ms of their writing.
   */
  async showsAfter(mark: number, words: RegExp, ms: number): Promise<number> {
    return until(`${String(words)} on the screen`, () => (words.test(this.wordsSince(mark)) ? Date.now() : undefined), ms, 20);
  }
}
