import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';
import { ConsoleClient } from '@evidence-record/test-support/console-client';
import { addOperator } from '@evidence-record/curation';
import { createConsoleApp, defaultSignInLimits } from '../src/index';

/**
 * Signing in to the review console (issue 26, item 10; decision 1900): no
 * session row exists before a credential is accepted, the sign-in form's CSRF
 * token is bound to a cookie, and attempts are limited per client and per
 * operator across replicas (two console apps over one database), a limited
 * attempt refused without its credential being checked.
 */
let db: TestDatabase;
let pool: Pool;
let replicas: InProcessService[] = [];
const secret = randomBytes(32).toString('hex');

const sessionRows = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM console_sessions')).rows[0]!.n;

function replica(): Promise<InProcessService> {
  return startInProcess('console', db.url, ({ pool: p, log, metrics }) =>
    createConsoleApp({ pool: p, log, metrics, sessionSecret: secret, publicBaseUrl: 'http://127.0.0.1:1', natsUrl: 'nats://127.0.0.1:1', natsPrefix: 'unused' }),
  );
}

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 2 });
  replicas = [await replica(), await replica()];
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  await pool?.end();
  await db?.drop();
});

describe('before sign-in nothing is stored', () => {
  it('anonymous pages, the sign-in form and a refused credential write no session row and set no session cookie', async () => {
    const op = await addOperator(pool, 'Row Counter');
    const browser = new ConsoleClient(replicas[0]!.url);
    expect((await browser.get('/')).location).toBe('/login');
    const form = await browser.get('/login');
    expect(form.status).toBe(200);
    await browser.get('/nothing-here');
    const refused = await browser.post('/login', { _csrf: ConsoleClient.csrfOf(form), credential: `${op.credential.slice(0, -4)}AAAA` });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('That credential is not valid.');
    expect(await sessionRows()).toBe(0);
    expect(browser.cookie('er_console')).toBeUndefined();

    const signedIn = await browser.signIn(op.credential);
    expect([signedIn.status, signedIn.location]).toEqual([303, '/']);
    expect(await sessionRows()).toBe(1);
    expect((await browser.get('/')).status).toBe(200);
    await pool.query('DELETE FROM console_sessions');
  });

  it('the sign-in form is refused without the token bound to its own cookie', async () => {
    const op = await addOperator(pool, 'Form Checker');
    const mine = new ConsoleClient(replicas[0]!.url);
    const theirs = new ConsoleClient(replicas[1]!.url);
    const myToken = ConsoleClient.csrfOf(await mine.get('/login'));
    await theirs.get('/login');
    // Another browser's token, no token, and no cookie at all.
    expect((await theirs.post('/login', { _csrf: myToken, credential: op.credential })).status).toBe(403);
    expect((await mine.post('/login', { credential: op.credential })).status).toBe(403);
    expect((await new ConsoleClient(replicas[0]!.url).post('/login', { _csrf: myToken, credential: op.credential })).status).toBe(403);
    expect(await sessionRows()).toBe(0);
    // The cookie and token work on the other replica too: nothing about them is kept per process.
    const other = new ConsoleClient(replicas[1]!.url);
    const form = await mine.get('/login');
    other.setCookie('er_console_signin', mine.cookie('er_console_signin')!);
    expect((await other.post('/login', { _csrf: ConsoleClient.csrfOf(form), credential: op.credential })).location).toBe('/');
    await pool.query('DELETE FROM console_sessions');
  });
});

describe('sign-in attempts are limited', () => {
  it(`per operator: after ${defaultSignInLimits.perOperator.attempts} attempts in the window the operator's right credential is refused unchecked, on every replica`, async () => {
    await pool.query('DELETE FROM console_sign_in_limits');
    const target = await addOperator(pool, 'Sprayed Operator');
    const bystander = await addOperator(pool, 'Bystander');
    const wrong = `${target.credential.slice(0, -4)}AAAA`;
    for (let i = 0; i < defaultSignInLimits.perOperator.attempts; i++) {
      const browser = new ConsoleClient(replicas[i % 2]!.url);
      expect((await browser.signIn(wrong)).status).toBe(401);
    }
    const limited = await new ConsoleClient(replicas[0]!.url).signIn(target.credential);
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(defaultSignInLimits.perOperator.windowSeconds - 60);
    expect(limited.text).toContain('Too many sign-in attempts');
    expect((await new ConsoleClient(replicas[1]!.url).signIn(target.credential)).status).toBe(429);
    expect(await sessionRows()).toBe(0);
    // Another operator from the same client is checked as usual.
    expect((await new ConsoleClient(replicas[1]!.url).signIn(bystander.credential)).location).toBe('/');
    // A new window: the count starts again.
    await pool.query(`UPDATE console_sign_in_limits SET expire = 0 WHERE key = 'operator:' || $1`, [target.operator_id]);
    expect((await new ConsoleClient(replicas[0]!.url).signIn(target.credential)).location).toBe('/');
  });

  it(`per client: after ${defaultSignInLimits.perClient.attempts} attempts from one address, any credential is refused unchecked`, async () => {
    await pool.query('DELETE FROM console_sign_in_limits');
    const op = await addOperator(pool, 'Client Limited');
    // Malformed credentials name no operator: only the client's count moves.
    for (let i = 0; i < defaultSignInLimits.perClient.attempts; i++) {
      expect((await new ConsoleClient(replicas[i % 2]!.url).signIn(`guess-${i}`)).status).toBe(401);
    }
    const limited = await new ConsoleClient(replicas[1]!.url).signIn(op.credential);
    expect(limited.status).toBe(429);
    expect(limited.retryAfter).not.toBeNull();
    const { rows } = await pool.query<{ key: string; points: number }>('SELECT key, points FROM console_sign_in_limits ORDER BY key');
    // The refused attempt never reached the operator's count (nor the credential check).
    expect(rows.map((r) => r.key)).toEqual(['client:127.0.0.1']);
  });

  it('a successful sign-in does not count against either limit', async () => {
    await pool.query('DELETE FROM console_sign_in_limits');
    const op = await addOperator(pool, 'Often Signs In');
    for (let i = 0; i < defaultSignInLimits.perOperator.attempts + 2; i++) {
      expect((await new ConsoleClient(replicas[i % 2]!.url).signIn(op.credential)).location).toBe('/');
    }
  });
});
