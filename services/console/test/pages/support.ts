import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { importCaptures, openCandidate } from '@evidence-record/curation';
import { createPool, type Pool } from '@evidence-record/platform';
import { ConsoleClient, type ConsolePage } from '@evidence-record/test-support/console-client';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';
import { addOperator, createConsoleApp } from '../../src/index';

/**
 * One page's tests: the console in this process on a private copy of the
 * demo Record (real Postgres), a signed-in operator, and the console's clock
 * fixed so relative times render the same on every run.
 */
export interface PageHarness {
  db: TestDatabase;
  /** The test's own pool on the same database, for arranging rows and reading what a page should say. */
  pool: Pool;
  service: InProcessService;
  browser: ConsoleClient;
  now: Date;
  /** GET a page as the signed-in operator; it must answer 200. */
  page: (path: string) => Promise<ConsolePage>;
  close: () => Promise<void>;
}

/** The console's clock in page tests: after the demo Record's newest reading (2026-11-17) and its November releases. */
export const PAGE_NOW = new Date('2026-11-26T12:00:00.000Z');

export async function pageHarness(now: Date = PAGE_NOW): Promise<PageHarness> {
  const db = await demoDatabase();
  const pool = createPool(db.url, { max: 2 });
  const service = await startInProcess('console', db.url, ({ pool: p, log, metrics }) =>
    createConsoleApp({ pool: p, log, metrics, sessionSecret: randomBytes(32).toString('hex'), publicBaseUrl: 'http://127.0.0.1:1', natsUrl: 'nats://127.0.0.1:1', natsPrefix: 'unused', now: () => now }),
  );
  const op = await addOperator(pool, 'Page Reader');
  const browser = new ConsoleClient(service.url);
  expect((await browser.signIn(op.credential)).location).toBe('/');
  return {
    db,
    pool,
    service,
    browser,
    now,
    page: async (path) => {
      const p = await browser.get(path);
      expect(p.status, `${path}: ${p.text.slice(0, 300)}`).toBe(200);
      return p;
    },
    close: async () => {
      await service.close();
      await pool.end();
      await db.drop();
    },
  };
}

/** The text of a page with the markup taken out and the whitespace folded, for "the page says …" checks. */
export function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** The rows of the first table whose rows carry `data-<attribute>`, keyed by that attribute's value. */
export function rowsBy(html: string, attribute: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(new RegExp(`<tr data-${attribute}="([^"]*)"[^>]*>([\\s\\S]*?)</tr>`, 'g'))) out.set(m[1]!, m[2]!);
  return out;
}

/** Fetched HTML that would run if a browser rendered it: the preserved copy must be shown as text, never as this page. */
export const HOSTILE_EVIDENCE = '<!doctype html><html><body><h1>Surge</h1><script>document.title = "ran";</script><img src=x onerror="document.title = \'ran\'"></body></html>';

/**
 * A new reading of Ironvale Surge whose bytes the Record keeps (as the
 * monitor keeps what it reads, decision 1004), and a candidate from the
 * newest comparable label to it: the after side's preserved copy can be
 * opened, the before side's (the demo Record's, kept outside it) cannot.
 */
export async function candidateWithKeptEvidence(pool: Pool): Promise<{ candidateId: number; sha256: string; sourceUrl: string }> {
  const content = Buffer.from(HOSTILE_EVIDENCE, 'utf8');
  const sha256 = createHash('sha256').update(content).digest('hex');
  await pool.query(`INSERT INTO evidence (sha256, kind, media_type, content, byte_length) VALUES ($1, 'offer_page', 'text/html', $2, $3) ON CONFLICT DO NOTHING`, [sha256, content, content.length]);
  const product = (await pool.query<{ product_id: string }>(`SELECT p.product_id FROM products p JOIN brands b ON b.brand_id = p.brand_id WHERE b.name = 'Ironvale' AND p.name = 'Surge'`)).rows[0]!.product_id;
  const before = (await pool.query<{ state_id: string }>(`SELECT state_id FROM history_states WHERE product_id = $1 AND classification = 'comparable' ORDER BY observed_to DESC, state_id DESC LIMIT 1`, [product])).rows[0]!.state_id;
  const sourceUrl = `https://ironvale.example/products/surge?read=${randomBytes(4).toString('hex')}`;
  const imported = await importCaptures(pool, {
    captures: [
      {
        product_id: product,
        source: { kind: 'manufacturer', url: sourceUrl, retailer: null },
        observed_at: '2026-11-25',
        preserved: { path: `evidence:sha256:${sha256}`, sha256 },
        label: {
          classification: 'comparable',
          serving: { size: 12, unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' },
          blends: [],
          ingredients: [
            { declared_name: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine', amount: 337, unit: 'mg' },
            { declared_name: 'Beta-Alanine', ingredient_id: 'ing_beta_alanine', amount: 3.2, unit: 'g' },
          ],
        },
        prices: [],
      },
    ],
  });
  const opened = await openCandidate(pool, { product_id: product, dimension: 'formula', before_state_id: before, after_state_id: imported.states_created[0]! });
  return { candidateId: opened.candidate_id, sha256, sourceUrl };
}
