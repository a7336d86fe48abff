import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Gauge } from 'prom-client';
import { API_VERSION, CACHE_CONTROL, HEALTH_PATH, OPENAPI_PATH, UNSUBSCRIBE_PATH, buildOpenApiDocument, newRequestId, presentedKey } from '@evidence-record/contract';
import {
  Metrics,
  clusterNodesOf,
  createAccessLogger,
  createLogger,
  createPool,
  createRedis,
  createRedisSubscriber,
  isDraining,
  onRedisErrors,
  openRedis,
  parseRedisUrl,
  type Logger,
  type Pool,
  type RedisClient,
  type RedisSettings,
} from '@evidence-record/platform';
import { redisSettingsOf, type GatewayConfig } from './config';
import { KeyCache, type KeyCacheOptions } from './access/key-cache';
import { loadKeyRecord } from './access/key-record';
import { followKeyChanges } from './access/invalidation';
import { SettledToday } from './limits/settled-today';
import { serveCapability } from './capability';
import { Exchange, finish, gatewayMetrics, refuse, type GatewayContext } from './context';
import { authenticate } from './access/admission';
import { peekRateLimitHeaders } from './limits/rate-windows';
import { pathOf, securityHeaders, sendBytes, sendJson } from './http/io';
import { Upstreams } from './http/upstream';
import { installScripts } from './limits/scripts';
import { MCP_PATHS, serveMcp } from './mcp';
import { answerOAuthDiscovery, isOAuthDiscoveryPath } from './oauth-discovery';
import { RecordVersionWatch } from './record-version';
import { RouteTable } from './routes';
import { ExtractionEnforcer } from './scoring/enforce';
import { defaultScoringPolicy, type ScoringPolicy } from '@evidence-record/access';
import { serveUnchecked } from './unchecked';
import { serveUnsubscribe } from './unsubscribe/route';
import { UsageLog } from './usage/usage-log';

export interface GatewayDeps {
  config: GatewayConfig;
  log?: Logger;
  /** The access log's logger (main.ts: platform `createAccessLogger`); when absent, `log` takes the access lines too, as they happen (the tests'). */
  accessLog?: Logger;
  metrics?: Metrics;
  /** Connections made elsewhere are used and left open; otherwise they are made from config and closed by close(). */
  pool?: Pool;
  redis?: RedisClient;
  scoring?: Partial<ScoringPolicy>;
  /** Wall clock for budget days, key expiry and scores (tests move it). */
  clock?: () => number;
  keyCache?: KeyCacheOptions;
  usage?: { intervalMs?: number; batchSize?: number };
  recordVersionIntervalMs?: number;
}

export interface Gateway {
  /** The operational endpoints, health, the description and the unsubscribe page. */
  app: express.Express;
  /**
   * What the HTTP server calls for every request: capability routes, /mcp and every other
   * path are answered straight from node's request (decision 1800); the few express routes go to `app`.
   */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  context: GatewayContext;
  close: () => Promise<void>;
}

const API_PREFIX = '/api/v1/';
/** The paths express answers (each with its method; any other method on them is refused by `route`, as before). */
const EXPRESS_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics', HEALTH_PATH, OPENAPI_PATH, UNSUBSCRIBE_PATH]);

/** How the gateway's Redis connections behave: fail fast, never queue (the subscriber alone queues its SUBSCRIBE). */
const redisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 1000,
  connectTimeout: 2000,
  retryStrategy: (times: number) => Math.min(times * 200, 2000),
  // No auto-pipelining: it defers every command to the next turn of the event loop and builds a
  // pipeline around it, which measured 39–61 µs of client CPU per script with one request in
  // flight against 18–20 µs without, and no less with sixteen in flight (docs/benchmarks.md,
  // issue 25). Requests through the gateway rarely arrive in the same turn.
  enableAutoPipelining: false,
} as const;

/**
 * A Redis connection that fails fast instead of queueing: a request must never wait on a Redis that is gone.
 * A string is one server's URL (standalone); otherwise the settings say standalone, cluster or sentinel
 * (decision 2300: on a cluster a command whose master is gone is refused within about a second).
 */
export function connectRedis(settings: RedisSettings | string, log: Logger, name: string, metrics?: Metrics): RedisClient {
  const redis = createRedis(typeof settings === 'string' ? { mode: 'standalone', url: settings } : settings, { ...redisOptions, connectionName: name });
  let lastLogged = 0;
  const onError = (err: Error) => {
    metrics?.dependencyErrors.inc({ dependency: 'redis' });
    if (Date.now() - lastLogged > 5000) {
      lastLogged = Date.now();
      log.error({ err: err.message, connection: name }, 'redis error');
    }
  };
  onRedisErrors(redis, onError);
  return redis;
}

/**
 * Builds the gateway: connects (unless given connections), loads the route
 * table, and returns the express app. Used by main.ts and, in-process on
 * port 0, by the tests.
 */
export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config } = deps;
  const log = deps.log ?? createLogger('gateway', config.logLevel);
  const accessLog = deps.accessLog ?? deps.log ?? createAccessLogger('gateway', config.logLevel);
  const metrics = gatewayMetrics(deps.metrics ?? new Metrics('gateway'));
  if (config.checks) metrics.base.dependsOn('postgres', 'redis');
  const upstreams = new Upstreams({ socketTimeoutMs: Math.max(config.upstreamTimeoutMs, config.mcpTimeoutMs), signingKeys: config.signingKeys });
  const closers: Array<() => Promise<void> | void> = [() => upstreams.close()];

  let checked: GatewayContext['checked'] = null;
  if (config.checks) {
    const pool = deps.pool ?? createPool(config.databaseUrl, { max: 10, applicationName: 'gateway', statementTimeoutMs: 3000, metrics: metrics.base, namedStatements: config.databaseNamedStatements ?? true });
    if (!deps.pool) closers.push(() => pool.end());
    const redisSettings = redisSettingsOf(config);
    const redis = installScripts(deps.redis ?? connectRedis(redisSettings, log, 'gateway', metrics.base));
    if (!deps.redis) {
      await openRedis(redis);
      closers.push(async () => void (await redis.quit().catch(() => redis.disconnect())));
    }
    // Its own connection, with its own options (a cluster's duplicate() would drop them); on a cluster it
    // moves to another node when it loses its own, and says so, so the key cache is flushed (decision 2300).
    const subscriber = createRedisSubscriber(
      redisSettings,
      { ...redisOptions, enableOfflineQueue: true, autoResubscribe: false, connectionName: 'gateway-keys' },
      redisSettings.mode === 'cluster' ? clusterNodesOf(redis, parseRedisUrl(redisSettings.url).nodes) : undefined,
    );
    subscriber.on('error', () => undefined);
    await subscriber.connect();
    closers.push(() => subscriber.disconnect());

    const keys = new KeyCache((keyId) => loadKeyRecord(pool, keyId), deps.keyCache);
    const settled = new SettledToday();
    const stopFollowing = await followKeyChanges(subscriber, config.redisPrefix, [keys, settled], log);
    closers.push(stopFollowing);
    // Read when scraped, never on the request path.
    new Gauge({ name: 'er_gateway_key_cache_entries', help: 'Key records held in the in-process cache', registers: [metrics.base.registry], collect() { this.set(keys.size); } });
    new Gauge({
      name: 'er_gateway_key_cache_lookups',
      help: 'Key cache lookups since start, by result',
      labelNames: ['result'],
      registers: [metrics.base.registry],
      collect() {
        this.set({ result: 'hit' }, keys.hits);
        this.set({ result: 'miss' }, keys.misses);
      },
    });

    const recordVersion = new RecordVersionWatch(pool, log, deps.recordVersionIntervalMs);
    await recordVersion.start();
    closers.push(() => recordVersion.stop());
    const usage = new UsageLog(pool, log, metrics.base, deps.usage);
    usage.start();
    closers.push(() => usage.stop());
    const policy = { ...defaultScoringPolicy, ...deps.scoring };
    const enforcer = new ExtractionEnforcer({ redis, prefix: config.redisPrefix, pool, cache: keys, log, policy });
    closers.push(() => enforcer.stop());
    checked = { keys, redis, pool, recordVersion, usage, enforcer, policy, settled };
  } else {
    log.warn('GATEWAY_CHECKS=off: NO keys, windows, budgets, validation or scoring. Benchmark use only; never expose this process.');
  }

  const context: GatewayContext = { config, log, accessLog, metrics, routes: new RouteTable(), upstreams, clock: deps.clock ?? Date.now, checked };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    // Every response carries a request id (health, the description, operational endpoints too);
    // a capability, /mcp or refusal exchange replaces it with its own, the one it logs and forwards.
    res.setHeader('X-Request-Id', newRequestId());
    next();
  });

  // Operational endpoints (cluster-internal; the ingress routes only /api and /mcp).
  app.get('/healthz', (_req, res) => sendJson(res, 200, { status: 'ok', service: 'gateway' }, {}));
  app.get('/readyz', async (req, res) => {
    if (isDraining(req)) return sendJson(res, 503, { status: 'draining', service: 'gateway' }, {});
    try {
      if (checked) await Promise.all([checked.redis.ping(), checked.pool.query('SELECT 1')]);
      sendJson(res, 200, { status: 'ready', service: 'gateway' }, {});
    } catch (err) {
      log.warn({ err: String(err) }, 'not ready');
      sendJson(res, 503, { status: 'not_ready', service: 'gateway' }, {});
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.base.registry.contentType);
    res.end(await metrics.base.registry.metrics());
  });

  const health = Buffer.from(JSON.stringify({ status: 'ok', api_version: API_VERSION }));
  const description = Buffer.from(JSON.stringify(buildOpenApiDocument(config.publicBaseUrl)));
  app.get(HEALTH_PATH, (_req, res) => sendBytes(res, 200, health, { 'Cache-Control': CACHE_CONTROL }));
  app.get(OPENAPI_PATH, (_req, res) => sendBytes(res, 200, description, { 'Cache-Control': 'public, max-age=300' }));

  app.all(UNSUBSCRIBE_PATH, (req: Request, res: Response) => void serveUnsubscribe(context, req, res));

  // A wrong method on an express path ends here, answered as any unknown route.
  app.use((req: Request, res: Response) => route(context, req, res));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.error({ err: err instanceof Error ? err.message : String(err) }, 'unhandled error');
    void refuseRoute(context, new Exchange('unknown', req, res), 'internal_error');
  });

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (EXPRESS_PATHS.has(pathOf(req.url ?? '/'))) return void app(req, res);
    try {
      route(context, req, res);
    } catch (err) {
      log.error({ err: err instanceof Error ? err.message : String(err) }, 'unhandled error');
      void refuseRoute(context, new Exchange('unknown', req, res), 'internal_error');
    }
  };

  return {
    app,
    listener,
    context,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}

/**
 * Every request but those of EXPRESS_PATHS, straight from node's request and response: the
 * capability routes, /mcp, the OAuth discovery paths and the refusal of any other path.
 */
function route(context: GatewayContext, req: IncomingMessage, res: ServerResponse): void {
  const path = pathOf(req.url ?? '/');
  if (MCP_PATHS.has(path)) return void serveMcp(context, new Exchange('mcp', req, res), path);
  if (isOAuthDiscoveryPath(path)) return answerOAuthDiscovery(context, new Exchange('unknown', req, res));
  if (!path.startsWith(API_PREFIX)) return void refuseRoute(context, new Exchange('unknown', req, res), 'unsupported_capability');
  const match = context.routes.match(req.method ?? 'GET', path);
  switch (match.kind) {
    case 'capability': {
      const ex = new Exchange(match.capability.name, req, res);
      return void (context.checked ? serveCapability(context, ex, match.capability, match.params) : serveUnchecked(context, ex, match.capability));
    }
    case 'method_not_allowed': {
      const ex = new Exchange(match.capability, req, res);
      ex.addHeaders({ Allow: match.allow.join(', ') });
      return void refuseRoute(context, ex, 'method_not_allowed', { allowed_methods: match.allow });
    }
    case 'bad_path':
      return void refuseRoute(context, new Exchange('unknown', req, res), 'invalid_request', { location: 'path', field: 'path', issues: [{ field: 'path', problem: 'malformed percent-encoding' }] });
    case 'unknown':
      return void refuseRoute(context, new Exchange('unknown', req, res), 'unsupported_capability');
  }
}

/**
 * Refusals decided by the path alone: the code never depends on the key and
 * nothing is metered. A request made with a valid key still reports that
 * key's rate windows, read without counting (docs/decisions/0310-headers-on-every-response.md);
 * without one there are no windows to report.
 */
async function refuseRoute(gw: GatewayContext, ex: Exchange, code: 'unsupported_capability' | 'method_not_allowed' | 'invalid_request' | 'internal_error', details?: Record<string, unknown>): Promise<void> {
  ex.req.resume();
  try {
    if (code !== 'internal_error') await reportKeyWindows(gw, ex);
    refuse(gw, ex, code, details ? { details } : {});
  } finally {
    finish(gw, ex);
  }
}

async function reportKeyWindows(gw: GatewayContext, ex: Exchange): Promise<void> {
  const checked = gw.checked;
  const raw = checked ? presentedKey(ex.req.headers) : null;
  if (!checked || raw === null) return;
  try {
    const auth = await authenticate(raw, checked.keys, gw.clock());
    if (!auth.ok && auth.code === 'invalid_credentials') return;
    ex.keyId = auth.key.keyId;
    ex.orgId = auth.key.orgId;
    ex.addHeaders(await peekRateLimitHeaders(checked.redis, gw.config.redisPrefix, auth.key.keyId, auth.key.plan));
  } catch (err) {
    // The refusal itself depends on nothing that failed; it goes out without the windows.
    gw.log.warn({ request_id: ex.requestId, err: err instanceof Error ? err.message : String(err) }, 'rate windows of a path refusal not read');
  }
}
