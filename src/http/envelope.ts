import { z } from 'zod';

const count = z.number().int().nonnegative();

/** `meta.pagination` of list responses. Tolerant: a field the service leaves out is just absent. */
export const paginationSchema = z.looseObject({
  page: count.optional(),
  limit: count.optional(),
  total: count.optional(),
  total_pages: count.optional(),
  has_more: z.boolean().optional(),
});

export type Pagination = z.infer<typeof paginationSchema>;

/** The roster API's response envelope, on success and failure alike. Extra fields are kept. */
export const envelopeSchema = z
  .looseObject({
    success: z.boolean(),
    data: z.unknown().optional(),
    error: z
      .looseObject({
        code: z.string().min(1),
        message: z.string().optional(),
        details: z.unknown().optional(),
      })
      .optional(),
    meta: z
      .looseObject({
        request_id: z.string().optional(),
        pagination: paginationSchema.optional(),
      })
      .optional(),
  })
  .refine((envelope) => (envelope.success ? 'data' in envelope : envelope.error !== undefined), {
    message: 'a success needs `data` and a failure needs `error`',
  });

export type Envelope = z.infer<typeof envelopeSchema>;

export type EnvelopeReading = { ok: true; envelope: Envelope } | { ok: false; problem: string };

/** Parses a body into the envelope, or says in a few words why it is not one. Never throws. */
export function readEnvelope(text: string): EnvelopeReading {
  const json = readJson(text);
  if (!json.ok) return json;
  const parsed = envelopeSchema.safeParse(json.value);
  if (parsed.success) return { ok: true, envelope: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, problem: `JSON of the wrong shape${where}: ${issue?.message ?? 'unknown'}` };
}

export type JsonReading = { ok: true; value: unknown } | { ok: false; problem: string };

export function readJson(text: string): JsonReading {
  if (text.trim() === '') return { ok: false, problem: 'an empty body' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: `not JSON (it starts with ${quoteStart(text)})` };
  }
}

/**
 * The first words of a body that is not JSON, enough to tell an HTML page from a proxy's text:
 * 32 characters, as a JSON string (control characters escaped). The caller has already taken any
 * secret out.
 */
export function quoteStart(text: string): string {
  return JSON.stringify(text.trim().slice(0, 32));
}

/** Whether more pages follow this one. */
export function hasMorePages(pagination: Pagination | undefined): boolean {
  if (!pagination) return false;
  if (pagination.has_more !== undefined) return pagination.has_more;
  const { page, total_pages: totalPages } = pagination;
  return page !== undefined && totalPages !== undefined && page < totalPages;
}
