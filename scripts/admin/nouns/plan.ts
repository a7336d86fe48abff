import type { PlanLimitsRow } from '@evidence-record/contract';
import { positional, type Noun } from '../cli';

interface PlanRow extends PlanLimitsRow {
  plan_id: string;
  name: string;
  self_service: boolean;
  description: string;
}

const planColumns = `plan_id, name, rate_per_minute, rate_per_hour, rate_per_day, budget_products, budget_signals,
  budget_ingredients, watch_limit, capabilities, self_service, description`;

export function describePlan(p: PlanRow): Record<string, unknown> {
  return {
    plan_id: p.plan_id,
    name: p.name,
    self_service: p.self_service,
    rate_windows: { minute: p.rate_per_minute, hour: p.rate_per_hour, day: p.rate_per_day },
    daily_budgets: { products: p.budget_products, signals: p.budget_signals, ingredients: p.budget_ingredients },
    watch_limit: p.watch_limit,
    capabilities: p.capabilities,
    description: p.description,
  };
}

/** Plans: rate windows, daily distinct-entity budgets, watch limit and entitled capabilities. */
export const plan: Noun = {
  noun: 'plan',
  summary: 'plans: windows, budgets, watch limit and entitled capabilities',
  verbs: {
    list: {
      usage: '',
      run: async ({ pool }) => {
        const { rows } = await pool.query<PlanRow>(`SELECT ${planColumns} FROM plans ORDER BY rate_per_minute, plan_id`);
        return { plans: rows.map(describePlan) };
      },
    },
    show: {
      usage: '<plan_id>',
      run: async ({ pool, flags }) => {
        const id = positional(flags, 0, 'plan_id');
        const { rows } = await pool.query<PlanRow>(`SELECT ${planColumns} FROM plans WHERE plan_id = $1`, [id]);
        if (!rows[0]) throw new Error(`no plan ${id}`);
        return { plan: describePlan(rows[0]) };
      },
    },
  },
};
