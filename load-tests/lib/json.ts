/** Reading responses without `any`: JSON bodies, paths into them, headers. */
import type { Response } from 'k6/http';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parse a response body as JSON; null when there is no body or it is not JSON. */
export function bodyJson(res: Response): Json | null {
  if (typeof res.body !== 'string' || res.body.length === 0) return null;
  try {
    return JSON.parse(res.body) as Json;
  } catch (_e) {
    return null;
  }
}

export function bodyObject(res: Response): JsonObject | null {
  const b = bodyJson(res);
  return isObject(b) ? b : null;
}

/** `get(obj, 'a.b.0.c')`: walks objects and arrays, undefined when absent. */
export function get(v: Json | null | undefined, path: string): Json | undefined {
  let cur: Json | null | undefined = v;
  for (const key of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      const i = parseInt(key, 10);
      cur = isFinite(i) ? cur[i] : undefined;
    } else if (typeof cur === 'object') {
      cur = cur[key];
    } else {
      return undefined;
    }
  }
  return cur === null ? null : cur;
}

export function getString(v: Json | null | undefined, path: string): string | undefined {
  const x = get(v, path);
  return typeof x === 'string' ? x : undefined;
}

export function getArray(v: Json | null | undefined, path: string): Json[] | undefined {
  const x = get(v, path);
  return Array.isArray(x) ? x : undefined;
}

/** Case-insensitive header lookup (k6 canonicalises names, e.g. `Ratelimit-Limit`). */
export function header(res: Response, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const k in res.headers) {
    if (k.toLowerCase() === wanted) return res.headers[k];
  }
  return undefined;
}

export function headerNames(res: Response): string[] {
  return Object.keys(res.headers);
}

export function hasNoCorsHeaders(res: Response): boolean {
  return headerNames(res).every((h) => h.toLowerCase().indexOf('access-control-') !== 0);
}

export function isNonNegativeInt(v: string | undefined): boolean {
  return v !== undefined && /^\d+$/.test(v.trim());
}

/** Retry-After in seconds (delta-seconds form), or null when absent/unparseable. */
export function retryAfterSeconds(res: Response): number | null {
  const v = header(res, 'Retry-After');
  if (v === undefined || !/^\d+$/.test(v.trim())) return null;
  return parseInt(v.trim(), 10);
}

export function errorCode(res: Response): string | undefined {
  return getString(bodyJson(res), 'error.code');
}
