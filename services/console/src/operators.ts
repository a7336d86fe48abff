import type { Pool } from '@evidence-record/platform';
import type { Operator } from '@evidence-record/curation';

/**
 * What the console keeps of its operators: the log of their actions. Their
 * accounts and credentials (add, sign-in check, list, disable, enable) are
 * the curation library's (services/curation/src/operators.ts), shared with
 * the operator CLI (decision 2250).
 */
export type { Operator };

export async function recordAction(
  pool: Pool,
  op: Operator,
  action: string,
  target: string | null,
  outcome: 'done' | 'refused',
  detail: Record<string, unknown> = {},
): Promise<void> {
  await pool.query('INSERT INTO console_actions (operator_id, operator_name, action, target, outcome, detail) VALUES ($1, $2, $3, $4, $5, $6)', [
    op.operator_id,
    op.name,
    action,
    target,
    outcome,
    JSON.stringify(detail),
  ]);
}
