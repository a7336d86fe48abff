import { DISCLAIMER } from '@evidence-record/contract';

export interface AlertContent {
  alert_id: string;
  product_id: string;
  product_name: string;
  brand_name: string;
  dimension: string;
  summary: string;
  window_start: string;
  window_end: string;
  exact_change_date: string | null;
  released_on: string | null;
  signal_id: string;
}

export interface AlertEmail {
  subject: string;
  text: string;
  html: string;
  /** Derived from the alert id: a resend carries the same Message-ID, so mail clients can fold it. */
  messageId: string;
}

export function messageIdFor(alertId: string, mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'evidence-record.local';
  return `<${alertId}@${domain}>`;
}

export function signalUrl(publicBaseUrl: string, signalId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/signals/${signalId}`;
}

/**
 * The alert email: product, what changed, the observation window (never
 * presented as an exact change date unless the Record has one), the
 * permanent Signal address, how to stop alerts, and the disclaimer.
 */
export function renderAlertEmail(alert: AlertContent, opts: { publicBaseUrl: string; mailFrom: string }): AlertEmail {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const url = signalUrl(base, alert.signal_id);
  const product = `${alert.brand_name} ${alert.product_name}`;
  const window = alert.exact_change_date
    ? `The change is dated to ${alert.exact_change_date} (within the observation window ${alert.window_start} to ${alert.window_end}).`
    : `Observation window: ${alert.window_start} to ${alert.window_end}. The change happened within this window; this is not an exact change date.`;
  const unwatchRest = `DELETE ${base}/api/v1/watch/${alert.product_id}`;
  const unwatchMcp = `the MCP tool watchlist.remove with {"product_id": "${alert.product_id}"}`;

  const text = [
    `A confirmed change was released for a product you watch.`,
    ``,
    `Product: ${product} (${alert.product_id})`,
    `What changed (${alert.dimension}): ${alert.summary}`,
    window,
    alert.released_on ? `Released: ${alert.released_on}` : null,
    `Signal: ${url}`,
    ``,
    `You receive this because your account watches this product. To stop these alerts, remove the watch with your API key:`,
    `  ${unwatchRest}`,
    `  or ${unwatchMcp}.`,
    ``,
    DISCLAIMER,
    ``,
    `Alert ${alert.alert_id}`,
  ]
    .filter((line): line is string => line !== null)
    .join('\n');

  const e = escapeHtml;
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.4">
<p>A confirmed change was released for a product you watch.</p>
<table cellpadding="4">
<tr><th align="left">Product</th><td>${e(product)} (${e(alert.product_id)})</td></tr>
<tr><th align="left">What changed</th><td>${e(alert.summary)} <small>(${e(alert.dimension)})</small></td></tr>
<tr><th align="left">When</th><td>${e(window)}</td></tr>
${alert.released_on ? `<tr><th align="left">Released</th><td>${e(alert.released_on)}</td></tr>\n` : ''}<tr><th align="left">Signal</th><td><a href="${e(url)}">${e(url)}</a></td></tr>
</table>
<p>You receive this because your account watches this product. To stop these alerts, remove the watch with your API key:
<code>${e(unwatchRest)}</code>, or ${e(unwatchMcp)}.</p>
<p><small>${e(DISCLAIMER)}</small></p>
<p><small>Alert ${e(alert.alert_id)}</small></p>
</body></html>`;

  return {
    subject: `Confirmed change on ${product}: ${alert.dimension}`,
    text,
    html,
    messageId: messageIdFor(alert.alert_id, opts.mailFrom),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
