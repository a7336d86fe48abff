import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics, createLogger, createPool, startService, type Pool, type RunningService } from '@evidence-record/platform';
import { createRecordApp } from '@evidence-record/record';
import { importCaptures } from '@evidence-record/curation';
import { dsldLabel, startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { UsageError, inProcessAdmin } from '@evidence-record/admin';
import { cliEnv } from '@evidence-record/admin/config';

/**
 * The source monitor's operator verbs, run in-process exactly as `npm run -s
 * admin` runs them, against a real Record and a local DSLD/retailer server;
 * the record service (in-process) resolves what `product add` created.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
let record: RunningService;
let env: NodeJS.ProcessEnv;

const admin = inProcessAdmin(() => pool, () => env);

async function resolve(identifier: string): Promise<string | null> {
  const res = await fetch(`http://127.0.0.1:${record.port}/api/v1/products/resolve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier }) });
  const body = (await res.json()) as { product?: { product_id: string } | null };
  return body.product?.product_id ?? null;
}

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  src = await startSourceServer();
  // What a verb gets from the CLI's plumbing: the declared settings only (reading another fails the test).
  env = cliEnv({ DATABASE_URL: db.url, MONITOR_ALLOW_LOCALHOST: '1', MONITOR_HOST_INTERVAL_MS: '0', DSLD_BASE_URL: `${src.origin}/dsld/v9` });
  const log = createLogger('record-test', 'silent');
  record = await startService(createRecordApp({ pool, publicBaseUrl: 'https://er.test', log, metrics: new Metrics('record') }), { port: 0, log, graceMs: 500, handleSignals: false });
});

afterAll(async () => {
  await record?.close();
  await src?.close();
  await pool?.end();
  await db?.drop();
});

describe('monitor verbs', () => {
  it('adds a product resolvable by name and alias at once, adds, lists, pauses and resumes sources, runs due checks and lists the candidates', async () => {
    const added = await admin('product', 'add', '--brand', 'Harrier Labs', '--name', 'Crosswind Pre', '--alias', 'Crosswind');
    expect(added).toMatchObject({ name: 'Crosswind Pre', depth_class: 'REGISTERED' });
    const productId = added.product_id as string;
    expect(await resolve('Harrier Labs Crosswind Pre')).toBe(productId);
    expect(await resolve('Crosswind')).toBe(productId);
    // The brand is found by name the second time.
    expect((await admin('product', 'add', '--brand', 'harrier labs', '--name', 'Tailwind')).brand_id).toBe(added.brand_id);
    await expect(admin('product', 'add', '--brand', 'Harrier Labs')).rejects.toBeInstanceOf(UsageError);

    src.labels.set(4242, dsldLabel({ id: 4242, brand: 'Harrier Labs', name: 'Crosswind Pre', caffeineMg: 175 }));
    const source = await admin('source', 'add', '--product', productId, '--kind', 'dsld_label', '--url', `${src.origin}/dsld/v9/label/4242`, '--every', '1d');
    expect(Object.keys(source).sort()).toEqual(['kind', 'next_check_due', 'product_id', 'source_id', 'url', 'variant']);
    expect(source.variant).toBeNull();
    // A variant names one offer of a retailer's page; a label is read whole.
    await expect(admin('source', 'add', '--product', productId, '--kind', 'dsld_label', '--url', `${src.origin}/dsld/v9/label/4243`, '--variant', 'PW-60')).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/only an offer_page source names a variant/) });
    await expect(admin('source', 'add', '--product', productId, '--kind', 'offer_page', '--url', `${src.origin}/shop/shelfwise/crosswind`, '--variant', 'two words')).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/variant/) });
    await expect(admin('source', 'add', '--product', productId, '--kind', 'offer_page', '--url', 'http://169.254.169.254/latest/meta-data/')).rejects.toMatchObject({ code: 'refused_address' });

    const ran = await admin('monitor', 'run-once');
    expect(ran).toEqual({ checked: 1, valid: 1, empty: 0, unreadable: 0, recovered: 0, states_created: 1, prices_recorded: 0, candidates_opened: 0 });
    expect((await pool.query('SELECT depth_class FROM products WHERE product_id = $1', [productId])).rows[0].depth_class).toBe('TRACKED');
    // Nothing is due any more: a second run checks nothing.
    expect((await admin('monitor', 'run-once')).checked).toBe(0);

    const listed = (await admin('source', 'list', '--product', productId)).sources as Array<Record<string, unknown>>;
    expect(listed).toEqual([
      { source_id: source.source_id, kind: 'dsld_label', url: `${src.origin}/dsld/v9/label/4242`, variant: null, state: 'active', last_checked_at: expect.any(String), last_outcome: 'valid', next_check_due: expect.any(String), consecutive_unreadable: 0 },
    ]);
    expect(await admin('source', 'pause', String(source.source_id))).toMatchObject({ state: 'paused' });
    expect((await pool.query('SELECT depth_class FROM products WHERE product_id = $1', [productId])).rows[0].depth_class).toBe('CAPTURED');
    expect((await admin('monitor', 'run-once', '--product', productId)).checked).toBe(0);
    expect(await admin('source', 'resume', String(source.source_id))).toMatchObject({ state: 'active' });

    // A changed label, read the next day by a product run: one candidate, opened by the monitor.
    await pool.query(`UPDATE history_states SET observed_from = observed_from - 1, observed_to = observed_to - 1 WHERE product_id = $1`, [productId]);
    src.labels.set(4242, dsldLabel({ id: 4242, brand: 'Harrier Labs', name: 'Crosswind Pre', caffeineMg: 200 }));
    expect(await admin('monitor', 'run-once', '--product', productId)).toMatchObject({ checked: 1, states_created: 1, candidates_opened: 1 });
    const open = (await admin('candidate', 'list', '--product', productId, '--status', 'open')).candidates as Array<Record<string, unknown>>;
    expect(open).toHaveLength(1);
    expect(Object.keys(open[0]!).sort()).toEqual(['after_state_id', 'before_state_id', 'candidate_id', 'dimension', 'exact_change_date', 'opened_by', 'product_id', 'status', 'window_end', 'window_start'].sort());
    expect(open[0]).toMatchObject({ product_id: productId, dimension: 'formula', status: 'open', opened_by: 'monitor', exact_change_date: null });
    expect((await admin('candidate', 'list', '--status', 'refused')).candidates).toEqual([]);

    expect(await admin('product', 'retire', productId, '--on', '2026-12-01')).toMatchObject({ product_id: productId, retired_on: '2026-12-01' });
  });

  it('records a check for every manual capture import', async () => {
    const productId = (await admin('product', 'add', '--brand', 'Harrier Labs', '--name', 'Manual Pre')).product_id as string;
    await importCaptures(pool, {
      captures: [
        {
          product_id: productId,
          source: { kind: 'retailer', url: 'https://shop.example/manual-pre', retailer: 'Shop' },
          observed_at: '2026-05-01',
          preserved: { path: 'captures/manual.html', sha256: 'a'.repeat(64) },
          prices: [{ retailer: 'Shop', price_cents: 3999, basis: 'list' }],
        },
      ],
    });
    const { rows } = await pool.query('SELECT outcome, checked_by, to_char(checked_at AT TIME ZONE \'UTC\', \'YYYY-MM-DD\') AS day FROM monitoring_checks WHERE product_id = $1', [productId]);
    expect(rows).toEqual([{ outcome: 'valid', checked_by: 'capture import', day: '2026-05-01' }]);
  });
});
