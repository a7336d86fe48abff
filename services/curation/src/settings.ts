import { databaseEnv, env } from '@evidence-record/platform';

/**
 * What curation reads of the stack's configuration when it changes the
 * Record: the database, the bus a release, correction or alert replay is
 * published to (and the replicas of a stream it creates), and the public
 * address Signals are published under. Declared once here and spread by
 * both programs that curate, the review console (its configSchema) and the
 * operator CLI (scripts/admin/config.ts), so they validate each setting
 * alike (decision 2250).
 */
export const curationSettings = {
  DATABASE_URL: env.databaseUrl,
  ...databaseEnv,
  NATS_URL: env.natsUrl.default('nats://127.0.0.1:4222'),
  NATS_PREFIX: env.prefix,
  /** Replicas of a stream this program creates; an existing stream keeps its own (decision 2340). */
  NATS_STREAM_REPLICAS: env.natsStreamReplicas,
  PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
};
