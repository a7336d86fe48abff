/**
 * Daily distinct-entity budget correctness for ONE free-plan organization.
 *
 * The free plan admits 15 distinct products per UTC day. One VU asks
 * get_product_record for BUDGET_LIMIT + BUDGET_EXTRA distinct product ids
 * (default 15 + 3), one at a time and paced under the 30/minute rate window:
 *
 *   - the first 15 distinct ids must answer 200,
 *   - every further distinct id must answer 429 extraction_limit_reached with
 *     a Retry-After no later than the next UTC midnight,
 *   - asking again for ids already admitted today must still answer 200
 *     (naming the same entity again costs nothing more).
 *
 * The ids come from PRODUCT_IDS, PRODUCT_NAMES (resolved) or the Signal feed,
 * always read with API_KEY, never with the key under test. The budget key is
 * BUDGET_KEY, falling back to FREE_KEY; its organization must not have named
 * any product yet today (UTC). Run with ONE k6 instance.
 *
 *   k6 run -e BASE_URL=... -e API_KEY=sk_... -e BUDGET_KEY=sk_... load-tests/scenarios/budget.ts
 */
import { check, fail, sleep } from 'k6';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import {
  Api,
  checkEnvelope,
  checkRefusal,
  config,
  discoverFixtures,
  envFloat,
  envInt,
  errorCode,
  requireKey,
  retryAfterSeconds,
  secondsUntilUtcMidnight,
} from '../lib/common.ts';

const LIMIT = envInt('BUDGET_LIMIT', 15);
const EXTRA = envInt('BUDGET_EXTRA', 3);
const REPEATS = envInt('BUDGET_REPEATS', 2);
/** Seconds between requests; 2.1 keeps a free key under 30/minute. */
const PACE = envFloat('BUDGET_PACE_SECONDS', 2.1);
/** Allowed clock difference between this machine and the gateway, for the Retry-After bound. */
const SKEW = envInt('BUDGET_CLOCK_SKEW_SECONDS', 120);

const admittedDistinct = new Counter('budget_admitted_distinct');
const refusedDistinct = new Counter('budget_refused_distinct');
const earlyRefusals = new Counter('budget_early_refusals');
const overAdmitted = new Counter('budget_over_admitted');
const repeatAdmitted = new Counter('budget_repeat_admitted');
const retryAfterMissing = new Counter('budget_retry_after_missing');
const unexpected = new Counter('budget_unexpected_responses');

export const options: Options = {
  setupTimeout: '120s',
  scenarios: {
    budget: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: '15m',
    },
  },
  thresholds: {
    budget_admitted_distinct: [`count==${LIMIT}`],
    budget_refused_distinct: [`count==${EXTRA}`],
    budget_early_refusals: ['count==0'],
    budget_over_admitted: ['count==0'],
    budget_repeat_admitted: [`count==${REPEATS}`],
    budget_retry_after_missing: ['count==0'],
    budget_unexpected_responses: ['count==0'],
    'checks{scenario:budget}': ['rate==1'],
    'http_req_failed{scenario:budget}': ['rate==0'],
  },
};

interface BudgetData {
  productIds: string[];
}

export function setup(): BudgetData {
  const budgetKey = requireKey('BUDGET_KEY', config.budgetKey);
  const apiKey = requireKey('API_KEY', config.apiKey);
  if (budgetKey === apiKey) fail('BUDGET_KEY/FREE_KEY must be a free-plan key different from API_KEY');
  for (const c of [admittedDistinct, refusedDistinct, earlyRefusals, overAdmitted, repeatAdmitted, retryAfterMissing, unexpected]) {
    c.add(0);
  }
  const need = LIMIT + EXTRA;
  const f = discoverFixtures(apiKey, need, 0);
  if (f.productIds.length < need) {
    fail(
      `need ${need} distinct product ids, found ${f.productIds.length}: pass PRODUCT_IDS (comma list), ` +
        'PRODUCT_NAMES, or raise DISCOVERY_MAX_PAGES',
    );
  }
  return { productIds: f.productIds.slice(0, need) };
}

export default function (data: BudgetData): void {
  const api = new Api(config.budgetKey, { expectedStatuses: [429] });
  const admittedIds: string[] = [];

  data.productIds.forEach((id, i) => {
    if (i > 0) sleep(PACE);
    const res = api.getProductRecord(id);
    const code = errorCode(res);
    const withinBudget = i < LIMIT;

    if (res.status === 200) {
      checkEnvelope(res, 'get_product_record', 'lite');
      if (withinBudget) {
        admittedDistinct.add(1);
        admittedIds.push(id);
      } else {
        overAdmitted.add(1);
        console.error(`distinct product #${i + 1} was admitted; the budget is ${LIMIT}`);
      }
      return;
    }

    if (res.status === 429 && code === 'extraction_limit_reached') {
      checkRefusal(res, 429, 'extraction_limit_reached', { capability: 'get_product_record' });
      const ra = retryAfterSeconds(res);
      if (ra === null) retryAfterMissing.add(1);
      check(res, {
        'extraction_limit_reached Retry-After points at the next UTC day': () =>
          ra !== null && ra >= 1 && ra <= secondsUntilUtcMidnight() + SKEW,
      });
      if (withinBudget) {
        earlyRefusals.add(1);
        console.error(
          `distinct product #${i + 1} was refused; the organization probably named products earlier today (UTC)`,
        );
      } else {
        refusedDistinct.add(1);
      }
      return;
    }

    unexpected.add(1, { status: String(res.status), code: code ?? 'none' });
    console.error(`distinct product #${i + 1}: unexpected HTTP ${res.status} ${code ?? ''}`);
  });

  // Naming an entity already admitted today spends nothing, even with the budget spent.
  for (let r = 0; r < REPEATS; r++) {
    const id = admittedIds[r];
    if (id === undefined) break;
    sleep(PACE);
    const res = api.getProductRecord(id);
    if (res.status === 200) {
      repeatAdmitted.add(1);
      checkEnvelope(res, 'get_product_record', 'lite');
    } else {
      unexpected.add(1, { status: String(res.status), code: errorCode(res) ?? 'none', phase: 'repeat' });
      console.error(`repeat of an admitted product was refused: HTTP ${res.status} ${errorCode(res) ?? ''}`);
    }
  }
}
