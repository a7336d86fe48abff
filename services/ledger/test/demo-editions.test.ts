import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, canonicalJson, editionHash } from '@evidence-record/contract';
import { withSnapshot } from '@evidence-record/platform';
import { demoDatabase, operatorOnlyValues, type TestDatabase } from '@evidence-record/test-support/db';
import { computeEditionDocument } from '@evidence-record/curation';
import { startLedger, type InProcessLedger } from './support/server';

/** Ledger editions over the demo Record: two closed, one open. */
let db: TestDatabase;
let svc: InProcessLedger;

type Ledger = {
  edition: { edition_id: string; status: string; data_as_of: string; count_released: number };
  document: { edition_id: string; status: string; confirmed_changes: Array<{ signal_id: string }>; category_benchmarks: Array<{ cohort: { description: string; denominator: number } }> };
  edition_hash: string;
  hash_method: { algorithm: string };
};

async function edition(id: string) {
  const res = await svc.get(`/api/v1/ledger/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const a = AnswerEnvelope.parse(res.body);
  return { a, ledger: a.ledger as unknown as Ledger, headers: res.headers, raw: JSON.stringify(res.body) };
}

beforeAll(async () => {
  db = await demoDatabase();
  svc = await startLedger(db.url);
  svc.setToday('2026-11-21');
});

afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

describe('list_ledger_editions', () => {
  it('lists period, status, data-as-of date and count released, naming no Signal', async () => {
    const res = await svc.get('/api/v1/ledger');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-budget-entities')).toBe('');
    const a = AnswerEnvelope.parse(res.body);
    const editions = (a.ledger as { editions: Array<Record<string, unknown>> }).editions;
    expect(editions.map((e) => [e.edition_id, e.status])).toEqual([
      ['ed_2026_11', 'open'],
      ['ed_2026_10', 'closed'],
      ['ed_2026_09', 'closed'],
    ]);
    const { rows } = await svc.pool.query(`SELECT edition_id, period, data_as_of, count_released FROM ledger_editions WHERE status = 'closed'`);
    for (const r of rows) expect(editions.find((e) => e.edition_id === r.edition_id)).toEqual({ ...r, status: 'closed' });
    // The open edition's figures are live: data as of today, Signals released so far this period.
    const open = editions[0]!;
    const live = await svc.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM signals WHERE to_char(released_on, 'YYYY-MM') = '2026-11'`);
    expect(open).toMatchObject({ data_as_of: '2026-11-21', count_released: live.rows[0]!.n });
    expect(a.signals).toBeUndefined();
  });
});

describe('get_ledger_edition', () => {
  it('a closed edition: its hash recomputes from the answer, and it is the stored document byte for byte', async () => {
    for (const id of ['ed_2026_09', 'ed_2026_10']) {
      const { ledger, headers } = await edition(id);
      expect(ledger.edition.status).toBe('closed');
      expect(ledger.hash_method.algorithm).toBe('sha256');
      // What a client does: sha256 over the canonical JSON of ledger.document.
      const recomputed = createHash('sha256').update(canonicalJson(ledger.document), 'utf8').digest('hex');
      expect(recomputed).toBe(ledger.edition_hash);
      const stored = await svc.pool.query<{ edition_hash: string; document: unknown }>('SELECT edition_hash, document FROM ledger_editions WHERE edition_id = $1', [id]);
      expect(ledger.edition_hash).toBe(stored.rows[0]!.edition_hash);
      expect(canonicalJson(ledger.document)).toBe(canonicalJson(stored.rows[0]!.document));
      expect(headers.get('x-budget-entities')).toBe(ledger.document.confirmed_changes.map((c) => c.signal_id).join(','));
      expect(ledger.document.category_benchmarks.every((b) => b.cohort.description.length > 0 && Number.isInteger(b.cohort.denominator))).toBe(true);
    }
  });

  it('names each confirmed change with its current state and permanent address outside the hashed document', async () => {
    const { a, ledger } = await edition('ed_2026_09');
    expect(a.signals!.map((s) => s.signal_id)).toEqual(ledger.document.confirmed_changes.map((c) => c.signal_id));
    const withdrawn = a.signals!.find((s) => s.status === 'withdrawn');
    expect(withdrawn?.corrections[0]?.kind).toBe('withdrawal');
    expect(a.signals!.every((s) => s.signal_url === `https://evidence-record.test/api/v1/signals/${s.signal_id}`)).toBe(true);
  });

  it('omits unreviewed candidates, refused Signals, review and operator notes, preserved-source paths and source hashes', async () => {
    const internal = await operatorOnlyValues(svc.pool);
    expect(internal.length).toBeGreaterThan(50);
    for (const id of ['ed_2026_09', 'ed_2026_10', 'ed_2026_11']) {
      const { raw } = await edition(id);
      expect(internal.filter((v) => raw.includes(v)), id).toEqual([]);
    }
  });

  it('an open edition is computed live, says so, and its hash still recomputes from the answer', async () => {
    const { a, ledger } = await edition('ed_2026_11');
    expect(a.status).toBe('partial');
    expect(ledger.document.status).toBe('open');
    expect(ledger.edition.data_as_of).toBe('2026-11-21');
    expect(editionHash(ledger.document)).toBe(ledger.edition_hash);
    expect(a.limitations.some((l) => l.includes('open'))).toBe(true);
  });

  it('one document rule: recomputing a closed demo edition from the Record gives its stored document', async () => {
    await withSnapshot(svc.pool, async (client) => {
      for (const [id, period] of [['ed_2026_09', '2026-09'], ['ed_2026_10', '2026-10']] as const) {
        const doc = await computeEditionDocument(client, { edition_id: id, period, status: 'closed' }, '2026-11-21');
        const stored = await client.query<{ edition_hash: string }>('SELECT edition_hash FROM ledger_editions WHERE edition_id = $1', [id]);
        expect(editionHash(doc)).toBe(stored.rows[0]!.edition_hash);
      }
    });
  });

  it('answers an unknown edition with not_found and a malformed id with invalid_request', async () => {
    const missing = await svc.get('/api/v1/ledger/ed_2020_01');
    expect(missing.status).toBe(404);
    expect(ErrorEnvelope.parse(missing.body).error.code).toBe('not_found');
    const bad = await svc.get('/api/v1/ledger/2026-09');
    expect(bad.status).toBe(400);
    expect(ErrorEnvelope.parse(bad.body).error.details.field).toBe('edition_id');
  });
});

describe('a closed edition never changes', () => {
  it('the database refuses any update or delete of a closed edition, even by a direct writer', async () => {
    const before = await svc.pool.query('SELECT * FROM ledger_editions WHERE edition_id = $1', ['ed_2026_09']);
    await expect(svc.pool.query(`UPDATE ledger_editions SET count_released = count_released + 1 WHERE edition_id = 'ed_2026_09'`)).rejects.toThrow(/closed and never changes/);
    await expect(svc.pool.query(`UPDATE ledger_editions SET document = '{}'::jsonb, edition_hash = 'x' WHERE edition_id = 'ed_2026_09'`)).rejects.toThrow(/closed and never changes/);
    await expect(svc.pool.query(`UPDATE ledger_editions SET status = 'open' WHERE edition_id = 'ed_2026_09'`)).rejects.toThrow(/closed and never changes/);
    await expect(svc.pool.query(`DELETE FROM ledger_editions WHERE edition_id = 'ed_2026_09'`)).rejects.toThrow(/closed and never changes/);
    const after = await svc.pool.query('SELECT * FROM ledger_editions WHERE edition_id = $1', ['ed_2026_09']);
    expect(after.rows).toEqual(before.rows);
  });
});
