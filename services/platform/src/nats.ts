import { connect, RetentionPolicy, StorageType, DiscardPolicy, type NatsConnection, type JetStreamManager } from 'nats';
import { streamNames, type StreamNames } from '@evidence-record/contract';

export type { NatsConnection };

export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({ servers: url, name, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true });
}

const DAY_NS = 24 * 60 * 60 * 1e9;

/**
 * Creates or updates the streams this project uses. Safe to call from every
 * replica at every start-up. Duplicate windows are long so that an outbox
 * that republishes after an outage never delivers an event twice.
 */
export async function ensureStreams(nc: NatsConnection, prefix = ''): Promise<StreamNames> {
  const names = streamNames(prefix);
  const jsm = await nc.jetstreamManager();
  await upsert(jsm, { name: names.signals.stream, subjects: [names.signals.released], retention: RetentionPolicy.Limits, max_age: 30 * DAY_NS });
  await upsert(jsm, { name: names.alerts.stream, subjects: [names.alerts.requested], retention: RetentionPolicy.Workqueue, max_age: 14 * DAY_NS });
  return names;
}

async function upsert(jsm: JetStreamManager, cfg: { name: string; subjects: string[]; retention: RetentionPolicy; max_age: number }): Promise<void> {
  const full = { ...cfg, storage: StorageType.File, discard: DiscardPolicy.Old, duplicate_window: DAY_NS, num_replicas: 1 };
  try {
    await jsm.streams.info(cfg.name);
    await jsm.streams.update(cfg.name, full);
  } catch (err) {
    if (String(err).includes('stream not found')) {
      try {
        await jsm.streams.add(full);
      } catch (addErr) {
        // Another replica created it between our two calls.
        if (!String(addErr).includes('already in use')) throw addErr;
      }
    } else {
      throw err;
    }
  }
}
