import express, { type NextFunction, type Request, type Response } from 'express';
import { csrfSync } from 'csrf-sync';
import {
  CurationRefused,
  approveCandidate,
  closeEdition,
  correctSignal,
  listEditions,
  listReleasedSignals,
  listUnreleasedSignals,
  openCandidateQueue,
  openEdition,
  refuseCandidate,
  releaseSignals,
  showCandidate,
  sourceHealth,
  withdrawSignal,
} from '@evidence-record/curation';
import { createServiceApp, recordServiceOptions, type Logger, type Metrics, type Pool } from '@evidence-record/platform';
import { publishNow } from '@evidence-record/signals';
import { html, page, type Safe } from './html';
import { ingredientPages } from './ingredients';
import { recordAction, type Operator } from './operators';
import { consoleSessions, defaultSessionLifetimes, liveOperator, SESSION_COOKIE, type SessionLifetimes } from './sessions';
import { defaultSignInLimits, mountSignIn, type SignInLimits } from './sign-in';
import { contextPages } from './context-pages';

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
}

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The review console: what the curation verbs do, in a browser. Every action
 * goes through the curation library (the one implementation the CLI uses) and
 * is recorded with the signed-in operator's name.
 */
export function createConsoleApp(o: ConsoleOptions): express.Express {
  const app = createServiceApp(recordServiceOptions({ name: 'console', log: o.log, metrics: o.metrics, pool: o.pool }));
  if (o.trustProxy !== undefined) app.set('trust proxy', o.trustProxy);
  app.use(express.urlencoded({ extended: false, limit: 8192, parameterLimit: 200 }));
  app.use((_req, res, next) => {
    // Never framed, never cached, no referrer leaves it.
    res.set({ 'X-Frame-Options': 'DENY', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'", 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    next();
  });
  // The session cookie is always Secure. A browser on this machine reaching the console over loopback
  // (npm run up, kubectl port-forward) is in a secure context and keeps Secure cookies from
  // http://127.0.0.1, so a loopback connection counts as secure; anything else needs TLS (or a
  // trusted proxy saying X-Forwarded-Proto: https) or no cookie is set at all.
  app.use((req, _res, next) => {
    if (!req.secure && loopback.has(req.socket.remoteAddress ?? '')) Object.defineProperty(req, 'secure', { value: true });
    next();
  });
  const lifetimes = o.sessionLifetimes ?? defaultSessionLifetimes;
  app.use(consoleSessions(o.pool, o.sessionSecret, lifetimes));
  app.use(liveOperator(o.pool, lifetimes, o.log));
  mountSignIn(app, { pool: o.pool, log: o.log, secret: o.sessionSecret, limits: o.signInLimits ?? defaultSignInLimits });
  const { csrfSynchronisedProtection, generateToken } = csrfSync({ getTokenFromRequest: (req) => (req.body as Record<string, string> | undefined)?._csrf });
  app.use((req, res, next) => {
    if (req.method === 'POST') {
      csrfSynchronisedProtection(req, res, (err?: unknown) => {
        if (err) {
          res.status(403).type('html').send(page('Refused', html`<p>The form was stale or not from this console (CSRF check). Go back, reload and try again.</p>`));
          return;
        }
        next();
      });
      return;
    }
    next();
  });

  const csrf = (req: Request) => generateToken(req);
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
  const send = (req: Request, res: Response, title: string, body: Safe) => {
    res.type('html').send(page(title, body, { operator: req.session.operator?.name ?? null, flash: flashOf(req), csrf: csrf(req) }));
  };
  const csrfField = (req: Request) => html`<input type="hidden" name="_csrf" value="${csrf(req)}">`;

  app.post('/logout', (req, res) => {
    req.session.destroy(() => {
      res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
      res.redirect(303, '/login');
    });
  });

  // Everything below needs a signed-in operator.
  app.use((req, res, next) => {
    if (!req.session.operator) {
      res.redirect(303, '/login');
      return;
    }
    next();
  });
  const who = (req: Request) => req.session.operator!;

  /** Runs a curation action, records it with the operator's name, and flashes its outcome. */
  const act = (action: string, target: (req: Request) => string | null, run: (req: Request, op: Operator) => Promise<{ text: string; detail?: Record<string, unknown>; to?: string }>, back: (req: Request) => string) =>
    async (req: Request, res: Response) => {
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
    };
  const field = (req: Request, name: string) => String((req.body as Record<string, unknown>)[name] ?? '');

  app.get('/', async (req, res) => {
    const queue = await openCandidateQueue(o.pool);
    send(req, res, 'Review queue', html`<p class="muted">${queue.length} open candidate(s), oldest first.</p>
<table><thead><tr><th>Candidate</th><th>Product</th><th>Dimension</th><th>Derived window</th><th>Age</th><th>Opened by</th><th>Summary</th></tr></thead><tbody>
${queue.map((c) => html`<tr><td><a href="/candidates/${c.candidate_id}">#${c.candidate_id}</a></td><td>${c.brand_name} ${c.product_name}<br><small class="muted">${c.product_id}</small></td><td>${c.dimension}</td>
<td>${c.window_start} → ${c.window_end}</td><td>${c.age_hours < 48 ? `${c.age_hours} h` : `${Math.floor(c.age_hours / 24)} d`}</td><td>${c.opened_by ?? 'a person'}</td><td>${c.summary}</td></tr>`)}
</tbody></table>`);
  });

  app.get('/candidates/:id', async (req, res) => {
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id <= 0) {
      res.status(404).type('html').send(page('Not found', html`<p>No such candidate.</p>`, { operator: who(req).name }));
      return;
    }
    let c;
    try {
      c = await showCandidate(o.pool, id);
    } catch (err) {
      if (err instanceof CurationRefused) {
        res.status(404).type('html').send(page('Not found', html`<p>${err.message}</p>`, { operator: who(req).name }));
        return;
      }
      throw err;
    }
    const side = (which: 'removed' | 'added') =>
      html`<pre>${c.diff.filter((d) => d.op === 'same' || d.op === which).map((d) => html`<span class="${d.op === 'same' ? '' : d.op}" data-diff="${d.op}">${d.line}</span>\n`)}</pre>`;
    const reviewForms =
      c.status === 'open'
        ? html`<h2>Review</h2><div class="sides">
<form method="post" action="/candidates/${c.candidate_id}/approve">${csrfField(req)}<label>Public summary, as it will be released (feed, explain_signal, every alert); reword it if it could say better what changed<input type="text" name="summary" value="${c.summary}" maxlength="400"></label><label>Approval note<textarea name="note" rows="3" required></textarea></label><button type="submit" name="decision" value="approve">Approve</button></form>
<form method="post" action="/candidates/${c.candidate_id}/refuse">${csrfField(req)}<label>Refusal note<textarea name="note" rows="3" required></textarea></label><button type="submit" name="decision" value="refuse">Refuse</button></form></div>`
        : html`<p>Status: <strong>${c.status}</strong> by ${c.reviewer ?? '?'}: ${c.review_note ?? ''} ${c.signal_id ? html`(Signal <a href="/signals/${c.signal_id}">${c.signal_id}</a>)` : ''}</p>`;
    send(req, res, `Candidate #${c.candidate_id}`, html`<p><strong>${c.product.brand} ${c.product.name}</strong> (${c.product.product_id}) · ${c.dimension} · opened ${c.opened_at.slice(0, 16).replace('T', ' ')} by ${c.opened_by ?? 'a person'}</p>
<p>Proposed summary: <strong data-summary="proposed">${c.summary}</strong>${c.signal_summary !== null && c.signal_summary !== c.summary ? html`<br>The Signal says: <strong data-summary="signal">${c.signal_summary}</strong>` : ''}</p>
<p>Derived window: <strong>${c.derived_window ? `${c.derived_window.start} → ${c.derived_window.end}` : 'n/a'}</strong> (last reading of the old label → first reading of the new); candidate window ${c.window.start} → ${c.window.end}${c.window.exact_change_date ? `, exact date ${c.window.exact_change_date}` : ''}</p>
<div class="sides"><div><h2>Before <small class="muted">${c.before.state_id ?? ''}</small></h2>${side('removed')}</div><div><h2>After <small class="muted">${c.after.state_id ?? ''}</small></h2>${side('added')}</div></div>
<h2>Evidence</h2><table><thead><tr><th>Side</th><th>Read at</th><th>Source</th><th>Preserved copy</th><th>SHA-256</th></tr></thead><tbody>
${c.evidence.map((e) => html`<tr><td>${e.state_id === c.before.state_id ? 'before' : e.state_id === c.after.state_id ? 'after' : `price #${e.price_observation_id}`}</td><td>${e.observed_at}</td><td>${e.source_url ?? ''} ${e.retailer ?? ''}</td><td>${e.storage_path ?? ''}</td><td><code>${e.content_sha256 ? `${e.content_sha256.slice(0, 16)}…` : ''}</code></td></tr>`)}
</tbody></table>${reviewForms}`);
  });

  const candidateTarget = (req: Request) => `candidate ${req.params.id}`;
  const backToCandidate = (req: Request) => `/candidates/${Number(req.params.id) || ''}`;
  app.post(
    '/candidates/:id/approve',
    act('candidate approve', candidateTarget, async (req, op) => {
      // An emptied field keeps the candidate's summary; what is sent obeys the correction text rules (text.ts).
      const summary = field(req, 'summary');
      const out = await approveCandidate(o.pool, { candidate_id: Number(req.params.id), reviewer: op.name, note: field(req, 'note'), summary: summary.trim() === '' ? undefined : summary });
      return { text: `Candidate #${out.candidate_id} approved: Signal ${out.signal_id}, waiting for release${out.reworded ? ', with the summary as you worded it' : ''}.`, detail: { signal_id: out.signal_id, reworded: out.reworded }, to: '/release' };
    }, backToCandidate),
  );
  app.post(
    '/candidates/:id/refuse',
    act('candidate refuse', candidateTarget, async (req, op) => {
      const out = await refuseCandidate(o.pool, { candidate_id: Number(req.params.id), reviewer: op.name, note: field(req, 'note') });
      return { text: `Candidate #${out.candidate_id} refused.`, to: '/' };
    }, backToCandidate),
  );

  app.get('/release', async (req, res) => {
    const waiting = await listUnreleasedSignals(o.pool);
    send(req, res, 'Release', html`<p class="muted">Approved Signals waiting for release. A release is today's batch (UTC); a date receives one batch, so what you leave unticked waits for the next day.</p>
<form method="post" action="/release">${csrfField(req)}<table><thead><tr><th></th><th>Signal</th><th>Product</th><th>Summary (as released: the feed, explain_signal and the alert email's "What changed")</th><th>Window</th><th>Approved by</th><th>Will email</th></tr></thead><tbody>
${waiting.map((s) => html`<tr><td><input type="checkbox" name="signal" value="${s.signal_id}" id="pick-${s.signal_id}"></td><td><label for="pick-${s.signal_id}">${s.signal_id}</label></td><td>${s.product_name}</td><td>${s.summary}</td><td>${s.window_start} → ${s.window_end}</td><td>${s.reviewer ?? ''}</td>
<td>${s.recipients.length ? html`<ul>${s.recipients.map((r) => html`<li>${r.email} <small class="muted">${r.account_id}</small></li>`)}</ul>` : html`<span class="muted">nobody watches this product</span>`}</td></tr>`)}
</tbody></table><button type="submit">Release the ticked Signals today</button></form>`);
  });
  app.post(
    '/release',
    act('signal release', () => null, async (req, op) => {
      const raw = (req.body as Record<string, unknown>).signal;
      const ids = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
      if (ids.length === 0) throw new CurationRefused('tick at least one Signal to release', 'invalid_input');
      const released = await releaseSignals(o.pool, { signalIds: ids, releasedBy: op.name, publicBaseUrl: o.publicBaseUrl });
      const outbox = await publishNow(o.pool, o.natsUrl, o.natsPrefix, released.event_ids, { streamReplicas: o.natsStreamReplicas ?? 1 });
      const nats = outbox.nats === 'published' ? 'published to NATS' : `NATS ${outbox.nats}: the signals service relay publishes them when it can`;
      return { text: `Released ${released.signal_ids.join(', ')} as the batch of ${released.release_date} (${nats}).`, detail: { ...released, outbox: outbox.nats }, to: '/signals' };
    }, () => '/release'),
  );

  app.get('/signals', async (req, res) => {
    const list = await listReleasedSignals(o.pool, 200);
    send(req, res, 'Released Signals', html`<table><thead><tr><th>Signal</th><th>Released</th><th>Product</th><th>Summary</th><th>Status</th><th>Corrections</th></tr></thead><tbody>
${list.map((s) => html`<tr><td><a href="/signals/${String(s.signal_id)}">${String(s.signal_id)}</a></td><td>${String(s.released_on)}</td><td>${String(s.product_name)}</td><td>${String(s.summary)}</td><td>${String(s.status)}</td><td>${String(s.corrections)}</td></tr>`)}
</tbody></table>`);
  });
  app.get('/signals/:id', async (req, res) => {
    const { rows } = await o.pool.query(
      `SELECT s.signal_id, s.summary, s.status, s.released_on::text AS released_on, p.name AS product_name,
              coalesce((SELECT json_agg(json_build_object('kind', c.kind, 'recorded_on', c.recorded_on, 'note', c.public_note, 'summary_before', c.summary_before, 'summary_after', c.summary_after, 'by', c.recorded_by) ORDER BY c.correction_id)
                          FROM signal_corrections c WHERE c.signal_id = s.signal_id), '[]') AS corrections,
              (SELECT count(*)::int FROM alerts a WHERE a.signal_id = s.signal_id AND a.kind = 'release' AND a.status = 'sent') AS emailed
         FROM signals s JOIN products p ON p.product_id = s.product_id WHERE s.signal_id = $1 AND s.released_on IS NOT NULL`,
      [req.params.id],
    );
    const s = rows[0];
    if (!s) {
      res.status(404).type('html').send(page('Not found', html`<p>No released Signal ${req.params.id}.</p>`, { operator: who(req).name }));
      return;
    }
    const corrections = s.corrections as Array<Record<string, string | null>>;
    const forms =
      s.status === 'withdrawn'
        ? html`<p>Withdrawn: final.</p>`
        : html`<h2>Correct or withdraw</h2><p class="muted">The Signal keeps its id, address and release date; the ${s.emailed} account(s) emailed about it get one correction email each.</p><div class="sides">
<form method="post" action="/signals/${s.signal_id}/correct">${csrfField(req)}<label>Public note<textarea name="note" rows="2" required></textarea></label><label>Corrected summary (optional)<input type="text" name="summary"></label><button type="submit">Correct</button></form>
<form method="post" action="/signals/${s.signal_id}/withdraw">${csrfField(req)}<label>Public note<textarea name="note" rows="2" required></textarea></label><button type="submit">Withdraw</button></form></div>`;
    send(req, res, `Signal ${s.signal_id}`, html`<p>${s.product_name} · released ${s.released_on} · status <strong>${s.status}</strong></p><p>Summary now: <strong>${s.summary}</strong></p>
<h2>Corrections</h2>${corrections.length ? html`<table><thead><tr><th>Kind</th><th>Recorded</th><th>Note</th><th>Summary before</th><th>Summary after</th><th>By</th></tr></thead><tbody>${corrections.map((c) => html`<tr><td>${c.kind}</td><td>${c.recorded_on}</td><td>${c.note}</td><td>${c.summary_before ?? ''}</td><td>${c.summary_after ?? ''}</td><td>${c.by ?? ''}</td></tr>`)}</tbody></table>` : html`<p class="muted">None.</p>`}
${forms}`);
  });
  const amend = (kind: 'correct' | 'withdraw') =>
    act(`signal ${kind}`, (req) => String(req.params.id), async (req, op) => {
      const summary = field(req, 'summary').trim();
      const input = { signal_id: String(req.params.id), note: field(req, 'note'), by: op.name, ...(kind === 'correct' && summary ? { summary } : {}) };
      const out = kind === 'correct' ? await correctSignal(o.pool, input) : await withdrawSignal(o.pool, input);
      const outbox = out.event_ids.length ? await publishNow(o.pool, o.natsUrl, o.natsPrefix, out.event_ids, { streamReplicas: o.natsStreamReplicas ?? 1 }) : null;
      return { text: `${kind === 'correct' ? 'Corrected' : 'Withdrew'} ${out.signal_id}; ${out.notices} correction email(s) queued${outbox && outbox.nats !== 'published' ? ` (NATS ${outbox.nats}; the relay sends them when it can)` : ''}.`, detail: { correction_id: out.correction_id, notices: out.notices } };
    }, (req) => `/signals/${String(req.params.id)}`);
  app.post('/signals/:id/correct', amend('correct'));
  app.post('/signals/:id/withdraw', amend('withdraw'));

  app.get('/editions', async (req, res) => {
    const editions = await listEditions(o.pool);
    send(req, res, 'Ledger editions', html`<table><thead><tr><th>Edition</th><th>Period</th><th>Status</th><th>Released in it</th><th>Hash</th><th></th></tr></thead><tbody>
${editions.map((e) => html`<tr><td>${String(e.edition_id)}</td><td>${String(e.period)}</td><td>${String(e.status)}</td><td>${String(e.count_released)}</td><td><code>${e.edition_hash ? String(e.edition_hash) : ''}</code></td>
<td>${e.status === 'open' ? html`<form method="post" action="/editions/${String(e.edition_id)}/close">${csrfField(req)}<button type="submit">Close</button></form>` : ''}</td></tr>`)}
</tbody></table><h2>Open an edition</h2><form method="post" action="/editions/open" style="max-width:20rem">${csrfField(req)}<label>Period (YYYY-MM, begun)<input type="text" name="period" pattern="\\d{4}-\\d{2}" required></label><button type="submit">Open</button></form>`);
  });
  app.post(
    '/editions/open',
    act('edition open', (req) => field(req, 'period'), async (req) => {
      const out = await openEdition(o.pool, field(req, 'period').trim());
      return { text: `Opened ${out.edition_id}.` };
    }, () => '/editions'),
  );
  app.post(
    '/editions/:id/close',
    act('edition close', (req) => String(req.params.id), async (req) => {
      const out = await closeEdition(o.pool, String(req.params.id));
      return { text: `Closed ${out.edition_id}: ${out.count_released} Signal(s), hash ${out.edition_hash}.`, detail: { edition_hash: out.edition_hash } };
    }, () => '/editions'),
  );

  app.get('/sources', async (req, res) => {
    const sources = await sourceHealth(o.pool);
    send(req, res, 'Source health', html`<p class="muted">As the monitor leaves it: due, overdue (next check in the past), unreadable.</p><table><thead><tr><th>Source</th><th>Product</th><th>Kind</th><th>URL</th><th>State</th><th>Last outcome</th><th>Last checked</th><th>Next check due</th><th>Unreadable in a row</th></tr></thead><tbody>
${sources.map((s) => html`<tr><td>${String(s.source_id)}</td><td>${String(s.product_name)}</td><td>${String(s.kind)}</td><td>${String(s.url)}</td><td class="state-${String(s.state)}">${String(s.state)}</td><td>${s.last_outcome ? String(s.last_outcome) : ''}</td>
<td>${s.last_checked_at ? new Date(s.last_checked_at as string).toISOString().slice(0, 16) : ''}</td><td>${s.next_check_due ? String(s.next_check_due) : ''}</td><td>${s.consecutive_unreadable === null || s.consecutive_unreadable === undefined ? '' : String(s.consecutive_unreadable)}</td></tr>`)}
</tbody></table>`);
  });

  app.use(contextPages({ pool: o.pool, send, csrfField, field, act }));
  ingredientPages(app, { pool: o.pool, send, act, csrfField, field });

  app.use((req, res) => {
    res.status(404).type('html').send(page('Not found', html`<p>Nothing here.</p>`, { operator: req.session?.operator?.name ?? null }));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    o.log.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err), path: req.route?.path }, 'console error');
    res.status(500).type('html').send(page('Something went wrong', html`<p>The action failed on our side and was not completed. It is in the console's log.</p>`));
  });
  return app;
}
