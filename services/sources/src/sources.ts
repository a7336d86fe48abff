import { z } from 'zod';
import { CurationRefused, refreshDepth } from '@evidence-record/curation';
import { ProductId } from '@evidence-record/contract';
import { withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { AddressRefused, checkSourceUrl, type Resolver } from './guard';
import { kindOf, sourceKinds } from './kinds';
import type { SourcePolicy } from './kinds/kind';
import { LEASE_ENDED } from './leases';

export type { SourcePolicy } from './kinds/kind';

/**
 * Sources of a product, kept in the Record, and how an operator adds, lists,
 * pauses and resumes them. A source URL passes the SSRF guard when it is
 * added (and again at every fetch), and its kind's own rule (kinds/*.ts).
 */

/** A cadence (30m, 12h, 7d) in milliseconds. */
export const Every = z
  .string()
  .regex(/^\d+(m|h|d)$/, 'a cadence is a number of minutes, hours or days: 30m, 12h, 7d')
  .transform((v) => {
    const n = Number(v.slice(0, -1));
    return v.endsWith('m') ? n * 60_000 : v.endsWith('h') ? n * 3_600_000 : n * 86_400_000;
  })
  .refine((ms) => ms >= 60_000 && ms <= 366 * 86_400_000, 'a cadence is between 1 minute and 366 days');

export const AddSourceInput = z.strictObject({
  product_id: ProductId,
  kind: z.enum(sourceKinds),
  url: z.string().trim().min(8).max(2000),
  every: Every.prefault('7d'),
  retailer: z.string().trim().min(1).max(120).nullable().default(null),
  /** An offer page's variant: the sku, GTIN or MPN the page gives the offer this source is (decision 1008). */
  variant: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .regex(/^[\x21-\x7e]+$/, 'a variant is a sku, GTIN or MPN: printable characters without spaces')
    .nullable()
    .default(null),
  added_by: z.string().trim().min(1).max(120).default('operator'),
});

export interface SourceView {
  source_id: number;
  product_id: string;
  kind: string;
  url: string;
  variant: string | null;
  next_check_due: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** host:port, the unit of politeness. */
export function hostKey(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

export async function addSource(
  pool: Pool,
  input: z.input<typeof AddSourceInput>,
  policy: SourcePolicy,
  resolve?: Resolver,
): Promise<SourceView & { record_version: string | null }> {
  const parsed = AddSourceInput.safeParse(input);
  if (!parsed.success) throw new CurationRefused(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '), 'invalid_input');
  const s = parsed.data;
  let url: URL;
  try {
    url = await checkSourceUrl(s.url, policy, resolve);
  } catch (err) {
    if (err instanceof AddressRefused) throw new CurationRefused(err.message, err.code);
    throw err;
  }
  kindOf(s.kind).admit?.(url, policy);
  if (s.variant !== null && s.kind !== 'offer_page') throw new CurationRefused(`a ${s.kind} source reads the whole source: only an offer_page source names a variant`, 'invalid_input');
  const { result, record_version } = await withRecordChange(pool, `source added to ${s.product_id}`, async (client) => {
    const product = await client.query('SELECT 1 FROM products WHERE product_id = $1', [s.product_id]);
    if (!product.rowCount) throw new CurationRefused(`product ${s.product_id} does not exist`, 'not_found');
    // One page may be several sources of a product only as different variants (a size each, say).
    const dup = await client.query<{ source_id: number }>('SELECT source_id FROM sources WHERE product_id = $1 AND url = $2 AND variant IS NOT DISTINCT FROM $3', [s.product_id, url.toString(), s.variant]);
    if (dup.rows[0]) throw new CurationRefused(`product ${s.product_id} already has source ${dup.rows[0].source_id} at ${url.toString()}${s.variant === null ? '' : ` for variant ${s.variant}`}`, 'already_exists');
    const { rows } = await client.query<{ source_id: number; next_check_due: Date }>(
      `INSERT INTO sources (product_id, kind, retailer, url, host, cadence, next_check_due, added_by, health_since, variant)
       VALUES ($1, $2, $3, $4, $5, make_interval(secs => $6::double precision / 1000), now(), $7, now(), $8)
       RETURNING source_id, next_check_due`,
      [s.product_id, s.kind, s.retailer, url.toString(), hostKey(url), s.every, s.added_by, s.variant],
    );
    await openSpan(client, s.product_id);
    await refreshDepth(client, s.product_id);
    return rows[0]!;
  });
  return { source_id: result.source_id, product_id: s.product_id, kind: s.kind, url: url.toString(), variant: s.variant, next_check_due: iso(result.next_check_due), record_version };
}

/**
 * The monitoring ledger (monitoring_spans, which receipts' coverage reads)
 * reaches a product from the day it gains an active monitored source until
 * the day its last one is paused.
 */
export async function openSpan(client: PoolClient, productId: string): Promise<void> {
  await client.query(
    `INSERT INTO monitoring_spans (product_id, started_on)
     SELECT $1, (now() AT TIME ZONE 'UTC')::date
      WHERE NOT EXISTS (SELECT 1 FROM monitoring_spans WHERE product_id = $1 AND ended_on IS NULL)`,
    [productId],
  );
}

export async function closeSpanIfUnmonitored(client: PoolClient, productId: string): Promise<void> {
  await client.query(
    `UPDATE monitoring_spans SET ended_on = greatest(started_on, (now() AT TIME ZONE 'UTC')::date)
      WHERE product_id = $1 AND ended_on IS NULL
        AND NOT EXISTS (SELECT 1 FROM sources WHERE product_id = $1 AND state = 'active' AND next_check_due IS NOT NULL)`,
    [productId],
  );
}

export interface SourceListItem {
  source_id: number;
  kind: string;
  url: string;
  variant: string | null;
  state: string;
  last_checked_at: string | null;
  last_outcome: string | null;
  next_check_due: string | null;
  consecutive_unreadable: number;
}

export async function listSources(pool: Pool, productId: string): Promise<SourceListItem[]> {
  if (!ProductId.safeParse(productId).success) throw new CurationRefused(`${productId} is not a product id`, 'invalid_input');
  const product = await pool.query('SELECT 1 FROM products WHERE product_id = $1', [productId]);
  if (!product.rowCount) throw new CurationRefused(`product ${productId} does not exist`, 'not_found');
  const { rows } = await pool.query<{ source_id: number; kind: string; url: string; variant: string | null; state: string; last_checked_at: Date | null; last_outcome: string | null; next_check_due: Date | null; consecutive_unreadable: number }>(
    `SELECT source_id, kind, url, variant, state, last_checked_at, last_outcome, next_check_due, consecutive_unreadable
       FROM sources WHERE product_id = $1 ORDER BY source_id`,
    [productId],
  );
  return rows.map((r) => ({ ...r, last_checked_at: iso(r.last_checked_at), next_check_due: iso(r.next_check_due) }));
}

/** Pauses or resumes a source; a resumed source is due at once. */
export async function setSourceState(pool: Pool, sourceId: string, state: 'active' | 'paused'): Promise<{ source_id: number; state: string; next_check_due: string | null; record_version: string | null }> {
  if (!/^\d{1,18}$/.test(sourceId)) throw new CurationRefused(`${sourceId} is not a source id`, 'invalid_input');
  const { result, record_version } = await withRecordChange(pool, `source ${sourceId} ${state}`, async (client) => {
    const { rows } = await client.query<{ product_id: string; state: string; next_check_due: Date | null }>(
      `UPDATE sources SET state = $2,
              next_check_due = CASE WHEN $2 = 'active' AND state = 'paused' THEN now() ELSE next_check_due END,
              ${LEASE_ENDED}
        WHERE source_id = $1 AND next_check_due IS NOT NULL RETURNING product_id, state, next_check_due`,
      [sourceId, state],
    );
    if (!rows[0]) throw new CurationRefused(`source ${sourceId} does not exist or is not monitored`, 'not_found');
    if (state === 'active') await openSpan(client, rows[0].product_id);
    else await closeSpanIfUnmonitored(client, rows[0].product_id);
    await refreshDepth(client, rows[0].product_id);
    return rows[0];
  });
  return { source_id: Number(sourceId), state: result.state, next_check_due: iso(result.next_check_due), record_version };
}
