/**
 * Sustained load: a constant arrival rate of realistic traffic for a fixed
 * time. Each iteration is one capability call chosen by weight (see
 * DEFAULT_MIX in lib/common.ts: resolve 20, product record 18, signals feed
 * 14, record version 12, economics 10, history 8, compare 6, research 6,
 * regulatory 6; override with MIX=op=weight,...).
 *
 *   k6 run -e BASE_URL=... -e API_KEY=sk_... load-tests/scenarios/sustained.ts
 *   k6 run -e RATE=100 -e DURATION=30m ... load-tests/scenarios/sustained.ts
 *
 * SLOs (thresholds): error rate < 1 %, checks > 99 %, per-capability p95/p99
 * from SLO_MS (scaled by SLO_SCALE), and no limit refusals at all: API_KEY
 * must be on a plan whose windows and budgets exceed the profile.
 */
import type { Options } from 'k6/options';
import {
  Api,
  capabilityThresholds,
  config,
  envInt,
  envString,
  loadSetup,
  mixCapabilities,
  mixFromEnv,
  mixedIteration,
} from '../lib/common.ts';
import type { Fixtures } from '../lib/common.ts';

const RATE = envInt('RATE', 20);
const MIX = mixFromEnv();

export const options: Options = {
  setupTimeout: '120s',
  scenarios: {
    sustained: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: envString('DURATION', '10m'),
      preAllocatedVUs: envInt('PRE_VUS', Math.max(10, RATE)),
      maxVUs: envInt('MAX_VUS', Math.max(50, RATE * 5)),
    },
  },
  thresholds: {
    ...capabilityThresholds('sustained', mixCapabilities(MIX), 0.01),
    limit_refusals: ['count==0'],
    // k6 could not start iterations on time: the load generator, not the API, is the bottleneck.
    dropped_iterations: [`count<${Math.max(1, Math.floor(RATE * 0.01 * 60))}`],
  },
};

export function setup(): Fixtures {
  return loadSetup();
}

const api = new Api(config.apiKey);

export default function (f: Fixtures): void {
  mixedIteration(api, f, MIX);
}
