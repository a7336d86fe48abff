import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHarness, textOf, type PageHarness } from './support';

/** The review queue (pages/queue.ts), rendered from the demo Record's open candidates. */
let h: PageHarness;

beforeAll(async () => {
  h = await pageHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('the review queue page', () => {
  it('lists every open candidate, oldest first, by brand and product, each linked to its page', async () => {
    const { rows } = await h.pool.query<{ candidate_id: string; label: string; summary: string }>(
      `SELECT c.candidate_id, b.name || ' ' || p.name AS label, c.summary FROM candidates c JOIN products p USING (product_id) JOIN brands b ON b.brand_id = p.brand_id
        WHERE c.status = 'open' ORDER BY c.opened_at, c.candidate_id`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const page = await h.page('/');
    const text = textOf(page.text);
    expect(text).toContain(`${rows.length} open candidate(s), oldest first.`);
    const links = [...page.text.matchAll(/<a href="\/candidates\/(\d+)">/g)].map((m) => m[1]);
    expect(links).toEqual(rows.map((r) => String(r.candidate_id)));
    for (const r of rows) {
      expect(text).toContain(r.label);
      expect(text).toContain(textOf(r.summary));
    }
  });

  it('asks for the favicon the console serves, and serves it without a session', async () => {
    const page = await h.page('/');
    expect(page.text).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    const res = await fetch(`${h.service.url}/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toMatch(/^<svg /);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect((await fetch(`${h.service.url}/favicon.ico`)).status).toBe(200);
  });
});
