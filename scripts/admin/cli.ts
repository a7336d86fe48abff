import { createPool, type Pool } from '@evidence-record/platform';

/**
 * The operator CLI's plumbing: `npm run -s admin -- <noun> <verb> [flags] --json`
 * prints exactly one JSON object on stdout. Each noun lives in nouns/<noun>.ts.
 */
export interface Flags {
  positional: string[];
  flags: Record<string, string | true>;
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

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseFlags(argv: string[]): Flags {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const next = argv[i + 1];
      if (inline !== undefined) flags[name] = inline;
      else if (next !== undefined && !next.startsWith('--')) {
        flags[name] = next;
        i++;
      } else flags[name] = true;
    } else positional.push(arg);
  }
  return { positional, flags };
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

export function positional(flags: Flags, index: number, name: string): string {
  const v = flags.positional[index];
  if (!v) throw new UsageError(`<${name}> is required`);
  return v;
}

export function databaseUrl(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/evidence_record';
}

export async function runCli(nouns: Noun[], argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [nounName, verbName, ...rest] = argv;
  const noun = nouns.find((n) => n.noun === nounName);
  const verb = noun && verbName ? noun.verbs[verbName] : undefined;
  if (!noun || !verb) {
    const help = nouns.map((n) => `${n.noun}: ${n.summary}\n${Object.entries(n.verbs).map(([v, d]) => `  ${n.noun} ${v} ${d.usage}`).join('\n')}`).join('\n');
    process.stderr.write(`usage: admin <noun> <verb> [flags] --json\n\n${help}\n`);
    process.stdout.write(`${JSON.stringify({ error: 'usage', message: nounName ? `unknown command: ${[nounName, verbName].filter(Boolean).join(' ')}` : 'no command' })}\n`);
    return 2;
  }
  const closers: Array<() => Promise<void>> = [];
  const pool = createPool(databaseUrl(env), { max: 2, applicationName: 'admin-cli', statementTimeoutMs: 120_000 });
  closers.push(() => pool.end());
  try {
    const out = await verb.run({ pool, flags: parseFlags(rest), env, onClose: (fn) => closers.push(fn) });
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError;
    process.stdout.write(`${JSON.stringify({ error: usage ? 'usage' : 'failed', message: err instanceof Error ? err.message : String(err) })}\n`);
    if (!usage) process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    return usage ? 2 : 1;
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}
