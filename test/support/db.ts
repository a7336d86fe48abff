import { inject } from 'vitest';
import { adminQuery, databaseReadUrl, databaseUrl, dropDatabase, uniqueSuffix } from './infra';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated database holding the demo Record; clone it, never write to it. */
    demoTemplate: string;
    /** A migrated, empty database; clone it, never write to it. */
    emptyTemplate: string;
    runId: string;
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  /** The same database on the standby, on the multi-node engines (DATABASE_READ_URL). */
  readUrl?: string;
  drop: () => Promise<void>;
}

async function cloneFrom(template: string, label: string): Promise<TestDatabase> {
  const name = `er_${inject('runId')}_${label}_${uniqueSuffix()}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  const readUrl = databaseReadUrl(name);
  return { name, url: databaseUrl(name), ...(readUrl ? { readUrl } : {}), drop: () => dropDatabase(name) };
}

/** A private copy of the demo Record for one test file. */
export function demoDatabase(): Promise<TestDatabase> {
  return cloneFrom(inject('demoTemplate'), 'demo');
}

/** A private, migrated, empty database for one test file. */
export function emptyDatabase(): Promise<TestDatabase> {
  return cloneFrom(inject('emptyTemplate'), 'empty');
}

/** Redis key prefix and NATS stream prefix private to one test file. */
export function isolationPrefix(label: string): { redisPrefix: string; natsPrefix: string } {
  const id = `${inject('runId')}_${label}_${uniqueSuffix()}`;
  return { redisPrefix: `ertest:${id}:`, natsPrefix: `T${id}`.replace(/[^A-Za-z0-9_]/g, '_') };
}

/**
 * Every value that must never leave the operator side: review and operator
 * notes, the summaries of candidates not approved, preserved-source paths and
 * source hashes. A test looks for each in what a client received.
 */
export async function operatorOnlyValues(db: { query: <R extends object>(sql: string) => Promise<{ rows: R[] }> }): Promise<string[]> {
  const { rows } = await db.query<{ v: string }>(`
    SELECT review_note AS v FROM candidates WHERE review_note IS NOT NULL
    UNION SELECT summary FROM candidates WHERE status <> 'approved'
    UNION SELECT operator_note FROM signal_corrections WHERE operator_note IS NOT NULL
    UNION SELECT storage_path FROM captures
    UNION SELECT content_sha256 FROM captures`);
  return rows.map((r) => r.v);
}
