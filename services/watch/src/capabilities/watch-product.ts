import { Refusal, buildAnswer } from '@evidence-record/contract';
import { withSnapshot, withTransaction, type HandlerOf } from '@evidence-record/platform';
import { boundAccount } from '../account';
import { NO_SUBSCRIPTION, productIdentity, watchConfidence, watchItem } from '../answers';
import type { WatchDeps } from '../deps';
import { utcDate } from '../monitoring';
import { lockAccount } from '../queries/accounts';
import { productById } from '@evidence-record/record-store';
import { countWatches, isWatched, listWatchItems } from '../queries/watches';
import { addToWatchlist, callerAuthor } from '../watchlist';

/**
 * Adds a covered product to the account's watchlist. Watching a product
 * already watched changes nothing and succeeds; a product the Record does not
 * hold is not_found, a retired one is not watchable, and a new watch beyond
 * the plan's limit is refused. No subscription is started.
 */
export function watchProduct(deps: WatchDeps): HandlerOf<'watch_product'> {
  return async ({ capability, body }, ctx) => {
    const productId: string = body.product_id;

    const changed = await withTransaction(deps.pool, async (client) => {
      const account = await boundAccount(client, ctx, capability);
      await lockAccount(client, account.accountId);
      const product = await productById(client, productId);
      if (!product) throw new Refusal('not_found', { details: { product_id: productId } });
      if (await isWatched(client, account.accountId, productId)) return false;
      if (product.retired_on !== null) {
        throw new Refusal('product_not_watchable', { details: { product_id: productId, retired_on: product.retired_on } });
      }
      const count = await countWatches(client, account.accountId);
      if (count >= account.watchLimit) {
        throw new Refusal('watch_limit_reached', { details: { limit: account.watchLimit, count } });
      }
      return addToWatchlist(client, account.accountId, productId, callerAuthor(ctx));
    });

    return withSnapshot(deps.pool, async (client, record) => {
      const account = await boundAccount(client, ctx, capability);
      const now = deps.now();
      const [row] = await listWatchItems(client, account.accountId, utcDate(now), productId);
      // Removed again by a concurrent call between the two transactions: report that honestly.
      if (!row) throw new Refusal('not_found', { message: 'The watch was removed by another request before this answer was read.', details: { product_id: productId } });
      const count = await countWatches(client, account.accountId);
      const item = watchItem(row, now);
      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        status: 'supported',
        summary: changed ? `${row.name} is now on the watchlist.` : `${row.name} was already on the watchlist; nothing changed.`,
        product: productIdentity(row),
        products: [productIdentity(row)],
        watch: { changed, item, count, limit: account.watchLimit },
        limitations: [NO_SUBSCRIPTION],
        confidence: watchConfidence,
        record,
      });
      return { answer, entities: [productId] };
    });
  };
}
