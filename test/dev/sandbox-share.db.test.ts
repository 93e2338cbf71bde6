import { expect, it } from 'vitest';
import { runShareSandbox } from '../../dev/sandbox/share';

it('`npm start -- --share` shows one server reading the roster and the other following the database with no request for it', async () => {
  const lines: string[] = [];
  expect(await runShareSandbox((line) => lines.push(line))).toBe(true);
  const text = lines.join('\n');
  expect(text).toMatch(/\[server-a\] .*sharing the roster through the database: this server reads it/);
  expect(text).toMatch(
    /\[server-b\] .*sharing the roster through the database: server-a reads it, this server follows/,
  );
  expect(text).toMatch(/\[server-b\] .*the roster mirror holds the shared roster's 200 members/);
  expect(text).toMatch(/server-b asked the service \d+ times \(.*\): 0 of them for the roster/);
  expect(text).toMatch(/Alice \(member .*\) +-> admitted as player \d+/);
  expect(text).toContain("server-b's requests for that join: 0");
  const status = (server: string) => text.split(`-- ${server}: roster status --`)[1] ?? '';
  expect(status('server-a')).toMatch(/sharing: on as server-a, reader; reader server-a \(this server\)/);
  expect(status('server-b')).toMatch(/sharing: on as server-b, follower; reader server-a,/);
}, 90_000);
