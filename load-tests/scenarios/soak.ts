/**
 * Soak: the realistic mix at a constant, moderate rate for a long time, to
 * surface leaks, connection-pool exhaustion, Redis key growth and slow drift.
 * The default is short (SOAK_DURATION=30m) so it fits a CI slot; a real soak
 * is SOAK_DURATION=4h or longer.
 *
 *   k6 run -e BASE_URL=... -e API_KEY=sk_... -e SOAK_RATE=15 -e SOAK_DURATION=4h load-tests/scenarios/soak.ts
 *
 * Requests are tagged soak_phase=warmup (first 10 %), steady, or final (last
 * 20 %). Besides the per-capability SLOs over the whole run, the final phase
 * alone must still meet the p95/p99 of the whole mix: latency that creeps up
 * over hours fails the run even when the overall percentile hides it.
 */
import exec from 'k6/execution';
import type { Options } from 'k6/options';
import {
  Api,
  MIX_SLO,
  capabilityThresholds,
  config,
  envInt,
  envString,
  latencyThresholds,
  loadSetup,
  mixCapabilities,
  mixFromEnv,
  mixedIteration,
} from '../lib/common.ts';
import type { Fixtures } from '../lib/common.ts';

const RATE = envInt('SOAK_RATE', 10);
const MIX = mixFromEnv();

export const options: Options = {
  setupTimeout: '120s',
  scenarios: {
    soak: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: envString('SOAK_DURATION', '30m'),
      preAllocatedVUs: envInt('PRE_VUS', Math.max(10, RATE)),
      maxVUs: envInt('MAX_VUS', Math.max(50, RATE * 5)),
    },
  },
  thresholds: {
    ...capabilityThresholds('soak', mixCapabilities(MIX), 0.005),
    'http_req_duration{scenario:soak,soak_phase:final}': latencyThresholds(MIX_SLO),
    'http_req_failed{scenario:soak,soak_phase:final}': ['rate<0.005'],
    limit_refusals: ['count==0'],
    dropped_iterations: ['count==0'],
  },
};

export function setup(): Fixtures {
  return loadSetup();
}

const apis = {
  warmup: new Api(config.apiKey, { tags: { soak_phase: 'warmup' } }),
  steady: new Api(config.apiKey, { tags: { soak_phase: 'steady' } }),
  final: new Api(config.apiKey, { tags: { soak_phase: 'final' } }),
};

export default function (f: Fixtures): void {
  const p = exec.scenario.progress;
  const api = p < 0.1 ? apis.warmup : p >= 0.8 ? apis.final : apis.steady;
  mixedIteration(api, f, MIX);
}
