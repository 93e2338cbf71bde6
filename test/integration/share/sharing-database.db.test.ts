import { describe, expect, it } from 'vitest';
import { eventually } from '../harness';
import { joins, rosterReads, sharingLine } from './fleet';
import { closeAfterEach, twoServers } from './two-servers';

const keep = closeAfterEach();

describe('a database that is not trusted blindly', () => {
  it('refusing: sharing off for that server with one line, its decisions right from its own reads, back on later', async () => {
    const { h, events } = await twoServers(keep);
    await events.database.link.refuse();
    await eventually(() => events.logText().includes("the shared roster's database did not answer"), 15_000);
    expect(events.logText().match(/shared roster's database did not answer/g)).toHaveLength(1);
    // Alone, it reads the roster itself again and stays right.
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[3]!;
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    await eventually(async () => !(await joins(events.server, member.gameLicense, 'Alone')), 20_000, 100);
    expect(rosterReads(events.seen).length).toBeGreaterThan(0);
    expect(await sharingLine(events.server)).toMatch(/sharing: off for this server/);

    events.database.link.restore();
    // The calls oxmysql never answered while refused hold the others back, but one goes through
    // every few seconds: the first it answers brings sharing back.
    await eventually(() => events.logText().includes('the database answers again'), 20_000);
    await eventually(
      async () => /sharing: on as events, follower/.test(await sharingLine(events.server)),
      10_000,
      100,
    );
  }, 90_000);

  it('stalled: past the bound sharing is off for that server, its copy stops deciding, its decisions stay right; back on when it moves', async () => {
    const { h, events } = await twoServers(keep);
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[4]!;
    events.database.link.stall();
    await eventually(() => events.logText().includes("the shared roster's database did not answer"), 15_000);
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    await eventually(async () => !(await joins(events.server, member.gameLicense, 'Stalled')), 20_000, 100);
    expect(rosterReads(events.seen).length).toBeGreaterThan(0);

    events.database.link.restore();
    await eventually(() => events.logText().includes('the database answers again'), 30_000);
    await eventually(
      async () => /sharing: on as events, follower/.test(await sharingLine(events.server)),
      10_000,
      100,
    );
    expect(events.logText().match(/shared roster's database did not answer/g)).toHaveLength(1);
    // Following again: the member stays refused from the shared copy.
    expect(await joins(events.server, member.gameLicense, 'Again')).toBe(false);
  }, 120_000);
});
