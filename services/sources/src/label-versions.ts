import { z } from 'zod';
import { AddProductInput, CurationRefused, NotFound, addProductIn, openLabelCandidates, placeLabelVersion, refreshDepth, type CaptureInput } from '@evidence-record/curation';
import { ProductId } from '@evidence-record/contract';
import { takeRecordWriterLock, withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { normalizeName } from '@evidence-record/record';
import type { DsldReading } from './dsld';
import { evidenceOf, keepEvidence } from './evidence';
import type { Fetcher } from './fetcher';
import { AddressRefused, checkSourceUrl, type AddressPolicy, type Resolver } from './guard';
import { labelCaptureOf } from './label-capture';
import { LEASE_ENDED } from './leases';
import type { MonitorSettings } from './settings';
import { Every, closeSpanIfUnmonitored, hostKey, openSpan } from './sources';
import type { IngredientNames } from './synonyms';
import { dsldLabel } from './kinds/dsld-label';

export const AttachLabelInput = z.strictObject({
  label: z.string().regex(/^\d{1,12}$/, 'a DSLD label id is a number'),
  product_id: ProductId.nullable().default(null),
  every: Every.prefault('7d'),
  by: z.string().trim().min(1).max(120).default('operator'),
});

export interface AttachedLabel {
  product_id: string;
  brand_id: string;
  name: string;
  depth_class: string;
  /** The label was the product's first: the product was registered from it. */
  product_created: boolean;
  /** How the product was found: named (--product), related (DSLD "same product"), brand_and_name, or created. */
  found_by: 'named' | 'related' | 'brand_and_name' | 'created';
  source_id: number;
  label_id: number;
  /** The label's own DSLD date, which dates it in the history. */
  dsld_date: string;
  off_market: boolean;
  /** Only the product's newest label version is monitored; an older one is history (decision 1401). */
  monitored: boolean;
  next_check_due: string | null;
  state_id: string;
  state_created: boolean;
  candidates_opened: number;
  record_version: string | null;
}

export interface AttachDeps {
  pool: Pool;
  fetcher: Fetcher;
  names: Pick<IngredientNames, 'identify'>;
  settings: MonitorSettings;
  policy: AddressPolicy;
  resolve?: Resolver;
  now?: () => Date;
}

const labelIdOfUrl = `substring(s.url from '/label/([0-9]+)$')::bigint`;
const SAME_PRODUCT = /same product/i;

/**
 * `product add-from-dsld --label L [--product P]` (decision 1401): reads DSLD
 * label L once and attaches it to the product it belongs to (named, or found
 * through DSLD's "same product" relationships, or by the same brand and name;
 * registered from the label when there is none), as a source and as a label
 * version of that product's history, dated by the label's own DSLD date.
 * Consecutive label versions that declare different facts open candidates
 * through the monitor's one candidate path; none becomes a Signal until a
 * curator approves and releases it. One Record change.
 */
export async function attachDsldLabel(deps: AttachDeps, input: z.input<typeof AttachLabelInput>): Promise<AttachedLabel> {
  const parsedInput = AttachLabelInput.safeParse(input);
  if (!parsedInput.success) throw new CurationRefused(parsedInput.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '), 'invalid_input');
  const { label: id, product_id: named, every, by } = parsedInput.data;
  const now = deps.now?.() ?? new Date();
  const url = `${deps.settings.DSLD_BASE_URL.replace(/\/+$/, '')}/label/${id}`;
  let checked: URL;
  try {
    checked = await checkSourceUrl(url, deps.policy, deps.resolve);
  } catch (err) {
    if (err instanceof AddressRefused) throw new CurationRefused(err.message, err.code);
    throw err;
  }
  // Requested, read and kept as a check of a dsld_label source is (kinds/dsld-label.ts).
  const res = await deps.fetcher.get(dsldLabel.requestUrl(checked.toString(), deps.settings), { beforeRedirect: async (next) => dsldLabel.beforeRedirect!(next, deps.settings) });
  if (res.status !== 200) throw new CurationRefused(`DSLD answered ${res.status} for label ${id}`, res.status === 404 ? 'not_found' : 'source_unreadable');
  const parsed = dsldLabel.parse(res.body);
  if (!parsed.ok) throw new CurationRefused(`label ${id}: ${parsed.reason}`, 'source_unreadable');
  const reading = parsed.reading;
  const day = reading.facts.entry_date;
  if (day === null) throw new CurationRefused(`label ${id} gives no DSLD date (entryDate or a dated event), so it has no place in a history`, 'undated_label');
  const kept = dsldLabel.evidence(res.body, res.url, reading);
  const evidence = evidenceOf(dsldLabel.name, kept.mediaType, kept.content);
  const read = await labelCaptureOf(reading, deps.names);

  const { result, record_version } = await withRecordChange(deps.pool, `DSLD label ${id} attached`, async (client) => {
    // Reads and writes under the writer lock: no check of this product is placed between them.
    await takeRecordWriterLock(client);
    const attachedTo = await client.query<{ source_id: number; product_id: string }>(
      `SELECT s.source_id, s.product_id FROM sources s WHERE s.kind = 'dsld_label' AND ${labelIdOfUrl} = $1`,
      [Number(id)],
    );
    const found = await productOf(client, reading, named);
    const existing = attachedTo.rows.find((r) => found === null || r.product_id === found.product_id) ?? attachedTo.rows[0];
    if (existing) {
      throw found !== null && existing.product_id !== found.product_id
        ? new CurationRefused(`label ${id} is a version of ${existing.product_id} (source ${existing.source_id}), not of ${found.product_id}`, 'other_product')
        : new CurationRefused(`label ${id} is already attached to ${existing.product_id} (source ${existing.source_id})`, 'already_exists');
    }
    const product = found ?? { ...(await registerFrom(client, reading, id)), found_by: 'created' as const };

    const versions = await client.query<{ source_id: number; dsld_date: string | null }>(
      `SELECT s.source_id,
              (SELECT coalesce(c.source_facts->>'entry_date',
                               (SELECT min(e->>'date') FROM jsonb_array_elements(coalesce(c.source_facts->'events', '[]')) e))
                 FROM captures c WHERE c.source_id = s.source_id AND c.source_facts IS NOT NULL
                ORDER BY c.observed_at DESC, c.capture_id DESC LIMIT 1) AS dsld_date
         FROM sources s WHERE s.product_id = $1 AND s.kind = 'dsld_label'`,
      [product.product_id],
    );
    // The newest label version (by DSLD date) is the product's label as DSLD keeps it now; older ones are history.
    const newest = versions.rows.every((v) => v.dsld_date === null || v.dsld_date <= day);
    const { rows: src } = await client.query<{ source_id: number; next_check_due: Date | null }>(
      `INSERT INTO sources (product_id, kind, url, host, cadence, next_check_due, added_by, health_since, last_read_at)
       VALUES ($1, 'dsld_label', $2, $3, make_interval(secs => $4::double precision / 1000), CASE WHEN $5 THEN now() END, $6, $7, $7)
       RETURNING source_id, next_check_due`,
      [product.product_id, checked.toString(), hostKey(checked), every, newest, by, now],
    );
    const sourceId = src[0]!.source_id;
    await keepEvidence(client, [evidence]);
    const capture: CaptureInput = {
      product_id: product.product_id,
      source: { kind: 'dsld_label', url: checked.toString(), retailer: null },
      observed_at: day,
      preserved: { path: `evidence:sha256:${evidence.sha256}`, sha256: evidence.sha256 },
      // An older version's off-market flag describes that label (DSLD marks a replaced version off the market),
      // not the product: it stays in the label's source facts and the product record's label versions.
      label: { ...read.label, off_market: newest && read.label.off_market },
      source_facts: read.source_facts,
      prices: [],
    };
    const placed = await placeLabelVersion(client, capture, sourceId, { newestVersion: newest });
    await client.query(
      `INSERT INTO monitoring_checks (product_id, source_id, checked_at, outcome, recovered, reason, http_status, evidence_sha256, capture_id, checked_by)
       VALUES ($1, $2, $3, 'valid', false, $4, 200, $5, $6, $7)`,
      [product.product_id, sourceId, now, `label version attached, dated by DSLD ${day}`, evidence.sha256, placed.capture_id, 'add-from-dsld'],
    );
    await client.query(`UPDATE sources SET last_outcome = 'valid', last_checked_at = $2 WHERE source_id = $1`, [sourceId, now]);
    let candidates = 0;
    if (placed.state_created && placed.before_state_id) candidates += await openLabelCandidates(client, product.product_id, placed.before_state_id, placed.state_id, reading.facts.events, { labelVersions: true });
    if (placed.state_created && placed.after_state_id) candidates += await openLabelCandidates(client, product.product_id, placed.state_id, placed.after_state_id, reading.facts.events, { labelVersions: true });
    if (newest) {
      // One monitored label per product: the monitor reading an older version would take it for today's label.
      await client.query(
        `UPDATE sources SET next_check_due = NULL, ${LEASE_ENDED}
          WHERE product_id = $1 AND kind = 'dsld_label' AND source_id <> $2 AND next_check_due IS NOT NULL`,
        [product.product_id, sourceId],
      );
      await openSpan(client, product.product_id);
    } else await closeSpanIfUnmonitored(client, product.product_id);
    await refreshDepth(client, product.product_id);
    const depth = await client.query<{ depth_class: string }>('SELECT depth_class FROM products WHERE product_id = $1', [product.product_id]);
    return {
      product_id: product.product_id,
      brand_id: product.brand_id,
      name: product.name,
      depth_class: depth.rows[0]!.depth_class,
      product_created: product.found_by === 'created',
      found_by: product.found_by,
      source_id: sourceId,
      label_id: reading.label_id,
      dsld_date: day,
      off_market: reading.facts.off_market === true,
      monitored: newest,
      next_check_due: src[0]!.next_check_due?.toISOString() ?? null,
      state_id: placed.state_id,
      state_created: placed.state_created,
      candidates_opened: candidates,
    };
  });
  return { ...result, record_version };
}

type FoundProduct = { product_id: string; brand_id: string; name: string; found_by: 'named' | 'related' | 'brand_and_name' };

/** The product a label belongs to: the one named, else the one DSLD relates it to, else the one of the same brand and name. */
async function productOf(client: PoolClient, r: DsldReading, named: string | null): Promise<FoundProduct | null> {
  const one = async (sql: string, values: unknown[], how: FoundProduct['found_by']): Promise<FoundProduct | null> => {
    const { rows } = await client.query<Omit<FoundProduct, 'found_by'>>(sql, values);
    if (rows.length > 1) {
      throw new CurationRefused(`label ${r.label_id} could belong to ${rows.map((p) => p.product_id).join(', ')}; name one with --product`, 'ambiguous');
    }
    return rows[0] ? { ...rows[0], found_by: how } : null;
  };
  if (named !== null) {
    const p = await one('SELECT product_id, brand_id, name FROM products WHERE product_id = $1', [named], 'named');
    if (!p) throw new NotFound(`product ${named} does not exist`);
    return p;
  }
  const related = r.facts.label_relationships.filter((x) => SAME_PRODUCT.test(x.type)).map((x) => x.label_id);
  const byRelation = await one(
    `SELECT DISTINCT p.product_id, p.brand_id, p.name FROM products p JOIN sources s ON s.product_id = p.product_id
      WHERE s.kind = 'dsld_label'
        AND (${labelIdOfUrl} = ANY($1::bigint[])
             OR EXISTS (SELECT 1 FROM captures c, jsonb_array_elements(coalesce(c.source_facts->'label_relationships', '[]')) rel
                         WHERE c.source_id = s.source_id AND (rel->>'label_id')::bigint = $2 AND rel->>'type' ILIKE '%same product%'))`,
    [related, r.label_id],
    'related',
  );
  if (byRelation) return byRelation;
  if (!r.brand || !r.name) return null;
  return one(
    `SELECT p.product_id, p.brand_id, p.name FROM products p JOIN brands b ON b.brand_id = p.brand_id
      WHERE b.name_norm = $1 AND (p.name_norm = $2 OR EXISTS (SELECT 1 FROM product_aliases a WHERE a.product_id = p.product_id AND a.alias_norm = $3))`,
    [normalizeName(r.brand), normalizeName(productName(r.brand, r.name)), normalizeName(r.name)],
    'brand_and_name',
  );
}

/** DSLD's full name without the brand in front of it ("Solgar Advanced …" → "Advanced …"). */
function productName(brand: string, full: string): string {
  return full.replace(new RegExp(`^${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+`, 'i'), '') || full;
}

async function registerFrom(client: PoolClient, r: DsldReading, id: string) {
  if (!r.brand || !r.name) throw new CurationRefused(`label ${id} names no brand or product`, 'source_unreadable');
  const name = productName(r.brand, r.name);
  const input = AddProductInput.safeParse({ brand: r.brand, name, aliases: r.name !== name ? [r.name] : [] });
  if (!input.success) throw new CurationRefused(`label ${id}: its brand or name cannot name a product (${input.error.issues[0]?.message ?? 'invalid'})`, 'source_unreadable');
  return addProductIn(client, input.data);
}
