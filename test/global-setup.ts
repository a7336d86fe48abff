import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runMigrations } from '@evidence-record/record-store/migrations';
import { adminQuery, databaseUrl, dropDatabase, uniqueSuffix } from '@evidence-record/test-support/infra';
import { seedDemoRecord } from '@evidence-record/demo-record/seed';

const root = new URL('../', import.meta.url).pathname;

/**
 * Once per run: the bundles of this tree, and two template databases (empty,
 * and the demo Record), from which every test file clones its own database in
 * milliseconds.
 *
 * Services and the operator CLI run from bundles built here, as they are
 * deployed (dist/<name>.mjs), not under tsx, whose start compiles every
 * imported file again in each process: a bundle starts with a third of the
 * CPU, and a run starts hundreds of processes. Built for this run into its own
 * folder (ER_TEST_BUNDLES, inherited by the test processes), so a test never
 * runs a stale dist/ and two runs never share one.
 */
export default async function setup(project: TestProject) {
  const runId = `r${uniqueSuffix()}`;
  const bundles = join(root, '.run', 'test-bundles', runId);
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', bundles], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  process.env.ER_TEST_BUNDLES = bundles;
  const emptyTemplate = `er_${runId}_tpl_empty`;
  const demoTemplate = `er_${runId}_tpl_demo`;
  await adminQuery(`CREATE DATABASE "${emptyTemplate}"`);
  await runMigrations(databaseUrl(emptyTemplate));
  await adminQuery(`CREATE DATABASE "${demoTemplate}" TEMPLATE "${emptyTemplate}"`);
  await seedDemoRecord(databaseUrl(demoTemplate));
  project.provide('runId', runId);
  project.provide('emptyTemplate', emptyTemplate);
  project.provide('demoTemplate', demoTemplate);

  return async () => {
    // Drop every database this run made, including clones a crashed file left behind.
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: databaseUrl('postgres') });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`er_${runId}_%`]);
    await client.end();
    for (const r of rows) if (!r.datname.includes('_tpl_')) await dropDatabase(r.datname);
    await dropDatabase(demoTemplate);
    await dropDatabase(emptyTemplate);
    rmSync(bundles, { recursive: true, force: true });
  };
}
