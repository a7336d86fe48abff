import { defineConfig } from 'vitest/config';

/**
 * `npm run test:resilience`: the fault, concurrency, fuzzing and security
 * suites against the real local stack (docs/reliability.md). They are named
 * *.resilience.ts so that `npm test` (vitest.config.ts, which picks up
 * *.test.ts) stays within its time budget; the pinned fuzz regressions are
 * a *.test.ts and run in both (docs/decisions/0704-resilience-suites.md).
 */
export default defineConfig({
  test: {
    include: ['test/resilience/**/*.{test,resilience}.ts', 'test/security/**/*.{test,resilience}.ts', 'test/fuzz/**/*.{test,resilience}.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // Each file runs a whole stack of processes; two at once is what a 2-core machine carries.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
