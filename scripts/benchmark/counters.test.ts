import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ADMIN_DATABASE_URL, REDIS_URL } from '@evidence-record/test-support/infra';
import { FrontendStream, PgCounter } from './pg-counter';
import { RedisCounter, RespStream } from './redis-counter';
import { diffCounts } from './tap';
import { percentile } from './load';

/**
 * The bench's per-request figures are only as good as these counters, so
 * they are checked against the real servers with clients that behave like
 * the gateway's (pg with named prepared statements, ioredis with EVALSHA).
 */
const admin = new URL(ADMIN_DATABASE_URL);
const redisUrl = new URL(REDIS_URL);

describe('Postgres statement counter', () => {
  let counter: PgCounter;
  beforeAll(async () => {
    counter = new PgCounter({ host: admin.hostname, port: Number(admin.port || 5432) });
    await counter.start();
  });
  afterAll(async () => counter?.stop());

  it('counts each execution of a named prepared statement, a parameterised query and a simple query', async () => {
    const url = new URL(ADMIN_DATABASE_URL);
    url.host = `127.0.0.1:${counter.port}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const before = counter.snapshot();
    for (let i = 0; i < 3; i++) await client.query({ name: 'bench-test-named', text: 'SELECT $1::int + 1 AS n', values: [i] });
    await client.query('SELECT $1::text AS t', ['x']);
    await client.query('SELECT 42');
    await client.end();
    const d = diffCounts(before, counter.snapshot());
    expect(d.get('SELECT $1::int + 1 AS n')).toBe(3);
    expect(d.get('SELECT $1::text AS t')).toBe(1);
    expect(d.get('SELECT 42')).toBe(1);
  });

  it('parses messages split at any byte boundary', () => {
    const seen: string[] = [];
    const stream = new FrontendStream((sql) => seen.push(sql));
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8, 0);
    startup.writeInt32BE(196608, 4);
    const msg = (type: string, body: Buffer) => {
      const head = Buffer.alloc(5);
      head.write(type, 0, 'latin1');
      head.writeInt32BE(body.length + 4, 1);
      return Buffer.concat([head, body]);
    };
    const z = (s: string) => Buffer.from(`${s}\0`);
    const bytes = Buffer.concat([
      startup,
      msg('P', Buffer.concat([z('s1'), z('SELECT 1'), Buffer.from([0, 0])])),
      msg('B', Buffer.concat([z(''), z('s1'), Buffer.alloc(6)])),
      msg('E', Buffer.concat([z(''), Buffer.alloc(4)])),
      msg('S', Buffer.alloc(0)),
      msg('Q', z('BEGIN')),
    ]);
    for (let i = 0; i < bytes.length; i++) stream.feed(bytes.subarray(i, i + 1));
    expect(seen).toEqual(['SELECT 1', 'BEGIN']);
  });
});

describe('Redis command counter', () => {
  let counter: RedisCounter;
  beforeAll(async () => {
    counter = new RedisCounter({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    await counter.start();
  });
  afterAll(async () => counter?.stop());

  it('counts an EVALSHA as one command however many commands its script runs', async () => {
    const redis = new Redis(`redis://127.0.0.1:${counter.port}`, { lazyConnect: true });
    await redis.connect();
    redis.defineCommand('benchTestScript', { numberOfKeys: 1, lua: `redis.call('INCR', KEYS[1]); redis.call('INCR', KEYS[1]); return redis.call('GET', KEYS[1])` });
    const key = `ertest:bench-counter:${Date.now()}`;
    await (redis as unknown as { benchTestScript: (k: string) => Promise<string> }).benchTestScript(key); // may add one NOSCRIPT → EVAL
    const before = counter.snapshot();
    for (let i = 0; i < 5; i++) await (redis as unknown as { benchTestScript: (k: string) => Promise<string> }).benchTestScript(key);
    await redis.del(key);
    const d = diffCounts(before, counter.snapshot());
    redis.disconnect();
    expect(Object.fromEntries(d)).toEqual({ evalsha: 5, del: 1 });
  });

  it('parses pipelined commands split at any byte boundary', () => {
    const seen: string[] = [];
    const stream = new RespStream((name) => seen.push(name));
    const bytes = Buffer.from('*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*3\r\n$7\r\nEVALSHA\r\n$4\r\na\r\nb\r\n$1\r\n0\r\nPING\r\n');
    for (let i = 0; i < bytes.length; i++) stream.feed(bytes.subarray(i, i + 1));
    expect(seen).toEqual(['get', 'evalsha', 'ping']);
  });
});

describe('percentile', () => {
  it('is the nearest rank', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(v, 0.5)).toBe(50);
    expect(percentile(v, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(Number.isNaN(percentile([], 0.5))).toBe(true);
  });
});
