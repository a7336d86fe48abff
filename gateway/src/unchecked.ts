import { headers as h, type Capability } from '@evidence-record/contract';
import { TRACEPARENT } from '@evidence-record/platform';
import { finish, isInternalHeader, refuse, type Exchange, type GatewayContext } from './context';
import { readBody, sendBytes } from './http/io';
import { UpstreamError } from './http/upstream';

/**
 * GATEWAY_CHECKS=off, for the benchmark only: the same proxy path (request
 * id, body read, upstream call, answer buffered and delivered) with no key,
 * window, validation, budget or score. It measures what the checks cost.
 */
export async function serveUnchecked(gw: GatewayContext, ex: Exchange, capability: Capability): Promise<void> {
  try {
    const read = await readBody(ex.req);
    if (!read.ok) return refuse(gw, ex, 'payload_too_large', { closeConnection: true });
    const forwarded: Record<string, string> = {};
    for (const [name, value] of Object.entries(ex.req.headers)) {
      if (value === undefined || isInternalHeader(name) || name === h.requestId) continue;
      forwarded[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    forwarded[h.requestId] = ex.requestId;
    forwarded[TRACEPARENT] = ex.trace.traceparent;
    const answer = await gw.upstreams.forward({
      service: capability.service,
      target: gw.config.upstreams[capability.service],
      method: capability.method,
      path: ex.req.url ?? capability.path,
      headers: forwarded,
      body: read.body,
      timeoutMs: gw.config.upstreamTimeoutMs,
    });
    ex.status = answer.status;
    sendBytes(ex.res, answer.status, answer.body, ex.headers);
  } catch (err) {
    if (err instanceof UpstreamError) gw.metrics.upstreamErrors.inc({ service: capability.service, reason: err.reason });
    refuse(gw, ex, 'internal_error');
  } finally {
    finish(gw, ex);
  }
}
