import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'nats';
import { streamNames } from '@evidence-record/contract';
import { createPool, natsConnectOptions, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { NATS_URL } from '@evidence-record/test-support/infra';
import { createCatalogue, labelCapture, type FixtureProduct } from '@evidence-record/test-support/signals-fixtures';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * The curation verbs through the real operator CLI process: one JSON object
 * on stdout per command, exit code 0 / 1 (refused) / 2 (usage).
 */
let db: TestDatabase;
let pool: Pool;
let dir: string;
let product: FixtureProduct;
const { natsPrefix } = isolationPrefix('cli');
const names = streamNames(natsPrefix);
const today = new Date().toISOString().slice(0, 10);

function admin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; json: Record<string, unknown>; lines: number }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      operatorCliArgs([...args, '--json']),
      {
        cwd: new URL('../../../', import.meta.url).pathname,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: natsPrefix, PUBLIC_BASE_URL: 'https://evidence-record.test', ...env },
        timeout: 60_000,
      },
      (err, stdout) => {
        const lines = stdout.trim().split('\n').filter(Boolean);
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, json: JSON.parse(lines.at(-1) ?? '{}'), lines: lines.length });
      },
    );
  });
}

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 2 });
  [product] = (await createCatalogue(pool, { brands: 1, productsPerBrand: 1 })) as [FixtureProduct];
  dir = await mkdtemp(join(tmpdir(), 'er-cli-'));
});

afterAll(async () => {
  const nc = await connect(natsConnectOptions(NATS_URL)).catch(() => null);
  if (nc) {
    const jsm = await nc.jetstreamManager();
    for (const s of [names.signals.stream, names.alerts.stream]) await jsm.streams.delete(s).catch(() => undefined);
    await nc.close();
  }
  await pool?.end();
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('admin curation verbs', () => {
  let states: string[] = [];
  let candidateId = 0;
  let signalId = '';

  it('capture import → candidate open → approve: one JSON object per command, each naming its record version', async () => {
    const file = join(dir, 'bundle.json');
    await writeFile(file, JSON.stringify({ captures: [labelCapture(product, '2026-02-01', { caffeineMg: 200 }), labelCapture(product, '2026-03-01', { caffeineMg: 275 })] }));
    const imported = await admin(['capture', 'import', '--file', file]);
    expect(imported.code).toBe(0);
    expect(imported.lines).toBe(1);
    expect(imported.json).toMatchObject({ captures: 2, price_observations: 0, record_version: expect.stringMatching(/^rv_/) });
    states = imported.json.states_created as string[];

    const opened = await admin(['candidate', 'open', '--product', product.product_id, '--before', states[0]!, '--after', states[1]!, '--dimension', 'formula', '--summary', 'Caffeine Anhydrous: 200 mg → 275 mg.', '--by', 'ana']);
    expect(opened.code).toBe(0);
    expect(opened.json).toMatchObject({ status: 'open', record_version: expect.stringMatching(/^rv_/) });
    candidateId = opened.json.candidate_id as number;
    // The operator who opened it, by name (the monitor's are opened_by "monitor").
    const listed = await admin(['candidate', 'list', '--product', product.product_id]);
    expect((listed.json.candidates as Array<Record<string, unknown>>).find((c) => c.candidate_id === candidateId)).toMatchObject({ opened_by: 'ana' });

    const approved = await admin(['candidate', 'approve', String(candidateId), '--reviewer', 'cli-reviewer', '--note', 'Read against both labels.']);
    expect(approved.code).toBe(0);
    expect(approved.json).toMatchObject({ status: 'approved', released: false, signal_id: expect.stringMatching(/^sig_/) });
    signalId = approved.json.signal_id as string;
  }, 60_000);

  it('signal release publishes the batch to JetStream at once; a second batch on the date is refused', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const future = await admin(['signal', 'release', '--date', tomorrow, '--by', 'cli-test']);
    expect([future.code, future.json.error]).toEqual([1, 'release_date']);
    expect(future.json.message).toMatch(/after today/);
    const unknown = await admin(['signal', 'release', '--signal', 'sig_000000000000', '--by', 'cli-test']);
    expect([unknown.code, unknown.json.error]).toEqual([1, 'not_found']);
    const released = await admin(['signal', 'release', '--signal', signalId, '--by', 'cli-test']);
    expect(released.code).toBe(0);
    expect(released.json).toMatchObject({ release_date: today, signal_ids: [signalId], outbox: { nats: 'published', published: 1, pending: 0 } });
    const nc = await connect(natsConnectOptions(NATS_URL));
    try {
      const info = await (await nc.jetstreamManager()).streams.info(names.signals.stream);
      expect(info.state.messages).toBe(1);
    } finally {
      await nc.close();
    }
    const again = await admin(['signal', 'release']);
    expect(again.code).toBe(1);
    expect(again.json).toMatchObject({ error: expect.stringMatching(/^(release_date|nothing_to_release)$/), message: expect.stringMatching(/already has a release batch|no approved Signals/) });
    const past = await admin(['signal', 'release', '--date', '2020-01-01']);
    expect([past.code, past.json.error]).toEqual([1, 'release_date']);
    expect(past.json.message).toMatch(/before today/);
  }, 60_000);

  it('signal correct and withdraw keep the release date; edition open works and close waits for the period to end', async () => {
    const short = await admin(['signal', 'correct', signalId, '--note', 'typo']);
    expect([short.code, short.json.error]).toEqual([1, 'invalid_text']);
    const corrected = await admin(['signal', 'correct', signalId, '--note', 'The new amount is 270 mg.', '--summary', 'Caffeine Anhydrous: 200 mg → 270 mg.']);
    expect(corrected.code).toBe(0);
    expect(corrected.json).toMatchObject({ signal_id: signalId, kind: 'correction', summary_before: 'Caffeine Anhydrous: 200 mg → 275 mg.', summary_after: 'Caffeine Anhydrous: 200 mg → 270 mg.' });
    const { rows } = await pool.query('SELECT released_on, status, summary FROM signals WHERE signal_id = $1', [signalId]);
    expect(rows[0]).toEqual({ released_on: today, status: 'corrected', summary: 'Caffeine Anhydrous: 200 mg → 270 mg.' });
    const missing = await admin(['signal', 'correct', 'sig_000000000000', '--note', 'No such Signal exists here.']);
    expect([missing.code, missing.json.error, missing.lines]).toEqual([1, 'not_found', 1]);

    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
    const early = await admin(['edition', 'open', '--period', nextMonth]);
    expect([early.code, early.json.error]).toEqual([1, 'period_not_begun']);
    const month = today.slice(0, 7);
    const opened = await admin(['edition', 'open', '--period', month]);
    expect(opened.json).toMatchObject({ edition_id: `ed_${month.replace('-', '_')}`, status: 'open' });
    const listed = await admin(['edition', 'list']);
    expect(listed.json.editions).toEqual([expect.objectContaining({ edition_id: `ed_${month.replace('-', '_')}`, status: 'open', edition_hash: null })]);
    const closing = await admin(['edition', 'close', `ed_${month.replace('-', '_')}`]);
    expect([closing.code, closing.json.error]).toEqual([1, 'period_not_ended']);
    expect(closing.json.message).toMatch(/has not ended/);
  }, 60_000);

  it('a NATS setting the services would refuse stops a publishing verb first (exit 2), naming the variable, never a password', async () => {
    const release = await admin(['signal', 'release'], { NATS_URL: 'nats://u:hunter2@h1:4222,nats://u:other@h2:4222' });
    expect([release.code, release.json.error]).toEqual([2, 'usage']);
    expect(release.json.message).toMatch(/NATS_URL: server 2:/);
    expect(JSON.stringify(release.json)).not.toMatch(/hunter2|other@/);
    const drain = await admin(['outbox', 'drain'], { NATS_STREAM_REPLICAS: '9' });
    expect([drain.code, drain.json.error]).toEqual([2, 'usage']);
    expect(drain.json.message).toMatch(/NATS_STREAM_REPLICAS/);
  }, 60_000);

  it('outbox drain reports NATS being unreachable as a failure; usage mistakes exit 2', async () => {
    const drain = await admin(['outbox', 'drain'], { NATS_URL: 'nats://127.0.0.1:1' });
    expect([drain.code, drain.json.error]).toEqual([1, 'nats_unavailable']);
    expect(drain.json.message).toMatch(/unreachable/);
    const usage = await admin(['candidate', 'open', '--product', product.product_id]);
    expect(usage.code).toBe(2);
    expect(usage.json).toMatchObject({ error: 'usage' });
    const invalid = await admin(['capture', 'import', '--file', join(dir, 'missing.json')]);
    expect(invalid.code).toBe(2);
  }, 60_000);
});
