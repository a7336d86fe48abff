import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

const exec = promisify(execFile);

/**
 * What one operator CLI call loads (decision 0001): a verb that reaches no
 * NATS server, Redis or source loads neither nats.js, ioredis nor undici,
 * which `onFirstUse` (platform) loads at their first use; a verb that does
 * reach one loads its client then. The CLI runs as an operator runs it (its
 * own process; the run's bundle when there is one), with a preloaded hook
 * that prints the CommonJS modules loaded by the time it exits.
 */
const root = new URL('../../', import.meta.url).pathname;
let db: TestDatabase;
let dir: string;
let hook: string;

beforeAll(async () => {
  db = await emptyDatabase();
  dir = await mkdtemp(join(tmpdir(), 'er-cli-start-'));
  hook = join(dir, 'loaded.cjs');
  await writeFile(hook, "process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));\n");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await db?.drop();
});

/** The packages (under node_modules) a CLI call had loaded when it exited, and its JSON answer. */
async function packagesLoadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ packages: Set<string>; answer: Record<string, unknown> }> {
  const run = await exec(process.execPath, ['--require', hook, ...operatorCliArgs([...args, '--json'])], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ER_RUN_DIR: dir, DATABASE_URL: db.url, ...env },
  }).catch((err: { stdout: string; stderr: string }) => err);
  const line = run.stderr.split('\n').find((l) => l.startsWith('LOADED '));
  if (!line) throw new Error(`no list of loaded modules: ${run.stderr.slice(0, 500)}`);
  const packages = new Set((JSON.parse(line.slice('LOADED '.length)) as string[]).flatMap((file) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.slice(1, 2) ?? []));
  return { packages, answer: JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown> };
}

it('plan list reads Postgres and loads no NATS, Redis or HTTP client', async () => {
  const { packages, answer } = await packagesLoadedBy(['plan', 'list']);
  expect(answer.plans, JSON.stringify(answer)).toBeInstanceOf(Array);
  expect(packages.has('pg')).toBe(true);
  for (const client of ['nats', 'ioredis', 'undici']) expect(packages.has(client), client).toBe(false);
});

it('outbox drain loads nats.js when it reaches for NATS (here: nothing listens, a refusal)', async () => {
  const { packages, answer } = await packagesLoadedBy(['outbox', 'drain'], { NATS_URL: 'nats://127.0.0.1:1' });
  expect(JSON.stringify(answer)).toMatch(/nats|unreachable/i);
  expect(packages.has('nats')).toBe(true);
  expect(packages.has('ioredis')).toBe(false);
});
