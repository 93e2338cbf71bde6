import { expect, it } from 'vitest';
import { runSandbox } from '../../dev/sandbox';

/**
 * Lines of the server console a newcomer would have to decode: the resource's `warning:` and
 * `ERROR:` lines (src/platform/logger.ts), SCRIPT ERRORs, Node's warnings, the console refusing a command.
 */
const PROBLEM = new RegExp(
  [
    String.raw`^\[roster\] (warning|ERROR): `,
    'SCRIPT ERROR',
    String.raw`^\[\w+\] \(node:\d+\) \w*Warning`,
    String.raw`^\[server\] (Access denied for command|No such command|Access type needs to be|Changing ones own access|Argument count mismatch)\b`,
  ].join('|'),
);

it('the sandbox runs its scripted session and shows every decision, export, change and the panel', async () => {
  const lines: string[] = [];
  const { log } = await runSandbox({ print: (line) => lines.push(line) });
  const text = lines.join('\n');

  // The owner's server.cfg, printed as run: the resource may grant principals; an admin; two ACEs.
  expect(text).toMatch(/^add_ace resource\.roster command\.add_principal allow\b/m);
  expect(text).toMatch(/^add_ace resource\.roster command\.remove_principal allow\b/m);
  expect(text).toMatch(/^add_principal identifier\.license:[0-9a-f]{40} group\.admin\b/m);
  expect(text).toMatch(/^add_ace group\.admin roster\.manage allow\b/m);
  expect(text).toMatch(/^add_ace roster\.lspd\.sergeant command\.spikestrip allow\b/m);
  expect(text).toMatch(/^set roster_api_key "rstr_\w+_…"/m);
  expect(text).toContain('connected to the roster of "San Andreas Roleplay"');

  // `roster doctor` once the resource is ready: each check's line and a count, nothing broken.
  const doctor = text.split('-- roster doctor, once the resource is ready --\n')[1]?.split('\n\n')[0] ?? '';
  expect(doctor).toMatch(/^✓ key works; community "San Andreas Roleplay"/m);
  expect(doctor).toMatch(/^✓ audit feed: .* within about 60 s\.$/m);
  expect(doctor).toMatch(/^✓ mirror holds 200 members/m);
  expect(doctor).toMatch(/^✓ duty hours: /m);
  expect(doctor).not.toMatch(/^✗/m);
  expect(doctor).not.toMatch(/^ {2}/m);
  expect(doctor).toMatch(/^doctor: \d+ ✓, \d+ ! \(worth a look\), \d+ … \(under way\), 0 ✗ \(broken\); /m);

  expect(text).toMatch(/^Alice \(member mem_\d+, ACTIVE\) +-> admitted as player \d+/m);
  expect(text).toMatch(
    /^Bob \(not on the roster\) +-> refused: "You are not on the San Andreas Roleplay roster/m,
  );
  expect(text).toMatch(/^Carol .*SUSPENDED\) +-> refused: ".*status is SUSPENDED/m);
  expect(text).toMatch(/^Dave \(no license: identifier\) +-> refused: "No Rockstar license/m);
  expect(text).toMatch(/^Grace \(member mem_\d+, ACTIVE, admin\) +-> admitted as player \d+/m);

  const burst = text.match(/^burst: (\d+)\/50 admitted, (\d+) refused \(expected (\d+) admitted/m);
  expect(burst).not.toBeNull();
  expect(Number(burst![1])).toBe(Number(burst![3]));
  expect(Number(burst![1]) + Number(burst![2])).toBe(50);
  expect(text).toMatch(/^burst: the mock received \d+ API request\(s\) for them/m);
  expect(text).toMatch(/^burst: the slowest player waited \d+ ms/m);

  expect(text).toMatch(/^exports\.roster\.getMember\(\d+\) +-> .*\(mem_\d+\), ACTIVE/m);
  expect(text).toMatch(/^exports\.roster:hasMinRank\(\d+, 'LSPD', 'Sergeant'\) +-> (true|false)$/m);

  // A rank change on the roster: the event, and the principal roster.lspd.sergeant in the ACL.
  expect(text).toMatch(/^event roster:playerUpdated\(\d+\): LSPD \S+ -> Sergeant/m);
  const alice = text.match(/^IsPlayerAceAllowed\((\d+), 'command\.spikestrip'\) +-> false$/m)?.[1];
  expect(alice).toBeDefined();
  expect(text).toMatch(
    new RegExp(`^IsPlayerAceAllowed\\(${alice}, 'command\\.spikestrip'\\) now +-> true$`, 'm'),
  );
  const links = text.match(
    new RegExp(`^list_principals, player ${alice}'s links: identifier\\.license:\\w+… <- (.*)$`, 'm'),
  );
  expect(links?.[1]?.split(', ')).toEqual(expect.arrayContaining(['roster.member', 'roster.lspd.sergeant']));
  expect(links?.[1]).not.toContain('roster.lspd.cadet');

  // Rank changes from the game: a Sergeant promotes, is told to wait 3 s, is refused the next step,
  // the admin sets it.
  const promoted = text.match(
    /^\/rank promote (\d+) \(player \d+, LSPD Sergeant\) -> chat \[Roster\] .+ \(player \1\) is now Senior Officer in LSPD \(was Officer\)\.$/m,
  )?.[1];
  expect(promoted).toBeDefined();
  expect(text).toContain(
    `event roster:rankChanged(${promoted}): LSPD Officer -> Senior Officer, actor ${alice}`,
  );
  expect(text).toContain(`event roster:playerUpdated(${promoted}): LSPD Officer -> Senior Officer`);
  expect(text).toMatch(
    /^\/rank promote \d+ \(player \d+, LSPD Sergeant\) -> chat \[Roster\] You changed a rank moments ago; try again in [1-3] s\.$/m,
  );
  expect(text).toMatch(
    /^\/rank promote \d+ \(player \d+, LSPD Sergeant\) -> chat \[Roster\] You may not set Sergeant for .+ \(now Senior Officer\): it takes Lieutenant or above in LSPD; you are Sergeant\.$/m,
  );
  expect(text).toMatch(
    new RegExp(
      `^/rank set ${promoted} LSPD Sergeant \\(player \\d+, group\\.admin: roster\\.manage\\) -> chat \\[Roster\\] .+ is now Sergeant in LSPD \\(was Senior Officer\\)\\.$`,
      'm',
    ),
  );
  expect(text).toMatch(
    new RegExp(
      `^event roster:rankChanged\\(${promoted}\\): LSPD Senior Officer -> Sergeant, actor \\d+$`,
      'm',
    ),
  );
  expect(text).toMatch(/^the resource's own record \(console and rank-changes\.log\): \S+ actor="Grace"/m);
  expect(text).toMatch(
    new RegExp(`^IsPlayerAceAllowed\\(${promoted}, 'command\\.spikestrip'\\) +-> false$`, 'm'),
  );
  expect(text).toMatch(
    new RegExp(`^IsPlayerAceAllowed\\(${promoted}, 'command\\.spikestrip'\\) now +-> true$`, 'm'),
  );

  expect(text).toMatch(/^players: \d+\/\d+ online loaded/m);

  // Queue priority: ConnectQueue places each member with the power of the first rule they match.
  expect(text).toMatch(/^ConnectQueue started .* -> \[roster\] connectqueue found: /m);
  for (const [name, power] of [
    ['Hank', 50],
    ['Iris', 40],
    ['Jules', 10],
  ] as const) {
    const player = text.match(
      new RegExp(`^ConnectQueue placed ${name} \\(player (\\d+)\\) with power ${power}$`, 'm'),
    )?.[1];
    expect(player, name).toBeDefined();
    expect(text).toMatch(new RegExp(`^exports\\.roster\\.getPriority\\(${player}\\) +-> ${power}$`, 'm'));
  }

  // The second server, its clocks turned up: a member's duty hours on its console, then a
  // suspension made in the roster's dashboard, read by the audit feed (no refreshPlayer asked).
  expect(text).toMatch(/^config\.json there: refresh \{"auditSeconds":1,"intervalSeconds":2\}/m);
  const kim = text.match(
    /^Kim \(member mem_\d+, ACTIVE, on duty this month\) +-> admitted as player (\d+)/m,
  )?.[1];
  expect(kim).toBeDefined();
  expect(text).toMatch(
    new RegExp(
      `^hours ${kim} \\(the console, \\d+ ms after the join\\) -> .+: 4\\.75 h on duty in the last 7 days, 7\\.75 h in the last 30 days\\.$`,
      'm',
    ),
  );
  expect(text).toMatch(new RegExp(`^exports\\.roster\\.getDutyHours\\(${kim}\\) +-> 4\\.75$`, 'm'));
  expect(text).toMatch(new RegExp(`^exports\\.roster\\.getDutyHours\\(${kim}, 30\\) +-> 7\\.75$`, 'm'));
  const suspended = text.match(
    /^dashboard: staff suspend mem_\d+ \(player (\d+)\): POST \/__mock\/dashboard \{"setStatus":.*"SUSPENDED"\}\} -> 200$/m,
  )?.[1];
  expect(suspended).toBe(kim);
  expect(text).toMatch(
    /^the resource's requests since the change: .*GET \/api\/v1\/audit-logs \(\+\d+ ms\), .*GET \/api\/v1\/members \(\+\d+ ms\)/m,
  );
  expect(text).toMatch(
    new RegExp(
      `^event roster:playerUpdated\\(${suspended}\\): status ACTIVE -> SUSPENDED \\(\\d+ ms after the dashboard change, through the audit feed\\)$`,
      'm',
    ),
  );
  expect(text).toMatch(new RegExp(`^exports\\.roster\\.isOnRoster\\(${suspended}\\) now +-> false$`, 'm'));
  expect(text).toMatch(
    new RegExp(`^IsPlayerAceAllowed\\(${suspended}, 'vMenu\\.OnlinePlayers\\.Menu'\\) now +-> false$`, 'm'),
  );

  expect(text).toMatch(/^training: connected to the learning service of "LSRP Academy"\.$/m);
  expect(text).toMatch(/^Erin \(member mem_\d+, Discord linked\) +-> admitted as player \d+/m);
  expect(text).toMatch(
    /^exports\.roster\.getTraining\(\d+\) +-> linked; completed: Police Academy \(\d{4}-\d\d-\d\d\)$/m,
  );
  expect(text).toMatch(/^exports\.roster\.hasCompletedCourse\(\d+, 'Police Academy'\) +-> true$/m);
  expect(text).toMatch(/^exports\.roster\.isQualified\(\d+, 'LSPD'\) +-> true$/m);
  expect(text).toMatch(/^Frank \(member mem_\d+, Discord not linked\) +-> admitted as player \d+/m);
  expect(text).toMatch(/^exports\.roster\.getTraining\(\d+\) +-> not linked$/m);
  expect(text).toMatch(
    /^\/linktraining \(player \d+\) -> chat \[Training\] To link your academy account, open http:\/\/127\.0\.0\.1:\d+\/\S+ while signed in to the academy and enter the code [A-Z0-9]{6}\b/m,
  );
  expect(text).toMatch(
    /^\/linktraining \(player \d+\) -> chat \[Training\] Your Discord account is already linked/m,
  );
  expect(text).toMatch(/^event roster:trainingUpdated\(\d+\) -> linked; completed: none/m);

  // The owner's panel: its address and token, and status.json answering with the token.
  expect(text).toMatch(/^owner's panel: http:\/\/127\.0\.0\.1:\d+\/roster\/ \(token \S{16,}\)$/m);
  expect(text).toMatch(
    /^GET \/roster\/status\.json \(Authorization: Bearer <token>\) -> 200: key verified for "San Andreas Roleplay", [1-9]\d* players online, [1-9]\d* join decisions/m,
  );

  // Nothing a newcomer must decode: no warning or error anywhere in the server console.
  expect(log.filter((line) => PROBLEM.test(line))).toEqual([]);
  expect(log.some((line) => line.startsWith('[roster] '))).toBe(true);
  expect(text).not.toMatch(/warnings and errors/);
  expect(text).toMatch(/^sandbox finished in [\d.]+ s$/m);
}, 30_000);
