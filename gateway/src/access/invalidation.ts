import { publishCounted, type Logger, type RedisClient, type RedisSubscriber } from '@evidence-record/platform';
import { keyChangesChannel } from '../keyspace';

/** What a replica holds per key or organisation and must forget when one changes. */
export interface KeyChangeListener {
  /** A key id, or `org:<orgId>`. */
  invalidate(message: string): void;
  flush(): void;
  setChannelHealthy(healthy: boolean): void;
}

/**
 * Every replica listens on `${prefix}keys:changed`. A message is a key id or
 * `org:<orgId>`; the replica evicts what it names, so a revocation,
 * rotation, suspension or plan change takes effect on the next request.
 * Messages sent while this replica was disconnected are lost, so after every
 * reconnect (once subscribed again) the whole cache is flushed, and while
 * disconnected the cache trusts entries for one second only. The channel is
 * classic pub/sub, which on a Redis Cluster reaches every node, so the
 * subscriber may hold any node and moves on when it loses it (decision 2300).
 */
export async function followKeyChanges(subscriber: RedisSubscriber, prefix: string, listeners: readonly KeyChangeListener[], log: Logger): Promise<() => Promise<void>> {
  const channel = keyChangesChannel(prefix);
  let missedMessages = false;
  let stopped = false;
  const onMessage = (ch: string, message: string) => {
    if (ch !== channel) return;
    for (const l of listeners) l.invalidate(message);
    log.debug({ invalidated: message }, 'key change received');
  };
  const subscribe = async () => {
    await subscriber.subscribe(channel);
    if (stopped) return;
    if (missedMessages) {
      missedMessages = false;
      for (const l of listeners) l.flush();
      log.warn('key change channel reconnected: key cache and settled repeats flushed');
    }
    for (const l of listeners) l.setChannelHealthy(true);
  };
  const onReady = () => {
    subscribe().catch((err: unknown) => log.warn({ err: String(err) }, 'key change channel: subscribe failed'));
  };
  const onDown = () => {
    missedMessages = true;
    for (const l of listeners) l.setChannelHealthy(false);
  };
  subscriber.on('message', onMessage);
  subscriber.on('close', onDown);
  subscriber.on('ready', onReady);
  await subscribe();
  return async () => {
    stopped = true;
    subscriber.off('message', onMessage);
    subscriber.off('ready', onReady);
    subscriber.off('close', onDown);
    await subscriber.unsubscribe(channel).catch(() => undefined);
  };
}

/**
 * Tells every replica to drop what it caches for a key id (or `org:<orgId>`).
 * Resolves to the number of gateway replicas subscribed when it was published
 * (on a cluster counted on every node: PUBLISH alone counts one node's).
 */
export async function publishKeyChange(redis: RedisClient, prefix: string, message: string): Promise<number> {
  return publishCounted(redis, keyChangesChannel(prefix), message);
}
