import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { createConsoleApp } from '@evidence-record/console';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';
import { ConsoleClient } from '@evidence-record/test-support/console-client';
import { UsageError, nouns, parseFlags } from '@evidence-record/admin';

/**
 * `operator list|disable|enable --json` (issue 26, item 1), run in-process as
 * `npm run -s admin` runs them, against two console replicas over the same
 * database: disabling an operator ends every console session of theirs at
 * once, on every replica, and refuses their credential until `enable`.
 */
let db: TestDatabase;
let pool: Pool;
let replicas: InProcessService[] = [];

async function admin(...argv: string[]): Promise<Record<string, unknown>> {
  const [noun, verb, ...rest] = argv;
  const run = nouns.find((n) => n.noun === noun)?.verbs[verb ?? '']?.run;
  if (!run) throw new Error(`no verb ${noun} ${verb}`);
  return run({ pool, flags: parseFlags(rest), env: { DATABASE_URL: db.url }, onClose: () => undefined });
}

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 2 });
  const secret = randomBytes(32).toString('hex');
  const replica = () =>
    startInProcess('console', db.url, ({ pool: p, log, metrics }) => createConsoleApp({ pool: p, log, metrics, sessionSecret: secret, publicBaseUrl: 'http://127.0.0.1:1', natsUrl: 'nats://127.0.0.1:1', natsPrefix: 'unused' }));
  replicas = [await replica(), await replica()];
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  await pool?.end();
  await db?.drop();
});

describe('operator verbs', () => {
  it('lists operators with their sessions; disable ends them at once on every replica and refuses the credential; enable lets it in again', async () => {
    const dana = await admin('operator', 'add', '--name', 'Dana Reviewer');
    const lee = await admin('operator', 'add', '--name', 'Lee Releaser');
    const credential = String(dana.credential);
    const laptop = new ConsoleClient(replicas[0]!.url);
    const desktop = new ConsoleClient(replicas[1]!.url);
    for (const browser of [laptop, desktop]) expect((await browser.signIn(credential)).location).toBe('/');
    const colleague = new ConsoleClient(replicas[0]!.url);
    expect((await colleague.signIn(String(lee.credential))).location).toBe('/');

    const listed = (await admin('operator', 'list')).operators as Array<Record<string, unknown>>;
    expect(listed.map((o) => [o.name, o.status, o.sessions])).toEqual([
      ['Dana Reviewer', 'active', 2],
      ['Lee Releaser', 'active', 1],
    ]);
    expect(Object.keys(listed[0]!).sort()).toEqual(['created_at', 'disabled_at', 'last_action_at', 'name', 'operator_id', 'sessions', 'status']);
    expect(JSON.stringify(listed)).not.toContain(credential.split('_').pop()!);

    const disabled = await admin('operator', 'disable', String(dana.operator_id));
    expect(disabled).toMatchObject({ operator_id: dana.operator_id, name: 'Dana Reviewer', sessions_ended: 2 });
    expect(disabled.disabled_at).toBeInstanceOf(Date);
    // At once: the very next request of each browser is signed out; the colleague is not.
    for (const browser of [laptop, desktop]) expect((await browser.get('/release')).location).toBe('/login');
    expect((await colleague.get('/release')).status).toBe(200);
    expect((await new ConsoleClient(replicas[1]!.url).signIn(credential)).status).toBe(401);
    // Disabling again keeps the first time.
    expect((await admin('operator', 'disable', '--name', 'Dana Reviewer')).disabled_at).toEqual(disabled.disabled_at);
    expect(((await admin('operator', 'list')).operators as Array<Record<string, unknown>>)[0]).toMatchObject({ status: 'disabled', sessions: 0 });

    expect(await admin('operator', 'enable', '--name', 'Dana Reviewer')).toEqual({ operator_id: dana.operator_id, name: 'Dana Reviewer', disabled_at: null });
    expect((await laptop.signIn(credential)).location).toBe('/');
    expect((await laptop.get('/release')).status).toBe(200);
  });

  it('names the operator by id or --name, refuses an unknown one and a malformed command line', async () => {
    await expect(admin('operator', 'disable', 'op_000000000000')).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin('operator', 'enable', '--name', 'Nobody')).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin('operator', 'disable')).rejects.toBeInstanceOf(UsageError);
    await expect(admin('operator', 'disable', 'dana')).rejects.toBeInstanceOf(UsageError);
    await expect(admin('operator', 'disable', 'op_000000000000', '--name', 'Dana Reviewer')).rejects.toBeInstanceOf(UsageError);
  });
});
