import type express from 'express';
import type { Request, Response } from 'express';
import { productIdPattern } from '@evidence-record/contract';
import { callerContext, logRequest, withTransaction, type ServiceAppOptions } from '@evidence-record/platform';
import type { WatchDeps } from './deps';
import { lockAccount } from './queries/accounts';
import { findProduct } from './queries/watches';
import { removeFromWatchlist } from './watchlist';

/**
 * The internal end of an alert email's one-click unsubscribe. Only the
 * gateway calls it, after verifying the email's signed token; the account
 * comes from `x-er-account-id` (set by the gateway from the token, like every
 * other identity header), the product from the path. Not a capability and
 * not in the public route table: the gateway never forwards a client's path
 * here. The removal is unwatch_product's own (watchlist.ts), recorded as
 * `email_unsubscribe`. Idempotent: a product not watched (or an account that
 * no longer exists) answers `changed: false`.
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
      if (!productIdPattern.test(productId) || accountId === null || !accountIdPattern.test(accountId)) {
        status = 400;
        res.status(400).json({ error: 'invalid_request' });
        return;
      }
      const outcome = await withTransaction(deps.pool, async (client) => {
        await lockAccount(client, accountId);
        const removal = await removeFromWatchlist(client, accountId, productId, { via: 'email_unsubscribe', keyId: null, requestId: ctx.requestId });
        const product = await findProduct(client, productId);
        return { ...removal, product };
      });
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
      opts.metrics.requests.inc({ capability: 'email_unsubscribe', status: String(status), code: status === 200 ? '' : status === 400 ? 'invalid_request' : 'internal_error' });
      ctx.trace.end({ attributes: { 'http.response.status_code': status } });
      logRequest(ctx.log, { method: req.method, route: INTERNAL_UNSUBSCRIBE_PATH, capability: 'email_unsubscribe', status, code: null, ms: seconds * 1000 });
    }
  });
}
