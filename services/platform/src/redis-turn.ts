import type { Writable } from 'node:stream';
import { Cluster } from 'ioredis';
import type { RedisClient } from './redis';

/**
 * Holds a connection's socket writes until the event loop has run every
 * callback of its current turn, then lets them go together.
 *
 * Under load several requests reach the gateway in one turn of the event
 * loop (2.1–2.6 rate-window scripts per turn in `npm run bench`, issue 25),
 * and each used to send its script in a write of its own: one system call,
 * and on a real network or loopback one wake-up of Redis, per request. Held,
 * the commands of one turn leave in one `writev`; Redis reads them in one go,
 * runs each script exactly as before, one after the other, and answers them
 * in one write. Nothing about a command changes, only when its bytes leave:
 * at the end of the turn that issued it (`setImmediate` runs after every I/O
 * callback of the turn), not in the middle of it.
 *
 * ioredis's own auto-pipelining does not do this: it waits only for the
 * current callback (`process.nextTick`), so commands issued by requests that
 * arrived together still leave one by one, and it builds a pipeline object
 * per batch on top (decision 1800).
 *
 * Returns `hold`: call it before issuing a command. On a cluster every
 * master's connection is held, so each node gets its commands of the turn in
 * one write; a connection opened during the turn writes at once, as before.
 */
export function holdWritesPerTurn(client: RedisClient): () => void {
  const held: Writable[] = [];
  let holding = false;
  const release = (): void => {
    holding = false;
    // uncork() of a socket that closed meanwhile is harmless: its buffered commands were already failed by ioredis.
    for (const stream of held) stream.uncork();
    held.length = 0;
  };
  return () => {
    if (holding) return;
    holding = true;
    for (const stream of streamsOf(client)) {
      stream.cork();
      held.push(stream);
    }
    // Released after the I/O callbacks of the next turn too: under load the requests of two turns share a write
    // (a pending immediate keeps the event loop from blocking, so an idle server waits no longer than a look at its sockets).
    setImmediate(() => setImmediate(release));
  };
}

function streamsOf(client: RedisClient): Writable[] {
  const connections = client instanceof Cluster ? client.nodes('master') : [client];
  const streams: Writable[] = [];
  for (const c of connections) if (c.stream && !c.stream.destroyed) streams.push(c.stream);
  return streams;
}
