/**
 * What saving and loading the mirror in `roster-snapshot.json` costs for the largest mirror kept
 * there (50,000 members, every fifth in two departments): the file's size, the time of the save
 * at once (at stop: encode, JSON, write, fsync, rename), the longest piece of the save in slices
 * (the work one server frame does; the writing itself is off the game thread), and the load
 * (read, parse, validate, decode). Not a test (no bound on a busy machine); run it by hand:
 *
 *   npx esbuild test/features/mirror/snapshot-cost.ts --bundle --platform=node --format=esm \
 *     --outfile=/tmp/snapshot-cost.mjs && node /tmp/snapshot-cost.mjs
 */

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MirroredMember } from '../../../src/features/mirror/mirrored-member';
import {
  decodeMirror,
  mirrorJson,
  SAVED_MIRROR_LIMIT,
  type SavedMirror,
} from '../../../src/features/mirror/saved-mirror';
import { snapshotFile } from '../../../src/features/snapshot/fivem/snapshot-file';
import { loadSnapshot, saveSnapshot } from '../../../src/features/snapshot/snapshot';
import { silentLogger } from '../../../src/platform/ports';
import { MemberCache } from '../../../src/roster/member-cache';

const ranks = Array.from({ length: 8 }, (_, i) => ({
  id: `rank_lspd_${i + 1}`,
  departmentId: 'dept_lspd',
  name: `Rank ${i + 1}`,
  position: i + 1,
}));
const firefighter = { id: 'rank_safr_4', departmentId: 'dept_safr', name: 'Firefighter', position: 4 };

function member(i: number): MirroredMember {
  const rank = ranks[i % 8]!;
  const assignments = [
    {
      id: `asg_${i * 2}`,
      departmentId: 'dept_lspd',
      rankId: rank.id,
      isPrimary: true,
      callsign: `1-A-${i}`,
      rank,
    },
  ];
  if (i % 5 === 0)
    assignments.push({
      id: `asg_${i * 2 + 1}`,
      departmentId: 'dept_safr',
      rankId: firefighter.id,
      isPrimary: false,
      callsign: `F-${i}`,
      rank: firefighter,
    });
  return {
    id: `mem_${String(i).padStart(6, '0')}`,
    name: `Member Number ${i}`,
    status: 'ACTIVE',
    license: `license:${i.toString(16).padStart(40, '0')}`,
    assignments,
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
    readAt: 1_700_000_000_000,
  };
}

const saved: SavedMirror = {
  fullReadAt: Date.now(),
  audit: { at: Date.now() },
  newestMember: { text: new Date().toISOString(), at: Date.now() },
  catalog: {
    departments: [
      { id: 'dept_lspd', name: 'Los Santos Police Department', shortName: 'LSPD' },
      { id: 'dept_safr', name: 'San Andreas Fire Rescue', shortName: 'SAFR' },
    ],
    ranks: [...ranks, firefighter],
  },
  members: Array.from({ length: SAVED_MIRROR_LIMIT }, (_, i) => member(i)),
  spent: { day: Math.floor(Date.now() / 86_400_000), requests: 1100 },
  community: 'id:com_cost',
};

const folder = mkdtempSync(join(tmpdir(), 'snapshot-cost-'));
const store = snapshotFile(folder);
const cache = () => new MemberCache({ maxEntries: 100, ttlMs: 1, negativeTtlMs: 1, now: Date.now });
const time = (work: () => void) => {
  const start = performance.now();
  work();
  return performance.now() - start;
};
for (let run = 1; run <= 3; run++) {
  const save = time(() => saveSnapshot(cache(), store, Date.now(), { mirror: mirrorJson(saved) }));
  let longestPiece = 0;
  const pieces = mirrorJson(saved);
  for (let done = false; !done; )
    longestPiece = Math.max(
      longestPiece,
      time(() => (done = !!pieces.next().done)),
    );
  let members = 0;
  const load = time(() => {
    const loaded = loadSnapshot(cache(), store, silentLogger);
    const decoded = decodeMirror(loaded?.mirror);
    members = 'saved' in decoded ? decoded.saved.members.length : -1;
  });
  const size = statSync(join(folder, 'roster-snapshot.json')).size;
  console.log(
    `run ${run}: ${members} members, ${(size / 1e6).toFixed(1)} MB, save at once ${save.toFixed(0)} ms, longest piece ${longestPiece.toFixed(1)} ms, load ${load.toFixed(0)} ms`,
  );
}
rmSync(folder, { recursive: true, force: true });
