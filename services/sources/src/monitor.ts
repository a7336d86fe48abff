import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger, Pool } from '@evidence-record/platform';
import type { MonitorDeps } from './deps';
import { Fetcher } from './fetcher';
import type { Resolver } from './guard';
import type { MonitorMetrics } from './metrics';
import { CheckRecorder } from './recorder';
import { RobotsCache } from './robots';
import type { SourcePolicy } from './kinds/kind';
import { checkDeadlineMs, dsldOrigin, type MonitorSettings } from './settings';
import { IngredientNames } from './synonyms';

/** The product token robots.txt groups are matched against. */
export const AGENT_TOKEN = 'EvidenceRecordMonitor';

export function userAgent(settings: MonitorSettings): string {
  return `${AGENT_TOKEN}/1.0 (+https://evidence-record.example/monitor; ${settings.MONITOR_CONTACT})`;
}

export function policyOf(settings: MonitorSettings): SourcePolicy {
  return { allowHosts: settings.MONITOR_ALLOW_HOSTS, allowLocalhost: settings.MONITOR_ALLOW_LOCALHOST, dsldOrigin: dsldOrigin(settings) };
}

/** Everything a check needs, built the same way for the service and for `admin monitor run-once`. */
export function createMonitor(
  pool: Pool,
  settings: MonitorSettings,
  opts: { owner?: string; metrics?: MonitorMetrics; log?: Logger; resolve?: Resolver; now?: () => Date } = {},
): MonitorDeps & { close: () => Promise<void> } {
  const fetcher = new Fetcher({
    policy: policyOf(settings),
    userAgent: userAgent(settings),
    connectTimeoutMs: settings.MONITOR_CONNECT_TIMEOUT_MS,
    readTimeoutMs: settings.MONITOR_READ_TIMEOUT_MS,
    maxBodyBytes: settings.MONITOR_MAX_BODY_BYTES,
    maxRedirects: settings.MONITOR_MAX_REDIRECTS,
    deadlineMs: checkDeadlineMs(settings),
    ...(opts.resolve ? { resolve: opts.resolve } : {}),
  });
  const deps: MonitorDeps & { close: () => Promise<void> } = {
    pool,
    fetcher,
    robots: new RobotsCache(fetcher, AGENT_TOKEN, settings.MONITOR_ROBOTS_TTL_MS, pool),
    names: new IngredientNames(pool),
    recorder: new CheckRecorder(() => deps, undefined, opts.log),
    settings,
    owner: opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    close: () => fetcher.close(),
  };
  return deps;
}
