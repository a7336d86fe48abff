import { defineConfig } from 'vitest/config';

/**
 * The fault, concurrency, fuzzing and security suites against the real
 * local stack (docs/reliability.md): a step of `npm test` (scripts/test.sh,
 * after the main vitest step, which runs the pinned fuzz regressions, so the
 * step excludes them) and alone as `npm run test:resilience`. They are named
 * *.resilience.ts and have their own config for their longer timeouts and
 * two-at-a-time stacks (docs/decisions/0704-resilience-suites.md).
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
    // Files share their worker's process, as in vitest.config.ts (decision 2401).
    isolate: false,
    reporters: ['default'],
  },
});
