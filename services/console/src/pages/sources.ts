import { Router } from 'express';
import { html, type Safe } from '../html';
import { fromNow, span, utcDay, utcMinute } from '../format';
import type { PageKit } from '../kit';
import { sourceCarries, sourceOrigin, sourceRows, sourceState, type SourceRow, type SourceState } from '../queries/sources';
import { sourceLink } from './parts';

const stateWords: Record<SourceState, string> = {
  unreadable: 'unreadable',
  overdue: 'overdue',
  scheduled: 'scheduled',
  paused: 'paused',
  not_monitored: 'not monitored',
};

/** Who reads the source and how often: the monitor on its cadence, or only capture imports. */
function readBy(s: SourceRow): string {
  if (s.next_check_due === null) return 'capture imports only';
  const every = s.cadence_days === 7 ? 'weekly' : `every ${span(s.cadence_days * 86_400_000)}`;
  return s.state === 'paused' ? `the monitor (paused; ${every} when active)` : `the monitor, ${every}`;
}

/** The next check, in words and at what time; nothing when the monitor does not read the source. */
function nextCheck(s: SourceRow, state: SourceState, now: Date): Safe {
  if (s.next_check_due === null || state === 'paused') return html`<span class="muted">none scheduled</span>`;
  const when = fromNow(s.next_check_due, now);
  return html`${s.next_check_due.getTime() < now.getTime() ? `due ${when}` : when}<br><small class="muted">${utcMinute(s.next_check_due)}</small>`;
}

/** Since when a source is unreadable and how many checks in a row failed; nothing for a readable one. */
function unreadable(s: SourceRow): Safe {
  if (s.health !== 'unreadable') return html``;
  const run = s.unreadable_run > 0 ? `${s.unreadable_run} check${s.unreadable_run === 1 ? '' : 's'} in a row` : 'no failed check recorded';
  return html`since ${utcDay(s.health_since)}<br><small class="muted">${run}</small>`;
}

/** Source health: what each source carries, who reads it, its state, its last check and its next one. */
export function sourcesPage(kit: PageKit): Router {
  const router = Router();
  router.get('/sources', async (req, res) => {
    const now = kit.now();
    const sources = await sourceRows(kit.pool);
    const count = (state: SourceState) => sources.filter((s) => sourceState(s, now) === state).length;
    kit.send(req, res, 'Source health', html`<p class="muted">${sources.length} source(s): ${count('unreadable')} unreadable, ${count('overdue')} overdue (the monitor's next check is in the past), ${count('scheduled')} scheduled, ${count('paused')} paused, ${count('not_monitored')} not monitored (only capture imports read them). Times are UTC.</p>
<table class="sources"><thead><tr><th>Source</th><th>Product</th><th>Carries</th><th>Read by</th><th>Address</th><th>State</th><th>Last check</th><th>Next check</th><th>Unreadable</th></tr></thead><tbody>
${sources.map((s) => {
  const state = sourceState(s, now);
  return html`<tr data-source="${s.source_id}" data-state="${state}"><td>#${s.source_id}</td><td>${s.brand_name} ${s.product_name}<br><small class="muted">${s.product_id}</small></td>
<td>${sourceCarries(s.kind)}<br><small class="muted">${sourceOrigin(s.kind)}${s.retailer ? html` · ${s.retailer}` : ''}</small></td><td>${readBy(s)}</td><td class="wrap">${sourceLink(s.url)}${s.variant ? html`<br><small class="muted">variant ${s.variant}</small>` : ''}</td>
<td class="state-${state}">${stateWords[state]}</td><td>${s.last_checked_at ? html`${s.last_outcome ?? ''}<br><small class="muted">${utcMinute(s.last_checked_at)} (${fromNow(s.last_checked_at, now)})</small>${s.last_reason ? html`<br><small>${s.last_reason}</small>` : ''}` : html`<span class="muted">never checked</span>`}</td>
<td>${nextCheck(s, state, now)}</td><td>${unreadable(s)}</td></tr>`;
})}
</tbody></table>`);
  });
  return router;
}
