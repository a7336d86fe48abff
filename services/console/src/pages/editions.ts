import { Router } from 'express';
import { closeEdition, editionEntry, editionRows, openEdition } from '@evidence-record/curation';
import { html } from '../html';
import type { PageKit } from '../kit';

/**
 * The ledger editions, as `list_ledger_editions` answers today: the same
 * rows and the same entry (an open edition's data-as-of date and count
 * released are live), with the hash of each closed one and the forms to
 * close the open one or open a period.
 */
export function editionsPage(kit: PageKit): Router {
  const router = Router();
  router.get('/editions', async (req, res) => {
    const today = kit.today();
    const rows = await editionRows(kit.pool, today);
    kit.send(req, res, 'Ledger editions', html`<p class="muted">Newest period first, as list_ledger_editions answers today (${today}). An open edition's data-as-of date and count are live until it is closed.</p>
<table><thead><tr><th>Edition</th><th>Period</th><th>Status</th><th>Data as of</th><th>Signals released</th><th>Hash</th><th></th></tr></thead><tbody>
${rows.map((row) => {
  const e = editionEntry(row, today);
  return html`<tr data-edition="${e.edition_id}"><td>${e.edition_id}</td><td>${e.period}</td><td>${e.status}</td><td data-field="data_as_of">${e.data_as_of ?? ''}</td><td data-field="count_released">${e.count_released}</td><td><code>${row.edition_hash ?? ''}</code></td>
<td>${e.status === 'open' ? html`<form method="post" action="/editions/${e.edition_id}/close">${kit.csrfField(req)}<button type="submit">Close</button></form>` : ''}</td></tr>`;
})}
</tbody></table><h2>Open an edition</h2><form method="post" action="/editions/open" style="max-width:20rem">${kit.csrfField(req)}<label>Period (YYYY-MM, begun)<input type="text" name="period" pattern="\\d{4}-\\d{2}" required></label><button type="submit">Open</button></form>`);
  });
  router.post(
    '/editions/open',
    kit.act('edition open', (req) => kit.field(req, 'period'), async (req) => {
      const out = await openEdition(kit.pool, kit.field(req, 'period').trim());
      return { text: `Opened ${out.edition_id}.` };
    }, () => '/editions'),
  );
  router.post(
    '/editions/:id/close',
    kit.act('edition close', (req) => String(req.params.id), async (req) => {
      const out = await closeEdition(kit.pool, String(req.params.id));
      return { text: `Closed ${out.edition_id}: ${out.count_released} Signal(s), hash ${out.edition_hash}.`, detail: { edition_hash: out.edition_hash } };
    }, () => '/editions'),
  );
  return router;
}
