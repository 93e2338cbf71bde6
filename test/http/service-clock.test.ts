import { describe, expect, it } from 'vitest';
import { ServiceClock } from '../../src/http/service-clock';
import { FakeClock, type FakeReply, fail, fakeRoster, ok, testClient } from '../roster/client/fake-roster';

const HERE = Date.UTC(2025, 5, 2, 12);
const httpDate = (ms: number) => new Date(ms).toUTCString();

describe('ServiceClock', () => {
  it('is this server time until told, then the service time its Date header said, carried forward', async () => {
    const clock = new FakeClock(HERE);
    const service = new ServiceClock(clock);
    expect(service.offsetMs).toBeNull();
    expect(service.now()).toBe(HERE);
    service.observe({ Date: httpDate(HERE + 7 * 60_000) });
    expect(service.offsetMs).toBe(7 * 60_000);
    await clock.advance(30_000);
    expect(service.now()).toBe(HERE + 7 * 60_000 + 30_000);
  });

  it('keeps what it knew when an answer has no Date, or one it cannot read', () => {
    const clock = new FakeClock(HERE);
    const service = new ServiceClock(clock);
    service.observe({ date: httpDate(HERE - 60_000) });
    service.observe({});
    service.observe({ date: 'yesterday-ish' });
    expect(service.offsetMs).toBe(-60_000);
  });
});

describe('the roster client and the service time', () => {
  it('takes the Date header of every answer, a refusal included', async () => {
    const clock = new FakeClock(HERE);
    let reply: FakeReply = ok({ community: { id: 'c', name: 'C' }, scopes: [] });
    let serviceAt = HERE + 3 * 60_000;
    const { agent } = fakeRoster(clock, () => ({
      ...reply,
      headers: { ...reply.headers, Date: httpDate(serviceAt) },
    }));
    const { api } = testClient(clock, agent);
    expect(api.serviceTime.offsetMs).toBeNull();
    await api.get('/api/v1/whoami');
    expect(api.serviceTime.offsetMs).toBe(3 * 60_000);
    expect(api.serviceTime.now()).toBe(HERE + 3 * 60_000);

    reply = fail(403, 'insufficient_scope', 'This endpoint requires the audit:read scope');
    serviceAt = HERE - 2 * 60_000;
    await expect(api.get('/api/v1/audit-logs')).rejects.toThrow();
    expect(api.serviceTime.offsetMs).toBe(-2 * 60_000);
    await api.close();
  });
});
