import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { service, serviceNames, type ServiceName } from '@evidence-record/registry';
import { demoDatabase, isolationPrefix, type TestDatabase } from './db';
import { engineEnv, NATS_URL, REDIS_URL } from './infra';
import { freePorts, imageCommand, launchReady, newSigningKeys, operatorCliArgs, stackEnv, startWaves, type ImageRoot, type ServiceProcess } from './launcher';
import { TestSmtpServer } from './smtp';

const exec = promisify(execFile);

export { freePort } from './launcher';
export { serviceNames, type ServiceName };

/** Each service's TypeScript entry point (from the registry). */
export const entrypoints = Object.fromEntries(serviceNames.map((n) => [n, service(n).entry])) as Record<ServiceName, string>;

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
  /** The operator CLI with extra environment (e.g. NODE_ENV=test and ER_TEST_TODAY for a release on a later day). */
  adminWith: (extra: NodeJS.ProcessEnv, ...args: string[]) => Promise<Record<string, unknown>>;
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
  /**
   * The engines' other settings for a private cluster a fault test owns (REDIS_MODE=cluster with a
   * Redis Cluster's redisUrl, NATS_STREAM_REPLICAS with a NATS cluster's natsUrl); the run's own
   * otherwise (infra.ts engineEnv).
   */
  engineEnv?: Record<string, string>;
  /** The database on another Postgres (a fault test's primary), with its standby's copy for DATABASE_READ_URL. */
  database?: TestDatabase;
  /** Run every service and the operator CLI from a built image's files instead of the sources. */
  image?: ImageRoot;
}

export async function startStack(label: string, opts: StackOptions = {}): Promise<RunningStack> {
  const services = opts.services ?? serviceNames;
  const db = opts.database ?? (await demoDatabase());
  const { redisPrefix, natsPrefix } = isolationPrefix(label);
  const smtp = new TestSmtpServer();
  await smtp.start();
  const ports = await freePorts();
  const env: NodeJS.ProcessEnv = stackEnv({
    ports,
    databaseUrl: db.url,
    databaseReadUrl: db.readUrl,
    // A private server the test passes is one node unless the test says otherwise: the run's cluster settings are for the run's engines.
    engineEnv: {
      ...Object.fromEntries(Object.entries(engineEnv()).filter(([k]) => !(k === 'REDIS_MODE' && opts.redisUrl) && !(k === 'NATS_STREAM_REPLICAS' && opts.natsUrl))),
      ...(opts.engineEnv ?? {}),
    },
    redisUrl: opts.redisUrl ?? REDIS_URL,
    redisPrefix,
    natsUrl: opts.natsUrl ?? NATS_URL,
    natsPrefix,
    smtpUrl: smtp.url,
    cursorSecret: randomBytes(32).toString('hex'),
    consoleSessionSecret: randomBytes(32).toString('hex'),
    unsubscribeKey: randomBytes(32).toString('hex'),
    // The gateway signs what it forwards; every service of this stack accepts only that, with its own key (decision 0313).
    signingKeys: newSigningKeys(),
    // The chart runs the image with NODE_ENV=production.
    nodeEnv: opts.image ? 'production' : 'test',
    logLevel: process.env.STACK_LOG_LEVEL ?? 'warn',
    mailFrom: 'Evidence Record <alerts@evidence-record.test>',
  });
  if (opts.image) {
    // The image's own ENV as a container runtime applies it; PATH and HOME are the image's (the host's mean nothing inside it).
    for (const [k, v] of Object.entries(opts.image.env)) if (k === 'PATH' || k === 'HOME' || !(k in env)) env[k] = v;
  }
  const processes = new Map<ServiceName, ChildProcess>();
  const running = new Map<ServiceName, ServiceProcess>();
  const logs = new Map<ServiceName, string[]>();

  const startService = async (name: ServiceName) => {
    const command = opts.image ? imageCommand(opts.image, [`dist/${name}.mjs`]) : undefined;
    const p = await launchReady({ service: name, port: ports[name], env: { ...env, ...(opts.extraEnv?.[name] ?? {}) }, command, keepLines: 500, lines: logs.get(name) ?? [] });
    logs.set(name, p.lines);
    processes.set(name, p.child);
    running.set(name, p);
  };

  const stopService = async (name: ServiceName, signal: NodeJS.Signals = 'SIGTERM') => {
    const p = running.get(name);
    if (!p) return;
    await p.stop(signal, 8000);
    running.delete(name);
    processes.delete(name);
  };

  const stack: RunningStack = {
    baseUrl: `http://127.0.0.1:${ports.gateway}`,
    db,
    env,
    ports,
    smtp,
    processes,
    logs,
    admin: (...args: string[]) => stack.adminWith({}, ...args),
    adminWith: async (extra: NodeJS.ProcessEnv, ...args: string[]) => {
      const cli = opts.image ? imageCommand(opts.image, ['dist/admin.mjs', ...args, '--json']) : { file: process.execPath, args: operatorCliArgs([...args, '--json']) };
      const { stdout } = await exec(cli.file, cli.args, { env: { ...env, ...extra } });
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
    // In the registry's start order (backends, then the gateway, then the MCP service that calls it).
    for (const wave of startWaves(services)) await Promise.all(wave.map((n) => startService(n as ServiceName)));
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
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
