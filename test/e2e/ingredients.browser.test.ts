import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '@evidence-record/test-support/browser';
import { call } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';

/**
 * The console's ingredient identity page in a real browser (Debian's
 * Chromium through playwright-core), against the record service, gateway
 * and console as processes: the declared names the Record could not
 * identify, one mapped to an existing ingredient and one added as a new
 * ingredient, each in one step; the public API then shows the lines already
 * read identified, at a new record version, with what the label declares
 * unchanged. Forms without their CSRF token are refused.
 */
let stack: RunningStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let consoleUrl = '';
let credential = '';
let productId = '';
let key = '';

interface Fact {
  kind: string;
  value: { declared_name: string; amount: number | null; unit: string | null; ingredient_id: string | null };
}
async function declared(): Promise<{ record_version: string; facts: Fact[] }> {
  const res = await call(stack, key, 'GET', `/api/v1/products/${productId}`);
  expect(res.status).toBe(200);
  const body = res.body as unknown as { record_version: string; verified_facts: Fact[] };
  return { record_version: body.record_version, facts: body.verified_facts.filter((f) => f.kind === 'declared_ingredient') };
}

beforeAll(async () => {
  stack = await startStack('ingredients', { services: ['record', 'gateway', 'console'] });
  consoleUrl = `http://127.0.0.1:${stack.ports.console}`;
  credential = String((await stack.admin('operator', 'add', '--name', 'Ines Curator')).credential);
  key = (await issueKey(stack, { plan: 'free', scopes: ['products:read'], name: 'identity reader' })).key;

  // A composed label (not a real one): a name the catalogue knows and two it does not.
  productId = String((await stack.admin('product', 'add', '--brand', 'Identity Console', '--name', 'Guayusa Pre')).product_id);
  const file = join(tmpdir(), `identity-bundle-${randomBytes(4).toString('hex')}.json`);
  await writeFile(
    file,
    JSON.stringify({
      captures: [
        {
          product_id: productId,
          source: { kind: 'manufacturer', url: 'https://identity-console.example/guayusa-pre', retailer: null },
          observed_at: '2026-06-01',
          preserved: { path: 'captures/identity-console.json', sha256: randomBytes(32).toString('hex') },
          label: {
            classification: 'comparable',
            serving: { size: 10, unit: 'g', servings_per_container: 30, description: null },
            ingredients: [
              { declared_name: 'Beta-Alanine', amount: 3.2, unit: 'g' },
              { declared_name: 'Guayusa Caffeine', amount: 150, unit: 'mg' },
              { declared_name: 'Maral Root Extract', amount: 100, unit: 'mg' },
            ],
          },
          prices: [],
        },
      ],
    }),
  );
  await stack.admin('capture', 'import', '--file', file);

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 240_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await stack?.stop();
});

describe('ingredient identity in the console', () => {
  it('lists the names the Record could not identify, with the products that declare them', async () => {
    const before = await declared();
    expect(before.facts.map((f) => [f.value.declared_name, f.value.ingredient_id])).toEqual([
      ['Beta-Alanine', 'ing_beta_alanine'],
      ['Guayusa Caffeine', null],
      ['Maral Root Extract', null],
    ]);
    await page.goto(`${consoleUrl}/login`);
    await page.fill('input[name=credential]', credential);
    await page.click('button[type=submit]');
    await page.click('a[href="/ingredients"]');
    await expect(page.locator('h1').textContent()).resolves.toBe('Ingredient identity');
    const row = page.locator('tr[data-name="Guayusa Caffeine"]');
    await expect(row.locator('td').nth(1).textContent()).resolves.toBe('1');
    await expect(row.locator('td').nth(2).textContent()).resolves.toMatch(/Identity Console Guayusa Pre/);
    expect(await page.locator('tr[data-name="Beta-Alanine"]').count()).toBe(0);
  }, 60_000);

  it('refuses a form without its CSRF token, changing nothing', async () => {
    const before = await declared();
    const res = await page.request.post(`${consoleUrl}/ingredients/map`, { form: { declared_name: 'Guayusa Caffeine', ingredient_id: 'ing_caffeine' } });
    expect(res.status()).toBe(403);
    expect(await declared()).toEqual(before);
  });

  it('maps a name to an existing ingredient in one step: the line already read is identified at a new record version, its facts unchanged', async () => {
    const before = await declared();
    const row = page.locator('tr[data-name="Guayusa Caffeine"]');
    await row.locator('input[name=ingredient_id]').fill('ing_caffeine');
    await row.locator('form[action="/ingredients/map"] button').click();
    await expect(page.locator('.flash.ok').textContent()).resolves.toMatch(/"Guayusa Caffeine" is now a name of Caffeine \(ing_caffeine\): 1 line\(s\) identified/);
    expect(await page.locator('tr[data-name="Guayusa Caffeine"]').count()).toBe(0);
    const after = await declared();
    expect(after.record_version > before.record_version).toBe(true);
    expect(after.facts.find((f) => f.value.declared_name === 'Guayusa Caffeine')!.value).toEqual({ ...before.facts.find((f) => f.value.declared_name === 'Guayusa Caffeine')!.value, ingredient_id: 'ing_caffeine' });
  }, 60_000);

  it('adds a name as a new ingredient in one step, and refuses a name that already identifies another ingredient', async () => {
    const before = await declared();
    const row = page.locator('tr[data-name="Maral Root Extract"]');
    await row.locator('input[name=name]').fill('Maral Root');
    await row.locator('select[name=kind]').selectOption('botanical');
    await row.locator('form[action="/ingredients/add"] button').click();
    await expect(page.locator('.flash.ok').textContent()).resolves.toMatch(/Added Maral Root \(ing_maral_root\): 1 line\(s\) identified/);
    const after = await declared();
    expect(after.record_version > before.record_version).toBe(true);
    expect(after.facts.map((f) => f.value.ingredient_id)).toEqual(['ing_beta_alanine', 'ing_caffeine', 'ing_maral_root']);
    await expect(page.locator('main').textContent()).resolves.toMatch(/Every declared line is identified/);

    // The CLI lists nothing left for this product; an ingredient named as an existing one is refused with the documented code.
    const left = (await stack.admin('ingredient', 'list', '--unidentified')).names as Array<{ products: string[] }>;
    expect(left.some((n) => n.products.includes(productId))).toBe(false);
    // Exit 1 with the refusal as one JSON object (no stack trace).
    await expect(stack.admin('ingredient', 'add', '--name', 'Maral Root Extract')).rejects.toMatchObject({ code: 1, stdout: expect.stringMatching(/^\{"error":"identity_conflict","message":"refused, it would identify a name as two ingredients: \\"Maral Root Extract\\" already names ing_maral_root/), stderr: '' });
  }, 60_000);
});
