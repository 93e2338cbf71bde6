/**
 * How much memory the mirror holds per member: 5,000 members (every fifth in two departments,
 * ranks expanded as the service sends them), measured with `process.memoryUsage()` after a GC.
 * Not a test (no bound on a busy machine); run it by hand:
 *
 *   npx esbuild test/features/mirror/memory-per-member.ts --bundle --platform=node --format=esm \
 *     --outfile=/tmp/memory-per-member.mjs && node --expose-gc /tmp/memory-per-member.mjs
 */

import { RosterMirror } from '../../../src/features/mirror/roster-mirror';
import type { ApiAssignment, MemberLookup } from '../../../src/roster/model';

const COUNT = 5000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

/** A member as the service would send it, built from fresh strings as JSON.parse makes them. */
function record(i: number): MemberLookup {
  const id = `mem_${String(i).padStart(5, '0')}`;
  const assignment = (n: number, department: string, rank: string, position: number): ApiAssignment => ({
    id: `asg_${String(i * 2 + n).padStart(6, '0')}`,
    memberId: id,
    departmentId: department,
    rankId: rank,
    isPrimary: n === 0,
    callsign: n === 0 ? `1-A-${i}` : null,
    rank: { id: rank, departmentId: department, name: `Rank ${position}`, position },
  });
  const assignments = [assignment(0, 'dept_lspd', `rank_lspd_${(i % 8) + 1}`, (i % 8) + 1)];
  if (i % 5 === 0) assignments.push(assignment(1, 'dept_safr', 'rank_safr_4', 4));
  return JSON.parse(
    JSON.stringify({
      member: {
        id,
        status: 'ACTIVE',
        gameLicense: `license:${i.toString(16).padStart(40, '0')}`,
        name: `Firstname Lastname ${i}`,
      },
      assignments,
    }),
  ) as MemberLookup;
}

const mirror = new RosterMirror(100_000, () => {});
gc();
const before = process.memoryUsage().heapUsed;
// Each record read is dropped once compacted: only what the mirror keeps stays.
mirror.beginRead();
mirror.replaceAll(Array.from({ length: COUNT }, (_, i) => mirror.compact(record(i))));
gc();
const after = process.memoryUsage().heapUsed;
const perMember = (after - before) / COUNT;
console.log(
  `${COUNT} members held: ${Math.round(after - before)} bytes, ${Math.round(perMember)} bytes per member`,
);
