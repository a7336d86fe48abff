import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { launchBrowser } from '@evidence-record/test-support/browser';
import { call, dropPrefix, errorCode, gatewayConfig, orgWithKey, redisClient, startGateway, type RunningGateway } from './support/harness';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';
import { SIGNAL_PAGE_CSP, prefersHtml, signalAddressPage } from '../src/signal-address-page';

/**
 * A Signal's address (the "address to cite" of alert emails) opened by a
 * person: a browser without a key gets the same 401 as every client, as a
 * short page saying what the address is and how to read it with a key; every
 * API client keeps the JSON envelope. Nothing of the Record is read for it.
 */
let db: TestDatabase;
let up: FakeUpstreams;
let gw: RunningGateway;
let browser: Browser;
let env: { DATABASE_URL: string; REDIS_PREFIX: string };
const PUBLIC = 'https://api.evidence-record.example';
const signalId = 'sig_9r4xal80h2ba';
/** What Chromium sends when a link is opened. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

beforeAll(async () => {
  db = await emptyDatabase();
  const { redisPrefix } = isolationPrefix('gw-signal-page');
  env = { DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix };
  up = await startFakeUpstreams();
  gw = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix, upstreams: up.urls, publicBaseUrl: PUBLIC }));
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gw?.close();
  await up?.close();
  if (env) {
    const redis = redisClient();
    await dropPrefix(redis, env.REDIS_PREFIX);
    redis.disconnect();
  }
  await db?.drop();
});

describe('content negotiation', () => {
  it('gives HTML to a browser only; JSON on a tie, to */*, to no Accept and to anything preferring JSON', () => {
    expect(prefersHtml({ accept: BROWSER_ACCEPT })).toBe(true);
    expect(prefersHtml({ accept: 'text/html' })).toBe(true);
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html', 'text/html;q=0.5, application/json', 'application/*']) {
      expect(prefersHtml(accept === undefined ? {} : { accept }), String(accept)).toBe(false);
    }
  });
});

describe('a Signal address without a key', () => {
  const address = () => `${gw.url}/api/v1/signals/${signalId}`;

  it('answers a browser 401 with the page, every header of the JSON 401 kept, a strict CSP, and nothing read from the Record', async () => {
    const before = up.seen.length;
    const json = await call(address());
    const page = await call(address(), { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain(`Signal <strong>${signalId}</strong>`);
    // The address to cite is the public one, whatever Host the request carried; and how to read it, over REST and MCP.
    expect(page.text).toContain(`${PUBLIC}/api/v1/signals/${signalId}`);
    expect(page.text).toContain(`${PUBLIC}/mcp`);
    expect(page.text).toContain('signals.explain');
    expect(page.text).toContain('signals:read');
    expect(page.headers.get('content-security-policy')).toBe(SIGNAL_PAGE_CSP);
    expect(SIGNAL_PAGE_CSP).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    // The JSON 401's headers, all of them, with the same values (but the type, the length, the id and the CSP).
    const names = [...json.headers.keys()].filter((n) => !['content-type', 'content-length', 'x-request-id', 'content-security-policy', 'date'].includes(n));
    for (const name of names) expect(page.headers.get(name), name).toBe(json.headers.get(name));
    expect(page.headers.get('www-authenticate')).toBe('Bearer realm="evidence-record"');
    expect(page.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    expect(page.headers.get('vary')).toBe('Accept');
    expect([...page.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(up.seen.length).toBe(before);
  });

  it('gives the same page for a bad key (one 401 for every bad key), and the JSON envelope to every API client', async () => {
    const bad = await call(address(), { headers: { accept: BROWSER_ACCEPT, authorization: 'Bearer sk_test_nothing' } });
    expect(bad.status).toBe(401);
    expect(bad.text).toBe((await call(address(), { headers: { accept: BROWSER_ACCEPT } })).text);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="evidence-record", error="invalid_token"');
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.9']) {
      const res = await call(address(), accept ? { headers: { accept } } : {});
      expect(res.status, accept).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(errorCode(res)).toBe('invalid_credentials');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('echoes nothing but a well-formed Signal id, escaped', async () => {
    const html = signalAddressPage(PUBLIC, '<script>alert(1)</script>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('This is the permanent address of a Signal:');
    const res = await call(`${gw.url}/api/v1/signals/%3Cscript%3E`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(401);
    expect(res.text).not.toMatch(/<script|%3Cscript/i);
  });

  it('leaves every other address, and a Signal read with a key, as they were', async () => {
    const other = await call(`${gw.url}/api/v1/record/version`, { headers: { accept: BROWSER_ACCEPT } });
    expect(other.status).toBe(401);
    expect(errorCode(other)).toBe('invalid_credentials');
    const k = await orgWithKey(env, { scopes: 'signals:read' });
    const read = await call(address(), { key: k.key, headers: { accept: BROWSER_ACCEPT } });
    expect(read.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(read.status).not.toBe(401);
  });

  it('reads as a page in a real browser: the CSP admits its own style and nothing else', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await page.goto(address());
    expect(res?.status()).toBe(401);
    expect(await page.title()).toBe('A Signal of the Evidence Record · API key required');
    expect(await page.locator('h1').textContent()).toBe('A Signal of the Evidence Record');
    expect(await page.locator('#what').textContent()).toContain(signalId);
    // The style block ran (its hash is in the CSP): the body is 40rem wide at most.
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('640px');
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);
});
