import { z } from 'zod';
import { MIN_UNSUBSCRIBE_KEY_LENGTH, UNSUBSCRIBE_TOKEN_TTL_DAYS } from '@evidence-record/contract';
import { baseEnv, databaseEnv, env, loadConfig } from '@evidence-record/platform';

const ms = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** The email worker's environment, parsed once at start-up (docs/watch-and-alerts.md lists every variable). */
export const EmailWorkerConfigSchema = z
  .object({
    ...baseEnv,
    PORT: env.port(8106),
    DATABASE_URL: env.databaseUrl,
    ...databaseEnv,
    NATS_URL: env.natsUrl,
    NATS_PREFIX: env.prefix,
    /** Replicas of a stream this service creates; an existing stream keeps its own (decision 2340). */
    NATS_STREAM_REPLICAS: env.natsStreamReplicas,
    /** Locally the maildev sink that `npm run up` starts (web UI on :1080). */
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').default('smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().min(3).default('Evidence Record <alerts@evidence-record.local>'),
    PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
    /** Durable consumer on the ALERTS stream shared by every replica. */
    EMAIL_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/).default('email-worker'),
    /**
     * Alerts one replica sends at once: its SMTP connection pool size, and (+2) its Postgres pool, so recording
     * 'sent' never waits for a connection. Each connection carries one email per few SMTP round trips, so against
     * a relay 20 ms away 4 gave ~42 emails/s and 16 ~167/s (docs/watch-and-alerts.md).
     */
    EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(16),
    /** Unacknowledged messages come back to the consumer after this long. */
    EMAIL_ACK_WAIT_MS: ms(1_000, 600_000, 60_000),
    /** A 'sending' claim older than this belongs to a worker that died mid-send; another may take the alert over. */
    EMAIL_LEASE_MS: ms(1_000, 3_600_000, 120_000),
    /** SMTP connection, greeting and socket timeouts. */
    SMTP_TIMEOUT_MS: ms(500, 120_000, 20_000),
    /** Delivery attempts before an alert becomes a dead letter. */
    EMAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    EMAIL_BACKOFF_BASE_MS: ms(50, 3_600_000, 5_000),
    EMAIL_BACKOFF_MAX_MS: ms(50, 86_400_000, 900_000),
    NODE_ENV: z.string().default('development'),
    /**
     * Signs the one-click unsubscribe link of every alert email (HMAC-SHA256; the gateway verifies it with the same
     * key). Required in production; elsewhere, without it, emails carry no unsubscribe link and say so in the log.
     */
    UNSUBSCRIBE_SIGNING_KEY: z.string().min(MIN_UNSUBSCRIBE_KEY_LENGTH, `at least ${MIN_UNSUBSCRIBE_KEY_LENGTH} characters`).optional(),
    /** How long an email's unsubscribe link works, in days. */
    UNSUBSCRIBE_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(366).default(UNSUBSCRIBE_TOKEN_TTL_DAYS),
    /** Test hook only: exit right after the database records 'sent' and before the acknowledgement. */
    EMAIL_WORKER_CRASH_AFTER_SEND: z.enum(['0', '1']).default('0'),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.UNSUBSCRIBE_SIGNING_KEY !== undefined, {
    message: 'required in production: every alert email must carry a working unsubscribe link',
    path: ['UNSUBSCRIBE_SIGNING_KEY'],
  })
  .refine((c) => c.EMAIL_LEASE_MS > 3 * c.SMTP_TIMEOUT_MS, {
    message: 'EMAIL_LEASE_MS must exceed three SMTP timeouts, or a slow send could be taken over and sent twice',
    path: ['EMAIL_LEASE_MS'],
  });
export type EmailWorkerConfig = z.infer<typeof EmailWorkerConfigSchema>;

export function loadEmailWorkerConfig(source: NodeJS.ProcessEnv = process.env): EmailWorkerConfig {
  return loadConfig(EmailWorkerConfigSchema, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { EmailWorkerConfigSchema as configSchema };
