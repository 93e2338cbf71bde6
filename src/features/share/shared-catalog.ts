import { z } from 'zod';
import type { SharedFacts } from '../../kernel/shared-facts';
import type { CatalogShare } from '../../roster/catalog';
import { departmentSchema, rankSchema } from '../../roster/client';
import type { Catalog } from '../../roster/model';

/** Past the most departments and ranks the service's pages are read for (20 pages of 100). */
const MOST_RECORDS = 2_000;

/** Departments and ranks as stored: read back as strictly as the service's answer. */
const storedCatalog: z.ZodType<Catalog> = z.object({
  departments: z.array(departmentSchema).max(MOST_RECORDS),
  ranks: z.array(rankSchema).max(MOST_RECORDS),
});

/** The roster's departments and ranks, shared as the fact `catalog`. */
export function shareCatalog(facts: SharedFacts): CatalogShare {
  return {
    take: async (maxAgeMs, wait) => {
      const found = await facts.take('catalog', storedCatalog, maxAgeMs, { wait });
      return found && { catalog: found.value, ageMs: found.ageMs };
    },
    put: (catalog) => facts.put('catalog', catalog),
  };
}
