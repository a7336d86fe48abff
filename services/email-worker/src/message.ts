import escapeHtml from 'escape-html';
import { DISCLAIMER, ONE_CLICK_BODY, changeLines, signalUrl, type ChangeHeading, type ChangeSides } from '@evidence-record/contract';

export { signalUrl };

/** What one alert email is about: the Signal, its product, and the account it goes to. */
export interface AlertContent extends ChangeHeading {
  alert_id: string;
  account_id: string;
  /** The account's address: the email says where it went. */
  email: string;
  exact_change_date: string | null;
  released_on: string | null;
  signal_id: string;
}

/**
 * Both sides of the change as the Record holds them (queries/alerts.ts
 * loadSignalChange), worded by the contract's changeLines: the same phrases a
 * candidate's derived summary is made of (decision 1600).
 */
export type SignalChange = ChangeSides;

export interface AlertEmail {
  subject: string;
  text: string;
  html: string;
  /** Derived from the alert id: a resend carries the same Message-ID, so mail clients can fold it. */
  messageId: string;
  /** List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058) when an unsubscribe link is available. */
  headers: Record<string, string>;
}

export function messageIdFor(alertId: string, mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'evidence-record.local';
  return `<${alertId}@${domain}>`;
}

const MAX_SUBJECT_CHANGE = 70;

/**
 * The alert email (docs/watch-and-alerts.md, "Alert email"): a subject that
 * names the product and the change; what changed, before → after; the
 * observation window (an exact date only when the Record has one); the
 * release date; the corrections policy; the Signal's permanent API address,
 * labelled as the address to cite (it needs an API key); the account the
 * email went to; and a one-click unsubscribe that needs no key.
 *
 * The text part keeps every line under 76 characters except the two URLs,
 * which each stand alone on a line: nodemailer then sends it quoted-printable,
 * whose soft line breaks vanish when decoded, so no reader sees a URL cut in
 * two (test/e2e/alert-unsubscribe.e2e.test.ts reads the decoded parts).
 */
export function renderAlertEmail(
  alert: AlertContent,
  change: SignalChange,
  opts: { publicBaseUrl: string; mailFrom: string; unsubscribeUrl: string | null },
): AlertEmail {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const citeUrl = signalUrl(base, alert.signal_id);
  const product = `${alert.brand_name} ${alert.product_name}`;
  const lines = changeLines(change);
  const windowText = alert.exact_change_date
    ? `Dated to ${alert.exact_change_date}, within the observation window ${alert.window_start} to ${alert.window_end}.`
    : `Observation window: ${alert.window_start} to ${alert.window_end}. The change happened within this window; this is not an exact change date.`;
  const released = alert.released_on ? `Released on ${alert.released_on}.` : null;
  const corrections =
    'Corrections: this Signal keeps its address and release date for good. If it is corrected or withdrawn, that is recorded on the Signal itself.';
  const cite = 'Permanent API address to cite (reading it needs an API key with signals:read):';
  const recipient = `Sent to ${alert.email} (account ${alert.account_id}) because this account watches ${product}.`;
  const stopWithKey = `Or remove the watch with your API key: unwatch_product for ${alert.product_id} (REST DELETE /api/v1/watch/${alert.product_id}, MCP watchlist.remove).`;

  const headline = lines[0] ?? alert.summary;
  const shortHeadline = headline.length > MAX_SUBJECT_CHANGE ? `${headline.slice(0, MAX_SUBJECT_CHANGE - 1).trimEnd()}…` : headline;
  const subject = `${product}: ${alert.dimension} change confirmed — ${shortHeadline}`;

  const text = [
    `A confirmed ${alert.dimension} change was released for ${product} (${alert.product_id}).`,
    ``,
    `What changed: ${alert.summary}`,
    ...(lines.length > 0 ? [``, `Before → after:`, ...lines.map((l) => `  ${l}`)] : []),
    ``,
    windowText,
    ...(released ? [released] : []),
    corrections,
    ``,
    cite,
    citeUrl,
    ``,
    recipient,
    ...(opts.unsubscribeUrl ? unsubscribeText(opts.unsubscribeUrl) : []),
    stopWithKey,
    ``,
    DISCLAIMER,
    ``,
    `Alert ${alert.alert_id}`,
  ]
    .map(wrapProse)
    .join('\n');

  const e = escapeHtml;
  const row = (label: string, value: string) => `<tr><th align="left" valign="top">${e(label)}</th><td>${value}</td></tr>`;
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.4">
<p>A confirmed ${e(alert.dimension)} change was released for <strong>${e(product)}</strong> (${e(alert.product_id)}).</p>
<table cellpadding="4">
${row('What changed', e(alert.summary))}
${lines.length > 0 ? row('Before → after', lines.map((l) => e(l)).join('<br>')) : ''}
${row('When', e(windowText))}
${released ? row('Released', e(alert.released_on ?? '')) : ''}
${row('Corrections', e(corrections.replace(/^Corrections: /, '')))}
${row('Cite', `${e(cite)}<br><code>${e(citeUrl)}</code>`)}
</table>
<p>${e(recipient)}</p>
${unsubscribeHtml(opts.unsubscribeUrl, product)}
<p>${e(stopWithKey)}</p>
<p><small>${e(DISCLAIMER)}</small></p>
<p><small>Alert ${e(alert.alert_id)}</small></p>
</body></html>`;

  return {
    subject,
    text,
    html,
    messageId: messageIdFor(alert.alert_id, opts.mailFrom),
    headers: listUnsubscribeHeaders(opts.unsubscribeUrl),
  };
}

/** The one-click way to stop, in a text part: the sentence, then the link whole on its own line. */
export function unsubscribeText(unsubscribeUrl: string): string[] {
  return ['Stop alerts about this product with one click (no API key needed):', unsubscribeUrl];
}

/** The same in an HTML part ('' without a link). */
export function unsubscribeHtml(unsubscribeUrl: string | null, product: string): string {
  return unsubscribeUrl ? `<p><a href="${escapeHtml(unsubscribeUrl)}">Stop alerts about ${escapeHtml(product)}</a> (one click, no API key needed).</p>` : '';
}

/**
 * RFC 2369 List-Unsubscribe and RFC 8058 List-Unsubscribe-Post for an email
 * about one watched product (any template sent to a watcher uses these). No
 * mailto: nothing here reads mail sent back, and Gmail and Yahoo need only
 * the one-click HTTPS link (decision 0510).
 */
export function listUnsubscribeHeaders(unsubscribeUrl: string | null): Record<string, string> {
  return unsubscribeUrl ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': ONE_CLICK_BODY } : {};
}

const TEXT_WIDTH = 76;

/** Wraps prose at word boundaries to 76 columns; a line that is one long word (a URL) is left whole. */
function wrapProse(line: string): string {
  if (line.length <= TEXT_WIDTH || !line.includes(' ')) return line;
  const indent = /^\s*/.exec(line)![0];
  const out: string[] = [];
  let current = '';
  for (const word of line.trim().split(/\s+/)) {
    if (current && current.length + 1 + word.length > TEXT_WIDTH - indent.length) {
      out.push(indent + current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(indent + current);
  return out.join('\n');
}
