import express, { type NextFunction, type Request, type Response } from 'express';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CACHE_CONTROL, MAX_BODY_BYTES, MCP_PROTOCOL_VERSIONS, headers, isJsonContentType, mcpSiteRefusal, newRequestId, requestIdPattern, type McpSitePolicy } from '@evidence-record/contract';
import { BodyDigestMismatch, SpanKind, extractTraceContext, sendUnsigned, signedBody, startSpan, type Logger, type TraceSpan } from '@evidence-record/platform';
import { ExchangeTransport, type MessageLabels } from './exchange-transport';
import type { RestAnswer } from './gateway-client';
import type { ToolCallContext, ToolMeter } from './methods/tools-call';
import type { McpMetrics } from './metrics';
import { buildProtocolServer, type ProtocolDeps } from './protocol-server';
import { acceptsStreamableHttp, presentedKey, protocolVersionAccepted, singleHeader, type PresentedKey } from './request-guards';
import { sendHttpRefusal, type HttpRefusalCode } from './rpc-errors';
import type { ToolNaming } from './tools';

/** The SDK's batch limit. */
const MAX_BATCH = 100;

export interface EndpointOptions {
  /** Where /mcp may be called from: the contract's rule, the gateway's too (decision 0602). */
  site: McpSitePolicy;
  log: Logger;
  /** One line per POST (main.ts: platform `createAccessLogger`, written in batches); when absent, `log` takes them as they happen (the tests'). */
  accessLog?: Logger;
  metrics: McpMetrics;
  protocol: ProtocolDeps;
}

interface Exchange {
  requestId: string;
  /** Under which version the client sent this POST (the header; absent: 2025-03-26, as MCP says). */
  protocolVersion: string;
  /** The gateway's record version for the refusals built here; the contract's placeholder when called directly. */
  recordVersion: string;
  toolNames: ToolNaming;
  key: PresentedKey;
  log: Logger;
  /** The gateway's trace, continued into every REST call a tool makes. */
  trace: TraceSpan;
  started: bigint;
  /** Method (and tool) of each JSON-RPC message of this POST, for the log line. */
  methods: string[];
}

/** MCP 2025-06-18 removed JSON-RPC batching; a POST under it or a later version carries one message. */
const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';
/** MCP's rule for a request without the header: assume 2025-03-26. */
const VERSION_WITHOUT_HEADER = '2025-03-26';
const NO_RECORD_VERSION = 'rv_00000000';
const recordVersionShape = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The opt-in listing of `service_<capability>` names: a header, or the path /mcp/service-names (docs/mcp.md). */
export const SERVICE_NAMES_PATH = '/mcp/service-names';
export const TOOL_NAMES_HEADER = 'x-mcp-tool-names';

function toolNamesOf(req: Request): ToolNaming {
  return req.path === SERVICE_NAMES_PATH || singleHeader(req.headers[TOOL_NAMES_HEADER])?.trim().toLowerCase() === 'service' ? 'service' : 'contract';
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
    const site = mcpSiteRefusal(req.headers, opts.site);
    if (site) return refuse(site);
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
    const recordVersion = singleHeader(req.headers[headers.recordVersion]);
    return {
      requestId,
      protocolVersion: version?.trim() ?? VERSION_WITHOUT_HEADER,
      recordVersion: recordVersion && recordVersionShape.test(recordVersion) ? recordVersion : NO_RECORD_VERSION,
      toolNames: toolNamesOf(req),
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
    if (err instanceof BodyDigestMismatch) {
      opts.metrics.base.refusals.inc({ code: 'unsigned_request' });
      return sendUnsigned(res);
    }
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
    const batch = isMessageBatch(body);
    if (batch && exchange.protocolVersion >= FIRST_VERSION_WITHOUT_BATCHES) {
      opts.metrics.httpRefusals.inc({ code: 'batch_not_supported' });
      return sendHttpRefusal(res, 'batch_not_supported', exchange.requestId, { data: { protocol_version: exchange.protocolVersion } });
    }
    const raw = batch ? body : [body];
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
    const meter: ToolMeter = { restAnswers: [] };
    const toolCalls = delivered.filter((m) => 'id' in m && 'method' in m && m.method === 'tools/call').length;
    const context: ToolCallContext = {
      key: exchange.key,
      log: exchange.log,
      traceparent: exchange.trace.traceparent,
      requestId: exchange.requestId,
      recordVersion: exchange.recordVersion,
      toolNames: exchange.toolNames,
      meter,
    };
    const pending = transport.dispatch({ requestId: exchange.requestId, context }, delivered, labels);
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
      (opts.accessLog ?? opts.log).info(
        { request_id: exchange.requestId, trace_id: exchange.trace.traceId, key_id: exchange.key.keyId, route: '/mcp', status: res.statusCode, duration_ms: Math.round(seconds * 1000), methods: exchange.methods },
        'mcp request',
      );
    });
    if (!pending) {
      res.statusCode = 202;
      res.end();
      return;
    }
    void pending.answered.then((answers) => {
      if (res.destroyed) return;
      setMeterHeaders(res, meter, toolCalls, answers.length);
      // A batch (only under versions before 2025-06-18) is answered with an array, whatever it held; one message with one object.
      const text = JSON.stringify(batch ? answers : answers[0]);
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Content-Length', Buffer.byteLength(text));
      res.end(text);
    });
  };
}

/**
 * What the tool calls of this POST made of REST, for the gateway and the
 * client (docs/decisions/0605): the RateLimit-* headers of the REST call
 * (the one closest to exhaustion, if several), its X-Request-Id when the
 * POST's one request made it (so the HTTP id is the envelope's), and how
 * many tool calls made no REST call, which the gateway counts in the
 * protocol window and never passes on.
 */
function setMeterHeaders(res: Response, meter: ToolMeter, toolCalls: number, requests: number): void {
  const unmetered = toolCalls - meter.restAnswers.length;
  if (unmetered > 0) res.setHeader(headers.mcpUnmetered, String(unmetered));
  let reported: RestAnswer | undefined;
  for (const answer of meter.restAnswers) {
    if (answer.rateLimit.remaining === null) continue;
    if (!reported || Number(answer.rateLimit.remaining) < Number(reported.rateLimit.remaining)) reported = answer;
  }
  if (reported) {
    const { limit, remaining, reset, policy } = reported.rateLimit;
    if (limit !== null) res.setHeader('RateLimit-Limit', limit);
    if (remaining !== null) res.setHeader('RateLimit-Remaining', remaining);
    if (reset !== null) res.setHeader('RateLimit-Reset', reset);
    if (policy !== null) res.setHeader('RateLimit-Policy', policy);
  }
  const only = meter.restAnswers[0];
  if (requests === 1 && meter.restAnswers.length === 1 && only?.requestId && requestIdPattern.test(only.requestId)) {
    res.setHeader(headers.requestId, only.requestId);
  }
}

/** Mounts POST /mcp (and its refusals for every other method) on an app, with the process's one MCP server. */
export function mountMcpEndpoint(app: express.Express, opts: EndpointOptions): void {
  const transport = new ExchangeTransport(opts.metrics);
  const server = buildProtocolServer(opts.protocol, (requestId) => transport.callerOf(requestId)?.context);
  server.onerror = (err) => opts.log.debug({ err: err.message }, 'mcp protocol error');
  void server.connect(transport);
  const admit = guard(opts);
  // The body read must be the one the gateway signed (decision 0313); compressed bodies are not taken, so the bytes
  // checked are the bytes sent.
  const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true, inflate: false, verify: signedBody });
  const refuseBody = bodyErrors(opts);
  const answer = serve(opts, transport);
  // One handler for the route: the router dispatches once per request rather than once per step.
  app.all(['/mcp', SERVICE_NAMES_PATH], (req, res, next) => {
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
