import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import type { Logger, Pool, PoolClient } from '@evidence-record/platform';

/**
 * Who a session is signed in as: an operator's id and name (operators.ts
 * finds and checks them; the session only carries them). Defined here so the
 * sessions need nothing of operators.ts, which ends an operator's sessions.
 */
export interface Operator {
  operator_id: string;
  name: string;
}

declare module 'express-session' {
  interface SessionData {
    operator?: Operator;
    /** When the operator signed in (ms): the absolute lifetime counts from here, however active the session. */
    signedInAt?: number;
    flash?: { kind: 'ok' | 'err'; text: string };
  }
}

/**
 * How long a console session lives (docs/decisions/1900-console-sessions.md):
 * it ends after `idleMs` without a request, and `absoluteMs` after sign-in
 * whatever the activity, so a stolen or forgotten session has a bounded use.
 */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

export const defaultSessionLifetimes: SessionLifetimes = { idleMs: 30 * 60_000, absoluteMs: 8 * 3600_000 };

/** Why a signed-in session was ended by the console; the sign-in page says so. */
export type SessionEnd = 'disabled' | 'expired';

export const SESSION_COOKIE = 'er_console';

const ABSOLUTE_END_NOTICE_MS = 60_000;

/**
 * Sessions in Postgres (connect-pg-simple), shared by every console replica.
 * Nothing is stored before sign-in (saveUninitialized: false, and no page an
 * anonymous visitor sees writes to the session), so an anonymous request
 * never writes a row. The idle lifetime is the row's expiry, renewed on each
 * request (rolling) but never past the absolute end (see liveOperator).
 */
export function consoleSessions(pool: Pool, secret: string, lifetimes: SessionLifetimes): RequestHandler {
  const PgStore = connectPgSimple(session);
  return session({
    name: SESSION_COOKIE,
    secret,
    store: new PgStore({ pool, tableName: 'console_sessions', createTableIfMissing: false, pruneSessionInterval: 600 }),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    cookie: { httpOnly: true, secure: true, sameSite: 'strict', path: '/', maxAge: lifetimes.idleMs },
  });
}

/** Starts a signed-in session: a new session id (no fixation), the operator, and the time the absolute lifetime counts from. */
export function startSession(req: Request, op: Operator, now = Date.now()): Promise<void> {
  return new Promise((resolve, reject) => {
    req.session.regenerate((err) => {
      if (err) return reject(err instanceof Error ? err : new Error(String(err)));
      req.session.operator = op;
      req.session.signedInAt = now;
      resolve();
    });
  });
}

/**
 * Every request of a signed-in session re-reads its operator: a disabled (or
 * deleted) operator's session ends on its next request, whichever replica
 * serves it, and so does one past its absolute lifetime. One primary-key
 * read per request, no cache: a curator console serves a handful of people,
 * and a cache would be a window in which a disabled operator still acts.
 */
export function liveOperator(pool: Pool, lifetimes: SessionLifetimes, log: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const op = req.session?.operator;
    if (!op) return next();
    const now = Date.now();
    const end = (why: SessionEnd) =>
      req.session.destroy((err) => {
        if (err) log.error({ err: String(err) }, 'session destroy failed');
        res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
        res.redirect(303, `/login?ended=${why}`);
      });
    const signedInAt = req.session.signedInAt;
    // A session without a sign-in time predates the absolute lifetime: it is treated as expired.
    if (typeof signedInAt !== 'number' || now - signedInAt >= lifetimes.absoluteMs) return end('expired');
    pool
      .query<{ name: string }>({ name: 'console-live-operator', text: 'SELECT name FROM operators WHERE operator_id = $1 AND disabled_at IS NULL', values: [op.operator_id] })
      .then(({ rows }) => {
        if (!rows[0]) return end('disabled');
        // Rolling, but not much past the absolute end: the row and the cookie outlive it by a minute at most,
        // long enough for the next request to be told why it was signed out (the check above refuses it).
        req.session.cookie.maxAge = Math.min(lifetimes.idleMs, signedInAt + lifetimes.absoluteMs - now + ABSOLUTE_END_NOTICE_MS);
        next();
      })
      .catch(next);
  };
}

/** Ends every console session of one operator (inside the caller's transaction); how many there were. */
export async function endOperatorSessions(client: Pool | PoolClient, operatorId: string): Promise<number> {
  const { rowCount } = await client.query(`DELETE FROM console_sessions WHERE sess->'operator'->>'operator_id' = $1`, [operatorId]);
  return rowCount ?? 0;
}
