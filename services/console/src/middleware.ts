import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { csrfSync } from 'csrf-sync';
import { html, page } from './html';

/** The console's own policy: nothing but its inline style and its own images (the favicon), forms only to itself. */
export const CONSOLE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'";

/** Never framed, never cached, no referrer leaves it. */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.set({ 'X-Frame-Options': 'DENY', 'Content-Security-Policy': CONSOLE_CSP, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    next();
  };
}

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The session cookie is always Secure. A browser on this machine reaching the console over loopback
 * (npm run up, kubectl port-forward) is in a secure context and keeps Secure cookies from
 * http://127.0.0.1, so a loopback connection counts as secure; anything else needs TLS (or a
 * trusted proxy saying X-Forwarded-Proto: https) or no cookie is set at all.
 */
export function loopbackIsSecure(): RequestHandler {
  return (req, _res, next) => {
    if (!req.secure && loopback.has(req.socket.remoteAddress ?? '')) Object.defineProperty(req, 'secure', { value: true });
    next();
  };
}

/** Every POST carries the session's CSRF token in its form; the guard and the token maker for the forms. */
export function csrfGuard(): { guard: RequestHandler; token: (req: Request) => string } {
  const { csrfSynchronisedProtection, generateToken } = csrfSync({ getTokenFromRequest: (req) => (req.body as Record<string, string> | undefined)?._csrf });
  const guard: RequestHandler = (req, res, next) => {
    if (req.method !== 'POST') {
      next();
      return;
    }
    csrfSynchronisedProtection(req, res, (err?: unknown) => {
      if (err) {
        res.status(403).type('html').send(page('Refused', html`<p>The form was stale or not from this console (CSRF check). Go back, reload and try again.</p>`));
        return;
      }
      next();
    });
  };
  return { guard, token: (req) => generateToken(req) };
}

/** Everything mounted after this needs a signed-in operator. */
export function requireOperator(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.session.operator) {
      res.redirect(303, '/login');
      return;
    }
    next();
  };
}

/** The console's mark: a small SVG, served from itself (img-src 'self'), before any session is read. */
const FAVICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d2433"/><path d="M4 4h8v2H6v1.5h5v2H6V11h6v2H4z" fill="#cfe0ff"/></svg>',
  'utf8',
);

export function favicon(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    if (req.path !== '/favicon.svg' && req.path !== '/favicon.ico') {
      next();
      return;
    }
    // Served to anyone (the sign-in page shows it too); it says nothing about the Record.
    res.set({ 'Content-Type': 'image/svg+xml', 'X-Content-Type-Options': 'nosniff' }).send(FAVICON);
  };
}
