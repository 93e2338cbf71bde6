import type { FxServer } from '../emulator';
import { expectThat, waitFor } from './expectation';
import { consoleAnswer } from './log-follower';

/** The line the resource prints when its first read of the whole roster is complete. */
const MIRROR_READ = /^the roster mirror holds \d+ members/;

/**
 * `roster doctor` once the resource is ready (key verified, whole roster read), as an owner runs
 * it after installing: the line of each check, without their details, and a count. A ✗ fails the
 * run: the sandbox's own install must pass.
 */
export async function runDoctorPart(server: FxServer, print: (line: string) => void): Promise<void> {
  await waitFor(
    "the roster mirror's first read",
    () => server.log.of('roster').some((line) => MIRROR_READ.test(line)),
    15_000,
  );
  const answer = await consoleAnswer(server, 'roster doctor', 15_000);
  const checks = answer
    .filter((entry) => entry.resource === 'roster' && /^[✓✗!…] /.test(entry.text))
    .map((entry) => entry.text);
  for (const line of checks) print(line);
  const count = (mark: string) => checks.filter((line) => line.startsWith(mark)).length;
  print(
    `doctor: ${count('✓')} ✓, ${count('!')} ! (worth a look), ${count('…')} … (under way), ${count('✗')} ✗ (broken); \`roster doctor\` at the console shows the details`,
  );
  expectThat(count('✗') === 0, 'roster doctor found something broken (the ✗ line above)');
}
