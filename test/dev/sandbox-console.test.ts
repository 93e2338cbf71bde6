import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { runSandbox } from '../../dev/sandbox';

it('the console reads commands piped on stdin, runs them on the running server and shows each answer before the next', async () => {
  const lines: string[] = [];
  await runSandbox({
    print: (line) => lines.push(line),
    console: { input: Readable.from(['roster status\nhours 1\n']) },
  });
  const opened = lines.indexOf('-- console: commands from stdin (not a terminal), one a line --');
  expect(opened).toBeGreaterThan(0);
  const shown = lines.slice(opened + 1);
  const status = shown.indexOf('> roster status');
  const hours = shown.indexOf('> hours 1');
  expect(status).toBe(0);
  expect(hours).toBeGreaterThan(status);

  // `roster status` as the server console prints it, between the two commands.
  const statusAnswer = shown.slice(status + 1, hours);
  expect(statusAnswer[0]).toMatch(/^\[roster\] key rstr_\w+_…; community "San Andreas Roleplay"$/);
  expect(statusAnswer).toContainEqual(
    expect.stringMatching(/^\[roster\] players: (\d+)\/\1 online loaded, 0 connecting$/),
  );
  expect(statusAnswer.join('\n')).not.toContain('SCRIPT ERROR');

  // `hours 1` for Alice (player 1). The main server keeps the default clocks: her sessions are read
  // at the first duty refresh after she joined (every 300 s), so until then her hours are unknown.
  const hoursAnswer = shown.slice(hours + 1, -1);
  expect(hoursAnswer).toHaveLength(1);
  expect(hoursAnswer[0]).toMatch(
    /^\[roster\] Alex Murphy: (duty hours are not known yet|4\.75 h on duty in the last 7 days, 7\.75 h in the last 30 days)\.$/,
  );
  expect(shown.at(-1)).toBe('console: 2 command(s) read from stdin');
}, 60_000);
