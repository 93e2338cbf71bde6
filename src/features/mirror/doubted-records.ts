/**
 * Licenses held whose records may predate a change (a change named them and their re-read
 * failed, or the audit log named them while a read ran): last known only, not answered, until the
 * service answers for them. At most `limit`; each one newly doubted is told to `told`.
 */
export class DoubtedRecords {
  private readonly keys = new Set<string>();

  constructor(
    private readonly limit: number,
    private readonly told: (key: string) => void,
  ) {}

  /** `tell` false: the doubt came from the copy kept elsewhere, which knows it already. */
  add(key: string, tell = true): void {
    if (this.keys.has(key) || this.keys.size >= this.limit) return;
    this.keys.add(key);
    if (tell) this.told(key);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  delete(key: string): void {
    this.keys.delete(key);
  }

  clear(): void {
    this.keys.clear();
  }
}
