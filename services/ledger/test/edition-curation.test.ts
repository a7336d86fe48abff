import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, canonicalJson, editionHash } from '@evidence-record/contract';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { closeEdition, openEdition, releaseSignals, withdrawSignal } from '@evidence-record/curation';
import { approvedFormulaChanges, createCatalogue, preservedHash, preservedPath, type FixtureProduct } from '@evidence-record/test-support/signals-fixtures';
import { PUBLIC_BASE_URL, startLedger, type InProcessLedger } from './support/server';

/** Opening and closing editions through the curation functions, on a Record built by curation too. */
let db: TestDatabase;
let svc: InProcessLedger;
let products: FixtureProduct[];
const mayReleased: string[] = [];
const release = async (date: string) => {
  const r = await releaseSignals(svc.pool, { releasedBy: 'ledger-test', publicBaseUrl: PUBLIC_BASE_URL, clock: () => new Date(`${date}T09:00:00Z`) });
  return r.signal_ids;
};

async function versions(): Promise<number> {
  return (await svc.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM record_versions')).rows[0]!.n;
}

beforeAll(async () => {
  db = await emptyDatabase();
  svc = await startLedger(db.url);
  products = await createCatalogue(svc.pool, { brands: 1, productsPerBrand: 3 });
  await approvedFormulaChanges(svc.pool, [products[0]!, products[1]!], 2, '2026-01-05');
  mayReleased.push(...(await release('2031-05-05')));
  await approvedFormulaChanges(svc.pool, [products[2]!], 1, '2026-01-05');
  mayReleased.push(...(await release('2031-05-12')));
});

afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

describe('edition curation', () => {
  it('opens an edition once per period, as one Record change', async () => {
    const before = await versions();
    const opened = await openEdition(svc.pool, '2031-05');
    expect(opened).toMatchObject({ edition_id: 'ed_2031_05', period: '2031-05', status: 'open' });
    expect(await versions()).toBe(before + 1);
    await expect(openEdition(svc.pool, '2031-05')).rejects.toThrow(/already exists/);
    await expect(openEdition(svc.pool, '2031-13')).rejects.toThrow(/calendar month/);
    expect(await versions()).toBe(before + 1);
  });

  it('while open, the edition is computed live from what has been released so far', async () => {
    svc.setToday('2031-05-20');
    const res = await svc.get('/api/v1/ledger/ed_2031_05');
    const a = AnswerEnvelope.parse(res.body);
    const ledger = a.ledger as { document: { status: string; data_as_of: string; confirmed_changes: Array<{ signal_id: string }> }; edition_hash: string };
    expect(a.status).toBe('partial');
    expect(ledger.document).toMatchObject({ status: 'open', data_as_of: '2031-05-20' });
    expect(ledger.document.confirmed_changes.map((c) => c.signal_id).sort()).toEqual([...mayReleased].sort());
    expect(editionHash(ledger.document)).toBe(ledger.edition_hash);
  });

  it('refuses to close before the period has ended', async () => {
    await expect(closeEdition(svc.pool, 'ed_2031_05', new Date('2031-05-31T23:00:00Z'))).rejects.toThrow(/has not ended/);
    await expect(closeEdition(svc.pool, 'ed_2031_04', new Date('2031-06-02T00:00:00Z'))).rejects.toThrow(/does not exist/);
  });

  it('closes with the document and hash as of the period end; the answer serves exactly that', async () => {
    // A withdrawal recorded after the period does not change the closed edition.
    const before = await versions();
    const closed = await closeEdition(svc.pool, 'ed_2031_05', new Date('2031-06-02T08:00:00Z'));
    expect(await versions()).toBe(before + 1);
    expect(closed).toMatchObject({ edition_id: 'ed_2031_05', status: 'closed', data_as_of: '2031-05-31', count_released: mayReleased.length });
    expect(closed.record_version).toMatch(/^rv_/);

    await withdrawSignal(svc.pool, { signal_id: mayReleased[0]!, note: 'Withdrawn after the edition closed.' });
    svc.setToday('2031-06-10');
    const res = await svc.get('/api/v1/ledger/ed_2031_05');
    const a = AnswerEnvelope.parse(res.body);
    const ledger = a.ledger as { edition: { status: string }; document: { status: string; confirmed_changes: Array<{ signal_id: string }>; limitations: string[] }; edition_hash: string };
    expect(a.status).toBe('supported');
    expect(ledger.edition.status).toBe('closed');
    expect(ledger.document.status).toBe('closed');
    expect(ledger.edition_hash).toBe(closed.edition_hash);
    expect(editionHash(ledger.document)).toBe(closed.edition_hash);
    expect(ledger.document.limitations.join(' ')).not.toContain('withdrawn on');
    // Outside the frozen document, the Signal's current state shows the withdrawal.
    expect(a.signals!.find((s) => s.signal_id === mayReleased[0])!.status).toBe('withdrawn');
    const raw = JSON.stringify(res.body);
    for (const p of products) {
      expect(raw).not.toContain(preservedPath(p.product_id, '2026-01-05'));
      expect(raw).not.toContain(preservedHash(p.product_id, '2026-01-05'));
    }
    expect(raw).not.toContain('review note');
  });

  it('a closed edition cannot be closed again, changed, or released into', async () => {
    await expect(closeEdition(svc.pool, 'ed_2031_05', new Date('2031-06-03T00:00:00Z'))).rejects.toThrow(/already closed/);
    await expect(svc.pool.query(`UPDATE ledger_editions SET data_as_of = '2031-06-01' WHERE edition_id = 'ed_2031_05'`)).rejects.toThrow(/never changes/);
    const stored = await svc.pool.query<{ document: unknown; edition_hash: string }>(`SELECT document, edition_hash FROM ledger_editions WHERE edition_id = 'ed_2031_05'`);
    expect(editionHash(stored.rows[0]!.document)).toBe(stored.rows[0]!.edition_hash);
    expect(canonicalJson(stored.rows[0]!.document)).not.toContain('"status":"open"');

    // A release dated inside a closed period is refused by the release function and by the schema.
    await approvedFormulaChanges(svc.pool, [products[0]!], 1, '2026-03-02');
    await expect(releaseSignals(svc.pool, { date: '2031-05-20', releasedBy: 'x', publicBaseUrl: PUBLIC_BASE_URL, clock: () => new Date('2031-05-20T09:00:00Z') })).rejects.toThrow(/is closed/);
    const batch = await svc.pool.connect();
    try {
      await batch.query('BEGIN');
      const { rows } = await batch.query<{ batch_id: number }>(`INSERT INTO release_batches (release_date, released_by) VALUES ('2031-05-20', 'direct') RETURNING batch_id`);
      await expect(batch.query(`UPDATE signals SET batch_id = $1, released_on = '2031-05-20' WHERE released_on IS NULL`, [rows[0]!.batch_id])).rejects.toThrow(/is closed/);
    } finally {
      await batch.query('ROLLBACK');
      batch.release();
    }
    // The next period is fine.
    const ids = await release('2031-06-01');
    expect(ids).toHaveLength(1);
  });

  it('lists the closed edition with its stored figures', async () => {
    const a = AnswerEnvelope.parse((await svc.get('/api/v1/ledger')).body);
    expect((a.ledger as { editions: unknown[] }).editions).toEqual([
      { edition_id: 'ed_2031_05', period: '2031-05', status: 'closed', data_as_of: '2031-05-31', count_released: mayReleased.length },
    ]);
  });
});
