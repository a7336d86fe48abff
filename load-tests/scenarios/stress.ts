/**
 * Stress to saturation: the realistic mix under a ramping arrival rate,
 * stepping up (ramp, then hold) until the deployment stops meeting its SLOs.
 *
 *   k6 run -e BASE_URL=... -e API_KEY=sk_... load-tests/scenarios/stress.ts
 *   k6 run -e STRESS_STAGES=100:1m,100:3m,300:1m,300:3m,0:30s -e MAX_VUS=3000 ... load-tests/scenarios/stress.ts
 *
 * STRESS_STAGES is a comma list of target_rps:duration (k6 stages: the rate
 * moves linearly to the target over the duration, so "x:1m,x:2m" is ramp then
 * hold). Every request is tagged stress_stage=sNN_<target>rps, and each stage
 * has its own thresholds (mix p95/p99, error rate < 1 %). The first stage
 * whose thresholds fail is the saturation point; a failing exit code is the
 * expected result of a stress run that found it. Two guards abort the run once
 * the deployment is clearly past saturation (error rate > 10 % or p99 > 5 s,
 * evaluated after a minute), so a stress run does not turn into an outage.
 *
 * dropped_iterations > 0 means k6 ran out of VUs (MAX_VUS): raise it, or read
 * it as another sign of saturation (responses too slow to free VUs).
 */
import exec from 'k6/execution';
import type { Options } from 'k6/options';
import type { Threshold } from 'k6/options';
import {
  Api,
  MIX_SLO,
  capabilityThresholds,
  config,
  envInt,
  envSequence,
  latencyThresholds,
  loadSetup,
  mixCapabilities,
  mixFromEnv,
  mixedIteration,
  scaled,
} from '../lib/common.ts';
import type { Fixtures } from '../lib/common.ts';
import { parseStages, splitSequence, type Stage } from '../lib/lists.ts';

const MIX = mixFromEnv();

const DEFAULT_STAGES = '25:1m,25:2m,50:1m,50:2m,100:1m,100:2m,200:1m,200:2m,400:1m,400:2m,800:1m,800:2m,0:30s';

// A sequence, not a set: "100:1m,100:3m" is a ramp then a hold, and a repeated stage is run again.
const configured = envSequence('STRESS_STAGES');
const STAGES = parseStages(configured.length > 0 ? configured : splitSequence(DEFAULT_STAGES));
const peak = STAGES.reduce((m, s) => Math.max(m, s.target), 0);

function stageThresholds(): { [metric: string]: Threshold[] } {
  const out: { [metric: string]: Threshold[] } = {};
  for (const s of STAGES) {
    out[`http_req_duration{scenario:stress,stress_stage:${s.tag}}`] = latencyThresholds(MIX_SLO);
    out[`http_req_failed{scenario:stress,stress_stage:${s.tag}}`] = ['rate<0.01'];
  }
  return out;
}

export const options: Options = {
  setupTimeout: '120s',
  scenarios: {
    stress: {
      executor: 'ramping-arrival-rate',
      startRate: envInt('STRESS_START_RATE', 10),
      timeUnit: '1s',
      stages: STAGES.map((s) => ({ target: s.target, duration: s.duration })),
      preAllocatedVUs: envInt('PRE_VUS', 50),
      maxVUs: envInt('MAX_VUS', Math.max(200, peak * 3)),
    },
  },
  thresholds: {
    // Whole-run SLOs per capability (informational for a stress run).
    ...capabilityThresholds('stress', mixCapabilities(MIX), 0.05),
    ...stageThresholds(),
    // Guards: stop once clearly past saturation.
    'http_req_failed{scenario:stress}': ['rate<0.05', { threshold: 'rate<0.10', abortOnFail: true, delayAbortEval: '1m' }],
    'http_req_duration{scenario:stress}': [
      { threshold: `p(99)<${scaled(envInt('STRESS_ABORT_P99_MS', 5000))}`, abortOnFail: true, delayAbortEval: '1m' },
    ],
  },
};

export function setup(): Fixtures {
  return loadSetup();
}

const apis: { [tag: string]: Api } = {};
for (const s of STAGES) apis[s.tag] = new Api(config.apiKey, { tags: { stress_stage: s.tag } });
const lastStage = STAGES[STAGES.length - 1] as Stage;

function currentStage(): Stage {
  const elapsed = Date.now() - exec.scenario.startTime;
  for (const s of STAGES) if (elapsed < s.endsAtMs) return s;
  return lastStage;
}

export default function (f: Fixtures): void {
  mixedIteration(apis[currentStage().tag] as Api, f, MIX);
}
