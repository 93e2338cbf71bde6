import { expect, it } from 'vitest';
import { runSandbox } from '../../dev/sandbox';

it('the sandbox runs its scripted session and shows every decision, export and update', async () => {
  const lines: string[] = [];
  await runSandbox({ print: (line) => lines.push(line) });
  const text = lines.join('\n');

  expect(text).toContain('connected to the roster of "San Andreas Roleplay"');
  expect(text).toMatch(/^Alice \(member mem_\d+, ACTIVE\) +-> admitted as player \d+/m);
  expect(text).toMatch(
    /^Bob \(not on the roster\) +-> refused: "You are not on the San Andreas Roleplay roster/m,
  );
  expect(text).toMatch(/^Carol .*SUSPENDED\) +-> refused: ".*status is SUSPENDED/m);
  expect(text).toMatch(/^Dave \(no license: identifier\) +-> refused: "No Rockstar license/m);

  const burst = text.match(/^burst: (\d+)\/50 admitted, (\d+) refused \(expected (\d+) admitted/m);
  expect(burst).not.toBeNull();
  expect(Number(burst![1])).toBe(Number(burst![3]));
  expect(Number(burst![1]) + Number(burst![2])).toBe(50);
  expect(text).toMatch(/^burst: the mock received \d+ API request\(s\) for them/m);
  expect(text).toMatch(/^burst: the slowest player waited \d+ ms/m);

  expect(text).toMatch(/^exports\.roster\.getMember\(\d+\) +-> .*\(mem_\d+\), ACTIVE/m);
  expect(text).toMatch(/^exports\.roster:hasMinRank\(\d+, 'LSPD', 'Sergeant'\) +-> (true|false)$/m);
  expect(text).toMatch(/^event roster:playerUpdated\(\d+\): LSPD \S+ -> \S+/m);
  expect(text).toMatch(/^players: \d+\/\d+ online loaded/m);

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
  expect(text).toMatch(/^sandbox finished in [\d.]+ s$/m);
}, 30_000);
