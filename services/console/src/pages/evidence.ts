import { Router } from 'express';
import { html } from '../html';
import type { PageKit } from '../kit';
import { keptEvidence } from '../queries/evidence';

/**
 * A preserved copy, opened from a candidate's evidence: the kept bytes
 * exactly (their SHA-256 is the one named), always as text, never as the
 * page they were fetched from. A label's JSON or an offer's JSON-LD blocks
 * read as text; fetched HTML is shown, never run: text/plain, nosniff, a
 * sandboxing policy that allows nothing, and a file name for a download
 * (decision 2100).
 */
export function evidencePage(kit: PageKit): Router {
  const router = Router();
  router.get('/evidence/:sha256', async (req, res) => {
    const e = await keptEvidence(kit.pool, String(req.params.sha256));
    if (!e) {
      kit.notFound(req, res, html`<p>The Record keeps no evidence under that SHA-256.</p>`);
      return;
    }
    res
      .status(200)
      .set({
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
        'Content-Disposition': `inline; filename="evidence-${e.sha256.slice(0, 16)}-${e.kind}.txt"`,
      })
      .send(e.content);
  });
  return router;
}
