import type express from 'express';
import { createServiceApp, recordServiceOptions, finishServiceApp, mountCapability } from '@evidence-record/platform';
import * as getWatchReceiptCap from './capabilities/get_watch_receipt';
import * as listWatchedProductsCap from './capabilities/list_watched_products';
import * as unwatchProductCap from './capabilities/unwatch_product';
import * as watchProductCap from './capabilities/watch_product';
import type { WatchDeps } from './deps';
import { mountUnsubscribe } from './unsubscribe';

/**
 * The watch service's HTTP app: the four watch capabilities plus health,
 * readiness and metrics. Readiness needs Postgres only: the watchlist keeps
 * answering while NATS is away (alerts then wait, they are not lost).
 */
export function createWatchApp(deps: WatchDeps): express.Express {
  const opts = recordServiceOptions({ name: 'watch', log: deps.log, metrics: deps.metrics, pool: deps.pool });
  const app = createServiceApp(opts);
  mountCapability(app, opts, listWatchedProductsCap.capability, listWatchedProductsCap.listWatchedProducts(deps));
  mountCapability(app, opts, getWatchReceiptCap.capability, getWatchReceiptCap.getWatchReceipt(deps));
  mountCapability(app, opts, watchProductCap.capability, watchProductCap.watchProduct(deps));
  mountCapability(app, opts, unwatchProductCap.capability, unwatchProductCap.unwatchProduct(deps));
  mountUnsubscribe(app, opts, deps);
  finishServiceApp(app, opts);
  return app;
}
