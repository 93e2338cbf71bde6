import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/platform/ports';
import {
  onServerShuttingDown,
  readRestartNotice,
  readShutdownNotice,
  SHUTDOWN_FALLBACK,
} from '../../src/platform/txadmin-events';

describe("txAdmin's shutdown notice", () => {
  it('reads what txAdmin sends: the delay in ms, the author and the message for players', () => {
    expect(
      readShutdownNotice({
        delay: 5000,
        author: 'txAdmin',
        message: 'Server restarting (scheduled restart).',
      }),
    ).toEqual({
      notice: { delayMs: 5000, author: 'txAdmin', message: 'Server restarting (scheduled restart).' },
    });
  });

  it('keeps fields a later txAdmin may add out of the way', () => {
    expect(readShutdownNotice({ delay: 0, author: 'Ann', message: 'Bye', extra: [1, 2] })).toEqual({
      notice: { delayMs: 0, author: 'Ann', message: 'Bye' },
    });
  });

  it('shows players a plain sentence when the message is blank, and cuts a long one', () => {
    const blank = readShutdownNotice({ delay: 5000, author: 'txAdmin', message: '   ' });
    expect(blank).toEqual({ notice: { delayMs: 5000, author: 'txAdmin', message: SHUTDOWN_FALLBACK } });
    const long = readShutdownNotice({ delay: 5000, author: 'txAdmin', message: 'x'.repeat(1000) });
    const message = 'notice' in long ? long.notice.message : '';
    expect(message).toHaveLength(300);
    expect(message.endsWith('…')).toBe(true);
  });

  it('refuses data that is not what txAdmin sends, naming the field', () => {
    for (const data of [null, 'now', 5000, [], {}])
      expect(readShutdownNotice(data)).toHaveProperty('problem');
    expect(readShutdownNotice({ delay: '5000', author: 'a', message: 'm' })).toEqual({
      problem: expect.stringMatching(/^delay: /),
    });
    expect(readShutdownNotice({ delay: -1, author: 'a', message: 'm' })).toHaveProperty('problem');
    expect(readShutdownNotice({ delay: Number.NaN, author: 'a', message: 'm' })).toHaveProperty('problem');
    expect(readShutdownNotice({ delay: 5000, author: 'a', message: { text: 'm' } })).toEqual({
      problem: expect.stringMatching(/^message: /),
    });
  });
});

describe("txAdmin's scheduled restart warning", () => {
  it('reads the seconds remaining, with or without the translated message', () => {
    expect(readRestartNotice({ secondsRemaining: 60, translatedMessage: 'Restart in 1 minute' })).toEqual({
      notice: { secondsRemaining: 60 },
    });
    expect(readRestartNotice({ secondsRemaining: 1800 })).toEqual({ notice: { secondsRemaining: 1800 } });
  });

  it('refuses data without a number of seconds', () => {
    for (const data of [null, 60, {}, { secondsRemaining: '60' }, { secondsRemaining: -5 }])
      expect(readRestartNotice(data)).toHaveProperty('problem');
  });
});

describe('listening', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** FXServer's `on` and `source` as the resource's globals, one handler per event. */
  function fakeServer() {
    const handlers = new Map<string, (data: unknown) => void>();
    vi.stubGlobal('on', (event: string, handler: (data: unknown) => void) => handlers.set(event, handler));
    return {
      /** Runs the event's handler as FXServer would, `source` set for the dispatch. */
      trigger(event: string, source: unknown, data: unknown) {
        vi.stubGlobal('source', source);
        handlers.get(event)?.(data);
      },
    };
  }

  const notice = { delay: 5000, author: 'txAdmin', message: 'Server restarting.' };

  it('hears the notice from the server itself (source "")', () => {
    const server = fakeServer();
    const heard: unknown[] = [];
    onServerShuttingDown(silentLogger, (n) => heard.push(n));
    server.trigger('txAdmin:events:serverShuttingDown', '', notice);
    expect(heard).toEqual([{ delayMs: 5000, author: 'txAdmin', message: 'Server restarting.' }]);
  });

  it("never believes one that comes with a player's source, and says so", () => {
    const server = fakeServer();
    const heard: unknown[] = [];
    const warnings: string[] = [];
    onServerShuttingDown({ ...silentLogger, warn: (line) => warnings.push(line) }, (n) => heard.push(n));
    server.trigger('txAdmin:events:serverShuttingDown', 7, notice);
    server.trigger('txAdmin:events:serverShuttingDown', null, notice);
    expect(heard).toEqual([]);
    expect(warnings[0]).toBe(
      'ignored txAdmin:events:serverShuttingDown from 7: only the server itself may send it.',
    );
    expect(warnings).toHaveLength(2);
  });
});
