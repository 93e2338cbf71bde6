import { expect, it } from 'vitest';
import { runJobsSandbox } from '../../dev/sandbox/jobs';

it('`npm start -- --jobs` shows a promotion on the roster changing the character’s grade', async () => {
  const lines: string[] = [];
  await runJobsSandbox((line) => lines.push(line));
  const text = lines.join('\n');
  expect(text).toContain('PlayerData.job -> police, grade 1 (officer)');
  expect(text).toMatch(
    /PlayerData\.job -> police, grade 3 \(lieutenant\), \d+ ms after the refresh was asked/,
  );
  expect(text).toContain(
    'event roster:jobChanged(1, {"job":"police","grade":3,"previous":{"job":"police","grade":1}})',
  );
  expect(text).toContain('✓ jobs: framework qbx (qbx_core)');
}, 30_000);
