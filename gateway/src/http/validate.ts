import type { IncomingHttpHeaders } from 'node:http';
import { serviceOrigins, validationDetails, type Capability } from '@evidence-record/contract';
import type { CapabilityInput } from '../scoring/observe';
import { parseQuery } from './io';

export type Validation = { ok: true; input: CapabilityInput; origin: (typeof serviceOrigins)[number] } | { ok: false; details: Record<string, unknown> };

function problem(location: string, field: string, message: string): Record<string, unknown> {
  return { location, field, issues: [{ field, problem: message }] };
}

/** `application/json`, optionally with `charset=utf-8`; nothing else is a JSON body. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

/**
 * Checks a request against the capability's contract schemas before it is
 * forwarded: the attribution header, path parameters, query and body.
 * Refusals name the field in `details`.
 */
export function validateRequest(
  capability: Capability,
  params: Record<string, string>,
  url: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Validation {
  const originHeader = headers['x-service-origin'];
  let origin: (typeof serviceOrigins)[number] = 'api';
  if (originHeader !== undefined) {
    if (typeof originHeader !== 'string' || !(serviceOrigins as readonly string[]).includes(originHeader)) {
      return { ok: false, details: problem('header', 'x-service-origin', `must be one of ${serviceOrigins.join(', ')}`) };
    }
    origin = originHeader as (typeof serviceOrigins)[number];
  }

  const path = capability.params.safeParse(params);
  if (!path.success) return { ok: false, details: validationDetails(path.error.issues, 'path') };
  const query = capability.query.safeParse(parseQuery(url));
  if (!query.success) return { ok: false, details: validationDetails(query.error.issues, 'query') };

  if (!capability.body) {
    if (body.length > 0) return { ok: false, details: problem('body', 'body', 'this capability takes no request body') };
    return { ok: true, origin, input: { params: path.data as Record<string, unknown>, query: query.data as Record<string, unknown>, body: undefined } };
  }
  if (body.length === 0) return { ok: false, details: problem('body', 'body', 'a JSON body is required') };
  if (!isJsonContentType(headers['content-type'])) {
    return { ok: false, details: problem('header', 'content-type', 'must be application/json') };
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, details: problem('body', 'body', 'not valid JSON') };
  }
  const parsed = capability.body.safeParse(json);
  if (!parsed.success) return { ok: false, details: validationDetails(parsed.error.issues, 'body') };
  return {
    ok: true,
    origin,
    input: { params: path.data as Record<string, unknown>, query: query.data as Record<string, unknown>, body: parsed.data as Record<string, unknown> },
  };
}
