import type { Response } from 'express';
import { CACHE_CONTROL, MCP_PROTOCOL_VERSIONS, errorCatalogue, headers, mcpSiteRefusalMessage } from '@evidence-record/contract';

/**
 * The JSON-RPC error shape of the MCP endpoint (docs/decisions/0600-mcp-jsonrpc-errors.md).
 *
 * Every error is `{"jsonrpc":"2.0","id":…,"error":{"code":<int>,"message":<text>,"data":{"request_id":…,"code":<string>,…}}}`.
 * `error.code` is the JSON-RPC code; `error.data.code` is a stable string
 * to branch on (the REST error code where the same condition exists);
 * `error.message` is human text and may change.
 */
export const rpcCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** MCP's code for resources/read of a URI the server does not have. */
  resourceNotFound: -32002,
  /** Implementation-defined: the HTTP request was refused before any JSON-RPC message was dispatched. */
  refused: -32000,
} as const;

/** Refusals answered before a JSON-RPC message is dispatched: with an HTTP error status and `id: null`. */
export const httpRefusals = {
  parse_error: { status: 400, rpc: rpcCodes.parseError, message: 'Parse error: the body is not valid JSON.' },
  invalid_request: { status: 400, rpc: rpcCodes.invalidRequest, message: 'Invalid Request: the body is not a JSON-RPC 2.0 request, notification or batch.' },
  batch_not_supported: {
    status: 400,
    rpc: rpcCodes.invalidRequest,
    message: 'Invalid Request: MCP 2025-06-18 and later have no JSON-RPC batches; send one message per POST.',
  },
  unsupported_protocol_version: {
    status: 400,
    rpc: rpcCodes.refused,
    message: `Unsupported MCP-Protocol-Version. Supported versions: ${MCP_PROTOCOL_VERSIONS.join(', ')}.`,
  },
  invalid_credentials: { status: 401, rpc: rpcCodes.refused, message: errorCatalogue.invalid_credentials.message },
  host_not_allowed: { status: 403, rpc: rpcCodes.refused, message: mcpSiteRefusalMessage.host_not_allowed },
  origin_not_allowed: { status: 403, rpc: rpcCodes.refused, message: mcpSiteRefusalMessage.origin_not_allowed },
  not_found: { status: 404, rpc: rpcCodes.refused, message: 'Not found: the MCP endpoint is POST /mcp.' },
  method_not_allowed: { status: 405, rpc: rpcCodes.refused, message: 'Method not allowed: the MCP endpoint takes POST only (stateless, no streams, no sessions).' },
  not_acceptable: { status: 406, rpc: rpcCodes.refused, message: 'Not Acceptable: send Accept: application/json, text/event-stream.' },
  payload_too_large: { status: 413, rpc: rpcCodes.refused, message: errorCatalogue.payload_too_large.message },
  unsupported_media_type: { status: 415, rpc: rpcCodes.refused, message: 'Unsupported Media Type: send Content-Type: application/json.' },
  internal_error: { status: 500, rpc: rpcCodes.internalError, message: 'Internal error: the service could not answer. Retry once with backoff; quote the request id.' },
} as const;

export type HttpRefusalCode = keyof typeof httpRefusals;

/** Default `error.data.code` for a JSON-RPC code that carries none (errors the SDK raises itself). */
export const dataCodeOf: Record<number, string> = {
  [rpcCodes.parseError]: 'parse_error',
  [rpcCodes.invalidRequest]: 'invalid_request',
  [rpcCodes.methodNotFound]: 'method_not_found',
  [rpcCodes.invalidParams]: 'invalid_params',
  [rpcCodes.internalError]: 'internal_error',
  [rpcCodes.resourceNotFound]: 'not_found',
};

/** An error a JSON-RPC method handler raises; the SDK turns it into the response's `error`. */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function sendHttpRefusal(
  res: Response,
  refusal: HttpRefusalCode,
  requestId: string,
  extra: { data?: Record<string, unknown>; headers?: Record<string, string> } = {},
): void {
  const { status, rpc, message } = httpRefusals[refusal];
  res
    .status(status)
    .set('Cache-Control', CACHE_CONTROL)
    .set(headers.requestId, requestId)
    .set(extra.headers ?? {})
    .json({ jsonrpc: '2.0', id: null, error: { code: rpc, message, data: { request_id: requestId, code: refusal, ...extra.data } } });
}
