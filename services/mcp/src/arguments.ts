import type { z } from 'zod';
import { validationDetails } from '@evidence-record/contract';
import type { ArgumentLocation, ToolDefinition } from './tools';

/** A tool call's arguments, split back into the REST request they stand for. */
export interface RestRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the gateway, with path parameters filled in and the query string attached. */
  path: string;
  body: Record<string, unknown> | null;
}

/** An argument failure, described exactly as the gateway describes the same REST request's (`error.details`). */
export interface ArgumentProblem {
  location: ArgumentLocation;
  field: string;
  issues: { field: string; problem: string }[];
}

export type ArgumentsResult = { ok: true; request: RestRequest } | { ok: false; problem: ArgumentProblem };

/**
 * Validates a tool's arguments with the capability's own request schemas,
 * in the gateway's order (path, query, body; each strict), and builds the
 * REST request. An argument that belongs to no part goes where the same
 * REST request would carry it (the body of a capability that takes one,
 * otherwise the query string), so that it is refused as the gateway refuses
 * an unknown property: same location, field and problem.
 */
export function toRestRequest(tool: ToolDefinition, args: Record<string, unknown>): ArgumentsResult {
  const { capability } = tool;
  const split: Record<ArgumentLocation, Record<string, unknown>> = { path: {}, query: {}, body: {} };
  const strayLocation: ArgumentLocation = capability.body ? 'body' : 'query';
  for (const [key, value] of Object.entries(args)) {
    const part = tool.parts.find((p) => p.keys.includes(key));
    split[part ? part.location : strayLocation][key] = value;
  }

  const parsed: Record<ArgumentLocation, Record<string, unknown>> = { path: {}, query: {}, body: {} };
  const schemas: [ArgumentLocation, z.ZodType | null][] = [
    ['path', capability.params],
    ['query', capability.query],
    ['body', capability.body],
  ];
  for (const [location, schema] of schemas) {
    if (!schema) continue;
    const result = schema.safeParse(split[location]);
    if (!result.success) {
      const details = validationDetails(result.error.issues, location) as unknown as ArgumentProblem;
      return { ok: false, problem: { location, field: details.field, issues: details.issues } };
    }
    parsed[location] = result.data as Record<string, unknown>;
  }

  const path = capability.path.replace(/:([a-z_]+)/g, (_m, name: string) => encodeURIComponent(String(parsed.path[name])));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(parsed.query)) {
    if (value !== undefined) query.set(key, String(value));
  }
  const search = query.toString();
  return {
    ok: true,
    request: {
      method: capability.method,
      path: search ? `${path}?${search}` : path,
      body: capability.body ? parsed.body : null,
    },
  };
}
