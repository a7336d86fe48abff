import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';
import Negotiator from 'negotiator';
import type { IncomingHttpHeaders } from 'node:http';
import { signalIdPattern, signalUrl } from '@evidence-record/contract';

/**
 * A Signal's address (`signal_url`, the "address to cite" of alert emails)
 * opened in a browser without a key: the same 401, but a short page saying
 * what the address is and how to read it with a key, over REST and MCP. It
 * names nothing the visitor did not bring: the Signal id from the address
 * they opened (when it is one), never whether it exists or anything of it.
 * Every API client, which asks for JSON, or for anything (`*\/*`), or sends
 * no Accept, keeps the JSON envelope (decision 1302).
 */

/** True when the client prefers HTML to JSON (a browser); on a tie JSON wins. */
export function prefersHtml(headers: IncomingHttpHeaders): boolean {
  return new Negotiator({ headers }).mediaType(['application/json', 'text/html']) === 'text/html';
}

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}pre,code{background:#f4f4f4;border-radius:3px}pre{padding:.6rem;overflow-x:auto}';

/** Nothing loads, nothing runs, no form posts, no framing; only this page's own style block (by its hash). */
export const SIGNAL_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function signalAddressPage(publicBaseUrl: string, rawSignalId: string | undefined): string {
  const id = rawSignalId && signalIdPattern.test(rawSignalId) ? rawSignalId : null;
  const address = id ? signalUrl(publicBaseUrl, id) : `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/signals/{signal_id}`;
  const mcp = `${publicBaseUrl.replace(/\/+$/, '')}/mcp`;
  const e = escapeHtml;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>A Signal of the Evidence Record · API key required</title>
<style>${STYLE}</style>
</head><body>
<h1>A Signal of the Evidence Record</h1>
<p id="what">This is the permanent address of ${id ? `Signal <strong>${e(id)}</strong>` : 'a Signal'}: a dated, reviewed change to what a U.S. pre-workout supplement declares on its label, or to what it costs per serving, with its evidence and the window in which it was observed. It is the address to cite.</p>
<p id="key">Reading it takes an API key with the <code>signals:read</code> scope: nothing of the Record is shown without one.</p>
<h2>With the API</h2>
<pre>curl -H "Authorization: Bearer $EVIDENCE_RECORD_KEY" \\
  ${e(address)}</pre>
<h2>With an MCP client</h2>
<p>Connect the client to <code>${e(mcp)}</code> with the key as its Bearer token, and call the tool <code>signals.explain</code> with <code>${e(JSON.stringify({ signal_id: id ?? 'sig_…' }))}</code>.</p>
</body></html>
`;
}
