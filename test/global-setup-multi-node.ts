import type { TestProject } from 'vitest/node';
import { startMultiNodeEngines } from '@evidence-record/test-support/multi-node';

/**
 * The run on the multi-node engines (vitest.multi-node.config.ts, decision
 * 2360): a Redis Cluster (three masters, three replicas), a Postgres primary
 * with a streaming standby and a three-node NATS JetStream cluster, started
 * once for the run; the TEST_* variables that test-support reads (infra.ts)
 * point at them, so every stack of the run uses them, snapshot reads on the
 * standby. Then the usual setup (templates on the primary, which the standby
 * replays like every database cloned from them).
 */
export default async function setup(project: TestProject) {
  const t0 = Date.now();
  const engines = await startMultiNodeEngines();
  // Set before test-support is loaded here, and inherited by the test processes, which start after this.
  Object.assign(process.env, engines.env);
  console.log(`multi-node engines up in ${((Date.now() - t0) / 1000).toFixed(1)} s: Redis Cluster ${engines.redis.url}; Postgres primary :${engines.postgres.primaryPort}, standby :${engines.postgres.standbyPort}; NATS ${engines.nats.url}`);
  let teardown: (() => Promise<void>) | undefined;
  try {
    const { default: singleSetup } = await import('./global-setup');
    const t1 = Date.now();
    teardown = await singleSetup(project);
    console.log(`template databases (migrated, demo Record) on the primary in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  } catch (err) {
    await engines.stop();
    throw err;
  }
  return async () => {
    await teardown?.().catch(() => undefined);
    await engines.stop();
  };
}
