import { describe, expect, it } from 'vitest';
import { defaultLayout } from '../../../../src/features/training/api/api-layout';
import { nextPageQuery } from '../../../../src/features/training/api/next-page';
import {
  readCourses,
  readIdentity,
  readLinkedCompletions,
  readLinkRequestReply,
  readProgress,
} from '../../../../src/features/training/api/records';

describe('records', () => {
  it('read courses, tolerating extra fields and skipping broken items; listed defaults to true', () => {
    expect(
      readCourses({
        courses: [
          { id: 'a', title: 'A', listed: false, difficulty: 'hard', extra: {} },
          { id: 'b', title: 'B' },
          { id: 5, title: null },
          'junk',
        ],
      }),
    ).toEqual([
      { id: 'a', title: 'A', listed: false },
      { id: 'b', title: 'B', listed: true },
    ]);
    expect(readCourses([{ id: 'x', title: 'X' }])).toEqual([{ id: 'x', title: 'X', listed: true }]);
    expect(readCourses({ data: { courses: [{ id: 'y', title: 'Y' }] } })).toHaveLength(1);
    expect(readCourses('nope')).toEqual([]);
  });

  it('read completions of linked users; records without discord_id are skipped', () => {
    expect(
      readLinkedCompletions({
        completions: [
          { discord_id: '1', user_sub: 's', course_id: 'c', completed_at: 't', title: 'T' },
          { user_sub: 's', course_id: 'c', completed_at: 't' },
        ],
      }),
    ).toEqual([{ discordId: '1', userSub: 's', courseId: 'c', title: 'T', completedAt: 't' }]);
  });

  it('read the key identity with flags of booleans only', () => {
    expect(
      readIdentity({
        tenant_id: 't',
        org: { alias: 'a', name: 'N', edition: 'e' },
        scopes: ['read', 4],
        flags: { discord: true, odd: 'x' },
      }),
    ).toEqual({
      tenantId: 't',
      org: { alias: 'a', name: 'N', edition: 'e' },
      scopes: ['read'],
      flags: { discord: true },
    });
  });

  it('read a link-request reply by the discovered names, else common ones', () => {
    const fields = { code: 'link_code', confirmUrl: 'verify', expiresAt: 'until' };
    expect(readLinkRequestReply({ link_code: 'ABC', verify: 'u', until: 't' }, fields)).toEqual({
      alreadyLinked: false,
      code: 'ABC',
      confirmUrl: 'u',
      expiresAt: 't',
    });
    expect(readLinkRequestReply({ code: 'X1', confirm_url: 'v' }, defaultLayout.linkReply)).toMatchObject({
      code: 'X1',
      confirmUrl: 'v',
    });
    expect(readLinkRequestReply({ already_linked: true, user_sub: 's' }, fields)).toEqual({
      alreadyLinked: true,
      userSub: 's',
    });
    expect(readLinkRequestReply({}, fields)).toBeUndefined();
  });

  it('read progress with badges as strings or objects', () => {
    expect(
      readProgress({ xp: 300, level: '2', badges: ['a', { id: 'b', name: 'B' }, 5] }, defaultLayout.progress),
    ).toEqual({
      experience: 300,
      level: 2,
      badges: [
        { id: 'a', name: 'a' },
        { id: 'b', name: 'B' },
      ],
    });
  });
});

describe('next page', () => {
  const paging = { page: 'page', limit: 'limit' };
  it.each([
    [{ next_page: 3 }, { page: '3' }],
    [{ next_page: null, has_more: true }, undefined],
    [{ has_more: true, page: 2 }, { page: '3' }],
    [{ has_more: false }, undefined],
    [{ next_cursor: 'abc' }, { cursor: 'abc' }],
    [{ next: '/api/public/v1/discord/completions?page=4&limit=50' }, { page: '4', limit: '50' }],
    [[], undefined],
  ])('%j → %j', (body, expected) => {
    expect(nextPageQuery(body, {}, paging)).toEqual(expected);
  });
});
