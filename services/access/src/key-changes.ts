import { publishCounted, type RedisClient } from '@evidence-record/platform';
import { keyChangesChannel } from './keyspace';

/**
 * Tells every replica to drop what it caches for a key id (or `org:<orgId>`).
 * Resolves to the number of gateway replicas subscribed when it was published
 * (on a cluster counted on every node: PUBLISH alone counts one node's).
 */
export async function publishKeyChange(redis: RedisClient, prefix: string, message: string): Promise<number> {
  return publishCounted(redis, keyChangesChannel(prefix), message);
}
