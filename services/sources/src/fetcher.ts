import type { Agent, Dispatcher } from 'undici';
import { onFirstUse } from '@evidence-record/platform';
import { AddressRefused, checkUrl, pinnedLookup, systemResolver, type AddressPolicy, type Resolver } from './guard';

/** undici, loaded when a fetcher is made: operator CLI verbs that read no source never load it. */
const undici = onFirstUse<typeof import('undici')>(import.meta.url, 'undici');

/**
 * One HTTP read of a source (decision 1006): undici with connect and read
 * timeouts, a body cap, redirects followed by hand (at most N, each hop
 * checked by the SSRF guard before it is requested), and connections made
 * only to addresses the guard checked. Every read runs against a deadline
 * (the check's, shared with its robots.txt reads and every redirect hop).
 */
export interface FetchOptions {
  policy: AddressPolicy;
  userAgent: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  /** The deadline of a read not given one (a check gives its own, see Deadline). */
  deadlineMs: number;
  resolve?: Resolver;
}

/**
 * One deadline for everything a check asks the network: its robots.txt reads, the source and every redirect hop.
 * Past it, whatever is under way is aborted and the check is a `timeout`, however the abort surfaced (undici's
 * error, the signal's reason while a body was being read, or a lookup that never answered).
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  constructor(readonly ms: number) {
    this.timer = setTimeout(() => this.controller.abort(new DOMException(`deadline of ${ms} ms passed`, 'TimeoutError')), ms);
    this.timer.unref();
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  get passed(): boolean {
    return this.controller.signal.aborted;
  }
  /** The check is over: its timer goes (thousands of checks a minute would otherwise leave as many pending). */
  clear(): void {
    clearTimeout(this.timer);
  }
  failure(): FetchFailure {
    return new FetchFailure('timeout', `the check passed its deadline of ${this.ms} ms (robots.txt and redirects included)`);
  }
}

export interface GetOptions {
  headers?: Record<string, string>;
  /** The check's deadline; a new one of `deadlineMs` when absent. */
  deadline?: Deadline;
  /** At most this many redirects (default: maxRedirects). */
  maxRedirects?: number;
  /**
   * Runs before each redirected request (the monitor takes the new host's politeness slot and asks its robots.txt
   * there, and takes the DSLD key off a hop that leaves DSLD's origin); it may change the URL's query. What it
   * throws ends the read.
   */
  beforeRedirect?: (next: URL) => Promise<void>;
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
    this.agent = new (undici().Agent)({
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

  /** GET with redirects followed by hand; 3xx without Location, 304 and every other status are returned as they are. */
  async get(rawUrl: string, opts: GetOptions = {}): Promise<FetchedResponse> {
    const deadline = opts.deadline ?? new Deadline(this.options.deadlineMs);
    try {
      return await this.follow(rawUrl, opts, deadline);
    } finally {
      // A deadline made here is this read's alone; a check's own outlives the read.
      if (deadline !== opts.deadline) deadline.clear();
    }
  }

  private async follow(rawUrl: string, opts: GetOptions, deadline: Deadline): Promise<FetchedResponse> {
    const maxRedirects = opts.maxRedirects ?? this.options.maxRedirects;
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new FetchFailure('invalid_url', `${rawUrl} is not a URL`);
    }
    for (let hop = 0; ; hop++) {
      if (deadline.passed) throw deadline.failure();
      guard(() => checkUrl(url, this.options.policy));
      if (hop > 0) await opts.beforeRedirect?.(url);
      const response = await this.once(url, opts.headers ?? {}, deadline);
      const location = response.headers['location'];
      if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
        if (hop >= maxRedirects) throw new FetchFailure('too_many_redirects', `more than ${maxRedirects} redirects`);
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

  private async once(url: URL, headers: Record<string, string>, deadline: Deadline): Promise<Omit<FetchedResponse, 'url' | 'redirects'>> {
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(url, {
        method: 'GET',
        dispatcher: this.agent,
        headers: { 'user-agent': this.options.userAgent, accept: 'application/json, text/html;q=0.9, */*;q=0.1', ...headers },
        signal: deadline.signal,
      });
    } catch (err) {
      throw deadline.passed ? deadline.failure() : failureOf(err);
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
      // A body still arriving when the deadline passes is a timeout, not a broken connection.
      throw deadline.passed && !(err instanceof FetchFailure) ? deadline.failure() : failureOf(err);
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
  // A DOMException (an aborted signal) has a numeric code; its name says what happened.
  const code = [e.code, (e.cause as NodeJS.ErrnoException | undefined)?.code].find((c) => typeof c === 'string') ?? e.name;
  if (code === 'EADDRREFUSED') return new FetchFailure('refused_address', e.message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new FetchFailure('dns_failure', `the host does not resolve (${code})`);
  if (/TIMEOUT|TimeoutError|AbortError/i.test(String(code))) return new FetchFailure('timeout', `timed out (${code})`);
  if (/CERT|SSL|TLS|ERR_TLS/i.test(String(code))) return new FetchFailure('tls_failure', `TLS failure (${code})`);
  return new FetchFailure('connection_failed', `connection failed (${code ?? 'error'})`);
}
