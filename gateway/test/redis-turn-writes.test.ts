import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { isolationPrefix } from '@evidence-record/test-support/db';
import type { PlanLimits } from '../src/access/key-record';
import { checkRateWindows } from '../src/limits/rate-windows';
import { installScripts } from '../src/limits/scripts';
import { dropPrefix, redisClient } from './support/harness';

/**
 * The gateway's scripts issued in one turn of the event loop leave in one
 * socket write, and each still runs alone, in order, with its own answer
 * (platform `holdWritesPerTurn`, decision 1800). Counted on the connection's
 * real socket against the real Redis.
 */
const plan = (minute: number): PlanLimits => ({
  planId: 'p',
  windows: { minute, hour: 1000, day: 10_000 },
  budgets: { product: 1, signal: 1, ingredient: 1 },
  watchLimit: 0,
  capabilities: new Set(),
});

/** How many times the socket hands bytes to the kernel, and how many commands went in each hand-over. */
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

  it('eight requests of one turn: one write, eight scripts run one after another, exactly the limit admitted', async () => {
    seen.writes.length = 0;
    const decisions = await Promise.all(Array.from({ length: 8 }, () => checkRateWindows(redis, redisPrefix, 'k-turn', plan(5), true)));
    expect(seen.writes).toEqual([8]);
    // Each script saw the counts of the ones before it: admitted 1..5, then refused with nothing counted.
    expect(decisions.map((d) => d.admitted)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions.map((d) => d.windows[0]!.used)).toEqual([1, 2, 3, 4, 5, 5, 5, 5]);
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
});
