import type { z } from 'zod';
import { Handle } from './handle';

/** A fact as a server on the key read it from the service, and how long ago. */
export interface SharedFactFound<T> {
  value: T;
  ageMs: number;
}

/**
 * What the servers sharing one key read from the service once for all of them (who the key
 * belongs to, the departments and ranks): a server that starts while they are current asks the
 * service for none of it.
 */
export interface SharedFacts {
  /**
   * The fact `name` as a server on the key last read it, when it is younger than `maxAgeMs` and
   * parses with `schema`. With `wait`, while another server reads the roster for this one and has
   * not read the fact yet, it waits a few seconds for that server to. Null: this server reads it
   * from the service itself (and `put`s it). Never rejects.
   */
  take<T>(
    name: string,
    schema: z.ZodType<T>,
    maxAgeMs: number,
    options?: { wait?: boolean },
  ): Promise<SharedFactFound<T> | null>;
  /** What this server just read from the service, left for the others. Never throws. */
  put(name: string, value: unknown): void;
}

/** Provided by the sharing feature while `share.enabled`; null otherwise (every server reads alone). */
export const sharedFactsHandle = new Handle<SharedFacts>('what the servers on this key read once for all');
