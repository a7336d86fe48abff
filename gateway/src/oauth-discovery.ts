import { type Exchange, finish, type GatewayContext } from './context';
import { sendJson } from './http/io';

/**
 * The paths an OAuth-capable MCP client probes after a 401 (RFC 9728
 * protected-resource metadata, RFC 8414 / OpenID discovery, and the default
 * registration, authorization and token endpoints MCP clients fall back
 * to). This service has no authorization server: API keys are its only
 * scheme (docs/decisions/0604). Each path answers 404 with an OAuth error
 * body (RFC 6749 §5.2 shape), which the SDK client's discovery treats as
 * "not offered" and its registration step reports as a readable error,
 * instead of a REST envelope it cannot parse.
 */
const ENDPOINTS = new Set(['/register', '/authorize', '/token']);

export function isOAuthDiscoveryPath(path: string): boolean {
  return path.startsWith('/.well-known/') || ENDPOINTS.has(path);
}

export const NO_OAUTH_DESCRIPTION =
  'This service has no OAuth authorization server; API keys are its only scheme. Send the key as Authorization: Bearer <key> or X-Service-Key: <key>.';

export function answerOAuthDiscovery(gw: GatewayContext, ex: Exchange): void {
  ex.req.resume();
  ex.status = 404;
  ex.code = 'not_found';
  gw.metrics.base.refusals.inc({ code: 'oauth_not_offered' });
  sendJson(ex.res, 404, { error: 'invalid_request', error_description: NO_OAUTH_DESCRIPTION }, ex.headers);
  finish(gw, ex);
}
