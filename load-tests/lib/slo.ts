/**
 * Latency SLOs per capability (milliseconds, before SLO_SCALE) and the
 * threshold builders the scenarios use (load-tests/README.md, SLO thresholds).
 */
import type { Threshold } from 'k6/options';
import { config } from './config.ts';
import type { Capability } from './contract.ts';

export interface Slo {
  p95: number;
  p99: number;
}

/**
 * Each capability's own SLO. A capability not named here (one added to the
 * contract since) is held to the mix's SLO (sloOf) until it is given one.
 */
export const SLO_MS = {
  health: { p95: 100, p99: 250 },
  openapi: { p95: 300, p99: 800 },
  search_record: { p95: 400, p99: 1000 },
  resolve_product: { p95: 300, p99: 800 },
  get_product_record: { p95: 300, p99: 800 },
  get_formula_history: { p95: 400, p99: 1000 },
  explain_signal: { p95: 300, p99: 800 },
  list_signal_changes: { p95: 400, p99: 1000 },
  compare_products: { p95: 500, p99: 1200 },
  get_serving_economics: { p95: 300, p99: 800 },
  get_research_context: { p95: 400, p99: 1000 },
  get_regulatory_context: { p95: 400, p99: 1000 },
  get_category_snapshot: { p95: 500, p99: 1200 },
  list_ledger_editions: { p95: 300, p99: 800 },
  get_ledger_edition: { p95: 500, p99: 1200 },
  list_watched_products: { p95: 300, p99: 800 },
  watch_product: { p95: 400, p99: 1000 },
  unwatch_product: { p95: 400, p99: 1000 },
  get_watch_receipt: { p95: 400, p99: 1000 },
  get_record_version: { p95: 150, p99: 400 },
} satisfies { [c in Capability]?: Slo };

/** The whole realistic mix (any capability), for per-phase and per-stage thresholds. */
export const MIX_SLO: Slo = { p95: 400, p99: 1000 };

/** An MCP `tools/call` goes MCP service -> gateway -> capability, so it gets its own, looser SLO. */
export const MCP_TOOLS_CALL_SLO: Slo = { p95: 600, p99: 1500 };
export const MCP_PROTOCOL_SLO: Slo = { p95: 200, p99: 500 };

export function sloOf(c: Capability): Slo {
  const own: { [c in Capability]?: Slo } = SLO_MS;
  return own[c] ?? MIX_SLO;
}

export function scaled(ms: number): number {
  return Math.round(ms * config.sloScale);
}

export function latencyThresholds(slo: Slo): Threshold[] {
  return [`p(95)<${scaled(slo.p95)}`, `p(99)<${scaled(slo.p99)}`];
}

/**
 * `http_req_duration{scenario:S,capability:C}` p95/p99 for each capability,
 * plus an overall error-rate SLO for the scenario.
 */
export function capabilityThresholds(
  scenario: string,
  capabilities: Capability[],
  maxErrorRate: number,
): { [metric: string]: Threshold[] } {
  const out: { [metric: string]: Threshold[] } = {
    [`http_req_failed{scenario:${scenario}}`]: [`rate<${maxErrorRate}`],
    [`checks{scenario:${scenario}}`]: [`rate>${1 - maxErrorRate}`],
  };
  for (const c of capabilities) {
    out[`http_req_duration{scenario:${scenario},capability:${c}}`] = latencyThresholds(sloOf(c));
  }
  return out;
}
