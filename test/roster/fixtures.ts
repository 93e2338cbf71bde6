import type { Catalog, MemberLookup } from '../../src/roster/model';

export const catalog: Catalog = {
  departments: [
    { id: 'd-lspd', name: 'Los Santos Police Department', shortName: 'LSPD' },
    { id: 'd-safr', name: 'San Andreas Fire Rescue', shortName: 'SAFR' },
  ],
  ranks: [
    { id: 'r-chief', departmentId: 'd-lspd', name: 'Chief', position: 1 },
    { id: 'r-sgt', departmentId: 'd-lspd', name: 'Sergeant', position: 5 },
    { id: 'r-off', departmentId: 'd-lspd', name: 'Officer', position: 7 },
    { id: 'r-ff', departmentId: 'd-safr', name: 'Firefighter', position: 4 },
  ],
};

export const license = `license:${'a'.repeat(40)}`;

export function lookupOf(status = 'ACTIVE', rankId: string | null = 'r-off'): MemberLookup {
  return {
    member: { id: 'm-1', status, gameLicense: license, name: 'Alice Smith' },
    assignments: [
      {
        id: 'a-1',
        memberId: 'm-1',
        departmentId: 'd-lspd',
        rankId,
        isPrimary: false,
        callsign: '1-A-12',
        rank: null,
      },
      {
        id: 'a-2',
        memberId: 'm-1',
        departmentId: 'd-safr',
        rankId: 'r-ff',
        isPrimary: true,
        callsign: null,
        rank: null,
      },
    ],
  };
}
