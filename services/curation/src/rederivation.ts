import type { PoolClient } from '@evidence-record/platform';
import type { LabelInput } from './bundle';
import { contentOf, insertDeclaredLines } from './captures';
import { labelOf, rederivesTheSame, type LabelContent } from './labels';

/**
 * A state read again from the label bytes it was read from (decision 1400).
 * The bytes have not changed, so the label has not: what changed is how the
 * Record reads them (a declared 0 read as zero, a unit as the label prints
 * it, a field it used to refuse). The state keeps its id, dates, readings,
 * candidates and Signals; its declared content is replaced by the current
 * reading and what it was is kept in state_rederivations. Never a new state,
 * never a candidate. Inside the caller's Record change.
 */
export async function rederiveStateIn(
  client: PoolClient,
  stateId: string,
  label: LabelInput,
  audit: { evidence_sha256: string; by: string },
): Promise<{ rederived: boolean; before: LabelContent; after: LabelContent }> {
  const before = await labelOf(client, stateId);
  const after = contentOf(label);
  if (rederivesTheSame(before, after)) return { rederived: false, before, after };
  await client.query('DELETE FROM declared_ingredients WHERE state_id = $1', [stateId]);
  await client.query('DELETE FROM declared_blends WHERE state_id = $1', [stateId]);
  await client.query(
    `UPDATE history_states SET classification = $2, serving_size = $3, serving_unit = $4, servings_per_container = $5,
            serving_description = $6, off_market = $7, other_servings = $8, net_contents = $9
      WHERE state_id = $1`,
    [
      stateId,
      label.classification,
      label.serving?.size ?? null,
      label.serving?.unit ?? null,
      label.serving?.servings_per_container ?? null,
      label.serving?.description ?? null,
      label.off_market,
      JSON.stringify(label.other_servings),
      JSON.stringify(label.net_contents),
    ],
  );
  await insertDeclaredLines(client, stateId, label);
  await client.query(`INSERT INTO state_rederivations (state_id, evidence_sha256, before, after, rederived_by) VALUES ($1, $2, $3, $4, $5)`, [
    stateId,
    audit.evidence_sha256,
    JSON.stringify(before),
    JSON.stringify(after),
    audit.by,
  ]);
  return { rederived: true, before, after };
}
