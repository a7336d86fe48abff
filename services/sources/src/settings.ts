import { z } from 'zod';

/** A check's deadline when MONITOR_CHECK_DEADLINE_MS is unset (and the lease is at least twice as long). */
const DEFAULT_CHECK_DEADLINE_MS = 60_000;

const ms = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const flag = z.enum(['0', '1']).default('0').transform((v) => v === '1');

/**
 * What the monitor reads from the environment: the same variables for the
 * service and for `admin monitor run-once` (one configuration). Every value
 * is checked at start-up; a bad one stops the process naming the variable.
 */
export const MonitorSettingsFields = z.object({
  /** Sent in the User-Agent so a site owner can reach the operator. */
  MONITOR_CONTACT: z.string().trim().min(3).max(200).regex(/^[^\r\n()]+$/, 'one line, no parentheses').default('monitor@evidence-record.example'),
  /** DSLD API v9 base; a dsld_label source URL is `{base}/label/{id}`. */
  DSLD_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.ods.od.nih.gov/dsld/v9'),
  /**
   * Optional data.gov key (from a Secret), sent as DSLD's `api_key` query parameter to the origin of DSLD_BASE_URL
   * only (never to another host, an allow-listed mirror or a redirect's target); never logged or stored.
   */
  DSLD_API_KEY: z.string().trim().min(1).max(200).optional(),
  /**
   * Comma-separated host names admitted whatever they resolve to. A leading dot admits a domain and its sub-domains
   * (".bench.test"). Use for an internal mirror; everything else must resolve to public addresses only.
   */
  MONITOR_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)),
  /** The local stack only (`npm run up`): admit http://127.0.0.1 on any port. Nothing else private is admitted. */
  MONITOR_ALLOW_LOCALHOST: flag,
  MONITOR_CONNECT_TIMEOUT_MS: ms(100, 60_000, 5_000),
  /** Time to the response headers, and the longest pause between two body chunks. */
  MONITOR_READ_TIMEOUT_MS: ms(100, 120_000, 15_000),
  MONITOR_MAX_BODY_BYTES: z.coerce.number().int().min(1_024).max(50_000_000).default(3_000_000),
  MONITOR_MAX_REDIRECTS: z.coerce.number().int().min(0).max(10).default(5),
  /** A lease older than this belongs to a replica that died mid-check; another replica takes the check over. */
  MONITOR_LEASE_MS: ms(5_000, 3_600_000, 120_000),
  /**
   * Everything one check asks the network (its robots.txt reads, the source, every redirect hop and their robots.txt)
   * ends by this deadline; a check past it is `timeout`. Unset: 60 s, or half the lease if that is shorter. Set: at
   * most half the lease, so a check is recorded before another replica may take its source over.
   */
  MONITOR_CHECK_DEADLINE_MS: z.coerce.number().int().min(500).max(1_800_000).optional(),
  /** Minimum time between two requests to one host, across every replica. */
  MONITOR_HOST_INTERVAL_MS: ms(0, 3_600_000, 2_000),
  /** Checks leased per round trip and run at once by one replica. */
  MONITOR_BATCH: z.coerce.number().int().min(1).max(500).default(64),
  MONITOR_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),
  /**
   * Postgres connections per replica, whatever the concurrency: checks wait on the network, not on the database, and
   * the recorder writes finished checks on one connection (decision 1010), so replicas scale out without exhausting
   * the server's connections.
   */
  MONITOR_DB_CONNECTIONS: z.coerce.number().int().min(3).max(100).default(8),
  /** Pause between two lease attempts when nothing is due. */
  MONITOR_POLL_MS: ms(50, 60_000, 2_000),
  MONITOR_ROBOTS_TTL_MS: ms(0, 86_400_000, 3_600_000),
});

/** A deadline longer than half the lease is refused: the check and its recording must end before the lease does. */
export function deadlineBelowLease(s: { MONITOR_CHECK_DEADLINE_MS?: number | undefined; MONITOR_LEASE_MS: number }, ctx: z.RefinementCtx): void {
  if (s.MONITOR_CHECK_DEADLINE_MS !== undefined && s.MONITOR_CHECK_DEADLINE_MS * 2 > s.MONITOR_LEASE_MS) {
    ctx.addIssue({ code: 'custom', path: ['MONITOR_CHECK_DEADLINE_MS'], message: `at most half of MONITOR_LEASE_MS (${s.MONITOR_LEASE_MS} ms): a check must be recorded before its lease ends` });
  }
}

export const MonitorSettingsSchema = MonitorSettingsFields.superRefine(deadlineBelowLease);
export type MonitorSettings = z.output<typeof MonitorSettingsSchema>;

export const defaultSettings = (): MonitorSettings => MonitorSettingsSchema.parse({});

/** The deadline of one check: MONITOR_CHECK_DEADLINE_MS or 60 s, never more than half the lease however the settings were built. */
export const checkDeadlineMs = (s: Pick<MonitorSettings, 'MONITOR_CHECK_DEADLINE_MS' | 'MONITOR_LEASE_MS'>): number =>
  Math.min(s.MONITOR_CHECK_DEADLINE_MS ?? DEFAULT_CHECK_DEADLINE_MS, Math.floor(s.MONITOR_LEASE_MS / 2));

/** The one origin the DSLD key is sent to, and where a dsld_label source must be unless its host is allow-listed. */
export const dsldOrigin = (settings: Pick<MonitorSettings, 'DSLD_BASE_URL'>): string => new URL(settings.DSLD_BASE_URL).origin;
