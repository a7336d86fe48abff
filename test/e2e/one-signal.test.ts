import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope } from '@evidence-record/contract';
import { correctSignal } from '@evidence-record/curation';
import { createLedgerApp } from '@evidence-record/ledger';
import { createRecordApp } from '@evidence-record/record';
import { createSignalsApp } from '@evidence-record/signals';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';

/**
 * One Signal, one object: a released Signal reads the same in explain_signal,
 * the Signal feed, get_formula_history and get_ledger_edition, because all of
 * them read it with the Record store's one query and present it with its one
 * presenter. Checked on every Signal of a closed edition, after one of them
 * is corrected with a new summary (so `summary_before`/`summary_after` are
 * set), on the three services running in this process over a private copy of
 * the demo Record.
 */
const PUBLIC_BASE_URL = 'https://evidence-record.test';
let db: TestDatabase;
let record: InProcessService;
let signals: InProcessService;
let ledger: InProcessService;
let corrected = '';

type Signal = Record<string, unknown> & { signal_id: string; product: { product_id: string }; corrections: Array<Record<string, unknown>> };

async function answer(svc: InProcessService, path: string): Promise<AnswerEnvelope> {
  const res = await svc.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return AnswerEnvelope.parse(res.body);
}

beforeAll(async () => {
  db = await demoDatabase();
  record = await startInProcess('record', db.url, (deps) => createRecordApp({ ...deps, publicBaseUrl: PUBLIC_BASE_URL }));
  signals = await startInProcess('signals', db.url, (deps) => createSignalsApp({ ...deps, publicBaseUrl: PUBLIC_BASE_URL, cursorSecret: 'c'.repeat(64) }));
  ledger = await startInProcess('ledger', db.url, (deps) => createLedgerApp({ ...deps, publicBaseUrl: PUBLIC_BASE_URL, today: () => '2026-11-21' }));
  // A formula Signal of the closed October edition, corrected with a new summary.
  const { rows } = await record.pool.query<{ signal_id: string }>(
    `SELECT signal_id FROM signals WHERE to_char(released_on, 'YYYY-MM') = '2026-10' AND dimension = 'formula' AND status = 'released' ORDER BY signal_id LIMIT 1`,
  );
  corrected = rows[0]!.signal_id;
  await correctSignal(record.pool, { signal_id: corrected, note: 'The summary is reworded; the Signal keeps its address.', summary: 'A reworded summary of the change.', by: 'test' });
}, 120_000);

afterAll(async () => {
  await Promise.all([record?.close(), signals?.close(), ledger?.close()]);
  await db?.drop();
});

describe('a released Signal is one object in every answer', () => {
  it('get_ledger_edition, get_formula_history, the feed and explain_signal carry the same Signal, corrections included', async () => {
    const edition = await answer(ledger, '/api/v1/ledger/ed_2026_10');
    const inEdition = edition.signals as Signal[];
    expect(inEdition.length).toBeGreaterThan(1);
    // A price Signal recorded without states is among them: its sides read null in every answer (decision 2000).
    expect(inEdition.some((s) => s.dimension === 'price' && s.before === null && s.after === null)).toBe(true);
    // The ledger's Signals carry their corrections' summaries (additive since issue 27).
    expect(inEdition.find((s) => s.signal_id === corrected)!.corrections).toEqual([
      { kind: 'correction', recorded_on: expect.any(String), note: 'The summary is reworded; the Signal keeps its address.', summary_before: expect.any(String), summary_after: 'A reworded summary of the change.' },
    ]);

    for (const s of inEdition) {
      const productId = s.product.product_id;
      const history = await answer(record, `/api/v1/products/${productId}/history`);
      expect((history.signals as Signal[]).find((h) => h.signal_id === s.signal_id), `${s.signal_id} in get_formula_history`).toEqual(s);

      const feed = await answer(signals, `/api/v1/signals?product_id=${productId}&limit=25`);
      expect((feed.signals as Signal[]).find((f) => f.signal_id === s.signal_id), `${s.signal_id} in list_signal_changes`).toEqual(s);

      // explain_signal widens the two sides (the states, the differing lines, the prices) and adds the evidence; the rest is the same Signal.
      const explained = (await answer(signals, `/api/v1/signals/${s.signal_id}`)).signals![0] as Signal & { before: { state_id: string | null } | null; after: { state_id: string | null } | null };
      const { evidence: _evidence, before, after, ...rest } = explained;
      const side = (x: { state_id: string | null } | null) => (x && x.state_id !== null ? { state_id: x.state_id } : null);
      expect({ ...rest, before: side(before), after: side(after) }, `${s.signal_id} in explain_signal`).toEqual(s);
    }
  });
});
