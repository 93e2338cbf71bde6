import { type FakeReply, type FakeRequest, fail, ok } from './fake-roster';

export interface SeedMember {
  id: string;
  gameLicense: string;
  status?: string;
  displayName?: string;
  inline?: boolean;
}

/** A tiny roster service: members by gameLicense (case-insensitive), assignments by memberId, paginated. */
export function rosterHandler(members: SeedMember[], options: { pageSize?: number } = {}) {
  return (request: FakeRequest): FakeReply => {
    const limit = Math.min(Number(request.query.get('limit') ?? 20), options.pageSize ?? 100);
    const page = Number(request.query.get('page') ?? 1);
    if (request.path === '/api/v1/members') {
      const wanted = new Set(request.query.getAll('gameLicense').map((value) => value.toLowerCase()));
      const found = members
        .filter((member) => wanted.has(member.gameLicense.toLowerCase()))
        .map((member) => ({
          id: member.id,
          status: member.status ?? 'ACTIVE',
          gameLicense: member.gameLicense,
          displayName: member.displayName ?? `Member ${member.id}`,
          joinDate: '2024-01-01',
          ...(member.inline ? { departmentAssignments: [assignment(member.id)] } : {}),
        }));
      return paged(found, page, limit);
    }
    if (request.path === '/api/v1/department-assignments') {
      const ids = new Set(request.query.getAll('memberId'));
      const rows = members.filter((member) => ids.has(member.id)).map((member) => assignment(member.id));
      return paged(rows, page, limit);
    }
    return fail(404, 'not_found', `no ${request.path}`);
  };
}

export function assignment(memberId: string) {
  return {
    id: `as_${memberId}`,
    memberId,
    departmentId: 'd_lspd',
    rankId: 'r_sgt',
    isPrimary: true,
    callsign: '1-A-12',
    rank: { id: 'r_sgt', departmentId: 'd_lspd', name: 'Sergeant', position: 3 },
  };
}

function paged(rows: unknown[], page: number, limit: number): FakeReply {
  const total = rows.length;
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return ok(rows.slice((page - 1) * limit, page * limit), {
    pagination: { page, limit, total, total_pages: totalPages, has_more: page < totalPages },
  });
}
