import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The folder name GitHub's "Download ZIP" gives the repository. */
const ZIP_FOLDER = 'roster-main';

/** The bundle started from its folder under `name`, with server.cfg's lines as the README gives them. */
async function startNamed(name: string): Promise<Harness> {
  const harness = await startHarness({ startResource: false });
  harness.server.startResource(name, harness.folder);
  return harness;
}

describe('a resource started under another name than roster', () => {
  it('says in one line that it must be named roster and why, and nothing about the key', async () => {
    h = await startNamed(ZIP_FOLDER);
    const lines = h.server.log.of(ZIP_FOLDER);
    const named = lines.filter((line) => line.includes('must be named "roster"'));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain(`started as "${ZIP_FOLDER}"`);
    expect(named[0]).toContain('exports.roster');
    expect(named[0]).toContain('add_convar_permission roster read roster_api_key');
    expect(named[0]).toContain('ensure roster');
    // The key is set in server.cfg; the convar permission only hides it from this name.
    expect(lines.join('\n')).not.toMatch(/roster_api_key is not set/);
    expect(lines.filter((line) => line.includes('roster_api_key'))).toEqual(named);
  });

  it('fails closed: refuses a member, sends nothing to the service, and doctor repeats the line', async () => {
    h = await startNamed(ZIP_FOLDER);
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const decision = await h.server.connectPlayer({ name: 'Alice', identifiers: [member.gameLicense] })
      .decision;
    expect(decision).toMatchObject({ admitted: false });
    expect(!decision.admitted && decision.reason).toMatch(/roster check is not set up/);
    h.server.executeCommand('roster doctor');
    await eventually(
      () => h!.server.log.of(ZIP_FOLDER).filter((l) => l.includes('must be named')).length === 2,
    );
    expect(h.mock.counters.total).toBe(0);
  });

  it('starts as usual under its own name', async () => {
    h = await startNamed('roster');
    await eventually(() => h!.logText().includes('connected to the roster'));
    expect(h.logText()).not.toMatch(/must be named/);
  });
});
