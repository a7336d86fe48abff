import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ONE_CLICK_BODY, UNSUBSCRIBE_ISSUE_TIME_MILESTONE, UNSUBSCRIBE_PATH, headers as h, unsubscribeCoversWatch, verifyUnsubscribeToken, type UnsubscribeClaims } from '@evidence-record/contract';
import { TRACEPARENT } from '@evidence-record/platform';
import { Exchange, finish, type GatewayContext } from '../context';
import { parseQuery, readBody } from '../http/io';
import { confirmPage, donePage, refusalPage, type RefusalKind, type UnsubscribeTarget } from './page';

/**
 * The one-click unsubscribe of an alert email (docs/decisions/0510-alert-unsubscribe.md):
 * `GET /unsubscribe?token=…` shows a confirmation page and changes nothing
 * (link scanners fetch every link in an email); `POST` with the RFC 8058 body
 * `List-Unsubscribe=One-Click` (from that page's form, or from a mail
 * provider) removes the watch the token names, through the watch service's
 * own unwatch. No API key: the signed token is the authority, and it names
 * exactly one account and one product. Not a capability: outside /api/v1,
 * in no route table, no CORS headers, the 8192-byte body limit, a rate
 * limit per token, and the token never logged (the access line has no URL).
 */
export const UNSUBSCRIBE_ALLOW = 'GET, HEAD, POST';

/** The page's CSP: the general one forbids the inline style and the form this page needs, and nothing more is allowed. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function serveUnsubscribe(gw: GatewayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ex = new Exchange('unsubscribe', req, res);
  ex.addHeaders({ 'Content-Security-Policy': PAGE_CSP });
  return handle(gw, ex).finally(() => finish(gw, ex));
}

async function handle(gw: GatewayContext, ex: Exchange): Promise<void> {
  const method = ex.req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    ex.req.resume();
    ex.addHeaders({ Allow: UNSUBSCRIBE_ALLOW });
    return refuse(ex, 405, 'method');
  }
  const settings = gw.config.unsubscribe;
  const checked = gw.checked;
  if (!settings || settings.keys.length === 0 || !checked) {
    ex.req.resume();
    return refuse(ex, 503, 'unavailable');
  }

  const query = parseQuery(ex.req.url ?? '');
  const token = typeof query.token === 'string' ? query.token : '';
  const verdict = verifyUnsubscribeToken(settings.keys, token, Math.floor(gw.clock() / 1000));
  if (!verdict.ok) {
    ex.req.resume();
    return verdict.reason === 'expired' ? refuse(ex, 410, 'expired') : refuse(ex, 400, 'invalid');
  }
  const claims = verdict.claims;

  // Counted only for tokens this system signed, so forged tokens cost one HMAC and never reach Redis.
  try {
    const retryAfter = await overLimit(gw, checked.redis, token, settings);
    if (retryAfter !== null) {
      ex.req.resume();
      ex.addHeaders({ 'Retry-After': String(retryAfter) });
      return refuse(ex, 429, 'too_many');
    }
  } catch (err) {
    ex.req.resume();
    gw.metrics.base.dependencyErrors.inc({ dependency: 'redis' });
    gw.log.error({ request_id: ex.requestId, err: err instanceof Error ? err.message : String(err) }, 'unsubscribe rate window unavailable');
    return refuse(ex, 503, 'unavailable');
  }

  const actionUrl = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
  if (method !== 'POST') {
    ex.req.resume();
    const target = await describe(gw, claims).catch(() => null);
    if (!target) return refuse(ex, 503, 'unavailable');
    // Said before the button, not after it: the watch was added again after this email (the POST refuses it too).
    if (!target.covered) return refuse(ex, 409, 'older_than_watch');
    return send(ex, 200, confirmPage(target, actionUrl), method === 'HEAD');
  }

  const read = await readBody(ex.req);
  if (!read.ok) {
    ex.addHeaders({ Connection: 'close' });
    return refuse(ex, 413, 'too_large');
  }
  if (!(await isOneClick(ex.req.headers['content-type'], read.body))) return refuse(ex, 400, 'not_one_click');

  let outcome: Awaited<ReturnType<typeof unwatch>>;
  try {
    outcome = await unwatch(gw, ex, claims);
  } catch (err) {
    gw.metrics.upstreamErrors.inc({ service: 'watch', reason: 'unsubscribe' });
    gw.log.error({ request_id: ex.requestId, err: err instanceof Error ? err.message : String(err) }, 'unsubscribe: the watch service gave no answer');
    return refuse(ex, 503, 'unavailable');
  }
  if (outcome === 'older_than_watch') return refuse(ex, 409, 'older_than_watch');
  const target: UnsubscribeTarget = {
    product: outcome.product ? `${outcome.product.brand_name} ${outcome.product.name}` : claims.productId,
    productId: claims.productId,
    recipient: null,
  };
  send(ex, 200, donePage(target, outcome.changed), false);
}

function send(ex: Exchange, status: number, html: string, headOnly: boolean): void {
  ex.status = status;
  const res = ex.res;
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(html, 'utf8');
  res.statusCode = status;
  for (const [name, value] of Object.entries(ex.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(headOnly ? undefined : body);
}

function refuse(ex: Exchange, status: number, kind: RefusalKind): void {
  ex.code = kind;
  send(ex, status, refusalPage(kind), ex.req.method === 'HEAD');
}

/**
 * At most `perToken` requests per token in a fixed window. Keyed by a hash of
 * the token, so Redis never holds a usable link.
 */
async function overLimit(
  gw: GatewayContext,
  redis: NonNullable<GatewayContext['checked']>['redis'],
  token: string,
  settings: NonNullable<GatewayContext['config']['unsubscribe']>,
): Promise<number | null> {
  const key = `${gw.config.redisPrefix}unsub:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
  const results = await redis.multi().incr(key).expire(key, settings.windowSeconds, 'NX').ttl(key).exec();
  const count = Number(results?.[0]?.[1] ?? 0);
  const ttl = Number(results?.[2]?.[1] ?? settings.windowSeconds);
  return count > settings.perToken ? Math.max(1, ttl) : null;
}

/** RFC 8058: the body is `List-Unsubscribe=One-Click`, sent as multipart/form-data or application/x-www-form-urlencoded. */
async function isOneClick(contentType: string | undefined, body: Buffer): Promise<boolean> {
  const type = (contentType ?? '').toLowerCase();
  if (!type.startsWith('multipart/form-data') && !type.startsWith('application/x-www-form-urlencoded')) return false;
  const [name, value] = ONE_CLICK_BODY.split('=') as [string, string];
  try {
    // Node's own (undici) form parser reads both encodings.
    const form = await new Request('http://unsubscribe.invalid/', { method: 'POST', headers: { 'content-type': contentType! }, body: new Uint8Array(body) }).formData();
    return form.get(name) === value;
  } catch {
    return false;
  }
}

/**
 * The product's name and the account's masked address, for the confirmation page, and whether the link still
 * applies to the watch (the rule the watch service applies on the POST, decision 1901). A read; nothing changes on GET.
 */
async function describe(gw: GatewayContext, claims: UnsubscribeClaims): Promise<UnsubscribeTarget & { covered: boolean }> {
  const { rows } = await gw.checked!.pool.query<{ product: string | null; email: string | null; watched_since: Date | null; issue_times_since: Date | null }>({
    name: 'gateway-unsubscribe-target',
    text: `SELECT (SELECT b.name || ' ' || p.name FROM products p JOIN brands b ON b.brand_id = p.brand_id WHERE p.product_id = $1) AS product,
                  (SELECT a.email FROM accounts a WHERE a.account_id = $2) AS email,
                  (SELECT w.created_at FROM watches w WHERE w.account_id = $2 AND w.product_id = $1) AS watched_since,
                  (SELECT m.reached_at FROM deployment_milestones m WHERE m.name = $3) AS issue_times_since`,
    values: [claims.productId, claims.accountId, UNSUBSCRIBE_ISSUE_TIME_MILESTONE],
  });
  const row = rows[0];
  const covered = !row?.watched_since || unsubscribeCoversWatch(claims, row.watched_since, row.issue_times_since ?? null);
  return { product: row?.product ?? claims.productId, productId: claims.productId, recipient: row?.email ? maskEmail(row.email) : null, covered };
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, local.length))}***${email.slice(at)}`;
}

/**
 * The unwatch itself, by the watch service (its one implementation, which
 * also cancels pending alerts and records the change as an email
 * unsubscribe). The account and product come from the verified token only.
 * The call goes through the gateway's own upstream forwarding (keep-alive
 * pool, deadline, size cap, and whatever the gateway adds to every request it
 * forwards to a service), as a POST of its own path and headers; the
 * client's body is not sent.
 */
async function unwatch(
  gw: GatewayContext,
  ex: Exchange,
  claims: UnsubscribeClaims,
): Promise<{ changed: boolean; product: { name: string; brand_name: string; product_id: string } | null } | 'older_than_watch'> {
  const issued: Record<string, string> = claims.issuedAtMs === null ? {} : { [h.unsubscribeIssuedAt]: String(claims.issuedAtMs) };
  const answer = await gw.upstreams.forward({
    service: 'watch',
    target: gw.config.upstreams.watch,
    method: 'POST',
    path: `/internal/unsubscribe/${claims.productId}`,
    headers: { [h.requestId]: ex.requestId, [h.accountId]: claims.accountId, [TRACEPARENT]: ex.trace.traceparent, ...issued },
    body: Buffer.alloc(0),
    timeoutMs: gw.config.upstreamTimeoutMs,
    maxBytes: 8192,
  });
  if (answer.status === 409) return 'older_than_watch';
  if (answer.status !== 200) throw new Error(`watch service answered ${answer.status}`);
  return JSON.parse(answer.body.toString('utf8')) as { changed: boolean; product: { name: string; brand_name: string; product_id: string } | null };
}
