import type express from 'express';
import { createCapabilityServiceApp, type InternalAuth, type Logger, type Metrics, type Pool, type ServiceHandlers } from '@evidence-record/platform';
import { explainSignal } from './capabilities/explain-signal';
import { listSignalChanges } from './capabilities/list-signal-changes';
import { getCategorySnapshot } from './capabilities/get-category-snapshot';
import { systemClock, type Clock } from '@evidence-record/contract';
import type { SignalsDeps } from './deps';
import { pendingCount } from '@evidence-record/record-store';
import type { RelayStatus } from './outbox/relay';

export interface SignalsAppOptions {
  pool: Pool;
  log: Logger;
  metrics: Metrics;
  publicBaseUrl: string;
  cursorSecret: string;
  clock?: Clock;
  /** The outbox relay's view of NATS, reported as readiness detail. */
  relayStatus?: () => RelayStatus;
  /** The gateway's signing keys (every entrypoint passes them; in-process handler tests leave them out). */
  internalAuth?: InternalAuth;
}

/** The capabilities this service answers, by name. */
export const signalsHandlers = (deps: SignalsDeps): ServiceHandlers<'signals'> => ({
  explain_signal: explainSignal(deps),
  list_signal_changes: listSignalChanges(deps),
  get_category_snapshot: getCategorySnapshot(deps),
});

/**
 * The signals service: explain_signal, list_signal_changes and
 * get_category_snapshot over released Signals.
 *
 * Readiness is Postgres only. Every answer comes from Postgres; NATS carries
 * release events to the watch alerts, and while it is down the outbox keeps
 * them, so taking the API out of rotation would help nobody. NATS state and
 * the outbox backlog are reported at /readyz/detail and as metrics instead.
 */
export function createSignalsApp(opts: SignalsAppOptions): express.Express {
  const deps: SignalsDeps = { pool: opts.pool, publicBaseUrl: opts.publicBaseUrl, cursorSecret: opts.cursorSecret, clock: opts.clock ?? systemClock };
  return createCapabilityServiceApp('signals', { log: opts.log, metrics: opts.metrics, pool: opts.pool, internalAuth: opts.internalAuth }, signalsHandlers(deps), (app) => {
    app.get('/readyz/detail', async (_req, res) => {
      const nats = opts.relayStatus?.() ?? { nats: 'stopped', last_drain_at: null, last_error: null };
      try {
        const outbox = await pendingCount(opts.pool);
        res.json({ status: 'ready', service: 'signals', postgres: 'up', nats: nats.nats, outbox: { ...outbox, last_drain_at: nats.last_drain_at } });
      } catch {
        res.status(503).json({ status: 'not_ready', service: 'signals', postgres: 'down', nats: nats.nats });
      }
    });
  });
}
