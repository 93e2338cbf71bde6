/** One status line: rewritten in place on a terminal, printed at most every few seconds otherwise. */
export class Progress {
  private readonly tty = Boolean(process.stdout.isTTY);
  private lastPrinted = 0;
  private showing = false;

  update(text: string): void {
    if (this.tty) {
      process.stdout.write(`\r\x1b[2K${text}`);
      this.showing = true;
      return;
    }
    const now = Date.now();
    if (now - this.lastPrinted < 3000) return;
    this.lastPrinted = now;
    process.stdout.write(`${text}\n`);
  }

  /** Ends the current line with a final text. */
  done(text: string): void {
    if (this.tty && this.showing) process.stdout.write('\r\x1b[2K');
    this.showing = false;
    this.lastPrinted = 0;
    process.stdout.write(`${text}\n`);
  }
}
