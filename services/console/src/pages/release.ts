import { Router } from 'express';
import { CurationRefused, listUnreleasedSignals, releaseSignals } from '@evidence-record/curation';
import { publishNow } from '@evidence-record/signals';
import { html } from '../html';
import type { PageKit } from '../kit';

/** Where a release or a correction is published (the outbox relay publishes what NATS did not take). */
export interface PublishTo {
  publicBaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  /** Replicas of the streams if a release creates them (existing ones keep theirs). */
  natsStreamReplicas?: number;
}

/** Approved Signals waiting for release, each with who it would email; the ticked ones are released as today's batch. */
export function releasePage(kit: PageKit, to: PublishTo): Router {
  const router = Router();
  router.get('/release', async (req, res) => {
    const waiting = await listUnreleasedSignals(kit.pool);
    kit.send(req, res, 'Release', html`<p class="muted">Approved Signals waiting for release. A release is today's batch (UTC); a date receives one batch, so what you leave unticked waits for the next day.</p>
<form method="post" action="/release">${kit.csrfField(req)}<table><thead><tr><th></th><th>Signal</th><th>Product</th><th>Summary (as released: the feed, explain_signal and the alert email's "What changed")</th><th>Window</th><th>Approved by</th><th>Will email</th></tr></thead><tbody>
${waiting.map((s) => html`<tr><td><input type="checkbox" name="signal" value="${s.signal_id}" id="pick-${s.signal_id}"></td><td><label for="pick-${s.signal_id}">${s.signal_id}</label></td><td>${s.brand_name} ${s.product_name}<br><small class="muted">${s.product_id}</small></td><td>${s.summary}</td><td>${s.window_start} → ${s.window_end}</td><td>${s.reviewer ?? ''}</td>
<td>${s.recipients.length ? html`<ul>${s.recipients.map((r) => html`<li>${r.email} <small class="muted">${r.account_id}</small></li>`)}</ul>` : html`<span class="muted">nobody watches this product</span>`}</td></tr>`)}
</tbody></table><button type="submit">Release the ticked Signals today</button></form>`);
  });
  router.post(
    '/release',
    kit.act('signal release', () => null, async (req, op) => {
      const raw = (req.body as Record<string, unknown>).signal;
      const ids = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
      if (ids.length === 0) throw new CurationRefused('tick at least one Signal to release', 'invalid_input');
      const released = await releaseSignals(kit.pool, { signalIds: ids, releasedBy: op.name, publicBaseUrl: to.publicBaseUrl });
      const outbox = await publishNow(kit.pool, to.natsUrl, to.natsPrefix, released.event_ids, { streamReplicas: to.natsStreamReplicas ?? 1 });
      const nats = outbox.nats === 'published' ? 'published to NATS' : `NATS ${outbox.nats}: the signals service relay publishes them when it can`;
      return { text: `Released ${released.signal_ids.join(', ')} as the batch of ${released.release_date} (${nats}).`, detail: { ...released, outbox: outbox.nats }, to: '/signals' };
    }, () => '/release'),
  );
  return router;
}
