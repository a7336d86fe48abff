import type { IncomingHttpHeaders } from 'node:http';
import { isJsonContentType, isServiceOrigin, serviceOriginProblem, validationDetails, type Capability, type ServiceOrigin } from '@evidence-record/contract';
import type { CapabilityInput } from '../scoring/observe';
import { parseQuery } from './io';

export type Validation = { ok: true; input: CapabilityInput; origin: ServiceOrigin } | { ok: false; details: Record<string, unknown> };

function problem(location: string, field: string, message: string): Record<string, unknown> {
  return { location, field, issues: [{ field, problem: message }] };
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
  let origin: ServiceOrigin = 'api';
  if (originHeader !== undefined) {
    if (!isServiceOrigin(originHeader)) return { ok: false, details: problem('header', 'x-service-origin', serviceOriginProblem) };
    origin = originHeader;
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
