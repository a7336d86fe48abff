import { CACHE_CONTROL, headers as h, isServiceOrigin, mcpSiteRefusal, mcpSiteRefusalMessage, presentedKey, requestIdPattern, serviceOriginProblem, type McpSiteRefusal } from '@evidence-record/contract';
import { TRACEPARENT } from '@evidence-record/platform';
import { authenticate } from './access/admission';
import type { KeyRecord } from './access/key-record';
import { refuse, finish, isInternalHeader, type Exchange, type GatewayContext } from './context';
import { readBody, securityHeaders, sendJson } from './http/io';
import { UpstreamError } from './http/upstream';
import { countProtocolMessages, protocolMessagesIn, protocolRateLimitHeaders } from './limits/protocol-window';

/** Upstream MCP response headers that may reach the client (never any Access-Control-*, never an x-er-* header). */
const PASSED_RESPONSE_HEADERS = ['content-type', 'allow', 'mcp-protocol-version', 'www-authenticate', 'retry-after'];
/** Set by the MCP service on a tools/call answer: the REST call's pacing, which the client gets instead of the protocol window's. */
const REST_PACING_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'] as const;

/** The paths the MCP endpoint answers on: the endpoint, and the same endpoint listing `service_<capability>` tool names (docs/mcp.md). */
export const MCP_PATHS: ReadonlySet<string> = new Set(['/mcp', '/mcp/service-names']);

/**
 * `/mcp` passes through to the MCP service with the client's key headers
 * untouched: each tool call comes back into the capability routes with the
 * same key (and `X-Service-Origin: mcp`), and is metered there, once. Every
 * other JSON-RPC message counts in the key's protocol window here
 * (docs/decisions/0605): no budget, its own limit, the usual headers and
 * 429. No request reaches the MCP service without an allowed Host and Origin
 * and a valid, unsuspended key, so no tool ever runs for a bad key.
 */
export async function serveMcp(gw: GatewayContext, ex: Exchange, path: string): Promise<void> {
  let stage: 'keys' | 'windows' | 'request' = 'keys';
  try {
    // A rebinding page (a Host not ours) or a page of another site (an Origin not ours) is refused before the key
    // is looked at (MCP 2025-11-25: 403 for an invalid Origin), by the rule the MCP service applies too.
    const site = mcpSiteRefusal(ex.req.headers, gw.config.mcpSite);
    if (site) {
      ex.req.resume();
      return refuseSite(gw, ex, site);
    }
    let counted = 0;
    let key: KeyRecord | null = null;
    if (gw.checked) {
      const auth = await authenticate(presentedKey(ex.req.headers), gw.checked.keys, gw.clock());
      if (!auth.ok) {
        ex.req.resume();
        if (auth.code === 'key_suspended') {
          ex.keyId = auth.key.keyId;
          ex.orgId = auth.key.orgId;
        }
        return refuse(gw, ex, auth.code);
      }
      key = auth.key;
      ex.keyId = key.keyId;
      ex.orgId = key.orgId;
      const serviceOrigin = ex.req.headers[h.serviceOrigin];
      if (serviceOrigin !== undefined && !isServiceOrigin(serviceOrigin)) {
        ex.req.resume();
        return refuse(gw, ex, 'invalid_request', { details: { location: 'header', field: h.serviceOrigin, issues: [{ field: h.serviceOrigin, problem: serviceOriginProblem }] } });
      }
    }
    // Protocol traffic is attributed to MCP whatever the header says; attribution never decides access.
    ex.origin = 'mcp';
    stage = 'request';
    const read = await readBody(ex.req);
    if (!read.ok) return refuse(gw, ex, 'payload_too_large', { closeConnection: true });

    if (gw.checked && key) {
      // Only tools/call requests are left out: their REST call meters them. A POST of tool calls alone costs no round trip here.
      const messages = protocolMessagesIn(read.body);
      if (messages > 0) {
        stage = 'windows';
        const window = await countProtocolMessages(gw.checked.redis, gw.config.redisPrefix, key.keyId, key.plan, messages, 'admit');
        ex.addHeaders(protocolRateLimitHeaders(window));
        if (!window.admitted) {
          gw.metrics.rateRefusals.inc({ window: 'mcp_protocol' });
          return refuse(gw, ex, 'rate_limited', { retryAfterSeconds: window.retryAfterSeconds, details: { window: 'minute', meter: 'mcp_protocol' } });
        }
        counted = messages;
      }
    }

    stage = 'request';
    const forwarded: Record<string, string> = {};
    for (const [name, value] of Object.entries(ex.req.headers)) {
      if (value === undefined || isInternalHeader(name) || name === h.requestId || name === 'cookie') continue;
      forwarded[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    forwarded[h.requestId] = ex.requestId;
    forwarded[TRACEPARENT] = ex.trace.traceparent;
    // The refusals the MCP service builds itself (bad tool arguments) carry the same record version as the gateway's.
    if (gw.checked) forwarded[h.recordVersion] = gw.checked.recordVersion.current;
    let answer;
    try {
      answer = await gw.upstreams.forward({
        service: 'mcp',
        target: gw.config.upstreams.mcp,
        method: ex.req.method ?? 'POST',
        // The MCP endpoint takes no query; a key pasted into one goes no further.
        path,
        headers: forwarded,
        body: read.body,
        timeoutMs: gw.config.mcpTimeoutMs,
      });
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      gw.metrics.upstreamErrors.inc({ service: 'mcp', reason: err.reason });
      gw.log.error({ request_id: ex.requestId, service: 'mcp', reason: err.reason, err: err.message }, 'MCP service gave no answer');
      return refuse(gw, ex, 'internal_error');
    }

    // Messages answered without a REST call that were not counted on the way in: tool calls the
    // MCP service answered itself, or a POST of tool calls it refused whole. Counted now, never refused:
    // the answer is already made (docs/decisions/0605).
    const reported = Number(answer.headers[h.mcpUnmetered] ?? 0);
    const unmetered = (Number.isInteger(reported) && reported > 0 ? reported : 0) + (counted === 0 && answer.status >= 400 ? 1 : 0);
    const restPacing = REST_PACING_HEADERS.every((name) => typeof answer.headers[name] === 'string');
    if (gw.checked && key && unmetered > 0) {
      stage = 'windows';
      const window = await countProtocolMessages(gw.checked.redis, gw.config.redisPrefix, key.keyId, key.plan, unmetered, 'add');
      ex.addHeaders(protocolRateLimitHeaders(window));
    }
    if (restPacing) {
      // A tools/call answer: the client sees the pacing of the REST call it made, as a REST client would.
      ex.addHeaders({
        'RateLimit-Limit': String(answer.headers['ratelimit-limit']),
        'RateLimit-Remaining': String(answer.headers['ratelimit-remaining']),
        'RateLimit-Reset': String(answer.headers['ratelimit-reset']),
        'RateLimit-Policy': String(answer.headers['ratelimit-policy']),
      });
    }
    // One id to quote: when the POST's one request was a tools/call, the MCP service answers with its REST call's id (the envelope's).
    const upstreamId = answer.headers[h.requestId];
    if (typeof upstreamId === 'string' && requestIdPattern.test(upstreamId)) ex.addHeaders({ 'X-Request-Id': upstreamId });

    ex.status = answer.status;
    if (ex.res.headersSent || ex.res.destroyed) return;
    ex.res.statusCode = answer.status;
    for (const name of PASSED_RESPONSE_HEADERS) {
      const v = answer.headers[name];
      if (v !== undefined) ex.res.setHeader(name, v);
    }
    for (const [name, value] of Object.entries({ ...securityHeaders, ...ex.headers })) ex.res.setHeader(name, value);
    ex.res.setHeader('Content-Length', answer.body.length);
    ex.res.end(answer.body);
  } catch (err) {
    gw.metrics.base.dependencyErrors.inc({ dependency: stage === 'keys' ? 'postgres' : stage === 'windows' ? 'redis' : 'gateway' });
    gw.log.error({ request_id: ex.requestId, capability: 'mcp', stage, err: err instanceof Error ? err.message : String(err) }, 'request failed');
    refuse(gw, ex, 'internal_error');
  } finally {
    finish(gw, ex);
  }
}

/** The MCP service's own refusal for a request from elsewhere (docs/decisions/0600, 0602), given before the key is read. */
function refuseSite(gw: GatewayContext, ex: Exchange, code: McpSiteRefusal): void {
  ex.status = 403;
  ex.code = code;
  gw.metrics.base.refusals.inc({ code });
  sendJson(ex.res, 403, { jsonrpc: '2.0', id: null, error: { code: -32000, message: mcpSiteRefusalMessage[code], data: { request_id: ex.requestId, code } } }, { ...ex.headers, 'Cache-Control': CACHE_CONTROL });
}
