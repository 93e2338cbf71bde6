import { afterEach, describe, expect, it } from 'vitest';
import { mirrorDoctorLine, mirrorStatusLine } from '../../../src/features/mirror/mirror-lines';
import type { MirroredMember } from '../../../src/features/mirror/mirrored-member';
import { followedFeed, mirrorRig, until } from '../mirror/fake-community';

// The mirror's side of sharing: a copy another server reads, followed without a request of its
// own, and the handover when this server reads again.

type Rig = ReturnType<typeof mirrorRig>;
const rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs.splice(0)) await rig.close();
});

/** A server that read the roster itself, with every change its mirror made. */
async function reader(): Promise<{ rig: Rig; changes: { put: MirroredMember[]; removed: string[] } }> {
  const rig = mirrorRig({ members: 120, passMs: 1_000 });
  rigs.push(rig);
  const changes = { put: [] as MirroredMember[], removed: [] as string[] };
  rig.sync.onChange((put, removed) => {
    changes.put.push(...put);
    changes.removed.push(...removed);
  });
  await rig.catalog.load();
  rig.sync.follow(followedFeed(rig));
  rig.sync.begin();
  await until(rig.clock, () => rig.sync.report().state.kind === 'up');
  return { rig, changes };
}

/** Another server on the same community and clock, following the copy. */
async function follower(from: Rig, inStep: () => boolean): Promise<Rig> {
  const rig = mirrorRig({ passMs: 1_000 }, { clock: from.clock, community: from.community });
  rigs.push(rig);
  await rig.catalog.load();
  rig.sync.followShared(inStep);
  rig.sync.follow(followedFeed(rig));
  rig.sync.begin();
  return rig;
}

describe('a mirror following a copy', () => {
  it('tells every member its full read brought to the change listener', async () => {
    const { rig, changes } = await reader();
    expect(changes.put).toHaveLength(120);
    expect(new Set(changes.put.map((m) => m.id)).size).toBe(rig.sync.report().held);
  });

  it('reads nothing itself, holds what is applied, and decides only while the copy is in step', async () => {
    const { rig: main, changes } = await reader();
    let inStep = true;
    const copy = await follower(main, () => inStep);
    await main.clock.advance(30 * 60_000);
    expect(copy.mirrorRequests()).toEqual([]);
    expect(copy.sync.report().deciding).toBe(false);

    copy.sync.applyShared({ put: changes.put, removed: [] }, true);
    copy.sync.sharedComplete(main.clock.now());
    expect(copy.sync.report()).toMatchObject({ held: 120, deciding: true, state: { kind: 'up' } });
    const now = copy.clock.now();
    expect(mirrorStatusLine(copy.sync.report(), now)).toMatch(
      /120 members held, following the shared roster/,
    );
    expect(mirrorDoctorLine(copy.sync.report(), now)).toMatch(
      /^✓ mirror holds 120 members, following the shared roster/,
    );
    const someone = changes.put[0]!;
    expect(copy.members.mirrored(someone.license)?.member.id).toBe(someone.id);
    inStep = false;
    expect(copy.sync.report().deciding).toBe(false);
    expect(copy.members.mirrored(someone.license)).toBeUndefined();
  });

  it('takes over from a shared audit position: a catch-up, no full read', async () => {
    const { rig: main, changes } = await reader();
    const copy = await follower(main, () => true);
    copy.sync.applyShared({ put: changes.put, removed: [] }, true);
    copy.sync.sharedComplete(main.clock.now());
    copy.sync.lead({ audit: { at: main.clock.now() }, fullReadAt: main.clock.now(), complete: true });
    expect(copy.sync.report().state.kind).toBe('catching-up');
    expect(copy.sync.report().deciding).toBe(false);
    await until(copy.clock, () => copy.sync.report().state.kind === 'up', 60_000);
    expect(copy.sync.report().deciding).toBe(true);
    expect(copy.mirrorRequests()).toEqual([]);
  });

  it('without a shared position a takeover is a gap: nothing decided until its own full read completes', async () => {
    const { rig: main, changes } = await reader();
    const copy = await follower(main, () => true);
    copy.sync.applyShared({ put: changes.put, removed: [] }, true);
    copy.sync.sharedComplete(main.clock.now());
    copy.sync.lead(null);
    expect(copy.sync.report().deciding).toBe(false);
    expect(copy.sync.report().lastGap?.rereadAt).toBeNull();
    await until(copy.clock, () => copy.sync.report().lastGap?.rereadAt != null, 30 * 60_000);
    expect(copy.mirrorRequests().length).toBeGreaterThan(0);
    expect(copy.sync.report().deciding).toBe(true);
  });

  it("while it reads itself, takes another server's record only when read later than its own", async () => {
    const { rig, changes } = await reader();
    const held = changes.put[0]!;
    rig.sync.applyShared({ put: [{ ...held, status: 'SUSPENDED', readAt: held.readAt - 1 }], removed: [] });
    expect(rig.members.mirrored(held.license)?.member.status).toBe(held.status);
    rig.sync.applyShared({
      put: [{ ...held, status: 'SUSPENDED', readAt: rig.clock.now() + 1 }],
      removed: [],
    });
    expect(rig.members.mirrored(held.license)?.member.status).toBe('SUSPENDED');
  });

  it('while it reads itself, drops a member another server found gone only when found after its own read', async () => {
    const { rig, changes } = await reader();
    const held = changes.put[0]!;
    rig.sync.applyShared({ put: [], removed: [{ id: held.id, readAt: held.readAt - 1 }] });
    expect(rig.members.mirrored(held.license)?.member.id).toBe(held.id);
    rig.sync.applyShared({ put: [], removed: [{ id: held.id, readAt: rig.clock.now() + 1 }] });
    expect(rig.members.mirrored(held.license)).toBeUndefined();
  });

  it('a member whose record comes into doubt is told to the listener; a copy holds it, doubted, without answering', async () => {
    const { rig: main, changes } = await reader();
    const copy = await follower(main, () => true);
    copy.sync.applyShared({ put: changes.put, removed: [] }, true);
    copy.sync.sharedComplete(main.clock.now());
    const someone = changes.put[3]!;
    expect(copy.members.mirrored(someone.license)?.member.id).toBe(someone.id);
    const doubted: MirroredMember[] = [];
    main.sync.onChange((_put, _removed, doubts) => doubted.push(...(doubts ?? [])));
    main.members.doubt(someone.license);
    main.members.doubt(someone.license);
    expect(doubted.map((m) => m.id)).toEqual([someone.id]);
    // What the copy brings is not told back to the copy's own listener (nothing written again).
    const told: string[] = [];
    copy.sync.onChange((put, removed, doubts) =>
      told.push(...put.map((m) => m.id), ...removed, ...(doubts ?? []).map((m) => m.id)),
    );
    copy.sync.applyShared({ put: doubted, removed: [], doubted: new Set([someone.id]) });
    expect(copy.members.mirrored(someone.license)).toBeUndefined();
    expect(told).toEqual([]);
    expect(copy.sync.report().held).toBe(120);
    // A newer record of theirs (the reader's re-read) answers again.
    copy.sync.applyShared({ put: [{ ...someone, readAt: main.clock.now() + 1 }], removed: [] });
    expect(copy.members.mirrored(someone.license)?.member.id).toBe(someone.id);
  });
});
