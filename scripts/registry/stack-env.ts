/**
 * `npm run up`'s one configuration, derived rather than listed (decision 1300).
 *
 * Which variables exist is read from the code: every program of the registry
 * (each service, and each tool whose package exports `./config`) exports the
 * zod schema it parses its environment with as `configSchema` from
 * `@evidence-record/<package>/config`; their keys together are the stack's
 * variables. What the local stack sets is below (ports, addresses, the demo
 * source server, the monitor's loopback admission, the secrets); any other
 * variable of those schemas set where `up` runs is carried as it is
 * (`MONITOR_POLL_MS=500 npm run up`). All of it goes to one file, which up.sh
 * starts every process from and the operator CLI and the demo source tool read
 * (@evidence-record/platform's readStackConfig), so nothing reads a setting the
 * file lacks.
 *
 *   node --import tsx scripts/registry/stack-env.ts <run-dir>
 *
 * makes <run-dir> (mode 700) and its secret files once (mode 600 from their
 * creation), writes <run-dir>/stack.env (mode 600, created under another name
 * with that mode and renamed into place), and prints the start waves for
 * up.sh: a line per wave of "name:port" words ("-" for a service without HTTP).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { formatStackEnv, StackValueRefused } from '@evidence-record/platform';
import { callersOf, registry, services, signingKeysEnvName, startWaves, urlEnvName, verifyingServices, type ServiceEntry } from '@evidence-record/registry';
import { DEFAULT_DEMO_SOURCES_PORT } from '@evidence-record/demo-sources/config';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Set per process by up.sh (each service's own port), never shared through the file. */
const PER_PROCESS = new Set(['PORT']);

/** A program of the registry and the variables its config schema reads. */
export interface ProgramSettings {
  program: string;
  kind: 'service' | 'tool';
  /** The package whose `./config` export was read. */
  packageName: string;
  variables: string[];
}

/** The workspace package holding an entry point: the nearest package.json above it. */
function packageOf(entry: string): { name: string; exports: Record<string, string> } {
  for (let dir = dirname(join(repoRoot, entry)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; exports?: Record<string, string> };
      return { name: pkg.name, exports: pkg.exports ?? {} };
    }
    if (relative(repoRoot, dir) === '') throw new Error(`no package.json above ${entry}`);
  }
}

/**
 * Every program's settings: each service must export its schema; a tool does
 * when it reads the stack's configuration (the root scripts, migrate and
 * seed-demo, read DATABASE_URL only, which the services declare).
 */
export async function programSettings(): Promise<ProgramSettings[]> {
  const programs: Array<{ program: string; kind: 'service' | 'tool'; entry: string }> = [
    ...services.map((s) => ({ program: s.name, kind: 'service' as const, entry: s.entry })),
    ...Object.entries(registry.tools).map(([program, entry]) => ({ program, kind: 'tool' as const, entry })),
  ];
  const out: ProgramSettings[] = [];
  for (const p of programs) {
    const pkg = packageOf(p.entry);
    if (!pkg.exports['./config']) {
      if (p.kind === 'service') throw new Error(`service ${p.program}: its package ${pkg.name} exports no ./config (its configSchema)`);
      continue;
    }
    const mod = (await import(`${pkg.name}/config`)) as { configSchema?: unknown };
    if (!(mod.configSchema instanceof z.ZodObject)) throw new Error(`${pkg.name}/config exports no configSchema (a zod object)`);
    out.push({ program: p.program, kind: p.kind, packageName: pkg.name, variables: Object.keys(mod.configSchema.shape) });
  }
  return out;
}

/** The stack's variables: every variable some program of the stack reads, but the per-process PORT. */
export async function stackVariables(): Promise<Set<string>> {
  return new Set((await programSettings()).flatMap((p) => p.variables).filter((v) => !PER_PROCESS.has(v)));
}

/** `email-worker` → `EMAIL_WORKER_PORT`: the variable that moves a service's port in the local stack. */
export function portVariable(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_PORT`;
}

/** The ports the local stack uses besides the services', with their defaults. */
export const otherPorts: Readonly<Record<string, number>> = {
  MAILDEV_SMTP_PORT: 1025,
  MAILDEV_WEB_PORT: 1080,
  DEMO_SOURCES_PORT: DEFAULT_DEMO_SOURCES_PORT,
};

/**
 * The engines `npm run up` runs the stack on (ER_ENGINES): the machine's one Postgres, Redis and NATS
 * (`single-node`, the default), or its own clusters on loopback (`multi-node`, `npm run up -- --multi-node`,
 * decision 2360): a Redis Cluster of six nodes (three masters, three replicas), a Postgres primary with a
 * streaming standby that the snapshot reads go to, and a three-node NATS JetStream cluster whose
 * streams have three replicas.
 */
export const engineModes = ['single-node', 'multi-node'] as const;
export type EngineMode = (typeof engineModes)[number];

/** The multi-node engines' ports, with their defaults; only a multi-node stack has them (each moves as the others do). */
export const multiNodePorts: Readonly<Record<string, number>> = {
  ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`REDIS_NODE_${n}_PORT`, 7000 + n])),
  PG_PRIMARY_PORT: 5441,
  PG_STANDBY_PORT: 5442,
  ...Object.fromEntries([1, 2, 3].map((n) => [`NATS_NODE_${n}_PORT`, 4230 + n])),
  ...Object.fromEntries([1, 2, 3].map((n) => [`NATS_MONITOR_${n}_PORT`, 8230 + n])),
  // The cluster routes between the NATS nodes.
  ...Object.fromEntries([1, 2, 3].map((n) => [`NATS_ROUTE_${n}_PORT`, 6230 + n])),
};

/** A Redis Cluster node's bus port: its port + 10000, as Redis has it by default (checked to be a port too). */
export const REDIS_BUS_PORT_OFFSET = 10_000;

export function engineMode(caller: NodeJS.ProcessEnv): EngineMode {
  const raw = caller.ER_ENGINES ?? 'single-node';
  if (!(engineModes as readonly string[]).includes(raw)) throw new StackConfigRefused(`ER_ENGINES=${raw}: one of ${engineModes.join(', ')}`);
  return raw as EngineMode;
}

/** What `up` keeps in files of the run directory, made once: a variable's name and its file. */
export const secretFiles: Readonly<Record<string, string>> = {
  CURSOR_SECRET: 'cursor-secret',
  // The gateway signs what it forwards with each service's own key (decision 0313): a file per service that verifies.
  ...Object.fromEntries(verifyingServices().map((name) => [signingKeysEnvName(name), `${name}-signing-key`])),
  UNSUBSCRIBE_SIGNING_KEY: 'unsubscribe-key',
  // Signs the review console's sessions: a file, never a database row (issue 26).
  CONSOLE_SESSION_SECRET: 'console-session-secret',
};
export type Secrets = Record<string, string>;

/** A configuration the local stack cannot run with (a port out of range or used twice): up.sh stops with the message. */
export class StackConfigRefused extends Error {
  override name = 'StackConfigRefused';
}

function portValue(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1024 || Number(raw) > 65535) throw new StackConfigRefused(`${name}=${raw}: a port is a number from 1024 to 65535`);
  return Number(raw);
}

/**
 * Every port the local stack listens on: each service's registry port and the
 * others above, each moved by ER_PORT_OFFSET, each overridable by its own
 * variable (GATEWAY_PORT, RECORD_PORT, …, MAILDEV_SMTP_PORT, MAILDEV_WEB_PORT,
 * DEMO_SOURCES_PORT). A second stack beside the first: ER_PORT_OFFSET=1000.
 */
export function stackPorts(caller: NodeJS.ProcessEnv, all: readonly ServiceEntry[] = services): Record<string, number> {
  const rawOffset = caller.ER_PORT_OFFSET ?? '0';
  if (!/^-?\d+$/.test(rawOffset)) throw new StackConfigRefused(`ER_PORT_OFFSET=${rawOffset}: a whole number`);
  const offset = Number(rawOffset);
  const defaults: Record<string, number> = {
    ...Object.fromEntries(all.flatMap((s) => (s.port === undefined ? [] : [[portVariable(s.name), s.port]]))),
    ...otherPorts,
    ...(engineMode(caller) === 'multi-node' ? multiNodePorts : {}),
  };
  const ports: Record<string, number> = {};
  for (const [name, base] of Object.entries(defaults)) ports[name] = portValue(name, caller[name] ?? String(base + offset));
  const seen = new Map<number, string>();
  const claim = (name: string, port: number) => {
    const other = seen.get(port);
    if (other) throw new StackConfigRefused(`${name} and ${other} are both ${port}`);
    seen.set(port, name);
  };
  for (const [name, port] of Object.entries(ports)) claim(name, port);
  // A Redis Cluster node listens on a second port, its bus: that one must be free of the others too.
  for (const [name, port] of Object.entries(ports)) {
    if (!/^REDIS_NODE_\d_PORT$/.test(name)) continue;
    const bus = port + REDIS_BUS_PORT_OFFSET;
    if (bus > 65535) throw new StackConfigRefused(`${name}=${port}: its cluster bus port ${bus} is over 65535`);
    claim(`${name} + ${REDIS_BUS_PORT_OFFSET} (its cluster bus)`, bus);
  }
  return ports;
}

/**
 * The local stack's configuration. What the caller's environment sets wins
 * (an empty value included), as every variable of the stack that the caller
 * sets is carried; the rest is this stack's own choice.
 */
export function localStack(caller: NodeJS.ProcessEnv, secrets: Secrets, variables: ReadonlySet<string>, all: readonly ServiceEntry[] = services): Record<string, string> {
  const ports = stackPorts(caller, all);
  const choose = (name: string, fallback: string) => caller[name] ?? fallback;
  const gateway = ports[portVariable('gateway')]!;
  const db = choose('ER_DB', 'evidence_record');
  const values: Record<string, string> = {
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    ER_DB: db,
    ...engineSettings(engineMode(caller), ports, db, choose),
    REDIS_PREFIX: choose('REDIS_PREFIX', 'er:local:'),
    NATS_PREFIX: choose('NATS_PREFIX', 'local'),
    // Alert emails go to the maildev sink up starts.
    SMTP_URL: choose('SMTP_URL', `smtp://127.0.0.1:${ports.MAILDEV_SMTP_PORT}`),
    MAIL_FROM: choose('MAIL_FROM', 'Evidence Record <alerts@evidence-record.local>'),
    PUBLIC_BASE_URL: choose('PUBLIC_BASE_URL', `http://127.0.0.1:${gateway}`),
    MCP_ALLOWED_HOSTS: choose('MCP_ALLOWED_HOSTS', `127.0.0.1:${gateway},localhost:${gateway}`),
    MCP_ALLOWED_ORIGINS: choose('MCP_ALLOWED_ORIGINS', ''),
    LOG_LEVEL: choose('LOG_LEVEL', 'info'),
    // Every service listens on loopback only: nothing but this machine reaches them.
    LISTEN_HOST: choose('LISTEN_HOST', '127.0.0.1'),
    // The gateway signs what it forwards, the services accept nothing else (decision 0313); cursors, unsubscribe links and console sessions are signed too.
    ...Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, choose(name, value)])),
    // The source monitor reads the demo source server, which plays DSLD and two retailers on loopback (docs/monitor.md).
    DSLD_BASE_URL: choose('DSLD_BASE_URL', `http://127.0.0.1:${ports.DEMO_SOURCES_PORT}/dsld/v9`),
    MONITOR_ALLOW_LOCALHOST: choose('MONITOR_ALLOW_LOCALHOST', '1'),
    MONITOR_CONTACT: choose('MONITOR_CONTACT', 'operator@evidence-record.local'),
  };
  // <NAME>_URL of each service another one calls (the registry's calls).
  for (const s of all) {
    const port = ports[portVariable(s.name)];
    if (s.http && port !== undefined && callersOf(s.name, all).length > 0) values[urlEnvName(s.name)] = choose(urlEnvName(s.name), `http://127.0.0.1:${port}`);
  }
  for (const name of variables) if (!(name in values) && !PER_PROCESS.has(name) && caller[name] !== undefined) values[name] = caller[name]!;
  return values;
}

/**
 * Where the services find the engines. Single-node: the machine's Postgres, Redis and NATS on their
 * usual ports. Multi-node: the clusters up starts (scripts/engines.sh), every node listed, the snapshot
 * reads on the standby (DATABASE_READ_URL) and the streams at three replicas.
 */
function engineSettings(mode: EngineMode, ports: Readonly<Record<string, number>>, db: string, choose: (name: string, fallback: string) => string): Record<string, string> {
  if (mode === 'single-node') {
    return {
      DATABASE_URL: choose('DATABASE_URL', `postgres://postgres@127.0.0.1:5432/${db}`),
      REDIS_URL: choose('REDIS_URL', 'redis://127.0.0.1:6379'),
      NATS_URL: choose('NATS_URL', 'nats://127.0.0.1:4222'),
    };
  }
  const redisNodes = [1, 2, 3, 4, 5, 6].map((n) => `127.0.0.1:${ports[`REDIS_NODE_${n}_PORT`]}`);
  const natsNodes = [1, 2, 3].map((n) => `nats://127.0.0.1:${ports[`NATS_NODE_${n}_PORT`]}`);
  return {
    ER_ENGINES: mode,
    DATABASE_URL: choose('DATABASE_URL', `postgres://postgres@127.0.0.1:${ports.PG_PRIMARY_PORT}/${db}`),
    DATABASE_READ_URL: choose('DATABASE_READ_URL', `postgres://postgres@127.0.0.1:${ports.PG_STANDBY_PORT}/${db}`),
    REDIS_MODE: choose('REDIS_MODE', 'cluster'),
    REDIS_URL: choose('REDIS_URL', `redis://${redisNodes.join(',')}`),
    NATS_URL: choose('NATS_URL', natsNodes.join(',')),
    NATS_STREAM_REPLICAS: choose('NATS_STREAM_REPLICAS', '3'),
  };
}

/**
 * The variables `localStack` sets that no program reads: the ports up itself listens on (a multi-node
 * stack's engines' too), ER_DB, the database it creates, and ER_ENGINES, which engines it starts.
 */
export function upOwnVariables(all: readonly ServiceEntry[] = services): Set<string> {
  return new Set(['ER_DB', 'ER_ENGINES', ...all.filter((s) => s.port !== undefined).map((s) => portVariable(s.name)), ...Object.keys(otherPorts), ...Object.keys(multiNodePorts)]);
}

/** The run directory, its owner's only (its files hold keys), with each secret made once, mode 600 from its creation. */
export function prepareRunDir(runDir: string): Secrets {
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  chmodSync(runDir, 0o700);
  // Files an older `up` left readable by others (made under the shell's umask) are closed too.
  for (const entry of readdirSync(runDir)) {
    const path = join(runDir, entry);
    const stat = lstatSync(path);
    if (stat.isFile()) chmodSync(path, 0o600);
    else if (stat.isDirectory()) chmodSync(path, 0o700);
  }
  const secrets: Secrets = {};
  for (const [name, file] of Object.entries(secretFiles)) {
    const path = join(runDir, file);
    try {
      writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    secrets[name] = readFileSync(path, 'utf8').trim();
  }
  return secrets;
}

/** Writes the file whole: under another name, created with mode 600, then renamed over the old one. */
export function writeStackEnv(path: string, values: Readonly<Record<string, string>>): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, formatStackEnv(values), { mode: 0o600, flag: 'wx' });
  renameSync(tmp, path);
}

/** The start waves as up.sh reads them: a line per wave, "name:port" words. */
export function wavesText(values: Readonly<Record<string, string>>, all: readonly ServiceEntry[] = services): string {
  return startWaves(all.map((s) => s.name), all)
    .map((wave) => wave.map((name) => `${name}:${all.find((s) => s.name === name)!.http ? values[portVariable(name)] : '-'}`).join(' '))
    .join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runDir = process.argv[2] ?? '.run';
  try {
    const secrets = prepareRunDir(runDir);
    const values = localStack(process.env, secrets, await stackVariables());
    writeStackEnv(join(runDir, 'stack.env'), values);
    process.stdout.write(`${wavesText(values)}\n`);
  } catch (err) {
    if (!(err instanceof StackConfigRefused || err instanceof StackValueRefused)) throw err;
    process.stderr.write(`npm run up: ${err.message}\n`);
    process.exit(2);
  }
}
