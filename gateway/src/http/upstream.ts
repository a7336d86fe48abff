import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';
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

interface Pending {
  target: string;
  body: Buffer;
  maxBytes: number;
  settled: boolean;
  resolve: (a: UpstreamAnswer) => void;
  reject: (e: UpstreamError) => void;
  proxyReq: http.ClientRequest | null;
}

/** Hop-by-hop headers are about one connection, never forwarded. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/**
 * Forwards a request whose body the gateway has already read (and checked)
 * to an upstream service with http-proxy-middleware, and hands back the
 * whole answer instead of piping it: the gateway must inspect the answer and
 * charge the budget before a byte of it leaves. Every call has a deadline;
 * connections to upstreams are kept alive and reused.
 */
export class Upstreams {
  private readonly pending = new WeakMap<IncomingMessage, Pending>();
  private readonly proxy: RequestHandler<IncomingMessage, ServerResponse>;
  readonly agent: http.Agent;

  private readonly signingKeys: Readonly<Record<string, string>>;

  /** `signingKeys` (one per service) sign every forwarded request, so that the service knows the gateway sent it (decision 0313). */
  constructor(opts: { socketTimeoutMs: number; signingKeys: Readonly<Record<string, string>> }) {
    this.signingKeys = opts.signingKeys;
    this.agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: 512, maxFreeSockets: 128, scheduling: 'lifo' });
    this.proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
      router: (req) => this.pending.get(req)?.target,
      changeOrigin: false,
      xfwd: false,
      selfHandleResponse: true,
      agent: this.agent,
      proxyTimeout: opts.socketTimeoutMs,
      plugins: [
        (proxyServer) => {
          // The body was read to check it; the original bytes are what goes on,
          // streamed from a buffer instead of the (already consumed) request.
          // (`before` inserts a pass into http-proxy's pipeline; its typings omit it.)
          const server = proxyServer as unknown as { before: (type: 'web', pass: 'stream', fn: (req: IncomingMessage, res: ServerResponse, options: { buffer?: Readable }) => void) => void };
          server.before('web', 'stream', (req, _res, options) => {
            const p = this.pending.get(req);
            if (p) options.buffer = Readable.from(p.body.length > 0 ? [p.body] : []);
          });
        },
      ],
      on: {
        proxyReq: (proxyReq, req) => {
          const p = this.pending.get(req);
          if (p) p.proxyReq = proxyReq;
        },
        proxyRes: (proxyRes, req) => {
          const p = this.pending.get(req);
          if (!p) return;
          const chunks: Buffer[] = [];
          let size = 0;
          proxyRes.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > p.maxBytes) {
              proxyRes.destroy();
              this.fail(p, new UpstreamError('too_large', `upstream answer over ${p.maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          proxyRes.on('end', () => {
            if (p.settled) return;
            p.settled = true;
            p.resolve({ status: proxyRes.statusCode ?? 0, headers: proxyRes.headers, body: Buffer.concat(chunks, size) });
          });
          proxyRes.on('error', (err) => this.fail(p, new UpstreamError('broken', err.message)));
          proxyRes.on('aborted', () => this.fail(p, new UpstreamError('broken', 'upstream aborted the answer')));
        },
        error: (err, req) => {
          const p = this.pending.get(req as IncomingMessage);
          if (!p) return;
          const code = (err as NodeJS.ErrnoException).code ?? '';
          this.fail(p, new UpstreamError(code === 'ECONNRESET' && p.proxyReq?.destroyed ? 'timeout' : 'unreachable', `${code} ${err.message}`.trim()));
        },
      },
    });
  }

  /**
   * `headers` replaces the request's headers for the upstream (hop-by-hop
   * headers are dropped; Content-Length is set from the body); `service`
   * names the upstream, whose key signs the request.
   */
  forward(
    req: IncomingMessage,
    res: ServerResponse,
    opts: { service: string; target: string; path: string; headers: Record<string, string>; body: Buffer; timeoutMs: number; maxBytes?: number },
  ): Promise<UpstreamAnswer> {
    const key = this.signingKeys[opts.service];
    if (key === undefined) return Promise.reject(new UpstreamError('unreachable', `no signing key for ${opts.service}`));
    const signed = { ...opts.headers };
    signRequest(key, { service: opts.service, method: req.method ?? 'GET', pathAndQuery: opts.path, body: opts.body }, signed);
    const headers: IncomingHttpHeaders = signed;
    for (const h of HOP_BY_HOP) delete headers[h];
    if (opts.body.length > 0) headers['content-length'] = String(opts.body.length);
    else delete headers['content-length'];
    req.headers = headers;
    req.url = opts.path;
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(p, new UpstreamError('timeout', `no complete answer within ${opts.timeoutMs} ms`));
        p.proxyReq?.destroy();
      }, opts.timeoutMs);
      const p: Pending = {
        target: opts.target,
        body: opts.body,
        maxBytes: opts.maxBytes ?? 4 * 1024 * 1024,
        settled: false,
        proxyReq: null,
        resolve: (a) => {
          clearTimeout(timer);
          resolve(a);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.pending.set(req, p);
      this.proxy(req, res, (err: unknown) => this.fail(p, new UpstreamError('unreachable', String(err)))).catch((err: unknown) =>
        this.fail(p, new UpstreamError('unreachable', String(err))),
      );
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private fail(p: Pending, err: UpstreamError): void {
    if (p.settled) return;
    p.settled = true;
    p.reject(err);
  }
}
