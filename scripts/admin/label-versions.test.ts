import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'nats';
import { streamNames } from '@evidence-record/contract';
import { Metrics, createLogger, createPool, natsConnectOptions, startService, type Pool, type RunningService } from '@evidence-record/platform';
import { createRecordApp } from '@evidence-record/record';
import { startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { NATS_URL } from '@evidence-record/test-support/infra';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * Label versions, end to end through the real operator CLI process: two real
 * DSLD labels of one product (Solgar Advanced Multi-Billion Dophilus: label
 * 79324, entered into DSLD 2017-10-21, whose blend total is not provided; and
 * label 264116, entered 2022-05-19, whose blend total is 13 mg), served byte
 * for byte by a local DSLD, attached one after the other. The history holds
 * two states dated by DSLD, one candidate whose window runs between the two
 * DSLD dates, and no Signal until a curator approves and releases it.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
let record: RunningService;
const { natsPrefix } = isolationPrefix('label_versions');
const root = new URL('../../', import.meta.url).pathname;
const fixture = (id: number) => readFileSync(`${root}services/monitor/test/fixtures/dsld-real/${id}.json`, 'utf8');

function admin(args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      operatorCliArgs([...args, '--json']),
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: db.url,
          NATS_URL,
          NATS_PREFIX: natsPrefix,
          PUBLIC_BASE_URL: 'https://evidence-record.test',
          DSLD_BASE_URL: `${src.origin}/dsld/v9`,
          MONITOR_ALLOW_LOCALHOST: '1',
          MONITOR_HOST_INTERVAL_MS: '0',
        },
        timeout: 90_000,
      },
      (err, stdout) => {
        const lines = stdout.trim().split('\n').filter(Boolean);
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, json: JSON.parse(lines.at(-1) ?? '{}') });
      },
    );
  });
}

interface Answer {
  history: Array<Record<string, unknown>>;
  signals: Array<Record<string, unknown>>;
  coverage: Record<string, unknown>;
  limitations: string[];
}

async function get(path: string): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${record.port}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 2 });
  src = await startSourceServer();
  src.labelBodies.set(79324, fixture(79324));
  src.labelBodies.set(264116, fixture(264116));
  const log = createLogger('record-test', 'silent');
  record = await startService(createRecordApp({ pool, publicBaseUrl: 'https://er.test', log, metrics: new Metrics('record') }), { port: 0, log, graceMs: 500, handleSignals: false });
});

afterAll(async () => {
  const nc = await connect(natsConnectOptions(NATS_URL)).catch(() => null);
  if (nc) {
    const jsm = await nc.jetstreamManager();
    const names = streamNames(natsPrefix);
    for (const s of [names.signals.stream, names.alerts.stream]) await jsm.streams.delete(s).catch(() => undefined);
    await nc.close();
  }
  await record?.close();
  await src?.close();
  await pool?.end();
  await db?.drop();
});

describe('product add-from-dsld: label versions and recoverable history', () => {
  it('two real labels of one product, attached one after the other, give two states dated by DSLD, a candidate between their dates, and a Signal only once released', async () => {
    const first = await admin(['product', 'add-from-dsld', '--label', '79324', '--by', 'curator-test']);
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({
      name: 'Advanced Multi-Billion Dophilus',
      product_created: true,
      found_by: 'created',
      label_id: 79324,
      dsld_date: '2017-10-21',
      monitored: true,
      state_created: true,
      candidates_opened: 0,
      depth_class: 'TRACKED',
    });
    const productId = first.json.product_id as string;

    // The newer label names no relationship to the older one: it is found by the same brand and name.
    const second = await admin(['product', 'add-from-dsld', '--label', '264116', '--by', 'curator-test']);
    expect(second.code).toBe(0);
    expect(second.json).toMatchObject({ product_id: productId, product_created: false, found_by: 'brand_and_name', dsld_date: '2022-05-19', monitored: true, state_created: true, candidates_opened: 2 });

    // Attaching it again, or a label DSLD does not have, is refused with a code, never a stack trace.
    expect(await admin(['product', 'add-from-dsld', '--label', '264116'])).toMatchObject({ code: 1, json: { error: 'already_exists' } });
    expect(await admin(['product', 'add-from-dsld', '--label', '999999'])).toMatchObject({ code: 1, json: { error: 'not_found' } });
    expect(await admin(['product', 'add-from-dsld', '--label', '264116', '--product', 'prd_000000000000'])).toMatchObject({ code: 1, json: { error: 'not_found' } });

    // Only the newest label version is monitored; the older one is history.
    const sources = await pool.query(`SELECT url, next_check_due IS NOT NULL AS monitored FROM sources WHERE product_id = $1 ORDER BY source_id`, [productId]);
    expect(sources.rows).toEqual([
      { url: src.labelUrl(79324), monitored: false },
      { url: src.labelUrl(264116), monitored: true },
    ]);

    // The blend total and the servings per container (not given, then 60) differ: one candidate each.
    const candidates = await admin(['candidate', 'list', '--product', productId]);
    const list = candidates.json.candidates as Array<Record<string, unknown>>;
    expect(list.map((c) => c.dimension)).toEqual(['formula', 'serving']);
    for (const c of list) expect(c).toMatchObject({ status: 'open', opened_by: 'monitor', window_start: '2017-10-21', window_end: '2022-05-19', exact_change_date: null });
    const candidate = list[0]!;

    const history = await get(`/api/v1/products/${productId}/history`);
    expect(history.history.map((s) => [s.observed_from, s.observed_to, s.classification])).toEqual([
      ['2017-10-21', '2017-10-21', 'comparable'],
      ['2022-05-19', '2022-05-19', 'comparable'],
    ]);
    expect(history.coverage).toMatchObject({ first_observed: '2017-10-21', states: 2, comparable_pairs: 1, released_signals: 0, depth_of_history: { class: 'comparable_timeline', span_days: 1671 } });
    expect(history.signals).toEqual([]);
    expect(history.limitations).toContain("The Record's history of this product begins on 2017-10-21; label states before that date are not recoverable from the Record.");

    // The states hold what each label declares: the blend total undisclosed, then 13 mg.
    const totals = await pool.query(`SELECT h.observed_from, b.total_amount, b.total_unit FROM declared_blends b JOIN history_states h USING (state_id) WHERE h.product_id = $1 ORDER BY 1`, [productId]);
    expect(totals.rows).toEqual([
      { observed_from: '2017-10-21', total_amount: null, total_unit: null },
      { observed_from: '2022-05-19', total_amount: 13, total_unit: 'mg' },
    ]);

    const productRecord = await get(`/api/v1/products/${productId}`);
    expect(productRecord.coverage.label_versions).toEqual([
      { dsld_label_id: 79324, product_version_code: 'SOLGB70038 03B', dsld_date: '2017-10-21', off_market: false, off_market_since: null, monitored: false, source_url: src.labelUrl(79324) },
      { dsld_label_id: 264116, product_version_code: 'SOLGB70038 04C 14-10747X3S Prod 39', dsld_date: '2022-05-19', off_market: false, off_market_since: null, monitored: true, source_url: src.labelUrl(264116) },
    ]);

    // A curator approves: still no Signal in any answer until the release.
    expect(await admin(['candidate', 'approve', String(candidate.candidate_id), '--reviewer', 'curator-test', '--note', 'Two DSLD label versions of one product.'])).toMatchObject({ code: 0 });
    expect((await get(`/api/v1/products/${productId}/history`)).signals).toEqual([]);
    const released = await admin(['signal', 'release', '--by', 'curator-test']);
    expect(released.code).toBe(0);
    const after = await get(`/api/v1/products/${productId}/history`);
    expect(after.signals).toHaveLength(1);
    expect(after.signals[0]).toMatchObject({ dimension: 'formula', observation_window: { start: '2017-10-21', end: '2022-05-19', exact_change_date: null } });
  }, 240_000);
});
