import { afterEach, beforeEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

let server: FxServer;
beforeEach(async () => {
  server = new FxServer();
  await server.start();
});
afterEach(() => server.stop());

it('packs every argument with msgpack: undefined→null, Map/Date→{}, class→plain, BigInt throws', () => {
  const a = server.createScriptResource('a');
  const b = server.createScriptResource('b');
  const got: unknown[][] = [];
  b.on('shape', (...args: unknown[]) => got.push(args));
  a.eval(`class P { constructor() { this.x = 1; } m() {} }
    emit('shape', undefined, [undefined], new Map([[1, 2]]), new Date(0), new P(), { u: undefined })`);
  expect(got).toEqual([[null, [null], {}, {}, { x: 1 }, { u: null }]]);
  expect(() => a.eval(`emit('shape', 1n)`)).toThrow(/Unsupported type "bigint"/);
});

it('a function argument arrives as a callable funcref', () => {
  const a = server.createScriptResource('a');
  const b = server.createScriptResource('b');
  b.on('cb', (fn: unknown) => (b.global.answer = (fn as (n: number) => unknown)(20)));
  a.eval(`emit('cb', (n) => n + 1)`);
  expect(b.global.answer).toBe(21);
});

it('runs listeners in order and a throwing listener does not stop the others', () => {
  const a = server.createScriptResource('a');
  a.eval(`order = [];
    on('e', () => order.push(1));
    on('e', () => { throw new Error('bad'); });
    on('e', () => order.push(3));
    emit('e')`);
  expect(a.eval('order')).toEqual([1, 3]);
  expect(server.log.of('a').join('\n')).toContain("SCRIPT ERROR in event `e': Error: bad");
});

it('source is "" for a local emit, the id for net and internal-net, and reset after await', async () => {
  const a = server.createScriptResource('a');
  a.eval(`seen = [];
    on('local', async () => { seen.push(source); await null; seen.push(source); });
    onNet('fromClient', () => seen.push(source));
    on('notNet', () => seen.push('ran'));
    emit('local')`);
  await Promise.resolve();
  server.emitNet('fromClient', 7);
  server.emitNet('notNet', 7);
  expect(a.eval('seen')).toEqual(['', null, 7]);
  expect(server.log.of('a')).toContain('Event notNet was not safe for net');
  expect(a.eval('typeof source')).toBe('object');
});

it('RegisterNetEvent marks a name net-safe for on() handlers (its callback is ignored, as in main.js)', () => {
  const a = server.createScriptResource('a');
  a.eval(`got = []; RegisterNetEvent('x', () => got.push('cb')); on('x', (v) => got.push(source, v));`);
  server.emitNet('x', 3, 'hi');
  expect(a.eval('got')).toEqual([3, 'hi']);
});

it('removeEventListener, CancelEvent and WasEventCanceled', () => {
  const a = server.createScriptResource('a');
  a.eval(`n = 0; const h = () => n++; on('r', h); emit('r'); removeEventListener('r', h); emit('r');
    on('c', () => CancelEvent()); on('c', () => { canceled = WasEventCanceled(); }); emit('c');`);
  expect(a.eval('n')).toBe(1);
  expect(a.eval('canceled')).toBe(true);
  expect(server.emitFromServer('c')).toBe(false);
});

it('emitNet/TriggerClientEvent are recorded as client events', () => {
  const a = server.createScriptResource('a');
  a.eval(`emitNet('hello', 1, { a: undefined }); TriggerClientEvent('hi', -1)`);
  expect(server.clientEvents).toEqual([
    { from: 'a', event: 'hello', target: 1, args: [{ a: null }] },
    { from: 'a', event: 'hi', target: -1, args: [] },
  ]);
});

it('console output goes to the log sink tagged with the resource', () => {
  const a = server.createScriptResource('a');
  a.eval(`console.log('hello', { n: 1 })`);
  expect(server.log.lines).toContain('[a] hello { n: 1 }');
});

// data/shared/citizen/scripting/v8/msgpack.js writes a number as float64 (0xcb) whenever
// `0 | n !== n`, so integers from 2^31 up leave JS as floats (Lua then sees 2147483648.0).
it('integers from 2^31 up travel as float64, as FXServer msgpack.js writes them', () => {
  const a = server.createScriptResource('a');
  const b = server.createScriptResource('b');
  const typeByte = (n: number) => a.eval<Uint8Array>(`msgpack_pack(${n})`)[0];
  expect(typeByte(2147483647)).toBe(0xce);
  expect(typeByte(2147483648)).toBe(0xcb);
  expect(typeByte(4294967295)).toBe(0xcb);
  expect(typeByte(-2147483648)).toBe(0xd2);
  expect(typeByte(-2147483649)).toBe(0xcb);
  expect(typeByte(1.5)).toBe(0xcb);
  expect(typeByte(5)).toBe(5);
  const got: unknown[][] = [];
  b.on('big', (...args: unknown[]) => got.push(args));
  a.eval(`emit('big', 2147483648, [4294967296, 2 ** 53], { n: -2147483649 }, 7)`);
  expect(got).toEqual([[2147483648, [4294967296, 2 ** 53], { n: -2147483649 }, 7]]);
  const packed = a.eval<Uint8Array>(`msgpack_pack([2147483648])`);
  expect([...packed]).toEqual([0x91, 0xcb, 0x41, 0xe0, 0, 0, 0, 0, 0, 0]);
});
