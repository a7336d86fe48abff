import type pg from 'pg';
import { editionHash } from '@evidence-record/contract';
import { createPool, withRecordChange } from '@evidence-record/platform';
import { applyCatalogueIn } from '@evidence-record/curation';
import { buildDemoRecord } from './build';
import { advanceSequence, insertRows } from './insert';

/**
 * A deterministic generator for large Records (benchmarks, load tests):
 * fictional brands and products, label states, declared ingredients, list
 * and promotional prices, reviewed candidates and released Signals in
 * strictly increasing release batches, monitoring, and three ledger
 * editions. Everything is produced server-side with INSERT … SELECT over
 * generate_series, in one Record change, so 100k products and 500k Signals
 * take a minute or two rather than an hour.
 *
 * Shape of the generated Record (i = product number, 1…P):
 *   - depth: REGISTERED when i % 40 = 0, CAPTURED when i % 4 = 1, else TRACKED; capsules when i % 5 = 0;
 *     retired (on 2026-11-12) when a TRACKED i % 97 = 0; "Pre-Workout" when i % 50 = 7, "Original" when i % 70 = 11.
 *   - 70% of the Signals are label changes (every fifth a serving change, the rest formula changes),
 *     spread over TRACKED products as consecutive history states between 2025-01-06 and 2026-11-17;
 *     30% are list-price changes, observed every 28 days at one retailer; promotional prices are
 *     observed beside the list prices and never make a Signal.
 *   - Every Signal comes from an approved candidate; 1% of TRACKED products also have an open
 *     candidate and 1% a refused one (i % 100 = 18 and 54). Every 1000th Signal is corrected, every 1500th withdrawn.
 */
export interface GenerateOptions {
  products: number;
  signals: number;
}

export interface GenerateResult {
  record_version: string;
  counts: Record<string, number>;
}

const BASE = '2025-01-06';
const LATEST = '2026-11-17';
/**
 * Days over which label states are spread after a per-product offset of up to 27 days (so changes and
 * releases fall on many dates): the last state starts by 2026-10-11, so every change is released by 2026-10-27.
 */
const SPREAD_DAYS = 632;
const PRICE_OBSERVATIONS = 24;
const MAX_LABEL_CHANGES = 38;
const MAX_PRICE_CHANGES = 11;

const productWords = ['Surge', 'Kindle', 'Apex', 'Talon', 'Ember', 'Flint', 'Cairn', 'Tarn', 'Rally', 'Pump', 'Focus', 'Drive', 'Volt', 'Ignite', 'Summit', 'Forge'];
const variants = ['', ' Stim-Free', ' Caps', ' Max', ' Lite', ' V2', ' Night', ' Pro'];
const brandStarts = ['Quill', 'Brass', 'Tallow', 'Cobalt', 'Hollow', 'Kestrel', 'Oxen', 'Drumlin', 'Marl', 'Sedge', 'Wold', 'Fenn', 'Gorse', 'Lintel', 'Sorrel', 'Thistle'];
const brandEnds = ['vale', 'moor', 'wick', 'fen', 'reed', 'mere', 'torra', 'wyn', 'fjord', 'gate', 'crest', 'stead', 'holm', 'brook', 'ridge', 'field'];
const lineNames = ['Caffeine Anhydrous', 'Beta-Alanine', 'L-Citrulline', 'Betaine Anhydrous', 'Taurine', 'L-Theanine', 'L-Tyrosine', 'Creatine Monohydrate'];
const lineIngredients = ['ing_caffeine', 'ing_beta_alanine', 'ing_l_citrulline', 'ing_betaine_anhydrous', 'ing_taurine', 'ing_l_theanine', 'ing_l_tyrosine', 'ing_creatine_monohydrate'];
const lineAmounts = [200, 3.2, 6, 2.5, 1, 150, 1, 3];
const lineUnits = ['mg', 'g', 'g', 'g', 'g', 'mg', 'g', 'g'];
const retailerNames = ['Shelfwise Supply', 'Parcelgrain Market', 'Liftcart'];

const sqlArray = (values: (string | number)[]) =>
  `ARRAY[${values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)).join(',')}]`;

/** The record service's normalizeName, restated in SQL for the ASCII names generated here. */
const norm = (expr: string) => `trim(regexp_replace(replace(lower(${expr}), '&', ' and '), '[^a-z0-9]+', ' ', 'g'))`;

/** 12-character id part: 4 hash characters, then the number in 8 hex digits (unique below 2^32, deterministic). */
const idPart = (kind: string, n: string) => `substr(md5('gen:${kind}:' || (${n})), 1, 4) || lpad(to_hex(${n}), 8, '0')`;

function plan(opts: GenerateOptions) {
  let tracked = 0;
  for (let i = 1; i <= opts.products; i++) if (i % 40 !== 0 && i % 4 !== 1) tracked++;
  if (tracked === 0) throw new Error('too few products to hold any Signal');
  const labelWanted = Math.round(opts.signals * 0.7);
  const labelPer = Math.min(MAX_LABEL_CHANGES, Math.floor(labelWanted / tracked));
  const labelExtra = labelPer === MAX_LABEL_CHANGES ? 0 : labelWanted % tracked;
  const labelChanges = labelPer * tracked + labelExtra;
  const priceWanted = opts.signals - labelChanges;
  const pricePer = Math.min(MAX_PRICE_CHANGES, Math.floor(priceWanted / tracked));
  const priceExtra = pricePer === MAX_PRICE_CHANGES ? 0 : priceWanted % tracked;
  return { tracked, labelPer, labelExtra, pricePer, priceExtra, brands: Math.max(10, Math.ceil(opts.products / 500)) };
}

async function exec(client: pg.ClientBase, sql: string, values: unknown[] = []): Promise<number> {
  const started = Date.now();
  const r = await client.query(sql, values);
  // GENERATE_TIMING=1 shows where the time goes, on stderr (stdout stays one JSON line).
  if (process.env.GENERATE_TIMING) console.error(`${Date.now() - started} ms  ${sql.trim().split('\n')[0]!.slice(0, 90)}`);
  return r.rowCount ?? 0;
}

export async function generateRecord(databaseUrl: string, opts: GenerateOptions): Promise<GenerateResult> {
  if (!Number.isInteger(opts.products) || opts.products < 1 || opts.products > 4_000_000) throw new Error('--products must be an integer from 1 to 4000000');
  if (!Number.isInteger(opts.signals) || opts.signals < 0) throw new Error('--signals must be a non-negative integer');
  const p = plan(opts);
  const demo = buildDemoRecord();
  const pool = createPool(databaseUrl, { max: 1, statementTimeoutMs: 3_600_000, applicationName: 'generate-record' });
  const counts: Record<string, number> = {};
  try {
    const { record_version } = await withRecordChange(pool, `generated Record (${opts.products} products, ${opts.signals} Signals)`, async (c) => {
      const { rows } = await c.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM products) AS any');
      if (rows[0]!.any) throw new Error('the database already holds products; generate into an empty, migrated database');
      await c.query("SET LOCAL work_mem = '256MB'");
      await c.query("SET LOCAL maintenance_work_mem = '512MB'");
      const restore = await suspendForeignKeysAndIndexes(c);

      // The ingredient catalogue (reference data, decision 1500), and the research and regulatory records of the demo Record.
      await applyCatalogueIn(c);
      for (const t of ['research_context', 'regulatory_records'] as const) await insertRows(c, t, demo[t]);

      counts.brands = await exec(c, `
        INSERT INTO brands (brand_id, name, name_norm, is_demo)
        SELECT 'brd_gen_' || b, n, ${norm('n')}, true
          FROM (SELECT b, (${sqlArray(brandStarts)})[1 + b % 16] || (${sqlArray(brandEnds)})[1 + (b / 16) % 16] || ' Labs ' || b AS n
                  FROM generate_series(1, $1::int) b) x`, [p.brands]);

      // The plan of every product: depth, how many label and price changes it carries.
      // Names end in the product's ordinal within its brand, so brand + name is unique (as on real
      // labels) and only the generic names resolve ambiguously; without it 128 name shapes repeat.
      await exec(c, `
        CREATE TEMP TABLE gp ON COMMIT DROP AS
        SELECT i, 'prd_' || ${idPart('product', 'i')} AS product_id, 'brd_gen_' || (1 + i % $2) AS brand_id, depth,
               CASE WHEN i % 5 = 0 THEN 'capsule' ELSE 'powder' END AS form,
               CASE WHEN i % 50 = 7 THEN 'Pre-Workout' WHEN i % 70 = 11 THEN 'Original'
                    ELSE (${sqlArray(productWords)})[1 + i % 16] || (${sqlArray(variants)})[1 + (i / 16) % 8] || ' ' || (1 + i / $2) END AS name,
               depth = 'TRACKED' AND i % 97 = 0 AS retired,
               CASE WHEN depth = 'TRACKED' THEN $3::int + (CASE WHEN t < $4::int THEN 1 ELSE 0 END) ELSE 0 END AS label_changes,
               CASE WHEN depth = 'TRACKED' THEN $5::int + (CASE WHEN t < $6::int THEN 1 ELSE 0 END) ELSE 0 END AS price_changes,
               2999 + (i % 30) * 100 AS base_cents
          FROM (SELECT i, depth, (row_number() OVER (PARTITION BY depth ORDER BY i) - 1)::int AS t
                  FROM (SELECT i, CASE WHEN i % 40 = 0 THEN 'REGISTERED' WHEN i % 4 = 1 THEN 'CAPTURED' ELSE 'TRACKED' END AS depth
                          FROM generate_series(1, $1::int) i) d) x`,
        [opts.products, p.brands, p.labelPer, p.labelExtra, p.pricePer, p.priceExtra]);
      await exec(c, 'CREATE UNIQUE INDEX ON gp (i)');

      counts.products = await exec(c, `
        INSERT INTO products (product_id, brand_id, name, name_norm, category, form, depth_class, retired_on, retired_note, is_demo, created_at)
        SELECT product_id, brand_id, name, ${norm('name')}, 'pre-workout', form, depth,
               CASE WHEN retired THEN DATE '2026-11-12' END, CASE WHEN retired THEN 'Discontinued (generated).' END, true, TIMESTAMPTZ '${BASE}T00:00:00Z'
          FROM gp ORDER BY i`);
      counts.product_aliases = await exec(c, `
        INSERT INTO product_aliases (alias, alias_norm, product_id)
        SELECT DISTINCT ON (${norm('a.alias')}, a.product_id) a.alias, ${norm('a.alias')}, a.product_id FROM (
          SELECT gp.product_id, b.name || ' ' || gp.name AS alias FROM gp JOIN brands b USING (brand_id)
          UNION ALL SELECT product_id, name FROM gp WHERE name IN ('Pre-Workout', 'Original')
          UNION ALL SELECT product_id, 'GX ' || i FROM gp WHERE i % 1000 = 3) a`);

      counts.sources = await exec(c, `
        INSERT INTO sources (source_id, product_id, kind, retailer, url, health, health_since, last_read_at)
        SELECT i * 2 - 1, product_id, 'manufacturer', NULL, 'https://gen-' || replace(brand_id, '_', '-') || '.example/products/' || product_id,
               CASE WHEN i % 200 = 3 AND depth = 'TRACKED' THEN 'unreadable' ELSE 'readable' END,
               CASE WHEN i % 200 = 3 AND depth = 'TRACKED' THEN TIMESTAMPTZ '2026-11-03T06:00:00Z' ELSE TIMESTAMPTZ '${BASE}T06:00:00Z' END,
               TIMESTAMPTZ '2026-11-03T06:00:00Z'
          FROM gp
        UNION ALL
        SELECT i * 2, product_id, 'retailer', (${sqlArray(retailerNames)})[1 + i % 3],
               'https://' || lower(split_part((${sqlArray(retailerNames)})[1 + i % 3], ' ', 1)) || '.example/p/' || product_id,
               'readable', TIMESTAMPTZ '${BASE}T09:00:00Z', TIMESTAMPTZ '2026-11-15T09:00:00Z'
          FROM gp WHERE depth <> 'REGISTERED'`);

      // History states: TRACKED products get label_changes + 1 consecutive states; two weeks between them is the observation window.
      await exec(c, `
        CREATE TEMP TABLE gs ON COMMIT DROP AS
        SELECT gp.i, s.s, gp.label_changes AS n, gp.product_id, gp.depth, gp.form,
               'hs_' || ${idPart('state', 'gp.i::bigint * 41 + s.s')} AS state_id,
               gp.i::bigint * 41 + s.s + 1 AS capture_id,
               CASE WHEN gp.depth = 'TRACKED' THEN DATE '${BASE}' + gp.i % 28 + s.s * ($1::int / (gp.label_changes + 1))
                    WHEN gp.depth = 'CAPTURED' THEN DATE '${BASE}' + 100 + gp.i % 500
                    ELSE DATE '${BASE}' + 200 + gp.i % 300 END AS observed_from,
               CASE WHEN gp.depth <> 'TRACKED' THEN NULL
                    WHEN s.s < gp.label_changes THEN DATE '${BASE}' + gp.i % 28 + s.s * ($1::int / (gp.label_changes + 1)) + ($1::int / (gp.label_changes + 1)) - 14
                    WHEN gp.retired THEN DATE '2026-11-05'
                    ELSE DATE '${LATEST}' END AS observed_to_tracked
          FROM gp CROSS JOIN LATERAL generate_series(0, gp.label_changes) s(s)`, [SPREAD_DAYS]);
      await exec(c, 'CREATE INDEX ON gs (i, s)');

      counts.captures = await exec(c, `
        INSERT INTO captures (capture_id, source_id, observed_at, content_sha256, storage_path)
        SELECT capture_id, i * 2 - 1, observed_from + TIME '06:00', encode(sha256(convert_to('gen:capture:' || capture_id, 'UTF8')), 'hex'),
               'preserved/' || product_id || '/' || observed_from || '.html.zst'
          FROM gs`);
      counts.history_states = await exec(c, `
        INSERT INTO history_states (state_id, product_id, capture_id, observed_from, observed_to, classification,
                                    serving_size, serving_unit, servings_per_container, serving_description, note)
        SELECT state_id, product_id, capture_id, observed_from, coalesce(observed_to_tracked, observed_from),
               CASE WHEN depth = 'REGISTERED' THEN 'identity_only' ELSE 'comparable' END,
               CASE WHEN depth = 'REGISTERED' THEN NULL WHEN form = 'capsule' THEN 2 ELSE 10 + i % 5 END,
               CASE WHEN depth = 'REGISTERED' THEN NULL WHEN form = 'capsule' THEN 'capsule' ELSE 'g' END,
               CASE WHEN depth = 'REGISTERED' THEN NULL ELSE 30 - 5 * (((s + 1) / 5) % 2) END,
               CASE WHEN depth = 'REGISTERED' THEN NULL WHEN form = 'capsule' THEN '2 capsules per serving' ELSE '1 scoop (' || (10 + i % 5) || ' g)' END,
               CASE WHEN depth = 'REGISTERED' THEN 'Known by identity only (generated).' END
          FROM gs ORDER BY i, s`);

      // Four declared lines per label. Line 1 alternates its amount on formula changes; line 4 is
      // named without an amount on one product in fifty.
      counts.declared_ingredients = await exec(c, `
        INSERT INTO declared_ingredients (state_id, position, ingredient_id, declared_name, amount, unit, blend_id)
        SELECT gs.state_id, pos, (${sqlArray(lineIngredients)})[1 + (gs.i + pos) % 8], (${sqlArray(lineNames)})[1 + (gs.i + pos) % 8],
               CASE WHEN pos = 4 AND gs.i % 50 = 13 THEN NULL
                    WHEN pos = 1 THEN trim_scale((${sqlArray(lineAmounts)}::numeric[])[1 + (gs.i + pos) % 8] * (1 + 0.25 * ((gs.s - (gs.s + 1) / 5) % 2)))
                    ELSE (${sqlArray(lineAmounts)}::numeric[])[1 + (gs.i + pos) % 8] END,
               CASE WHEN pos = 4 AND gs.i % 50 = 13 THEN NULL ELSE (${sqlArray(lineUnits)})[1 + (gs.i + pos) % 8] END,
               NULL
          FROM gs CROSS JOIN generate_series(1, 4) pos WHERE gs.depth <> 'REGISTERED'`);

      // Prices: TRACKED listings are read every 28 days; the list price steps up by $2 at each planned change.
      // Observation ids are i * 64 + m + 1 (list) and i * 64 + 32 + m + 1 (promotional), so Signals can cite them.
      counts.price_observations = await exec(c, `
        INSERT INTO price_observations (observation_id, product_id, source_id, retailer, observed_at, price_cents, price_basis, servings_per_container, state_id)
        SELECT o.id, o.product_id, o.i * 2, (${sqlArray(retailerNames)})[1 + o.i % 3], o.d, o.cents, o.basis,
               CASE WHEN o.s IS NOT NULL THEN 30 - 5 * (((o.s + 1) / 5) % 2) END,
               CASE WHEN o.s IS NOT NULL THEN 'hs_' || ${idPart('state', 'o.i::bigint * 41 + o.s')} END
          FROM (
          -- The label state read on the observation day, by the same arithmetic that laid the states out (NULL inside a window).
          SELECT o.*, CASE WHEN o.depth = 'CAPTURED' THEN 0
                           WHEN o.off < 0 OR (o.retired AND o.d > DATE '2026-11-05') THEN NULL
                           WHEN o.off / o.len >= o.n THEN o.n
                           WHEN o.off % o.len <= o.len - 14 THEN o.off / o.len END AS s
            FROM (
            SELECT o.*, gp.depth, gp.retired, gp.label_changes AS n, $1::int / (gp.label_changes + 1) AS len, o.d - (DATE '${BASE}' + gp.i % 28) AS off
              FROM gp JOIN (
            SELECT gp.i, gp.product_id, gp.i::bigint * 64 + m + 1 AS id, DATE '${BASE}' + 3 + gp.i % 28 + 28 * m AS d, 'list' AS basis,
                   gp.base_cents + 200 * least(gp.price_changes, ((m + 1) * (gp.price_changes + 1) + ${PRICE_OBSERVATIONS - 1}) / ${PRICE_OBSERVATIONS} - 1) AS cents
              FROM gp CROSS JOIN generate_series(0, ${PRICE_OBSERVATIONS - 1}) m WHERE gp.depth = 'TRACKED'
            UNION ALL
            SELECT gp.i, gp.product_id, gp.i::bigint * 64 + 32 + m + 1, DATE '${BASE}' + 4 + gp.i % 28 + 28 * m, 'promotional', gp.base_cents - 700
              FROM gp CROSS JOIN generate_series(0, ${PRICE_OBSERVATIONS - 1}) m WHERE gp.depth = 'TRACKED' AND (gp.i + m) % 10 = 5
            UNION ALL
            SELECT gp.i, gp.product_id, gp.i::bigint * 64 + 1, DATE '${BASE}' + 100 + gp.i % 500, 'list', gp.base_cents
              FROM gp WHERE gp.depth = 'CAPTURED') o USING (i)) o) o`, [SPREAD_DAYS]);

      // Every change a candidate; approved ones released on the first Tuesday a week after the window closed.
      await exec(c, `
        CREATE TEMP TABLE gc ON COMMIT DROP AS
        SELECT row_number() OVER (ORDER BY window_end, i, kind, seq) AS candidate_id, *,
               window_end + 7 + ((9 - extract(isodow FROM window_end + 7)::int) % 7) AS release_date
          FROM (
            SELECT a.i, 'label' AS kind, a.s AS seq, a.product_id,
                   CASE WHEN a.s % 5 = 4 THEN 'serving' ELSE 'formula' END AS dimension,
                   b.state_id AS before_state_id, a.state_id AS after_state_id,
                   b.observed_to_tracked AS window_start, a.observed_from AS window_end,
                   CASE WHEN a.s % 5 = 4
                        THEN 'Servings per container: ' || (30 - 5 * (((b.s + 1) / 5) % 2)) || ' → ' || (30 - 5 * (((a.s + 1) / 5) % 2)) || '.'
                        ELSE (${sqlArray(lineNames)})[1 + (a.i + 1) % 8] || ': '
                          || trim_scale((${sqlArray(lineAmounts)}::numeric[])[1 + (a.i + 1) % 8] * (1 + 0.25 * ((b.s - (b.s + 1) / 5) % 2))) || ' ' || (${sqlArray(lineUnits)})[1 + (a.i + 1) % 8]
                          || ' → ' || trim_scale((${sqlArray(lineAmounts)}::numeric[])[1 + (a.i + 1) % 8] * (1 + 0.25 * ((a.s - (a.s + 1) / 5) % 2))) || ' ' || (${sqlArray(lineUnits)})[1 + (a.i + 1) % 8] || '.'
                   END AS summary,
                   NULL::bigint AS before_price_id, NULL::bigint AS after_price_id, 'approved' AS status
              FROM gs a JOIN gs b ON b.i = a.i AND b.s = a.s - 1
            UNION ALL
            SELECT gp.i, 'price', k, gp.product_id, 'price', NULL, NULL,
                   DATE '${BASE}' + 3 + gp.i % 28 + 28 * (m - 1), DATE '${BASE}' + 3 + gp.i % 28 + 28 * m,
                   'List price at ' || (${sqlArray(retailerNames)})[1 + gp.i % 3] || ': $' || to_char((gp.base_cents + 200 * k) / 100.0, 'FM990.00')
                     || ' → $' || to_char((gp.base_cents + 200 * (k + 1)) / 100.0, 'FM990.00') || ' per container.',
                   gp.i::bigint * 64 + m, gp.i::bigint * 64 + m + 1, 'approved'
              FROM gp CROSS JOIN LATERAL generate_series(0, gp.price_changes - 1) k
                   CROSS JOIN LATERAL (SELECT ((k + 1) * ${PRICE_OBSERVATIONS}) / (gp.price_changes + 1) AS m) mm
             WHERE gp.depth = 'TRACKED'
            UNION ALL
            SELECT gs.i, 'open', 0, gs.product_id, 'formula', gs.state_id, NULL, DATE '2026-11-10', DATE '${LATEST}',
                   'Possible label change awaiting review (generated).', NULL, NULL, 'open'
              FROM gs WHERE gs.depth = 'TRACKED' AND gs.s = gs.n AND gs.i % 100 = 18
            UNION ALL
            SELECT gs.i, 'refused', 0, gs.product_id, 'formula', gs.state_id, NULL, gs.observed_from, gs.observed_from + 7,
                   'Declared amount misread (generated).', NULL, NULL, 'refused'
              FROM gs WHERE gs.depth = 'TRACKED' AND gs.s = 0 AND gs.i % 100 = 54) x`);

      counts.release_batches = await exec(c, `
        INSERT INTO release_batches (batch_id, release_date, released_at, released_by)
        SELECT row_number() OVER (ORDER BY d), d, d + TIME '15:00', 'generator'
          FROM (SELECT DISTINCT release_date AS d FROM gc WHERE status = 'approved') x ORDER BY d`);
      counts.candidates = await exec(c, `
        INSERT INTO candidates (candidate_id, product_id, dimension, before_state_id, after_state_id, window_start, window_end,
                                exact_change_date, summary, opened_at, status, reviewer, review_note, reviewed_at, before_price_id, after_price_id)
        SELECT candidate_id, product_id, dimension, before_state_id, after_state_id, window_start, window_end,
               CASE WHEN status = 'approved' AND candidate_id % 25 = 0 THEN window_start + 3 END, summary,
               window_end + 1 + TIME '10:00', status,
               CASE WHEN status <> 'open' THEN 'generator-reviewer-' || (candidate_id % 2 + 1) END,
               CASE WHEN status = 'approved' THEN 'Both states compared line by line (generated).'
                    WHEN status = 'refused' THEN 'Misread capture; no change (generated).' END,
               CASE WHEN status = 'approved' THEN release_date - 1 + TIME '16:00' WHEN status = 'refused' THEN window_end + 3 + TIME '16:00' END,
               before_price_id, after_price_id
          FROM gc ORDER BY candidate_id`);
      counts.signals = await exec(c, `
        INSERT INTO signals (signal_id, candidate_id, product_id, dimension, before_state_id, after_state_id, window_start, window_end,
                             exact_change_date, summary, batch_id, released_on, status, before_price_id, after_price_id)
        SELECT 'sig_' || ${idPart('signal', 'gc.candidate_id')}, gc.candidate_id, gc.product_id, gc.dimension, gc.before_state_id, gc.after_state_id,
               gc.window_start, gc.window_end, CASE WHEN gc.candidate_id % 25 = 0 THEN gc.window_start + 3 END, gc.summary, b.batch_id, b.release_date,
               CASE WHEN gc.candidate_id % 1500 = 0 THEN 'withdrawn' WHEN gc.candidate_id % 1000 = 0 THEN 'corrected' ELSE 'released' END,
               gc.before_price_id, gc.after_price_id
          FROM gc JOIN release_batches b ON b.release_date = gc.release_date
         WHERE gc.status = 'approved' ORDER BY gc.candidate_id`);
      counts.signal_corrections = await exec(c, `
        INSERT INTO signal_corrections (signal_id, kind, recorded_on, public_note, operator_note, recorded_at)
        SELECT signal_id, CASE status WHEN 'withdrawn' THEN 'withdrawal' ELSE 'correction' END, released_on + 14,
               CASE status WHEN 'withdrawn' THEN 'Withdrawn (generated): the change was not confirmed on re-reading.'
                           ELSE 'Corrected (generated): the summary was re-read against the capture.' END,
               'generated', released_on + 14 + TIME '11:00'
          FROM signals WHERE status <> 'released' ORDER BY signal_id`);

      counts.monitoring_spans = await exec(c, `
        INSERT INTO monitoring_spans (product_id, started_on, ended_on)
        SELECT product_id, DATE '${BASE}', CASE WHEN retired THEN DATE '2026-11-12' END FROM gp WHERE depth = 'TRACKED' ORDER BY i`);
      counts.monitoring_checks = await exec(c, `
        INSERT INTO monitoring_checks (product_id, source_id, checked_at, outcome, recovered)
        SELECT product_id, source_id, d + TIME '06:00', outcome,
               outcome = 'valid' AND coalesce(lag(outcome) OVER (PARTITION BY product_id ORDER BY d) IN ('empty', 'unreadable'), false)
          FROM (
            SELECT gp.product_id, gp.i * 2 - 1 AS source_id, DATE '2026-07-28' + 14 * k AS d,
                   CASE WHEN gp.i % 200 = 3 AND k >= 7 THEN 'unreadable'
                        WHEN (gp.i + k) % 23 = 0 THEN 'empty' WHEN (gp.i + k) % 29 = 0 THEN 'unreadable' ELSE 'valid' END AS outcome
              FROM gp CROSS JOIN generate_series(0, 8) k
             WHERE gp.depth = 'TRACKED' AND (NOT gp.retired OR DATE '2026-07-28' + 14 * k <= DATE '2026-11-12')) x
         ORDER BY d, product_id`);

      await restore();
      for (const [t, col] of [['sources', 'source_id'], ['captures', 'capture_id'], ['price_observations', 'observation_id'], ['candidates', 'candidate_id'],
        ['release_batches', 'batch_id'], ['research_context', 'research_id'], ['regulatory_records', 'regulatory_id']] as const) {
        await advanceSequence(c, t, col);
      }

      counts.ledger_editions = await insertEditions(c);
    });
    if (!record_version) throw new Error('the generator created no record version');
    await pool.query('ANALYZE');
    return { record_version, counts };
  } finally {
    await pool.end();
  }
}

/** Row-level guard triggers paused during the bulk load and re-checked set-based after it (see below). */
const rowGuards: [table: string, trigger: string][] = [
  ['candidates', 'candidates_price_sides'],
  ['signals', 'signals_price_sides'],
  ['signals', 'signals_guard'],
];

/** Tables the generator fills in bulk. */
const bulkTables = [
  'products', 'product_aliases', 'sources', 'captures', 'history_states', 'declared_ingredients', 'price_observations',
  'candidates', 'signals', 'signal_corrections', 'monitoring_spans', 'monitoring_checks',
];

/**
 * A bulk load checks foreign keys faster as one set-based validation at the
 * end than row by row, and builds secondary indexes faster once than
 * incrementally. Inside the generator's transaction, this drops the foreign
 * keys and non-unique indexes of the bulk tables (read from the catalogue, so
 * later migrations are covered) and returns a function that re-creates them:
 * re-adding a foreign key validates every row, so integrity is still
 * checked. The Record's row guards on candidates and Signals (approved
 * candidates only, list prices on both sides of a price change) are
 * likewise paused and then checked once over all rows, with the same rules.
 * Primary keys, unique constraints, the release-date guard and the
 * record-version triggers stay in force throughout.
 */
async function suspendForeignKeysAndIndexes(c: pg.ClientBase): Promise<() => Promise<void>> {
  const fks = await c.query<{ tbl: string; name: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, quote_ident(conname) AS name, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1) ORDER BY 1, 2`, [bulkTables]);
  const indexes = await c.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i WHERE i.indrelid::regclass::text = ANY($1) AND NOT i.indisunique AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) ORDER BY 1`, [bulkTables]);
  for (const f of fks.rows) await c.query(`ALTER TABLE ${f.tbl} DROP CONSTRAINT ${f.name}`);
  for (const i of indexes.rows) await c.query(`DROP INDEX ${i.name}`);
  for (const [table, trigger] of rowGuards) await c.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  return async () => {
    for (const i of indexes.rows) await exec(c, i.def);
    for (const f of fks.rows) await exec(c, `ALTER TABLE ${f.tbl} ADD CONSTRAINT ${f.name} ${f.def}`);
    for (const [table, trigger] of rowGuards) await c.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
    const broken = await c.query<{ rule: string; n: number }>(`
      SELECT 'a Signal from a candidate that is not approved' AS rule, count(*)::int AS n
        FROM signals s JOIN candidates c USING (candidate_id) WHERE c.status <> 'approved'
      UNION ALL
      SELECT 'a price side that is not a list price of the same product', count(*)::int FROM (
        SELECT product_id, before_price_id AS o FROM candidates UNION ALL SELECT product_id, after_price_id FROM candidates
        UNION ALL SELECT product_id, before_price_id FROM signals UNION ALL SELECT product_id, after_price_id FROM signals) x
       WHERE x.o IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM price_observations p WHERE p.observation_id = x.o AND p.product_id = x.product_id AND p.price_basis = 'list')`);
    for (const b of broken.rows) if (b.n > 0) throw new Error(`generated Record breaks a Record rule: ${b.rule} (${b.n} rows)`);
  };
}

/** Editions as in the demo Record: September and October 2026 closed, November open. */
async function insertEditions(c: pg.ClientBase): Promise<number> {
  const rows: Record<string, unknown>[] = [];
  for (const [period, closedAt] of [['2026-09', '2026-10-02T15:00:00.000Z'], ['2026-10', '2026-11-03T15:00:00.000Z']] as const) {
    const asOf = period === '2026-09' ? '2026-09-30' : '2026-10-31';
    const changes = await c.query<{ signal_id: string; product_id: string; product_name: string; dimension: string; summary: string; released_at: string; start: string; end: string; exact: string | null }>(
      `SELECT s.signal_id, s.product_id, b.name || ' ' || p.name AS product_name, s.dimension, s.summary,
              to_char(s.released_on, 'YYYY-MM-DD') AS released_at, to_char(s.window_start, 'YYYY-MM-DD') AS start,
              to_char(s.window_end, 'YYYY-MM-DD') AS "end", to_char(s.exact_change_date, 'YYYY-MM-DD') AS exact
         FROM signals s JOIN products p USING (product_id) JOIN brands b ON b.brand_id = p.brand_id
        WHERE to_char(s.released_on, 'YYYY-MM') = $1 ORDER BY s.released_on, s.signal_id`, [period]);
    const bench = await c.query<{ caffeine_median: number | null; caffeine_n: number; cohort: number; price_median: number | null; price_n: number }>(
      `WITH newest AS (
         SELECT DISTINCT ON (h.product_id) h.product_id, h.state_id, h.servings_per_container
           FROM history_states h JOIN products p USING (product_id)
          WHERE h.classification = 'comparable' AND h.observed_from <= $1::date AND (p.retired_on IS NULL OR p.retired_on > $1::date)
          ORDER BY h.product_id, h.observed_from DESC),
       caffeine AS (SELECT d.amount FROM newest n JOIN declared_ingredients d USING (state_id) WHERE d.ingredient_id = 'ing_caffeine' AND d.amount IS NOT NULL),
       prices AS (
         SELECT DISTINCT ON (o.product_id) o.price_cents::numeric / o.servings_per_container / 100 AS per_serving
           FROM price_observations o WHERE o.price_basis = 'list' AND o.servings_per_container IS NOT NULL AND to_char(o.observed_at, 'YYYY-MM') = $2
          ORDER BY o.product_id, o.observed_at DESC)
       SELECT (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) FROM caffeine)::float8 AS caffeine_median,
              (SELECT count(*)::int FROM caffeine) AS caffeine_n, (SELECT count(*)::int FROM newest) AS cohort,
              (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY per_serving)::numeric, 2) FROM prices)::float8 AS price_median,
              (SELECT count(*)::int FROM prices) AS price_n`, [asOf, period]);
    const b = bench.rows[0]!;
    const document = {
      edition_id: `ed_${period.replace('-', '_')}`,
      period,
      status: 'closed',
      data_as_of: asOf,
      executive_summary: `Generated edition: ${changes.rows.length} confirmed changes released in ${period}.`,
      confirmed_changes: changes.rows.map((r) => ({
        signal_id: r.signal_id, product_id: r.product_id, product_name: r.product_name, dimension: r.dimension, summary: r.summary,
        released_at: r.released_at, observation_window: { start: r.start, end: r.end, exact_change_date: r.exact },
      })),
      category_benchmarks: [
        { name: 'Median declared caffeine per serving', value: b.caffeine_median, unit: 'mg', cohort: { description: `products whose newest comparable label on or before ${asOf} declares caffeine with an amount`, denominator: b.caffeine_n } },
        { name: 'Products with a comparable label state', value: b.cohort, unit: 'products', cohort: { description: `products in the Record with a comparable label state on or before ${asOf}`, denominator: b.cohort } },
        { name: 'Median list price per serving', value: b.price_median, unit: 'USD per serving', cohort: { description: `products with a list price and servings per container observed in ${period}`, denominator: b.price_n } },
      ],
      serving_economics: [],
      product_comparison: [],
      limitations: ['Generated benchmark data: every brand and product is fictional.', 'Serving economics and product comparison are not generated for large Records.'],
    };
    rows.push({
      edition_id: document.edition_id, period, status: 'closed', data_as_of: asOf, opened_at: `${period}-01T00:00:00.000Z`, closed_at: closedAt,
      document: JSON.stringify(document), edition_hash: editionHash(document), count_released: changes.rows.length,
    });
  }
  const nov = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM signals WHERE to_char(released_on, 'YYYY-MM') = '2026-11'");
  rows.push({
    edition_id: 'ed_2026_11', period: '2026-11', status: 'open', data_as_of: LATEST, opened_at: '2026-11-01T00:00:00.000Z', closed_at: null,
    document: null, edition_hash: null, count_released: nov.rows[0]!.n,
  });
  await insertRows(c, 'ledger_editions', rows);
  return rows.length;
}
