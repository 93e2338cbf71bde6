import type { FxServer, ScriptResource } from '../emulator';
import type { MockRoster } from '../mock-roster/server';

/** How many departments the service holds for a license (null: not a member): the truth a probe checks. */
export type DepartmentsOf = (license: string) => number | null;

/** The truth from the mock in this process. */
export function departmentsInMock(mock: MockRoster): DepartmentsOf {
  return (license) => {
    const held = mock.data.memberByLicense(license);
    return held ? mock.data.assignmentsOf(held.id).length : null;
  };
}

/**
 * Watches, from a second resource in each emulated server, when admitted players' roster data is
 * complete: `getMember` gives the member with every department the mock holds for them. It looks
 * at `playerJoining` (synchronously, as a script would) and then polls until complete.
 */
export class FullDataProbe {
  private readonly probes: ScriptResource[];
  /** By license: whether the data was complete at playerJoining, and when (host ms) it was first complete. */
  private readonly seen = new Map<string, { atJoining: boolean; completeAt: number | null }>();

  constructor(
    servers: readonly FxServer[],
    private readonly departmentsOf: DepartmentsOf,
  ) {
    this.probes = servers.map((server, index) => {
      const probe = server.createScriptResource(`bench-probe-${index}`);
      probe.on('playerJoining', () => {
        const src = Number(probe.global.source);
        const license = this.licenseOf(probe, src);
        if (license === null) return;
        const complete = this.complete(probe, src, license);
        this.seen.set(license, { atJoining: complete, completeAt: complete ? performance.now() : null });
      });
      return probe;
    });
  }

  /** Forgets every player seen (they all left), so the same players can be watched joining again. */
  reset(): void {
    this.seen.clear();
  }

  /** Whether the player's data was complete at playerJoining (false when never seen joining). */
  completeAtJoining(license: string): boolean {
    return this.seen.get(license.toLowerCase())?.atJoining ?? false;
  }

  /** Host `performance.now()` when the player's data was first seen complete, or null. */
  completeAt(license: string): number | null {
    return this.seen.get(license.toLowerCase())?.completeAt ?? null;
  }

  /** Polls admitted players (server index, id, license) until all are complete or `timeoutMs` passes. */
  async waitForAll(players: readonly { server: number; id: number; license: string }[], timeoutMs: number) {
    const until = performance.now() + timeoutMs;
    for (;;) {
      let missing = 0;
      for (const player of players) {
        const key = player.license.toLowerCase();
        const known = this.seen.get(key);
        if (known?.completeAt != null) continue;
        const probe = this.probes[player.server]!;
        if (this.complete(probe, player.id, key)) {
          this.seen.set(key, { atJoining: known?.atJoining ?? false, completeAt: performance.now() });
        } else missing++;
      }
      if (missing === 0 || performance.now() > until) return missing;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private licenseOf(probe: ScriptResource, src: number): string | null {
    const member = probe.exports.roster?.getMember?.(src) as { license?: string } | null;
    return typeof member?.license === 'string' ? member.license.toLowerCase() : null;
  }

  private complete(probe: ScriptResource, src: number, license: string): boolean {
    const member = probe.exports.roster?.getMember?.(src) as { departments?: unknown[] } | null;
    const held = this.departmentsOf(license);
    if (!member || held === null || !Array.isArray(member.departments)) return false;
    return member.departments.length === held;
  }
}
