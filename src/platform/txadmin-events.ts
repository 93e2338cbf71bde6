import { z } from 'zod';
import { fx } from './natives';
import type { Logger } from './ports';

/**
 * txAdmin's notices to resources. Its own resource (`monitor`) turns a console command that only
 * txAdmin can send into `TriggerEvent('txAdmin:events:<name>', data)`: a server event, one table.
 */
export const SERVER_SHUTTING_DOWN = 'txAdmin:events:serverShuttingDown';
export const SCHEDULED_RESTART = 'txAdmin:events:scheduledRestart';

/** The server process is killed `delayMs` from now (txAdmin's shutdown notice delay, 5 s by default). */
export interface ShutdownNotice {
  delayMs: number;
  /** The admin who asked, or the panel's own name for a scheduled stop. */
  author: string;
  /** What txAdmin tells players, in the owner's language (e.g. "Server restarting (scheduled restart)."). */
  message: string;
}

/** A scheduled restart comes in `secondsRemaining` (sent 30, 15, 10, 5, 4, 3, 2 and 1 minutes before). */
export interface RestartNotice {
  secondsRemaining: number;
}

/** Longest text a connecting player is shown from the notice: the rest is cut. */
const MESSAGE_MAX = 300;

/** Said to connecting players when txAdmin's notice brings no text. */
export const SHUTDOWN_FALLBACK = 'The server is restarting. Try again in a minute.';

// Extra fields are allowed (a later txAdmin may add some); the ones used must have these types.
const shutdownSchema = z.object({
  delay: z.number().nonnegative(),
  author: z.string(),
  message: z.string(),
});
const restartSchema = z.object({ secondsRemaining: z.number().nonnegative() });

type Reading<T> = { notice: T } | { problem: string };

/** txAdmin's `serverShuttingDown` data, or what is wrong with it. */
export function readShutdownNotice(data: unknown): Reading<ShutdownNotice> {
  const parsed = shutdownSchema.safeParse(data);
  if (!parsed.success) return { problem: firstProblem(parsed.error) };
  const { delay, author, message } = parsed.data;
  return { notice: { delayMs: delay, author: author.trim(), message: forPlayers(message) } };
}

/** The notice's text as connecting players are shown it: never blank, never a wall of text. */
function forPlayers(message: string): string {
  const text = message.trim();
  if (text === '') return SHUTDOWN_FALLBACK;
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text;
}

/** txAdmin's `scheduledRestart` data, or what is wrong with it. */
export function readRestartNotice(data: unknown): Reading<RestartNotice> {
  const parsed = restartSchema.safeParse(data);
  return parsed.success
    ? { notice: { secondsRemaining: parsed.data.secondsRemaining } }
    : { problem: firstProblem(parsed.error) };
}

/** Calls `handler` when txAdmin says the server is about to be shut down. */
export function onServerShuttingDown(logger: Logger, handler: (notice: ShutdownNotice) => void): void {
  listen(SERVER_SHUTTING_DOWN, readShutdownNotice, logger, handler);
}

/** Calls `handler` at each of txAdmin's warnings before a scheduled restart. */
export function onScheduledRestart(logger: Logger, handler: (notice: RestartNotice) => void): void {
  listen(SCHEDULED_RESTART, readRestartNotice, logger, handler);
}

/**
 * Registered with `on`, never `onNet`: FXServer runs a client's event only in a resource that made
 * it net-safe, so no player can send these. The source is checked as well, so that stays true even
 * if something in this resource ever registers the name for the network: a server event has `""`.
 */
function listen<T>(
  event: string,
  read: (data: unknown) => Reading<T>,
  logger: Logger,
  handler: (notice: T) => void,
): void {
  fx.on(event, (data: unknown) => {
    const source = fx.source;
    if (source !== '') {
      logger.warn(`ignored ${event} from ${String(source)}: only the server itself may send it.`);
      return;
    }
    const reading = read(data);
    if ('problem' in reading) {
      logger.warn(`ignored ${event}: its data is not what txAdmin sends (${reading.problem}).`);
      return;
    }
    handler(reading.notice);
  });
}

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unreadable';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
