import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { services } from '@evidence-record/registry';
import { adminQuery } from '@evidence-record/test-support/infra';
import { deleteStreams } from '@evidence-record/test-support/email-worker';
import { freePort } from '@evidence-record/test-support/launcher';

const exec = promisify(execFile);

/**
 * The README's first command, as a new user runs it: a fresh `git clone` of
 * this working tree's HEAD into a temporary folder (no node_modules, no .run,
 * no dist), `npm run up` there exactly as the README says, under the usual
 * umask 022; then the stack is driven as the README and a client would
 * (health, a keyed capability call with the printed key, MCP tools/list, the
 * console's sign-in page, `demo-sources change label` opening a candidate, a
 * monitor verb on a loopback URL, `config show`), `npm run down`, and nothing
 * it started is left listening.
 *
 * It runs beside a developer's own `npm run up`: its own database, Redis
 * prefix, NATS prefix and ports, through the variables the README documents
 * (ER_DB, REDIS_PREFIX, NATS_PREFIX, <NAME>_PORT, MAILDEV_*_PORT,
 * DEMO_SOURCES_PORT). FRESH_CLONE_REF names another commit to clone (to see
 * this check fail on an older `up`).
 */
const root = new URL('../../', import.meta.url).pathname;
const suffix = randomBytes(4).toString('hex');
const isolation = { ER_DB: `er_fresh_${suffix}`, REDIS_PREFIX: `erfresh:${suffix}:`, NATS_PREFIX: `Fresh_${suffix}` };
let clone: string;
let ports: Record<string, string>;
let up: { code: number | null; output: string; seconds: number };
let baseUrl = '';
let key = '';
let consoleUrl = '';
let runEnv: NodeJS.ProcessEnv;
const started = Date.now();

/** Only what a shell has, and the isolation and ports this check documents; npm's cache is the user's (warm on CI). */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'USER', 'LANG', 'TERM', 'npm_config_cache'];
  return { ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])), ...extra };
}

/** A command in the clone, under umask 022 (what a CI runner and most shells have), with its exit code and output. */
function run(command: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `umask 022; ${command}`], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

function lastJson(stdout: string): Record<string, unknown> {
  const line = stdout.trim().split('\n').filter((l) => l.startsWith('{')).at(-1);
  return line ? (JSON.parse(line) as Record<string, unknown>) : {};
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

beforeAll(async () => {
  clone = join(tmpdir(), `er-fresh-clone-${suffix}`);
  const ref = process.env.FRESH_CLONE_REF ?? (await exec('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout.trim();
  await exec('git', ['clone', '--quiet', '--no-checkout', root, clone]);
  // HEAD may be on no branch the clone has (a detached CI checkout): fetch it by id then.
  if (await exec('git', ['cat-file', '-e', `${ref}^{commit}`], { cwd: clone }).then(() => false, () => true)) await exec('git', ['fetch', '--quiet', root, ref], { cwd: clone });
  await exec('git', ['checkout', '--quiet', '--detach', ref], { cwd: clone });

  // Every port up uses, moved to ports reserved for this run (a developer's stack keeps the defaults).
  const names = [...services.filter((s) => s.port !== undefined).map((s) => `${s.name.toUpperCase().replace(/-/g, '_')}_PORT`), 'MAILDEV_SMTP_PORT', 'MAILDEV_WEB_PORT', 'DEMO_SOURCES_PORT'];
  ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, String(await freePort())])));
  runEnv = userEnv({ ...isolation, ...ports });

  const t0 = Date.now();
  const r = await run('npm run up', runEnv, 240_000);
  up = { code: r.code, output: `${r.stdout}\n${r.stderr}`, seconds: (Date.now() - t0) / 1000 };
  baseUrl = /^\s*Base URL\s+(\S+)/m.exec(r.stdout)?.[1] ?? '';
  key = /^\s*API key\s+(\S+)/m.exec(r.stdout)?.[1] ?? '';
  consoleUrl = /^\s*Console\s+(\S+)/m.exec(r.stdout)?.[1] ?? '';
}, 300_000);

afterAll(async () => {
  // The step's budget is 3 minutes with npm's cache warm (issue 22); said here, not asserted (timing is no test).
  console.log(`fresh clone: npm run up took ${up?.seconds.toFixed(0)} s; clone to the last check ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // Whatever happened: stop what up started (plain bash), then remove every trace of this run.
  if (clone) await run('npm run down', userEnv(), 60_000).catch(() => undefined);
  await adminQuery(`DROP DATABASE IF EXISTS "${isolation.ER_DB}" WITH (FORCE)`).catch(() => undefined);
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${isolation.REDIS_PREFIX}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } catch {
    // Redis gone: nothing to clean
  } finally {
    redis.disconnect();
  }
  await deleteStreams(process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222', isolation.NATS_PREFIX).catch(() => undefined);
  if (clone) await rm(clone, { recursive: true, force: true });
}, 120_000);

describe('the README on a fresh clone', () => {
  it('npm run up installs what is missing, starts every service and prints a working key', () => {
    expect(up.code, up.output.slice(-3000)).toBe(0);
    expect(up.output).toMatch(/installing the npm packages/);
    expect(baseUrl).toBe(`http://127.0.0.1:${ports.GATEWAY_PORT}`);
    expect(key).toMatch(/^sk_test_/);
    expect(consoleUrl).toBe(`http://127.0.0.1:${ports.CONSOLE_PORT}`);
  });

  it('every service answers /readyz on the port it was given', async () => {
    for (const s of services.filter((x) => x.http)) {
      const port = ports[`${s.name.toUpperCase().replace(/-/g, '_')}_PORT`];
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(res.status, s.name).toBe(200);
    }
  });

  it('answers health, and a capability with the printed key', async () => {
    expect((await fetch(`${baseUrl}/api/v1/health`)).status).toBe(200);
    const res = await fetch(`${baseUrl}/api/v1/record/version`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { status: string; record_version: string };
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ status: 'supported', record_version: expect.stringMatching(/^rv_/) });
  });

  it('lists the MCP tools, under 127.0.0.1 and under localhost with a same-origin Origin', async () => {
    for (const base of [baseUrl, `http://localhost:${ports.GATEWAY_PORT}`]) {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: base },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      const body = (await res.json()) as { result?: { tools: unknown[] } };
      expect(res.status, base).toBe(200);
      expect(body.result?.tools).toHaveLength(18);
    }
  });

  it('serves the review console\'s sign-in page', async () => {
    const res = await fetch(`${consoleUrl}/login`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<form method="post" action="\/login"/);
  });

  it('`npm run -s demo-sources -- change label` opens a candidate in the running stack', async () => {
    const r = await run('npm run -s demo-sources -- change label', userEnv(), 90_000);
    // On failure stdout says what the monitor's last check of the demo product found.
    expect(r.code, `${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`).toBe(0);
    const out = lastJson(r.stdout);
    expect(out).toMatchObject({ changed: 'label' });
    expect((out.candidates as unknown[]).length).toBeGreaterThan(0);
  });

  it('a monitor verb reads a loopback source of the local stack, with no extra variables', async () => {
    const added = await run('npm run -s admin -- product add --brand "Fresh Clone Labs" --name "Loopback Pre" --json', userEnv(), 60_000);
    expect(added.code, added.stderr).toBe(0);
    const productId = String(lastJson(added.stdout).product_id);
    const url = `http://127.0.0.1:${ports.DEMO_SOURCES_PORT}/shop/shelfwise/updraft-pre-workout`;
    const source = await run(`npm run -s admin -- source add --product ${productId} --kind offer_page --url ${url} --json`, userEnv(), 60_000);
    expect(source.code, `${source.stdout}\n${source.stderr}`).toBe(0);
    const checked = await run(`npm run -s admin -- monitor run-once --product ${productId} --json`, userEnv(), 90_000);
    expect(checked.code, `${checked.stdout}\n${checked.stderr}`).toBe(0);
    expect(lastJson(checked.stdout)).toMatchObject({ checked: 1, valid: 1 });
  });

  it('`config show` prints the stack\'s configuration, secrets masked', async () => {
    const r = await run('npm run -s admin -- config show --json', userEnv(), 60_000);
    const shown = lastJson(r.stdout);
    expect(shown).toMatchObject({ file: join(clone, '.run', 'stack.env'), MONITOR_ALLOW_LOCALHOST: '1', DSLD_BASE_URL: `http://127.0.0.1:${ports.DEMO_SOURCES_PORT}/dsld/v9`, REDIS_PREFIX: isolation.REDIS_PREFIX, WATCH_SIGNING_KEYS: '***', CURSOR_SECRET: '***' });
    const file = parseEnv(await readFile(join(clone, '.run', 'stack.env'), 'utf8')) as Record<string, string>;
    expect(r.stdout).not.toContain(file.WATCH_SIGNING_KEYS!);
  });

  it('keeps .run to its owner: every file 600, every folder 700, whatever the umask', async () => {
    const bad: string[] = [];
    const walk = async (dir: string) => {
      if (((await stat(dir)).mode & 0o777) !== 0o700) bad.push(`${dir} ${((await stat(dir)).mode & 0o777).toString(8)}`);
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (((await stat(path)).mode & 0o777) !== 0o600) bad.push(`${path} ${((await stat(path)).mode & 0o777).toString(8)}`);
      }
    };
    await walk(join(clone, '.run'));
    expect(bad).toEqual([]);
  });

  it('npm run down stops everything up started: nothing is left listening', async () => {
    const pids = (await readFile(join(clone, '.run', 'pids'), 'utf8')).trim().split('\n').map((l) => Number(l.split(' ')[1]));
    const r = await run('npm run down', userEnv(), 60_000);
    expect(r.code, r.stderr).toBe(0);
    for (const [name, port] of Object.entries(ports)) expect(await listening(Number(port)), `${name} ${port}`).toBe(false);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });

});
