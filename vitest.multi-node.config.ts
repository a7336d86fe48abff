import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tests on the multi-node engines (decision 2360): the run
 * starts a Redis Cluster, a Postgres primary with a streaming standby and a
 * NATS JetStream cluster (test/global-setup-multi-node.ts), and every stack
 * of the run uses them. `npm run test:multi-node` runs every end-to-end test
 * (test/e2e) and the multi-node set; `npm test` runs the representative set
 * only (test/multi-node, scripts/test.sh). Named *.multi-node.ts there so the
 * main run does not pick it up.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts', 'test/multi-node/**/*.multi-node.ts'],
    globalSetup: ['test/global-setup-multi-node.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Each file runs a whole stack of processes on engines of eleven processes: two files at a time on a 2-core machine.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
