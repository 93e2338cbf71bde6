import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

const ECHO = path.join(import.meta.dirname, 'fixtures/echo');
let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
  server.startResource('echo', ECHO);
});
afterEach(() => server.stop());

it('packs arguments and results: undefined→null, Map→{}', () => {
  const caller = server.createScriptResource('caller');
  expect(caller.exports.echo!.echo!(1, undefined, new Map([[1, 2]]), { u: undefined })).toEqual([
    1,
    null,
    {},
    { u: null },
  ]);
  expect(caller.exports.echo!.sum!(2, 3)).toBe(5);
});

it('a Promise result reaches a JS caller as a Promise of the resource realm; a rejection as its message string', async () => {
  const caller = server.createScriptResource('caller');
  const p = caller.exports.echo!.later!(7);
  expect(caller.eval<(v: unknown) => boolean>('(v) => v instanceof Promise')(p)).toBe(true);
  expect(await p).toBe(7);
  await expect(caller.exports.echo!.rejects!()).rejects.toBe('nope');
});

it('a throw becomes the generic export error, with SCRIPT ERROR on the callee side', () => {
  const caller = server.createScriptResource('caller');
  expect(() => caller.exports.echo!.fails!()).toThrow(
    'An error occurred while calling export fails of resource echo - see above for details',
  );
  expect(server.log.of('echo').join('\n')).toContain('SCRIPT ERROR in call ref: Error: boom');
});

it('an unknown export throws No such export', () => {
  const caller = server.createScriptResource('caller');
  expect(() => caller.exports.echo!.nothing).toThrow('No such export nothing in resource echo');
  expect(() => caller.exports.missing!.fn).toThrow('No such export fn in resource missing');
});

it('functions cross as callable references both ways', () => {
  const caller = server.createScriptResource('caller');
  expect(caller.exports.echo!.callBack!((v: number) => v * 2, 21)).toBe(42);
});

it('GetInvokingResource names the caller during an export call', () => {
  const caller = server.createScriptResource('caller');
  expect(caller.exports.echo!.invoker!()).toBe('caller');
});

it('calling an export of a stopped resource fails', async () => {
  const caller = server.createScriptResource('caller');
  const sum = caller.exports.echo!.sum!;
  expect(sum(1, 1)).toBe(2);
  server.stopResource('echo');
  expect(() => sum(1, 1)).toThrow('An error occurred while calling export sum of resource echo');
  await server.nextTick();
  expect(() => caller.exports.echo!.sum).toThrow('No such export sum in resource echo');
  server.restartResource('echo');
  expect(caller.exports.echo!.sum!(2, 2)).toBe(4);
});

// ResourceEventComponent.cpp queues onServerResourceStop (QueueEvent2) and main.js empties its
// exports cache only when that event arrives: right after a restart a cached export fails once.
it('other resources keep a restarted resource cached exports until onServerResourceStop arrives on the next frame', async () => {
  const caller = server.createScriptResource('caller');
  caller.eval(`events = []; on('onServerResourceStop', (r) => events.push(['stop', r]));
    on('onServerResourceStart', (r) => events.push(['start', r]))`);
  await server.nextTick();
  caller.eval('events.length = 0');
  expect(caller.exports.echo!.sum!(1, 1)).toBe(2);
  server.restartResource('echo');
  expect(caller.eval('events')).toEqual([]);
  expect(() => caller.exports.echo!.sum!(2, 2)).toThrow(
    'An error occurred while calling export sum of resource echo',
  );
  await server.nextTick();
  expect(caller.eval('events')).toEqual([
    ['stop', 'echo'],
    ['start', 'echo'],
  ]);
  expect(caller.exports.echo!.sum!(2, 2)).toBe(4);
});
