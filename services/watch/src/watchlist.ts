import type { CallerContext, PoolClient } from '@evidence-record/platform';
import { addWatch, cancelPendingAlerts, recordWatchChange, removeWatch, type WatchChangeAuthor } from './queries/watches';

/**
 * The one implementation of changing a watchlist, inside the caller's
 * transaction (which holds the account's row lock). unwatch_product and the
 * one-click unsubscribe of an alert email both remove through here, so a
 * removal always cancels the pending alerts with it and is always recorded.
 */
export async function removeFromWatchlist(client: PoolClient, accountId: string, productId: string, who: WatchChangeAuthor): Promise<{ changed: boolean; alertsCancelled: number }> {
  const changed = await removeWatch(client, accountId, productId);
  const alertsCancelled = await cancelPendingAlerts(client, accountId, productId);
  if (changed) await recordWatchChange(client, accountId, productId, 'removed', who);
  return { changed, alertsCancelled };
}

export async function addToWatchlist(client: PoolClient, accountId: string, productId: string, who: WatchChangeAuthor): Promise<boolean> {
  const changed = await addWatch(client, accountId, productId);
  if (changed) await recordWatchChange(client, accountId, productId, 'added', who);
  return changed;
}

/** A capability call's author: the key the gateway authenticated and the door it came through. */
export function callerAuthor(ctx: CallerContext): WatchChangeAuthor {
  return { via: ctx.origin === 'mcp' ? 'mcp' : 'api', keyId: ctx.keyId, requestId: ctx.requestId };
}
