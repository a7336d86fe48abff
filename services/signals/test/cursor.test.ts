import { describe, expect, it } from 'vitest';
import { CURSOR_TTL_SECONDS, Refusal } from '@evidence-record/contract';
import { issueCursor, readCursor } from '../src/cursor';

const secret = 'a'.repeat(64);
const ctx = { secret, kind: 'feed' as const, filters: { since: '2026-01-01', product_id: undefined, dimension: 'formula' }, nowSeconds: 1_800_000_000 };
const position = { released_on: '2026-03-10', signal_id: 'sig_abcdefghijkl' };

function refusalOf(fn: () => unknown): Refusal {
  try {
    fn();
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('signed page cursors', () => {
  it('round-trips the keyset position it was issued with', () => {
    const cursor = issueCursor(ctx, position);
    const payload = readCursor(ctx, cursor);
    expect({ released_on: payload.r, signal_id: payload.s }).toEqual(position);
  });

  it('is opaque: neither the filters nor the secret can be read from it', () => {
    const cursor = issueCursor(ctx, position);
    expect(cursor).not.toContain(secret);
    expect(cursor).not.toContain('formula');
  });

  it('refuses a forged cursor (valid shape, wrong signature) as invalid_request naming the cursor', () => {
    const forged = issueCursor({ ...ctx, secret: 'b'.repeat(64) }, position);
    const r = refusalOf(() => readCursor(ctx, forged));
    expect(r.code).toBe('invalid_request');
    expect(r.details.field).toBe('cursor');
  });

  it('refuses a tampered cursor: a moved keyset position breaks the signature', () => {
    const [body, sig] = issueCursor(ctx, position).split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.r = '2030-01-01';
    const tampered = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
    expect(refusalOf(() => readCursor(ctx, tampered)).details.field).toBe('cursor');
  });

  it('refuses garbage, truncation and empty signatures', () => {
    const cursor = issueCursor(ctx, position);
    for (const bad of ['x', 'a.b.c', `${cursor.split('.')[0]}.`, cursor.slice(0, -2), `.${cursor.split('.')[1]}`]) {
      expect(refusalOf(() => readCursor(ctx, bad)).code).toBe('invalid_request');
    }
  });

  it('is bound to the filters it was issued for', () => {
    const cursor = issueCursor(ctx, position);
    expect(refusalOf(() => readCursor({ ...ctx, filters: { ...ctx.filters, dimension: 'price' } }, cursor)).details.field).toBe('cursor');
    expect(refusalOf(() => readCursor({ ...ctx, filters: { since: '2026-01-01' } }, cursor)).details.field).toBe('cursor');
    // Undefined filters are the same as absent ones.
    expect(readCursor({ ...ctx, filters: { dimension: 'formula', since: '2026-01-01' } }, cursor).s).toBe(position.signal_id);
  });

  it('is bound to the capability that issued it', () => {
    const cursor = issueCursor(ctx, position);
    expect(refusalOf(() => readCursor({ ...ctx, kind: 'snapshot' }, cursor)).code).toBe('invalid_request');
  });

  it(`expires after ${CURSOR_TTL_SECONDS} seconds and refuses an issue time in the future`, () => {
    const cursor = issueCursor(ctx, position);
    expect(readCursor({ ...ctx, nowSeconds: ctx.nowSeconds + CURSOR_TTL_SECONDS }, cursor).s).toBe(position.signal_id);
    expect(refusalOf(() => readCursor({ ...ctx, nowSeconds: ctx.nowSeconds + CURSOR_TTL_SECONDS + 1 }, cursor)).details.field).toBe('cursor');
    expect(refusalOf(() => readCursor({ ...ctx, nowSeconds: ctx.nowSeconds - 3600 }, cursor)).code).toBe('invalid_request');
  });
});
