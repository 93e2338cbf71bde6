// A stopped resource stops running, as NodeScriptRuntime.cpp Destroy tears its runtime down: the
// event, tick and call-ref routines go first, Node's beforeExit/exit callback scope drains the
// microtask queue once, then node::FreeEnvironment closes every handle of the resource.
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { FxServer } from '../../../dev/emulator';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const IDS = [`license:${'a'.repeat(40)}`];
let server: FxServer;
afterEach(() => server.stop());

async function started(): Promise<FxServer> {
  server = new FxServer();
  await server.start();
  return server;
}

async function frames(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await server.nextTick();
}

// Node's own timers (require('timers')) run on the host's loop here, unfaked by vitest: the test
// waits on a host timer set after the resource's, with a longer delay, so it fires after it.
it('a Node timer pending at stop never runs: the player it would admit waits, nothing is emitted or logged', async () => {
  await started();
  const watcher = server.createScriptResource('watcher');
  watcher.eval(`heard = []; on('late:ran', () => heard.push('ran'))`);
  const late = server.createScriptResource('late');
  late.eval(`on('playerConnecting', (name, kick, deferrals) => {
    deferrals.defer();
    require('node:timers').setTimeout(() => {
      ran = true; console.log('the late timer ran'); emit('late:ran'); deferrals.done();
    }, 30);
  })`);
  const connection = server.connectPlayer({ name: 'A', identifiers: IDS });
  server.stopResource('late');
  await new Promise((resolve) => setTimeout(resolve, 60));
  await server.nextTick();
  expect(late.eval('typeof ran')).toBe('undefined');
  expect(connection.completed).toBe(false);
  expect(watcher.eval('heard')).toEqual([]);
  expect(server.log.of('late').join('\n')).not.toContain('the late timer ran');
});

it('a fetch in flight at stop is aborted, and what would follow its answer never reaches the server', async () => {
  await started();
  const held: ServerResponse[] = [];
  let closedUnanswered: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    closedUnanswered = resolve;
  });
  const api = http.createServer((_req, res) => {
    held.push(res);
    res.on('close', () => res.writableEnded || closedUnanswered());
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/`;
  try {
    const watcher = server.createScriptResource('watcher');
    watcher.eval(`heard = []; on('late:ran', () => heard.push('ran'))`);
    const late = server.createScriptResource('late');
    late.eval(`on('playerConnecting', (name, kick, deferrals) => {
      deferrals.defer();
      fetch('${url}').then((r) => r.text()).then((text) => {
        console.log('answered ' + text); emit('late:ran'); deferrals.done();
      });
    })`);
    const connection = server.connectPlayer({ name: 'A', identifiers: IDS });
    while (held.length === 0) await server.nextTick();
    server.stopResource('late');
    const aborted = await Promise.race([closed.then(() => true), frames(10).then(() => false)]);
    // Answered anyway if the request survived the stop: its continuation must still go nowhere.
    for (const res of held) if (!res.destroyed) res.end('late answer');
    await frames(3);
    expect(aborted).toBe(true);
    expect(connection.completed).toBe(false);
    expect(watcher.eval('heard')).toEqual([]);
    expect(server.log.of('late').join('\n')).not.toContain('answered');
  } finally {
    api.close();
  }
});

it('what onResourceStop queued still runs, with its effects; a ref of the stopping resource is already dead', async () => {
  await started();
  const watcher = server.createScriptResource('watcher');
  watcher.eval(
    `heard = []; on('late:drained', () => heard.push('drained')); on('late:fn', (fn) => { lateFn = fn; })`,
  );
  const late = server.createScriptResource('late');
  late.eval(`emit('late:fn', () => 1);
    on('playerConnecting', (name, kick, deferrals) => { deferrals.defer(); held = deferrals; });
    on('onResourceStop', async (resource) => {
      if (resource !== GetCurrentResourceName()) return;
      await null;
      await Promise.resolve();
      console.log('drained'); emit('late:drained'); held.done('the server is stopping');
    });`);
  expect(watcher.eval('lateFn()')).toBe(1);
  const connection = server.connectPlayer({ name: 'A', identifiers: IDS });
  server.stopResource('late');
  expect(() => watcher.eval('lateFn()')).toThrow(/Error in nested ref call/);
  expect(await connection.decision).toEqual({ admitted: false, reason: 'the server is stopping' });
  expect(watcher.eval('heard')).toEqual(['drained']);
  expect(server.log.of('late')).toContain('drained');
});

it('after a restart only the new instance runs: the old one’s Node timer is gone', async () => {
  await started();
  const watcher = server.createScriptResource('watcher');
  watcher.eval(`beats = []; on('heartbeat:beat', (instance) => beats.push(instance))`);
  server.startResource('heartbeat', path.join(FIXTURES, 'heartbeat'));
  while (watcher.eval<number[]>('beats').length === 0)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const old = watcher.eval<number[]>('beats')[0];
  server.restartResource('heartbeat');
  watcher.eval('beats.length = 0');
  // The beat is every 10 ms on both instances' Node timers: six of them would have passed.
  await new Promise((resolve) => setTimeout(resolve, 60));
  const beats = watcher.eval<number[]>('beats');
  expect(beats.length).toBeGreaterThan(0);
  expect(beats).not.toContain(old);
  expect(new Set(beats).size).toBe(1);
});

it('code of a stopped resource that still runs here reaches nothing: no event, deferral, log line or rejection', async () => {
  await started();
  const watcher = server.createScriptResource('watcher');
  watcher.eval(`heard = []; on('late:ran', () => heard.push('ran'))`);
  const late = server.createScriptResource('late');
  late.eval(`on('playerConnecting', (name, kick, deferrals) => { deferrals.defer(); held = deferrals; })`);
  // A host callback the emulator cannot close (http.request, a listening server) runs the
  // resource's code after its stop; here the test plays that callback.
  const work = late.eval<() => Promise<void>>(`() => {
    console.log('late work'); emit('late:ran'); held.done(); ExecuteCommand('quit');
    return Promise.reject(new Error('late failure'));
  }`);
  const connection = server.connectPlayer({ name: 'A', identifiers: IDS });
  server.stopResource('late');
  await server.nextTick();
  void work();
  await frames(2);
  expect(connection.completed).toBe(false);
  expect(watcher.eval('heard')).toEqual([]);
  expect(server.unhandledRejections).toEqual([]);
  expect(server.log.of('late').join('\n')).not.toMatch(/late work|UnhandledPromiseRejectionWarning/);
  expect(server.log.of('server')).toEqual([]);
});
