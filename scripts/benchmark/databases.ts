import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import pg from 'pg';

const exec = promisify(execFile);

export const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string, params: Record<string, string> = {}): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** sha256 over the contents of these files and directories (recursively, sorted), test files left out. */
export function fingerprint(paths: string[]): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) {
      for (const entry of readdirSync(p).sort()) walk(join(p, entry));
    } else if (!p.endsWith('.test.ts')) {
      h.update(p).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  for (const p of paths) walk(p);
  return h.digest('hex').slice(0, 16);
}

/**
 * The fingerprint of what builds a database: every workspace source file the
 * entry point imports, however indirectly (esbuild's dependency graph), plus
 * the given files and directories (the migrations). Third-party packages
 * are left out; the lockfile stands for them.
 */
export async function sourceFingerprint(entries: string[], extra: string[]): Promise<string> {
  const result = await build({
    entryPoints: entries,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    outdir: 'unused',
    plugins: [
      {
        name: 'third-party-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@evidence-record/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  const inputs = Object.keys(result.metafile!.inputs).filter((p) => !p.includes('node_modules/'));
  return fingerprint([...inputs.sort(), ...extra, 'package-lock.json']);
}

async function comment(name: string): Promise<string | null> {
  const rows = await adminQuery<{ c: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1`,
    [name],
  );
  return rows[0] ? rows[0].c ?? '' : null;
}

export async function dropDatabase(name: string): Promise<void> {
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * A database built once and kept between runs, rebuilt only when what built
 * it changed: its fingerprint (of the migrations and the generator sources)
 * is stored as the database's comment. Built under a temporary name and
 * renamed when complete, so an interrupted build is never mistaken for a
 * finished one.
 */
export async function cachedDatabase(
  name: string,
  print: string,
  build: (url: string) => Promise<void>,
  log: (msg: string) => void,
): Promise<{ name: string; reused: boolean; seconds: number }> {
  const existing = await comment(name);
  if (existing === `bench:${print}`) return { name, reused: true, seconds: 0 };
  const started = Date.now();
  const building = `${name}_building`;
  log(existing === null ? `building ${name} (fingerprint ${print})` : `rebuilding ${name}: its sources changed (fingerprint ${print})`);
  await dropDatabase(building);
  await adminQuery(`CREATE DATABASE "${building}"`);
  await build(databaseUrl(building));
  await dropDatabase(name);
  await adminQuery(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
  await adminQuery(`COMMENT ON DATABASE "${name}" IS 'bench:${print}'`);
  return { name, reused: false, seconds: (Date.now() - started) / 1000 };
}

/** A fresh working copy of a cached database; FILE_COPY is what keeps copying a large Record to seconds. */
export async function cloneDatabase(template: string, name: string): Promise<string> {
  await dropDatabase(name);
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}" STRATEGY = FILE_COPY`);
  return databaseUrl(name);
}

export async function runNode(args: string[], env: Record<string, string>, timeoutMs = 15 * 60_000): Promise<string> {
  const { stdout } = await exec(process.execPath, args, {
    env: { ...process.env, ...env },
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** Migrated database with the demo Record. */
export async function buildDemoRecord(url: string): Promise<void> {
  await runNode(['dist/migrate.mjs'], { DATABASE_URL: url });
  await runNode(['dist/seed-demo.mjs'], { DATABASE_URL: url });
  await analyze(url);
}

/** Migrated database with a generated Record of this size (scripts/generate-record.ts). */
export function buildGeneratedRecord(products: number, signals: number) {
  return async (url: string): Promise<void> => {
    await runNode(['dist/migrate.mjs'], { DATABASE_URL: url });
    const out = await runNode(['--import', 'tsx', 'scripts/generate-record.ts', '--products', String(products), '--signals', String(signals)], { DATABASE_URL: url });
    const line = JSON.parse(out.trim().split('\n').pop()!) as { generated: boolean; reason?: string };
    if (!line.generated) throw new Error(`generate-record failed: ${line.reason}`);
    await analyze(url);
  };
}

/** Planner statistics and the visibility map as a database in service would have them after autovacuum. */
async function analyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
  } finally {
    await client.end();
  }
}
