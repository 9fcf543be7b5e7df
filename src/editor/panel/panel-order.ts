// The order one card panel keeps through its life, apart from what it shows: the webview hears
// nothing before its `ready` (a message before it comes from the document it showed before); one
// read of the card at a time, and changes told during a read read once more after it; one press at
// a time, naming only a version this webview was shown; a panel released to the next card leaves
// its webview open.

export class PanelOrder {
  /** The webview said `ready`: it hears what is posted, and what it says is about this card. */
  ready = false;
  /** The webview panel went on to show another card (`release`): it is not closed with this one. */
  released = false;
  /** Versions this webview was sent: a press may only name one of these. */
  private readonly shownVersions = new Set<number>();
  private pressing = false;
  private reading: Promise<void> | undefined;
  private readAgain = false;

  /** The webview was shown `version` (or told it, with a press's result): a press may name it. */
  shown(version: number): void { this.shownVersions.add(version); }
  /** Never a version the person has not seen. */
  mayName(version: number): boolean { return this.shownVersions.has(version); }

  /** A press is on its way: another waits for it to end (a double click sends once). */
  get pressOnItsWay(): boolean { return this.pressing; }
  startPress(): void { this.pressing = true; }
  endPress(): void { this.pressing = false; }

  /**
   * Reads now, or when a read is under way, once more after it (`again`), however many changes
   * came meanwhile: the card shown is always the last one read.
   */
  queueRead(read: () => Promise<void>, again: () => void): void {
    if (this.reading) { this.readAgain = true; return; }
    this.reading = read().finally(() => {
      this.reading = undefined;
      if (this.readAgain) { this.readAgain = false; again(); }
    });
  }

  /** The read under way, if any (the webview's `ready` waits for the opening read). */
  get readUnderWay(): Promise<void> | undefined { return this.reading; }
}
