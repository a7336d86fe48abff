import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHarness, textOf, type PageHarness } from './support';

/** The Signals pages (pages/signals.ts): released Signals by brand and product, and one Signal with its corrections. */
let h: PageHarness;

beforeAll(async () => {
  h = await pageHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('the released Signals page', () => {
  it('names every product with its brand, so products named alike ("Original") are told apart', async () => {
    const { rows } = await h.pool.query<{ signal_id: string; label: string }>(
      `SELECT s.signal_id, b.name || ' ' || p.name AS label FROM signals s JOIN products p USING (product_id) JOIN brands b ON b.brand_id = p.brand_id
        WHERE s.released_on IS NOT NULL ORDER BY s.released_on DESC, s.signal_id DESC LIMIT 200`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const page = await h.page('/signals');
    const cells = [...page.text.matchAll(/<tr><td><a href="\/signals\/(sig_[0-9a-z]+)">[^<]*<\/a><\/td><td class="nowrap">[^<]*<\/td><td>([^<]*)<\/td>/g)].map((m) => [m[1], textOf(m[2]!)]);
    expect(cells).toEqual(rows.map((r) => [r.signal_id, r.label]));
    // The demo Record has products called "Original" under more than one brand: no cell says only that.
    expect(cells.filter(([, label]) => label === 'Original')).toEqual([]);
  });

  it("shows one Signal with its product's brand, its corrections and the forms to correct or withdraw it", async () => {
    const { rows } = await h.pool.query<{ signal_id: string; label: string; note: string }>(
      `SELECT s.signal_id, b.name || ' ' || p.name AS label, c.public_note AS note FROM signals s JOIN products p USING (product_id) JOIN brands b ON b.brand_id = p.brand_id
         JOIN signal_corrections c ON c.signal_id = s.signal_id WHERE s.released_on IS NOT NULL AND s.status = 'corrected' ORDER BY s.signal_id LIMIT 1`,
    );
    const s = rows[0]!;
    const page = await h.page(`/signals/${s.signal_id}`);
    const text = textOf(page.text);
    expect(text).toContain(`${s.label} · released`);
    expect(text).toContain(textOf(s.note));
    expect(page.text).toContain(`action="/signals/${s.signal_id}/correct"`);
    expect((await h.browser.get('/signals/sig_000000000000')).status).toBe(404);
  });
});
