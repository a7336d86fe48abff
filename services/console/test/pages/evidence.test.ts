import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '@evidence-record/test-support/console-client';
import { HOSTILE_EVIDENCE, pageHarness, type PageHarness } from './support';

/**
 * A preserved copy (pages/evidence.ts): the kept bytes exactly, as text with
 * a policy that runs nothing, only for a signed-in operator.
 */
let h: PageHarness;
const content = Buffer.from(HOSTILE_EVIDENCE, 'utf8');
const sha256 = createHash('sha256').update(content).digest('hex');

beforeAll(async () => {
  h = await pageHarness();
  await h.pool.query(`INSERT INTO evidence (sha256, kind, media_type, content, byte_length) VALUES ($1, 'offer_page', 'text/html', $2, $3)`, [sha256, content, content.length]);
});
afterAll(async () => {
  await h?.close();
});

describe('a preserved copy', () => {
  it('is the kept bytes, whose SHA-256 is the one asked for, served as text that runs nothing', async () => {
    const cookie = `er_console=${h.browser.cookie('er_console')!}`;
    const res = await fetch(`${h.service.url}/evidence/${sha256}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="evidence-${sha256.slice(0, 16)}-offer_page.txt"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is not found for a hash the Record does not keep, or for anything that is not a hash', async () => {
    expect((await h.browser.get(`/evidence/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await h.browser.get(`/evidence/${sha256.toUpperCase()}`)).status).toBe(404);
    expect((await h.browser.get('/evidence/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
  });

  it('is for signed-in operators only', async () => {
    const stranger = new ConsoleClient(h.service.url);
    const res = await stranger.get(`/evidence/${sha256}`);
    expect([res.status, res.location]).toEqual([303, '/login']);
    expect(res.text).not.toContain('document.title');
  });
});
