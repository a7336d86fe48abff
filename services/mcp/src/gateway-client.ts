import http from 'node:http';
import https from 'node:https';
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

/**
 * Calls the gateway's REST routes over kept-alive connections. Every call
 * carries the caller's own key and `X-Service-Origin: mcp`, so the gateway
 * authenticates, scopes, rate-limits and charges the budget exactly as for
 * a REST caller: that REST call is the only place an MCP tool call is metered.
 */
export class GatewayClient {
  /** Where every call goes, as request options built once (a URL per call would be parsed per call). */
  private readonly target: { protocol: string; hostname: string; port: string; agent: http.Agent; timeout: number };
  /** A path prefix of GATEWAY_URL, if any, kept in front of every REST path. */
  private readonly prefix: string;
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    const base = new URL(baseUrl);
    this.prefix = base.pathname.replace(/\/+$/, '');
    const secure = base.protocol === 'https:';
    this.transport = secure ? https : http;
    const AgentClass = secure ? https.Agent : http.Agent;
    this.agent = new AgentClass({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' });
    this.target = {
      protocol: base.protocol,
      // An IPv6 literal is bracketed in a URL and bare in request options.
      hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: base.port || (secure ? '443' : '80'),
      agent: this.agent,
      timeout: timeoutMs,
    };
  }

  call(request: RestRequest, key: KeyHeaders, traceparent?: string): Promise<RestAnswer> {
    const payload = request.body === null ? null : Buffer.from(JSON.stringify(request.body), 'utf8');
    const outgoing: http.OutgoingHttpHeaders = {
      accept: 'application/json',
      'user-agent': USER_AGENT,
      [contractHeaders.serviceOrigin]: 'mcp',
    };
    if (key.authorization !== undefined) outgoing.authorization = key.authorization;
    if (key['x-service-key'] !== undefined) outgoing[contractHeaders.serviceKey] = key['x-service-key'];
    if (traceparent !== undefined) outgoing.traceparent = traceparent;
    if (payload) {
      outgoing['content-type'] = 'application/json';
      outgoing['content-length'] = payload.length;
    }
    const options: http.RequestOptions = { ...this.target, method: request.method, path: `${this.prefix}${request.path}`, headers: outgoing };

    return new Promise<RestAnswer>((resolve, reject) => {
      const req = this.transport.request(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            req.destroy(new GatewayUnavailable(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const h = (name: string): string | null => {
            const v = res.headers[name];
            return typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : null;
          };
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: h('content-type'),
            requestId: h('x-request-id'),
            retryAfter: h('retry-after'),
            rateLimit: {
              limit: h('ratelimit-limit'),
              remaining: h('ratelimit-remaining'),
              reset: h('ratelimit-reset'),
              policy: h('ratelimit-policy'),
            },
          });
        });
        res.on('error', (err) => reject(new GatewayUnavailable(err.message)));
      });
      req.on('timeout', () => req.destroy(new GatewayUnavailable(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (err) => reject(err instanceof GatewayUnavailable ? err : new GatewayUnavailable(err.message)));
      req.end(payload ?? undefined);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
