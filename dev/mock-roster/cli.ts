import { parseArgs } from 'node:util';
import { startMockRoster } from './server';

// `npm run mock-api -- --port 4010 --members 500 [--seed 1] [--host 127.0.0.1] [--inline-assignments]`
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    members: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
    'inline-assignments': { type: 'boolean', default: false },
  },
});

function integer(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a non-negative integer (got ${raw})`);
    process.exit(2);
  }
  return value;
}

const mock = await startMockRoster({
  port: integer('port', values.port),
  host: values.host,
  members: integer('members', values.members),
  seed: integer('seed', values.seed),
  inlineAssignments: values['inline-assignments'],
});

const shown = ['full', 'readOnly', 'rosterOnly', 'lowLimit', 'revoked'] as const;
console.log(`mock roster service listening on ${mock.url}`);
console.log(
  `  ${mock.data.members.length} members, community "${mock.community.name}" (seed ${values.seed})`,
);
console.log(`  server.cfg:  set roster_base_url "${mock.url}"`);
for (const name of shown) console.log(`  ${name.padEnd(11)} ${mock.keys[name]}`);
console.log(
  `  a member license: ${mock.data.licenseOf(0)}   suspended: ${mock.data.suspendedMember().gameLicense}`,
);
console.log(
  `  faults: curl -X POST ${mock.url}/__mock/faults -H 'Content-Type: application/json' -d '{"latencyMs":2000}'`,
);
console.log('  Ctrl+C stops it.');

process.once('SIGINT', () => {
  void mock.close().then(() => {
    console.log('mock roster service stopped');
    process.exit(0);
  });
});
