import type { IncomingMessage, ServerResponse } from 'node:http';
import { CACHE_CONTROL, buildRefusal, headers as h, internalHeaderPrefix, newRequestId, type ErrorCode } from '@evidence-record/contract';
import { SpanKind, extractTraceContext, startSpan, type Logger, type Metrics, type Pool, type RedisClient, type TraceSpan } from '@evidence-record/platform';
import type { Counter } from 'prom-client';
import type { GatewayConfig } from './config';
import type { KeyCache } from './access/key-cache';
import type { GatewayScripts } from './limits/scripts';
import type { SettledToday } from './limits/settled-today';
import type { RecordVersionWatch } from './record-version';
import type { RouteTable } from './routes';
import type { ExtractionEnforcer } from './scoring/enforce';
import type { ScoringPolicy } from '@evidence-record/access';
import type { Upstreams } from './http/upstream';
import type { UsageLog } from './usage/usage-log';
import { sendHtml, sendJson, securityHeaders } from './http/io';
import { wwwAuthenticate } from './access/challenge';

export interface GatewayMetrics {
  base: Metrics;
  budgetSpent: Counter<'kind'>;
  budgetRefusals: Counter<'kind'>;
  rateRefusals: Counter<'window'>;
  upstreamErrors: Counter<'service' | 'reason'>;
  extraction: Counter<'action'>;
  settlements: Counter<'path'>;
  /** The request counter and latency histogram of one capability, status and code, bound once (their labels are hashed once, not per request). */
  series: (capability: string, status: number, code: string | null) => RequestSeries;
}

interface RequestSeries {
  requests: { inc: () => void };
  latency: { observe: (seconds: number) => void };
}

export function gatewayMetrics(metrics: Metrics): GatewayMetrics {
  const bound = new Map<string, RequestSeries>();
  return {
    base: metrics,
    series: (capability, status, code) => {
      const id = `${capability} ${status} ${code ?? ''}`;
      let s = bound.get(id);
      if (!s) {
        s = {
          requests: metrics.requests.labels({ capability, status: String(status), code: code ?? '' }),
          latency: metrics.latency.labels({ capability, status: String(status) }),
        };
        bound.set(id, s);
      }
      return s;
    },
    budgetSpent: metrics.counter('er_gateway_budget_spent_total', 'Daily budget units charged, by cost kind', ['kind']),
    budgetRefusals: metrics.counter('er_gateway_budget_refusals_total', 'Answers withheld because the daily budget was spent, by cost kind', ['kind']),
    rateRefusals: metrics.counter('er_gateway_rate_refusals_total', 'Requests refused by a rate window, by the window reported', ['window']),
    upstreamErrors: metrics.counter('er_gateway_upstream_errors_total', 'Upstream calls that gave no usable answer, by service and reason', ['service', 'reason']),
    extraction: metrics.counter('er_gateway_extraction_actions_total', 'Extraction scoring actions (cool_down, suspend, refused_cooling)', ['action']),
    settlements: metrics.counter('er_gateway_settlements_total', 'Answers settled after the upstream: in Redis, or as a repeat this replica knows changes nothing', ['path']),
  };
}

/** Everything a request handler needs; built once by createGateway. */
export interface GatewayContext {
  config: GatewayConfig;
  log: Logger;
  /** One line per request (platform `createAccessLogger`: written in batches). */
  accessLog: Logger;
  metrics: GatewayMetrics;
  routes: RouteTable;
  upstreams: Upstreams;
  clock: () => number;
  /** Absent when checks are off (benchmark only). */
  checked: {
    keys: KeyCache;
    redis: RedisClient & GatewayScripts;
    pool: Pool;
    recordVersion: RecordVersionWatch;
    usage: UsageLog;
    enforcer: ExtractionEnforcer;
    policy: ScoringPolicy;
    settled: SettledToday;
  } | null;
}

/**
 * One request through the gateway: its id, who asked, and how it ended. It
 * is what the usage row, the metrics and the access log are made from.
 */
export class Exchange {
  readonly requestId = newRequestId();
  readonly started = process.hrtime.bigint();
  keyId: string | null = null;
  orgId: string | null = null;
  origin = 'api';
  status = 0;
  code: string | null = null;
  charged = 0;
  /** Headers every answer and refusal of this request carries. */
  readonly headers: Record<string, string>;
  /** Continues the client's traceparent, or starts the trace; its traceparent goes upstream. */
  readonly trace: TraceSpan;

  constructor(
    public capability: string,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    this.headers = { ...securityHeaders, 'X-Request-Id': this.requestId, 'Cache-Control': CACHE_CONTROL };
    this.trace = startSpan(capability, { parent: extractTraceContext(req.headers), kind: SpanKind.SERVER });
  }

  addHeaders(extra: Record<string, string>): void {
    Object.assign(this.headers, extra);
  }

  latencyMs(): number {
    return Number(process.hrtime.bigint() - this.started) / 1e6;
  }
}

/** The gateway's own refusals: the contract's envelope, this request's id, the current record version. */
export function refuse(
  gw: GatewayContext,
  ex: Exchange,
  code: ErrorCode,
  opts: {
    details?: Record<string, unknown>;
    retryAfterSeconds?: number;
    message?: string;
    closeConnection?: boolean;
    /** A page for a person instead of the envelope (same status and headers; these headers over them). */
    page?: { html: string; headers: Record<string, string> };
  } = {},
): void {
  const { status, body } = buildRefusal({
    request_id: ex.requestId,
    capability: ex.capability,
    code,
    ...(opts.message ? { message: opts.message } : {}),
    ...(opts.details ? { details: opts.details } : {}),
    record_version: gw.checked?.recordVersion.current ?? 'rv_00000000',
  });
  const extra: Record<string, string> = {};
  if (opts.retryAfterSeconds !== undefined) extra['Retry-After'] = String(opts.retryAfterSeconds);
  if (opts.closeConnection) extra.Connection = 'close';
  if (code === 'invalid_credentials') extra['WWW-Authenticate'] = wwwAuthenticate(ex.req.headers);
  ex.status = status;
  ex.code = code;
  gw.metrics.base.refusals.inc({ code });
  if (opts.page) return sendHtml(ex.res, status, opts.page.html, { ...ex.headers, ...extra, ...opts.page.headers });
  sendJson(ex.res, status, body, { ...ex.headers, ...extra });
}

/** Request headers a client may never set: the gateway's internal identity headers and the entities header. */
export function isInternalHeader(name: string): boolean {
  return name.startsWith(internalHeaderPrefix) || name === h.budgetEntities;
}

/** Records the request's usage, metrics and access log line. */
export function finish(gw: GatewayContext, ex: Exchange): void {
  const latencyMs = ex.latencyMs();
  const series = gw.metrics.series(ex.capability, ex.status, ex.code);
  series.requests.inc();
  series.latency.observe(latencyMs / 1000);
  gw.checked?.usage.record({
    at: new Date(),
    requestId: ex.requestId,
    keyId: ex.keyId,
    orgId: ex.orgId,
    capability: ex.capability,
    origin: ex.origin,
    httpStatus: ex.status,
    errorCode: ex.code,
    entitiesCharged: ex.charged,
    latencyMs,
  });
  ex.trace.end({ attributes: { 'er.capability': ex.capability, 'http.response.status_code': ex.status }, ...(ex.status >= 500 ? { error: ex.code } : {}) });
  gw.accessLog.info(
    {
      request_id: ex.requestId,
      trace_id: ex.trace.traceId,
      key_id: ex.keyId,
      method: ex.req.method,
      capability: ex.capability,
      status: ex.status,
      code: ex.code,
      charged: ex.charged,
      ms: Math.round(latencyMs * 10) / 10,
    },
    'request',
  );
}
