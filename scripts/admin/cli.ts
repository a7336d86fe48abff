import { CurationRefused } from '@evidence-record/curation';
import { AddressRefused, FetchFailure } from '@evidence-record/sources';
import { createPool, type Pool } from '@evidence-record/platform';
import { resolveConfig } from './config';

/**
 * The operator CLI's plumbing: `npm run -s admin -- <noun> <verb> [flags] --json`
 * prints exactly one JSON object on stdout. Each noun lives in nouns/<noun>.ts.
 */
export interface Flags {
  positional: string[];
  /** The last value of each flag. */
  flags: Record<string, string | true>;
  /** Every value of each flag, in order (`--signal A --signal B`). */
  repeated: Record<string, string[]>;
}

export interface AdminContext {
  pool: Pool;
  flags: Flags;
  env: NodeJS.ProcessEnv;
  /** Called at the end; closes whatever the verb opened (pool, Redis, NATS). */
  onClose: (fn: () => Promise<void>) => void;
}

export type Verb = (ctx: AdminContext) => Promise<Record<string, unknown>>;

export interface Noun {
  noun: string;
  summary: string;
  verbs: Record<string, { usage: string; run: Verb }>;
}

/** The command line itself is wrong (unknown verb, missing or malformed flag): exit 2, `"error": "usage"`. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The command was understood and refused (unknown id, a rule of the Record,
 * an unreachable Redis or NATS): exit 1, `{"error": code, "message"}`, no
 * stack trace. Codes are listed in docs/curation.md.
 */
export class Refused extends Error {
  override name = 'Refused';
  constructor(
    readonly code: string,
    message: string,
    /** Printed beside error and message (e.g. what a release committed before NATS failed). */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * An expected failure's code, or null for a defect (which keeps its stack
 * trace on stderr). Decided here, once, for every verb: a verb that reads a
 * source (the monitor's fetcher and address guard) answers an unreachable or
 * refused host, a timeout or a redirect loop with the fetch's own code
 * (docs/monitor.md), whatever noun it belongs to.
 */
function refusalCode(err: unknown): string | null {
  if (err instanceof Refused || err instanceof CurationRefused || err instanceof FetchFailure || err instanceof AddressRefused) return err.code;
  // The gateway's operator helpers cannot reach Redis (see gateway/src/operator.ts).
  if (err instanceof Error && err.name === 'RedisUnreachable') return 'redis_unavailable';
  return null;
}

export function parseFlags(argv: string[]): Flags {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  const repeated: Record<string, string[]> = {};
  const set = (name: string, value: string) => {
    flags[name] = value;
    (repeated[name] ??= []).push(value);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const next = argv[i + 1];
      if (inline !== undefined) set(name, inline);
      else if (next !== undefined && !next.startsWith('--')) {
        set(name, next);
        i++;
      } else flags[name] = true;
    } else positional.push(arg);
  }
  return { positional, flags, repeated };
}

export function required(flags: Flags, name: string): string {
  const v = flags.flags[name];
  if (typeof v !== 'string' || v.length === 0) throw new UsageError(`--${name} is required`);
  return v;
}

export function optional(flags: Flags, name: string): string | undefined {
  const v = flags.flags[name];
  return typeof v === 'string' ? v : undefined;
}

/** Every value given for a repeatable flag (none: an empty list). */
export function list(flags: Flags, name: string): string[] {
  return flags.repeated[name] ?? [];
}

/** Who does a curation action: --by, else the shell's user; recorded beside the action. */
export function operatorName({ flags, env }: Pick<AdminContext, 'flags' | 'env'>): string {
  return optional(flags, 'by') ?? env.USER ?? 'operator';
}

export function positional(flags: Flags, index: number, name: string): string {
  const v = flags.positional[index];
  if (!v) throw new UsageError(`<${name}> is required`);
  return v;
}

function print(out: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

export async function runCli(nouns: Noun[], argv: string[], processEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [nounName, verbName, ...rest] = argv;
  const noun = nouns.find((n) => n.noun === nounName);
  const verb = noun && verbName ? noun.verbs[verbName] : undefined;
  if (!noun || !verb) {
    const help = nouns.map((n) => `${n.noun}: ${n.summary}\n${Object.entries(n.verbs).map(([v, d]) => `  ${n.noun} ${v} ${d.usage}`).join('\n')}`).join('\n');
    process.stderr.write(`usage: admin <noun> <verb> [flags] --json\n\n${help}\n`);
    print({ error: 'usage', message: nounName ? `unknown command: ${[nounName, verbName].filter(Boolean).join(' ')}` : 'no command' });
    return 2;
  }
  // The stack's own configuration (.run/stack.env written by `npm run up`) under this process's environment;
  // a verb reads only the settings the CLI declares (scripts/admin/config.ts).
  const { env } = resolveConfig(processEnv);
  const closers: Array<() => Promise<void>> = [];
  const pool = createPool(env.DATABASE_URL!, { max: 2, applicationName: 'admin-cli', statementTimeoutMs: 120_000, namedStatements: env.DATABASE_NAMED_STATEMENTS !== 'off' });
  closers.push(() => pool.end());
  try {
    const out = await verb.run({ pool, flags: parseFlags(rest), env, onClose: (fn) => closers.push(fn) });
    print(out);
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof UsageError) {
      print({ error: 'usage', message });
      return 2;
    }
    const code = refusalCode(err);
    if (code) {
      print({ ...((err as { detail?: Record<string, unknown> }).detail ?? {}), error: code, message });
      return 1;
    }
    if (isConnectionError(err)) {
      print({ error: 'postgres_unavailable', message: `cannot reach Postgres (DATABASE_URL): ${message}` });
      return 1;
    }
    // A defect: say so, with the stack trace on stderr for whoever fixes it.
    print({ error: 'internal', message });
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    return 1;
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', '3D000', '28P01'].includes(code);
}
