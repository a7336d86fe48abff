import createFetchClient, { type Client } from 'openapi-fetch';
import { EvidenceRecordError, responseMeta, type ResponseMeta } from './errors';
import { routes } from './routes';
import type { components, operations, paths } from './schema';

export type Schemas = components['schemas'];
export type Answer = Schemas['AnswerEnvelope'];
export type Signal = Schemas['Signal'];

/** The capabilities: every operation that takes a key. */
export type CapabilityName = Exclude<keyof operations, 'health' | 'openapi'>;

type Operation<K extends keyof operations> = operations[K];
/** The 200 answer of a capability, typed from the document (its answer objects included). */
export type AnswerOf<K extends CapabilityName> = Operation<K>['responses'][200]['content']['application/json'];
type PathOf<K extends CapabilityName> = NonNullable<Operation<K>['parameters']['path']>;
type QueryOf<K extends CapabilityName> = NonNullable<Operation<K>['parameters']['query']>;
type BodyOf<K extends CapabilityName> = Operation<K> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** What a capability takes: its path parameters, query and body, each only where the operation has one. */
export type CallInput<K extends CapabilityName> = ([PathOf<K>] extends [never] ? { path?: never } : { path: PathOf<K> }) &
  ([QueryOf<K>] extends [never] ? { query?: never } : { query?: QueryOf<K> }) &
  ([BodyOf<K>] extends [never] ? { body?: never } : { body: BodyOf<K> });

type CallArgs<K extends CapabilityName> = [PathOf<K>] extends [never] ? ([BodyOf<K>] extends [never] ? [input?: CallInput<K>] : [input: CallInput<K>]) : [input: CallInput<K>];

export interface Answered<T> {
  answer: T;
  /** Request id, rate-limit and cache headers of this response. */
  meta: ResponseMeta;
}

export interface ClientOptions {
  /** The gateway, e.g. http://127.0.0.1:8080 (no /api/v1). */
  baseUrl: string;
  /** sk_{environment}_{keyId}_{secret}. Sent in a header only, never in a URL. */
  apiKey: string;
  /** Which of the two equivalent headers carries the key: `Authorization: Bearer` (default) or `X-Service-Key`. */
  auth?: 'bearer' | 'service-key';
  /** The longest Retry-After the client waits before its one retry of a rate_limited refusal; longer refusals are thrown at once. Default 60 s. */
  maxRetryAfterSeconds?: number;
  /** How to wait (tests replace it); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** The fetch to use; default globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A typed client of the Evidence Record REST API. `call` runs a capability
 * by name and returns its answer with the response's headers, or throws an
 * EvidenceRecordError (request_id, error.code, HTTP status, details). `api`
 * is the underlying openapi-fetch client for anything else.
 *
 * Retries follow the spec's caller actions: a 429 rate_limited is retried
 * exactly once after Retry-After; nothing else is retried (an
 * extraction_limit_reached says when the daily budget resets instead).
 */
export class EvidenceRecordClient {
  readonly api: Client<paths>;
  readonly #retried = new WeakSet<Response>();

  constructor(options: ClientOptions) {
    if (!/^sk_[a-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9]+$/.test(options.apiKey)) {
      // Say what is wrong without echoing the key.
      throw new TypeError('apiKey is not an Evidence Record key (sk_{environment}_{keyId}_{secret})');
    }
    const authHeader: Record<string, string> =
      options.auth === 'service-key' ? { 'X-Service-Key': options.apiKey } : { Authorization: `Bearer ${options.apiKey}` };
    const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    const sleep = options.sleep ?? wait;
    const maxRetryAfter = options.maxRetryAfterSeconds ?? 60;
    const retried = this.#retried;

    const fetchWithOneRetry = async (request: Request): Promise<Response> => {
      const spare = request.clone();
      const first = await baseFetch(request);
      if (first.status !== 429) return first;
      const retryAfter = Number(first.headers.get('retry-after'));
      const code = await first
        .clone()
        .json()
        .then((body: unknown) => (body as { error?: { code?: unknown } } | null)?.error?.code)
        .catch(() => undefined);
      if (code !== 'rate_limited' || !Number.isFinite(retryAfter) || retryAfter < 0 || retryAfter > maxRetryAfter) return first;
      // Release the refused response's connection before waiting.
      await first.body?.cancel().catch(() => undefined);
      await sleep(retryAfter * 1000);
      const second = await baseFetch(spare);
      retried.add(second);
      return second;
    };

    this.api = createFetchClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { ...authHeader, 'X-Service-Origin': 'api' },
      fetch: fetchWithOneRetry,
    });
  }

  /** Runs one capability by its name (the operationId), e.g. `call('resolve_product', { body: { identifier: 'Ironvale Surge' } })`. */
  async call<K extends CapabilityName>(name: K, ...[input]: CallArgs<K>): Promise<Answered<AnswerOf<K>>> {
    const route = routes[name];
    const given = (input ?? {}) as { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
    const init = {
      params: { path: given.path, query: given.query },
      ...(given.body !== undefined ? { body: given.body } : {}),
    };
    // The route table is generated from the same document as the types, so the path matches the method.
    const result = await (this.api.request as (m: string, p: string, i: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(
      route.method.toLowerCase(),
      route.path,
      init,
    );
    const meta = responseMeta(result.response, this.#retried.has(result.response));
    if (!result.response.ok || result.data === undefined) throw EvidenceRecordError.from(result.response, result.error, meta);
    return { answer: result.data as AnswerOf<K>, meta };
  }
}
