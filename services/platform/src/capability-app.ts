/**
 * The capability-app framework: an express app with the operational endpoints,
 * capability routes that validate, answer or refuse in the contract's envelope,
 * and the ending that turns anything unrouted into a refusal. How the process
 * listens and drains is lifecycle.ts.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  CACHE_CONTROL,
  ContractViolation,
  MAX_BODY_BYTES,
  Refusal,
  buildAnswer,
  buildRefusal,
  formatEntities,
  headers,
  newRequestId,
  requestIdPattern,
  validationDetails,
  capabilityList,
  type AnswerEnvelope,
  type AnswerInput,
  type Capability,
  type CapabilityInput,
  type CapabilityName,
  type CapabilityOf,
  type ServiceCapabilityName,
  type ServiceName,
  type RecordState,
} from '@evidence-record/contract';
import { currentRecordVersion, type Pool } from './db';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import { SpanKind, extractTraceContext, startSpan, type TraceSpan } from './tracing';
import { BodyDigestMismatch, requireGatewaySignature, sendUnsigned, signedBody, type InternalAuth } from './internal-auth';

/** Who is asking, as established by the gateway (internal x-er-* headers). */
export interface CallerContext {
  requestId: string;
  orgId: string | null;
  keyId: string | null;
  accountId: string | null;
  planId: string | null;
  watchLimit: number | null;
  origin: string | null;
  /**
   * Set by the gateway when a full page would cross the organisation's daily
   * budget: the most Signals this page may name (docs/decisions/0312-partial-pages-within-the-budget.md).
   */
  pageCap: number | null;
  /** The trace this request belongs to (continued from the gateway's traceparent). */
  trace: TraceSpan;
  /** Carries request_id, trace_id and key_id on every line. */
  log: Logger;
}

/** What a capability handler returns: the answer and the entities it named. */
export interface CapabilityResult {
  answer: AnswerEnvelope;
  entities: string[];
}

/**
 * A handler's result for an answer read at one Record state: the envelope,
 * with the call's request id and that state filled in, and the entities the
 * answer names (what the gateway charges).
 */
export function answered(ctx: Pick<CallerContext, 'requestId'>, record: RecordState, entities: string[], answer: Omit<AnswerInput, 'request_id' | 'record'>): CapabilityResult {
  return { answer: buildAnswer({ request_id: ctx.requestId, ...answer, record }), entities };
}

export interface ServiceAppOptions {
  name: string;
  log: Logger;
  metrics: Metrics;
  /** Throws when the service cannot serve (dependency down). */
  readiness: () => Promise<void>;
  /** Record version for refusals that are not read in a snapshot. */
  recordVersion: () => Promise<string>;
  /**
   * This service's signing keys: every request but /healthz, /readyz and
   * /metrics must carry the gateway's signature, its body included
   * (internal-auth.ts). Every entrypoint passes them from required
   * configuration; only in-process tests of a service's handlers leave them out.
   */
  internalAuth?: InternalAuth;
}

/**
 * Options of a service that answers from the Record: ready while Postgres
 * answers (plus any `alsoReady` check), and its refusals name the newest
 * record version.
 */
export function recordServiceOptions(opts: {
  name: string;
  log: Logger;
  metrics: Metrics;
  pool: Pool;
  alsoReady?: () => Promise<void>;
  internalAuth?: InternalAuth | undefined;
}): ServiceAppOptions {
  return {
    name: opts.name,
    log: opts.log,
    metrics: opts.metrics,
    ...(opts.internalAuth ? { internalAuth: opts.internalAuth } : {}),
    readiness: async () => {
      await opts.pool.query('SELECT 1');
      await opts.alsoReady?.();
    },
    recordVersion: () => currentRecordVersion(opts.pool),
  };
}

function header(req: Request, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** Who is asking and in which trace; `spanName` names the request's span (the capability). */
export function callerContext(req: Request, log: Logger, spanName = 'request'): CallerContext {
  const incoming = header(req, headers.requestId);
  const requestId = incoming && requestIdPattern.test(incoming) ? incoming : newRequestId();
  const watchLimit = header(req, headers.watchLimit);
  const keyId = header(req, headers.keyId);
  const pageCap = header(req, headers.pageCap);
  const trace = startSpan(spanName, { parent: extractTraceContext(req.headers), kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } });
  return {
    requestId,
    orgId: header(req, headers.orgId),
    keyId,
    accountId: header(req, headers.accountId),
    planId: header(req, headers.planId),
    watchLimit: watchLimit === null ? null : Number(watchLimit),
    origin: header(req, headers.serviceOrigin),
    pageCap: pageCap !== null && /^[1-9]\d{0,3}$/.test(pageCap) ? Number(pageCap) : null,
    trace,
    log: log.child(keyId ? { request_id: requestId, trace_id: trace.traceId, key_id: keyId } : { request_id: requestId, trace_id: trace.traceId }),
  };
}

/**
 * The one access-log line of a request. Only what identifies and measures
 * it: never a header value, a body or a query string (which could carry a
 * key someone pasted into a URL); the route is the capability's pattern.
 */
export function logRequest(
  log: Logger,
  line: { method: string; route: string; capability: string; status: number; code: string | null; ms: number; origin?: string | null },
): void {
  log.info({ method: line.method, route: line.route, capability: line.capability, status: line.status, code: line.code || null, ms: Math.round(line.ms * 10) / 10, ...(line.origin ? { origin: line.origin } : {}) }, 'request');
}

/** True once the process started shutting down (set by startService): readiness answers 503 from then on. */
export function isDraining(req: Request): boolean {
  return req.app.locals.draining === true;
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
  // Before every route: only the gateway may ask (operational paths excepted).
  if (opts.internalAuth) {
    app.use(requireGatewaySignature(opts.internalAuth, () => opts.metrics.refusals.inc({ code: 'unsigned_request' })));
  }
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: opts.name });
  });
  app.get('/readyz', async (req, res) => {
    if (isDraining(req)) {
      res.status(503).json({ status: 'draining', service: opts.name });
      return;
    }
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
  // The body read must be the one the gateway signed; compressed bodies are not taken (the gateway never sends one),
  // so the bytes checked are the bytes sent.
  app.use(express.json({ limit: MAX_BODY_BYTES, strict: true, type: 'application/json', inflate: false, verify: signedBody }));
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
    // Counted where it failed (the pool); the refusal still goes out, with the unknown version.
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

/** Answers one capability, given the request its row's schemas accepted. */
export type CapabilityHandler<C extends Capability = Capability> = (input: CapabilityInput<C>, ctx: CallerContext) => Promise<CapabilityResult>;

/** The handler of the capability named N. */
export type HandlerOf<N extends CapabilityName> = CapabilityHandler<CapabilityOf<N>>;

/**
 * Every capability a service answers, by name, each with its own typed
 * handler: a service that leaves one out, or names one it does not own, does
 * not compile.
 */
export type ServiceHandlers<S extends ServiceName> = { [N in ServiceCapabilityName<S>]: HandlerOf<N> };

/** Mounts every capability the contract assigns to `service`, each on its handler. */
export function mountServiceCapabilities<S extends ServiceName>(app: express.Express, opts: ServiceAppOptions, service: S, handlers: ServiceHandlers<S>): void {
  const own = capabilityList.filter((cap) => cap.service === service);
  const extra = Object.keys(handlers).filter((name) => !own.some((cap) => cap.name === name));
  if (extra.length > 0) throw new Error(`${service} does not answer ${extra.join(', ')}`);
  for (const cap of own) {
    // The row's own schemas validate the request before the handler sees it, which is what makes this one widening sound.
    const handler = handlers[cap.name as ServiceCapabilityName<S>] as unknown as CapabilityHandler;
    mountCapability(app, opts, cap, handler);
  }
}

/**
 * The app of a service that answers capabilities, wired the one way every
 * such service is: the operational endpoints (ready when Postgres answers),
 * every capability the contract assigns to `service` on its handler, the
 * service's own routes (`mountOwn`, e.g. a readiness detail or a page), and
 * the envelope for anything else.
 */
export function createCapabilityServiceApp<S extends ServiceName>(
  service: S,
  deps: { log: Logger; metrics: Metrics; pool: Pool; internalAuth?: InternalAuth | undefined },
  handlers: ServiceHandlers<S>,
  mountOwn?: (app: express.Express, opts: ServiceAppOptions) => void,
): express.Express {
  const opts = recordServiceOptions({ name: service, ...deps });
  const app = createServiceApp(opts);
  mountServiceCapabilities(app, opts, service, handlers);
  mountOwn?.(app, opts);
  finishServiceApp(app, opts);
  return app;
}

/**
 * Mounts one capability: validates path, query and body with the contract's
 * schemas, runs the handler, and answers with the envelope, the entities
 * header the gateway charges from, and the no-store cache header.
 */
export function mountCapability<C extends Capability>(app: express.Express, opts: ServiceAppOptions, capability: C, handler: CapabilityHandler<C>): void {
  const method = capability.method.toLowerCase() as 'get' | 'post' | 'delete';
  app[method](capability.path, async (req: Request, res: Response) => {
    const started = process.hrtime.bigint();
    const ctx = callerContext(req, opts.log, capability.name);
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
      // The parsed values are exactly what the row's schemas produce: the handler's input type says so.
      const input = { capability: capability.name, params: params.data, query: query.data, body } as CapabilityInput<C>;
      const result = await handler(input, ctx);
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
      ctx.trace.end({ attributes: { 'http.response.status_code': status }, ...(status >= 500 ? { error: code } : {}) });
      logRequest(ctx.log, { method: req.method, route: capability.path, capability: capability.name, status, code, ms: seconds * 1000, origin: ctx.origin });
    }
  });
}

/**
 * Ends the app: unknown paths and body-parser failures become envelopes,
 * never an HTML page or a stack trace.
 */
export function finishServiceApp(app: express.Express, opts: ServiceAppOptions): void {
  const refuseUnrouted = async (req: Request, res: Response, err: unknown) => {
    const started = process.hrtime.bigint();
    const ctx = callerContext(req, opts.log, 'unknown');
    await sendRefusal(res, opts, ctx, 'unknown', err);
    const status = res.statusCode;
    const code = err instanceof Refusal ? err.code : isBodyParserError(err) ? (err.type === 'entity.too.large' ? 'payload_too_large' : 'invalid_request') : 'internal_error';
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    opts.metrics.requests.inc({ capability: 'unknown', status: String(status), code });
    opts.metrics.latency.observe({ capability: 'unknown', status: String(status) }, seconds);
    ctx.trace.end({ attributes: { 'http.response.status_code': status } });
    // The path itself is not logged: outside the gateway's routes it is anything a caller typed.
    logRequest(ctx.log, { method: req.method, route: 'unknown', capability: 'unknown', status, code, ms: seconds * 1000 });
  };
  app.use((req: Request, res: Response) => {
    void refuseUnrouted(req, res, new Refusal('unsupported_capability'));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof BodyDigestMismatch) {
      opts.metrics.refusals.inc({ code: 'unsigned_request' });
      return sendUnsigned(res);
    }
    void refuseUnrouted(req, res, err);
  });
}

