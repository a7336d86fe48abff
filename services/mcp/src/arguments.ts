import { validationDetails } from '@evidence-record/contract';
import type { ArgumentLocation, ToolDefinition } from './tools';

/** A tool call's arguments, split back into the REST request they stand for. */
export interface RestRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the gateway, with path parameters filled in and the query string attached. */
  path: string;
  body: Record<string, unknown> | null;
}

export interface ArgumentProblem {
  field: string;
  issues: { field: string; problem: string }[];
}

export type ArgumentsResult = { ok: true; request: RestRequest } | { ok: false; problem: ArgumentProblem };

/**
 * Validates a tool's arguments with the capability's own request schemas
 * (path, query and body, each strict) and builds the REST request. An
 * argument that belongs to no part is refused by name, like an unknown
 * property in a REST body.
 */
export function toRestRequest(tool: ToolDefinition, args: Record<string, unknown>): ArgumentsResult {
  const split: Record<ArgumentLocation, Record<string, unknown>> = { path: {}, query: {}, body: {} };
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    const part = tool.parts.find((p) => p.keys.includes(key));
    if (part) split[part.location][key] = value;
    else unknown.push(key);
  }
  if (unknown.length > 0) {
    return {
      ok: false,
      problem: { field: unknown[0]!, issues: unknown.map((field) => ({ field, problem: 'unknown argument' })) },
    };
  }

  const parsed: Record<ArgumentLocation, Record<string, unknown>> = { path: {}, query: {}, body: {} };
  for (const part of tool.parts) {
    const result = part.schema.safeParse(split[part.location]);
    if (!result.success) {
      const details = validationDetails(result.error.issues, part.location) as unknown as ArgumentProblem;
      return { ok: false, problem: { field: details.field, issues: details.issues } };
    }
    parsed[part.location] = result.data as Record<string, unknown>;
  }

  const { capability } = tool;
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
