/** Real-time waits (the latency fault) that end with the server: a cancelled wait never resolves. */
export class CancellableSleeps {
  private readonly timers = new Set<NodeJS.Timeout>();

  readonly sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });

  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
