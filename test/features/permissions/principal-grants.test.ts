import { describe, expect, it } from 'vitest';
import { type LedgerStore, PrincipalGrants } from '../../../src/features/permissions/principal-grants';
import type { PrincipalLink } from '../../../src/platform/principal-names';
import { CatalogIndex } from '../../../src/roster/catalog-index';
import type { Member } from '../../../src/roster/model';
import { catalog, license } from '../../roster/fixtures';

const me = `identifier.${license}`;

/** A multimap ACL like se/Security.cpp: adding twice adds twice, removing removes every copy. */
function fakeAcl() {
  const links: string[] = [];
  const log: string[] = [];
  return {
    links,
    log,
    commands: {
      permitted: () => true,
      add(link: PrincipalLink) {
        log.push(`+${link.child} ${link.parent}`);
        links.push(`${link.child} ${link.parent}`);
      },
      remove(link: PrincipalLink) {
        log.push(`-${link.child} ${link.parent}`);
        for (let i = links.length - 1; i >= 0; i--)
          if (links[i] === `${link.child} ${link.parent}`) links.splice(i, 1);
      },
    },
  };
}

function memoryLedger(text: string | null = null): LedgerStore & { text: string | null; writes: number } {
  const store = {
    text,
    writes: 0,
    read: () => store.text,
    write(next: string) {
      store.text = next;
      store.writes++;
    },
    append(more: string) {
      store.text = (store.text ?? '') + more;
      store.writes++;
    },
  };
  return store;
}

function setup(options: { permitted?: () => boolean; ledger?: LedgerStore } = {}) {
  const acl = fakeAcl();
  if (options.permitted) acl.commands.permitted = options.permitted;
  const ledger = options.ledger ?? memoryLedger();
  const warnings: string[] = [];
  const grants = new PrincipalGrants({
    commands: acl.commands,
    ledger,
    logger: { error() {}, warn: (m) => warnings.push(m), info() {}, debug() {} },
    prefix: 'roster',
    order: 'top-down',
    requireStatus: ['ACTIVE'],
    blockedMessage: 'BLOCKED: add both lines',
  });
  return { acl, ledger, grants, warnings };
}

function member(status: string, rankId: string | null, departmentId = 'd-lspd'): Member {
  const rank = rankId ? { id: rankId, name: rankId, position: 1 } : null;
  return {
    id: 'm-1',
    name: 'Alice',
    status,
    license,
    departments: [{ id: departmentId, name: 'x', shortName: null, primary: true, callsign: null, rank }],
  };
}

const ladderLinks = [
  'roster.lspd.chief roster.lspd.sergeant',
  'roster.lspd.sergeant roster.lspd.officer',
  'roster.lspd.officer roster.lspd',
  'roster.safr.firefighter roster.safr',
];

describe('principal grants', () => {
  it('grants the ladder and an admitted member her member, department and rank principals', () => {
    const { acl, grants } = setup();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    grants.hold({}, license, member('ACTIVE', 'r-sgt'));
    expect(acl.links.sort()).toEqual(
      [...ladderLinks, `${me} roster.member`, `${me} roster.lspd`, `${me} roster.lspd.sergeant`].sort(),
    );
  });

  it('grants nothing to a suspended member or a stranger, and takes all back on suspension', () => {
    const { acl, grants } = setup();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    const client = {};
    grants.hold(client, license, member('SUSPENDED', 'r-chief'));
    grants.hold({}, `license:${'b'.repeat(40)}`, null);
    expect(acl.links.sort()).toEqual([...ladderLinks].sort());
    grants.hold(client, license, member('ACTIVE', 'r-chief'));
    expect(acl.links).toContain(`${me} roster.lspd.chief`);
    grants.hold(client, license, member('SUSPENDED', 'r-chief'));
    expect(acl.links.filter((l) => l.startsWith(me))).toEqual([]);
  });

  it('a department added with a colliding name takes nothing from members online, and is named once', () => {
    const { acl, grants, warnings } = setup();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    grants.hold({}, license, member('ACTIVE', 'r-sgt'));
    const before = [...acl.links].sort();
    const added = {
      ...catalog,
      // Listed first, with no createdAt: the department that held roster.lspd keeps it.
      departments: [{ id: 'd-new', name: 'Lake Side PD', shortName: 'lspd' }, ...catalog.departments],
    };
    grants.setCatalog(new CatalogIndex(added));
    grants.setCatalog(new CatalogIndex(added));
    expect([...acl.links].sort()).toEqual(before);
    expect(warnings).toEqual([
      'permissions: department "lspd — Lake Side PD" would be roster.lspd, which the older department "LSPD — Los Santos Police Department" has: it gets no principal until renamed (or given a distinct short name).',
    ]);
  });

  it('moves a promotion in one step, removing before adding', () => {
    const { acl, grants } = setup();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    const client = {};
    grants.hold(client, license, member('ACTIVE', 'r-off'));
    acl.log.length = 0;
    grants.hold(client, license, member('ACTIVE', 'r-sgt'));
    expect(acl.log).toEqual([`-${me} roster.lspd.officer`, `+${me} roster.lspd.sergeant`]);
  });

  it('keeps shared links while another client of the license holds them; each link added once', () => {
    const { acl, grants } = setup();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    const first = {};
    const second = {};
    grants.hold(first, license, member('ACTIVE', 'r-off'));
    grants.hold(second, license, member('ACTIVE', 'r-off'));
    expect(acl.links.filter((l) => l === `${me} roster.member`)).toHaveLength(1);
    grants.release(first);
    expect(acl.links).toContain(`${me} roster.member`);
    grants.release(second);
    expect(acl.links.filter((l) => l.startsWith(me))).toEqual([]);
  });

  it('rebuilds the ladder when a rank is renamed, removing the old links and re-granting members', () => {
    const { acl, grants } = setup();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    grants.hold({}, license, member('ACTIVE', 'r-sgt'));
    const renamed = {
      ...catalog,
      ranks: catalog.ranks.map((r) => (r.id === 'r-sgt' ? { ...r, name: 'Staff Sergeant' } : r)),
    };
    grants.setCatalog(new CatalogIndex(renamed));
    expect(acl.links.some((l) => l.includes('roster.lspd.sergeant'))).toBe(false);
    expect(acl.links).toContain('roster.lspd.chief roster.lspd.staff_sergeant');
    expect(acl.links).toContain('roster.lspd.staff_sergeant roster.lspd.officer');
    expect(acl.links).toContain(`${me} roster.lspd.staff_sergeant`);
  });

  it('releases clients no longer known and removes everything at stop, emptying the ledger', () => {
    const { acl, grants, ledger } = setup();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    const kept = {};
    grants.hold(kept, license, member('ACTIVE', 'r-off'));
    grants.hold({}, `license:${'d'.repeat(40)}`, {
      ...member('ACTIVE', null),
      license: `license:${'d'.repeat(40)}`,
    });
    expect(grants.retain(new Set([kept]))).toBe(1);
    expect(acl.links.some((l) => l.includes('d'.repeat(40)))).toBe(false);
    grants.stop();
    expect(acl.links).toEqual([]);
    expect(
      ledger
        .read()
        ?.split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).toEqual([]);
  });

  it('writes every link to the ledger before adding it, and a start after a crash removes what it lists', () => {
    const ledger = memoryLedger();
    const first = setup({ ledger });
    let seenInLedger = true;
    const add = first.acl.commands.add;
    first.acl.commands.add = (link) => {
      seenInLedger &&= (ledger.text ?? '').includes(`${link.child} ${link.parent}`);
      add(link);
    };
    first.grants.activate();
    first.grants.setCatalog(new CatalogIndex(catalog));
    first.grants.hold({}, license, member('ACTIVE', 'r-chief'));
    expect(seenInLedger).toBe(true);
    // The run ends without stop(): its links stay in the ACL. The next run removes them.
    const second = setup({ ledger });
    second.acl.links.push(...first.acl.links);
    expect(second.grants.activate()).toBe(first.acl.links.length);
    expect(second.acl.links).toEqual([]);
    expect(ledger.read()).not.toContain(me);
  });

  it('without the permission: says so once, issues no command, and grants once it is added', () => {
    let permitted = false;
    const { acl, grants, warnings } = setup({ permitted: () => permitted });
    grants.activate();
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    grants.hold({}, license, member('ACTIVE', 'r-off'));
    expect(acl.log).toEqual([]);
    expect(warnings).toEqual(['BLOCKED: add both lines']);
    expect(grants.granting).toBe(false);
    permitted = true;
    grants.activate();
    expect(acl.links).toContain(`${me} roster.lspd.officer`);
  });

  it('a ledger that cannot be written is said once and does not stop granting', () => {
    const { acl, grants, warnings } = setup({
      ledger: {
        read: () => null,
        write() {
          throw new Error('read-only folder');
        },
        append() {
          throw new Error('read-only folder');
        },
      },
    });
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    grants.hold({}, license, member('ACTIVE', 'r-off'));
    expect(acl.links).toContain(`${me} roster.member`);
    expect(warnings.filter((w) => w.includes('read-only folder'))).toHaveLength(1);
  });

  it('a storm of grants appends to the ledger rather than rewriting it, and compacts once most of it is stale', () => {
    const ledger = memoryLedger();
    const { grants } = setup({ ledger });
    grants.activate();
    grants.setCatalog(new CatalogIndex(catalog));
    const rewrites = () => ledger.text?.split('\n').filter((l) => l.startsWith('#')).length ?? 0;
    const holders: object[] = [];
    for (let i = 0; i < 300; i += 1) {
      const holder = {};
      holders.push(holder);
      const lic = `license:${i.toString(16).padStart(40, '0')}`;
      grants.hold(holder, lic, { ...member('ACTIVE', 'r-off'), license: lic });
    }
    // One header: every player's links were appended, none rewrote the file.
    expect(rewrites()).toBe(1);
    expect(ledger.text).toContain(`license:${(299).toString(16).padStart(40, '0')}`);
    // Everyone leaves: the stale lines are dropped by a rewrite before the file grows past its slack.
    grants.retain(new Set());
    const lines = (ledger.text ?? '').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines.length).toBeLessThanOrEqual(2 * grants.grantedCount + 256);
  });
});
