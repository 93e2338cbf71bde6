import type { Resolution } from '../../../src/roster/member-resolver';
import { settle } from '../../http/limiter/fake-clock';
import type { FakeClock } from '../../roster/client/fake-roster';
import type { ModelResource } from './model-resource';
import type { ModelService } from './model-service';

/** One player's join, as the gate asks it. */
export interface Join {
  license: string;
  promise: Promise<Resolution>;
  resolution: Resolution | undefined;
  /** Decided before any time passed and with no request naming the license: from memory. */
  fromMemory: boolean;
}

/**
 * Players with these licenses connect at this instant. Time does not move while their joins are
 * asked: one decided in the same instant, with no request naming its license, was decided from
 * memory (the mirror or the cache). The others are being looked up, and go on as time moves.
 */
export async function joinAll(
  resource: ModelResource,
  service: ModelService,
  licenses: readonly string[],
): Promise<Join[]> {
  // Whatever the last step set going finishes first, without time moving.
  await settle();
  const from = service.log.length;
  const joins = licenses.map((license) => {
    const join: Join = { license, promise: resource.join(license), resolution: undefined, fromMemory: false };
    void join.promise.then((resolution) => {
      join.resolution = resolution;
    });
    return join;
  });
  // Promise turns only: a decision from memory takes a few, and no timer can fire meanwhile.
  for (let i = 0; i < 50; i++) await Promise.resolve();
  const named = new Set<string>();
  for (const request of service.log.slice(from))
    if (request.path === '/api/v1/members')
      for (const license of new URLSearchParams(request.query).getAll('gameLicense')) named.add(license);
  for (const join of joins) join.fromMemory = join.resolution !== undefined && !named.has(join.license);
  return joins;
}

/** Lets time run until every join is decided, for at most `maxMs` of it (two minutes by default). */
export async function decided(clock: FakeClock, joins: readonly Join[], maxMs = 120_000): Promise<void> {
  for (let waited = 0; waited < maxMs && joins.some((j) => j.resolution === undefined); waited += 500)
    await clock.advance(500);
}
