import type express from 'express';
import type { Request, Response } from 'express';
import { headers as h, productIdPattern, unsubscribeCoversWatch } from '@evidence-record/contract';
import { callerContext, logRequest, withTransaction, type ServiceAppOptions } from '@evidence-record/platform';
import type { WatchDeps } from './deps';
import { lockAccount } from './queries/accounts';
import { productById } from '@evidence-record/record-store';
import { watchAgainstLink } from './queries/watches';
import { removeFromWatchlist } from './watchlist';

/**
 * The internal end of an alert email's one-click unsubscribe. Only the
 * gateway calls it, after verifying the email's signed token; the account
 * comes from `x-er-account-id` (set by the gateway from the token, like every
 * other identity header), the product from the path. Not a capability and
 * not in the public route table: the gateway never forwards a client's path
 * here. The removal is unwatch_product's own (watchlist.ts), recorded as
 * `email_unsubscribe`. Idempotent: a product not watched (or an account that
 * no longer exists) answers `changed: false`. A link older than the watch (the
 * watch was added again after the email was sent; `x-er-unsubscribe-issued-at`,
 * absent for a link minted before links carried it) removes nothing: 409
 * `link_older_than_watch` (decision 1901).
 */
export const INTERNAL_UNSUBSCRIBE_PATH = '/internal/unsubscribe/:product_id';
const accountIdPattern = /^acc_[0-9a-z_]{1,60}$/;

export function mountUnsubscribe(app: express.Express, opts: ServiceAppOptions, deps: WatchDeps): void {
  app.post(INTERNAL_UNSUBSCRIBE_PATH, async (req: Request, res: Response) => {
    const started = process.hrtime.bigint();
    const ctx = callerContext(req, opts.log, 'email_unsubscribe');
    let status = 200;
    try {
      const productId = String(req.params.product_id);
      const accountId = ctx.accountId;
      const issued = req.header(h.unsubscribeIssuedAt);
      if (!productIdPattern.test(productId) || accountId === null || !accountIdPattern.test(accountId) || (issued !== undefined && !/^[1-9][0-9]{0,14}$/.test(issued))) {
        status = 400;
        res.status(400).json({ error: 'invalid_request' });
        return;
      }
      const link = { issuedAtMs: issued === undefined ? null : Number(issued) };
      const outcome = await withTransaction(deps.pool, async (client) => {
        await lockAccount(client, accountId);
        // Under the account's lock: no watch can be added between this reading and the removal.
        const { watchedSince, issueTimesSince } = await watchAgainstLink(client, accountId, productId);
        if (watchedSince && !unsubscribeCoversWatch(link, watchedSince, issueTimesSince)) return { kind: 'older_than_watch' as const, watchedSince };
        const removal = await removeFromWatchlist(client, accountId, productId, { via: 'email_unsubscribe', keyId: null, requestId: ctx.requestId });
        const product = await productById(client, productId);
        return { kind: 'removed' as const, ...removal, product };
      });
      if (outcome.kind === 'older_than_watch') {
        status = 409;
        res.status(409).json({ error: 'link_older_than_watch', watched_since: outcome.watchedSince.toISOString() });
        return;
      }
      res.status(200).json({
        changed: outcome.changed,
        alerts_cancelled: outcome.alertsCancelled,
        product: outcome.product ? { product_id: outcome.product.product_id, name: outcome.product.name, brand_name: outcome.product.brand_name } : null,
      });
    } catch (err) {
      status = 500;
      ctx.log.error({ err: err instanceof Error ? err.message : String(err) }, 'email unsubscribe failed');
      if (!res.headersSent) res.status(500).json({ error: 'internal_error' });
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      opts.metrics.requests.inc({ capability: 'email_unsubscribe', status: String(status), code: status === 200 ? '' : status === 400 ? 'invalid_request' : status === 409 ? 'link_older_than_watch' : 'internal_error' });
      ctx.trace.end({ attributes: { 'http.response.status_code': status } });
      logRequest(ctx.log, { method: req.method, route: INTERNAL_UNSUBSCRIBE_PATH, capability: 'email_unsubscribe', status, code: null, ms: seconds * 1000 });
    }
  });
}
