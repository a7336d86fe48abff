import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildRefusal } from '@evidence-record/contract';
import type { Logger } from '@evidence-record/platform';
import { toRestRequest } from '../arguments';
import { GatewayUnavailable, type GatewayClient, type RestAnswer } from '../gateway-client';
import type { McpMetrics } from '../metrics';
import type { PresentedKey } from '../request-guards';
import { RpcError, rpcCodes } from '../rpc-errors';
import type { ToolCatalogue, ToolNaming } from '../tools';

export interface ToolCallContext {
  key: PresentedKey;
  log: Logger;
  /** The MCP request's trace context, carried into the REST call. */
  traceparent?: string;
  /** The HTTP request's id (the gateway's X-Request-Id): the refusals built here carry it. */
  requestId: string;
  /** The record version the gateway reported with the request, for the refusals built here. */
  recordVersion: string;
  /** Which names tools/list gives this request. */
  toolNames: ToolNaming;
  /** What this HTTP request's tool calls made of REST, filled in as they are answered (docs/decisions/0605). */
  meter: ToolMeter;
}

export interface ToolMeter {
  /**
   * The REST answers of the tool calls that made a REST call (metered there).
   * Every other tool call of the HTTP request (unknown tool, bad arguments,
   * malformed params, gateway unreachable) is reported to the gateway as
   * unmetered, and counted in the key's protocol window.
   */
  restAnswers: RestAnswer[];
}

export interface ToolCallDeps {
  catalogue: ToolCatalogue;
  gateway: GatewayClient;
  metrics: McpMetrics;
}

/**
 * tools/call: find the tool, validate its arguments with the capability's
 * own schemas, make the REST call through the gateway with the caller's
 * key, and hand back the REST answer unchanged: the envelope as
 * structuredContent and the same JSON text as content. A refusal is a tool
 * result with isError, carrying the REST error envelope and its pacing
 * headers, so a model reads the same error.code a REST client would.
 *
 * Arguments that fail validation are refused here, before any REST call, as
 * a tool result too (MCP 2025-11-25, SEP-1303: input errors are tool
 * execution errors the model can correct), with the envelope the gateway
 * sends for the same REST request: invalid_request naming the field.
 * Only an unknown tool (and malformed JSON-RPC) stays a protocol error.
 */
export async function callTool(params: CallToolRequest['params'], ctx: ToolCallContext, deps: ToolCallDeps): Promise<CallToolResult> {
  const tool = deps.catalogue.find(params.name);
  if (!tool) {
    throw new RpcError(rpcCodes.invalidParams, `Unknown tool "${params.name}": tools/list names the available tools.`, {
      code: 'unsupported_capability',
      tool: params.name,
    });
  }
  if (params.name !== tool.name) ctx.log.debug({ tool: tool.name, called_as: params.name }, 'legacy tool name');

  const checked = toRestRequest(tool, params.arguments ?? {});
  if (!checked.ok) {
    const { body } = buildRefusal({
      request_id: ctx.requestId,
      capability: tool.capability.name,
      code: 'invalid_request',
      details: { ...checked.problem },
      record_version: ctx.recordVersion,
    });
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as unknown as Record<string, unknown>, isError: true };
  }

  const started = process.hrtime.bigint();
  let answer: RestAnswer;
  try {
    answer = await deps.gateway.call(checked.request, ctx.key.headers, ctx.traceparent);
  } catch (err) {
    deps.metrics.base.dependencyErrors.inc({ dependency: 'gateway' });
    ctx.log.error({ tool: tool.name, err: err instanceof GatewayUnavailable ? err.message : String(err) }, 'gateway unreachable');
    throw internalError(tool.name, 'The Record could not be reached. Retry once with backoff.');
  } finally {
    deps.metrics.restCallSeconds.observe({ tool: tool.name }, Number(process.hrtime.bigint() - started) / 1e9);
  }
  ctx.meter.restAnswers.push(answer);

  const envelope = parseObject(answer.text);
  if (!envelope) {
    ctx.log.error({ tool: tool.name, http_status: answer.status, content_type: answer.contentType }, 'gateway answered without a JSON envelope');
    throw internalError(tool.name, 'The service could not answer. Retry once with backoff.');
  }
  const result: CallToolResult = {
    content: [{ type: 'text', text: answer.text }],
    structuredContent: envelope,
    _meta: pacing(answer),
  };
  if (answer.status === 200) return result;
  if (!isRefusal(envelope)) {
    ctx.log.error({ tool: tool.name, http_status: answer.status }, 'gateway refused without an error envelope');
    throw internalError(tool.name, 'The service could not answer. Retry once with backoff.');
  }
  const wait = answer.status === 429 ? integer(answer.retryAfter) : null;
  if (typeof wait === 'number') {
    // What the model reads says how long to wait, beside the envelope: a wait only in _meta is one many hosts never show it.
    const paced = { ...envelope, retry_after_seconds: wait };
    return { ...result, content: [{ type: 'text', text: JSON.stringify(paced) }], structuredContent: paced, isError: true };
  }
  return { ...result, isError: true };
}

function internalError(tool: string, message: string): RpcError {
  return new RpcError(rpcCodes.internalError, message, { code: 'internal_error', tool });
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function isRefusal(envelope: Record<string, unknown>): boolean {
  const error = envelope.error as { code?: unknown } | undefined;
  return envelope.status === 'refused' && typeof error === 'object' && error !== null && typeof error.code === 'string';
}

const integer = (value: string | null): number | string | null => (value !== null && /^\d+$/.test(value.trim()) ? Number(value) : value);

/**
 * The REST answer's HTTP status and pacing headers, which a tool result
 * has no other place for: `_meta.http_status`, `_meta.retry_after`
 * (seconds, on 429s) and `_meta.ratelimit` {limit, remaining, reset, policy}.
 */
function pacing(answer: RestAnswer): Record<string, unknown> {
  const meta: Record<string, unknown> = { http_status: answer.status };
  if (answer.retryAfter !== null) meta.retry_after = integer(answer.retryAfter);
  const { limit, remaining, reset, policy } = answer.rateLimit;
  if (limit !== null || remaining !== null || reset !== null || policy !== null) {
    meta.ratelimit = { limit: integer(limit), remaining: integer(remaining), reset: integer(reset), policy };
  }
  return meta;
}
