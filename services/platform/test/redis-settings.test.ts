import { describe, expect, it } from 'vitest';
import { ConfigError, groupByHashTag, parseRedisUrl, printableValue, redisSettingsFrom, RedisUrlRefused } from '../src/index';

/**
 * REDIS_MODE, REDIS_URL and REDIS_SENTINEL_NAME as every program reads them
 * (decision 2300); the connections themselves are tested against real
 * servers in gateway/test/redis-cluster.test.ts and redis-sentinel.test.ts.
 */
describe('REDIS_URL', () => {
  it('reads one node or several, with credentials, TLS and a database', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6379')).toEqual({ tls: false, db: 0, nodes: [{ host: '127.0.0.1', port: 6379 }], query: '' });
    expect(parseRedisUrl('rediss://app:p%40ss@h1:7001,h2:7002,h3/2')).toEqual({
      tls: true,
      username: 'app',
      password: 'p@ss',
      db: 2,
      nodes: [
        { host: 'h1', port: 7001 },
        { host: 'h2', port: 7002 },
        { host: 'h3', port: 6379 },
      ],
      query: '',
    });
    // The chart's form: a password alone.
    expect(parseRedisUrl('redis://:secret@redis-0.redis:6379/0')).toMatchObject({ password: 'secret', nodes: [{ host: 'redis-0.redis', port: 6379 }] });
    expect(parseRedisUrl('redis://[::1]:7001,[::1]:7002').nodes).toEqual([
      { host: '::1', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
  });

  it('refuses what is not a node list, without echoing the value', () => {
    for (const bad of ['http://h:1', 'redis://h:1,,h:2', 'redis://h:99999', 'redis://h:1,h 2:3']) {
      let caught: unknown;
      try {
        parseRedisUrl(bad);
      } catch (err) {
        caught = err;
      }
      expect(caught, bad).toBeInstanceOf(RedisUrlRefused);
    }
  });
});

describe('the settings together', () => {
  const refusal = (env: NodeJS.ProcessEnv) => {
    try {
      redisSettingsFrom(env);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
  };

  it('defaults to one server, its URL untouched', () => {
    expect(redisSettingsFrom({ REDIS_URL: 'redis://127.0.0.1:6379/3?family=4' })).toEqual({ mode: 'standalone', url: 'redis://127.0.0.1:6379/3?family=4', sentinelName: undefined, sentinelPassword: undefined });
  });

  it('says which variable to set, never a value', () => {
    expect(refusal({ REDIS_URL: 'redis://:hunter2@h1:1,h2:2' })).toMatch(/REDIS_URL: lists several nodes: set REDIS_MODE=cluster/);
    expect(refusal({ REDIS_URL: 'redis://:hunter2@h1:1,h2:2/1', REDIS_MODE: 'cluster' })).toMatch(/database 0 only/);
    expect(refusal({ REDIS_URL: 'redis://h1:1,h2:2', REDIS_MODE: 'sentinel' })).toMatch(/REDIS_SENTINEL_NAME: required with REDIS_MODE=sentinel/);
    expect(refusal({ REDIS_URL: 'redis://h1:1?x=1', REDIS_MODE: 'cluster' })).toMatch(/no query string/);
    expect(refusal({ REDIS_URL: 'redis://:hunter2@h1:1', REDIS_MODE: 'replicated' })).toMatch(/REDIS_MODE/);
    for (const env of [{ REDIS_URL: 'redis://:hunter2@h1:1,h2:2' }, { REDIS_URL: 'redis://:hunter2@h1:1,,', REDIS_MODE: 'cluster' }]) expect(refusal(env)).not.toContain('hunter2');
    expect(redisSettingsFrom({ REDIS_URL: 'redis://s1:26379,s2:26379', REDIS_MODE: 'sentinel', REDIS_SENTINEL_NAME: 'er-primary' })).toMatchObject({ mode: 'sentinel', sentinelName: 'er-primary' });
  });

  it('prints a node list with its password masked (config show)', () => {
    expect(printableValue('REDIS_URL', 'redis://:hunter2@h1:1,h2:2')).toBe('redis://:***@h1:1,h2:2');
    expect(printableValue('REDIS_URL', 'rediss://app:hunter2@h1:1,h2:2')).toBe('rediss://app:***@h1:1,h2:2');
    expect(printableValue('REDIS_URL', 'redis://:hunter2@h1:1')).toBe('redis://:***@h1:1');
    expect(printableValue('REDIS_SENTINEL_PASSWORD', 'hunter2')).toBe('***');
  });
});

describe('keys by hash tag', () => {
  it('puts keys of one tag in one group and untagged keys alone', () => {
    expect(groupByHashTag(['p{k:1}:a', 'p{o:2}:s', 'p{k:1}:b', 'plain', 'other', 'p{}:x'])).toEqual([['p{k:1}:a', 'p{k:1}:b'], ['p{o:2}:s'], ['plain'], ['other'], ['p{}:x']]);
  });
});
