// What a terminal program wrote to its screen, read from the file `script --flush` keeps of it
// (helpers/real-cli.ts, `screenLog`): its words with the terminal's control sequences taken out,
// and the moment words first showed, each wait bounded. A program that draws only the cells that
// changed (Claude Code does) leaves a word that was partly on the screen before as fragments in that
// writing ("Do you want to roceed?": the "p" was already there), so the screen itself is kept too,
// by the small emulator of the pty tests, at the size the program was started with.
import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { Screen } from '../../bridge/pty-screen';
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
  private screen?: Screen;
  private readonly decoder = new StringDecoder('utf8');

  /** `file.size`: "rows cols" as `stty size` printed them in the program's terminal at its start. */
  constructor(readonly file: string) {}

  /** The screen as the program drew it: its lines now (undefined before its size is known). */
  screenText(): string | undefined {
    this.wordsSince(this.raw.length);
    return this.screen?.text();
  }

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
          this.draw(chunk);
        }
      } finally {
        fs.closeSync(fd);
      }
    }
    return screenWords(Buffer.from(this.raw.slice(mark), 'latin1').toString('utf8'));
  }

  private draw(chunk: Buffer): void {
    if (!this.screen) {
      let size: number[] = [];
      try { size = fs.readFileSync(`${this.file}.size`, 'utf8').trim().split(/\s+/).map(Number); } catch { /* not written */ }
      const [rows, cols] = size;
      if (!rows || !cols) return; // no size: the words alone (the writing kept in raw is not drawn)
      this.screen = new Screen(cols, rows, () => undefined);
      this.screen.write(this.decoder.write(Buffer.from(this.raw.slice(0, this.raw.length - chunk.length), 'latin1')));
    }
    this.screen.write(this.decoder.write(chunk));
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
    // On the screen drawn, the words count only when they were not there already at the wait's start.
    const before = words.test(this.screenText()?.replace(/\s+/g, ' ') ?? '');
    const drawn = () => !before && words.test(this.screenText()?.replace(/\s+/g, ' ') ?? '');
    return until(`${String(words)} on the screen`, () => (words.test(this.wordsSince(mark)) || drawn() ? Date.now() : undefined), ms, 20);
  }
}
