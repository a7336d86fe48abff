import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  CACHE_CONTROL,
  ContractViolation,
  Refusal,
  buildRefusal,
  formatEntities,
  headers,
  newRequestId,
  requestIdPattern,
  validationDetails,
  type AnswerEnvelope,
  type Capability,
} from '@evidence-record/contract';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

/** Who is asking, as established by the gateway (internal x-er-* headers). */
export interface CallerContext {
  requestId: string;
  orgId: string | null;
  keyId: string | null;
  accountId: string | null;
  planId: string | null;
  watchLimit: number | null;
  origin: string | null;
  log: Logger;
}

/** What a capability handler returns: the answer and the entities it named. */
export interface CapabilityResult {
  answer: AnswerEnvelope;
  entities: string[];
}

export interface ServiceAppOptions {
  name: string;
  log: Logger;
  metrics: Metrics;
  /** Throws when the service cannot serve (dependency down). */
  readiness: () => Promise<void>;
  /** Record version for refusals that are not read in a snapshot. */
  recordVersion: () => Promise<string>;
}

function header(req: Request, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export function callerContext(req: Request, log: Logger): CallerContext {
  const incoming = header(req, headers.requestId);
  const requestId = incoming && requestIdPattern.test(incoming) ? incoming : newRequestId();
  const watchLimit = header(req, headers.watchLimit);
  return {
    requestId,
    orgId: header(req, headers.orgId),
    keyId: header(req, headers.keyId),
    accountId: header(req, headers.accountId),
    planId: header(req, headers.planId),
    watchLimit: watchLimit === null ? null : Number(watchLimit),
    origin: header(req, headers.serviceOrigin),
    log: log.child({ request_id: requestId }),
  };
}

/**
 * An express app with the operational endpoints every service has:
 * /healthz (alive), /readyz (dependencies reachable) and /metrics.
 */
export function createServiceApp(opts: ServiceAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: opts.name });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await opts.readiness();
      res.json({ status: 'ready', service: opts.name });
    } catch (err) {
      opts.log.warn({ err: String(err) }, 'not ready');
      res.status(503).json({ status: 'not_ready', service: opts.name });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.set('Content-Type', opts.metrics.registry.contentType);
    res.end(await opts.metrics.registry.metrics());
  });
  app.use(express.json({ limit: 8192, strict: true, type: 'application/json' }));
  return app;
}

async function sendRefusal(res: Response, opts: ServiceAppOptions, ctx: { requestId: string; log: Logger }, capability: string, err: unknown): Promise<void> {
  let refusal: Refusal;
  if (err instanceof Refusal) {
    refusal = err;
  } else if (isBodyParserError(err)) {
    refusal = err.type === 'entity.too.large'
      ? new Refusal('payload_too_large')
      : new Refusal('invalid_request', { message: 'The body is not valid JSON.', details: { location: 'body', field: 'body' } });
  } else {
    ctx.log.error({ err: err instanceof ContractViolation ? err.message : err instanceof Error ? { message: err.message, stack: err.stack } : String(err), capability }, 'internal error');
    opts.metrics.refusals.inc({ code: 'internal_error' });
    refusal = new Refusal('internal_error');
  }
  let recordVersion = 'rv_unknown';
  try {
    recordVersion = await opts.recordVersion();
  } catch {
    opts.metrics.dependencyErrors.inc({ dependency: 'postgres' });
  }
  const { status, body } = buildRefusal({
    request_id: ctx.requestId,
    capability,
    code: refusal.code,
    message: refusal.message,
    details: refusal.details,
    limitations: refusal.limitations,
    record_version: recordVersion,
  });
  if (refusal.code !== 'internal_error') opts.metrics.refusals.inc({ code: refusal.code });
  res.status(status).set('Cache-Control', CACHE_CONTROL).set(headers.requestId, ctx.requestId).json(body);
}

function isBodyParserError(err: unknown): err is { type: string } {
  return typeof err === 'object' && err !== null && 'type' in err && typeof (err as { type: unknown }).type === 'string';
}

export type CapabilityHandler = (
  input: { params: any; query: any; body: any }, // eslint-disable-line @typescript-eslint/no-explicit-any -- narrowed by the capability's own zod schemas
  ctx: CallerContext,
) => Promise<CapabilityResult>;

/**
 * Mounts one capability: validates path, query and body with the contract's
 * schemas, runs the handler, and answers with the envelope, the entities
 * header the gateway charges from, and the no-store cache header.
 */
export function mountCapability(app: express.Express, opts: ServiceAppOptions, capability: Capability, handler: CapabilityHandler): void {
  const method = capability.method.toLowerCase() as 'get' | 'post' | 'delete';
  app[method](capability.path, async (req: Request, res: Response) => {
    const ctx = callerContext(req, opts.log);
    const started = process.hrtime.bigint();
    let status = 200;
    let code = '';
    try {
      const params = capability.params.safeParse({ ...req.params });
      if (!params.success) throw new Refusal('invalid_request', { details: validationDetails(params.error.issues, 'path') });
      const query = capability.query.safeParse({ ...(req.query as object) });
      if (!query.success) throw new Refusal('invalid_request', { details: validationDetails(query.error.issues, 'query') });
      let body: unknown = undefined;
      if (capability.body) {
        const parsed = capability.body.safeParse(req.body ?? {});
        if (!parsed.success) throw new Refusal('invalid_request', { details: validationDetails(parsed.error.issues, 'body') });
        body = parsed.data;
      }
      const result = await handler({ params: params.data, query: query.data, body }, ctx);
      res
        .status(200)
        .set('Cache-Control', CACHE_CONTROL)
        .set(headers.requestId, ctx.requestId)
        .set(headers.budgetEntities, formatEntities(result.entities))
        .json(result.answer);
    } catch (err) {
      await sendRefusal(res, opts, ctx, capability.name, err);
      status = res.statusCode;
      code = err instanceof Refusal ? err.code : 'internal_error';
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      opts.metrics.requests.inc({ capability: capability.name, status: String(status), code });
      opts.metrics.latency.observe({ capability: capability.name, status: String(status) }, seconds);
    }
  });
}

/**
 * Ends the app: unknown paths and body-parser failures become envelopes,
 * never an HTML page or a stack trace.
 */
export function finishServiceApp(app: express.Express, opts: ServiceAppOptions): void {
  app.use((req: Request, res: Response) => {
    const ctx = callerContext(req, opts.log);
    void sendRefusal(res, opts, ctx, 'unknown', new Refusal('unsupported_capability'));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const ctx = callerContext(req, opts.log);
    void sendRefusal(res, opts, ctx, 'unknown', err);
  });
}

export interface RunningService {
  server: Server;
  port: number;
  close: () => Promise<void>;
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests
 * finish (up to the grace period), then runs `onShutdown` (drain consumers,
 * close pools) and exits.
 */
export async function startService(
  app: express.Express,
  opts: { port: number; log: Logger; graceMs: number; onShutdown?: () => Promise<void>; handleSignals?: boolean },
): Promise<RunningService> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(opts.port, '0.0.0.0', () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      opts.log.info('shutting down: no new connections, finishing in-flight requests');
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), opts.graceMs);
      await drained;
      clearTimeout(timer);
      if (opts.onShutdown) await opts.onShutdown();
      opts.log.info('shut down');
    })();
    return closing;
  };
  if (opts.handleSignals !== false) {
    const onSignal = (signal: string) => {
      opts.log.info({ signal }, 'signal received');
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          opts.log.error({ err: String(err) }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  opts.log.info({ port }, 'listening');
  return { server, port, close };
}
