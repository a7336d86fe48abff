import { inject } from 'vitest';
import { adminQuery, databaseUrl, dropDatabase, uniqueSuffix } from './infra';

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
  drop: () => Promise<void>;
}

async function cloneFrom(template: string, label: string): Promise<TestDatabase> {
  const name = `er_${inject('runId')}_${label}_${uniqueSuffix()}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
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
