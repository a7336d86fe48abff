import { defineConfig } from 'vitest/config';

/**
 * The README on a fresh clone (a step of `npm test`, scripts/test.sh): a
 * `git clone` of HEAD with no node_modules, `npm run up` there exactly as the
 * README says, the stack driven as a client would, `npm run down`. Named
 * *.check.ts so the main run (vitest.config.ts, *.test.ts) does not pick it
 * up: it installs the npm packages and starts a whole stack of its own.
 */
export default defineConfig({
  test: {
    include: ['test/fresh-clone/**/*.check.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
