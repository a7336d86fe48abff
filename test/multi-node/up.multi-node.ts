import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '@evidence-record/registry';
import { freePort } from '@evidence-record/test-support/launcher';

/**
 * `npm run up -- --multi-node` as a developer runs it (issue 24 item 5,
 * decision 2360): the Redis Cluster, the Postgres primary and standby and
 * the NATS cluster started under the run directory, every service on them,
 * the `Engines:` line, the demo key working, then `npm run down` and nothing
 * left listening. Every port it uses is moved to a reserved one through the
 * variables decision 1300 gives each (so it runs beside a developer's own
 * stack), the run directory is a temporary one. It runs in this working
 * tree (up builds dist/ here, as `npm run up` does). Part of
 * `npm run test:multi-node`, not of `npm test` (a whole `up` costs a minute).
 */
const root = new URL('../../', import.meta.url).pathname;
const suffix = randomBytes(4).toString('hex');
let runDir: string;
let ports: Record<string, string>;
let up: { code: number | null; stdout: string; stderr: string };

function run(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A reserved port whose cluster bus (port + 10000) is free too and below the ephemeral range. */
async function redisNodePort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10_000 < 32_768 && (await bindable(port + 10_000))) return port;
  }
}

const env = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', npm_config_cache: process.env.npm_config_cache, ER_RUN_DIR: runDir, ER_DB: `er_mn_${suffix}`, REDIS_PREFIX: `ermn:${suffix}:`, NATS_PREFIX: `Mn_${suffix}`, ...ports });

beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'er-up-multi-node-'));
  const names = [
    ...services.filter((s) => s.port !== undefined).map((s) => `${s.name.toUpperCase().replace(/-/g, '_')}_PORT`),
    'MAILDEV_SMTP_PORT', 'MAILDEV_WEB_PORT', 'DEMO_SOURCES_PORT', 'PG_PRIMARY_PORT', 'PG_STANDBY_PORT',
    ...[1, 2, 3].flatMap((n) => [`NATS_NODE_${n}_PORT`, `NATS_MONITOR_${n}_PORT`, `NATS_ROUTE_${n}_PORT`]),
  ];
  ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, String(await freePort())])));
  for (const n of [1, 2, 3, 4, 5, 6]) ports[`REDIS_NODE_${n}_PORT`] = String(await redisNodePort());
  up = await run(['run', 'up', '--', '--multi-node'], env(), 300_000);
}, 320_000);

afterAll(async () => {
  // Whatever happened: stop what up started (a second down finds nothing to stop).
  await run(['run', '-s', 'down'], env(), 60_000);
  if (runDir) await rm(runDir, { recursive: true, force: true });
}, 90_000);

describe('npm run up -- --multi-node', () => {
  it('starts the three clusters and every service on them, and names them', () => {
    expect(up.code, `${up.stdout.slice(-2000)}\n${up.stderr.slice(-3000)}`).toBe(0);
    const engines = up.stdout.split('\n').find((l) => l.startsWith('Engines:'));
    expect(engines).toContain(`Redis Cluster on 127.0.0.1 ports ${[1, 2, 3, 4, 5, 6].map((n) => ports[`REDIS_NODE_${n}_PORT`]).join(',')} (3 masters, 3 replicas)`);
    expect(engines).toContain(`PostgreSQL primary 127.0.0.1:${ports.PG_PRIMARY_PORT}, streaming standby 127.0.0.1:${ports.PG_STANDBY_PORT}`);
    expect(engines).toContain(`NATS JetStream cluster on 127.0.0.1 ports ${ports.NATS_NODE_1_PORT},${ports.NATS_NODE_2_PORT},${ports.NATS_NODE_3_PORT} (streams at 3 replicas)`);
  });

  it('answers through the gateway with the printed key, snapshot reads from the standby', async () => {
    const key = /^\s*API key\s+(\S+)/m.exec(up.stdout)?.[1] ?? '';
    const base = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
    const res = await fetch(`${base}/api/v1/record/version`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'supported', record_version: expect.stringMatching(/^rv_/) });
    const metrics = await (await fetch(`http://127.0.0.1:${ports.RECORD_PORT}/metrics`)).text();
    const byReplica = /er_snapshot_reads_total\{answered_by="replica",reason="replica",service="record"\} (\d+)/.exec(metrics);
    expect(Number(byReplica?.[1] ?? 0)).toBeGreaterThan(0);
  });

  it('npm run down stops everything up started, the engines included', async () => {
    const r = await run(['run', '-s', 'down'], env(), 60_000);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/stopping redis-/);
    expect(r.stdout).toMatch(/stopping pg-standby/);
    expect(r.stdout).toMatch(/stopping nats-n3/);
    const still: string[] = [];
    for (const [name, port] of Object.entries(ports)) if (await listening(Number(port))) still.push(`${name}=${port}`);
    expect(still).toEqual([]);
  }, 90_000);
});
