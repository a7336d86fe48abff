import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CURSOR_TTL_SECONDS, Refusal } from '@evidence-record/contract';

/**
 * Opaque page cursors. The service signs what it issues (HMAC-SHA256 with
 * CURSOR_SECRET), binds each cursor to the filters of the request that
 * produced it, and refuses it after CURSOR_TTL_SECONDS. A cursor carries the
 * keyset position (release date, Signal id) of the last Signal on its page,
 * so the next page starts strictly below it: new releases, which always have
 * later dates, never shift a page.
 */
export interface KeysetPosition {
  released_on: string;
  signal_id: string;
}

const Payload = z.strictObject({
  v: z.literal(1),
  /** Which listing issued it: a feed cursor is not a snapshot cursor. */
  k: z.enum(['feed', 'snapshot']),
  r: z.iso.date(),
  s: z.string().regex(/^sig_[0-9a-z]{12}$/),
  /** Hash of the filters it was issued for. */
  f: z.string(),
  /** Issued at, unix seconds. */
  t: z.number().int(),
  /** Snapshot only: the window the first page resolved, so later pages read the same window. */
  w: z.tuple([z.iso.date(), z.iso.date()]).optional(),
});
export type CursorPayload = z.infer<typeof Payload>;

export interface CursorContext {
  secret: string;
  kind: CursorPayload['k'];
  filters: Record<string, string | number | undefined>;
  nowSeconds?: number;
}

/** Clock skew tolerated between replicas for a cursor's issue time. */
const FUTURE_SKEW_SECONDS = 60;

export function filterHash(kind: string, filters: Record<string, string | number | undefined>): string {
  const defined = Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([kind, defined])).digest('base64url').slice(0, 22);
}

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

export function issueCursor(ctx: CursorContext, position: KeysetPosition, window?: [string, string]): string {
  const payload: CursorPayload = {
    v: 1,
    k: ctx.kind,
    r: position.released_on,
    s: position.signal_id,
    f: filterHash(ctx.kind, ctx.filters),
    t: ctx.nowSeconds ?? Math.floor(Date.now() / 1000),
    ...(window ? { w: window } : {}),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(ctx.secret, body).toString('base64url')}`;
}

function refuse(problem: string): Refusal {
  return new Refusal('invalid_request', {
    message: 'The cursor was not issued by this service for this request, or it has expired.',
    details: { location: 'query', field: 'cursor', issues: [{ field: 'cursor', problem }] },
  });
}

/** Returns the verified payload, or throws invalid_request naming the cursor. */
export function readCursor(ctx: CursorContext, cursor: string): CursorPayload {
  const parts = cursor.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw refuse('not a cursor issued by this service');
  const [body, signature] = parts as [string, string];
  const expected = sign(ctx.secret, body);
  const presented = Buffer.from(signature, 'base64url');
  // Constant-time: a forger learns nothing from how long the refusal took.
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    throw refuse('not a cursor issued by this service');
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw refuse('not a cursor issued by this service');
  }
  const parsed = Payload.safeParse(decoded);
  if (!parsed.success || parsed.data.k !== ctx.kind) throw refuse('not a cursor issued for this capability');
  if (parsed.data.f !== filterHash(ctx.kind, ctx.filters)) {
    throw refuse('issued for other filters: repeat the filters of the first page, or start again without a cursor');
  }
  const now = ctx.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (parsed.data.t > now + FUTURE_SKEW_SECONDS || now - parsed.data.t > CURSOR_TTL_SECONDS) {
    throw refuse(`expired: cursors are valid for ${CURSOR_TTL_SECONDS} seconds; start again from the first page`);
  }
  return parsed.data;
}
