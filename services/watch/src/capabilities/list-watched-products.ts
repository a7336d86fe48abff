import { buildAnswer } from '@evidence-record/contract';
import { withSnapshot, type HandlerOf } from '@evidence-record/platform';
import { boundAccount } from '../account';
import { productIdentity, watchConfidence, watchItem } from '../answers';
import type { WatchDeps } from '../deps';
import { utcDate } from '../monitoring';
import { listWatchItems } from '../queries/watches';

/** The account's watchlist: each product with its monitoring state, last read and next check due. */
export function listWatchedProducts(deps: WatchDeps): HandlerOf<'list_watched_products'> {
  return async ({ capability }, ctx) =>
    withSnapshot(deps.pool, async (client, record) => {
      const account = await boundAccount(client, ctx, capability);
      const now = deps.now();
      const rows = await listWatchItems(client, account.accountId, utcDate(now));
      const items = rows.map((row) => watchItem(row, now));
      const unreadable = items.filter((i) => i.currently_unreadable).length;
      const notMonitored = items.filter((i) => i.monitoring_state === 'not_monitored').length;

      const limitations: string[] = [];
      if (unreadable > 0) limitations.push(`${unreadable} watched product(s) have a source that cannot be read right now; changes on them may be seen late.`);
      if (notMonitored > 0) limitations.push(`${notMonitored} watched product(s) are not monitored today; no new Signal is expected on them until monitoring resumes.`);

      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        status: 'supported',
        summary: items.length === 0 ? 'The watchlist of this account is empty.' : `The watchlist of this account: ${items.length} product(s) with their monitoring state.`,
        products: rows.map(productIdentity),
        watch: { items, count: items.length, limit: account.watchLimit },
        limitations,
        confidence: watchConfidence,
        record,
      });
      return { answer, entities: items.map((i) => i.product_id) };
    });
}
