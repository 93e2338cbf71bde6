import path from 'node:path';
import type { MockMember } from '../../../dev/mock-roster/records';
import { eventually, type Harness, type HarnessOptions, startHarness } from '../harness';

/** The stand-ins, as the built tree holds them (dev/build.mjs copies dev/frameworks). */
export const FRAMEWORKS_DIR = path.resolve(import.meta.dirname, '../../../.build/dev/frameworks');

type Fn = (...args: unknown[]) => unknown;

/** A Qbox-style mapping: LSPD with listed grades, SAFR by grade name. */
export const QBOX_DEPARTMENTS = {
  LSPD: { job: 'police', grades: { Cadet: 0, Officer: 1, Sergeant: 2, Lieutenant: 3, Chief: 4 } },
  SAFR: { job: 'ambulance' },
};

export interface JobsRig {
  h: Harness;
  /** Exports of a resource, called from the test's caller resource (a real cross-resource call). */
  ex(resource: string): Record<string, Fn>;
  /** A new ACTIVE member of `department` at `rank`, connected and known to the roster; their server id. */
  join(
    department: string,
    rank: string,
    options?: { name?: string },
  ): Promise<{ id: number; member: MockMember }>;
  /** Changes a member's rank on the roster and refreshes the player (a roster change). */
  promote(id: number, member: MockMember, department: string, rank: string): Promise<void>;
  /** Runs a console command (again, up to 5 times) until its output matches `until`; its lines, joined. */
  console(command: string, until: RegExp): Promise<string>;
  close(): Promise<void>;
}

export interface RigOptions extends HarnessOptions {
  /** The stand-in to start (its folder under dev/frameworks) and how: Lua or a JS resource. */
  framework: { resource: string; lua: boolean };
  departments?: Record<string, unknown>;
  unassigned?: { job: string; grade: number };
  /** Start the framework before the roster resource (default: after). */
  frameworkFirst?: boolean;
  convars?: Record<string, string>;
}

export async function startJobsRig(options: RigOptions): Promise<JobsRig> {
  const { framework } = options;
  const h = await startHarness({
    members: 20,
    ...options,
    startResource: false,
    config: {
      jobs: {
        enabled: true,
        departments: options.departments ?? QBOX_DEPARTMENTS,
        ...(options.unassigned ? { unassigned: options.unassigned } : {}),
      },
      ...options.config,
    },
  });
  for (const [name, value] of Object.entries(options.convars ?? {}))
    h.server.executeCommand(`set ${name} ${value}`);
  const startFramework = async () => {
    const root = path.join(FRAMEWORKS_DIR, framework.resource);
    if (framework.lua) await h.server.startLuaResource(framework.resource, root);
    else h.server.startResource(framework.resource, root);
  };
  if (options.frameworkFirst) await startFramework();
  h.server.startResource('roster', h.folder);
  if (!options.frameworkFirst) await startFramework();
  const ex = (resource: string) => (h.caller.exports as Record<string, Record<string, Fn>>)[resource]!;
  return {
    h,
    ex,
    async join(department, rank, { name = 'Officer Test' } = {}) {
      const dept = h.mock.data.data.departments.find((d) => d.shortName === department)!;
      const member = h.mock.data.addMember({
        displayName: name,
        departmentId: dept.id,
        rankId: h.mock.data.rankByName(department, rank).id,
      });
      const connection = h.server.connectPlayer({ name, identifiers: [member.gameLicense, 'ip:127.0.0.1'] });
      const decision = await connection.decision;
      if (!decision.admitted) throw new Error(`not admitted: ${decision.reason}`);
      const id = Number(decision.id);
      await eventually(() => ex('roster').getMember!(id) !== null);
      return { id, member };
    },
    async promote(id, member, department, rank) {
      h.mock.data.setMemberRank(member.id, h.mock.data.rankByName(department, rank).id);
      await ex('roster').refreshPlayer!(id);
    },
    async console(command, until) {
      // Run again while it does not match yet (a framework's job list may still be on its way).
      for (let attempt = 0; ; attempt++) {
        const before = h.server.log.lines.length;
        h.server.executeCommand(command);
        try {
          return await eventually(() => {
            const text = h.server.log.lines.slice(before).join('\n');
            return until.test(text) ? text : undefined;
          }, 2000);
        } catch (error) {
          if (attempt >= 4) throw error;
        }
      }
    },
    close: () => h.close(),
  };
}
