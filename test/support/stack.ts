import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { demoDatabase, isolationPrefix, type TestDatabase } from './db';
import { NATS_URL, REDIS_URL } from './infra';
import { freePort } from './net';
import { TestSmtpServer } from './smtp';

const exec = promisify(execFile);

export const serviceNames = ['record', 'signals', 'ledger', 'watch', 'mcp', 'email-worker', 'gateway'] as const;
export type ServiceName = (typeof serviceNames)[number];

export const entrypoints: Record<ServiceName, string> = {
  gateway: 'gateway/src/main.ts',
  record: 'services/record/src/main.ts',
  signals: 'services/signals/src/main.ts',
  ledger: 'services/ledger/src/main.ts',
  watch: 'services/watch/src/main.ts',
  mcp: 'services/mcp/src/main.ts',
  'email-worker': 'services/email-worker/src/main.ts',
};

export { freePort };

export interface RunningStack {
  baseUrl: string;
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  ports: Record<ServiceName, number>;
  smtp: TestSmtpServer;
  processes: Map<ServiceName, ChildProcess>;
  /** Output of a service, for diagnosing a failure. */
  logs: Map<ServiceName, string[]>;
  admin: (...args: string[]) => Promise<Record<string, unknown>>;
  stopService: (name: ServiceName, signal?: NodeJS.Signals) => Promise<void>;
  startService: (name: ServiceName) => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * The whole stack as separate processes, as a client sees it: one gateway
 * URL. Private database (a clone of the demo Record), Redis prefix, NATS
 * streams and a real SMTP server, so stacks of parallel test files never meet.
 */
export interface StackOptions {
  services?: readonly ServiceName[];
  extraEnv?: Partial<Record<ServiceName, NodeJS.ProcessEnv>>;
  /** A private Redis (e.g. one a fault test stops and restarts) instead of the machine's. */
  redisUrl?: string;
  /** A private nats-server (e.g. one a fault test stops and restarts) instead of the machine's. */
  natsUrl?: string;
}

export async function startStack(label: string, opts: StackOptions = {}): Promise<RunningStack> {
  const services = opts.services ?? serviceNames;
  const db = await demoDatabase();
  const { redisPrefix, natsPrefix } = isolationPrefix(label);
  const smtp = new TestSmtpServer();
  await smtp.start();
  const ports = Object.fromEntries(await Promise.all(serviceNames.map(async (n) => [n, await freePort()]))) as Record<ServiceName, number>;
  const url = (n: ServiceName) => `http://127.0.0.1:${ports[n]}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.STACK_LOG_LEVEL ?? 'warn',
    DATABASE_URL: db.url,
    REDIS_URL: opts.redisUrl ?? REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    NATS_URL: opts.natsUrl ?? NATS_URL,
    NATS_PREFIX: natsPrefix,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Evidence Record <alerts@evidence-record.test>',
    PUBLIC_BASE_URL: url('gateway'),
    RECORD_URL: url('record'),
    SIGNALS_URL: url('signals'),
    LEDGER_URL: url('ledger'),
    WATCH_URL: url('watch'),
    MCP_URL: url('mcp'),
    GATEWAY_URL: url('gateway'),
    MCP_ALLOWED_HOSTS: `127.0.0.1:${ports.gateway},localhost:${ports.gateway},127.0.0.1:${ports.mcp}`,
    MCP_ALLOWED_ORIGINS: '',
    SHUTDOWN_GRACE_MS: '3000',
  };
  const processes = new Map<ServiceName, ChildProcess>();
  const logs = new Map<ServiceName, string[]>();

  const startService = async (name: ServiceName) => {
    const lines: string[] = logs.get(name) ?? [];
    logs.set(name, lines);
    const child = spawn(process.execPath, ['--import', 'tsx', entrypoints[name]], {
      env: { ...env, PORT: String(ports[name]), GATEWAY_PORT: String(ports.gateway), ...(opts.extraEnv?.[name] ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => {
      lines.push(...b.toString().split('\n').filter(Boolean));
      if (lines.length > 500) lines.splice(0, lines.length - 500);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    processes.set(name, child);
    await waitReady(name, ports[name], child, lines);
  };

  const stopService = async (name: ServiceName, signal: NodeJS.Signals = 'SIGTERM') => {
    const child = processes.get(name);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    processes.delete(name);
  };

  const stack: RunningStack = {
    baseUrl: url('gateway'),
    db,
    env,
    ports,
    smtp,
    processes,
    logs,
    admin: async (...args: string[]) => {
      const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'scripts/admin/main.ts', ...args, '--json'], { env: { ...env } });
      return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    },
    stopService,
    startService,
    stop: async () => {
      await Promise.all([...processes.keys()].map((n) => stopService(n)));
      await smtp.stop().catch(() => undefined);
      await db.drop().catch(() => undefined);
    },
  };

  try {
    // Backends first, then the MCP service and the gateway that front them.
    const backends = services.filter((s) => s !== 'gateway' && s !== 'mcp');
    await Promise.all(backends.map(startService));
    if (services.includes('gateway')) await startService('gateway');
    if (services.includes('mcp')) await startService('mcp');
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}

export async function waitReady(name: string, port: number, child: ChildProcess, lines: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${lines.slice(-30).join('\n')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} not ready on :${port} after 30 s:\n${lines.slice(-30).join('\n')}`);
}

/** An organisation, optionally bound to one account, with one key of the given scopes. */
export async function issueKey(
  stack: RunningStack,
  opts: { plan?: string; scopes: string[]; account?: boolean; name?: string },
): Promise<{ key: string; keyId: string; orgId: string; accountId: string | null }> {
  const org = await stack.admin('org', 'create', '--name', opts.name ?? `org ${randomBytes(3).toString('hex')}`, '--plan', opts.plan ?? 'free');
  const orgId = String(org.org_id);
  let accountId: string | null = null;
  if (opts.account) {
    const acct = await stack.admin('account', 'create', '--org', orgId, '--email', `acct-${randomBytes(4).toString('hex')}@example.test`);
    accountId = String(acct.account_id);
  }
  const issued = await stack.admin('key', 'issue', '--org', orgId, '--scopes', opts.scopes.join(','), '--env', 'test');
  return { key: String(issued.key), keyId: String(issued.key_id), orgId, accountId };
}
