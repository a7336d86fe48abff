import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * The local stack's one configuration: `npm run up` writes every variable it
 * runs the stack with to `<ER_RUN_DIR>/stack.env` (default `.run/stack.env`),
 * starts every process from that file, and the tools an operator runs by hand
 * (`npm run -s admin`, `npm run -s demo-sources`) read the same file, so what
 * they do acts on the running stack with no extra variables. In Kubernetes
 * there is no file: the tools run in a pod whose environment is the chart's.
 *
 * One format, written and read here: `NAME='value'` lines, which bash's
 * `source` and Node's `util.parseEnv` read alike (single quotes: no escapes,
 * no expansion in either). A value holding a quote or a line break is refused
 * rather than written in a form the two would read differently.
 */

/** Where `npm run up` writes the stack's configuration (ER_RUN_DIR is up.sh's variable, relative to the repository root). */
export function stackEnvPath(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): string {
  const runDir = env.ER_RUN_DIR || '.run';
  return join(isAbsolute(runDir) ? runDir : join(root, runDir), 'stack.env');
}

export interface StackConfig {
  /** The file's variables under the process's own (a variable set in the environment wins). */
  env: NodeJS.ProcessEnv;
  /** The file read, or null when there is none (the environment alone). */
  file: string | null;
  /** The variables the file holds (names and values as written). */
  fromFile: Readonly<Record<string, string>>;
}

/** The stack's configuration as a tool started by hand sees it: the file, then the process's environment over it. */
export function readStackConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): StackConfig {
  const path = stackEnvPath(env, root);
  const fromFile = existsSync(path) ? (parseEnv(readFileSync(path, 'utf8')) as Record<string, string>) : null;
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
  return { env: { ...(fromFile ?? {}), ...defined }, file: fromFile ? path : null, fromFile: fromFile ?? {} };
}

export class StackValueRefused extends Error {
  override name = 'StackValueRefused';
}

function quoted(name: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new StackValueRefused(`${name}: a value of the stack configuration is one line`);
  if (!value.includes("'")) return `'${value}'`;
  // Double quotes are literal in both readers only without these (bash expands $ and `, and unescapes \ and ").
  if (/["\\$`]/.test(value)) throw new StackValueRefused(`${name}: a value holding both ' and one of " \\ $ \` cannot be written so that bash and Node read it alike`);
  return `"${value}"`;
}

/** The file's text: one `NAME='value'` line per variable, in name order. */
export function formatStackEnv(values: Readonly<Record<string, string>>): string {
  const lines = Object.keys(values)
    .sort()
    .map((name) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new StackValueRefused(`${name} is not a variable name`);
      return `${name}=${quoted(name, values[name]!)}`;
    });
  return `# Written by npm run up (scripts/registry/stack-env.ts): the configuration every process of this stack runs with.\n${lines.join('\n')}\n`;
}

/**
 * A variable whose value is a secret, by the names this code base gives them
 * (…_SECRET, …_KEY, …_KEYS, …_KEY_PREVIOUS, …_PASSWORD, …_TOKEN): printed masked.
 */
export function isSecretName(name: string): boolean {
  return /(^|_)(SECRET|KEYS?|PASSWORD|TOKEN)(_PREVIOUS)?$/.test(name);
}

/**
 * A value as it may be printed: a secret as `***` (its length hidden too), a URL with its password masked
 * (and a NATS token or a Redis password given where a user name would be), and so each URL of a comma-separated list
 * (NATS_URL and REDIS_URL may name several servers, each with credentials), which the URL parser would
 * otherwise read as one URL and give back unmasked.
 */
export function printableValue(name: string, value: string): string {
  if (value === '') return value;
  if (isSecretName(name)) return '***';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (!scheme) return value;
  return value
    .split(',')
    .map((part) => maskedUrl(part, scheme))
    .join(',');
}

/** One URL of a list with its secrets masked; an entry after the first may be host:port and takes the list's scheme. */
function maskedUrl(part: string, listScheme: string): string {
  const hasScheme = /^\s*[a-z][a-z0-9+.-]*:\/\//i.test(part);
  try {
    const u = new URL(hasScheme ? part.trim() : `${listScheme}://${part.trim()}`);
    const scheme = u.protocol.slice(0, -1).toLowerCase();
    // A user name alone is a secret for NATS (a token) and Redis (ioredis reads `redis://secret@host` as the password).
    const token = !u.password && u.username !== '' && ['nats', 'tls', 'redis', 'rediss'].includes(scheme);
    if (!u.password && !token) return part;
    if (u.password) u.password = '***';
    else u.username = '***';
    return hasScheme ? u.toString() : u.toString().slice(`${listScheme}://`.length);
  } catch {
    // Not parsed: printed only if it holds no userinfo at all.
    return part.includes('@') ? '***' : part;
  }
}
