import { z } from 'zod';
import { isReservedPrefix, PRINCIPAL_PATTERN, RESERVED_NAMESPACES } from '../../platform/principal-names';
import { isAddressOrRange } from './addresses';
import { messagesSchema } from './messages';

const positiveInt = (max: number) => z.number().int().min(1).max(max);

/** A framework's grade: a whole number (0-based in Qbox, QBCore, ESX; 1-based in ox_core, ND_Core). */
const gradeNumber = z.number().int().min(0).max(1000);

const jobsSchema = z
  .object({
    enabled: z.boolean().default(false),
    framework: z.enum(['auto', 'qbx', 'qb', 'esx', 'ox', 'nd']).default('auto'),
    departments: z
      .record(
        z.string().min(1),
        z
          .object({
            job: z.string().min(1),
            grades: z.record(z.string().min(1), gradeNumber).optional(),
          })
          .strict(),
      )
      .default({}),
    unassigned: z
      .object({ job: z.string().min(1), grade: gradeNumber })
      .strict()
      .default({ job: 'unemployed', grade: 0 }),
  })
  .strict()
  .prefault({});

export const configSchema = z
  .object({
    api: z
      .object({
        baseUrl: z.string().optional(),
        timeoutMs: positiveInt(120_000).default(5000),
      })
      .strict()
      .prefault({}),
    rateLimit: z
      .object({
        perMinute: positiveInt(100_000).default(120),
        perDay: positiveInt(10_000_000).default(25_000),
        maxWaitSeconds: positiveInt(3600).default(300),
      })
      .strict()
      .prefault({}),
    cache: z
      .object({
        ttlSeconds: positiveInt(7 * 86_400).default(600),
        negativeTtlSeconds: positiveInt(86_400).default(60),
        maxEntries: positiveInt(1_000_000).default(50_000),
      })
      .strict()
      .prefault({}),
    refresh: z
      .object({
        intervalSeconds: z.number().int().min(0).max(86_400).default(300),
        auditSeconds: z.number().int().min(0).max(86_400).default(60),
      })
      .strict()
      .prefault({}),
    gate: z
      .object({
        enabled: z.boolean().default(true),
        requireStatus: z.array(z.string().min(1)).default(['ACTIVE']),
        departments: z.array(z.string().min(1)).default([]),
        onError: z.enum(['cached', 'allow', 'deny']).default('cached'),
        timeoutSeconds: z.number().min(1).max(300).default(15),
        bypassAce: z.string().default('roster.bypass'),
        requireCourses: z.array(z.string().min(1)).default([]),
        messages: messagesSchema,
      })
      .strict()
      .prefault({}),
    ranks: z
      .object({
        order: z.enum(['top-down', 'bottom-up']).default('top-down'),
      })
      .strict()
      .prefault({}),
    permissions: z
      .object({
        enabled: z.boolean().default(true),
        // Goes into console commands: only slug parts joined by dots, nothing a console would split.
        prefix: z
          .string()
          .regex(
            PRINCIPAL_PATTERN,
            'must be lowercase letters, digits and _, parts joined by dots (e.g. "roster")',
          )
          // A roster name under FXServer's own namespaces would become a server group or a player.
          .refine((prefix) => !isReservedPrefix(prefix), {
            error: (issue) =>
              `"${String(issue.input)}" is in one of FXServer's own namespaces (${RESERVED_NAMESPACES.join(', ')}): a department named like a server group (e.g. Admin) would hand its members that group's rights; choose another, e.g. "roster"`,
          })
          .default('roster'),
      })
      .strict()
      .prefault({}),
    // The owner's panel; the token is the convar roster_web_token.
    panel: z
      .object({
        trustedProxies: z
          .array(
            z
              .string()
              .refine(isAddressOrRange, {
                error: (issue) =>
                  `"${String(issue.input)}" is not an address: list the reverse proxies' addresses, e.g. ["127.0.0.1"] or ["10.0.0.0/8"]`,
              })
              // A range of every address would let anyone name the client in X-Forwarded-For.
              .refine((text) => !/\/0+$/.test(text), {
                error: (issue) =>
                  `"${String(issue.input)}" is every address: anyone could then name any client in X-Forwarded-For; list only the reverse proxies, e.g. ["127.0.0.1"] or ["10.0.0.0/8"]`,
              }),
          )
          .max(256)
          .default([]),
      })
      .strict()
      .prefault({}),
    // The whole roster kept on the server. A full read of a large roster
    // costs about two requests per 100 members, so it is never repeated more than twice an hour.
    mirror: z
      .object({
        enabled: z.boolean().default(true),
        resyncMinutes: z.number().int().min(30).max(10_080).default(360),
      })
      .strict()
      .prefault({}),
    // One roster for the servers on this key, through the community's database (oxmysql).
    share: z
      .object({
        enabled: z.boolean().default(false),
        // How this server is named in the shared tables; the sv_projectName convar when absent.
        serverName: z.string().trim().min(1).max(64).optional(),
      })
      .strict()
      .prefault({}),
    // Queue priority by department and rank: first match wins.
    queue: z
      .object({
        priority: z
          .array(
            z
              .object({
                department: z.string().min(1).optional(),
                minRank: z.string().min(1).optional(),
                power: z.number().int().min(1).max(1_000_000),
              })
              .strict(),
          )
          .default([]),
      })
      .strict()
      .prefault({}),
    // Job sync: the roster's departments and ranks become framework jobs.
    jobs: jobsSchema,
    training: z
      .object({
        enabled: z.boolean().default(false),
        baseUrl: z.string().optional(),
        departmentCourses: z.record(z.string(), z.array(z.string().min(1))).default({}),
        perMinute: positiveInt(100_000).default(60),
        maxBodyMB: positiveInt(256).default(16),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Config = z.output<typeof configSchema>;
export type GateMessages = Config['gate']['messages'];
