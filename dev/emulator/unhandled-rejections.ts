/**
 * FXServer runs Node with `--unhandled-rejections=warn` (citizen-scripting-node
 * NodeParentEnvironment.cpp) and main.js's own rejection routine is never called by the Node
 * runtime: an unhandled rejection in a resource prints Node's warning and nothing else happens.
 *
 * The emulator's resources share the host process, where such a rejection would crash the
 * sandbox or fail a whole vitest run. While a server runs, rejections of promises made in one of
 * its resources' realms are taken here: the warning goes to that resource's log and the rejection
 * is recorded on the server (`server.unhandledRejections`), so a test harness can fail the test
 * that caused it. Other rejections go to whoever listened before (vitest, or Node's default).
 */
type Claim = (reason: unknown, promise: Promise<unknown>) => boolean;
type Listener = (reason: unknown, promise: Promise<unknown>) => void;

const claims = new Set<Claim>();
let previous: Listener[] = [];
let rejectionId = 0;

function onUnhandledRejection(reason: unknown, promise: Promise<unknown>): void {
  for (const claim of claims) if (claim(reason, promise)) return;
  if (previous.length === 0) {
    // Node's default (throw) mode with no listener: the rejection becomes an uncaught exception.
    process.nextTick(() => {
      throw reason;
    });
    return;
  }
  for (const listener of previous) listener(reason, promise);
}

/** Starts routing a server's rejections to `claim`; returns the function that stops it. */
export function claimUnhandledRejections(claim: Claim): () => void {
  if (claims.size === 0) {
    previous = process.listeners('unhandledRejection') as Listener[];
    process.removeAllListeners('unhandledRejection');
    process.on('unhandledRejection', onUnhandledRejection);
  }
  claims.add(claim);
  return () => {
    if (!claims.delete(claim) || claims.size > 0) return;
    process.removeListener('unhandledRejection', onUnhandledRejection);
    for (const listener of previous) process.on('unhandledRejection', listener);
    previous = [];
  };
}

/** The two warnings Node 22 prints in warn mode (lib/internal/process/promises.js). */
export function nodeRejectionWarning(reason: unknown): string[] {
  const id = ++rejectionId;
  const pid = process.pid;
  const stack = (reason as { stack?: unknown } | null)?.stack;
  const text = typeof stack === 'string' ? stack : describe(reason);
  return [
    `(node:${pid}) UnhandledPromiseRejectionWarning: ${text}`,
    `(node:${pid}) UnhandledPromiseRejectionWarning: Unhandled promise rejection. This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). To terminate the node process on unhandled promise rejection, use the CLI flag \`--unhandled-rejections=strict\` (see https://nodejs.org/api/cli.html#cli_unhandled_rejections_mode). (rejection id: ${id})`,
  ];
}

function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
