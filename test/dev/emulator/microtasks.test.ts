// Mirrors code/components/citizen-scripting-node/src/NodeScriptRuntime.cpp: each resource's Node
// environment pumps its libuv loop between frames, and Node drains the microtask queue after each
// I/O callback (as timer.js's process._tickCallback() does after a tick). So a promise settled by
// socket data goes on at once, without waiting for a server frame.
import net from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { FxServer } from '../../../dev/emulator';

let server: FxServer | undefined;
afterEach(() => {
  server?.stop();
  vi.useRealTimers();
});

it('microtasks run after an I/O callback, with no frame in between', async () => {
  // Only the frame loop is faked: frames run only when the test advances time, sockets stay real.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  server = new FxServer();
  await server.start();
  const echo = net.createServer((socket) => socket.end('pong'));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
  const port = (echo.address() as net.AddressInfo).port;
  try {
    const a = server.createScriptResource('a');
    a.eval(`frames = 0; setTick(() => { frames++; }); got = null;
      new Promise((resolve) => require('net').connect(${port}, '127.0.0.1').on('data', (d) => resolve(String(d))))
        .then((text) => text + '!').then((text) => { got = text; });`);
    // Real I/O, so polled on the host; no frame can run meanwhile (the frame loop is faked).
    for (let polls = 0; a.eval('got') === null && polls < 2000; polls++)
      await new Promise((r) => setTimeout(r, 5));
    expect(a.eval('got')).toBe('pong!');
    expect(a.eval('frames')).toBe(0);
  } finally {
    echo.close();
  }
});
