import { headers as h, isServiceOrigin, presentedKey, serviceOriginProblem } from '@evidence-record/contract';
import { TRACEPARENT } from '@evidence-record/platform';
import { authenticate } from './access/admission';
import { refuse, finish, isInternalHeader, type Exchange, type GatewayContext } from './context';
import { readBody, securityHeaders } from './http/io';
import { UpstreamError } from './http/upstream';

/** Upstream MCP response headers that may reach the client (never any Access-Control-*). */
const PASSED_RESPONSE_HEADERS = ['content-type', 'allow', 'mcp-protocol-version', 'www-authenticate', 'retry-after'];

/**
 * `/mcp` passes through to the MCP service with the client's key headers
 * untouched: each tool call comes back into the capability routes with the
 * same key (and `X-Service-Origin: mcp`), and is metered there, once. The
 * gateway meters nothing here, but no request reaches the MCP service
 * without a valid, unsuspended key, so no tool ever runs for a bad key.
 */
export async function serveMcp(gw: GatewayContext, ex: Exchange): Promise<void> {
  let stage: 'keys' | 'request' = 'keys';
  try {
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
      ex.keyId = auth.key.keyId;
      ex.orgId = auth.key.orgId;
      const origin = ex.req.headers[h.serviceOrigin];
      if (origin !== undefined && !isServiceOrigin(origin)) {
        ex.req.resume();
        return refuse(gw, ex, 'invalid_request', { details: { location: 'header', field: h.serviceOrigin, issues: [{ field: h.serviceOrigin, problem: serviceOriginProblem }] } });
      }
    }
    // Protocol traffic is attributed to MCP whatever the header says; attribution never decides access.
    ex.origin = 'mcp';
    stage = 'request';
    const read = await readBody(ex.req);
    if (!read.ok) return refuse(gw, ex, 'payload_too_large', { closeConnection: true });

    const forwarded: Record<string, string> = {};
    for (const [name, value] of Object.entries(ex.req.headers)) {
      if (value === undefined || isInternalHeader(name) || name === h.requestId || name === 'cookie') continue;
      forwarded[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    forwarded[h.requestId] = ex.requestId;
    forwarded[TRACEPARENT] = ex.trace.traceparent;
    let answer;
    try {
      answer = await gw.upstreams.forward(ex.req, ex.res, {
        target: gw.config.upstreams.mcp,
        // The MCP endpoint takes no query; a key pasted into one goes no further.
        path: '/mcp',
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
    gw.metrics.base.dependencyErrors.inc({ dependency: stage === 'keys' ? 'postgres' : 'gateway' });
    gw.log.error({ request_id: ex.requestId, capability: 'mcp', stage, err: err instanceof Error ? err.message : String(err) }, 'request failed');
    refuse(gw, ex, 'internal_error');
  } finally {
    finish(gw, ex);
  }
}
