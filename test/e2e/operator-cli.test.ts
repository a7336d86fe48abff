import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { formatStackEnv } from '@evidence-record/platform';
import { freePort, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { launchReady, operatorCliArgs, type ServiceProcess } from '@evidence-record/test-support/launcher';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * The operator CLI run exactly as the README shows it (`npm run -s admin --
 * … --json`, no variables of its own) against a running stack of two
 * gateways: it reads the stack's configuration file, so a revocation reaches
 * both gateways at once. Refusals exit 1 with a code, usage errors exit 2,
 * no stack traces.
 */
let stack: RunningStack;
let runDir: string;
let second: ServiceProcess | null = null;
let secondUrl = '';
const root = new URL('../../', import.meta.url).pathname;

interface Run {
  code: number;
  json: Record<string, unknown>;
  lines: number;
  stderr: string;
}

/**
 * `npm run -s admin -- … --json` with nothing but PATH, HOME and where `npm run up` keeps its files: the CLI as
 * the README shows it. `operatorCli` runs the same CLI, in the same environment, from the run's bundle
 * (decision 2400): the verbs' own exit codes and refusals, where npm's start-up would only add seconds.
 */
function npmAdmin(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  return run('npm', ['run', '-s', 'admin', '--', ...args, '--json'], extraEnv);
}

function operatorCli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  return run(process.execPath, operatorCliArgs([...args, '--json']), extraEnv);
}

function run(file: string, args: string[], extraEnv: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ER_RUN_DIR: runDir, ...extraEnv }, timeout: 60_000 }, (err, stdout, stderr) => {
      const lines = stdout.trim().split('\n').filter((l) => l.startsWith('{'));
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, json: JSON.parse(lines.at(-1) ?? '{}'), lines: lines.length, stderr });
    });
  });
}

async function status(base: string, key: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/record/version`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  stack = await startStack('opcli', { services: ['record', 'gateway'] });
  // A second gateway replica over the same Redis prefix and database.
  const port = await freePort();
  second = await launchReady({ service: 'gateway', label: 'gateway-2', port, env: { ...stack.env } });
  secondUrl = `http://127.0.0.1:${port}`;
  // What `npm run up` writes: the variables the stack runs with, in the one format (a shell's own PATH and HOME aside).
  runDir = await mkdtemp(join(tmpdir(), 'er-run-'));
  const values = Object.fromEntries(Object.entries(stack.env).filter(([n, v]) => v !== undefined && !['PATH', 'HOME', 'ER_RUN_DIR'].includes(n))) as Record<string, string>;
  await writeFile(join(runDir, 'stack.env'), formatStackEnv(values), { mode: 0o600 });
}, 180_000);

afterAll(async () => {
  await second?.stop();
  await stack?.stop();
  if (runDir) await rm(runDir, { recursive: true, force: true });
});

describe('one configuration', () => {
  it('config show names the stack file and its prefixes', async () => {
    const shown = await npmAdmin(['config', 'show']);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({ file: join(runDir, 'stack.env'), REDIS_PREFIX: stack.env.REDIS_PREFIX, NATS_PREFIX: stack.env.NATS_PREFIX });
  }, 60_000);

  it('a revocation run as the README shows reaches both gateways within 1 s', async () => {
    const org = await npmAdmin(['org', 'create', '--name', 'Revocation test', '--plan', 'free']);
    const orgId = String(org.json.org_id);
    const issued = await npmAdmin(['key', 'issue', '--org', orgId, '--scopes', 'record:search,products:read,signals:read,framework:read', '--env', 'test']);
    const key = String(issued.json.key);
    // Both replicas have the key cached (a cached key is answered without Postgres for up to a minute).
    expect(await status(stack.baseUrl, key)).toBe(200);
    expect(await status(secondUrl, key)).toBe(200);
    expect(await status(stack.baseUrl, key)).toBe(200);
    expect(await status(secondUrl, key)).toBe(200);

    const revoked = await npmAdmin(['key', 'revoke', String(issued.json.key_id)]);
    const done = Date.now();
    expect(revoked.code).toBe(0);
    expect(revoked.lines).toBe(1);
    expect(revoked.json.gateways_notified).toBeGreaterThanOrEqual(2);
    const seen = new Map<string, number>();
    // Polled for a second; the expectations below say which gateway, if any, still took the key.
    await waitFor('both gateways refusing the revoked key', async () => {
      for (const base of [stack.baseUrl, secondUrl]) if (!seen.has(base) && (await status(base, key)) === 401) seen.set(base, Date.now() - done);
      return seen.size === 2;
    }, 1_000, 20).catch(() => undefined);
    expect([...seen.keys()].sort()).toEqual([stack.baseUrl, secondUrl].sort());
    for (const ms of seen.values()) expect(ms).toBeLessThan(1_000);
  }, 90_000);

  it('a CLI that cannot reach Redis says so and exits non-zero', async () => {
    const org = await operatorCli(['org', 'create', '--name', 'Unreachable test', '--plan', 'free']);
    const issued = await operatorCli(['key', 'issue', '--org', String(org.json.org_id), '--scopes', 'products:read']);
    const run = await npmAdmin(['key', 'revoke', String(issued.json.key_id)], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect([run.code, run.json.error]).toEqual([1, 'redis_unavailable']);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('exit codes and refusals', () => {
  it('unknown ids are refusals (exit 1, not_found), usage mistakes exit 2, neither prints a stack trace', async () => {
    // The first of each kind through npm as well: what a README reader sees is npm's exit code.
    for (const [i, args] of [['key', 'revoke', '0000000000000000'], ['org', 'show', 'org_nothing'], ['candidate', 'show', '999999'], ['alert', 'list', '--account', 'acc_nothing'], ['state', 'list', '--product', 'prd_000000000000']].entries()) {
      const run = await (i === 0 ? npmAdmin : operatorCli)(args);
      expect([args.join(' '), run.code, run.json.error, run.lines]).toEqual([args.join(' '), 1, 'not_found', 1]);
      expect(typeof run.json.message).toBe('string');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    for (const [i, args] of [['key', 'revoke'], ['candidate', 'show', 'abc'], ['signal', 'list'], ['nothing', 'here']].entries()) {
      const run = await (i === 0 ? npmAdmin : operatorCli)(args);
      expect([args.join(' '), run.code, run.json.error]).toEqual([args.join(' '), 2, 'usage']);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  it('one account per organisation: a second is refused; unbind repairs an organisation that has two', async () => {
    const org = await operatorCli(['org', 'create', '--name', 'Bound org', '--plan', 'pro']);
    const orgId = String(org.json.org_id);
    const first = await operatorCli(['account', 'create', '--org', orgId, '--email', 'one@example.test']);
    expect(first.code).toBe(0);
    const againSameEmail = await operatorCli(['account', 'create', '--org', orgId, '--email', 'one@example.test']);
    expect([againSameEmail.code, againSameEmail.json.error]).toEqual([1, 'org_already_bound']);
    const other = await operatorCli(['account', 'create', '--org', orgId, '--email', 'two@example.test']);
    expect([other.code, other.json.error]).toEqual([1, 'org_already_bound']);

    // An organisation bound twice before this rule: key issue refuses, and never advises another account.
    const client = new pg.Client({ connectionString: stack.db.url });
    await client.connect();
    await client.query(`INSERT INTO accounts (account_id, org_id, email) VALUES ('acc_legacysecond', $1, 'legacy@example.test')`, [orgId]);
    await client.end();
    const refusedKey = await operatorCli(['key', 'issue', '--org', orgId, '--scopes', 'products:read,watch:manage']);
    expect([refusedKey.code, refusedKey.json.error]).toEqual([1, 'account_binding_required']);
    expect(refusedKey.json.message).toMatch(/account unbind/);
    expect(refusedKey.json.message).not.toMatch(/account create/);

    const unbound = await operatorCli(['account', 'unbind', 'acc_legacysecond']);
    expect(unbound.code).toBe(0);
    expect(unbound.json).toMatchObject({ account_id: 'acc_legacysecond', unbound_from: orgId, accounts_bound: 1 });
    const again = await operatorCli(['account', 'unbind', 'acc_legacysecond']);
    expect([again.code, again.json.error]).toEqual([1, 'not_bound']);
    const issued = await operatorCli(['key', 'issue', '--org', orgId, '--scopes', 'products:read,watch:manage']);
    expect(issued.code).toBe(0);
    const listed = await operatorCli(['account', 'list', '--org', orgId]);
    expect((listed.json.accounts as Array<{ account_id: string }>).map((a) => a.account_id)).toEqual([first.json.account_id]);
  }, 120_000);
});
