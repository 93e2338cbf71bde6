import { describe, expect, it } from 'vitest';
import { FaultSwitches } from '../../../dev/mock-http/fault-switches';

describe('FaultSwitches', () => {
  it('fires a counted fault on exactly the next N requests', () => {
    const faults = new FaultSwitches().dropConnection(2).malformedJson(1);
    expect([faults.takeDrop(), faults.takeDrop(), faults.takeDrop()]).toEqual([true, true, false]);
    expect([faults.takeMalformed(), faults.takeMalformed()]).toEqual([true, false]);
  });

  it('gives a 500 at the service stage and a 502/503 at the gateway stage only', () => {
    const faults = new FaultSwitches().failNext(1, 500);
    expect(faults.takeFailure('gateway', '/x')).toBeNull();
    expect(faults.takeFailure('service', '/x')).toBe(500);
    faults.failNext(1, 502);
    expect(faults.takeFailure('service', '/x')).toBeNull();
    expect(faults.takeFailure('gateway', '/x')).toBe(502);
    expect(faults.takeFailure('gateway', '/x')).toBeNull();
  });

  it('with a path, fails only requests to that path, however many others come first', () => {
    const faults = new FaultSwitches().failNext(1, 502, '/api/openapi.json');
    expect(faults.takeFailure('gateway', '/api/public/v1/me')).toBeNull();
    expect(faults.takeFailure('gateway', '/api/public/v1/me')).toBeNull();
    expect(faults.takeFailure('gateway', '/api/openapi.json')).toBe(502);
    expect(faults.takeFailure('gateway', '/api/openapi.json')).toBeNull();
  });

  it('forces 429s with Retry-After 1 unless told otherwise', () => {
    const faults = new FaultSwitches().rateLimit(2, { retryAfter: null });
    expect(faults.takeForced429()).toEqual({ retryAfter: null });
    faults.rateLimit();
    expect(faults.takeForced429()).toEqual({ retryAfter: 1 });
    expect(faults.takeForced429()).toBeNull();
  });

  it('at the service stage, fails a due 500 or a failing path, holds a hanging path until clear()', async () => {
    const faults = new FaultSwitches().internal(1).failPath('/broken');
    await expect(faults.atService('/x')).rejects.toThrow('injected internal fault');
    await expect(faults.atService('/x')).resolves.toBeUndefined();
    await expect(faults.atService('/broken')).rejects.toThrow('injected internal fault');
    faults.clear().failPath('/slow', 'hang');
    let released = false;
    const held = faults.atService('/slow').then(() => {
      released = true;
    });
    await faults.atService('/x');
    expect(released).toBe(false);
    faults.clear();
    await held;
    expect(released).toBe(true);
    await expect(faults.atService('/broken')).resolves.toBeUndefined();
  });

  it('holds requests while hung and releases them on clear()', async () => {
    const faults = new FaultSwitches().hang().latency(-5);
    expect(faults.latencyMs).toBe(0);
    const waiting = faults.waitWhileHung();
    expect(faults.hungCount).toBe(1);
    faults.latency(50).failNext(Number.POSITIVE_INFINITY).clear();
    await expect(waiting).resolves.toBeUndefined();
    expect(faults.hungCount).toBe(0);
    expect(faults.waitWhileHung()).toBeNull();
    expect(faults.latencyMs).toBe(0);
    expect(faults.takeFailure('gateway', '/x')).toBeNull();
  });
});
