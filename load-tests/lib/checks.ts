/**
 * Checks on answers and refusals (envelope, headers, error codes) and the
 * counters that classify what load traffic should never meet.
 */
import { check } from 'k6';
import type { Response } from 'k6/http';
import { Counter } from 'k6/metrics';
import { ANSWER_STATUSES, CACHE_CONTROL, REQUEST_ID_PATTERN, REQUIRED_ARRAYS, REQUIRED_STRINGS, type Capability } from './contract.ts';
import { bodyObject, errorCode, get, getString, hasNoCorsHeaders, header, isNonNegativeInt, isObject, retryAfterSeconds } from './json.ts';

/**
 * 429s (rate_limited, extraction_limit_reached, extraction_pattern_refused)
 * seen by traffic that should never hit a limit: the key's plan is too small
 * for the load profile, or the mix looks like copying. Tagged with `code`.
 */
export const limitRefusals = new Counter('limit_refusals');
/** Any non-2xx that is not a limit refusal, tagged with `code` (error.code or `http_<status>`). */
export const otherRefusals = new Counter('other_refusals');

/**
 * Checks on a 200 answer envelope. `full` also checks every required field
 * and the response headers the spec promises on every capability response.
 * Check names are generic; the `capability` tag separates them in metrics.
 */
export function checkEnvelope(res: Response, capability: Capability, mode: 'full' | 'lite' = 'full'): boolean {
  const b = bodyObject(res);
  const tags = { capability };
  const lite: { [name: string]: (r: Response) => boolean } = {
    'HTTP 200': (r) => r.status === 200,
    'request_id matches ^req_[0-9a-f]{24}$': () => REQUEST_ID_PATTERN.test(getString(b, 'request_id') ?? ''),
    'status is an answer status': () => ANSWER_STATUSES.indexOf(getString(b, 'status') ?? '') !== -1,
    'record_version is a non-empty string': () => (getString(b, 'record_version') ?? '') !== '',
  };
  if (mode === 'lite') return check(res, lite, tags);

  const full: { [name: string]: (r: Response) => boolean } = {
    ...lite,
    'capability field names the capability': () => getString(b, 'capability') === capability,
    'disclaimer is a non-empty string': () => (getString(b, 'disclaimer') ?? '') !== '',
    'required string fields present': () => REQUIRED_STRINGS.every((f) => typeof get(b, f) === 'string'),
    'required arrays present': () => REQUIRED_ARRAYS.every((f) => Array.isArray(get(b, f))),
    'confidence is an object': () => isObject(get(b, 'confidence')),
    'ambiguous answers carry candidates': () =>
      getString(b, 'status') !== 'ambiguous' || Array.isArray(get(b, 'candidates')),
    'X-Request-Id present': (r) => (header(r, 'X-Request-Id') ?? '') !== '',
    'X-Request-Id equals body request_id': (r) => header(r, 'X-Request-Id') === getString(b, 'request_id'),
    ...rateLimitHeaderChecks(),
    'Cache-Control is private, no-store, max-age=0, must-revalidate': (r) =>
      normaliseList(header(r, 'Cache-Control')) === normaliseList(CACHE_CONTROL),
    'no Access-Control-* headers': (r) => hasNoCorsHeaders(r),
  };
  return check(res, full, tags);
}

function normaliseList(v: string | undefined): string {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .join(', ');
}

export function rateLimitHeaderChecks(): { [name: string]: (r: Response) => boolean } {
  return {
    'RateLimit-Limit is an integer': (r) => isNonNegativeInt(header(r, 'RateLimit-Limit')),
    'RateLimit-Remaining is an integer': (r) => isNonNegativeInt(header(r, 'RateLimit-Remaining')),
    'RateLimit-Reset is an integer': (r) => isNonNegativeInt(header(r, 'RateLimit-Reset')),
    'RateLimit-Policy present': (r) => (header(r, 'RateLimit-Policy') ?? '') !== '',
  };
}

/** Checks on a refusal: HTTP status, `status: refused`, `error.code`, envelope basics. */
export function checkRefusal(res: Response, httpStatus: number, code: string, tags: { [k: string]: string } = {}): boolean {
  const b = bodyObject(res);
  const sets: { [name: string]: (r: Response) => boolean } = {
    [`HTTP ${httpStatus}`]: (r) => r.status === httpStatus,
    [`error.code is ${code}`]: () => getString(b, 'error.code') === code,
    'refusal status is refused': () => getString(b, 'status') === 'refused',
    'refusal request_id matches pattern': () => REQUEST_ID_PATTERN.test(getString(b, 'request_id') ?? ''),
    'refusal carries disclaimer and record_version': () =>
      (getString(b, 'disclaimer') ?? '') !== '' && typeof get(b, 'record_version') === 'string',
    'refusal error.message is a string': () => typeof get(b, 'error.message') === 'string',
    'refusal limitations is an array': () => Array.isArray(get(b, 'limitations')),
  };
  if (httpStatus === 429) {
    sets['429 carries Retry-After (seconds)'] = (r) => retryAfterSeconds(r) !== null;
  }
  return check(res, sets, tags);
}

/**
 * Count a non-200 from traffic that expected 200 into `limit_refusals` or
 * `other_refusals`, tagged with the code. Returns the code (or null on 200).
 */
export function classify(res: Response, capability: Capability): string | null {
  if (res.status === 200) return null;
  const code = errorCode(res) ?? (res.status === 0 ? `network_${res.error_code}` : `http_${res.status}`);
  if (res.status === 429) limitRefusals.add(1, { code, capability });
  else otherRefusals.add(1, { code, capability });
  return code;
}
