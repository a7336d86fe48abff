import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';

const exec = promisify(execFile);

export type Bundle = 'record' | 'signals' | 'ledger' | 'watch' | 'mcp' | 'email-worker' | 'gateway';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface StackOptions {
  label: string;
  /** The Record the services read. */
  databaseUrl: string;
  redisUrl: string;
  /**
   * Also run a gateway that reaches Postgres and Redis through the bench's
   * counting proxies, used only to count round trips. The gateways that are
   * timed connect directly: a proxy hop inside the bench process (which also
   * drives the load) would add latency and CPU to the full path only.
   */
  counted?: { databaseUrl: string; redisUrl: string };
  redisPrefix: string;
  natsUrl: string;
  natsPrefix: string;
  smtpUrl: string;
  logDir: string;
  /** Backends to run besides the gateway. */
  backends: Bundle[];
  /** Also run a second gateway with GATEWAY_CHECKS=off on the same upstreams. */
  uncheckedGateway: boolean;
}

interface Running {
  child: ChildProcess;
  port: number;
  logFile: string;
}

/**
 * The services as separate processes from the built bundles (dist/*.mjs),
 * on free loopback ports, with their own database, Redis prefix, NATS
 * prefix and SMTP sink, so a bench never touches a developer's stack.
 * Output goes to log files, not through this process, which drives the load.
 */
export class BenchStack {
  readonly ports = new Map<string, number>();
  private readonly running = new Map<string, Running>();
  readonly env: Record<string, string>;

  private constructor(readonly opts: StackOptions, ports: Map<string, number>) {
    this.ports = ports;
    const url = (n: string) => `http://127.0.0.1:${ports.get(n)}`;
    this.env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      // The production default: every request writes its access-log line.
      LOG_LEVEL: 'info',
      DATABASE_URL: opts.databaseUrl,
      REDIS_URL: opts.redisUrl,
      REDIS_PREFIX: opts.redisPrefix,
      NATS_URL: opts.natsUrl,
      NATS_PREFIX: opts.natsPrefix,
      CURSOR_SECRET: randomBytes(32).toString('hex'),
      INTERNAL_SIGNING_KEYS: randomBytes(32).toString('hex'),
      SMTP_URL: opts.smtpUrl,
      MAIL_FROM: 'Evidence Record <alerts@evidence-record.bench>',
      PUBLIC_BASE_URL: url('gateway'),
      RECORD_URL: url('record'),
      SIGNALS_URL: url('signals'),
      LEDGER_URL: url('ledger'),
      WATCH_URL: url('watch'),
      MCP_URL: url('mcp'),
      GATEWAY_URL: url('gateway'),
      MCP_ALLOWED_HOSTS: `127.0.0.1:${ports.get('gateway')},localhost:${ports.get('gateway')},127.0.0.1:${ports.get('mcp')}`,
      MCP_ALLOWED_ORIGINS: '',
      SHUTDOWN_GRACE_MS: '3000',
    };
  }

  static async create(opts: StackOptions): Promise<BenchStack> {
    const names = ['record', 'signals', 'ledger', 'watch', 'mcp', 'email-worker', 'email-worker-2', 'gateway', 'gateway-off', 'gateway-counted'];
    const ports = new Map<string, number>();
    for (const n of names) ports.set(n, await freePort());
    return new BenchStack(opts, ports);
  }

  url(name: string): string {
    return `http://127.0.0.1:${this.ports.get(name)}`;
  }

  /** Backends first, then the gateway(s), then the MCP service that calls back into the gateway. */
  async start(): Promise<void> {
    const first = this.opts.backends.filter((b) => b !== 'mcp');
    await Promise.all(first.map((b) => this.startProcess(b, b)));
    await this.startProcess('gateway', 'gateway');
    if (this.opts.counted) {
      await this.startProcess('gateway-counted', 'gateway', { DATABASE_URL: this.opts.counted.databaseUrl, REDIS_URL: this.opts.counted.redisUrl, PUBLIC_BASE_URL: this.url('gateway-counted') });
    }
    if (this.opts.uncheckedGateway) {
      // Not production: the gateway refuses GATEWAY_CHECKS=off under NODE_ENV=production. It needs no Redis or Postgres.
      await this.startProcess('gateway-off', 'gateway', { NODE_ENV: 'benchmark', GATEWAY_CHECKS: 'off', PUBLIC_BASE_URL: this.url('gateway-off') });
    }
    if (this.opts.backends.includes('mcp')) await this.startProcess('mcp', 'mcp');
  }

  /**
   * A further replica of a bundle under its own name (e.g. a second email worker on the same
   * durable consumer). `entry` runs another build of it instead (an A/B comparison of a change).
   */
  async startProcess(name: string, bundle: Bundle, extraEnv: Record<string, string> = {}, nodeArgs: string[] = [], entry = `dist/${bundle}.mjs`): Promise<void> {
    const port = this.ports.get(name) ?? (await freePort());
    this.ports.set(name, port);
    const logFile = join(this.opts.logDir, `${this.opts.label}-${name}.log`);
    const fd = openSync(logFile, 'w');
    const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', entry], {
      env: { ...this.env, PORT: String(port), GATEWAY_PORT: String(port), ...extraEnv },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    this.running.set(name, { child, port, logFile });
    await waitReady(name, port, child, logFile);
  }

  /** CPU seconds (user + system) a process has used so far, from /proc; null where /proc is not available. */
  cpuSeconds(name: string): number | null {
    const pid = this.running.get(name)?.child.pid;
    if (!pid) return null;
    try {
      // Fields after the parenthesised command name: state is 3rd, utime 14th, stime 15th (clock ticks of 1/100 s on Linux).
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return null;
    }
  }

  async stopProcess(name: string): Promise<void> {
    const r = this.running.get(name);
    if (!r) return;
    this.running.delete(name);
    if (r.child.exitCode !== null || r.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => r.child.once('exit', () => resolve()));
    r.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((res) => setTimeout(res, 10_000))]);
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    // The MCP service and gateways first, so nothing calls a stopped backend.
    const order = ['mcp', 'gateway', 'gateway-off', 'gateway-counted'];
    for (const n of order) await this.stopProcess(n);
    await Promise.all([...this.running.keys()].map((n) => this.stopProcess(n)));
  }

  /** The operator CLI (built bundle), as an operator runs it: one JSON object on stdout. */
  async admin(...args: string[]): Promise<Record<string, unknown>> {
    try {
      const { stdout } = await exec(process.execPath, ['dist/admin.mjs', ...args, '--json'], { env: { ...this.env, LOG_LEVEL: 'warn' }, maxBuffer: 16 * 1024 * 1024 });
      return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`admin ${args.join(' ')} failed: ${e.stdout ?? ''} ${e.stderr ?? ''} ${e.message}`);
    }
  }
}

async function waitReady(name: string, port: number, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${logFile}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} not ready on :${port} after 30 s; see ${logFile}`);
}
