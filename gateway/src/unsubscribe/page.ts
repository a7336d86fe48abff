import escapeHtml from 'escape-html';
import { ONE_CLICK_BODY } from '@evidence-record/contract';

/**
 * The small HTML pages of the one-click unsubscribe (the only HTML the
 * gateway serves). Every value is escaped with escape-html; the form posts
 * the RFC 8058 body to the same address, so the page and a mail provider's
 * one-click POST take the same path.
 */
export interface UnsubscribeTarget {
  product: string;
  productId: string;
  /** The account's address, partly masked: enough for its owner to recognise, not a directory for whoever holds the link. */
  recipient: string | null;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} · Evidence Record</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

export function confirmPage(target: UnsubscribeTarget, actionUrl: string): string {
  const [name, value] = ONE_CLICK_BODY.split('=') as [string, string];
  return page(
    'Stop alerts about this product?',
    `<p>Stop email alerts about <strong>${escapeHtml(target.product)}</strong> (${escapeHtml(target.productId)})${
      target.recipient ? ` sent to <strong>${escapeHtml(target.recipient)}</strong>` : ''
    }.</p>
<p>This removes the product from the account's watchlist. Alerts already delivered stay where they are; other watched products are not affected.</p>
<form method="post" action="${escapeHtml(actionUrl)}">
<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">
<button type="submit">Stop these alerts</button>
</form>`,
  );
}

export function donePage(target: UnsubscribeTarget, changed: boolean): string {
  return page(
    'Alerts stopped',
    `<p id="outcome">${
      changed
        ? `You will no longer receive alerts about <strong>${escapeHtml(target.product)}</strong>.`
        : `<strong>${escapeHtml(target.product)}</strong> was not on the watchlist; no alerts about it will be sent.`
    }</p>
<p>To watch it again, use watch_product with an API key of the account.</p>`,
  );
}

export type RefusalKind = 'invalid' | 'expired' | 'older_than_watch' | 'not_one_click' | 'too_many' | 'too_large' | 'unavailable' | 'method';

const refusals: Record<RefusalKind, { title: string; text: string }> = {
  invalid: {
    title: 'This link is not valid',
    text: 'The unsubscribe link is incomplete or was altered. Open the link exactly as it appears in the alert email, or remove the watch with an API key of the account (unwatch_product).',
  },
  expired: {
    title: 'This link has expired',
    text: 'Unsubscribe links work for a limited time after an alert is sent. Use the link in a more recent alert email, or remove the watch with an API key of the account (unwatch_product).',
  },
  older_than_watch: {
    title: 'This link is older than the watch',
    text: 'This product was added to the watchlist again after the email with this link was sent, so the link no longer stops its alerts; nothing was changed. Use the link in a more recent alert email, or remove the watch with an API key of the account (unwatch_product).',
  },
  not_one_click: {
    title: 'Nothing was changed',
    text: `This address takes the one-click form (${ONE_CLICK_BODY}). Open the link from the alert email and press the button.`,
  },
  too_many: { title: 'Too many attempts', text: 'This link was used too often in a short time. Wait a few minutes and try again.' },
  too_large: { title: 'Request too large', text: 'The request body is larger than this address accepts.' },
  unavailable: { title: 'Please try again later', text: 'Unsubscribing is not available right now; nothing was changed. Try the link again in a few minutes.' },
  method: { title: 'Nothing was changed', text: 'This address accepts GET (the confirmation page) and POST (the one-click unsubscribe) only.' },
};

export function refusalPage(kind: RefusalKind): string {
  const r = refusals[kind];
  return page(r.title, `<p id="refusal" data-reason="${kind}">${escapeHtml(r.text)}</p>`);
}
