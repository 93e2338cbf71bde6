/**
 * Cleanups that must run however this process ends: a normal exit, `process.exit`, or a signal
 * that would otherwise end it without an `exit` event (Ctrl+C, a CI runner's SIGTERM). Each runs
 * synchronously and at most once. A process killed outright (SIGKILL) runs none: the next start
 * sweeps what it left (data-dir.ts).
 */
type Cleanup = () => void;

const cleanups = new Set<Cleanup>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function runAll(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // One failing cleanup must not keep the others from running.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runAll();
  // If nobody else listens, the signal would have ended the process: end it the same way.
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.removeListener('exit', runAll);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

/** Runs `cleanup` when the process ends; the returned function cancels it (the owner cleaned up). */
export function onProcessEnd(cleanup: Cleanup): () => void {
  install();
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) uninstall();
  };
}
