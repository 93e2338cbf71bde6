// Fails when the committed dist/server.js is not what the sources build today. Compares a fresh
// build, in memory, with the file in the checked-out commit (not the file on disk, which
// `npm run build` has just rewritten), so it can run before or after a build.
import { execFileSync } from 'node:child_process';
import { BUNDLE_PATH, buildResourceBundle, repoRoot } from './resource-bundle.mjs';

/** dist/server.js as committed in HEAD; null when it is not in git. */
function committedBundle() {
  try {
    return execFileSync('git', ['show', `HEAD:${BUNDLE_PATH}`], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    return null;
  }
}

/** The first line where two texts part, counted from 1. */
function firstDifferentLine(a, b) {
  const left = a.split('\n');
  const right = b.split('\n');
  let line = 0;
  while (line < left.length && line < right.length && left[line] === right[line]) line++;
  return line + 1;
}

const fresh = await buildResourceBundle();
const committed = committedBundle();
if (committed === null) {
  console.error(`check-bundle: ${BUNDLE_PATH} is not committed in HEAD (or this is not a git checkout).`);
  process.exit(1);
}
if (committed !== fresh) {
  console.error(
    `check-bundle: the committed ${BUNDLE_PATH} differs from a fresh build from line ` +
      `${firstDifferentLine(committed, fresh)} (${committed.length} characters committed, ${fresh.length} built). ` +
      `Run \`npm run build\` and commit ${BUNDLE_PATH} with the sources it was built from.`,
  );
  process.exit(1);
}
console.log(`check-bundle: the committed ${BUNDLE_PATH} is what the sources build.`);
