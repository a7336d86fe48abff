import type express from 'express';
import { createCapabilityServiceApp, type InternalAuth, type ServiceHandlers } from '@evidence-record/platform';
import { getWatchReceipt } from './capabilities/get-watch-receipt';
import { listWatchedProducts } from './capabilities/list-watched-products';
import { unwatchProduct } from './capabilities/unwatch-product';
import { watchProduct } from './capabilities/watch-product';
import type { WatchDeps } from './deps';
import { mountUnsubscribe } from './unsubscribe';

/** The capabilities this service answers, by name. */
export const watchHandlers = (deps: WatchDeps): ServiceHandlers<'watch'> => ({
  list_watched_products: listWatchedProducts(deps),
  get_watch_receipt: getWatchReceipt(deps),
  watch_product: watchProduct(deps),
  unwatch_product: unwatchProduct(deps),
});

/**
 * The watch service's HTTP app: the four watch capabilities plus health,
 * readiness and metrics. Readiness needs Postgres only: the watchlist keeps
 * answering while NATS is away (alerts then wait, they are not lost).
 */
export function createWatchApp(deps: WatchDeps & { internalAuth?: InternalAuth }): express.Express {
  return createCapabilityServiceApp('watch', { log: deps.log, metrics: deps.metrics, pool: deps.pool, internalAuth: deps.internalAuth }, watchHandlers(deps), (app, opts) =>
    mountUnsubscribe(app, opts, deps),
  );
}
