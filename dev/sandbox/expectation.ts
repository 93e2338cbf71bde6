/** Something the sandbox saw that it did not expect: the run fails with this message. */
export class SandboxMismatch extends Error {
  override readonly name = 'SandboxMismatch';
}

/** Fails the run with `message` unless `condition` holds. */
export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new SandboxMismatch(message);
}

/** Polls `check` on real time (the emulator's tick loop runs meanwhile) until it gives a value. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false,
  timeoutMs = 5000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() - start > timeoutMs)
      throw new SandboxMismatch(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
