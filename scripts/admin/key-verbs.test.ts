import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { nouns, parseFlags } from '@evidence-record/admin';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * `key revoke|rotate K` take the key id. A whole key on the command line
 * stays in the shell's history and in `ps`, so it is refused (exit 1, a code
 * and a message naming the id to pass) before anything is read or changed.
 */
let db: TestDatabase;
let pool: Pool;
let env: NodeJS.ProcessEnv;
const root = new URL('../../', import.meta.url).pathname;

async function admin(...argv: string[]): Promise<Record<string, unknown>> {
  const [noun, verb, ...rest] = argv;
  const run = nouns.find((n) => n.noun === noun)?.verbs[verb ?? '']?.run;
  if (!run) throw new Error(`no verb ${noun} ${verb}`);
  return run({ pool, flags: parseFlags(rest), env, onClose: () => undefined });
}

/** The CLI as a process, for its exit code and its one line of JSON. */
function cli(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, operatorCliArgs([...args, '--json']), { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, ER_RUN_DIR: '/nonexistent' }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, json: JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>, stderr });
    });
  });
}

async function issued(): Promise<{ key: string; keyId: string }> {
  const org = await admin('org', 'create', '--name', `keys ${Math.random().toString(36).slice(2, 8)}`, '--plan', 'free');
  const k = await admin('key', 'issue', '--org', String(org.org_id), '--scopes', 'products:read');
  return { key: String(k.key), keyId: String(k.key_id) };
}

const revokedAt = async (keyId: string) => (await pool.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE key_id = $1', [keyId])).rows[0]!.revoked_at;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 2 });
  env = { DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: isolationPrefix('keyverbs').redisPrefix };
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('key verbs take a key id, never a whole key', () => {
  it('refuses a whole key for revoke and rotate, changing nothing, and says which id to pass', async () => {
    const k = await issued();
    for (const verb of ['revoke', 'rotate', 'suspend', 'show']) {
      await expect(admin('key', verb, k.key)).rejects.toMatchObject({ code: 'whole_key_refused', message: expect.stringContaining(`pass the key id (${k.keyId})`) });
    }
    expect(await revokedAt(k.keyId)).toBeNull();
    expect((await pool.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n).toBe(1);
    // A mistyped key is still secret material: refused the same way, without an id to offer.
    await expect(admin('key', 'revoke', `${k.key.slice(0, -3)}`)).rejects.toMatchObject({ code: 'whole_key_refused' });

    const rotated = await admin('key', 'rotate', k.keyId);
    expect(rotated.replaces).toBe(k.keyId);
    expect(await revokedAt(k.keyId)).not.toBeNull();
    const revoked = await admin('key', 'revoke', String(rotated.key_id));
    expect(revoked.key_id).toBe(rotated.key_id);
  });

  it('the CLI process exits 1 with {"error":"whole_key_refused"} and never echoes the secret', async () => {
    const k = await issued();
    const run = await cli('key', 'revoke', k.key);
    expect(run.code).toBe(1);
    expect(run.json.error).toBe('whole_key_refused');
    expect(String(run.json.message)).toContain(k.keyId);
    const secret = k.key.split('_').pop()!;
    expect(JSON.stringify(run.json) + run.stderr).not.toContain(secret);
    expect(await revokedAt(k.keyId)).toBeNull();
  }, 60_000);
});
