import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Browser } from 'playwright-core';
import { mintUnsubscribeToken, scopes, unsubscribeUrl } from '@evidence-record/contract';
import { createPool, type Pool } from '@evidence-record/platform';
import { launchBrowser } from '@evidence-record/test-support/browser';
import { call as callGateway, releaseSignalOn } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * An alert email as its reader gets it: read from the stack's SMTP server and
 * parsed with a real MIME parser (mailparser), then its unsubscribe link
 * followed in Debian's Chromium: the GET page changes nothing, the button
 * removes the watch without a key, the public API shows the watch gone, and
 * the next Signal on that product sends that account no email. A mail
 * provider's RFC 8058 POST works too; tampered, expired and foreign tokens
 * are refused with a page and a status, and so is a link older than the
 * watch it would remove (the product watched again after the email).
 */
let stack: RunningStack;
let browser: Browser;
let pool: Pool;
let alice: Awaited<ReturnType<typeof issueKey>>;
let bob: Awaited<ReturnType<typeof issueKey>>;
let productId: string;
let aliceMail: ParsedMail;
let bobMail: ParsedMail;
let firstSignal: string;

const call = (key: string | null, method: string, path: string, body?: unknown) => callGateway(stack, key, method, path, body);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function mailFor(signalId: string, to: string): Promise<ParsedMail> {
  const raw = await waitFor(`the alert email of ${signalId} to ${to}`, async () => stack.smtp.messages.find((m) => m.to.includes(to) && m.raw.includes(signalId))?.raw ?? null, 45_000, 200);
  return simpleParser(raw);
}

const listUnsubscribeUrl = (mail: ParsedMail) => (mail.headers.get('list') as { unsubscribe: { url: string } }).unsubscribe.url;
const watched = async (key: string) => ((await call(key, 'GET', '/api/v1/watch')).body!.products as Array<{ product_id: string }>).map((p) => p.product_id);
const emailOf = async (accountId: string) => (await pool.query<{ email: string }>('SELECT email FROM accounts WHERE account_id = $1', [accountId])).rows[0]!.email;

beforeAll(async () => {
  stack = await startStack('unsub', { extraEnv: { gateway: { LOG_LEVEL: 'info' }, watch: { LOG_LEVEL: 'info' } } });
  pool = createPool(stack.db.url, { max: 2 });
  browser = await launchBrowser();
  alice = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'alice' });
  bob = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'bob' });
  productId = (await call(alice.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' })).body!.product.product_id as string;
  for (const k of [alice, bob]) expect((await call(k.key, 'POST', '/api/v1/watch', { product_id: productId })).status).toBe(200);
  firstSignal = (await releaseSignalOn(stack, alice.key, productId)).signalId;
  aliceMail = await mailFor(firstSignal, await emailOf(alice.accountId!));
  bobMail = await mailFor(firstSignal, await emailOf(bob.accountId!));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await pool?.end();
  await stack?.stop();
});

describe('the alert email', () => {
  it('names the product and the change in its subject', () => {
    expect(aliceMail.subject).toMatch(/^Ironvale Surge: formula change confirmed — Caffeine Anhydrous: \d+ mg → 280 mg$/);
  });

  it('says what changed, when, the release date, corrections, what to cite and where it went, in both parts', async () => {
    const text = aliceMail.text!;
    const html = aliceMail.html as string;
    const email = await emailOf(alice.accountId!);
    const today = new Date().toISOString().slice(0, 10);
    for (const part of [text.replace(/\n/g, ' '), html]) {
      expect(part).toContain('Caffeine per serving changed (test release).');
      expect(part).toMatch(/Caffeine Anhydrous: \d+ mg → 280 mg/);
      expect(part).toContain('Observation window:');
      expect(part).toContain('this is not an exact change date');
      expect(part).toContain(today);
      expect(part).toContain('keeps its address and release date');
      expect(part).toContain('needs an API key');
      expect(part).toContain(`${stack.baseUrl}/api/v1/signals/${firstSignal}`);
      expect(part).toContain(email);
      expect(part).toContain(alice.accountId!);
    }
  });

  it('carries List-Unsubscribe and List-Unsubscribe-Post, and the same link whole on its own line of the text part', () => {
    const url = listUnsubscribeUrl(aliceMail);
    expect(url.startsWith(`${stack.baseUrl}/unsubscribe?token=u2.${alice.accountId}.${productId}.`)).toBe(true);
    const lines = aliceMail.headerLines.filter((h) => h.key.startsWith('list-')).map((h) => h.line.replace(/\r\n\s*/g, ' '));
    expect(lines).toEqual([`List-Unsubscribe: <${url}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click']);
    const textLines = aliceMail.text!.split('\n');
    expect(textLines).toContain(url);
    expect(textLines).toContain(`${stack.baseUrl}/api/v1/signals/${firstSignal}`);
    // Every other line is prose within 76 columns: a URL is never cut across lines.
    for (const l of textLines) if (!l.startsWith('http')) expect(l.length, l).toBeLessThanOrEqual(76);
    for (const m of aliceMail.text!.matchAll(/https?:\/\/\S+/g)) expect([url, `${stack.baseUrl}/api/v1/signals/${firstSignal}`]).toContain(m[0]);
    expect(aliceMail.html as string).toContain(`href="${url.replace(/&/g, '&amp;')}"`);
  });
});

describe('unsubscribing in a browser', () => {
  it('shows a confirmation page that changes nothing, and the button stops the alerts', async () => {
    const url = listUnsubscribeUrl(aliceMail);
    const page = await browser.newPage();
    const shown = await page.goto(url);
    expect(shown!.status()).toBe(200);
    const headers = shown!.headers();
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['cache-control']).toContain('no-store');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-request-id']).toMatch(/^req_/);
    expect(Object.keys(headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Stop alerts about this product?');
    await expect(page.locator('body').textContent()).resolves.toContain('Ironvale Surge');
    // A link scanner fetching the page (twice) removes nothing.
    await page.reload();
    expect(await watched(alice.key)).toContain(productId);

    await Promise.all([page.waitForURL(/unsubscribe/), page.getByRole('button', { name: 'Stop these alerts' }).click()]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Alerts stopped');
    await expect(page.locator('#outcome').textContent()).resolves.toMatch(/You will no longer receive alerts about Ironvale Surge\./);
    await page.close();

    // Through the public API, with the account's own key: the watch is gone; the other account's is not.
    expect(await watched(alice.key)).not.toContain(productId);
    expect(await watched(bob.key)).toContain(productId);
    // Recorded where watch changes are: who (the account), when, and that it came from the email (no key).
    const { rows } = await pool.query('SELECT change, via, key_id, at FROM watch_changes WHERE account_id = $1 AND product_id = $2 ORDER BY change_id', [alice.accountId, productId]);
    expect(rows).toEqual([
      { change: 'added', via: 'api', key_id: alice.keyId, at: expect.any(Date) },
      { change: 'removed', via: 'email_unsubscribe', key_id: null, at: expect.any(Date) },
    ]);
  });

  it('sends that account nothing about the next Signal on the product, while the other watcher gets it', async () => {
    const { signalId } = await releaseSignalOn(stack, alice.key, productId, { date: tomorrow(), caffeineMg: 260 });
    await mailFor(signalId, await emailOf(bob.accountId!));
    await new Promise((r) => setTimeout(r, 1_500)); // a grace for an email that must not come: an absence has no state to wait for
    const aliceAddress = await emailOf(alice.accountId!);
    expect(stack.smtp.messages.filter((m) => m.raw.includes(signalId) && m.to.includes(aliceAddress))).toEqual([]);
    // Not merely undelivered: the fan-out made no alert for an account that no longer watches.
    const { rows } = await pool.query('SELECT account_id FROM alerts WHERE signal_id = $1', [signalId]);
    expect(rows.map((r) => r.account_id)).toContain(bob.accountId);
    expect(rows.map((r) => r.account_id)).not.toContain(alice.accountId);
  }, 120_000);

  it('never writes the token to a log line', () => {
    const token = new URL(listUnsubscribeUrl(aliceMail)).searchParams.get('token')!;
    const gatewayLog = stack.logs.get('gateway')!.join('\n');
    expect(gatewayLog).toContain('"capability":"unsubscribe"');
    expect(gatewayLog).not.toContain(token);
    expect(gatewayLog).not.toContain(token.split('.').at(-1));
    expect(stack.logs.get('watch')!.join('\n')).not.toContain(token.split('.').at(-1));
  });
});

describe('the one-click POST of a mail provider (RFC 8058)', () => {
  it('unwatches with a multipart List-Unsubscribe=One-Click body and no cookies or key, idempotently', async () => {
    const url = listUnsubscribeUrl(bobMail);
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const first = await fetch(url, { method: 'POST', body: form });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('You will no longer receive alerts');
    expect(await watched(bob.key)).not.toContain(productId);
    const again = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('was not on the watchlist');
  });

  it('changes nothing without the one-click body, and refuses a body over 8192 bytes', async () => {
    expect((await call(bob.key, 'POST', '/api/v1/watch', { product_id: productId })).status).toBe(200);
    const url = listUnsubscribeUrl(bobMail);
    const wrong = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=Maybe' });
    expect(wrong.status).toBe(400);
    const json = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"List-Unsubscribe":"One-Click"}' });
    expect(json.status).toBe(400);
    const big = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `List-Unsubscribe=One-Click&pad=${'x'.repeat(9000)}` });
    expect(big.status).toBe(413);
    expect(await watched(bob.key)).toContain(productId);
  });
});

describe('refused links', () => {
  const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });

  it('a tampered or foreign token: 400 with a clear page, nothing removed', async () => {
    const url = listUnsubscribeUrl(bobMail);
    const token = new URL(url).searchParams.get('token')!;
    const at = token.length - 5;
    const tampered = unsubscribeUrl(stack.baseUrl, token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1));
    // The same signature moved to another account is not valid for it.
    const moved = unsubscribeUrl(stack.baseUrl, token.replace(bob.accountId!, alice.accountId!));
    // Signed by a key this installation does not hold.
    const foreign = unsubscribeUrl(stack.baseUrl, mintUnsubscribeToken('z'.repeat(64), { accountId: bob.accountId!, productId, expiresAt: Math.floor(Date.now() / 1000) + 3600, issuedAtMs: Date.now() }));
    const page = await browser.newPage();
    for (const bad of [tampered, moved, foreign, `${stack.baseUrl}/unsubscribe`, `${stack.baseUrl}/unsubscribe?token=nonsense`]) {
      const shown = await page.goto(bad);
      expect(shown!.status(), bad).toBe(400);
      await expect(page.locator('h1').textContent()).resolves.toBe('This link is not valid');
      expect((await post(bad)).status, bad).toBe(400);
    }
    await page.close();
    expect(await watched(bob.key)).toContain(productId);
  });

  it('an expired token: 410 with a page that says so, nothing removed', async () => {
    const expired = unsubscribeUrl(
      stack.baseUrl,
      mintUnsubscribeToken(stack.env.UNSUBSCRIBE_SIGNING_KEY!, { accountId: bob.accountId!, productId, expiresAt: Math.floor(Date.now() / 1000) - 60, issuedAtMs: Date.now() - 3_600_000 }),
    );
    const page = await browser.newPage();
    const shown = await page.goto(expired);
    expect(shown!.status()).toBe(410);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
    await page.close();
    expect((await post(expired)).status).toBe(410);
    expect(await watched(bob.key)).toContain(productId);
  });

  it('cannot be bypassed: the watch service refuses an unsigned call to its internal unsubscribe', async () => {
    const direct = await fetch(`http://127.0.0.1:${stack.ports.watch}/internal/unsubscribe/${productId}`, {
      method: 'POST',
      headers: { 'x-er-account-id': bob.accountId! },
    });
    expect(direct.status).toBe(401);
    expect(await watched(bob.key)).toContain(productId);
  });

  it('limits how often one link is used, and allows only GET, HEAD and POST', async () => {
    const url = unsubscribeUrl(
      stack.baseUrl,
      mintUnsubscribeToken(stack.env.UNSUBSCRIBE_SIGNING_KEY!, { accountId: alice.accountId!, productId, expiresAt: Math.floor(Date.now() / 1000) + 3600, issuedAtMs: Date.now() }),
    );
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await fetch(url)).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    const limited = await fetch(url);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const del = await fetch(url, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('a link older than the watch (issue 26, decision 1901)', () => {
  const oneClick = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });

  it('the link of an email sent before the product was watched again removes nothing, and its page says so (GET and POST)', async () => {
    // Bob stopped the alerts with this email's link, then watched the product again (above).
    const url = listUnsubscribeUrl(bobMail);
    expect(await watched(bob.key)).toContain(productId);
    const page = await browser.newPage();
    const shown = await page.goto(url);
    expect(shown!.status()).toBe(409);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link is older than the watch');
    await expect(page.locator('#refusal').textContent()).resolves.toContain('added to the watchlist again after the email');
    await page.close();
    const posted = await oneClick(url);
    expect(posted.status).toBe(409);
    expect(await posted.text()).toContain('This link is older than the watch');
    expect(await watched(bob.key)).toContain(productId);
  });

  it('a link minted before links named their issue time (u1) removes only a watch older than that cut-over', async () => {
    const legacy = unsubscribeUrl(
      stack.baseUrl,
      mintUnsubscribeToken(stack.env.UNSUBSCRIBE_SIGNING_KEY!, { accountId: bob.accountId!, productId, expiresAt: Math.floor(Date.now() / 1000) + 3600, issuedAtMs: null }),
    );
    // Bob's watch is younger than this database's migration, which recorded the cut-over.
    expect((await fetch(legacy)).status).toBe(409);
    expect((await oneClick(legacy)).status).toBe(409);
    expect(await watched(bob.key)).toContain(productId);
    // As in an installation that migrated after the watch was added: the watch predates the cut-over, so a u1 link may remove it.
    await pool.query(`UPDATE deployment_milestones SET reached_at = clock_timestamp() WHERE name = 'unsubscribe_tokens_carry_issue_time'`);
    const accepted = await oneClick(legacy);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain('You will no longer receive alerts');
    expect(await watched(bob.key)).not.toContain(productId);
  });

  it('a link issued after the watch was added removes it (the issue time by the database clock, as the email worker takes it)', async () => {
    expect((await call(bob.key, 'POST', '/api/v1/watch', { product_id: productId })).status).toBe(200);
    const { rows } = await pool.query<{ ms: string }>('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms');
    const fresh = unsubscribeUrl(
      stack.env.PUBLIC_BASE_URL!,
      mintUnsubscribeToken(stack.env.UNSUBSCRIBE_SIGNING_KEY!, { accountId: bob.accountId!, productId, expiresAt: Math.floor(Date.now() / 1000) + 3600, issuedAtMs: Number(rows[0]!.ms) }),
    );
    expect((await fetch(fresh)).status).toBe(200);
    expect((await oneClick(fresh)).status).toBe(200);
    expect(await watched(bob.key)).not.toContain(productId);
  });
});
