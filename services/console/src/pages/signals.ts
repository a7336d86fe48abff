import { Router, type Request } from 'express';
import { correctSignal, listReleasedSignals, withdrawSignal } from '@evidence-record/curation';
import { publishNow } from '@evidence-record/signals';
import { html } from '../html';
import type { PageKit } from '../kit';
import { releasedSignal } from '../queries/signals';
import type { PublishTo } from './release';

/** Released Signals, newest first; one Signal with its corrections and the forms to correct or withdraw it. */
export function signalsPage(kit: PageKit, to: PublishTo): Router {
  const router = Router();
  router.get('/signals', async (req, res) => {
    const list = await listReleasedSignals(kit.pool, 200);
    kit.send(req, res, 'Released Signals', html`<table><thead><tr><th>Signal</th><th>Released</th><th>Product</th><th>Summary</th><th>Status</th><th>Corrections</th></tr></thead><tbody>
${list.map((s) => html`<tr><td><a href="/signals/${String(s.signal_id)}">${String(s.signal_id)}</a></td><td class="nowrap">${String(s.released_on)}</td><td>${String(s.brand_name)} ${String(s.product_name)}</td><td>${String(s.summary)}</td><td>${String(s.status)}</td><td>${String(s.corrections)}</td></tr>`)}
</tbody></table>`);
  });
  router.get('/signals/:id', async (req, res) => {
    const s = await releasedSignal(kit.pool, String(req.params.id));
    if (!s) {
      kit.notFound(req, res, html`<p>No released Signal ${String(req.params.id)}.</p>`);
      return;
    }
    const forms =
      s.status === 'withdrawn'
        ? html`<p>Withdrawn: final.</p>`
        : html`<h2>Correct or withdraw</h2><p class="muted">The Signal keeps its id, address and release date; the ${s.emailed} account(s) emailed about it get one correction email each.</p><div class="sides">
<form method="post" action="/signals/${s.signal_id}/correct">${kit.csrfField(req)}<label>Public note<textarea name="note" rows="2" required></textarea></label><label>Corrected summary (optional)<input type="text" name="summary"></label><button type="submit">Correct</button></form>
<form method="post" action="/signals/${s.signal_id}/withdraw">${kit.csrfField(req)}<label>Public note<textarea name="note" rows="2" required></textarea></label><button type="submit">Withdraw</button></form></div>`;
    kit.send(req, res, `Signal ${s.signal_id}`, html`<p>${s.brand_name} ${s.product_name} · released ${s.released_on} · status <strong>${s.status}</strong></p><p>Summary now: <strong>${s.summary}</strong></p>
<h2>Corrections</h2>${s.corrections.length ? html`<table><thead><tr><th>Kind</th><th>Recorded</th><th>Note</th><th>Summary before</th><th>Summary after</th><th>By</th></tr></thead><tbody>${s.corrections.map((c) => html`<tr><td>${c.kind}</td><td>${c.recorded_on}</td><td>${c.note}</td><td>${c.summary_before ?? ''}</td><td>${c.summary_after ?? ''}</td><td>${c.by ?? ''}</td></tr>`)}</tbody></table>` : html`<p class="muted">None.</p>`}
${forms}`);
  });
  const amend = (kind: 'correct' | 'withdraw') =>
    kit.act(`signal ${kind}`, (req: Request) => String(req.params.id), async (req, op) => {
      const summary = kit.field(req, 'summary').trim();
      const input = { signal_id: String(req.params.id), note: kit.field(req, 'note'), by: op.name, ...(kind === 'correct' && summary ? { summary } : {}) };
      const out = kind === 'correct' ? await correctSignal(kit.pool, input) : await withdrawSignal(kit.pool, input);
      const outbox = out.event_ids.length ? await publishNow(kit.pool, to.natsUrl, to.natsPrefix, out.event_ids, { streamReplicas: to.natsStreamReplicas ?? 1 }) : null;
      return { text: `${kind === 'correct' ? 'Corrected' : 'Withdrew'} ${out.signal_id}; ${out.notices} correction email(s) queued${outbox && outbox.nats !== 'published' ? ` (NATS ${outbox.nats}; the relay sends them when it can)` : ''}.`, detail: { correction_id: out.correction_id, notices: out.notices } };
    }, (req) => `/signals/${String(req.params.id)}`);
  router.post('/signals/:id/correct', amend('correct'));
  router.post('/signals/:id/withdraw', amend('withdraw'));
  return router;
}
