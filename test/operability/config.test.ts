import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, type ServiceName } from '@evidence-record/test-support/stack';
import { startProcess } from './support';

/**
 * Every entrypoint validates its environment before it connects to
 * anything, and a bad or missing variable stops it at once with a message
 * naming that variable: no stack trace, and never the value (a URL may
 * carry a password).
 */
/** Each service's own signing keys; the gateway holds every one (decision 0313). */
const KEYS = (...names: string[]) => Object.fromEntries(names.map((n) => [`${n.toUpperCase()}_SIGNING_KEYS`, `${n}-`.padEnd(40, 's')]));
const valid: Record<ServiceName, NodeJS.ProcessEnv> = {
  gateway: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1', ...KEYS('record', 'signals', 'ledger', 'watch', 'mcp') },
  record: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', ...KEYS('record') },
  signals: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', CURSOR_SECRET: 'x'.repeat(40), ...KEYS('signals') },
  ledger: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', ...KEYS('ledger') },
  watch: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', NATS_URL: 'nats://127.0.0.1:1', ...KEYS('watch') },
  mcp: { ...KEYS('mcp') },
  'email-worker': { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', NATS_URL: 'nats://127.0.0.1:1' },
  console: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' },
  monitor: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' },
};

const SECRET = 'hunter2-do-not-print';

/** [service, what is wrong, the environment's changes, the variable the message must name] */
const cases: Array<[ServiceName, string, NodeJS.ProcessEnv, string]> = [
  ['gateway', 'REDIS_URL missing', { REDIS_URL: undefined }, 'REDIS_URL: required, but not set'],
  ['gateway', 'GATEWAY_PORT not a port', { GATEWAY_PORT: '80800' }, 'GATEWAY_PORT'],
  ['record', 'DATABASE_URL missing', { DATABASE_URL: undefined }, 'DATABASE_URL: required, but not set'],
  ['signals', 'CURSOR_SECRET too short', { CURSOR_SECRET: 'short' }, 'CURSOR_SECRET: at least 32 characters'],
  ['ledger', 'DATABASE_URL not Postgres', { DATABASE_URL: `mysql://root:${SECRET}@db/ledger` }, 'DATABASE_URL: must be a postgres:// URL'],
  ['watch', 'NATS_URL missing', { NATS_URL: undefined }, 'NATS_URL: required, but not set'],
  ['mcp', 'MCP_ALLOWED_HOSTS malformed', { MCP_ALLOWED_HOSTS: 'https://example.com/mcp' }, 'MCP_ALLOWED_HOSTS'],
  ['email-worker', 'SMTP_URL not SMTP', { SMTP_URL: `http://user:${SECRET}@mail.example` }, 'SMTP_URL: must be an smtp:// or smtps:// URL'],
  ['record', 'SHUTDOWN_GRACE_MS negative', { SHUTDOWN_GRACE_MS: '-5' }, 'SHUTDOWN_GRACE_MS'],
  ['watch', 'LOG_LEVEL unknown', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ['mcp', 'OTEL_EXPORTER_OTLP_ENDPOINT not a URL', { OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
  ['signals', 'PORT not a number', { PORT: 'eighty' }, 'PORT'],
  ['record', 'RECORD_SIGNING_KEYS missing', { RECORD_SIGNING_KEYS: undefined }, 'RECORD_SIGNING_KEYS: required, but not set'],
  ['gateway', 'WATCH_SIGNING_KEYS missing', { WATCH_SIGNING_KEYS: undefined }, 'WATCH_SIGNING_KEYS: required, but not set'],
  ['gateway', 'SIGNALS_SIGNING_KEYS too short', { SIGNALS_SIGNING_KEYS: `short,${'k'.repeat(40)}` }, 'SIGNALS_SIGNING_KEYS'],
  ['mcp', 'three MCP_SIGNING_KEYS', { MCP_SIGNING_KEYS: ['a', 'b', 'c'].map((c) => c.repeat(40)).join(',') }, 'MCP_SIGNING_KEYS'],
  ['monitor', 'MONITOR_CHECK_DEADLINE_MS over half the lease', { MONITOR_LEASE_MS: '60000', MONITOR_CHECK_DEADLINE_MS: '45000' }, 'MONITOR_CHECK_DEADLINE_MS: at most half of MONITOR_LEASE_MS'],
  ['watch', 'LISTEN_HOST not an address', { LISTEN_HOST: 'all-interfaces' }, 'LISTEN_HOST'],
  ['gateway', 'no unsubscribe signing key in production', { NODE_ENV: 'production' }, 'UNSUBSCRIBE_SIGNING_KEY: required in production'],
  ['email-worker', 'no unsubscribe signing key in production', { NODE_ENV: 'production' }, 'UNSUBSCRIBE_SIGNING_KEY: required in production'],
  ['console', 'CONSOLE_SESSION_SECRET too short', { CONSOLE_SESSION_SECRET: SECRET }, 'CONSOLE_SESSION_SECRET: at least 32 characters'],
  ['console', 'no session secret in production', { NODE_ENV: 'production' }, 'CONSOLE_SESSION_SECRET: required in production'],
  ['monitor', 'DSLD_BASE_URL not a URL', { DSLD_BASE_URL: 'api.ods.od.nih.gov/dsld/v9' }, 'DSLD_BASE_URL'],
  ['monitor', 'MONITOR_LEASE_MS below its floor', { MONITOR_LEASE_MS: '10' }, 'MONITOR_LEASE_MS'],
  ['gateway', 'UNSUBSCRIBE_SIGNING_KEY too short', { UNSUBSCRIBE_SIGNING_KEY: SECRET }, 'UNSUBSCRIBE_SIGNING_KEY: at least 32 characters'],
];

describe('start-up configuration', () => {
  it.concurrent.each(cases)('%s with %s exits non-zero naming the variable', async (service, _what, change, expected) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', PORT: String(await freePort()), ...valid[service], ...change };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const proc = startProcess(service, env);
    const { code } = await proc.exited;
    const output = proc.lines.join('\n');
    expect(code, output).toBe(1);
    expect(output).toContain(`${service}: invalid configuration:`);
    expect(output).toContain(expected);
    expect(output).not.toContain(SECRET);
    // One message, not a stack trace.
    expect(output).not.toMatch(/\n\s+at /);
  }, 30_000);
});

describe('a port already taken', () => {
  // Express 5's app.listen calls back on a listen error as on success: the service used to log "listening" and exit 0.
  it.concurrent.each(['record', 'mcp'] as const)('%s exits 1 saying it cannot listen, with no stack trace', async (service) => {
    const holder = net.createServer();
    const port = await freePort();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', () => r()));
    try {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', PORT: String(port), ...valid[service] };
      const proc = startProcess(service, env);
      const { code } = await proc.exited;
      const output = proc.lines.join('\n');
      expect(code, output).toBe(1);
      expect(output).toContain('cannot listen');
      expect(output).toContain('EADDRINUSE');
      expect(output).not.toContain('"msg":"listening"');
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise<void>((r) => holder.close(() => r()));
    }
  }, 30_000);
});
