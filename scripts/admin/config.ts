import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * One configuration for the CLI and the stack it drives. `npm run up` writes
 * every variable it starts the services with to `<ER_RUN_DIR>/stack.env`
 * (default `.run/stack.env`) and starts the services from that same file; the
 * CLI reads it too, so a revocation is published under the gateways' Redis
 * prefix and a release to the streams the watch fan-out reads, with no extra
 * variables. Precedence: a variable set in the CLI's environment, then the
 * file, then the defaults below (the same as scripts/stack.env.sh). In
 * Kubernetes the CLI runs inside the console pod (`kubectl exec`), whose
 * environment is the chart's shared ConfigMap and Secrets; no file is there.
 */
export const stackDefaults: Readonly<Record<string, string>> = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/evidence_record',
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_PREFIX: 'er:local:',
  NATS_URL: 'nats://127.0.0.1:4222',
  NATS_PREFIX: 'local',
  PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
};

/** The variables the CLI acts with; `config show` prints them (passwords masked). */
export const cliVariables = ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'NATS_URL', 'NATS_PREFIX', 'PUBLIC_BASE_URL'] as const;

// `npm run -s admin` runs in the repository root, like `npm run up`, which wrote the file there.
const repoRoot = process.cwd();

/** Where `npm run up` writes the stack's configuration (ER_RUN_DIR is up.sh's variable). */
export function stackEnvPath(env: NodeJS.ProcessEnv, root = repoRoot): string {
  const runDir = env.ER_RUN_DIR ?? '.run';
  return join(isAbsolute(runDir) ? runDir : join(root, runDir), 'stack.env');
}

export interface ResolvedConfig {
  env: NodeJS.ProcessEnv;
  /** The stack.env file read, or null when none exists (defaults and environment only). */
  file: string | null;
}

export function resolveConfig(env: NodeJS.ProcessEnv, root = repoRoot): ResolvedConfig {
  const path = stackEnvPath(env, root);
  const fromFile = existsSync(path) ? (parseEnv(readFileSync(path, 'utf8')) as Record<string, string>) : null;
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  // An empty prefix is a real choice (`REDIS_PREFIX=`); keep it when it was set explicitly.
  for (const name of ['REDIS_PREFIX', 'NATS_PREFIX']) if (env[name] === '') defined[name] = '';
  return { env: { ...stackDefaults, ...(fromFile ?? {}), ...defined }, file: fromFile ? path : null };
}

/** A URL with its password replaced, for printing. */
export function masked(value: string): string {
  try {
    const u = new URL(value);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return value;
  }
}
