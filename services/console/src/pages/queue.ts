import { Router } from 'express';
import { openCandidateQueue } from '@evidence-record/curation';
import { html } from '../html';
import type { PageKit } from '../kit';

/** The review queue: open candidates, oldest first, each with its product, window, age and who opened it. */
export function queuePage(kit: PageKit): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const queue = await openCandidateQueue(kit.pool);
    kit.send(req, res, 'Review queue', html`<p class="muted">${queue.length} open candidate(s), oldest first.</p>
<table><thead><tr><th>Candidate</th><th>Product</th><th>Dimension</th><th>Derived window</th><th>Age</th><th>Opened by</th><th>Summary</th></tr></thead><tbody>
${queue.map((c) => html`<tr><td><a href="/candidates/${c.candidate_id}">#${c.candidate_id}</a></td><td>${c.brand_name} ${c.product_name}<br><small class="muted">${c.product_id}</small></td><td>${c.dimension}</td>
<td>${c.window_start} → ${c.window_end}</td><td>${c.age_hours < 48 ? `${c.age_hours} h` : `${Math.floor(c.age_hours / 24)} d`}</td><td>${c.opened_by ?? 'a person'}</td><td>${c.summary}</td></tr>`)}
</tbody></table>`);
  });
  return router;
}
