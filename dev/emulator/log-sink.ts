/** One printed line, tagged with the resource (or `server`) that printed it. */
export interface LogEntry {
  readonly resource: string;
  readonly text: string;
}

// Long sandbox runs print a lot; keep the newest lines only.
const MAX_ENTRIES = 20_000;

/** Where every resource's console output and SCRIPT ERROR goes; tests read `lines`. */
export class LogSink {
  readonly entries: LogEntry[] = [];

  constructor(private readonly echo: boolean) {}

  write(resource: string, text: string): void {
    for (const line of text.split('\n')) {
      this.entries.push({ resource, text: line });
      if (this.echo) process.stdout.write(`[${resource}] ${line}\n`);
    }
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  /** `[resource] text`, one per printed line. */
  get lines(): string[] {
    return this.entries.map((e) => `[${e.resource}] ${e.text}`);
  }

  /** Lines printed by one resource, without the tag. */
  of(resource: string): string[] {
    return this.entries.filter((e) => e.resource === resource).map((e) => e.text);
  }

  clear(): void {
    this.entries.length = 0;
  }
}
