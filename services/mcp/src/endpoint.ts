import express, { type NextFunction, type Request, type Response } from 'express';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CACHE_CONTROL, MAX_BODY_BYTES, MCP_PROTOCOL_VERSIONS, headers, isJsonContentType, newRequestId, requestIdPattern } from '@evidence-record/contract';
import { SpanKind, extractTraceContext, startSpan, type Logger, type TraceSpan } from '@evidence-record/platform';
import { ExchangeTransport, type MessageLabels } from './exchange-transport';
import type { McpMetrics } from './metrics';
import { buildProtocolServer, type ProtocolDeps } from './protocol-server';
import {
  acceptsStreamableHttp,
  allowedOrigins,
  hostAllowed,
  originAllowed,
  presentedKey,
  protocolVersionAccepted,
  singleHeader,
  type PresentedKey,
} from './request-guards';
import { sendHttpRefusal, type HttpRefusalCode } from './rpc-errors';

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
  /** Method (and tool) of each JSON-RPC message of this POST, for the log line. */
  methods: string[];
}

function requestIdOf(req: Request): string {
  // The gateway's id, so one id follows the request through logs; ours when called directly.
  const incoming = singleHeader(req.headers[headers.requestId]);
  return incoming && requestIdPattern.test(incoming) ? incoming : newRequestId();
}

/**
 * Everything about the HTTP request that can be refused before a
 * JSON-RPC message is read, in this order: Host, Origin, method, key,
 * protocol version, content type, Accept. Null when it refused.
 */
function guard(opts: EndpointOptions): (req: Request, res: Response) => Exchange | null {
  const origins = allowedOrigins(opts.allowedOrigins, opts.allowedHosts);
  return (req, res) => {
    const requestId = requestIdOf(req);
    const started = process.hrtime.bigint();
    const refuse = (code: HttpRefusalCode, extra?: Parameters<typeof sendHttpRefusal>[3]): null => {
      opts.metrics.httpRefusals.inc({ code });
      opts.metrics.base.refusals.inc({ code });
      sendHttpRefusal(res, code, requestId, extra);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      opts.metrics.base.requests.inc({ capability: 'mcp', status: String(res.statusCode), code });
      opts.metrics.base.latency.observe({ capability: 'mcp', status: String(res.statusCode) }, seconds);
      opts.log.info({ request_id: requestId, method: req.method, route: '/mcp', status: res.statusCode, refused: code }, 'mcp request refused');
      return null;
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
    return {
      requestId,
      key,
      log: opts.log.child({ request_id: requestId, trace_id: trace.traceId, key_id: key.keyId }),
      trace,
      started,
      methods: [],
    };
  };
}

/** Body-parser failures become JSON-RPC errors: 413 over the limit, -32700 for anything that is not JSON. */
function bodyErrors(opts: EndpointOptions) {
  return (err: unknown, exchange: Exchange, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
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
 * POST /mcp after the guards: check the JSON-RPC shape, hand the messages
 * to the process's one SDK server through the exchange transport, and
 * answer with one JSON body (never a stream, never a session id), or 202
 * when the POST carries no request.
 */
function serve(opts: EndpointOptions, transport: ExchangeTransport): (req: Request, res: Response, exchange: Exchange) => void {
  return (req, res, exchange) => {
    const body: unknown = req.body;
    const raw = isMessageBatch(body) ? body : [body];
    const messages: JSONRPCMessage[] = [];
    let invalid = raw.length === 0 || raw.length > MAX_BATCH;
    for (let i = 0; i < raw.length && !invalid; i++) {
      const parsed = JSONRPCMessageSchema.safeParse(raw[i]);
      if (parsed.success) messages.push(parsed.data);
      else invalid = true;
    }
    // The SDK's transport refused these two itself; refuse them here in our shape.
    if (invalid || (messages.length > 1 && messages.some((m) => 'method' in m && m.method === 'initialize'))) {
      opts.metrics.httpRefusals.inc({ code: 'invalid_request' });
      return sendHttpRefusal(res, 'invalid_request', exchange.requestId);
    }

    const labels: (MessageLabels | undefined)[] = [];
    const delivered: JSONRPCMessage[] = [];
    for (const message of messages) {
      if (!('method' in message)) {
        // A response from the client: this server sends no requests, so it answers nothing.
        delivered.push(message);
        labels.push(undefined);
        continue;
      }
      const method = opts.metrics.methodLabel(message.method);
      const tool = method === 'tools/call' ? (opts.protocol.catalogue.find(String(message.params?.name))?.name ?? 'unknown') : '';
      exchange.methods.push(tool ? `${method}:${tool}` : method);
      if (!('id' in message)) {
        opts.metrics.messages.inc({ method, tool, outcome: 'notification' });
        // A cancellation can only name a request of this POST or of another, whose answer is on its way
        // or sent: with one server for every HTTP request it could only stop the wrong request (0602).
        if (message.method === 'notifications/cancelled') continue;
      }
      delivered.push(message);
      labels.push({ method, tool });
    }

    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader(headers.requestId, exchange.requestId);
    const pending = transport.dispatch(
      { requestId: exchange.requestId, context: { key: exchange.key, log: exchange.log, traceparent: exchange.trace.traceparent } },
      delivered,
      labels,
    );
    // One listener for both ends of the answer: 'close' follows 'finish', or comes alone when the client went away.
    res.on('close', () => {
      pending?.abandon();
      if (!res.writableFinished) return;
      const seconds = Number(process.hrtime.bigint() - exchange.started) / 1e9;
      const status = String(res.statusCode);
      opts.metrics.httpSeconds.observe({ status }, seconds);
      opts.metrics.base.requests.inc({ capability: 'mcp', status, code: '' });
      opts.metrics.base.latency.observe({ capability: 'mcp', status }, seconds);
      exchange.trace.end({ attributes: { 'http.response.status_code': res.statusCode } });
      exchange.log.info({ route: '/mcp', status: res.statusCode, duration_ms: Math.round(seconds * 1000), methods: exchange.methods }, 'mcp request');
    });
    if (!pending) {
      res.statusCode = 202;
      res.end();
      return;
    }
    void pending.answered.then((answers) => {
      if (res.destroyed) return;
      // One request, alone or among notifications, is answered with one object, as the SDK's transport does.
      const text = JSON.stringify(answers.length === 1 ? answers[0] : answers);
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Content-Length', Buffer.byteLength(text));
      res.end(text);
    });
  };
}

/** Mounts POST /mcp (and its refusals for every other method) on an app, with the process's one MCP server. */
export function mountMcpEndpoint(app: express.Express, opts: EndpointOptions): void {
  const transport = new ExchangeTransport(opts.metrics);
  const server = buildProtocolServer(opts.protocol, (requestId) => transport.callerOf(requestId)?.context);
  server.onerror = (err) => opts.log.debug({ err: err.message }, 'mcp protocol error');
  void server.connect(transport);
  const admit = guard(opts);
  const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true });
  const refuseBody = bodyErrors(opts);
  const answer = serve(opts, transport);
  // One handler for the route: the router dispatches once per request rather than once per step.
  app.all('/mcp', (req, res, next) => {
    const exchange = admit(req, res);
    if (!exchange) return;
    parseJson(req, res, (err?: unknown) => {
      if (err) return refuseBody(err, exchange, res, next);
      try {
        answer(req, res, exchange);
      } catch (failure) {
        next(failure);
      }
    });
  });
}
