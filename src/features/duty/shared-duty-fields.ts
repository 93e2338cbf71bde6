import { z } from 'zod';
import type { SharedFacts } from '../../kernel/shared-facts';
import { CREATED_AT, type DutyFields, STARTED_AT } from './duty-fields';

/** The name the duty session's fields are shared under by the servers on one key. */
const DUTY_FIELDS_FACT = 'duty-fields';
/**
 * How old fields another server read from the service's description may be for this one to start
 * on them: the description changes only with the service's releases.
 */
export const SHARED_DUTY_FIELDS_MS = 6 * 3_600_000;

const name = z.string().min(1).max(200);
const storedFields: z.ZodType<DutyFields> = z.object({
  member: name,
  end: name.nullable(),
  duration: z.object({ field: name, unitMs: z.number().positive() }).nullable(),
  sortable: z.object({ [STARTED_AT]: z.boolean(), [CREATED_AT]: z.boolean() }),
});

/** The fields another server on the key read lately; null: read the description here. */
export async function sharedDutyFields(facts: SharedFacts | null): Promise<DutyFields | null> {
  const found = await facts?.take(DUTY_FIELDS_FACT, storedFields, SHARED_DUTY_FIELDS_MS, { wait: true });
  return found?.value ?? null;
}

/** Fields this server just read from the description, left for the others on the key. */
export function shareDutyFields(facts: SharedFacts | null, fields: DutyFields): void {
  facts?.put(DUTY_FIELDS_FACT, fields);
}
