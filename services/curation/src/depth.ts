import { monitoredSourceKinds } from '@evidence-record/contract';
import type { PoolClient } from '@evidence-record/platform';

/**
 * A product's depth class follows its states and sources (decision 1001):
 * REGISTERED while it has no comparable label state; CAPTURED once it has
 * one; TRACKED while, in addition, at least one of its sources is actively
 * monitored (an active source of a kind the monitor reads: the contract's
 * monitoredSourceKinds). Pausing the last monitored source moves it back to
 * CAPTURED; nothing moves it back to REGISTERED, because a comparable state
 * is never deleted. A capture import
 * only ever promotes a REGISTERED product (onlyFromRegistered): the depth of
 * products seeded before this rule is left as it was until their sources change.
 */
export async function refreshDepth(client: PoolClient, productId: string, opts: { onlyFromRegistered?: boolean } = {}): Promise<string | null> {
  const { rows } = await client.query<{ depth_class: string }>(
    `UPDATE products p SET depth_class = d.depth
       FROM (SELECT CASE
                      WHEN NOT EXISTS (SELECT 1 FROM history_states h WHERE h.product_id = $1 AND h.classification = 'comparable') THEN 'REGISTERED'
                      WHEN EXISTS (SELECT 1 FROM sources s WHERE s.product_id = $1 AND s.state = 'active' AND s.next_check_due IS NOT NULL
                                      AND s.kind = ANY($3::text[])) THEN 'TRACKED'
                      ELSE 'CAPTURED' END AS depth) d
      WHERE p.product_id = $1 AND p.depth_class IS DISTINCT FROM d.depth AND (NOT $2 OR p.depth_class = 'REGISTERED')
      RETURNING p.depth_class`,
    [productId, opts.onlyFromRegistered ?? false, monitoredSourceKinds],
  );
  return rows[0]?.depth_class ?? null;
}
