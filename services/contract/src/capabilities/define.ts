import type { z } from 'zod';
import type { ErrorCode } from '../errors';
import type { Scope } from '../scopes';

export type CostKind = 'product' | 'signal' | 'ingredient' | 'nothing';
export type ServiceName = 'record' | 'signals' | 'ledger' | 'watch';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** The envelope fields whose shape depends on the capability (answers.ts). */
export const answerObjectFields = ['coverage', 'comparison', 'ledger', 'watch'] as const;
export type AnswerObjectField = (typeof answerObjectFields)[number];

/** A query or path parameter as the OpenAPI document describes it. */
export interface ParameterDoc {
  description: string;
  example: unknown;
  default?: unknown;
  /** The schema's `format` (e.g. YYYY-MM). */
  format?: string;
}

/** What the MCP tool says beyond the row's one-line description (services/mcp/src/tools.ts builds the tool from it). */
export interface McpGuidance {
  title: string;
  /** What to do with the answer, beyond the contract's one-line description. */
  use: string;
  /** One description per argument; every argument of the request schemas must have one, and no other. */
  arguments: Record<string, string>;
}

/**
 * One capability, whole: its row (name, method, path, scope, cost, service,
 * MCP tool, description), its request schemas, the answer objects it fills,
 * the refusals its handler answers, whether the gateway may shorten its page,
 * its examples for the OpenAPI document and its MCP tool guidance. One
 * module under capabilities/ defines each; the capability table, the OpenAPI
 * document, the MCP tool list, the gateway's paging and the load tests'
 * client are derived from these (README, "Adding a capability").
 *
 * Generic in its name, service and three schemas, so that a handler mounted
 * on it receives exactly the params, query and body those schemas produce
 * (CapabilityInput), not `any`.
 */
export interface Capability<
  N extends string = string,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType | null = z.ZodType | null,
  S extends ServiceName = ServiceName,
> {
  name: N;
  method: HttpMethod;
  /** Express-style path with :params, under /api/v1. */
  path: string;
  scope: Scope;
  cost: CostKind;
  service: S;
  /** MCP tool name (spec: MCP endpoint). */
  tool: string;
  /** One line a person or a model can act on. */
  description: string;
  readOnly: boolean;
  params: P;
  query: Q;
  body: B;
  /** The answer objects it fills, by envelope field, and their shape; a field not named is never filled. */
  answer: Partial<Record<AnswerObjectField, z.ZodType>>;
  /**
   * Refusals its handler answers besides the gateway's own checks, in the
   * order the document lists them. The not-found rule: `not_found` when the
   * request names an id (path or body) the Record does not hold, and only then.
   */
  refusals: readonly ErrorCode[];
  /**
   * It answers a page of Signals that the gateway may ask again, shorter, to
   * fit the organisation's budget, with a cursor to the rest (decision 0312).
   */
  paged: boolean;
  /** The OpenAPI document's examples: the request body (when it takes one) and the answer's own fields. */
  examples: { request?: unknown; answer: Record<string, unknown> };
  /** Its path and query parameters the document describes here rather than by their shared name (openapi.ts). */
  parameters?: Record<string, ParameterDoc>;
  mcp: McpGuidance;
}

/** A capability module's one export: the definition, with its name and service kept as literal types. */
export function defineCapability<
  const N extends string,
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType | null,
  const S extends ServiceName,
>(definition: Capability<N, P, Q, B, S>): Capability<N, P, Q, B, S> {
  return definition;
}
