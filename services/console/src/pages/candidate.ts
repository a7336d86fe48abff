import { Router, type Request } from 'express';
import { CurationRefused, approveCandidate, refuseCandidate, showCandidate, type CandidateDetail } from '@evidence-record/curation';
import { html, type Safe } from '../html';
import { utcMinute } from '../format';
import type { PageKit } from '../kit';
import { keptHashes } from '../queries/evidence';
import { sourceLink } from './parts';

/**
 * Where the preserved copy is: a link to the kept bytes when the Record keeps
 * them (the monitor's evidence), else the path it was preserved at outside
 * the Record, said as such.
 */
function preservedCopy(e: CandidateDetail['evidence'][number], kept: Set<string>): Safe {
  const path = e.storage_path ?? '';
  if (e.content_sha256 && kept.has(e.content_sha256)) {
    return html`<a href="/evidence/${e.content_sha256}" target="_blank" data-preserved-copy>Open the kept copy</a><br><small class="muted">${path}</small>`;
  }
  return path ? html`${path}<br><small class="muted">kept outside the Record: no copy to open here</small>` : html``;
}

/** A candidate: both sides side by side with the difference highlighted, the evidence, and the review forms. */
export function candidatePage(kit: PageKit): Router {
  const router = Router();
  router.get('/candidates/:id', async (req, res) => {
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id <= 0) {
      kit.notFound(req, res, html`<p>No such candidate.</p>`);
      return;
    }
    let c: CandidateDetail;
    try {
      c = await showCandidate(kit.pool, id);
    } catch (err) {
      if (err instanceof CurationRefused) {
        kit.notFound(req, res, html`<p>${err.message}</p>`);
        return;
      }
      throw err;
    }
    const kept = await keptHashes(kit.pool, c.evidence.map((e) => e.content_sha256));
    const side = (which: 'removed' | 'added') =>
      html`<pre>${c.diff.filter((d) => d.op === 'same' || d.op === which).map((d) => html`<span class="${d.op === 'same' ? '' : d.op}" data-diff="${d.op}">${d.line}</span>\n`)}</pre>`;
    const reviewForms =
      c.status === 'open'
        ? html`<h2>Review</h2><div class="sides">
<form method="post" action="/candidates/${c.candidate_id}/approve">${kit.csrfField(req)}<label>Public summary, as it will be released (feed, explain_signal, every alert); reword it if it could say better what changed<input type="text" name="summary" value="${c.summary}" maxlength="400"></label><label>Approval note<textarea name="note" rows="3" required></textarea></label><button type="submit" name="decision" value="approve">Approve</button></form>
<form method="post" action="/candidates/${c.candidate_id}/refuse">${kit.csrfField(req)}<label>Refusal note<textarea name="note" rows="3" required></textarea></label><button type="submit" name="decision" value="refuse">Refuse</button></form></div>`
        : html`<p>Status: <strong>${c.status}</strong> by ${c.reviewer ?? '?'}: ${c.review_note ?? ''} ${c.signal_id ? html`(Signal <a href="/signals/${c.signal_id}">${c.signal_id}</a>)` : ''}</p>`;
    kit.send(req, res, `Candidate #${c.candidate_id}`, html`<p><strong>${c.product.brand} ${c.product.name}</strong> (${c.product.product_id}) · ${c.dimension} · opened ${utcMinute(c.opened_at)} by ${c.opened_by ?? 'a person'}</p>
<p>Proposed summary: <strong data-summary="proposed">${c.summary}</strong>${c.signal_summary !== null && c.signal_summary !== c.summary ? html`<br>The Signal says: <strong data-summary="signal">${c.signal_summary}</strong>` : ''}</p>
<p>Derived window: <strong>${c.derived_window ? `${c.derived_window.start} → ${c.derived_window.end}` : 'n/a'}</strong> (last reading of the old label → first reading of the new); candidate window ${c.window.start} → ${c.window.end}${c.window.exact_change_date ? `, exact date ${c.window.exact_change_date}` : ''}</p>
<div class="sides"><div><h2>Before <small class="muted">${c.before.state_id ?? ''}</small></h2>${side('removed')}</div><div><h2>After <small class="muted">${c.after.state_id ?? ''}</small></h2>${side('added')}</div></div>
<h2>Evidence</h2><table class="evidence"><thead><tr><th>Side</th><th>Read at</th><th>Source</th><th>Preserved copy</th><th>SHA-256</th></tr></thead><tbody>
${c.evidence.map((e) => html`<tr><td>${e.state_id === c.before.state_id ? 'before' : e.state_id === c.after.state_id ? 'after' : `price #${e.price_observation_id}`}</td><td>${utcMinute(e.observed_at)}</td><td class="wrap">${sourceLink(e.source_url)} ${e.retailer ?? ''}</td><td class="wrap">${preservedCopy(e, kept)}</td><td class="wrap"><code>${e.content_sha256 ? `${e.content_sha256.slice(0, 16)}…` : ''}</code></td></tr>`)}
</tbody></table>${reviewForms}`);
  });

  const candidateTarget = (req: Request) => `candidate ${String(req.params.id)}`;
  const backToCandidate = (req: Request) => `/candidates/${Number(req.params.id) || ''}`;
  router.post(
    '/candidates/:id/approve',
    kit.act('candidate approve', candidateTarget, async (req, op) => {
      // An emptied field keeps the candidate's summary; what is sent obeys the correction text rules (text.ts).
      const summary = kit.field(req, 'summary');
      const out = await approveCandidate(kit.pool, { candidate_id: Number(req.params.id), reviewer: op.name, note: kit.field(req, 'note'), summary: summary.trim() === '' ? undefined : summary });
      return { text: `Candidate #${out.candidate_id} approved: Signal ${out.signal_id}, waiting for release${out.reworded ? ', with the summary as you worded it' : ''}.`, detail: { signal_id: out.signal_id, reworded: out.reworded }, to: '/release' };
    }, backToCandidate),
  );
  router.post(
    '/candidates/:id/refuse',
    kit.act('candidate refuse', candidateTarget, async (req, op) => {
      const out = await refuseCandidate(kit.pool, { candidate_id: Number(req.params.id), reviewer: op.name, note: kit.field(req, 'note') });
      return { text: `Candidate #${out.candidate_id} refused.`, to: '/' };
    }, backToCandidate),
  );
  return router;
}
