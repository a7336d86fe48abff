import { defineConfig } from 'vitest/config';

/**
 * The image check (scripts/image-check.sh, a step of `npm test`): every
 * service from the built image's files. Named *.check.ts so the main run
 * (vitest.config.ts, *.test.ts) does not pick it up without an image.
 */
export default defineConfig({
  test: {
    include: ['test/image/**/*.check.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
