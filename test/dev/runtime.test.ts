import { expect, it } from 'vitest';

// FXServer runs the bundle on the Node it bundles (22.22); the dev dependency `node` puts that
// version first on npm scripts' PATH, so the suite runs there and not on whatever Node ran npm.
it('the tests run on Node 22.22, the runtime FXServer bundles', () => {
  expect(process.versions.node).toMatch(/^22\.22\./);
});
