import express, { type NextFunction, type Request, type Response } from 'express';
import { utcToday } from '@evidence-record/curation';
import { createServiceApp, recordServiceOptions, type Logger, type Metrics, type Pool } from '@evidence-record/platform';
import { html, page } from './html';
import { pageKit } from './kit';
import { csrfGuard, favicon, loopbackIsSecure, requireOperator, securityHeaders } from './middleware';
import { candidatePage } from './pages/candidate';
import { contextPages } from './pages/context';
import { editionsPage } from './pages/editions';
import { evidencePage } from './pages/evidence';
import { ingredientPages } from './pages/ingredients';
import { queuePage } from './pages/queue';
import { releasePage } from './pages/release';
import { signalsPage } from './pages/signals';
import { sourcesPage } from './pages/sources';
import { consoleSessions, defaultSessionLifetimes, liveOperator, SESSION_COOKIE, type SessionLifetimes } from './sessions';
import { defaultSignInLimits, mountSignIn, type SignInLimits } from './sign-in';

export interface ConsoleOptions {
  pool: Pool;
  log: Logger;
  metrics: Metrics;
  sessionSecret: string;
  publicBaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  /** NATS_STREAM_REPLICAS: replicas of the streams if a release creates them (existing ones keep theirs). */
  natsStreamReplicas?: number;
  /** `trust proxy` for a console behind a TLS-terminating proxy (X-Forwarded-Proto: https). */
  trustProxy?: boolean | string | number;
  /** Idle and absolute session lifetimes (defaults: 30 minutes, 8 hours). */
  sessionLifetimes?: SessionLifetimes;
  /** Sign-in attempts per client and per operator (defaults in sign-in.ts). */
  signInLimits?: SignInLimits;
  /** The clock the pages read (tests fix it); the system clock by default. */
  now?: () => Date;
}

/**
 * The review console: what the curation verbs do, in a browser. Every action
 * goes through the curation library (the one implementation the CLI uses) and
 * is recorded with the signed-in operator's name. This file only composes:
 * the middleware is middleware.ts, the page frame and helpers kit.ts, each
 * page (with its routes) a module under pages/, the console's own reads
 * queries/.
 */
export function createConsoleApp(o: ConsoleOptions): express.Express {
  const app = createServiceApp(recordServiceOptions({ name: 'console', log: o.log, metrics: o.metrics, pool: o.pool }));
  if (o.trustProxy !== undefined) app.set('trust proxy', o.trustProxy);
  app.use(express.urlencoded({ extended: false, limit: 8192, parameterLimit: 200 }));
  app.use(securityHeaders());
  app.use(favicon());
  app.use(loopbackIsSecure());
  const lifetimes = o.sessionLifetimes ?? defaultSessionLifetimes;
  app.use(consoleSessions(o.pool, o.sessionSecret, lifetimes));
  app.use(liveOperator(o.pool, lifetimes, o.log));
  mountSignIn(app, { pool: o.pool, log: o.log, secret: o.sessionSecret, limits: o.signInLimits ?? defaultSignInLimits });
  const csrf = csrfGuard();
  app.use(csrf.guard);

  app.post('/logout', (req, res) => {
    req.session.destroy(() => {
      res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
      res.redirect(303, '/login');
    });
  });

  // Everything below needs a signed-in operator.
  app.use(requireOperator());
  const now = o.now ?? (() => new Date());
  const kit = pageKit({ pool: o.pool, log: o.log, csrfToken: csrf.token, now, today: () => utcToday(now()) });
  const publishTo = { publicBaseUrl: o.publicBaseUrl, natsUrl: o.natsUrl, natsPrefix: o.natsPrefix, natsStreamReplicas: o.natsStreamReplicas };
  app.use(queuePage(kit));
  app.use(candidatePage(kit));
  app.use(evidencePage(kit));
  app.use(releasePage(kit, publishTo));
  app.use(signalsPage(kit, publishTo));
  app.use(editionsPage(kit));
  app.use(sourcesPage(kit));
  app.use(contextPages(kit));
  app.use(ingredientPages(kit));

  app.use((req, res) => {
    res.status(404).type('html').send(page('Not found', html`<p>Nothing here.</p>`, { operator: req.session?.operator?.name ?? null }));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    o.log.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err), path: req.route?.path }, 'console error');
    res.status(500).type('html').send(page('Something went wrong', html`<p>The action failed on our side and was not completed. It is in the console's log.</p>`));
  });
  return app;
}
