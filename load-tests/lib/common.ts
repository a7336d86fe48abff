/**
 * The scenarios' one import: every helper of the Evidence Record k6
 * scenarios, each concern in its own module beside this one.
 *
 * - config.ts: configuration from the environment (`__ENV`),
 * - contract.ts: the operations, their MCP tools and the envelope constants,
 *   from the contract (capabilities.ts is generated from its capability modules),
 * - api.ts: the REST client (tagged `capability` + a low-cardinality `name`),
 * - json.ts, dates.ts: reading responses, dates,
 * - checks.ts: envelope / refusal / header checks and the refusal counters,
 * - fixtures.ts: fixture discovery (product ids, names, Signal ids) with env overrides,
 * - mix.ts: the realistic capability mix shared by the sustained, stress and soak scenarios,
 * - slo.ts: SLO thresholds per capability,
 * - mcp.ts: MCP requests and their checks.
 *
 * Written for k6's own TypeScript support: only `k6/*` imports and relative
 * ones inside load-tests, no Node APIs, ES2020 syntax, `import type` for
 * anything that is only a type.
 */
export { durationMs } from './lists.ts';
export * from './api.ts';
export * from './checks.ts';
export * from './config.ts';
export * from './contract.ts';
export * from './dates.ts';
export * from './fixtures.ts';
export * from './json.ts';
export * from './mcp.ts';
export * from './mix.ts';
export * from './slo.ts';
