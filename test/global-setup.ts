import type { TestProject } from 'vitest/node';
import { runMigrations } from '@evidence-record/record-store/migrations';
import { adminQuery, databaseUrl, dropDatabase, uniqueSuffix } from '@evidence-record/test-support/infra';
import { seedDemoRecord } from '@evidence-record/demo-record/seed';

/**
 * Once per run: two template databases (empty, and the demo Record), from
 * which every test file clones its own database in milliseconds.
 */
export default async function setup(project: TestProject) {
  const runId = `r${uniqueSuffix()}`;
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
  };
}
