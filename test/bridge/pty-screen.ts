// A terminal UI driven as a person would: the program runs in a pseudo-terminal (pty-relay.py, with
// Python's pty module, so no native Node module), its output is kept as the screen a person would
// see (a small VT100/xterm emulator: cursor moves, erases, scroll regions; colours ignored), the
// terminal's answers to its queries are given (cursor position, device attributes, mode and colour
// reports: a real terminal answers them, and a UI that gets none waits), and keys are typed into it.
// Waits are states of the screen, each with a bound (`until`).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { until } from '../kit/until';

/** The screen a person sees: `rows` lines of `cols` cells. */
export class Screen {
  private cells: string[][];
  private row = 0;
  private col = 0;
  private wrapNext = false;
  private top = 0;
  private bottom: number;
  private saved = { row: 0, col: 0 };
  private pending = '';

  constructor(readonly cols: number, readonly rows: number, private readonly reply: (answer: string) => void) {
    this.cells = Array.from({ length: rows }, () => this.blank());
    this.bottom = rows - 1;
  }

  /** The screen's lines, trailing blanks cut. */
  lines(): string[] { return this.cells.map((l) => l.join('').replace(/\s+$/, '')); }
  text(): string { return this.lines().join('\n'); }

  write(chunk: string): void {
    let s = this.pending + chunk;
    this.pending = '';
    let i = 0;
    while (i < s.length) {
      const ch = s[i]!;
      if (ch === '\x1b') {
        const used = this.escape(s, i);
        if (used === 0) { this.pending = s.slice(i); return; } // an escape cut between two chunks
        i += used;
        continue;
      }
      i += 1;
      if (ch === '\r') { this.col = 0; this.wrapNext = false; } else if (ch === '\n' || ch === '\v' || ch === '\f') this.lineFeed();
      else if (ch === '\b') { this.col = Math.max(0, this.col - 1); this.wrapNext = false; } else if (ch === '\t') this.col = Math.min(this.cols - 1, (Math.floor(this.col / 8) + 1) * 8);
      else if (ch >= ' ' && ch !== '\x7f') this.put(ch);
    }
    s = '';
  }

  private blank(): string[] { return Array.from({ length: this.cols }, () => ' '); }

  private put(ch: string) {
    if (this.wrapNext) { this.col = 0; this.lineFeed(); this.wrapNext = false; }
    this.cells[this.row]![this.col] = ch;
    if (this.col === this.cols - 1) this.wrapNext = true;
    else this.col += 1;
  }

  private lineFeed() {
    this.wrapNext = false;
    if (this.row === this.bottom) this.scrollUp(1);
    else if (this.row < this.rows - 1) this.row += 1;
  }

  private scrollUp(n: number) {
    for (let k = 0; k < n; k++) {
      this.cells.splice(this.top, 1);
      this.cells.splice(this.bottom, 0, this.blank());
    }
  }

  private scrollDown(n: number) {
    for (let k = 0; k < n; k++) {
      this.cells.splice(this.bottom, 1);
      this.cells.splice(this.top, 0, this.blank());
    }
  }

  /** Reads one escape sequence at `i`; returns how many characters it took (0: incomplete). */
  private escape(s: string, i: number): number {
    const next = s[i + 1];
    if (next === undefined) return 0;
    if (next === '[') {
      let j = i + 2;
      while (j < s.length && !/[\x40-\x7e]/.test(s[j]!)) j++;
      if (j >= s.length) return 0;
      this.csi(s.slice(i + 2, j), s[j]!);
      return j - i + 1;
    }
    if (next === ']' || next === 'P' || next === '_' || next === '^') {
      // OSC / DCS / APC / PM: up to BEL or ST (ESC \).
      let j = i + 2;
      while (j < s.length && s[j] !== '\x07' && !(s[j] === '\x1b' && s[j + 1] === '\\')) j++;
      if (j >= s.length || (s[j] === '\x1b' && j + 1 >= s.length)) return 0;
      if (next === ']') this.osc(s.slice(i + 2, j));
      return j - i + (s[j] === '\x07' ? 1 : 2);
    }
    if (next === '(' || next === ')' || next === '#' || next === '%') return s.length > i + 2 ? 3 : 0;
    switch (next) {
      case '7': this.saved = { row: this.row, col: this.col }; break;
      case '8': this.row = this.saved.row; this.col = this.saved.col; this.wrapNext = false; break;
      case 'D': this.lineFeed(); break;
      case 'E': this.col = 0; this.lineFeed(); break;
      case 'M': if (this.row === this.top) this.scrollDown(1); else if (this.row > 0) this.row -= 1; break;
      case 'c': this.cells = Array.from({ length: this.rows }, () => this.blank()); this.row = 0; this.col = 0; break;
      default: break; // ESC = / ESC > and the rest: nothing on the screen
    }
    return 2;
  }

  private csi(body: string, final: string) {
    const priv = /^[?>=<]/.test(body) ? body[0] : '';
    const params = body.replace(/^[?>=<]/, '').replace(/[\x20-\x2f]+$/, '');
    const inter = (/[\x20-\x2f]+$/.exec(body) ?? [''])[0];
    const n = params.split(';').map((p) => (p === '' ? NaN : Number(p.split(':')[0])));
    const a = (k: number, d: number) => (Number.isNaN(n[k] ?? NaN) || n[k] === 0 ? d : n[k]!);
    const clampRow = (r: number) => Math.max(0, Math.min(this.rows - 1, r));
    const clampCol = (c: number) => Math.max(0, Math.min(this.cols - 1, c));
    if (final !== 'm') this.wrapNext = false;
    if (inter === '$' && final === 'p') { this.reply(`\x1b[${priv}${n[0] ?? 0};0$y`); return; } // DECRQM: "not recognized"
    if (priv === '?' && final === 'u') { return; } // kitty keyboard query: no answer, as a plain xterm
    switch (final) {
      case 'H': case 'f': this.row = clampRow(a(0, 1) - 1); this.col = clampCol(a(1, 1) - 1); break;
      case 'A': this.row = Math.max(this.row >= this.top ? this.top : 0, this.row - a(0, 1)); break;
      case 'B': this.row = Math.min(this.row <= this.bottom ? this.bottom : this.rows - 1, this.row + a(0, 1)); break;
      case 'C': this.col = clampCol(this.col + a(0, 1)); break;
      case 'D': this.col = clampCol(this.col - a(0, 1)); break;
      case 'E': this.row = clampRow(this.row + a(0, 1)); this.col = 0; break;
      case 'F': this.row = clampRow(this.row - a(0, 1)); this.col = 0; break;
      case 'G': case '`': this.col = clampCol(a(0, 1) - 1); break;
      case 'd': this.row = clampRow(a(0, 1) - 1); break;
      case 'J': {
        const mode = Number.isNaN(n[0]!) ? 0 : n[0]!;
        if (mode === 0) { this.eraseLine(this.row, this.col, this.cols); for (let r = this.row + 1; r < this.rows; r++) this.cells[r] = this.blank(); }
        else if (mode === 1) { for (let r = 0; r < this.row; r++) this.cells[r] = this.blank(); this.eraseLine(this.row, 0, this.col + 1); }
        else this.cells = Array.from({ length: this.rows }, () => this.blank());
        break;
      }
      case 'K': {
        const mode = Number.isNaN(n[0]!) ? 0 : n[0]!;
        if (mode === 0) this.eraseLine(this.row, this.col, this.cols);
        else if (mode === 1) this.eraseLine(this.row, 0, this.col + 1);
        else this.eraseLine(this.row, 0, this.cols);
        break;
      }
      case 'X': this.eraseLine(this.row, this.col, Math.min(this.cols, this.col + a(0, 1))); break;
      case 'P': { const line = this.cells[this.row]!; line.splice(this.col, a(0, 1)); while (line.length < this.cols) line.push(' '); break; }
      case '@': { const line = this.cells[this.row]!; line.splice(this.col, 0, ...Array.from({ length: a(0, 1) }, () => ' ')); line.length = this.cols; break; }
      case 'L': if (this.row >= this.top && this.row <= this.bottom) { const t = this.top; this.top = this.row; this.scrollDown(a(0, 1)); this.top = t; } break;
      case 'M': if (this.row >= this.top && this.row <= this.bottom) { const t = this.top; this.top = this.row; this.scrollUp(a(0, 1)); this.top = t; } break;
      case 'S': this.scrollUp(a(0, 1)); break;
      case 'T': this.scrollDown(a(0, 1)); break;
      case 'r': this.top = clampRow(a(0, 1) - 1); this.bottom = clampRow(a(1, this.rows) - 1); this.row = 0; this.col = 0; break;
      case 's': if (!priv) this.saved = { row: this.row, col: this.col }; break;
      case 'u': if (!priv) { this.row = this.saved.row; this.col = this.saved.col; } break;
      case 'n': if (n[0] === 6) this.reply(`\x1b[${this.row + 1};${this.col + 1}R`); else if (n[0] === 5) this.reply('\x1b[0n'); break;
      case 'c': if (priv === '') this.reply('\x1b[?62;22c'); else if (priv === '>') this.reply('\x1b[>0;10;1c'); break;
      case 'h': case 'l':
        if (priv === '?' && /(^|;)(1049|47|1047)(;|$)/.test(params)) { this.cells = Array.from({ length: this.rows }, () => this.blank()); }
        break;
      default: break; // SGR and the rest: nothing on the screen
    }
  }

  private osc(body: string) {
    // Colour queries (foreground 10, background 11): a dark terminal's answers.
    if (body === '10;?') this.reply('\x1b]10;rgb:cccc/cccc/cccc\x1b\\');
    else if (body === '11;?') this.reply('\x1b]11;rgb:0000/0000/0000\x1b\\');
  }

  private eraseLine(r: number, from: number, to: number) {
    const line = this.cells[r]!;
    for (let c = Math.max(0, from); c < Math.min(this.cols, to); c++) line[c] = ' ';
  }
}

export interface PtyProgram {
  readonly screen: Screen;
  readonly pid: number | undefined;
  /** Every byte the program wrote, as text (for a failure's message). */
  output(): string;
  /** Keys as a terminal sends them (`keys.enter`, `keys.down`, text). */
  type(keys: string): void;
  /** Waits until the screen shows `what` (a string or pattern), up to `ms`; returns the screen's text. */
  waitFor(what: string | RegExp, ms?: number): Promise<string>;
  /** Waits until the screen no longer shows `what`. */
  waitGone(what: string | RegExp, ms?: number): Promise<string>;
  /**
   * Waits until the program has drawn nothing for `quietMs` (up to `ms`): a person reads a screen
   * before pressing a key, and a terminal UI still drawing its start drops keys (measured, Codex).
   */
  settled(quietMs?: number, ms?: number): Promise<void>;
  /** A key pressed once the screen is settled, then the screen waited for until it shows `then`. */
  press(key: string, then: string | RegExp, ms?: number): Promise<string>;
  /** Resolves with the exit status once the program (and the pty) are gone. */
  readonly exited: Promise<number | null>;
  /** Kills the program if it still runs (the test's teardown). */
  kill(): void;
}

export const keys = { enter: '\r', esc: '\x1b', down: '\x1b[B', up: '\x1b[A', tab: '\t', ctrlC: '\x03', ctrlD: '\x04', backspace: '\x7f' } as const;

/** Starts `argv` in a `cols`x`rows` pseudo-terminal with `env` in `cwd`. */
export function startInPty(argv: string[], o: { cwd: string; env: NodeJS.ProcessEnv; cols?: number; rows?: number }): PtyProgram {
  const cols = o.cols ?? 120;
  const rows = o.rows ?? 40;
  const child: ChildProcess = spawn('python3', [path.join(__dirname, 'pty-relay.py'), String(cols), String(rows), ...argv], {
    cwd: o.cwd, env: { TERM: 'xterm-256color', ...o.env, COLUMNS: String(cols), LINES: String(rows) }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  let drawnAt = Date.now();
  const screen = new Screen(cols, rows, (answer) => { if (child.stdin?.writable) child.stdin.write(answer); });
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => { raw += d; drawnAt = Date.now(); screen.write(d); });
  child.stderr!.on('data', (d: Buffer) => { raw += `\n[relay stderr] ${d.toString('utf8')}`; });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const show = () => `\n--- screen ---\n${screen.text()}\n--------------`;
  const matches = (what: string | RegExp) => (typeof what === 'string' ? screen.text().includes(what) : what.test(screen.text()));
  const waitFor = async (what: string | RegExp, ms = 60_000) => {
    try { return await until(`the screen to show ${String(what)}`, () => (matches(what) ? screen.text() : undefined), ms, 50); } catch (e) { throw new Error(`${(e as Error).message}${show()}`); }
  };
  const settled = async (quietMs = 400, ms = 15_000) => {
    await until(`the screen to settle (${quietMs} ms without drawing)`, () => Date.now() - drawnAt >= quietMs, ms, 50);
  };
  return {
    screen,
    pid: child.pid,
    settled,
    press: async (key, then, ms = 20_000) => {
      await settled();
      child.stdin!.write(key);
      return waitFor(then, ms);
    },
    output: () => raw,
    type: (k) => { child.stdin!.write(k); },
    waitFor,
    waitGone: async (what, ms = 60_000) => {
      try { return await until(`the screen no longer to show ${String(what)}`, () => (matches(what) ? undefined : screen.text()), ms, 50); } catch (e) { throw new Error(`${(e as Error).message}${show()}`); }
    },
    exited,
    kill: () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); },
  };
}
