import { MAX_BODY_BYTES } from './request-checks';

/**
 * Every refusal on the wire carries one of these codes. Clients branch on the
 * code, never on the message. The first twelve are the spec's; the rest are
 * this project's decisions for what the spec leaves open (docs/decisions/).
 */
export const errorCatalogue = {
  invalid_credentials: { status: 401, message: 'The API key is missing or not valid.', action: 'Fix the header; do not retry unchanged.' },
  insufficient_scope: { status: 403, message: 'This key does not carry the scope this capability requires.', action: 'Grant the scope or stop.' },
  plan_entitlement_required: { status: 403, message: "The organization's plan does not include this capability.", action: 'Contact the operator.' },
  key_suspended: { status: 403, message: 'This key or its organization is suspended.', action: 'Retrying does nothing; contact the operator.' },
  account_binding_required: { status: 403, message: 'Watch operations need the key\'s organization to be bound to exactly one account.', action: 'Ask the operator to bind one account to the organization.' },
  watch_limit_reached: { status: 409, message: "The account's watch limit is reached.", action: 'Remove a watch or move to a plan with a higher limit.' },
  product_not_watchable: { status: 409, message: 'This product is in the Record but is not monitored (retired), so it cannot be watched.', action: 'Watch a covered, monitored product.' },
  rate_limited: { status: 429, message: 'Too many requests in the current window.', action: 'Wait Retry-After seconds, retry once.' },
  extraction_limit_reached: { status: 429, message: "The organization's daily distinct-entity budget is spent.", action: 'Wait for the next UTC day; rewording or narrowing spends more of the same budget.' },
  extraction_pattern_refused: { status: 429, message: 'This key\'s requests match a pattern of copying the Record; answers are paused.', action: 'Wait Retry-After seconds; continuing the pattern suspends the key.' },
  invalid_request: { status: 400, message: 'The request failed validation.', action: 'Read error.details.' },
  payload_too_large: { status: 413, message: `The request body exceeds ${MAX_BODY_BYTES} bytes.`, action: 'Send less.' },
  not_found: { status: 404, message: 'No record with that identifier.', action: 'Report it as an absence in the Record.' },
  unsupported_capability: { status: 404, message: 'No capability by that name.', action: 'There is no export or enumeration capability.' },
  method_not_allowed: { status: 405, message: 'This path does not accept that method.', action: 'Use the method in the endpoint table.' },
  internal_error: { status: 500, message: 'The service could not answer.', action: 'Retry once with backoff; quote the request id.' },
} as const;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export function statusOf(code: ErrorCode): number {
  return errorCatalogue[code].status;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in errorCatalogue;
}

/** Where each code is documented: a fragment of the served OpenAPI document. */
export function documentationFor(code: ErrorCode): string {
  return `/api/v1/openapi.json#/x-error-codes/${code}`;
}

/**
 * A refusal as a value. Handlers throw or return it; one error handler per
 * service turns it into the error envelope.
 */
export class Refusal extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly limitations: string[];
  readonly retryAfterSeconds: number | undefined;
  constructor(
    code: ErrorCode,
    opts: { message?: string; details?: Record<string, unknown>; limitations?: string[]; retryAfterSeconds?: number } = {},
  ) {
    super(opts.message ?? errorCatalogue[code].message);
    this.name = 'Refusal';
    this.code = code;
    this.details = opts.details ?? {};
    this.limitations = opts.limitations ?? [];
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
  get status(): number {
    return statusOf(this.code);
  }
}
