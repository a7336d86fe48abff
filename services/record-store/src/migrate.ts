import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';

/**
 * Where the SQL migrations are: services/record-store/migrations beside these sources in the repo,
 * dist/migrations beside the bundle in an image (scripts/build.mjs copies them there).
 */
export function migrationsDir(): string {
  if (process.env.MIGRATIONS_DIR) return process.env.MIGRATIONS_DIR;
  const candidates = [new URL('../migrations', import.meta.url), new URL('./migrations', import.meta.url)];
  for (const c of candidates) {
    const p = fileURLToPath(c);
    if (existsSync(p)) return p;
  }
  throw new Error('migrations directory not found; set MIGRATIONS_DIR');
}

/** Applies pending migrations (node-pg-migrate takes an advisory lock, so concurrent runs are safe). */
export async function runMigrations(databaseUrl: string, log: (msg: string) => void = () => undefined): Promise<string[]> {
  const applied = await runner({
    databaseUrl,
    dir: migrationsDir(),
    direction: 'up',
    migrationsTable: 'pgmigrations',
    checkOrder: true,
    verbose: false,
    log,
    logger: { debug: () => undefined, info: log, warn: log, error: log },
  });
  return applied.map((m) => m.name);
}
