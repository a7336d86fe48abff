import type { Redis } from 'ioredis';
import type { Logger } from '@evidence-record/platform';
import { keyChangesChannel } from '../keyspace';
import type { KeyCache } from './key-cache';

/**
 * Every replica listens on `${prefix}keys:changed`. A message is a key id or
 * `org:<orgId>`; the replica evicts what it names, so a revocation,
 * rotation, suspension or plan change takes effect on the next request.
 * Messages sent while this replica was disconnected are lost, so after every
 * reconnect (once subscribed again) the whole cache is flushed, and while
 * disconnected the cache trusts entries for one second only.
 */
export async function followKeyChanges(subscriber: Redis, prefix: string, cache: KeyCache, log: Logger): Promise<() => Promise<void>> {
  const channel = keyChangesChannel(prefix);
  let missedMessages = false;
  let stopped = false;
  const onMessage = (ch: string, message: string) => {
    if (ch !== channel) return;
    cache.invalidate(message);
    log.debug({ invalidated: message }, 'key change received');
  };
  const subscribe = async () => {
    await subscriber.subscribe(channel);
    if (stopped) return;
    if (missedMessages) {
      missedMessages = false;
      cache.flush();
      log.warn('key change channel reconnected: key cache flushed');
    }
    cache.setChannelHealthy(true);
  };
  const onReady = () => {
    subscribe().catch((err: unknown) => log.warn({ err: String(err) }, 'key change channel: subscribe failed'));
  };
  const onDown = () => {
    missedMessages = true;
    cache.setChannelHealthy(false);
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

/** Tells every replica to drop what it caches for a key id (or `org:<orgId>`). */
export async function publishKeyChange(redis: Redis, prefix: string, message: string): Promise<void> {
  await redis.publish(keyChangesChannel(prefix), message);
}
