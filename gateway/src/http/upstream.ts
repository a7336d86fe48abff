import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { signRequest } from '@evidence-record/platform';

export interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export class UpstreamError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'too_large' | 'broken',
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** Hop-by-hop headers are about one connection, never forwarded (nor `expect`: the gateway has read the body already). */
const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);

const EMPTY = Buffer.alloc(0);

export interface ForwardOptions {
  /** The service asked (the registry's name): its key signs the request. */
  service: string;
  target: string;
  method: string;
  /** Path and query as the service is asked. */
  path: string;
  /** The request headers for the upstream, completed in place: hop-by-hop ones are dropped, Content-Length is set from the body, the signature headers are added. */
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  maxBytes?: number;
}

/**
 * One call to an upstream service, as an undici dispatch handler: the whole
 * answer is gathered (the gateway must inspect it and charge the budget
 * before a byte of it leaves), within a deadline and a size limit.
 */
class Call implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private started = false;
  private done = false;
  private controller: Dispatcher.DispatchController | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly maxBytes: number,
    timeoutMs: number,
    private readonly resolve: (a: UpstreamAnswer) => void,
    private readonly reject: (e: UpstreamError) => void,
  ) {
    this.timer = setTimeout(() => this.abort(new UpstreamError('timeout', `no complete answer within ${timeoutMs} ms`)), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // An informational answer (1xx) is followed by the real one.
    if (statusCode < 200) return;
    this.started = true;
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return this.abort(new UpstreamError('too_large', `upstream answer over ${this.maxBytes} bytes`));
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    const body = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.length === 0 ? EMPTY : Buffer.concat(this.chunks, this.size);
    this.resolve({ status: this.status, headers: this.headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (err instanceof UpstreamError) return this.fail(err);
    const code = (err as { code?: string }).code ?? '';
    // Before an answer began the service was not reached (refused, reset, closed); after, the answer broke off.
    this.fail(new UpstreamError(this.started ? 'broken' : 'unreachable', `${code} ${err.message}`.trim()));
  }

  private abort(err: UpstreamError): void {
    if (this.done) return;
    if (this.controller) this.controller.abort(err);
    // Aborting reports through onResponseError; if the request was never started, fail here.
    this.fail(err);
  }

  private fail(err: UpstreamError): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.reject(err);
  }
}

/**
 * Forwards a request whose body the gateway has already read (and checked)
 * to an upstream service over a pool of kept-alive connections per service
 * (undici), signed so that the service knows the gateway sent it (decision
 * 0313), and hands back the whole answer. Every call has a deadline.
 * Decision 1800 says why this is not http-proxy-middleware any more.
 */
export class Upstreams {
  private readonly upstreams = new Map<string, { pool: Pool; origin: string; prefix: string }>();
  private readonly signingKeys: Readonly<Record<string, string>>;
  private readonly socketTimeoutMs: number;

  /** `signingKeys` (one per service) sign every forwarded request, so that the service knows the gateway sent it (decision 0313). */
  constructor(opts: { socketTimeoutMs: number; signingKeys: Readonly<Record<string, string>> }) {
    this.signingKeys = opts.signingKeys;
    this.socketTimeoutMs = opts.socketTimeoutMs;
  }

  forward(opts: ForwardOptions): Promise<UpstreamAnswer> {
    const key = this.signingKeys[opts.service];
    if (key === undefined) return Promise.reject(new UpstreamError('unreachable', `no signing key for ${opts.service}`));
    const headers = opts.headers;
    for (const name of Object.keys(headers)) if (HOP_BY_HOP.has(name)) delete headers[name];
    if (opts.body.length > 0) headers['content-length'] = String(opts.body.length);
    else delete headers['content-length'];
    const upstream = this.upstream(opts.target);
    const path = upstream.prefix + opts.path;
    signRequest(key, { service: opts.service, method: opts.method, pathAndQuery: path, body: opts.body }, headers);
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const call = new Call(opts.maxBytes ?? 4 * 1024 * 1024, opts.timeoutMs, resolve, reject);
      upstream.pool.dispatch({ origin: upstream.origin, method: opts.method as Dispatcher.HttpMethod, path, headers, body: opts.body.length > 0 ? opts.body : null }, call);
    });
  }

  async close(): Promise<void> {
    const pools = [...this.upstreams.values()].map((u) => u.pool);
    this.upstreams.clear();
    await Promise.all(pools.map((p) => p.destroy()));
  }

  /** The pool of a service URL, made on first use; a path in the URL prefixes every forwarded path. */
  private upstream(target: string): { pool: Pool; origin: string; prefix: string } {
    let u = this.upstreams.get(target);
    if (!u) {
      const url = new URL(target);
      // Idle connections are kept (keep-alive) and reused; the deadline of each call is the Call's own.
      const pool = new Pool(url.origin, { connections: 512, keepAliveTimeout: 4_000, headersTimeout: this.socketTimeoutMs, bodyTimeout: this.socketTimeoutMs });
      u = { pool, origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
      this.upstreams.set(target, u);
    }
    return u;
  }
}
