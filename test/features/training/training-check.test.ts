import { describe, expect, it } from 'vitest';
import { trainingVerdict } from '../../../src/features/training/training-check';
import { TrainingService } from '../../../src/features/training/training-service';
import type { Config } from '../../../src/kernel/config';
import type { FakeRequest } from '../../roster/client/fake-roster';
import { outcome } from '../../roster/client/fake-roster';
import { json, testLearning } from './fake-learning';

interface World {
  linked: Record<string, boolean>;
  completions: { discord_id: string; course_id: string; completed_at: string }[];
  down: boolean;
  hang: boolean;
}

function learningWorld(world: World) {
  return (request: FakeRequest) => {
    if (world.down) return { status: 503, text: 'down' };
    const path = request.path.replace('/api/public/v1', '');
    if (path === '/courses')
      return json({ courses: [{ id: 'c-police', title: 'Police Academy', listed: true }] });
    if (path === '/discord/completions') return json({ completions: world.completions, next_page: null });
    if (path.startsWith('/discord/links/'))
      return json({ linked: world.linked[path.split('/').pop()!] === true, user_sub: 's' });
    if (path === '/discord/link-requests')
      return json(
        {
          already_linked: false,
          code: 'ABC234',
          confirm_url: 'https://learn.test/link?code=ABC234',
          expires_at: 'soon',
        },
        201,
      );
    return { status: 404, body: { error: { code: 'not_found' } } };
  };
}

function setup(world: World, onError: Config['gate']['onError'] = 'cached') {
  let hangs: (() => void)[] = [];
  const hanging = world.hang;
  const t = testLearning(
    learningWorld(world),
    hanging
      ? {
          dispatcher: {
            request: () => new Promise((r) => hangs.push(r as never)),
            close: async () => {},
          } as never,
        }
      : {},
  );
  const service = new TrainingService({
    api: t.api,
    clock: t.clock,
    logger: t.logger,
    events: { trainingUpdated() {} },
  });
  const deps = {
    service,
    requireCourses: ['Police Academy'],
    onError,
    budgetMs: 3000,
    recheckAfterMs: 30_000,
    clock: t.clock,
    logger: t.logger,
  };
  const decide = (discordId: string | null) =>
    outcome(t.clock, trainingVerdict(deps, { discordId, name: 'P' }), 250).then((r) => r.value);
  hangs = [];
  return { ...t, service, decide };
}

const policeDone = { discord_id: '111111', course_id: 'c-police', completed_at: '2025-01-01T00:00:00Z' };

describe('trainingVerdict', () => {
  it('admits a linked player with the course and refuses one without, naming it', async () => {
    const { decide } = setup({
      linked: { '111111': true, '222222': true },
      completions: [policeDone],
      down: false,
      hang: false,
    });
    expect(await decide('111111')).toBeUndefined();
    expect(await decide('222222')).toMatch(/requires: Police Academy\./);
  });

  it('refuses an unlinked player with a link code and address', async () => {
    const { decide, requests } = setup({ linked: {}, completions: [], down: false, hang: false });
    expect(await decide('333333')).toMatch(/open https:\/\/learn.test\/link\?code=ABC234 .* code ABC234/);
    const post = requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body!)).toEqual({ discord_id: '333333', discord_username: 'P' });
  });

  it('refuses a player with no discord identifier without asking the service', async () => {
    const { decide, requests } = setup({ linked: {}, completions: [], down: false, hang: false });
    expect(await decide(null)).toMatch(/Link Discord to FiveM/);
    expect(requests).toHaveLength(0);
  });

  it('with the service down, follows onError: cached decides on what it knows', async () => {
    const world = {
      linked: { '111111': true, '222222': true },
      completions: [policeDone],
      down: false,
      hang: false,
    };
    const { decide, service } = setup(world, 'cached');
    await service.loadCompletions();
    await service.lookupLink('222222', 'refresh');
    world.down = true;
    // Without the course list a title cannot be matched: unavailable, never "not trained".
    expect(await decide('222222')).toMatch(/unavailable/);
    world.down = false;
    await service.loadCourses();
    world.down = true;
    expect(await decide('111111')).toBeUndefined();
    expect(await decide('222222')).toMatch(/Police Academy/);
    expect(await decide('999999')).toMatch(/unavailable/);
  });

  it.each([
    ['allow', undefined],
    ['deny', /unavailable/],
    ['cached', /unavailable/],
  ] as const)('with the service down and nothing known, %s gives %s', async (onError, expected) => {
    const { decide } = setup({ linked: {}, completions: [], down: true, hang: false }, onError);
    const verdict = await decide('111111');
    if (expected === undefined) expect(verdict).toBeUndefined();
    else expect(verdict).toMatch(expected);
  });

  it('decides within its budget when the service hangs', async () => {
    const { decide, clock } = setup({ linked: {}, completions: [], down: false, hang: true }, 'deny');
    const started = clock.now();
    expect(await decide('111111')).toMatch(/unavailable/);
    expect(clock.now() - started).toBeLessThanOrEqual(3250);
  });
});
