import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';
import { ConsoleClient } from '@evidence-record/test-support/console-client';
import { waitFor } from '@evidence-record/test-support/wait';
import { addOperator } from '@evidence-record/curation';
import { createConsoleApp, type SessionLifetimes } from '../src/index';

/**
 * A console session lives only while its operator is enabled, and never
 * longer than its idle or absolute lifetime (issue 26, item 1; decision
 * 1900). Every request re-reads the operator, so a disabled operator is
 * signed out on their next request even when their session row survived.
 */
let db: TestDatabase;
let pool: Pool;
const running: InProcessService[] = [];
const secret = randomBytes(32).toString('hex');

async function consoleWith(sessionLifetimes?: SessionLifetimes): Promise<InProcessService> {
  const c = await startInProcess('console', db.url, ({ pool: p, log, metrics }) =>
    createConsoleApp({ pool: p, log, metrics, sessionSecret: secret, publicBaseUrl: 'http://127.0.0.1:1', natsUrl: 'nats://127.0.0.1:1', natsPrefix: 'unused', ...(sessionLifetimes ? { sessionLifetimes } : {}) }),
  );
  running.push(c);
  return c;
}

async function signedIn(base: string, name: string): Promise<{ browser: ConsoleClient; operatorId: string }> {
  const op = await addOperator(pool, name);
  const browser = new ConsoleClient(base);
  expect((await browser.signIn(op.credential)).location).toBe('/');
  expect((await browser.get('/')).status).toBe(200);
  return { browser, operatorId: op.operator_id };
}

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 2 });
});

afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await pool?.end();
  await db?.drop();
});

describe('a console session and its operator', () => {
  it('a session whose operator is disabled ends on its next request, on any replica, even if its row was not deleted', async () => {
    const [a, b] = [await consoleWith(), await consoleWith()];
    const { browser, operatorId } = await signedIn(a.url, 'Rechecked Operator');
    const onB = new ConsoleClient(b.url);
    onB.setCookie('er_console', browser.cookie('er_console')!);
    expect((await onB.get('/release')).status).toBe(200);

    await pool.query('UPDATE operators SET disabled_at = now() WHERE operator_id = $1', [operatorId]);
    const next = await onB.get('/release');
    expect([next.status, next.location]).toEqual([303, '/login?ended=disabled']);
    expect((await onB.get('/login?ended=disabled')).text).toContain('this operator is disabled');
    // The session is gone for every replica, and a form posted with it does nothing.
    expect((await browser.get('/')).location).toBe('/login');
    const { rows } = await pool.query(`SELECT 1 FROM console_sessions WHERE sess->'operator'->>'operator_id' = $1`, [operatorId]);
    expect(rows).toHaveLength(0);
  });

  it('a session ends at its absolute lifetime however active it is', async () => {
    const c = await consoleWith({ idleMs: 60_000, absoluteMs: 2_000 });
    const { browser } = await signedIn(c.url, 'Busy Operator');
    const started = Date.now();
    // A request every 200 ms keeps it from ever being idle.
    const ended = await waitFor('the absolute lifetime', async () => {
      const p = await browser.get('/');
      return p.status === 303 ? p : null;
    }, 10_000, 200);
    expect(ended.location).toBe('/login?ended=expired');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    // Ended for good: the row is gone.
    expect((await browser.get('/')).location).toBe('/login');
    expect((await pool.query(`SELECT 1 FROM console_sessions WHERE sess->'operator'->>'name' = 'Busy Operator'`)).rows).toHaveLength(0);
  });

  it('a session ends after its idle lifetime without a request', async () => {
    const c = await consoleWith({ idleMs: 1_000, absoluteMs: 60_000 });
    const { browser } = await signedIn(c.url, 'Idle Operator');
    // The row expires (by the console's clock, which the store compares with) at most the idle lifetime from now.
    const { rows } = await pool.query<{ expires: string; expire_ms: number }>(`SELECT sess->'cookie'->>'expires' AS expires, extract(epoch FROM expire) * 1000 AS expire_ms FROM console_sessions WHERE sess->'operator'->>'name' = 'Idle Operator'`);
    expect(rows).toHaveLength(1);
    expect(Date.parse(rows[0]!.expires) - Date.now()).toBeLessThanOrEqual(1_000);
    expect(Math.abs(Number(rows[0]!.expire_ms) - Date.parse(rows[0]!.expires))).toBeLessThan(1_000);
    // The store compares whole seconds (connect-pg-simple rounds both instants up), so a row outlives its expiry by under a second.
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await browser.get('/')).location).toBe('/login');
  });

  it('a session from before sign-in times existed is treated as expired', async () => {
    const c = await consoleWith();
    const { browser } = await signedIn(c.url, 'Old Session');
    await pool.query(`UPDATE console_sessions SET sess = (sess::jsonb - 'signedInAt')::json`);
    expect((await browser.get('/')).location).toBe('/login?ended=expired');
  });
});
