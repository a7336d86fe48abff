import { html, type Safe } from '../html';
import { externalUrl } from '../format';

/** A source address as an external link (http/https only), opened apart from the console and told nothing of it. */
export function sourceLink(url: string | null): Safe {
  const href = externalUrl(url);
  if (!href) return html`${url ?? ''}`;
  return html`<a href="${href}" rel="noopener noreferrer" target="_blank" data-source-url>${url}</a>`;
}
