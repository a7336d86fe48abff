import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { serviceNames } from '@evidence-record/registry';
import { freePort, launchReady, newSigningKeys, stackEnv, startWaves, type ServiceName, type ServiceProcess } from '@evidence-record/test-support/launcher';

const exec = promisify(execFile);

export type Bundle = ServiceName;
export { freePort };

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

/**
 * The services as separate processes from the built bundles (dist/*.mjs),
 * on free loopback ports, with their own database, Redis prefix, NATS
 * prefix and SMTP sink, so a bench never touches a developer's stack.
 * Output goes to log files, not through this process, which drives the load.
 */
export class BenchStack {
  readonly ports = new Map<string, number>();
  private readonly running = new Map<string, ServiceProcess>();
  readonly env: Record<string, string>;

  private constructor(readonly opts: StackOptions, ports: Map<string, number>) {
    this.ports = ports;
    this.env = stackEnv({
      ports: Object.fromEntries(ports) as Partial<Record<ServiceName, number>>,
      databaseUrl: opts.databaseUrl,
      redisUrl: opts.redisUrl,
      redisPrefix: opts.redisPrefix,
      natsUrl: opts.natsUrl,
      natsPrefix: opts.natsPrefix,
      smtpUrl: opts.smtpUrl,
      cursorSecret: randomBytes(32).toString('hex'),
      consoleSessionSecret: randomBytes(32).toString('hex'),
      unsubscribeKey: randomBytes(32).toString('hex'),
      signingKeys: newSigningKeys(),
      nodeEnv: 'production',
      // The production default: every request writes its access-log line.
      logLevel: 'info',
      mailFrom: 'Evidence Record <alerts@evidence-record.bench>',
    });
  }

  static async create(opts: StackOptions): Promise<BenchStack> {
    // Every service of the registry, and the bench's further replicas.
    const names = [...serviceNames, 'email-worker-2', 'gateway-off', 'gateway-counted'];
    const ports = new Map<string, number>();
    for (const n of names) ports.set(n, await freePort());
    return new BenchStack(opts, ports);
  }

  url(name: string): string {
    return `http://127.0.0.1:${this.ports.get(name)}`;
  }

  /**
   * The chosen backends and the gateway in the registry's start order (so the MCP service,
   * which calls back into the gateway, comes last); the extra gateways right after the gateway.
   */
  async start(): Promise<void> {
    for (const wave of startWaves([...new Set<ServiceName>([...this.opts.backends, 'gateway'])])) {
      await Promise.all(wave.map((b) => this.startProcess(b, b as Bundle)));
      if (!wave.includes('gateway')) continue;
      if (this.opts.counted) {
        await this.startProcess('gateway-counted', 'gateway', { DATABASE_URL: this.opts.counted.databaseUrl, REDIS_URL: this.opts.counted.redisUrl, PUBLIC_BASE_URL: this.url('gateway-counted') });
      }
      if (this.opts.uncheckedGateway) {
        // Not production: the gateway refuses GATEWAY_CHECKS=off under NODE_ENV=production. It needs no Redis or Postgres.
        await this.startProcess('gateway-off', 'gateway', { NODE_ENV: 'benchmark', GATEWAY_CHECKS: 'off', PUBLIC_BASE_URL: this.url('gateway-off') });
      }
    }
  }

  /**
   * A further replica of a bundle under its own name (e.g. a second email worker on the same
   * durable consumer). `entry` runs another build of it instead (an A/B comparison of a change).
   */
  async startProcess(name: string, bundle: Bundle, extraEnv: Record<string, string> = {}, nodeArgs: string[] = [], entry = `dist/${bundle}.mjs`): Promise<void> {
    const port = this.ports.get(name) ?? (await freePort());
    this.ports.set(name, port);
    const logFile = join(this.opts.logDir, `${this.opts.label}-${name}.log`);
    const p = await launchReady({ service: bundle, label: name, port, env: { ...this.env, ...extraEnv }, from: 'bundle', entry, nodeArgs, logFile });
    this.running.set(name, p);
  }

  /** CPU seconds (user + system) a process has used so far, from /proc; null where /proc is not available. */
  cpuSeconds(name: string): number | null {
    return this.running.get(name)?.cpuSeconds() ?? null;
  }

  async stopProcess(name: string): Promise<void> {
    const p = this.running.get(name);
    if (!p) return;
    this.running.delete(name);
    await p.stop('SIGTERM', 10_000);
  }

  async stop(): Promise<void> {
    // The MCP service and gateways first, so nothing calls a stopped backend.
    const order = ['mcp', 'gateway', 'gateway-off', 'gateway-counted'];
    for (const n of order) await this.stopProcess(n);
    await Promise.all([...this.running.keys()].map((n) => this.stopProcess(n)));
  }

  /** The operator CLI (built bundle), as an operator runs it: one JSON object on stdout. */
  async admin(...args: string[]): Promise<Record<string, unknown>> {
    return this.adminWith({}, ...args);
  }

  /** The operator CLI with extra variables (e.g. the test clock of a release on a later day). */
  async adminWith(extra: NodeJS.ProcessEnv, ...args: string[]): Promise<Record<string, unknown>> {
    try {
      const { stdout } = await exec(process.execPath, ['dist/admin.mjs', ...args, '--json'], { env: { ...this.env, LOG_LEVEL: 'warn', ...extra }, maxBuffer: 16 * 1024 * 1024 });
      return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`admin ${args.join(' ')} failed: ${e.stdout ?? ''} ${e.stderr ?? ''} ${e.message}`);
    }
  }
}
