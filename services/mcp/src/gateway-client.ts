import { Pool, type Dispatcher } from 'undici';
import { API_VERSION, headers as contractHeaders } from '@evidence-record/contract';
import type { RestRequest } from './arguments';

/** The caller's key exactly as presented: at least one of the two headers the REST API accepts. */
export interface KeyHeaders {
  authorization?: string;
  'x-service-key'?: string;
}

/** A REST answer as the gateway sent it: the status, the exact body text and the pacing headers. */
export interface RestAnswer {
  status: number;
  text: string;
  contentType: string | null;
  requestId: string | null;
  retryAfter: string | null;
  rateLimit: { limit: string | null; remaining: string | null; reset: string | null; policy: string | null };
}

export class GatewayUnavailable extends Error {
  override name = 'GatewayUnavailable';
}

/** Answers bigger than this are not relayed (the largest envelope, a ledger edition, is far smaller). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const USER_AGENT = `evidence-record-mcp/${API_VERSION}`;

/** Request headers every call carries, as undici's flat name/value list, made once. */
const FIXED_HEADERS: readonly string[] = ['accept', 'application/json', 'user-agent', USER_AGENT, contractHeaders.serviceOrigin, 'mcp'];

/**
 * Calls the gateway's REST routes over a pool of kept-alive connections
 * (undici). Every call carries the caller's own key and `X-Service-Origin:
 * mcp`, so the gateway authenticates, scopes, rate-limits and charges the
 * budget exactly as for a REST caller: that REST call is the only place an
 * MCP tool call is metered.
 *
 * A call is one dispatch on the pool with a handler object: no request
 * options, URL or stream objects are made per call, only the headers that
 * differ (key, trace) are appended to the fixed ones (docs/benchmarks.md).
 */
export class GatewayClient {
  private readonly pool: Pool;
  private readonly origin: string;
  /** A path prefix of GATEWAY_URL, if any, kept in front of every REST path. */
  private readonly prefix: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    const base = new URL(baseUrl);
    this.origin = base.origin;
    this.prefix = base.pathname.replace(/\/+$/, '');
    // No answer within the deadline, or an answer that stalls that long between two chunks, is a gateway that is not there.
    this.pool = new Pool(this.origin, { connections: 256, keepAliveTimeout: 4_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  call(request: RestRequest, key: KeyHeaders, traceparent?: string): Promise<RestAnswer> {
    const headers = [...FIXED_HEADERS];
    if (key.authorization !== undefined) headers.push('authorization', key.authorization);
    if (key['x-service-key'] !== undefined) headers.push(contractHeaders.serviceKey, key['x-service-key']);
    if (traceparent !== undefined) headers.push('traceparent', traceparent);
    let body: string | null = null;
    if (request.body !== null) {
      body = JSON.stringify(request.body);
      headers.push('content-type', 'application/json');
    }
    return new Promise<RestAnswer>((resolve, reject) => {
      this.pool.dispatch({ origin: this.origin, method: request.method as Dispatcher.HttpMethod, path: `${this.prefix}${request.path}`, headers, body }, new RestCall(this.timeoutMs, resolve, reject));
    });
  }

  close(): void {
    void this.pool.destroy();
  }
}

/** One REST call's answer, gathered whole (at most MAX_ANSWER_BYTES). */
class RestCall implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private done = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly resolve: (a: RestAnswer) => void,
    private readonly reject: (e: GatewayUnavailable) => void,
  ) {}

  // Its presence tells undici this handler speaks its current handler interface.
  onRequestStart(): void {}

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_ANSWER_BYTES) {
      controller.abort(new GatewayUnavailable(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.done) return;
    this.done = true;
    const h = (name: string): string | null => {
      const v = this.headers[name];
      return typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : null;
    };
    this.resolve({
      status: this.status,
      text: (this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size)).toString('utf8'),
      contentType: h('content-type'),
      requestId: h('x-request-id'),
      retryAfter: h('retry-after'),
      rateLimit: { limit: h('ratelimit-limit'), remaining: h('ratelimit-remaining'), reset: h('ratelimit-reset'), policy: h('ratelimit-policy') },
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.done) return;
    this.done = true;
    const timedOut = (err as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' || (err as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
    this.reject(err instanceof GatewayUnavailable ? err : new GatewayUnavailable(timedOut ? `no answer within ${this.timeoutMs} ms` : err.message));
  }
}
