import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig, natsConnectOptions, natsServersForDisplay, parseNatsUrl, printableValue } from '../src/index';

/** NATS_URL: one server or a cluster's, read by one parser for every connection (decision 2340). */
describe('NATS_URL', () => {
  it('one server, as before', () => {
    expect(parseNatsUrl('nats://127.0.0.1:4222')).toEqual({ ok: true, value: { servers: ['127.0.0.1:4222'], tls: false } });
    expect(natsConnectOptions('nats://nats.example')).toEqual({ servers: ['nats.example:4222'] });
  });

  it('a cluster: every server, in the order given, spaces and duplicates dropped', () => {
    expect(natsConnectOptions('nats://n1:4222, nats://n2:4223 ,nats://n3:4224,nats://n1:4222')).toEqual({ servers: ['n1:4222', 'n2:4223', 'n3:4224'] });
  });

  it('servers after the first may be host:port and take its scheme and credentials', () => {
    expect(natsConnectOptions('nats://app:s%40cret@n1:4222,n2:4222,n3')).toEqual({ servers: ['n1:4222', 'n2:4222', 'n3:4222'], user: 'app', pass: 's@cret' });
  });

  it('credentials go to nats.js as options (nats.js ignores them inside a server URL): a user and password, or a token', () => {
    expect(natsConnectOptions('nats://tok123@n1:4222,nats://tok123@n2:4222')).toEqual({ servers: ['n1:4222', 'n2:4222'], token: 'tok123' });
    expect(natsConnectOptions('tls://u:p@n1:4222,tls://n2:4222')).toEqual({ servers: ['n1:4222', 'n2:4222'], user: 'u', pass: 'p', tls: {} });
  });

  it('IPv6 addresses keep their brackets', () => {
    expect(natsConnectOptions('nats://[::1]:4222,[fd00::2]:4223').servers).toEqual(['[::1]:4222', '[fd00::2]:4223']);
  });

  it.each([
    ['', 'nats_url_empty'],
    ['nats://n1:4222,', 'nats_url_empty'],
    ['n1:4222', 'nats_url_scheme'],
    ['http://n1:4222', 'nats_url_scheme'],
    ['nats://n1:4222,redis://n2:6379', 'nats_url_scheme'],
    ['nats://n1:99999', 'nats_url_address'],
    ['nats://n1:4222/path', 'nats_url_address'],
    ['nats://n1:4222,tls://n2:4222', 'nats_url_tls_mixed'],
    ['nats://a:b@n1:4222,nats://c:d@n2:4222', 'nats_url_credentials_differ'],
  ])('refuses %j (%s)', (text, code) => {
    const r = parseNatsUrl(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(code);
  });

  it('the config schema refuses a bad list by position, never quoting it (an entry may hold a password)', () => {
    const schema = z.object({ NATS_URL: env.natsUrl });
    expect(() => loadConfig(schema, { NATS_URL: 'nats://u:hunter2@n1:4222,nats://u:other@n2:4222' })).toThrow(ConfigError);
    try {
      loadConfig(schema, { NATS_URL: 'nats://u:hunter2@n1:4222,nats://u:other@n2:4222' });
    } catch (err) {
      expect(String(err)).toContain('NATS_URL: server 2:');
      expect(String(err)).not.toContain('hunter2');
      expect(String(err)).not.toContain('other');
    }
    expect(loadConfig(schema, { NATS_URL: 'nats://n1:4222,nats://n2:4222' }).NATS_URL).toBe('nats://n1:4222,nats://n2:4222');
  });

  it('NATS_STREAM_REPLICAS: 1 by default, 1 to 5', () => {
    const schema = z.object({ NATS_STREAM_REPLICAS: env.natsStreamReplicas });
    expect(loadConfig(schema, {}).NATS_STREAM_REPLICAS).toBe(1);
    expect(loadConfig(schema, { NATS_STREAM_REPLICAS: '3' }).NATS_STREAM_REPLICAS).toBe(3);
    for (const bad of ['0', '6', '2.5', 'three']) expect(() => loadConfig(schema, { NATS_STREAM_REPLICAS: bad }), bad).toThrow(ConfigError);
  });

  it('printed without credentials: each URL of a list masked, and a token too', () => {
    expect(natsServersForDisplay('nats://u:hunter2@n1:4222,n2:4222')).toBe('n1:4222,n2:4222');
    expect(printableValue('NATS_URL', 'nats://u:hunter2@n1:4222,nats://u:hunter2@n2:4222')).toBe('nats://u:***@n1:4222,nats://u:***@n2:4222');
    expect(printableValue('NATS_URL', 'nats://tok123@n1:4222,n2:4222')).toBe('nats://***@n1:4222,n2:4222');
    expect(printableValue('REDIS_URL', 'redis://:hunter2@h1:7001,h2:7002')).toBe('redis://:***@h1:7001,h2:7002');
    expect(printableValue('NATS_URL', 'nats://n1:4222,nats://n2:4222')).toBe('nats://n1:4222,nats://n2:4222');
  });
});
