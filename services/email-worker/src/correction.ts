import { DISCLAIMER } from '@evidence-record/contract';
import type { Pool } from '@evidence-record/platform';
import escapeHtml from 'escape-html';
import { listUnsubscribeHeaders, messageIdFor, signalUrl, unsubscribeHtml, unsubscribeText, type AlertEmail } from './message';

/**
 * Correction notices: an alert row of kind 'correction' tells an account that
 * a Signal it was emailed about has been corrected or withdrawn. Kept apart
 * from the release alert's template (message.ts) on purpose.
 */
export interface CorrectionNotice {
  alert_id: string;
  signal_id: string;
  product_id: string;
  product_name: string;
  brand_name: string;
  released_on: string | null;
  kind: 'correction' | 'withdrawal';
  recorded_on: string;
  note: string;
  /** The summary as it stood when this correction was recorded (for a withdrawal: the current one). */
  summary_before: string;
  summary_after: string | null;
}

export async function loadCorrectionNotice(pool: Pool, alertId: string): Promise<CorrectionNotice | null> {
  const { rows } = await pool.query<CorrectionNotice>({
    name: 'email-load-correction-notice',
    text: `SELECT a.alert_id, a.signal_id, a.product_id, p.name AS product_name, b.name AS brand_name, s.released_on::text AS released_on,
                  c.kind, c.recorded_on::text AS recorded_on, c.public_note AS note,
                  coalesce(c.summary_before, s.summary) AS summary_before, c.summary_after
             FROM alerts a
             JOIN signal_corrections c ON c.correction_id = a.correction_id
             JOIN signals s ON s.signal_id = a.signal_id
             JOIN products p ON p.product_id = a.product_id
             JOIN brands b ON b.brand_id = p.brand_id
            WHERE a.alert_id = $1`,
    values: [alertId],
  });
  return rows[0] ?? null;
}

/**
 * The notice goes even to an account that stopped watching (it answers an email already sent); the one-click
 * link, when there is one, stops any further alerts about the product, as on every email sent to a watcher.
 */
export function renderCorrectionEmail(n: CorrectionNotice, opts: { publicBaseUrl: string; mailFrom: string; unsubscribeUrl: string | null }): AlertEmail {
  const url = signalUrl(opts.publicBaseUrl, n.signal_id);
  const product = `${n.brand_name} ${n.product_name}`;
  const what = n.kind === 'withdrawal' ? 'withdrawn' : 'corrected';
  const lines: Array<[string, string]> = [
    ['Product', `${product} (${n.product_id})`],
    [n.kind === 'withdrawal' ? 'Withdrawn' : 'Corrected', `${n.recorded_on}: ${n.note}`],
    [n.summary_after ? 'Summary as released' : 'Summary', n.summary_before],
    ...(n.summary_after ? ([['Corrected summary', n.summary_after]] as Array<[string, string]>) : []),
    ['Released', n.released_on ?? ''],
    ['Signal', url],
  ];
  const text = [
    `A Signal you were alerted about has been ${what}. Its address and release date do not change.`,
    '',
    ...lines.map(([k, v]) => `${k}: ${v}`),
    '',
    DISCLAIMER,
    '',
    ...(opts.unsubscribeUrl ? [...unsubscribeText(opts.unsubscribeUrl), ''] : []),
    `Notice ${n.alert_id}`,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.4">
<p>A Signal you were alerted about has been ${what}. Its address and release date do not change.</p>
<table cellpadding="4">
${lines.map(([k, v]) => `<tr><th align="left">${e(k)}</th><td>${k === 'Signal' ? `<a href="${e(v)}">${e(v)}</a>` : e(v)}</td></tr>`).join('\n')}
</table>
<p><small>${e(DISCLAIMER)}</small></p>
${unsubscribeHtml(opts.unsubscribeUrl, product)}
<p><small>Notice ${e(n.alert_id)}</small></p>
</body></html>`;
  return {
    subject: `${n.kind === 'withdrawal' ? 'Withdrawn' : 'Corrected'}: ${product}, Signal ${n.signal_id}`,
    text,
    html,
    messageId: messageIdFor(n.alert_id, opts.mailFrom),
    headers: listUnsubscribeHeaders(opts.unsubscribeUrl),
  };
}
