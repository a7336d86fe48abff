import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema, isJSONRPCErrorResponse, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { CACHE_CONTROL, MCP_PROTOCOL_VERSIONS, headers, newRequestId, requestIdPattern } from '@evidence-record/contract';
import { SpanKind, extractTraceContext, startSpan, type Logger, type TraceSpan } from '@evidence-record/platform';
import type { McpMetrics } from './metrics';
import { buildProtocolServer, type ProtocolDeps } from './protocol-server';
import {
  acceptsStreamableHttp,
  allowedOrigins,
  hostAllowed,
  isJsonContentType,
  originAllowed,
  presentedKey,
  protocolVersionAccepted,
  singleHeader,
  type PresentedKey,
} from './request-guards';
import { dataCodeOf, sendHttpRefusal, type HttpRefusalCode } from './rpc-errors';

/** The spec's body limit, the same as REST. */
export const MAX_BODY_BYTES = 8192;
/** The SDK's batch limit. */
const MAX_BATCH = 100;

export interface EndpointOptions {
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  log: Logger;
  metrics: McpMetrics;
  protocol: ProtocolDeps;
}

interface Exchange {
  requestId: string;
  key: PresentedKey;
  log: Logger;
  /** The gateway's trace, continued into every REST call a tool makes. */
  trace: TraceSpan;
  started: bigint;
  /** JSON-RPC requests of this POST, by id: what to label their answers with. */
  pending: Map<RequestId, { method: string; tool: string }>;
}

function exchangeOf(res: Response): Exchange {
  return res.locals.exchange as Exchange;
}

function requestIdOf(req: Request): string {
  // The gateway's id, so one id follows the request through logs; ours when called directly.
  const incoming = singleHeader(req.headers[headers.requestId]);
  return incoming && requestIdPattern.test(incoming) ? incoming : newRequestId();
}

/**
 * A transport that sees every answer it sends: it counts outcomes and
 * makes every JSON-RPC error carry `data.request_id` and `data.code`, also
 * for the errors the SDK raises itself (method not found, malformed params).
 */
class ObservedTransport extends StreamableHTTPServerTransport {
  constructor(
    private readonly exchange: Exchange,
    private readonly metrics: McpMetrics,
  ) {
    super({ sessionIdGenerator: undefined, enableJsonResponse: true });
  }

  override async send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    if (isJSONRPCErrorResponse(message)) {
      const data = typeof message.error.data === 'object' && message.error.data !== null ? (message.error.data as Record<string, unknown>) : {};
      message = {
        ...message,
        error: {
          code: message.error.code,
          // The SDK prefixes its own errors with "MCP error <code>: ", which says nothing the code does not.
          message: message.error.message.replace(/^MCP error -?\d+: /, ''),
          data: { request_id: this.exchange.requestId, code: dataCodeOf[message.error.code] ?? 'error', ...data },
        },
      };
      this.count(message.id, String((message.error.data as { code: unknown }).code));
    } else if (isJSONRPCResultResponse(message)) {
      this.count(message.id, (message.result as { isError?: unknown }).isError === true ? 'tool_error' : 'ok');
    }
    return super.send(message, options);
  }

  private count(id: RequestId | undefined, outcome: string): void {
    const labels = id === undefined ? undefined : this.exchange.pending.get(id);
    if (!labels) return;
    this.metrics.messages.inc({ ...labels, outcome });
  }
}

/**
 * Everything about the HTTP request that can be refused before a
 * JSON-RPC message is read, in this order: Host, Origin, method, key,
 * protocol version, content type, Accept.
 */
function guard(opts: EndpointOptions): RequestHandler {
  const origins = allowedOrigins(opts.allowedOrigins, opts.allowedHosts);
  return (req, res, next) => {
    const requestId = requestIdOf(req);
    const started = process.hrtime.bigint();
    const refuse = (code: HttpRefusalCode, extra?: Parameters<typeof sendHttpRefusal>[3]) => {
      opts.metrics.httpRefusals.inc({ code });
      opts.metrics.base.refusals.inc({ code });
      sendHttpRefusal(res, code, requestId, extra);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      opts.metrics.base.requests.inc({ capability: 'mcp', status: String(res.statusCode), code });
      opts.metrics.base.latency.observe({ capability: 'mcp', status: String(res.statusCode) }, seconds);
      opts.log.info({ request_id: requestId, method: req.method, route: '/mcp', status: res.statusCode, refused: code }, 'mcp request refused');
    };
    if (!hostAllowed(singleHeader(req.headers.host), opts.allowedHosts)) return refuse('host_not_allowed');
    if (!originAllowed(singleHeader(req.headers.origin), origins)) return refuse('origin_not_allowed');
    if (req.method !== 'POST') return refuse('method_not_allowed', { headers: { Allow: 'POST' } });
    const key = presentedKey(req.headers);
    if (!key) return refuse('invalid_credentials', { headers: { 'WWW-Authenticate': 'Bearer realm="evidence-record"' } });
    const version = singleHeader(req.headers['mcp-protocol-version']);
    if (!protocolVersionAccepted(version)) {
      return refuse('unsupported_protocol_version', { data: { requested: version, supported_versions: [...MCP_PROTOCOL_VERSIONS] } });
    }
    if (!isJsonContentType(singleHeader(req.headers['content-type']))) return refuse('unsupported_media_type');
    if (!acceptsStreamableHttp(singleHeader(req.headers.accept))) return refuse('not_acceptable');
    const trace = startSpan('mcp', { parent: extractTraceContext(req.headers), kind: SpanKind.SERVER });
    res.locals.exchange = {
      requestId,
      key,
      log: opts.log.child({ request_id: requestId, trace_id: trace.traceId, key_id: key.keyId }),
      trace,
      started,
      pending: new Map(),
    } satisfies Exchange;
    next();
  };
}

/** Body-parser failures become JSON-RPC errors: 413 over the limit, -32700 for anything that is not JSON. */
function bodyErrors(opts: EndpointOptions) {
  return (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const exchange = res.locals.exchange as Exchange | undefined;
    if (!exchange || res.headersSent) return next(err);
    const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
    const code: HttpRefusalCode = type === 'entity.too.large' ? 'payload_too_large' : type === 'charset.unsupported' || type === 'encoding.unsupported' ? 'unsupported_media_type' : 'parse_error';
    opts.metrics.httpRefusals.inc({ code });
    sendHttpRefusal(res, code, exchange.requestId);
  };
}

function isMessageBatch(body: unknown): body is unknown[] {
  return Array.isArray(body);
}

/**
 * POST /mcp after the guards: check the JSON-RPC shape, then let a fresh
 * SDK server and stateless transport answer with one JSON body (never a
 * stream, never a session id).
 */
function serve(opts: EndpointOptions): RequestHandler {
  return async (req, res) => {
    const exchange = exchangeOf(res);
    const body: unknown = req.body;
    const messages = isMessageBatch(body) ? body : [body];
    const parsed = messages.map((m) => JSONRPCMessageSchema.safeParse(m));
    // The SDK refuses these two itself, in a shape without request_id; refuse them here in ours.
    const initializeInBatch = messages.length > 1 && parsed.some((p) => (p.data as { method?: unknown } | undefined)?.method === 'initialize');
    if (messages.length === 0 || messages.length > MAX_BATCH || initializeInBatch || parsed.some((p) => !p.success)) {
      opts.metrics.httpRefusals.inc({ code: 'invalid_request' });
      return sendHttpRefusal(res, 'invalid_request', exchange.requestId);
    }
    for (const p of parsed) {
      const message = p.data as { id?: RequestId; method?: string; params?: { name?: unknown } };
      if (message.method === undefined) continue;
      const method = opts.metrics.methodLabel(message.method);
      const tool = method === 'tools/call' ? (opts.protocol.catalogue.find(String(message.params?.name))?.name ?? 'unknown') : '';
      if (message.id === undefined) opts.metrics.messages.inc({ method, tool, outcome: 'notification' });
      else exchange.pending.set(message.id, { method, tool });
    }

    const server = buildProtocolServer({ key: exchange.key, log: exchange.log, traceparent: exchange.trace.traceparent }, opts.protocol);
    const transport = new ObservedTransport(exchange, opts.metrics);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader(headers.requestId, exchange.requestId);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - exchange.started) / 1e9;
      const status = String(res.statusCode);
      opts.metrics.httpSeconds.observe({ status }, seconds);
      opts.metrics.base.requests.inc({ capability: 'mcp', status, code: '' });
      opts.metrics.base.latency.observe({ capability: 'mcp', status }, seconds);
      exchange.trace.end({ attributes: { 'http.response.status_code': res.statusCode } });
      exchange.log.info(
        { route: '/mcp', status: res.statusCode, duration_ms: Math.round(seconds * 1000), methods: [...exchange.pending.values()].map((p) => (p.tool ? `${p.method}:${p.tool}` : p.method)) },
        'mcp request',
      );
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      exchange.log.error({ err: err instanceof Error ? err.message : String(err) }, 'mcp request failed');
      if (!res.headersSent) sendHttpRefusal(res, 'internal_error', exchange.requestId);
    }
  };
}

/** Mounts POST /mcp (and its refusals for every other method) on an app. */
export function mountMcpEndpoint(app: express.Express, opts: EndpointOptions): void {
  const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true });
  app.all('/mcp', guard(opts), parseJson, serve(opts), bodyErrors(opts));
}
