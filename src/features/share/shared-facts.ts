import type { z } from 'zod';
import type { SharedFactFound, SharedFacts } from '../../kernel/shared-facts';
import { answerWithin } from '../../platform/answer-within';
import type { Clock } from '../../platform/ports';
import type { ShareStore } from './share-store';

/**
 * How long a server that starts behind another one's reads waits for that server to read what it
 * needs (the key, departments and ranks) before reading them itself: a few of the service's
 * answers, well inside a connecting player's wait.
 */
export const FACT_WAIT_MS = 5_000;
/** How often the database is asked again for a fact while waiting for it. */
const FACT_POLL_MS = 250;

/** How the fact board knows where this server stands in the sharing. */
export interface FactSharing {
  /** Resolves once this server knows whether the database answers and who reads the roster. */
  settled(): Promise<void>;
  /** 'reader' or 'follower' while the database is in use; null while this server is alone. */
  role(): 'reader' | 'follower' | null;
}

export interface FactBoardDeps {
  store: Pick<ShareStore<unknown, unknown>, 'fact' | 'putFact'>;
  sharing: FactSharing;
  clock: Clock;
}

/**
 * What the servers on one key read from the service once for all, in their database
 * (`roster_share_facts`): what a fact holds is validated like the service's answer before it is
 * used, and a database that fails or is slow is the same as no fact, so the server reads the
 * service itself as it would alone.
 */
export class FactBoard implements SharedFacts {
  constructor(private readonly deps: FactBoardDeps) {}

  async take<T>(
    name: string,
    schema: z.ZodType<T>,
    maxAgeMs: number,
    options?: { wait?: boolean },
  ): Promise<SharedFactFound<T> | null> {
    const { clock, sharing } = this.deps;
    const until = clock.now() + FACT_WAIT_MS;
    await answerWithin(sharing.settled(), FACT_WAIT_MS, clock, () => undefined);
    for (;;) {
      if (sharing.role() === null) return null;
      const found = await this.read(name, schema, maxAgeMs);
      if (found !== null) return found;
      // Only a follower waits: the reader reads for everyone, and has not yet.
      const left = until - clock.now();
      if (options?.wait !== true || sharing.role() !== 'follower' || left <= 0) return null;
      await new Promise<void>((resolve) => clock.setTimeout(resolve, Math.min(FACT_POLL_MS, left)));
    }
  }

  put(name: string, value: unknown): void {
    const { sharing, store, clock } = this.deps;
    // Once this server knows whether the database answers; a write that fails is the next
    // server's read of the service, nothing more (the roster's own calls find out what is wrong).
    void answerWithin(sharing.settled(), FACT_WAIT_MS, clock, () => undefined).then(() => {
      if (sharing.role() !== null) return store.putFact(name, value).catch(() => {});
    });
  }

  private async read<T>(name: string, schema: z.ZodType<T>, maxAgeMs: number) {
    const fact = await this.deps.store.fact(name).catch(() => null);
    if (fact === null || fact.ageMs >= maxAgeMs) return null;
    const parsed = schema.safeParse(fact.value);
    return parsed.success ? { value: parsed.data, ageMs: fact.ageMs } : null;
  }
}
