/**
 * Rate-limit correctness: a constant arrival rate against ONE free-plan key.
 *
 * The free plan admits 30 requests a minute (then 500/hour, 2000/day). The
 * scenario sends RL_RATE requests a second for RL_DURATION (default 2/s for
 * 40 s = 80 requests) to get_record_version, which spends no daily budget, so
 * only the rate windows can refuse. setup() first sleeps to just past the next
 * UTC minute boundary, so every request lands in one minute window whether the
 * gateway uses calendar-aligned fixed windows or windows anchored on the first
 * request.
 *
 * Pass criteria (thresholds):
 *   admitted == RL_LIMIT (30)                 exactly the window's limit got 200
 *   rate_limited >= 1                          the rest got 429 rate_limited
 *   retry_after_missing == 0                   every 429 carried Retry-After
 *   unexpected_responses == 0                  nothing else came back
 *   checks == 100%                             envelopes / headers as specified
 *
 *   k6 run -e BASE_URL=... -e FREE_KEY=sk_... load-tests/scenarios/rate-limit.ts
 *
 * Use a key that has not been used in the current hour (the hour window is
 * 500, so about sixteen runs per hour per key), and run with ONE k6 instance
 * (k6-operator parallelism: 1): the limit is per key, not per runner.
 */
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import {
  Api,
  bodyJson,
  checkEnvelope,
  checkRefusal,
  config,
  envBool,
  envInt,
  envString,
  errorCode,
  header,
  isNonNegativeInt,
  rateLimitHeaderChecks,
  requireKey,
  retryAfterSeconds,
  sleepUntilNextMinute,
} from '../lib/common.ts';

const LIMIT = envInt('RL_LIMIT', 30);
const RATE = envInt('RL_RATE', 2);
const DURATION = envString('RL_DURATION', '40s');
const WINDOW_SECONDS = envInt('RL_WINDOW_SECONDS', 60);

const admitted = new Counter('admitted');
const rateLimited = new Counter('rate_limited');
const retryAfterMissing = new Counter('retry_after_missing');
const unexpected = new Counter('unexpected_responses');
const retryAfter = new Trend('retry_after_seconds');

export const options: Options = {
  setupTimeout: '120s',
  scenarios: {
    rate_limit: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(2, RATE * 2),
      maxVUs: Math.max(10, RATE * 5),
      gracefulStop: '10s',
    },
  },
  thresholds: {
    admitted: [`count==${LIMIT}`],
    rate_limited: ['count>=1'],
    retry_after_missing: ['count==0'],
    unexpected_responses: ['count==0'],
    retry_after_seconds: [`max<=${WINDOW_SECONDS}`, 'min>=1'],
    'checks{scenario:rate_limit}': ['rate==1'],
    // 429 is an expected answer here; anything else (5xx, network) is a failure.
    'http_req_failed{scenario:rate_limit}': ['rate==0'],
    // The executor must actually have sent more than the limit.
    dropped_iterations: ['count==0'],
  },
};

export function setup(): void {
  requireKey('FREE_KEY', config.freeKey);
  // Make the counters exist even if no sample of a kind arrives, so count==N is evaluated.
  admitted.add(0);
  rateLimited.add(0);
  retryAfterMissing.add(0);
  unexpected.add(0);
  if (envBool('RL_ALIGN_TO_MINUTE', true)) sleepUntilNextMinute(envInt('RL_ALIGN_OFFSET_SECONDS', 1));
}

const api = new Api(config.freeKey, { expectedStatuses: [429] });

export default function (): void {
  const res = api.getRecordVersion();
  if (res.status === 200) {
    admitted.add(1);
    checkEnvelope(res, 'get_record_version', 'lite');
    check(res, rateLimitHeaderChecks());
    return;
  }
  const code = errorCode(res);
  if (res.status === 429 && code === 'rate_limited') {
    rateLimited.add(1);
    checkRefusal(res, 429, 'rate_limited', { capability: 'get_record_version' });
    const ra = retryAfterSeconds(res);
    if (ra === null) retryAfterMissing.add(1);
    else retryAfter.add(ra);
    check(res, {
      '429 Retry-After within the minute window': () => ra !== null && ra >= 1 && ra <= WINDOW_SECONDS,
      '429 carries RateLimit-Remaining and RateLimit-Policy': (r) =>
        isNonNegativeInt(header(r, 'RateLimit-Remaining')) && (header(r, 'RateLimit-Policy') ?? '') !== '',
    });
    return;
  }
  unexpected.add(1, { status: String(res.status), code: code ?? 'none' });
  console.warn(`unexpected response: HTTP ${res.status} ${code ?? ''} ${JSON.stringify(bodyJson(res))}`.slice(0, 500));
}
