import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import pg from 'pg';
import { launchBrowser } from '@evidence-record/test-support/browser';
import { call } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';

/**
 * The research and regulatory pages of the review console in Chromium
 * (issue 23, item 5; decision 1601): a curator adds a regulatory record (a
 * reference off the allow-list refused first), corrects it, retires it, and
 * adds research context; after each step the public answer through the
 * gateway shows the change at a new record version. The entries are composed
 * for this test. CONSOLE_SCREENSHOTS=1 writes docs/curation/07-context.png.
 */
let stack: RunningStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let consoleUrl = '';
let key = '';
const INGREDIENT = 'ing_agmatine_sulfate';
const shots = process.env.CONSOLE_SCREENSHOTS === '1';

const regulatory = async () => (await call(stack, key, 'POST', '/api/v1/regulatory/context', { ingredient_ids: [INGREDIENT] })).body!;
const research = async () => (await call(stack, key, 'POST', '/api/v1/research/context', { ingredient_ids: [INGREDIENT] })).body!;
const flash = async () => (await page.locator('.flash').first().textContent())!;

beforeAll(async () => {
  stack = await startStack('ctxconsole', { services: ['record', 'gateway', 'console'] });
  consoleUrl = `http://127.0.0.1:${stack.ports.console}`;
  const credential = String((await stack.admin('operator', 'add', '--name', 'Rae Curator')).credential);
  key = (await issueKey(stack, { plan: 'free', scopes: ['research:read', 'regulatory:read'] })).key;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await page.goto(`${consoleUrl}/login`);
  await page.fill('input[name=credential]', credential);
  await page.click('button[type=submit]');
  await page.locator('.who').waitFor();
}, 240_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await stack?.stop();
});

async function fillEntry(form: string, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    if (name === 'kind') await page.selectOption(`${form} select[name=kind]`, value);
    else await page.fill(`${form} [name=${name}]`, value);
  }
}

describe('research and regulatory pages in a browser', () => {
  const addRegulatory = 'form[action$="/regulatory"]';
  const importAlert = {
    authority: 'U.S. Food and Drug Administration',
    kind: 'import_alert',
    date: '2022-08-01',
    title: 'Composed test import alert naming agmatine sulfate',
    what: 'Guidance the agency gave its field staff on detaining shipments that list agmatine sulfate.',
  };

  it('lists ingredients and opens one; a reference off the allow-list is refused and nothing is written', async () => {
    await page.goto(`${consoleUrl}/context`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Research and regulatory context');
    await page.click(`a[href="/context/${INGREDIENT}"]`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Agmatine Sulfate: research and regulatory context');
    const before = await regulatory();
    await page.click('summary:has-text("Add a regulatory record")');
    await fillEntry(addRegulatory, { ...importAlert, url: 'https://agmatine-news.example.com/import-alert' });
    await page.click(`${addRegulatory} button[type=submit]`);
    await expect(flash()).resolves.toMatch(/Refused \(invalid_reference\): agmatine-news\.example\.com is not on the allow-list/);
    expect((await regulatory()).record_version).toBe(before.record_version);
  }, 60_000);

  it('adds a regulatory record: the answer serves it at a new record version', async () => {
    const before = await regulatory();
    await page.click('summary:has-text("Add a regulatory record")');
    await fillEntry(addRegulatory, { ...importAlert, url: 'https://www.accessdata.fda.gov/cms_ia/composed-test-agmatine.html' });
    await page.click(`${addRegulatory} button[type=submit]`);
    await expect(flash()).resolves.toMatch(/^Added reg_[0-9a-z]{12}/);
    const after = await regulatory();
    expect(after.record_version).not.toBe(before.record_version);
    expect(after.regulatory_records).toEqual([
      expect.objectContaining({ record_kind: 'import_alert', date: '2022-08-01', title: 'Composed test import alert naming agmatine sulfate', documented_caution: false, corrections: [] }),
    ]);
    await expect(page.locator('section.entry[data-state=current]').count()).resolves.toBe(1);
  }, 60_000);

  it('corrects it: the answer shows what it said beside what it says now; verdict wording is refused', async () => {
    const entry = (await regulatory()).regulatory_records[0].entry_id as string;
    const form = `form[action="/context/entries/${entry}/correct"]`;
    await page.click(`section[data-entry="${entry}"] summary`);
    await page.fill(`${form} [name=what]`, 'The agency approved agmatine sulfate after review.');
    await page.fill(`${form} [name=note]`, 'Reworded from the alert itself.');
    await page.click(`${form} button[type=submit]`);
    await expect(flash()).resolves.toMatch(/Refused \(reads_as_verdict\)/);

    const before = await regulatory();
    await page.click(`section[data-entry="${entry}"] summary`);
    await page.fill(`${form} [name=what]`, 'Guidance the agency gave its field staff on detaining named firms\' shipments that list agmatine sulfate.');
    await page.fill(`${form} [name=note]`, 'The alert names firms: reworded from the alert itself.');
    await page.click(`${form} button[type=submit]`);
    await expect(flash()).resolves.toMatch(new RegExp(`^Corrected ${entry}: what_it_is`));
    const after = await regulatory();
    expect(after.record_version).not.toBe(before.record_version);
    expect(after.regulatory_records[0].what_it_is).toBe('Guidance the agency gave its field staff on detaining named firms\' shipments that list agmatine sulfate.');
    expect(after.regulatory_records[0].corrections).toEqual([
      {
        recorded_on: new Date().toISOString().slice(0, 10),
        note: 'The alert names firms: reworded from the alert itself.',
        changes: [{ field: 'what_it_is', before: 'Guidance the agency gave its field staff on detaining shipments that list agmatine sulfate.', after: 'Guidance the agency gave its field staff on detaining named firms\' shipments that list agmatine sulfate.' }],
      },
    ]);
    await expect(page.locator(`section[data-entry="${entry}"] table`).textContent()).resolves.toMatch(/Rae Curator/);
  }, 60_000);

  it('adds research context, then retires the regulatory record: the answer names it retired with its reason', async () => {
    const addResearch = 'form[action$="/research"]';
    await page.click('summary:has-text("Add research context")');
    await fillEntry(addResearch, {
      authority: 'International Society of Sports Nutrition',
      kind: 'review',
      date: '2018',
      title: 'Composed test review mentioning agmatine sulfate',
      what: 'Lists agmatine sulfate among ingredients with too few trials to summarise.',
      url: 'https://doi.org/10.0000/composed-test-review',
      range_low: '1',
      range_high: '2.67',
      range_unit: 'g/day',
    });
    await page.click(`${addResearch} button[type=submit]`);
    await expect(flash()).resolves.toMatch(/^Added rsc_/);
    const r = await research();
    expect(r.research_context).toEqual([expect.objectContaining({ authority: 'International Society of Sports Nutrition', studied_range: { low: 1, high: 2.67, unit: 'g/day', basis: 'per day' } })]);

    const entry = (await regulatory()).regulatory_records[0].entry_id as string;
    const before = await regulatory();
    await page.click(`section[data-entry="${entry}"] summary`);
    await page.fill(`form[action="/context/entries/${entry}/retire"] [name=note]`, 'The agency withdrew the alert; kept as recorded.');
    await page.click(`form[action="/context/entries/${entry}/retire"] button[type=submit]`);
    await expect(flash()).resolves.toMatch(new RegExp(`^Retired ${entry}`));
    await expect(page.locator(`section[data-entry="${entry}"]`).getAttribute('data-state')).resolves.toBe('retired');
    if (shots) {
      const dir = new URL('../../docs/curation/', import.meta.url).pathname;
      await mkdir(dir, { recursive: true });
      await page.screenshot({ path: join(dir, '07-context.png'), fullPage: true });
    }
    const after = await regulatory();
    expect(after.record_version).not.toBe(before.record_version);
    expect(after.regulatory_records).toEqual([]);
    expect(after.coverage.retired).toEqual([expect.objectContaining({ entry_id: entry, note: 'The agency withdrew the alert; kept as recorded.' })]);
  }, 60_000);

  it('refuses a form without its CSRF token, and records every action with the operator name', async () => {
    const res = await page.request.post(`${consoleUrl}/context/${INGREDIENT}/regulatory`, { form: { authority: 'x' } });
    expect(res.status()).toBe(403);
    const c = new pg.Client({ connectionString: stack.db.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ action: string; operator_name: string; outcome: string }>('SELECT action, operator_name, outcome FROM console_actions ORDER BY action_id');
      expect(rows.map((r) => `${r.action} ${r.outcome} ${r.operator_name}`)).toEqual([
        'regulatory add refused Rae Curator',
        'regulatory add done Rae Curator',
        'context correct refused Rae Curator',
        'context correct done Rae Curator',
        'research add done Rae Curator',
        'context retire done Rae Curator',
      ]);
      const added = await c.query('SELECT added_by FROM regulatory_records WHERE ingredient_id = $1', [INGREDIENT]);
      expect(added.rows).toEqual([{ added_by: 'Rae Curator' }]);
    } finally {
      await c.end();
    }
  }, 30_000);
});
