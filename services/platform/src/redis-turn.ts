import type { Writable } from 'node:stream';
import { ioredis, type RedisClient } from './redis';

/**
 * Holds a connection's socket writes until the event loop has run the I/O
 * callbacks of its current turn and of the next, then lets them go together.
 *
 * Under load several requests reach the gateway in one turn of the event
 * loop (2.1–2.6 rate-window scripts per turn in `npm run bench`, issue 25),
 * and each used to send its script in a write of its own: one system call,
 * and on a real network or loopback one wake-up of Redis, per request. Held,
 * the commands of those turns leave in one `writev`; Redis reads them in one
 * go, runs each script exactly as before, one after the other, and answers
 * them in one write. Nothing about a command changes, only when its bytes
 * leave: after the next turn's I/O callbacks (`setImmediate` runs after them;
 * one scheduled from it, after the next turn's). An idle server waits no
 * longer than one look at its sockets: a pending immediate keeps the event
 * loop from blocking. Holding for the next turn too took resolve from 1.53 to
 * 1.41 × a bare forwarder's CPU per request (one `--only hop` run each).
 *
 * ioredis's own auto-pipelining does not do this: it waits only for the
 * current callback (`process.nextTick`), so commands issued by requests that
 * arrived together still leave one by one, and it builds a pipeline object
 * per batch on top (decision 1800).
 *
 * Returns `hold`: call it before issuing a command. On a cluster every
 * master's connection is held, so each node gets its commands of the turns in
 * one write; a connection opened during the turn writes at once, as before.
 * `hold(issue)` also runs `issue` just before the writes are let go: a caller
 * that gathers work over the turns (the gateway's rate windows, one script
 * for a key's requests) issues its commands then, and they leave in the same
 * write as the rest instead of a write of their own after it.
 */
export function holdWritesPerTurn(client: RedisClient): (issue?: () => void) => void {
  const held: Writable[] = [];
  const issuing: Array<() => void> = [];
  let holding = false;
  const release = (): void => {
    try {
      // Still holding while they run: what they send joins the held writes.
      for (const issue of issuing) issue();
    } finally {
      // Whatever an issuer did, the connection is never left corked.
      issuing.length = 0;
      holding = false;
      // uncork() of a socket that closed meanwhile is harmless: its buffered commands were already failed by ioredis.
      for (const stream of held) stream.uncork();
      held.length = 0;
    }
  };
  return (issue) => {
    if (issue) issuing.push(issue);
    if (holding) return;
    holding = true;
    for (const stream of streamsOf(client)) {
      stream.cork();
      held.push(stream);
    }
    setImmediate(() => setImmediate(release));
  };
}

function streamsOf(client: RedisClient): Writable[] {
  const connections = client instanceof ioredis().Cluster ? client.nodes('master') : [client];
  const streams: Writable[] = [];
  for (const c of connections) if (c.stream && !c.stream.destroyed) streams.push(c.stream);
  return streams;
}
