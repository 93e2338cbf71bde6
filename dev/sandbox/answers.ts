/** A member as the resource hands it across exports and events (the fields the sandbox prints). */
export interface MemberAnswer {
  id: string;
  name: string;
  status: string;
  departments: { shortName: string | null; name: string; primary: boolean; rank: RankAnswer | null }[];
}

export interface RankAnswer {
  id: string;
  name: string;
  position: number;
}

/** The exports the sandbox calls, as a caller resource sees them. */
export interface RosterExports {
  getMember(src: number): MemberAnswer | null;
  getRank(src: number, department?: string): RankAnswer | null;
  isOnRoster(src: number): boolean;
  hasMinRank(src: number, department: string, rank: string): boolean;
  lookupLicense(license: string): Promise<MemberAnswer | null>;
  refreshPlayer(src: number): Promise<MemberAnswer | null>;
  getDutyHours(src: number, days?: number): number | null;
  getPriority(srcOrLicense: number | string): number;
}

/** The member's LSPD rank name, or `none`. */
export function lspdRank(member: MemberAnswer | null): string {
  const lspd = member?.departments.find((d) => d.shortName === 'LSPD');
  return lspd?.rank?.name ?? 'none';
}

/** A short, readable rendering of an export's answer. */
export function describe(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return String(value);
  const record = value as Partial<MemberAnswer & RankAnswer>;
  if (Array.isArray(record.departments)) {
    const departments = record.departments
      .map((d) => `${d.primary ? '*' : ''}${d.shortName ?? d.name} ${d.rank?.name ?? '(no rank)'}`)
      .join(', ');
    return `${record.name} (${record.id}), ${record.status}; ${departments}`;
  }
  if (typeof record.position === 'number') return `${record.name} (position ${record.position})`;
  return JSON.stringify(value);
}

/** One answer line: the call, padded, then what it returned. */
export function answerLine(call: string, value: unknown, width = 52): string {
  return `${call.padEnd(width)} -> ${describe(value)}`;
}
