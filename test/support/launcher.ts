import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { service, services, signingKeysEnvName, startWaves, urlEnvName, verifyingServices, type ServiceName } from '@evidence-record/registry';

/**
 * The one way tests, benchmarks and the image check start a service of the
 * registry (services/registry) as a process: its bundle (the test run's own,
 * decision 2400, or dist/<name>.mjs), its TypeScript entry under tsx, or any other command (the image's node in a
 * chroot), with output kept in memory or written to a file, and "ready" meaning
 * /readyz answers 200 (or, for a service without HTTP, that it is still
 * running a moment after it started).
 */

export { startWaves, type ServiceName };

/**
 * A port for a service to listen on, that no other test process on this
 * machine is handed. Asking the kernel for port 0 and closing is not enough:
 * test files run in parallel, and the kernel may give the same port to
 * another file's listen(0) (a canary, a fake SMTP) before the service binds
 * it. So ports come from below the kernel's ephemeral range, which listen(0)
 * and outgoing connections never use, and each is reserved by a file named
 * after it, created exclusively and holding the reserving process's pid (a
 * dead process's reservations are taken over).
 */
export async function freePort(): Promise<number> {
  const [low, high] = portRange();
  mkdirSync(reservations, { recursive: true });
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (!reserve(port)) continue;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${low}..${high} after 200 tries`);
}

const reservations = join(tmpdir(), 'evidence-record-test-ports');

/** Below the ephemeral range (usually 32768..60999): 20000 ports under its start, never under 1024. */
function portRange(): [number, number] {
  let ephemeralLow = 32768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // not Linux: the usual range
  }
  return [Math.max(1024, ephemeralLow - 20000), ephemeralLow];
}

function reserve(port: number): boolean {
  const file = join(reservations, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    try {
      const holder = Number(readFileSync(file, 'utf8'));
      if (holder === process.pid || alive(holder)) return false;
      writeFileSync(file, String(process.pid));
      return true;
    } catch {
      return false;
    }
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Its TypeScript entry under tsx, or its built bundle (the test run's own, or dist/ for benchmarks). */
export type RunFrom = 'source' | 'bundle';

/**
 * The bundles a vitest run built for itself (test/global-setup.ts), when this
 * process belongs to one; null elsewhere (then services run under tsx unless
 * told otherwise).
 */
export function testBundles(): string | null {
  return process.env.ER_TEST_BUNDLES || null;
}

/**
 * Node's arguments to run the operator CLI (scripts/admin) with these: the
 * run's bundle, as operators run dist/admin.mjs, or its source under tsx
 * outside a test run.
 */
export function operatorCliArgs(args: readonly string[]): string[] {
  const bundles = testBundles();
  return bundles ? ['--enable-source-maps', join(bundles, 'admin.mjs'), ...args] : ['--import', 'tsx', 'scripts/admin/main.ts', ...args];
}

export interface LaunchOptions {
  service: ServiceName;
  /** Name of this process in messages and log files (a second gateway: 'gateway-off'); the service name by default. */
  label?: string;
  /** It gets PORT (and a gateway GATEWAY_PORT); needed to wait for /readyz. Without it, env may carry PORT (e.g. a bad one a test expects refused). */
  port?: number;
  env: NodeJS.ProcessEnv;
  /** Unset: the test run's bundle (testBundles()) when there is one, else the TypeScript entry; 'bundle' given means dist/<name>.mjs. */
  from?: RunFrom;
  /** Another entry than the registry's (e.g. the bundle of another build, for an A/B comparison). */
  entry?: string;
  nodeArgs?: string[];
  /** Replaces `node [nodeArgs] <entry>` altogether (e.g. the image's node under chroot). */
  command?: { file: string; args: string[] };
  /** Output goes to this file instead of memory. */
  logFile?: string;
  /** Lines kept in memory (the most recent). */
  keepLines?: number;
  /** Append the lines to this array (e.g. the one of the process it replaces) instead of a new one. */
  lines?: string[];
  /** How long /readyz may take; 60 s by default, since a tsx start on a loaded 2-core machine can take tens of seconds. */
  readyTimeoutMs?: number;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ServiceProcess {
  readonly label: string;
  readonly lines: string[];
  readonly exited: Promise<Exit>;

  constructor(
    readonly child: ChildProcess,
    readonly opts: LaunchOptions,
  ) {
    this.label = opts.label ?? opts.service;
    this.lines = opts.lines ?? [];
    const keep = opts.keepLines ?? 2000;
    // Whole lines only, each stream on its own (a line may arrive in two chunks).
    const partial = { out: '', err: '' };
    const take = (stream: 'out' | 'err') => (b: Buffer) => {
      const parts = (partial[stream] + b.toString()).split('\n');
      partial[stream] = parts.pop() ?? '';
      this.lines.push(...parts.filter(Boolean));
      if (this.lines.length > keep) this.lines.splice(0, this.lines.length - keep);
    };
    child.stdout?.on('data', take('out'));
    child.stderr?.on('data', take('err'));
    this.exited = new Promise<Exit>((resolve) =>
      child.once('close', (code, signal) => {
        for (const rest of [partial.out, partial.err]) if (rest) this.lines.push(rest);
        resolve({ code, signal });
      }),
    );
  }

  get port(): number | undefined {
    return this.opts.port;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines it printed, or where they are. */
  tail(n = 30): string {
    if (this.opts.logFile) {
      try {
        return readFileSync(this.opts.logFile, 'utf8').split('\n').slice(-n).join('\n');
      } catch {
        return `(see ${this.opts.logFile})`;
      }
    }
    return this.lines.slice(-n).join('\n');
  }

  /** Resolves once /readyz answers 200; rejects when it exits first or the time is up. */
  async ready(): Promise<void> {
    const timeoutMs = this.opts.readyTimeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    const http = service(this.opts.service).http;
    if (http && this.opts.port === undefined) throw new Error(`${this.label}: no port to wait on`);
    const settledAt = Date.now() + 500;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.label} exited with ${this.child.exitCode ?? this.child.signalCode}:\n${this.tail()}`);
      if (!http) {
        if (Date.now() >= settledAt) return;
      } else {
        try {
          const res = await fetch(`http://127.0.0.1:${this.opts.port}/readyz`);
          await res.arrayBuffer();
          if (res.ok) return;
        } catch {
          // not listening yet
        }
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`${this.label} not ready on :${this.opts.port} after ${timeoutMs / 1000} s:\n${this.tail()}`);
  }

  /** SIGTERM (or `signal`), then SIGKILL after `graceMs`; resolves when it has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 8000): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), graceMs).unref());
    if ((await Promise.race([this.exited, timer])) === 'late' && this.running) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  kill(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  /** CPU seconds (user + system) it has used so far, from /proc; null where /proc is not available. */
  cpuSeconds(): number | null {
    return this.child.pid ? cpuSecondsOf(this.child.pid) : null;
  }
}

/** CPU seconds (user + system) process `pid` has used so far, from /proc; null where /proc is not available. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    // Fields after the parenthesised command name: state is 3rd, utime 14th, stime 15th (clock ticks of 1/100 s on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * A built image's files, unpacked and mounted read-only at `root` (only /tmp
 * writable), run as the image's user: what scripts/image-check.sh prepares.
 */
export interface ImageRoot {
  root: string;
  /** uid:gid, the image's USER. */
  user: string;
  /** The image's ENV (NODE_ENV, NODE_OPTIONS, HOME, …), under the stack's own variables. */
  env: Record<string, string>;
}

/** `node <args>` inside the image, from its WORKDIR /app, as its user (chroot(8) --userspec). */
export function imageCommand(image: ImageRoot, nodeArgs: readonly string[]): { file: string; args: string[] } {
  // env(1) changes to /app and execs node, so the pid the launcher holds is node itself (its uid and mounts can be read from /proc).
  return { file: 'chroot', args: [`--userspec=${image.user}`, image.root, '/usr/bin/env', '--chdir=/app', 'node', ...nodeArgs] };
}

/** Starts the process without waiting for it. */
export function launch(opts: LaunchOptions): ServiceProcess {
  const entry = service(opts.service);
  const file = opts.command?.file ?? process.execPath;
  const bundles = testBundles();
  const from = opts.from ?? (bundles ? 'bundle' : 'source');
  const args =
    opts.command?.args ??
    (from === 'bundle'
      ? [...(opts.nodeArgs ?? []), '--enable-source-maps', opts.entry ?? join(opts.from === 'bundle' || !bundles ? 'dist' : bundles, `${entry.name}.mjs`)]
      : [...(opts.nodeArgs ?? []), '--import', 'tsx', opts.entry ?? entry.entry]);
  const portEnv: NodeJS.ProcessEnv = opts.port === undefined ? {} : { PORT: String(opts.port), ...(entry.name === 'gateway' ? { GATEWAY_PORT: String(opts.port) } : {}) };
  const env = { ...opts.env, ...portEnv };
  let child: ChildProcess;
  if (opts.logFile) {
    const fd = openSync(opts.logFile, 'w');
    child = spawn(file, args, { env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
  } else {
    child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  }
  return new ServiceProcess(child, opts);
}

/** Starts the process and waits until it is ready; a process that never gets ready is killed. */
export async function launchReady(opts: LaunchOptions): Promise<ServiceProcess> {
  const p = launch(opts);
  try {
    await p.ready();
  } catch (err) {
    p.kill();
    throw err;
  }
  return p;
}

/** <NAME>_URL of every HTTP service that has a port here. */
export function serviceUrls(ports: Partial<Record<ServiceName, number>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of services) {
    const port = ports[s.name];
    if (s.http && port !== undefined) out[urlEnvName(s.name)] = `http://127.0.0.1:${port}`;
  }
  return out;
}

export interface StackEnvOptions {
  ports: Partial<Record<ServiceName, number>>;
  databaseUrl: string;
  /** A standby's copy of the database, for the snapshot reads (DATABASE_READ_URL); none on one node. */
  databaseReadUrl?: string;
  /** The engines' other settings (REDIS_MODE, NATS_STREAM_REPLICAS) on the multi-node engines. */
  engineEnv?: Record<string, string>;
  redisUrl: string;
  /** REDIS_MODE (standalone unless set) and, for Sentinels, the primary's name (decision 2300). */
  redisMode?: 'standalone' | 'cluster' | 'sentinel';
  redisSentinelName?: string;
  redisPrefix: string;
  natsUrl: string;
  natsPrefix: string;
  smtpUrl: string;
  cursorSecret: string;
  /** Signs the review console's sessions (required in production, as the chart runs it). */
  consoleSessionSecret: string;
  /** Signs and verifies alert emails' unsubscribe links (required in production); tests that mint tokens read it back from the env. */
  unsubscribeKey: string;
  /**
   * `<NAME>_SIGNING_KEYS` of each service that verifies (decision 0313; newSigningKeys()): the gateway signs what it
   * forwards with them, each service verifies with its own; tests that call a service directly read them back.
   */
  signingKeys: Record<string, string>;
  nodeEnv: string;
  logLevel: string;
  mailFrom: string;
}

/**
 * What every process of a stack on this machine is given: the shared
 * backends, each service's URL, and the settings of the gateway and MCP
 * service that refer to the others.
 */
export function stackEnv(o: StackEnvOptions): Record<string, string> {
  const gateway = o.ports.gateway;
  const mcp = o.ports.mcp;
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: o.nodeEnv,
    LOG_LEVEL: o.logLevel,
    DATABASE_URL: o.databaseUrl,
    ...(o.databaseReadUrl ? { DATABASE_READ_URL: o.databaseReadUrl } : {}),
    ...(o.engineEnv ?? {}),
    REDIS_URL: o.redisUrl,
    ...(o.redisMode ? { REDIS_MODE: o.redisMode } : {}),
    ...(o.redisSentinelName ? { REDIS_SENTINEL_NAME: o.redisSentinelName } : {}),
    REDIS_PREFIX: o.redisPrefix,
    NATS_URL: o.natsUrl,
    NATS_PREFIX: o.natsPrefix,
    CURSOR_SECRET: o.cursorSecret,
    CONSOLE_SESSION_SECRET: o.consoleSessionSecret,
    UNSUBSCRIBE_SIGNING_KEY: o.unsubscribeKey,
    ...Object.fromEntries(Object.entries(o.signingKeys).map(([name, key]) => [signingKeysEnvName(name), key])),
    SMTP_URL: o.smtpUrl,
    MAIL_FROM: o.mailFrom,
    ...serviceUrls(o.ports),
    ...(gateway === undefined ? {} : { PUBLIC_BASE_URL: `http://127.0.0.1:${gateway}` }),
    MCP_ALLOWED_HOSTS: [...(gateway === undefined ? [] : [`127.0.0.1:${gateway}`, `localhost:${gateway}`]), ...(mcp === undefined ? [] : [`127.0.0.1:${mcp}`])].join(','),
    MCP_ALLOWED_ORIGINS: '',
    SHUTDOWN_GRACE_MS: '3000',
    // The operator CLI and the demo source tool read a stack file under ER_RUN_DIR (a developer's `npm run up`
    // writes .run/stack.env); a test stack's tools read this environment only.
    ER_RUN_DIR: join(tmpdir(), 'er-test-stack-has-no-stack-file'),
  };
}

/** A random signing key for each service that verifies signed requests (one stack's keys). */
export function newSigningKeys(): Record<string, string> {
  return Object.fromEntries(verifyingServices().map((name) => [name, randomBytes(32).toString('hex')]));
}

/** A free port for each service of the registry. */
export async function freePorts(): Promise<Record<ServiceName, number>> {
  return Object.fromEntries(await Promise.all(services.map(async (s) => [s.name, await freePort()]))) as Record<ServiceName, number>;
}
