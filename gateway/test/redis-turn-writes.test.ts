import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { isolationPrefix } from '@evidence-record/test-support/db';
import type { PlanLimits } from '../src/access/key-record';
import { coolDownKey, rateWindowKeys } from '@evidence-record/access';
import { checkRateWindows } from '../src/limits/rate-windows';
import { installScripts } from '../src/limits/scripts';
import { dropPrefix, redisClient } from './support/harness';

/**
 * The gateway's scripts issued in one turn of the event loop leave in one
 * socket write (platform `holdWritesPerTurn`, decision 1800), and a key's
 * requests of the held turns are counted by one script, in order, each with its own
 * answer (rate-windows.ts). Counted on the connection's real socket (one chunk
 * per command) against the real Redis.
 */
const plan = (minute: number): PlanLimits => ({
  planId: 'p',
  windows: { minute, hour: 1000, day: 10_000 },
  budgets: { product: 1, signal: 1, ingredient: 1 },
  watchLimit: 0,
  capabilities: new Set(),
});

/** How many times the socket hands bytes to the kernel, and how many chunks (commands) went in each hand-over. */
function countWrites(redis: Redis): { writes: number[] } {
  const seen = { writes: [] as number[] };
  const socket = redis.stream as unknown as { _write: (...a: unknown[]) => void; _writev: (chunks: unknown[], cb: unknown) => void };
  const write = socket._write.bind(socket);
  const writev = socket._writev.bind(socket);
  socket._write = (...a: unknown[]) => {
    seen.writes.push(1);
    write(...a);
  };
  socket._writev = (chunks: unknown[], cb: unknown) => {
    seen.writes.push(chunks.length);
    writev(chunks, cb);
  };
  return seen;
}

describe('the scripts of one turn in one write', () => {
  const { redisPrefix } = isolationPrefix('gw-turn-writes');
  const client = redisClient();
  const redis = installScripts(client);
  let seen: { writes: number[] };
  beforeAll(async () => {
    await client.ping();
    seen = countWrites(client);
  });
  afterAll(async () => {
    await dropPrefix(redis, redisPrefix);
    client.disconnect();
  });

  it('eight requests of one key in one turn: one script in one write, exactly the limit admitted, in order', async () => {
    seen.writes.length = 0;
    const decisions = await Promise.all(Array.from({ length: 8 }, () => checkRateWindows(redis, redisPrefix, 'k-turn', plan(5), true)));
    // One hand-over of one chunk: one command.
    expect(seen.writes).toEqual([1]);
    // Each request saw the counts of the ones before it: admitted 1..5, then refused with nothing counted.
    expect(decisions.map((d) => d.admitted)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions.map((d) => d.windows[0]!.used)).toEqual([1, 2, 3, 4, 5, 5, 5, 5]);
    expect(decisions.map((d) => d.windows[0]!.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    expect(await client.get(rateWindowKeys(redisPrefix, 'k-turn')[0])).toBe('5');
    const ttl = await client.pttl(rateWindowKeys(redisPrefix, 'k-turn')[0]);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('reads and counts of one key in one turn keep their order; two keys: two scripts in one write', async () => {
    seen.writes.length = 0;
    const [read0, counted, read1, other] = await Promise.all([
      checkRateWindows(redis, redisPrefix, 'k-order', plan(5), false),
      checkRateWindows(redis, redisPrefix, 'k-order', plan(5), true),
      checkRateWindows(redis, redisPrefix, 'k-order', plan(5), false),
      checkRateWindows(redis, redisPrefix, 'k-other', plan(5), true),
    ]);
    expect(seen.writes).toEqual([2]);
    expect([read0!.windows[0]!.used, counted!.windows[0]!.used, read1!.windows[0]!.used]).toEqual([0, 1, 1]);
    expect(other!.windows[0]!.used).toBe(1);
  });

  it('a key in a cool-down: every request of the turn refused, nothing counted', async () => {
    await client.set(coolDownKey(redisPrefix, 'k-cool'), 'cool', 'PX', 30_000);
    const decisions = await Promise.all(Array.from({ length: 3 }, () => checkRateWindows(redis, redisPrefix, 'k-cool', plan(5), true)));
    expect(decisions.map((d) => [d.admitted, d.coolDown?.state, d.windows[0]!.used])).toEqual(Array.from({ length: 3 }, () => [false, 'cool', 0]));
    expect(decisions[0]!.retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect(await client.exists(rateWindowKeys(redisPrefix, 'k-cool')[0])).toBe(0);
  });

  it('requests of different turns: a write each, as before', async () => {
    seen.writes.length = 0;
    for (let i = 0; i < 3; i++) await checkRateWindows(redis, redisPrefix, 'k-turns', plan(5), true);
    expect(seen.writes).toEqual([1, 1, 1]);
  });

  it('a command of the turn other than a script leaves in the same write', async () => {
    seen.writes.length = 0;
    const [decision, pong] = await Promise.all([checkRateWindows(redis, redisPrefix, 'k-mixed', plan(5), false), client.ping()]);
    expect(pong).toBe('PONG');
    expect(decision.admitted).toBe(true);
    expect(seen.writes).toEqual([2]);
  });

  it('a script that fails fails every request of its batch', async () => {
    const lost = redisClient();
    await lost.ping();
    const scripts = installScripts(lost);
    lost.disconnect();
    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => checkRateWindows(scripts, redisPrefix, 'k-lost', plan(5), true)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});
