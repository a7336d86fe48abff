import { randomId } from '@evidence-record/contract';
import { withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { CaptureBundle, type CaptureInput, type LabelInput } from './bundle';
import { CurationRefused } from './errors';
import { refreshDepth } from './depth';
import { labelContent, labelOf, sameLabel, type LabelContent } from './labels';
import { identify, normaliseUnii, type IdentityBasis } from './identity-rules';
import { loadIdentityIndex } from './ingredient-identity';

export interface ImportResult {
  record_version: string | null;
  captures: number;
  states_created: string[];
  states_extended: string[];
  price_observations: number;
}

/**
 * Imports a bundle of captures in one Record change. Per product, in date
 * order: a label identical to the product's newest history state extends
 * that state's observed range (and is linked as a reading of it); a
 * different label starts a new history state. Prices become dated
 * observations tied to the state in force.
 */
export async function importCaptures(pool: Pool, input: unknown, opts: { checkedBy?: string } = {}): Promise<ImportResult> {
  const parsed = CaptureBundle.safeParse(input);
  if (!parsed.success) {
    throw new CurationRefused(`invalid bundle: ${parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const captures = [...parsed.data.captures].sort((a, b) => (dateOf(a) < dateOf(b) ? -1 : dateOf(a) > dateOf(b) ? 1 : 0));
  const { result, record_version } = await withRecordChange(pool, `capture import (${captures.length} captures)`, async (client) => {
    await requireCatalogue(client, captures);
    // A line the bundle names no ingredient for is identified by the rules, as the monitor's are (decision 1500).
    const index = await loadIdentityIndex(client);
    for (const c of captures) {
      for (const i of (c.label?.ingredients ?? []) as IdentifiedLine[]) {
        if (i.ingredient_id !== null) continue;
        const identity = identify(i, index);
        i.ingredient_id = identity.ingredient_id;
        i.identified_by = identity.identified_by;
      }
    }
    const out = { states_created: [] as string[], states_extended: [] as string[], price_observations: 0 };
    for (const capture of captures) {
      const placed = await placeCapture(client, capture);
      if (placed.state_id && capture.label) (placed.state_created ? out.states_created : out.states_extended).push(placed.state_id);
      out.price_observations += placed.prices.length;
      // A manual import is a check too: someone read the source and it gave a label or a price.
      await recordManualCheck(client, capture, placed, opts.checkedBy ?? 'capture import');
    }
    return out;
  });
  return { record_version, captures: captures.length, ...result, states_extended: [...new Set(result.states_extended)] };
}

/** What placing one capture did. */
export interface PlacedCapture {
  capture_id: number;
  source_id: number;
  /** The state the label was placed in (or, for a price-only capture, the state in force). */
  state_id: string | null;
  state_created: boolean;
  /** The product's newest state before this capture, when this capture created a new one. */
  previous_state_id: string | null;
  prices: Array<{ observation_id: number; retailer: string; basis: string; price_cents: number }>;
}

/**
 * Places one capture inside the caller's Record change: the one
 * implementation behind `capture import` and the source monitor. With
 * `sourceId` the capture is tied to that (monitored) source instead of one
 * found or created by URL.
 */
export async function placeCapture(client: PoolClient, capture: CaptureInput, opts: { sourceId?: number } = {}): Promise<PlacedCapture> {
  return writeCapture(client, capture, await planCapture(client, capture), opts);
}

/**
 * Where a capture goes, decided by reads only (or refused with
 * CurationRefused before anything is written). The first write takes the
 * Record's one writer lock until commit, so a writer that plans every
 * capture of a change before writing any (the monitor's recorder) holds the
 * lock only for the writes.
 */
export async function planCapture(client: PoolClient, capture: CaptureInput): Promise<CapturePlan> {
  if (capture.label) return decideLabel(client, capture.product_id, dateOf(capture), capture.label);
  return { newest: await newestState(client, capture.product_id), same: false };
}

/** Writes a planned capture: the capture, its label's state (new or extended), its prices tied to the state in force. */
export async function writeCapture(client: PoolClient, capture: CaptureInput, plan: CapturePlan, opts: { sourceId?: number } = {}): Promise<PlacedCapture> {
  const sourceId = opts.sourceId ?? (await sourceFor(client, capture));
  const captureId = await insertCapture(client, capture, sourceId);
  let stateId: string | null = plan.newest?.state_id ?? null;
  let created = false;
  let previous: string | null = null;
  if (capture.label) {
    const placed = await placeLabel(client, capture.product_id, dateOf(capture), capture.label, captureId, plan);
    stateId = placed.state_id;
    created = placed.created;
    previous = placed.previous_state_id;
    if (created && capture.label.classification === 'comparable') await refreshDepth(client, capture.product_id, { onlyFromRegistered: true });
  }
  const prices: PlacedCapture['prices'] = [];
  const fresh = await newPrices(client, capture, sourceId);
  if (fresh.length > 0) {
    const inserted = await client.query<{ observation_id: number }>({
      name: 'curation-insert-prices',
      text: `INSERT INTO price_observations (product_id, source_id, retailer, observed_at, price_cents, price_basis, servings_per_container, state_id)
             SELECT $1, $2, p.retailer, $3, p.price_cents, p.basis, p.servings, $4
               FROM unnest($5::text[], $6::int[], $7::text[], $8::numeric[]) WITH ORDINALITY AS p(retailer, price_cents, basis, servings, n)
              ORDER BY p.n
             RETURNING observation_id`,
      values: [
        capture.product_id,
        sourceId,
        dateOf(capture),
        stateId,
        fresh.map((p) => p.retailer),
        fresh.map((p) => p.price_cents),
        fresh.map((p) => p.basis),
        fresh.map((p) => p.servings_per_container),
      ],
    });
    // Ids are drawn in insertion order, which is the capture's order (ORDER BY p.n).
    const ids = inserted.rows.map((r) => Number(r.observation_id)).sort((x, y) => x - y);
    fresh.forEach((price, i) => prices.push({ observation_id: ids[i]!, retailer: price.retailer, basis: price.basis, price_cents: price.price_cents }));
  }
  return { capture_id: captureId, source_id: sourceId, state_id: stateId, state_created: created, previous_state_id: previous, prices };
}

/**
 * The prices of a capture that say something new: a price this source already
 * gave for the same day, retailer and basis (a re-reading of an unchanged
 * offer page the same day) is the same observation, not a second one
 * (decision 1008). The check that read it is still recorded. A later day's
 * reading at the same price is new: it dates the price on that day.
 */
async function newPrices(client: PoolClient, capture: CaptureInput, sourceId: number): Promise<CaptureInput['prices']> {
  if (capture.prices.length === 0) return [];
  const { rows } = await client.query<{ retailer: string; price_cents: number; price_basis: string; servings_per_container: number | null }>({
    name: 'curation-prices-already-observed',
    text: `SELECT retailer, price_cents, price_basis, servings_per_container FROM price_observations
            WHERE product_id = $1 AND source_id = $2 AND observed_at = $3::date`,
    values: [capture.product_id, sourceId, dateOf(capture)],
  });
  const key = (retailer: string, cents: number, basis: string, servings: number | null) => JSON.stringify([retailer, cents, basis, servings === null ? null : Number(servings)]);
  const seen = new Set(rows.map((r) => key(r.retailer, r.price_cents, r.price_basis, r.servings_per_container)));
  const out: CaptureInput['prices'] = [];
  for (const p of capture.prices) {
    const k = key(p.retailer, p.price_cents, p.basis, p.servings_per_container);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(p);
  }
  return out;
}

/** The capture row itself: what was read, when, from which source, and where its bytes are. */
export async function insertCapture(client: PoolClient, capture: CaptureInput, sourceId: number): Promise<number> {
  const { rows } = await client.query<{ capture_id: number }>({
    name: 'curation-insert-capture',
    text: `INSERT INTO captures (source_id, observed_at, content_sha256, storage_path, source_facts) VALUES ($1, $2, $3, $4, $5) RETURNING capture_id`,
    values: [sourceId, timestampOf(capture), capture.preserved.sha256, capture.preserved.path, capture.source_facts === null ? null : JSON.stringify(capture.source_facts)],
  });
  return rows[0]!.capture_id;
}

async function recordManualCheck(client: PoolClient, capture: CaptureInput, placed: PlacedCapture, checkedBy: string): Promise<void> {
  const { rows } = await client.query<{ last_outcome: string | null }>('SELECT last_outcome FROM sources WHERE source_id = $1', [placed.source_id]);
  const recovered = rows[0]?.last_outcome === 'unreadable';
  await client.query(
    `INSERT INTO monitoring_checks (product_id, source_id, checked_at, outcome, recovered, reason, evidence_sha256, capture_id, checked_by)
     VALUES ($1, $2, $3, 'valid', $4, 'manual capture import', $5, $6, $7)`,
    [capture.product_id, placed.source_id, timestampOf(capture), recovered, capture.preserved.sha256, placed.capture_id, checkedBy],
  );
  await client.query(
    `UPDATE sources SET last_outcome = 'valid', consecutive_unreadable = 0, health = 'readable',
            health_since = CASE WHEN health = 'unreadable' THEN $2::timestamptz ELSE health_since END,
            last_checked_at = greatest(last_checked_at, $2::timestamptz)
      WHERE source_id = $1`,
    [placed.source_id, timestampOf(capture)],
  );
}

export function dateOf(c: CaptureInput): string {
  return c.observed_at.slice(0, 10);
}

function timestampOf(c: CaptureInput): string {
  return c.observed_at.length === 10 ? `${c.observed_at}T00:00:00Z` : c.observed_at;
}

async function requireCatalogue(client: PoolClient, captures: CaptureInput[]): Promise<void> {
  const products = [...new Set(captures.map((c) => c.product_id))];
  const found = await client.query<{ product_id: string }>('SELECT product_id FROM products WHERE product_id = ANY($1::text[])', [products]);
  const missing = products.filter((p) => !found.rows.some((r) => r.product_id === p));
  if (missing.length) throw new CurationRefused(`unknown products: ${missing.join(', ')}`);
  const ingredients = [...new Set(captures.flatMap((c) => c.label?.ingredients.map((i) => i.ingredient_id) ?? []).filter((i): i is string => i !== null))];
  const known = await client.query<{ ingredient_id: string }>('SELECT ingredient_id FROM ingredients WHERE ingredient_id = ANY($1::text[])', [ingredients]);
  const unknown = ingredients.filter((i) => !known.rows.some((r) => r.ingredient_id === i));
  if (unknown.length) throw new CurationRefused(`unknown ingredient ids: ${unknown.join(', ')}`);
}

async function sourceFor(client: PoolClient, capture: CaptureInput): Promise<number> {
  const existing = await client.query<{ source_id: number }>(
    `UPDATE sources SET last_read_at = greatest(last_read_at, $3::timestamptz)
      WHERE product_id = $1 AND url = $2 RETURNING source_id`,
    [capture.product_id, capture.source.url, timestampOf(capture)],
  );
  if (existing.rows[0]) return existing.rows[0].source_id;
  const { rows } = await client.query<{ source_id: number }>(
    `INSERT INTO sources (product_id, kind, retailer, url, last_read_at) VALUES ($1, $2, $3, $4, $5) RETURNING source_id`,
    [capture.product_id, capture.source.kind, capture.source.retailer, capture.source.url, timestampOf(capture)],
  );
  return rows[0]!.source_id;
}

export interface NewestState {
  state_id: string;
  observed_from: string;
  observed_to: string;
}

/**
 * The product's newest state and whether it was read from these very bytes
 * (its creating capture or one of its readings): the same bytes are the same
 * label, whatever the current rule reads in them.
 */
export async function newestStateReadFrom(client: PoolClient, productId: string, sha256: string): Promise<(NewestState & { same_bytes: boolean }) | null> {
  const { rows } = await client.query<NewestState & { same_bytes: boolean }>({
    name: 'curation-newest-state-bytes',
    text: `SELECT n.state_id, n.observed_from, n.observed_to,
                  EXISTS (SELECT 1 FROM captures c WHERE c.capture_id = n.capture_id AND c.content_sha256 = $2)
                  OR EXISTS (SELECT 1 FROM state_readings sr JOIN captures c ON c.capture_id = sr.capture_id
                              WHERE sr.state_id = n.state_id AND c.content_sha256 = $2) AS same_bytes
             FROM (SELECT state_id, observed_from, observed_to, capture_id FROM history_states WHERE product_id = $1
                    ORDER BY observed_from DESC, observed_to DESC, state_id DESC LIMIT 1) n`,
    values: [productId, sha256],
  });
  return rows[0] ?? null;
}

async function newestState(client: PoolClient, productId: string): Promise<NewestState | null> {
  const { rows } = await client.query<NewestState>(
    `SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1
      ORDER BY observed_from DESC, observed_to DESC, state_id DESC LIMIT 1`,
    [productId],
  );
  return rows[0] ?? null;
}

/** A capture's place: the product's newest state before it, and whether its label is that state's again. */
export interface CapturePlan {
  newest: NewestState | null;
  /** The label is the newest state's again: the state extends. */
  same: boolean;
}

/** Where a label goes, decided by reads only (or refused): the newest state again, or a new state after it. */
async function decideLabel(client: PoolClient, productId: string, date: string, label: LabelInput): Promise<CapturePlan> {
  const newest = await newestState(client, productId);
  if (!newest) return { newest, same: false };
  if (date < newest.observed_from) {
    throw new CurationRefused(`a label of ${productId} dated ${date} predates its newest history state (${newest.observed_from}); import captures in date order`);
  }
  if (sameLabel(await labelOf(client, newest.state_id), contentOf(label))) return { newest, same: true };
  if (date <= newest.observed_to) {
    throw new CurationRefused(`a different label of ${productId} dated ${date} falls within its newest history state (${newest.observed_from}..${newest.observed_to})`);
  }
  return { newest, same: false };
}

async function placeLabel(
  client: PoolClient,
  productId: string,
  date: string,
  label: LabelInput,
  captureId: number,
  decision: CapturePlan,
): Promise<{ state_id: string; created: boolean; previous_state_id: string | null }> {
  const newest = decision.newest;
  if (decision.same && newest) {
    await client.query(`UPDATE history_states SET observed_to = greatest(observed_to, $2::date) WHERE state_id = $1`, [newest.state_id, date]);
    await client.query(`INSERT INTO state_readings (state_id, capture_id) VALUES ($1, $2)`, [newest.state_id, captureId]);
    return { state_id: newest.state_id, created: false, previous_state_id: null };
  }
  const stateId = await insertState(client, productId, captureId, date, label);
  return { state_id: stateId, created: true, previous_state_id: newest?.state_id ?? null };
}

/** A new history state of a product, first and last observed on `date`, holding the label's declared content. */
export async function insertState(client: PoolClient, productId: string, captureId: number, date: string, label: LabelInput): Promise<string> {
  const stateId = `hs_${randomId()}`;
  await client.query(
    `INSERT INTO history_states (state_id, product_id, capture_id, observed_from, observed_to, classification,
                                 serving_size, serving_unit, servings_per_container, serving_description, note, off_market, other_servings, net_contents)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      stateId,
      productId,
      captureId,
      date,
      label.classification,
      label.serving?.size ?? null,
      label.serving?.unit ?? null,
      label.serving?.servings_per_container ?? null,
      label.serving?.description ?? null,
      label.note,
      label.off_market,
      JSON.stringify(label.other_servings),
      JSON.stringify(label.net_contents),
    ],
  );
  await insertDeclaredLines(client, stateId, label);
  return stateId;
}

/** A state's declared blends and lines, in label order (positions from 1). */
export async function insertDeclaredLines(client: PoolClient, stateId: string, label: Pick<LabelInput, 'blends' | 'ingredients'>): Promise<void> {
  const blendIds = new Map<string, number>();
  if (label.blends.length > 0) {
    const { rows } = await client.query<{ blend_id: number; name: string }>({
      name: 'curation-insert-blends',
      text: `INSERT INTO declared_blends (state_id, name, total_amount, total_unit, totals_by_serving)
             SELECT $1, b.name, b.total_amount, b.total_unit, b.by_serving
               FROM unnest($2::text[], $3::numeric[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS b(name, total_amount, total_unit, by_serving, n) ORDER BY b.n
             RETURNING blend_id, name`,
      values: [
        stateId,
        label.blends.map((b) => b.name),
        label.blends.map((b) => b.total_amount),
        label.blends.map((b) => b.total_unit),
        label.blends.map((b) => JSON.stringify(b.totals_by_serving)),
      ],
    });
    for (const r of rows) blendIds.set(r.name, r.blend_id);
  }
  if (label.ingredients.length > 0) {
    const lines = label.ingredients as IdentifiedLine[];
    // Positions are label order, from 1. A line's identifiers are kept beside it, so its identity can be re-derived.
    await client.query({
      name: 'curation-insert-ingredients',
      text: `INSERT INTO declared_ingredients (state_id, position, ingredient_id, declared_name, amount, unit, amount_operator, blend_id, amount_note, amounts_by_serving,
                                              unii, ingredient_group, forms, identified_by, daily_values)
             SELECT $1, i.n, i.ingredient_id, i.declared_name, i.amount, i.unit, i.operator, i.blend_id, i.note, i.by_serving,
                    i.unii, i.ingredient_group, coalesce((SELECT array_agg(f) FROM json_array_elements_text(i.forms) AS f), '{}'), i.identified_by, i.daily_values
               FROM unnest($2::text[], $3::text[], $4::numeric[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::jsonb[], $10::text[], $11::text[], $12::json[], $13::text[], $14::jsonb[])
                    WITH ORDINALITY AS i(ingredient_id, declared_name, amount, unit, operator, blend_id, note, by_serving, unii, ingredient_group, forms, identified_by, daily_values, n)`,
      values: [
        stateId,
        label.ingredients.map((i) => i.ingredient_id),
        label.ingredients.map((i) => i.declared_name),
        label.ingredients.map((i) => i.amount),
        label.ingredients.map((i) => i.unit),
        label.ingredients.map((i) => i.operator),
        label.ingredients.map((i) => (i.blend ? (blendIds.get(i.blend) ?? null) : null)),
        label.ingredients.map((i) => i.amount_note),
        label.ingredients.map((i) => JSON.stringify(i.amounts_by_serving)),
        lines.map((i) => normaliseUnii(i.unii)),
        lines.map((i) => i.ingredient_group ?? null),
        lines.map((i) => JSON.stringify(i.forms ?? [])),
        // A capture that names the ingredient itself (and no rule) keeps it as given.
        lines.map((i) => (i.ingredient_id === null ? null : (i.identified_by ?? 'capture'))),
        label.ingredients.map((i) => (i.daily_values === null || i.daily_values === undefined ? null : JSON.stringify(i.daily_values))),
      ],
    });
  }
}

/** A declared line as written: the bundle's, and how its identity was made (the rules' basis, or none: as given). */
type IdentifiedLine = LabelInput['ingredients'][number] & { identified_by?: IdentityBasis | null };

export function contentOf(label: LabelInput): LabelContent {
  return labelContent({
    classification: label.classification,
    off_market: label.off_market,
    serving: {
      size: label.serving?.size ?? null,
      unit: label.serving?.unit ?? null,
      servings_per_container: label.serving?.servings_per_container ?? null,
      description: label.serving?.description ?? null,
    },
    other_servings: label.other_servings,
    net_contents: label.net_contents,
    blends: label.blends,
    ingredients: label.ingredients,
  });
}
