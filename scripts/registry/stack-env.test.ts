import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, formatStackEnv, StackValueRefused } from '@evidence-record/platform';
import { services, variablesOf } from '@evidence-record/registry';
import { configSchema as monitorSchema } from '@evidence-record/monitor/config';
import { configSchema as gatewaySchema } from '@evidence-record/gateway/config';
import { configSchema as cliSchema, cliEnv, cliSettings, resolveConfig, UndeclaredSetting } from '@evidence-record/admin/config';
import { repoRoot } from './generate';
import { localStack, portVariable, programSettings, secretFiles, stackPorts, stackVariables, upOwnVariables, StackConfigRefused } from './stack-env';

const exec = promisify(execFile);

/**
 * The one configuration: what `npm run up` runs the stack with is what it
 * writes to the stack file, and what the operator CLI reads from it. The
 * configuration step of up.sh (scripts/stack.env.sh configure_stack) runs
 * here as up runs it, in bash, under a permissive umask.
 */
let dir: string;
/** The environment up.sh's shell has after configure_stack: what every process it starts inherits. */
let exported: Record<string, string>;
let file: Record<string, string>;
const caller = { MONITOR_POLL_MS: '700', ER_PORT_OFFSET: '3000', UNRELATED_TO_THE_STACK: 'x' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'er-stack-env-'));
  // A key file an older `up` left readable by everyone.
  await writeFile(join(dir, 'demo-key'), 'sk_test_old\n', { mode: 0o644 });
  const { stdout } = await exec('bash', ['-c', 'umask 022; set -euo pipefail; source scripts/stack.env.sh; configure_stack; env -0'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ER_RUN_DIR: dir, ...caller },
    maxBuffer: 4 << 20,
  });
  exported = Object.fromEntries(
    stdout
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  file = parseEnv(await readFile(join(dir, 'stack.env'), 'utf8')) as Record<string, string>;
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the stack configuration is derived from the programs', () => {
  it('every service of the registry declares its settings, which include what its needs and calls stand for', async () => {
    const programs = await programSettings();
    // The console's pod is also where the operator CLI runs in Kubernetes (the registry says so): its needs cover the CLI's.
    const alsoRunsThere: Record<string, string[]> = { console: ['admin'] };
    for (const s of services) {
      const p = programs.find((x) => x.program === s.name && x.kind === 'service');
      expect(p, `${s.name} exports its configSchema from ./config`).toBeDefined();
      const reads = [...p!.variables, ...(alsoRunsThere[s.name] ?? []).flatMap((t) => programs.find((x) => x.program === t)!.variables)];
      for (const v of variablesOf(s)) expect(reads, `${s.name} needs ${v}`).toContain(v);
    }
    // The tools an operator runs against the stack declare theirs too.
    expect(programs.filter((p) => p.kind === 'tool').map((p) => p.program).sort()).toEqual(['admin', 'demo-sources']);
  });

  it('every setting the CLI declares is one a service of the stack reads (the CLI shares the services\' settings, never its own)', async () => {
    const serviceVariables = new Set((await programSettings()).filter((p) => p.kind === 'service').flatMap((p) => p.variables));
    expect(cliSettings.filter((n) => !serviceVariables.has(n))).toEqual([]);
  });

  it('sets nothing no program reads, but the ports up listens on and the database it creates', async () => {
    const variables = await stackVariables();
    const secrets = Object.fromEntries(Object.keys(secretFiles).map((name) => [name, 'k'.repeat(64)]));
    const own = upOwnVariables();
    expect(Object.keys(localStack({}, secrets, variables)).filter((n) => !variables.has(n) && !own.has(n))).toEqual([]);
  });
});

describe('npm run up writes every setting it runs the stack with', () => {
  it('every variable of the stack that up\'s shell exports is in the file, with the same value', async () => {
    const variables = await stackVariables();
    const own = upOwnVariables();
    const missing = Object.keys(exported).filter((n) => (variables.has(n) || own.has(n)) && exported[n] !== file[n]);
    expect(missing).toEqual([]);
    // And the file is what the shell exports.
    for (const [name, value] of Object.entries(file)) expect(exported[name], name).toBe(value);
  });

  it('carries a setting of the stack given where up runs, and nothing else of that environment', () => {
    expect(file.MONITOR_POLL_MS).toBe('700');
    expect(file).not.toHaveProperty('UNRELATED_TO_THE_STACK');
    expect(file).not.toHaveProperty('PORT');
  });

  it('holds the local stack\'s monitor settings: the demo DSLD and loopback sources', () => {
    expect(file).toMatchObject({ MONITOR_ALLOW_LOCALHOST: '1', DSLD_BASE_URL: `http://127.0.0.1:${8190 + 3000}/dsld/v9`, MONITOR_CONTACT: expect.any(String) });
  });

  it('moves every port by ER_PORT_OFFSET', () => {
    for (const s of services) if (s.port !== undefined) expect(file[portVariable(s.name)], s.name).toBe(String(s.port + 3000));
    expect(file).toMatchObject({ MAILDEV_SMTP_PORT: '4025', MAILDEV_WEB_PORT: '4080', DEMO_SOURCES_PORT: '11190', SMTP_URL: 'smtp://127.0.0.1:4025', PUBLIC_BASE_URL: 'http://127.0.0.1:11080' });
    expect(file.MCP_ALLOWED_HOSTS).toBe('127.0.0.1:11080,localhost:11080');
  });

  it('keeps the run directory and every file in it to its owner, whatever the umask', async () => {
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const entries = await readdir(dir);
    // One signing key per service that verifies (decision 0313): each service's own.
    expect(entries.sort()).toEqual(['console-session-secret', 'cursor-secret', 'demo-key', 'ledger-signing-key', 'mcp-signing-key', 'record-signing-key', 'signals-signing-key', 'stack.env', 'unsubscribe-key', 'watch-signing-key']);
    for (const entry of entries) expect((await stat(join(dir, entry))).mode & 0o777, entry).toBe(0o600);
  });
});

describe('the operator CLI reads the same configuration', () => {
  it('a monitor verb gets the monitor service\'s settings, and the connections are the services\'', () => {
    const { env } = resolveConfig({ ER_RUN_DIR: dir }, repoRoot);
    const service = loadConfig(monitorSchema, exported);
    const cli = loadConfig(cliSchema, env);
    for (const name of Object.keys(cli) as Array<keyof typeof cli>) {
      if (name in service) expect(cli[name], name).toEqual(service[name as keyof typeof service]);
    }
    const gateway = loadConfig(gatewaySchema, exported);
    expect({ REDIS_URL: cli.REDIS_URL, REDIS_PREFIX: cli.REDIS_PREFIX }).toEqual({ REDIS_URL: gateway.REDIS_URL, REDIS_PREFIX: gateway.REDIS_PREFIX });
    expect(cli.MONITOR_ALLOW_LOCALHOST).toBe(true);
    expect(cli.MONITOR_POLL_MS).toBe(700);
  });

  it('a verb that reads a setting the CLI does not declare fails, naming it', () => {
    const env = cliEnv({ DATABASE_URL: 'postgres://x@h/db', CONSOLE_SESSION_SECRET: 's'.repeat(40) });
    expect(env.DATABASE_URL).toBe('postgres://x@h/db');
    expect(env.USER).toBeUndefined();
    expect(() => env.CONSOLE_SESSION_SECRET).toThrow(UndeclaredSetting);
    expect(() => env.SOME_NEW_SETTING).toThrow(/SOME_NEW_SETTING.*configSchema/);
    // Nothing undeclared is even listed.
    expect(Object.keys(env)).not.toContain('CONSOLE_SESSION_SECRET');
  });
});

describe('ports', () => {
  it('one variable moves one port; a port out of range or used twice is refused', () => {
    expect(stackPorts({ RECORD_PORT: '9101' })).toMatchObject({ RECORD_PORT: 9101, GATEWAY_PORT: 8080 });
    expect(() => stackPorts({ RECORD_PORT: '8080' })).toThrow(StackConfigRefused);
    expect(() => stackPorts({ ER_PORT_OFFSET: '60000' })).toThrow(/1024 to 65535/);
    expect(() => stackPorts({ ER_PORT_OFFSET: 'ten' })).toThrow(/whole number/);
  });

  it('a multi-node stack adds its engines\' ports, moved with the rest, each cluster bus port checked too (decision 2360)', () => {
    expect(stackPorts({})).not.toHaveProperty('REDIS_NODE_1_PORT');
    const ports = stackPorts({ ER_ENGINES: 'multi-node' });
    expect(ports).toMatchObject({ REDIS_NODE_1_PORT: 7001, REDIS_NODE_6_PORT: 7006, PG_PRIMARY_PORT: 5441, PG_STANDBY_PORT: 5442, NATS_NODE_1_PORT: 4231, NATS_NODE_3_PORT: 4233, NATS_MONITOR_1_PORT: 8231, NATS_MONITOR_3_PORT: 8233 });
    expect(stackPorts({ ER_ENGINES: 'multi-node', ER_PORT_OFFSET: '1000' })).toMatchObject({ REDIS_NODE_1_PORT: 8001, PG_STANDBY_PORT: 6442, NATS_NODE_2_PORT: 5232, GATEWAY_PORT: 9080 });
    expect(stackPorts({ ER_ENGINES: 'multi-node', PG_PRIMARY_PORT: '6000' })).toMatchObject({ PG_PRIMARY_PORT: 6000, PG_STANDBY_PORT: 5442 });
    expect(() => stackPorts({ ER_ENGINES: 'multi-node', PG_STANDBY_PORT: '7001' })).toThrow(StackConfigRefused);
    // A node's bus port (its port + 10000) clashing with another port, or past 65535.
    expect(() => stackPorts({ ER_ENGINES: 'multi-node', GATEWAY_PORT: '17003' })).toThrow(/cluster bus/);
    expect(() => stackPorts({ ER_ENGINES: 'multi-node', REDIS_NODE_2_PORT: '60000' })).toThrow(/over 65535/);
    expect(() => stackPorts({ ER_ENGINES: 'three-nodes' })).toThrow(/ER_ENGINES/);
  });

  it('a multi-node stack runs the services on the clusters: every node listed, snapshot reads on the standby, streams at three replicas', async () => {
    const secrets = Object.fromEntries(Object.keys(secretFiles).map((name) => [name, 'k'.repeat(64)]));
    const values = localStack({ ER_ENGINES: 'multi-node', ER_DB: 'er_mn' }, secrets, await stackVariables());
    expect(values).toMatchObject({
      ER_ENGINES: 'multi-node',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5441/er_mn',
      DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:5442/er_mn',
      REDIS_MODE: 'cluster',
      REDIS_URL: 'redis://127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003,127.0.0.1:7004,127.0.0.1:7005,127.0.0.1:7006',
      NATS_URL: 'nats://127.0.0.1:4231,nats://127.0.0.1:4232,nats://127.0.0.1:4233',
      NATS_STREAM_REPLICAS: '3',
    });
    // Every value is read by a program of the stack, or is up's own (the engines' ports, ER_ENGINES).
    const variables = await stackVariables();
    const own = upOwnVariables();
    expect(Object.keys(values).filter((n) => !variables.has(n) && !own.has(n))).toEqual([]);
    // One node stays the default, with nothing of the clusters.
    const single = localStack({}, secrets, variables);
    expect(single).not.toHaveProperty('DATABASE_READ_URL');
    expect(single).not.toHaveProperty('REDIS_MODE');
    expect(single.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });
});

describe('the file format', () => {
  it('bash and Node read every value alike', async () => {
    const values = { A: 'Evidence Record <alerts@x.test>', B: 'a"b\\c$HOME`x`', C: "O'Brien <o@x.test>", D: '', E: 'p#q r' };
    const text = formatStackEnv(values);
    expect(parseEnv(text)).toEqual(values);
    const path = join(dir, 'format.env');
    await writeFile(path, text);
    const { stdout } = await exec('bash', ['-c', `set -a; source "${path}"; printf '%s\\0' "$A" "$B" "$C" "$D" "$E"`]);
    expect(stdout.split('\0').slice(0, 5)).toEqual(Object.values(values));
    await rm(path);
  });

  it('refuses a value the two would read differently', () => {
    expect(() => formatStackEnv({ A: 'line\nbreak' })).toThrow(StackValueRefused);
    expect(() => formatStackEnv({ A: `it's $HOME` })).toThrow(StackValueRefused);
  });
});
