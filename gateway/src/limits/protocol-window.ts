import type { RedisClient } from '@evidence-record/platform';
import type { PlanLimits } from '../access/key-record';
import { protocolWindowKey } from '../keyspace';
import type { GatewayScripts } from './scripts';

/**
 * The per-key protocol window of `/mcp` (docs/decisions/0605): every
 * JSON-RPC message that is not metered by a REST call (initialize, ping,
 * tools/list, the other lists, notifications, and tool calls answered
 * without a REST call) counts one in it. It spends no budget.
 */

/** Protocol messages per minute: twice the plan's REST minute window (free: 60), so a client's handshake and listings never compete with its tool calls. */
export const PROTOCOL_MESSAGES_PER_REST_CALL = 2;

export function protocolLimit(plan: PlanLimits): number {
  return plan.windows.minute * PROTOCOL_MESSAGES_PER_REST_CALL;
}

export interface ProtocolDecision {
  admitted: boolean;
  limit: number;
  count: number;
  resetMs: number;
  /** Seconds until the window reopens (at least 1). */
  retryAfterSeconds: number;
}

export async function countProtocolMessages(
  redis: RedisClient & GatewayScripts,
  prefix: string,
  keyId: string,
  plan: PlanLimits,
  messages: number,
  mode: 'admit' | 'add',
): Promise<ProtocolDecision> {
  const limit = protocolLimit(plan);
  const [admitted, count, resetMs] = await redis.erProtocolWindow(protocolWindowKey(prefix, keyId), limit, messages, mode);
  return { admitted: Number(admitted) === 1, limit, count: Number(count), resetMs: Number(resetMs), retryAfterSeconds: Math.max(1, Math.ceil(Number(resetMs) / 1000)) };
}

/** The usual RateLimit-* headers (docs/decisions/0301), for the protocol window. */
export function protocolRateLimitHeaders(d: ProtocolDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(Math.max(0, d.limit - d.count)),
    'RateLimit-Reset': String(Math.max(0, Math.ceil(d.resetMs / 1000))),
    'RateLimit-Policy': 'minute',
  };
}

/**
 * How many messages of a POST to /mcp the protocol window counts before it
 * is forwarded: all but the `tools/call` requests, which their REST call
 * meters (or, answered without one, the MCP service reports back). A body
 * that is not JSON, or an empty batch, is one message (the MCP service
 * answers it with an error).
 */
export function protocolMessagesIn(body: Buffer): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 1;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0) return 1;
  let count = 0;
  for (const m of messages) {
    const toolCall = typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call' && 'id' in m;
    if (!toolCall) count++;
  }
  return count;
}
