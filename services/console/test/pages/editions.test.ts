import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHarness, rowsBy, textOf, type PageHarness } from './support';

/**
 * The editions page (pages/editions.ts) says what `list_ledger_editions`
 * answers today: both read curation's editionRows and editionEntry. An open
 * edition's data-as-of date is today (within its period) and its count the
 * Signals released in it so far, not the zero and the newest reading its row
 * holds until it is closed.
 */
let h: PageHarness;

beforeAll(async () => {
  h = await pageHarness();
});
afterAll(async () => {
  await h?.close();
});

const cell = (row: string, field: string) => new RegExp(`<td data-field="${field}">([^<]*)</td>`).exec(row)?.[1];

describe('the editions page', () => {
  it("gives the open edition today's data-as-of date and its live count of released Signals", async () => {
    const { rows } = await h.pool.query<{ n: number; stored_as_of: string; stored_count: number }>(
      `SELECT (SELECT count(*)::int FROM signals WHERE released_on BETWEEN '2026-11-01' AND '2026-11-26') AS n, data_as_of AS stored_as_of, count_released AS stored_count
         FROM ledger_editions WHERE edition_id = 'ed_2026_11' AND status = 'open'`,
    );
    const open = rows[0]!;
    expect(open.n).toBeGreaterThan(0);
    // What the row holds until the edition closes, and what the page must not say.
    expect([open.stored_as_of, open.stored_count]).toEqual(['2026-11-17', 0]);
    const page = await h.page('/editions');
    const row = rowsBy(page.text, 'edition').get('ed_2026_11')!;
    expect(textOf(row)).toContain('open');
    expect(cell(row, 'data_as_of')).toBe('2026-11-26');
    expect(cell(row, 'count_released')).toBe(String(open.n));
    expect(row).toContain('action="/editions/ed_2026_11/close"');
  });

  it('gives each closed edition what it was sealed with, and its hash; newest period first', async () => {
    const { rows } = await h.pool.query<{ edition_id: string; data_as_of: string; count_released: number; edition_hash: string }>(
      `SELECT edition_id, data_as_of, count_released, edition_hash FROM ledger_editions WHERE status = 'closed' ORDER BY period DESC`,
    );
    expect(rows.length).toBe(2);
    const page = await h.page('/editions');
    const shown = rowsBy(page.text, 'edition');
    expect([...shown.keys()]).toEqual(['ed_2026_11', ...rows.map((r) => r.edition_id)]);
    for (const r of rows) {
      const row = shown.get(r.edition_id)!;
      expect(cell(row, 'data_as_of')).toBe(r.data_as_of);
      expect(cell(row, 'count_released')).toBe(String(r.count_released));
      expect(row).toContain(`<code>${r.edition_hash}</code>`);
      expect(row).not.toContain('/close"');
    }
  });
});
