import type { Request, Response } from 'express';
import { CurationRefused } from '@evidence-record/curation';
import type { Logger, Pool } from '@evidence-record/platform';
import { html, page, type Safe } from './html';
import { recordAction, type Operator } from './operators';

/** What an action did, as its flash says it; `to` is where the browser goes next (else back). */
export interface ActionOutcome {
  text: string;
  detail?: Record<string, unknown>;
  to?: string;
}

/**
 * What every console page needs of the app that mounts it: the pool, the
 * page frame, the form helpers and the recorded action. app.ts builds one
 * kit; each module under pages/ mounts its routes with it, so every page
 * behaves as every other does.
 */
export interface PageKit {
  pool: Pool;
  /** Today's UTC date (YYYY-MM-DD): the ledger's "today", as the API reads it. */
  today: () => string;
  now: () => Date;
  send: (req: Request, res: Response, title: string, body: Safe) => void;
  notFound: (req: Request, res: Response, body: Safe) => void;
  csrfField: (req: Request) => Safe;
  field: (req: Request, name: string) => string;
  /** The signed-in operator (every page route is behind requireOperator). */
  who: (req: Request) => Operator;
  /** Runs a curation action, records it with the operator's name, and flashes its outcome. */
  act: (
    action: string,
    target: (req: Request) => string | null,
    run: (req: Request, op: Operator) => Promise<ActionOutcome>,
    back: (req: Request) => string,
  ) => (req: Request, res: Response) => Promise<void>;
}

export interface KitOptions {
  pool: Pool;
  log: Logger;
  csrfToken: (req: Request) => string;
  today: () => string;
  now: () => Date;
}

export function pageKit(o: KitOptions): PageKit {
  // express-session saves a changed session only as the response ends, after the headers: a browser
  // follows a redirect on its headers and could read the session before the save. Save first.
  const redirect = (req: Request, res: Response, to: string) => {
    req.session.save((err) => {
      if (err) o.log.error({ err: String(err) }, 'session save failed');
      res.redirect(303, to);
    });
  };
  const flashOf = (req: Request) => {
    const f = req.session.flash ?? null;
    delete req.session.flash;
    return f;
  };
  const who = (req: Request) => req.session.operator!;
  return {
    pool: o.pool,
    today: o.today,
    now: o.now,
    send: (req, res, title, body) => {
      res.type('html').send(page(title, body, { operator: req.session.operator?.name ?? null, flash: flashOf(req), csrf: o.csrfToken(req) }));
    },
    notFound: (req, res, body) => {
      res.status(404).type('html').send(page('Not found', body, { operator: req.session?.operator?.name ?? null }));
    },
    csrfField: (req) => html`<input type="hidden" name="_csrf" value="${o.csrfToken(req)}">`,
    field: (req, name) => String((req.body as Record<string, unknown>)[name] ?? ''),
    who,
    act: (action, target, run, back) => async (req, res) => {
      const op = who(req);
      try {
        const out = await run(req, op);
        await recordAction(o.pool, op, action, target(req), 'done', out.detail ?? {});
        req.session.flash = { kind: 'ok', text: out.text };
        redirect(req, res, out.to ?? back(req));
      } catch (err) {
        if (!(err instanceof CurationRefused)) throw err;
        await recordAction(o.pool, op, action, target(req), 'refused', { code: err.code, message: err.message });
        req.session.flash = { kind: 'err', text: `Refused (${err.code}): ${err.message}` };
        redirect(req, res, back(req));
      }
    },
  };
}
