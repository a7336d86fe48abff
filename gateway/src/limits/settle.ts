import type { RedisClient } from '@evidence-record/platform';
import type { CostKind } from '@evidence-record/contract';
import { budgetKey, scoreKeys, utcDay, utcDayNumber } from '../keyspace';
import type { PlanLimits } from '../access/key-record';
import type { Observation } from '../scoring/observe';
import type { ScoringPolicy } from '../scoring/policy';
import type { ExtractionScore } from '../scoring/score';
import type { GatewayScripts } from './scripts';

export type SettleOutcome = 'deliver' | 'over_budget' | 'cool_down' | 'suspend';

export interface Settlement extends ExtractionScore {
  outcome: SettleOutcome;
  /** Budget units charged by this answer (0 unless delivered). */
  spent: number;
  /** Units of the organisation's budget of this kind used today, after this answer. */
  used: number;
  limit: number | null;
  /** Over budget: how many of the entities, as a prefix in the order sent, fit what is left today (0: nothing does). */
  fits: number;
  /** How many of the entities were not yet named today. */
  fresh: number;
}

/** Daily sets outlive their day by a day, so a request at 23:59:59 still finds them. */
const DAILY_SET_TTL_SECONDS = 2 * 24 * 60 * 60;

// The policy travels to the script as JSON; it is serialised once per policy, not per request.
const policyJson = new WeakMap<ScoringPolicy, string>();
function serialised(policy: ScoringPolicy): string {
  let json = policyJson.get(policy);
  if (json === undefined) {
    json = JSON.stringify(policy);
    policyJson.set(policy, json);
  }
  return json;
}

export function budgetLimit(plan: PlanLimits, kind: CostKind): number | null {
  return kind === 'nothing' ? null : plan.budgets[kind];
}

/**
 * The one Redis round trip after the upstream answered: budget charge and
 * extraction score together (scripts.ts SETTLE_LUA).
 */
export async function settleAnswer(
  redis: RedisClient & GatewayScripts,
  prefix: string,
  args: {
    orgId: string;
    keyId: string;
    kind: CostKind;
    plan: PlanLimits;
    entities: string[];
    observation: Observation | null;
    policy: ScoringPolicy;
    now: number;
  },
): Promise<Settlement> {
  const day = utcDay(args.now);
  const limit = budgetLimit(args.plan, args.kind);
  const keys = scoreKeys(prefix, args.orgId, args.keyId, day);
  const obs = args.observation;
  const r = await redis.erSettle(
    budgetKey(prefix, args.orgId, day, args.kind),
    keys.state,
    keys.notFound,
    keys.identifiers,
    keys.windows,
    keys.exhaustedDays,
    args.now,
    utcDayNumber(args.now),
    limit ?? -1,
    DAILY_SET_TTL_SECONDS,
    obs?.kind ?? '',
    obs?.value ?? '',
    obs?.kind === 'since' ? obs.filter : '',
    serialised(args.policy),
    ...(limit === null ? [] : args.entities),
  );
  return {
    outcome: r[0] as SettleOutcome,
    spent: Number(r[1]),
    used: Number(r[2]),
    limit,
    score: Number(r[3]),
    points: Number(r[4]),
    reasons: r[5] ? r[5].split(',') : [],
    evidence: JSON.parse(r[6]) as Record<string, unknown>,
    fits: Number(r[7]),
    fresh: Number(r[8]),
  };
}
