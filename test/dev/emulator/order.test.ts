// FXServer does not promise an order between resources (handler-order.ts): ResourceEventComponent.cpp
// walks a tbb::concurrent_unordered_multimap of event → resource, ResourceScriptingComponent.cpp
// ticks resources from an unordered_map keyed by address. FxServer's `order` option picks one.
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { FxServer, type HandlerOrder } from '../../../dev/emulator';

const ORDER = path.join(import.meta.dirname, 'fixtures', 'order');
let server: FxServer | undefined;
afterEach(() => server?.stop());

async function serverWith(order: HandlerOrder): Promise<FxServer> {
  server = new FxServer({ order });
  await server.start();
  return server;
}

const heardBy = new WeakMap<FxServer, string[]>();

/** Who answered `order:ping`, in the order their handlers ran. */
function ping(s: FxServer): string[] {
  let heard = heardBy.get(s);
  if (!heard) {
    const list: string[] = [];
    s.createScriptResource('probe').on('order:heard', (name: unknown) => list.push(String(name)));
    heardBy.set(s, list);
    heard = list;
  }
  heard.length = 0;
  s.emitFromServer('order:ping');
  return [...heard];
}

it("'reverse': a handler in a later-started resource runs first, and so does its tick", async () => {
  const s = await serverWith('reverse');
  s.startResource('first', ORDER);
  s.startResource('second', ORDER);
  expect(ping(s)).toEqual(['second', 'first']);
  const watcher = s.createScriptResource('watcher');
  watcher.eval(`ticks = []; on('order:tick', (name) => ticks.push(name))`);
  for (const name of ['first', 'second']) {
    s.resource(name)!.evaluate(`setTick(() => emit('order:tick', GetCurrentResourceName()))`);
  }
  await s.nextTick();
  expect(watcher.eval('ticks')).toEqual(['second', 'first']);
});

it("'start' keeps start order", async () => {
  const s = await serverWith('start');
  s.startResource('first', ORDER);
  s.startResource('second', ORDER);
  expect(ping(s)).toEqual(['first', 'second']);
});

it("'registration': the last to register runs first, and a restarted resource keeps its place", async () => {
  const s = await serverWith('registration');
  s.startResource('first', ORDER);
  s.startResource('second', ORDER);
  expect(ping(s)).toEqual(['second', 'first']);
  s.restartResource('second');
  expect(ping(s)).toEqual(['second', 'first']);
  // A handler registered later for an event goes in front of those that were there.
  s.resource('first')!.evaluate(`on('order:late', () => emit('order:heard', 'first'))`);
  s.resource('second')!.evaluate(`on('order:late', () => emit('order:heard', 'second'))`);
  const heard: string[] = [];
  s.createScriptResource('late-probe').on('order:heard', (name: unknown) => heard.push(String(name)));
  s.emitFromServer('order:late');
  expect(heard).toEqual(['second', 'first']);
});

it('{ seed }: one seed keeps one order, and seeds differ', async () => {
  const firsts = new Set<string>();
  for (let seed = 1; seed <= 12; seed++) {
    const s = await serverWith({ seed });
    s.startResource('first', ORDER);
    s.startResource('second', ORDER);
    const once = ping(s);
    expect(ping(s)).toEqual(once);
    expect([...once].sort()).toEqual(['first', 'second']);
    firsts.add(once[0]!);
    s.stop();
    server = undefined;
  }
  expect(firsts).toEqual(new Set(['first', 'second']));
});

it("'registration' counts a Lua resource's handlers like a JS one's", async () => {
  const s = await serverWith('registration');
  s.startResource('first', ORDER);
  const lua = await s.createLuaResource('lua-late');
  await lua.run(`AddEventHandler('order:ping', function() TriggerEvent('order:heard', 'lua-late') end)`);
  expect(ping(s)).toEqual(['lua-late', 'first']);
});
