/** `roster training`, `roster doctor`, /linktraining, rate limits and key secrecy, in the emulator. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  discord,
  eventually,
  startTrainingHarness,
  type TrainingHarness,
  trainingReady,
} from './training-harness';

let h: TrainingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Runs a console command and waits for its output to settle. */
async function run(harness: TrainingHarness, command: string, until: RegExp): Promise<string> {
  const before = harness.server.log.lines.length;
  harness.server.executeCommand(command);
  await eventually(() => until.test(harness.server.log.lines.slice(before).join('\n')), 8000);
  return harness.server.log.lines.slice(before).join('\n');
}

function chatTo(harness: TrainingHarness, id: number): string[] {
  return harness.server.clientEvents
    .filter((e) => e.event === 'chat:addMessage' && e.target === id)
    .map((e) => {
      const [message] = e.args as [{ args: [string, string] }];
      expect(message.args[0]).toBe('Training');
      return message.args[1];
    });
}

describe('roster training', () => {
  it("shows the key's organisation, scopes, flags and the linked players online", async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    await h.join('Alice', [discord(0)]);
    await h.join('Ned', ['discord:300000000000000055']);
    await h.join('Nod', ['fivem:1']);
    await eventually(() => h!.caller.exports.roster!.getTraining!(2) ?? undefined);
    const out = await run(h, 'roster training', /requests:/);
    expect(out).toMatch(/organisation: LSRP Academy \(alias lsrp-academy\), edition professional/);
    expect(out).toMatch(/scopes: enroll:write/);
    expect(out).toMatch(/flags: discord on, gamification on, api_access on/);
    expect(out).toMatch(/linked players online: 1 of 3 \(1 without a Discord identifier\)/);
    expect(out).toMatch(/courses: 4 published \(1 unlisted\)/);
  });

  it('names the old alias after a rename, confirmed by the public catalog', async () => {
    h = await startTrainingHarness({
      beforeStart: ({ folder }) =>
        writeFileSync(join(folder, 'training-org.json'), JSON.stringify({ alias: 'lsrp-training' })),
    });
    await trainingReady(h);
    expect(await run(h, 'roster training', /organisation:/)).toMatch(
      /organisation: LSRP Academy \(alias lsrp-academy, renamed from lsrp-training\)/,
    );
    expect(h.learning.counters.byEndpoint()['GET /api/public/v1/catalog/:alias']).toBe(1);
    // A later rename while the file remembers the current alias.
    h.learning.data.renameOrg('lsrp-police-academy');
    h.server.restartResource('roster');
    await eventually(
      () => (h!.logText().match(/training: connected to the learning service/g) ?? []).length === 2,
    );
    expect(await run(h, 'roster training', /organisation:/)).toMatch(
      /alias lsrp-police-academy, renamed from lsrp-academy/,
    );
  });

  it('says training is off when it is', async () => {
    h = await startTrainingHarness({ keyName: null });
    await eventually(() => h!.logText().includes('connected to the roster'));
    expect(await run(h, 'roster training', /training checks are off/)).toMatch(
      /training checks are off \(roster_training_api_key is not set\)/,
    );
  });
});

describe('roster doctor', () => {
  it('says what it found in the OpenAPI document and checks configured courses', async () => {
    h = await startTrainingHarness({
      gate: { requireCourses: ['Police Academy', 'Advanced Driving', 'Basket Weaving'] },
    });
    await trainingReady(h);
    const out = await run(
      h,
      'roster doctor',
      /✓ training: gate.requireCourses "Police Academy"[\s\S]*Basket Weaving/,
    );
    expect(out).toMatch(/training: OpenAPI document \(\/api\/openapi.json\) read/);
    expect(out).toMatch(/key identity: GET \/me \(found\)/);
    expect(out).toMatch(/link-request reply: code, confirm_url, expires_at \(found\)/);
    expect(out).toMatch(/experience\/level\/badges: xp, level, badges \(found\)/);
    expect(out).toMatch(/completion paging: \?page=, \?limit= \(found\)/);
    expect(out).toMatch(/"Advanced Driving" is Advanced Driving \(unlisted: never named to players\)/);
    expect(out).toMatch(/✗ training: gate.requireCourses "Basket Weaving" is not a published course/);
  });

  it('falls back to defaults, marked assumed, when there is no OpenAPI document', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    h.learning.faults.failNext(2, 502, '/api/openapi.json');
    const out = await run(h, 'roster doctor', /completion paging/);
    expect(out).toMatch(/OpenAPI document \(\/api\/openapi.json\) not used \(could not read it: .*HTTP 502/);
    expect(out).toMatch(/key identity: GET \/me \(assumed\)/);
  });

  it('names a missing scope or feature flag', async () => {
    h = await startTrainingHarness({ keyName: 'read' });
    await trainingReady(h);
    h.learning.faults.flagOff('discord');
    const out = await run(h, 'roster doctor', /completion paging/);
    expect(out).toMatch(/lacks `enroll:write`/);
    expect(out).toMatch(/✗ training: the organisation's `discord` flag is off/);
  });
});

describe('/linktraining', () => {
  it('shows an unlinked player a code and address, a linked one that they are linked', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const ned = await h.join('Ned', ['discord:300000000000000066']);
    const alice = await h.join('Alice', [discord(0)]);
    const nod = await h.join('Nod', ['fivem:9']);
    h.server.executeCommand('linktraining', ned);
    h.server.executeCommand('linktraining', alice);
    h.server.executeCommand('linktraining', nod);
    const [text] = await eventually(() => (chatTo(h!, ned).length > 0 ? chatTo(h!, ned) : undefined));
    const match = /open (\S+) while signed in to the academy and enter the code ([A-Z2-9]{6})/.exec(text!);
    expect(match![1]).toBe(`${h.learning.url}/link/discord?code=${match![2]}`);
    expect(h.learning.data.linkRequests.get(match![2]!)).toMatchObject({
      discord_id: '300000000000000066',
      discord_username: 'Ned',
    });
    expect(await eventually(() => chatTo(h!, alice)[0])).toMatch(/already linked/);
    expect(await eventually(() => chatTo(h!, nod)[0])).toMatch(/Link Discord to FiveM/);
    // Confirming the code links the player to an account that already completed a course.
    expect(h.learning.data.confirmLink(match![2]!, h.learning.data.users[4]!.user_sub)).toMatchObject({
      ok: true,
    });
    h.server.executeCommand('linktraining', ned);
    expect(await eventually(() => chatTo(h!, ned)[1])).toMatch(/already linked/);
    // The new link brings its earlier completions at once, not at the next background refresh.
    const training = await eventually(() => {
      const value = h!.caller.exports.roster!.getTraining!(ned) as {
        completions: { title: string }[];
      } | null;
      return value && value.completions.length > 0 ? value : undefined;
    });
    expect(training.completions.map((c) => c.title)).toContain('Fire Academy');
  });
});

describe('/linktraining from a macro', () => {
  it('one link request per code lifetime and one chat line, however often a player runs it', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const ned = await h.join('Ned', ['discord:300000000000000066']);
    const linkRequests = () =>
      h!.learning.counters.byEndpoint()['POST /api/public/v1/discord/link-requests'] ?? 0;
    const before = linkRequests();
    // A macro: the command every 50 ms for two seconds.
    for (let i = 0; i < 40; i += 1) {
      h.server.executeCommand('linktraining', ned);
      await new Promise((r) => setTimeout(r, 50));
    }
    await eventually(() => chatTo(h!, ned).length > 0);
    expect(linkRequests() - before).toBe(1);
    expect(chatTo(h, ned)).toHaveLength(1);
    expect(h.learning.data.linkRequests.size).toBe(1);
  });

  it('a code the server clock already sees as expired (clocks apart) is still reused, not re-requested', async () => {
    // The learning service's clock runs 11 minutes behind: its 10-minute codes "expired" a minute ago.
    h = await startTrainingHarness({ learning: { now: () => Date.now() - 11 * 60_000 } });
    await trainingReady(h);
    const ned = await h.join('Ned', ['discord:300000000000000066']);
    const linkRequests = () =>
      h!.learning.counters.byEndpoint()['POST /api/public/v1/discord/link-requests'] ?? 0;
    const before = linkRequests();
    for (let i = 0; i < 40; i += 1) {
      h.server.executeCommand('linktraining', ned);
      await new Promise((r) => setTimeout(r, 50));
    }
    await eventually(() => chatTo(h!, ned).length > 0);
    expect(linkRequests() - before).toBe(1);
    expect(chatTo(h, ned)).toHaveLength(1);
  });

  it('a player refused at join again and again is shown the same code, for one link request', async () => {
    h = await startTrainingHarness({ gate: { requireCourses: ['Police Academy'] } });
    await trainingReady(h);
    const codes: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const decision = await h.connect('Ned', ['discord:300000000000000066']).decision;
      codes.push(/code ([A-Z2-9]{6})/.exec(decision.admitted ? '' : decision.reason)?.[1] ?? 'none');
    }
    expect(codes[0]).toMatch(/^[A-Z2-9]{6}$/);
    expect(new Set(codes)).toEqual(new Set([codes[0]]));
    expect(h.learning.counters.byEndpoint()['POST /api/public/v1/discord/link-requests']).toBe(1);
  });
});

describe('limits and secrecy', () => {
  it('waits out a 429 with Retry-After and carries on', async () => {
    h = await startTrainingHarness({
      beforeStart: ({ learning }) => void learning.faults.rateLimit(1, { retryAfter: 1 }),
    });
    await trainingReady(h);
    expect(h.learning.counters.rateLimited).toBe(1);
    expect(h.logText()).toMatch(
      /rate limited GET \/api\/openapi.json \(429\); every training request waits 1 s/,
    );
    expect(h.logText()).toMatch(/OpenAPI|connected to the learning service/);
  });

  it('a revoked key gets a message an owner can act on, without the key', async () => {
    h = await startTrainingHarness({ keyName: 'revoked' });
    await eventually(() =>
      /training: The learning service refused the training API key \(401\)/.test(h!.logText()),
    );
    expect(h.logText()).toMatch(/set roster_training_api_key/);
  });

  it('the key never appears in a log line, event, state bag, chat message or file', async () => {
    h = await startTrainingHarness({ gate: { requireCourses: ['Police Academy'] } });
    await trainingReady(h);
    const events: string[] = [];
    h.caller.on('roster:trainingUpdated', (...args) => events.push(JSON.stringify(args)));
    const id = await h.join('Alice', [discord(0)]);
    await h.connect('Ned', ['discord:300000000000000088']).decision;
    h.server.executeCommand('linktraining', id);
    await run(h, 'roster training', /requests:/);
    await run(h, 'roster doctor', /completion paging/);
    h.learning.faults.failNext(3, 500);
    h.server.executeCommand('roster doctor');
    await eventually(() => events.length > 0);
    const secret = h.trainingKey;
    const secretPart = secret.split('_').pop()!;
    const everything = [
      h.logText(),
      events.join('\n'),
      JSON.stringify(h.server.clientEvents),
      h.server.bags.writes.map((w) => Buffer.from(w.value).toString('latin1')).join('\n'),
      ...readdirSync(h.folder, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1')),
    ].join('\n');
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(secretPart);
    // The key did go out, as a bearer token.
    expect(h.learning.counters.byKey()[h.learning.keyPrefix('enroll')]).toBeGreaterThan(0);
  });
});
