import type { Counter, Histogram } from 'prom-client';
import { Metrics } from '@evidence-record/platform';

/** JSON-RPC methods with their own label value; anything else is counted as "other". */
export const knownMethods = new Set([
  'initialize',
  'notifications/initialized',
  'notifications/cancelled',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
]);

export class McpMetrics {
  readonly base: Metrics;
  /** One per JSON-RPC message answered: outcome ok, tool_error (a refused REST call) or the error's data.code. */
  readonly messages: Counter<'method' | 'tool' | 'outcome'>;
  /** HTTP requests refused before any JSON-RPC message was dispatched, by data.code. */
  readonly httpRefusals: Counter<'code'>;
  readonly httpSeconds: Histogram<'status'>;
  /** Time spent in the REST call a tools/call makes through the gateway. */
  readonly restCallSeconds: Histogram<'tool'>;

  constructor(base: Metrics = new Metrics('mcp')) {
    this.base = base;
    this.messages = base.counter('er_mcp_messages_total', 'JSON-RPC messages by method, tool and outcome', ['method', 'tool', 'outcome']);
    this.httpRefusals = base.counter('er_mcp_http_refusals_total', 'HTTP requests to /mcp refused before dispatch, by error code', ['code']);
    this.httpSeconds = base.histogram('er_mcp_http_request_duration_seconds', 'Duration of POST /mcp requests by HTTP status', ['status'], [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]);
    this.restCallSeconds = base.histogram('er_mcp_rest_call_duration_seconds', 'Duration of the REST call a tool makes through the gateway', ['tool'], [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  }

  methodLabel(method: string): string {
    return knownMethods.has(method) ? method : 'other';
  }
}
