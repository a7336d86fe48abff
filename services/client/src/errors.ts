import type { components } from './schema';

export type ErrorCode = components['schemas']['ErrorCode'];

/** The rate window closest to exhaustion for this key (RateLimit-* headers). */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** minute, hour or day. */
  policy: string;
}

/** What every response says besides its body. */
export interface ResponseMeta {
  status: number;
  /** X-Request-Id: quote it to support. */
  requestId: string | null;
  /** RateLimit-*: on every response to a request made with a valid key, refusals included. */
  rateLimit: RateLimit | null;
  /** Retry-After in seconds (429 only). */
  retryAfterSeconds: number | null;
  cacheControl: string | null;
  /** true when this is the answer to the client's one retry after a rate_limited refusal. */
  retried: boolean;
  /** Every header, for anything the API adds later. */
  headers: Headers;
}

const int = (value: string | null): number | null => {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

export function responseMeta(response: Response, retried = false): ResponseMeta {
  const h = response.headers;
  const limit = int(h.get('ratelimit-limit'));
  const remaining = int(h.get('ratelimit-remaining'));
  const reset = int(h.get('ratelimit-reset'));
  const policy = h.get('ratelimit-policy');
  return {
    status: response.status,
    requestId: h.get('x-request-id'),
    rateLimit: limit !== null && remaining !== null && reset !== null && policy ? { limit, remaining, resetSeconds: reset, policy } : null,
    retryAfterSeconds: int(h.get('retry-after')),
    cacheControl: h.get('cache-control'),
    retried,
    headers: h,
  };
}

type Refusal = components['schemas']['ErrorEnvelope'];

const isRefusal = (body: unknown): body is Refusal =>
  typeof body === 'object' && body !== null && typeof (body as { error?: { code?: unknown } }).error?.code === 'string';

/**
 * A refusal, thrown. Branch on `code`, never on `message`. `requestId` is
 * the one to quote to support; `details` is what the refusal names (for
 * invalid_request the field, for insufficient_scope required_scope).
 */
export class EvidenceRecordError extends Error {
  readonly status: number;
  /** error.code; `unexpected_response` when the body was not the API's error envelope (e.g. a proxy's page). */
  readonly code: ErrorCode | 'unexpected_response';
  readonly requestId: string | null;
  readonly details: Record<string, unknown>;
  readonly documentation: string | null;
  readonly meta: ResponseMeta;
  /** The refusal envelope as sent, or the raw body text when it was not one. */
  readonly body: Refusal | string | null;

  constructor(init: { status: number; code: ErrorCode | 'unexpected_response'; message: string; requestId: string | null; details: Record<string, unknown>; documentation: string | null; meta: ResponseMeta; body: Refusal | string | null }) {
    super(`${init.code} (HTTP ${init.status}${init.requestId ? `, request ${init.requestId}` : ''}): ${init.message}`);
    this.name = 'EvidenceRecordError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.documentation = init.documentation;
    this.meta = init.meta;
    this.body = init.body;
  }

  static from(response: Response, body: unknown, meta: ResponseMeta): EvidenceRecordError {
    if (isRefusal(body)) {
      return new EvidenceRecordError({
        status: response.status,
        code: body.error.code,
        message: body.error.message,
        requestId: body.request_id ?? meta.requestId,
        details: (body.error.details ?? {}) as Record<string, unknown>,
        documentation: body.error.documentation ?? null,
        meta,
        body,
      });
    }
    return new EvidenceRecordError({
      status: response.status,
      code: 'unexpected_response',
      message: `the response was not an Evidence Record answer or refusal`,
      requestId: meta.requestId,
      details: {},
      documentation: null,
      meta,
      body: typeof body === 'string' ? body.slice(0, 2000) : null,
    });
  }

  /** Seconds the API asked to wait (Retry-After), on a 429. */
  get retryAfterSeconds(): number | null {
    return this.meta.retryAfterSeconds;
  }

  /**
   * extraction_limit_reached: when the organization's daily budget resets
   * (the next 00:00 UTC, as Retry-After says). Retrying earlier, rewording
   * or narrowing spends more of the same budget, so the client never does.
   */
  get budgetResetsAt(): Date | null {
    if (this.code !== 'extraction_limit_reached' || this.retryAfterSeconds === null) return null;
    return new Date(Date.now() + this.retryAfterSeconds * 1000);
  }
}
