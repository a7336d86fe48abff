import { buildAnswer } from '@evidence-record/contract';
import { withSnapshot, withTransaction, type HandlerOf } from '@evidence-record/platform';
import { boundAccount } from '../account';
import { productIdentity, watchConfidence } from '../answers';
import type { WatchDeps } from '../deps';
import { lockAccount } from '../queries/accounts';
import { productById } from '@evidence-record/record-store';
import { countWatches } from '../queries/watches';
import { callerAuthor, removeFromWatchlist } from '../watchlist';

/**
 * Removes a product from the watchlist. Removing one that is not watched
 * succeeds without change (spec, Behaviours 9), and so does an id the Record
 * does not hold: nothing can be watched under it, so nothing changes; the
 * answer says `unsupported` (the Record does not cover that id), names no
 * product and costs nothing, and the gateway scores it like a not-found id
 * (docs/decisions/0311-unwatch-an-id-not-in-the-record.md). Alerts not yet
 * sent for this product are cancelled with the watch; alerts already
 * delivered are left alone.
 */
export function unwatchProduct(deps: WatchDeps): HandlerOf<'unwatch_product'> {
  return async ({ capability, params }, ctx) => {
    const productId: string = params.product_id;

    const outcome = await withTransaction(deps.pool, async (client) => {
      const account = await boundAccount(client, ctx, capability);
      await lockAccount(client, account.accountId);
      if (!(await productById(client, productId))) return { changed: false, alertsCancelled: 0 };
      return removeFromWatchlist(client, account.accountId, productId, callerAuthor(ctx));
    });

    return withSnapshot(deps.pool, async (client, record) => {
      const account = await boundAccount(client, ctx, capability);
      const product = await productById(client, productId);
      const count = await countWatches(client, account.accountId);
      if (!product) {
        const answer = buildAnswer({
          request_id: ctx.requestId,
          capability,
          status: 'unsupported',
          summary: `${productId} is not a product in the Record, so it cannot be on the watchlist; nothing changed.`,
          product: null,
          products: [],
          watch: { changed: false, alerts_cancelled: 0, count, limit: account.watchLimit },
          limitations: [`${productId} is not a product in the Record: no watch can exist under it. Resolve a product first and pass its product_id.`],
          confidence: watchConfidence,
          record,
        });
        return { answer, entities: [] };
      }
      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        status: 'supported',
        summary: outcome.changed
          ? `${product.name} is no longer on the watchlist; no further alerts will be sent about it.`
          : `${product.name} was not on the watchlist; nothing changed.`,
        product: productIdentity(product),
        products: [productIdentity(product)],
        watch: { changed: outcome.changed, alerts_cancelled: outcome.alertsCancelled, count, limit: account.watchLimit },
        limitations: ['Alerts already delivered are not recalled.'],
        confidence: watchConfidence,
        record,
      });
      return { answer, entities: [productId] };
    });
  };
}
