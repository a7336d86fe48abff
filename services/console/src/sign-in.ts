import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type express from 'express';
import type { Request, Response } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger, Pool } from '@evidence-record/platform';
import { html, page } from './html';
import { credentialOperatorId, verifyCredential } from '@evidence-record/curation';
import { startSession, type SessionEnd } from './sessions';

/**
 * Signing in (docs/decisions/1900-console-sessions.md). Nothing is stored
 * before a credential is accepted: the sign-in form's CSRF token is a signed
 * double-submit cookie (no server state), a refused attempt re-renders the
 * form instead of flashing through a session, and the session row is written
 * only by startSession. Attempts are counted in Postgres, so every console
 * replica sees the same counts: per client address and per operator the
 * credential names, in fixed windows; an attempt over either limit is
 * refused before the credential is looked at.
 */
export interface SignInLimit {
  attempts: number;
  windowSeconds: number;
}

export interface SignInLimits {
  perClient: SignInLimit;
  perOperator: SignInLimit;
}

export const defaultSignInLimits: SignInLimits = {
  perClient: { attempts: 20, windowSeconds: 900 },
  perOperator: { attempts: 10, windowSeconds: 900 },
};

export interface SignInOptions {
  pool: Pool;
  log: Logger;
  /** The session secret; the form token's HMAC key (under its own purpose string). */
  secret: string;
  limits: SignInLimits;
}

const FORM_COOKIE = 'er_console_signin';
const PURPOSE = 'er-console-sign-in-v1\n';
const FORM_COOKIE_SECONDS = 3600;

const ended: Record<SessionEnd, string> = {
  disabled: 'Your session was ended: this operator is disabled.',
  expired: 'Your session reached its time limit. Sign in again.',
};

export function mountSignIn(app: express.Express, o: SignInOptions): void {
  const limiter = (name: string, l: SignInLimit) =>
    new RateLimiterPostgres({ storeClient: o.pool, tableName: 'console_sign_in_limits', tableCreated: true, keyPrefix: name, points: l.attempts, duration: l.windowSeconds });
  const perClient = limiter('client', o.limits.perClient);
  const perOperator = limiter('operator', o.limits.perOperator);

  const formToken = (nonce: string) => createHmac('sha256', o.secret).update(PURPOSE + nonce).digest('base64url');

  const form = (req: Request, res: Response, status: number, notice: { kind: 'ok' | 'err'; text: string } | null) => {
    // One nonce per browser, kept while it is valid, so two open tabs both sign in.
    let nonce = readCookie(req, FORM_COOKIE);
    if (!nonce || !/^[A-Za-z0-9_-]{43}$/.test(nonce)) {
      nonce = randomBytes(32).toString('base64url');
      res.cookie(FORM_COOKIE, nonce, { httpOnly: true, secure: true, sameSite: 'strict', path: '/login', maxAge: FORM_COOKIE_SECONDS * 1000 });
    }
    res
      .status(status)
      .type('html')
      .send(
        page('Sign in', html`<form method="post" action="/login" style="max-width:28rem"><input type="hidden" name="_csrf" value="${formToken(nonce)}">
<label>Operator credential (from <code>admin operator add</code>)<input type="password" name="credential" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>`, { flash: notice }),
      );
  };

  app.get('/login', (req, res) => {
    const why = typeof req.query.ended === 'string' && req.query.ended in ended ? (req.query.ended as SessionEnd) : null;
    form(req, res, 200, why ? { kind: 'err', text: ended[why] } : null);
  });

  app.post('/login', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const nonce = readCookie(req, FORM_COOKIE) ?? '';
    const presented = Buffer.from(String(body._csrf ?? ''), 'utf8');
    const expected = Buffer.from(formToken(nonce), 'utf8');
    if (!nonce || presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      res.status(403).type('html').send(page('Refused', html`<p>The sign-in form was stale or not from this console (CSRF check). <a href="/login">Reload it</a> and try again.</p>`));
      return;
    }

    const credential = String(body.credential ?? '');
    const operatorId = credentialOperatorId(credential);
    const spent: Array<[RateLimiterPostgres, string]> = [];
    for (const [bucket, key] of [[perClient, req.ip ?? 'unknown'], [perOperator, operatorId]] as const) {
      if (key === null) continue;
      try {
        await bucket.consume(key);
        spent.push([bucket, key]);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        o.log.warn({ limit: bucket === perClient ? 'client' : 'operator', operator_id: operatorId }, 'console sign-in limited');
        res.set('Retry-After', String(seconds));
        form(req, res, 429, { kind: 'err', text: `Too many sign-in attempts. Try again in ${Math.ceil(seconds / 60)} minute(s).` });
        return;
      }
    }

    const op = await verifyCredential(o.pool, credential);
    if (!op) {
      form(req, res, 401, { kind: 'err', text: 'That credential is not valid.' });
      return;
    }
    // A sign-in that succeeds does not count against either limit.
    await Promise.all(spent.map(([bucket, key]) => bucket.reward(key, 1)));
    await startSession(req, op);
    req.session.flash = { kind: 'ok', text: `Signed in as ${op.name}.` };
    res.clearCookie(FORM_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: '/login' });
    // Saved before the redirect: a browser follows a redirect on its headers and could ask before the save.
    req.session.save((err) => {
      if (err) o.log.error({ err: String(err) }, 'session save failed');
      res.redirect(303, '/');
    });
  });
}

/** One cookie's value from the Cookie header (the console sets no other cookie it reads without express-session). */
function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
