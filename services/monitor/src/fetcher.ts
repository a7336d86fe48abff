import { Agent, request, type Dispatcher } from 'undici';
import { AddressRefused, checkUrl, pinnedLookup, systemResolver, type AddressPolicy, type Resolver } from './guard';

/**
 * One HTTP read of a source (decision 1006): undici with connect and read
 * timeouts, a body cap, redirects followed by hand (at most N, each hop
 * checked by the SSRF guard before it is requested), and connections made
 * only to addresses the guard checked.
 */
export interface FetchOptions {
  policy: AddressPolicy;
  userAgent: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  resolve?: Resolver;
}

export interface FetchedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  redirects: number;
}

export type FetchFailureCode =
  | 'timeout'
  | 'connection_failed'
  | 'dns_failure'
  | 'tls_failure'
  | 'refused_address'
  | 'unsupported_scheme'
  | 'invalid_url'
  | 'too_many_redirects'
  | 'robots_disallowed'
  | 'oversized';

export class FetchFailure extends Error {
  override name = 'FetchFailure';
  constructor(
    readonly code: FetchFailureCode,
    message: string,
  ) {
    super(message);
  }
}

export class Fetcher {
  private readonly agent: Agent;
  constructor(readonly options: FetchOptions) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs, lookup: pinnedLookup(options.policy, options.resolve ?? systemResolver) as never },
      headersTimeout: options.readTimeoutMs,
      bodyTimeout: options.readTimeoutMs,
      connections: 4,
      keepAliveTimeout: 4_000,
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * GET with redirects followed by hand; 3xx without Location, 304 and every other status are returned as they are.
   * `beforeRedirect` runs before each redirected request (the monitor takes the new host's politeness slot and asks
   * its robots.txt there); what it throws ends the read.
   */
  async get(rawUrl: string, headers: Record<string, string> = {}, beforeRedirect?: (next: URL) => Promise<void>): Promise<FetchedResponse> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new FetchFailure('invalid_url', `${rawUrl} is not a URL`);
    }
    for (let hop = 0; ; hop++) {
      guard(() => checkUrl(url, this.options.policy));
      if (hop > 0) await beforeRedirect?.(url);
      const response = await this.once(url, headers);
      const location = response.headers['location'];
      if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
        if (hop >= this.options.maxRedirects) throw new FetchFailure('too_many_redirects', `more than ${this.options.maxRedirects} redirects`);
        try {
          url = new URL(location, url);
        } catch {
          throw new FetchFailure('invalid_url', `redirect to an invalid URL`);
        }
        continue;
      }
      return { ...response, url: url.toString(), redirects: hop };
    }
  }

  private async once(url: URL, headers: Record<string, string>): Promise<Omit<FetchedResponse, 'url' | 'redirects'>> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: 'GET',
        dispatcher: this.agent,
        headers: { 'user-agent': this.options.userAgent, accept: 'application/json, text/html;q=0.9, */*;q=0.1', ...headers },
        signal: AbortSignal.timeout(this.options.connectTimeoutMs + 4 * this.options.readTimeoutMs),
      });
    } catch (err) {
      throw failureOf(err);
    }
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    const declared = Number(flat['content-length']);
    if (Number.isFinite(declared) && declared > this.options.maxBodyBytes) {
      res.body.destroy();
      throw new FetchFailure('oversized', `the response declares ${declared} bytes, more than ${this.options.maxBodyBytes}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > this.options.maxBodyBytes) {
          res.body.destroy();
          throw new FetchFailure('oversized', `the response is larger than ${this.options.maxBodyBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      throw failureOf(err);
    }
    return { status: res.statusCode, headers: flat, body: Buffer.concat(chunks) };
  }
}

function guard(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    throw failureOf(err);
  }
}

function failureOf(err: unknown): FetchFailure {
  if (err instanceof FetchFailure) return err;
  if (err instanceof AddressRefused) return new FetchFailure(err.code, err.message);
  const e = err as NodeJS.ErrnoException & { refusal?: AddressRefused; cause?: unknown };
  const inner = (e.refusal ?? (e.cause as { refusal?: AddressRefused } | undefined)?.refusal) as AddressRefused | undefined;
  if (inner) return new FetchFailure(inner.code, inner.message);
  const code = e.code ?? (e.cause as NodeJS.ErrnoException | undefined)?.code ?? e.name;
  if (code === 'EADDRREFUSED') return new FetchFailure('refused_address', e.message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new FetchFailure('dns_failure', `the host does not resolve (${code})`);
  if (/TIMEOUT|TimeoutError|AbortError/i.test(String(code))) return new FetchFailure('timeout', `timed out (${code})`);
  if (/CERT|SSL|TLS|ERR_TLS/i.test(String(code))) return new FetchFailure('tls_failure', `TLS failure (${code})`);
  return new FetchFailure('connection_failed', `connection failed (${code ?? 'error'})`);
}
