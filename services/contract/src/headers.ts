/** Header names shared between the gateway and the services. */
export const headers = {
  requestId: 'x-request-id',
  serviceOrigin: 'x-service-origin',
  serviceKey: 'x-service-key',
  /**
   * Set by a capability on its answer: the distinct entity ids the answer
   * names, comma-separated, of the kind in the capability's Cost column.
   * The gateway charges the daily budget from it and strips it before the
   * answer leaves.
   */
  budgetEntities: 'x-budget-entities',
  /** Identity the gateway forwards to services after authentication. Clients can never set these: the gateway strips every x-er-* header it receives. */
  orgId: 'x-er-org-id',
  keyId: 'x-er-key-id',
  planId: 'x-er-plan-id',
  accountId: 'x-er-account-id',
  watchLimit: 'x-er-watch-limit',
  /**
   * Set by the gateway on a page request (feed, category snapshot) whose full
   * page would cross the organisation's daily budget: the most Signals the
   * page may hold. The service answers that many, `partial`, with next_cursor
   * at the first one not given (docs/decisions/0312-partial-pages-within-the-budget.md).
   */
  pageCap: 'x-er-page-cap',
  /**
   * Set by the gateway on its call to the watch service's internal unsubscribe: when the link's email was sent
   * (unix ms, from the verified token); absent for a link minted before links carried it (decision 1901).
   */
  unsubscribeIssuedAt: 'x-er-unsubscribe-issued-at',
  /** The gateway's current record version, sent to the MCP service for the refusals it builds itself. */
  recordVersion: 'x-er-record-version',
  /**
   * On the MCP service's answer to the gateway (never to a client): how many
   * tools/call requests it answered without a REST call (unknown tool, bad
   * arguments), which the gateway then counts in the key's protocol window.
   */
  mcpUnmetered: 'x-er-mcp-unmetered',
} as const;

export const internalHeaderPrefix = 'x-er-';

export const CACHE_CONTROL = 'private, no-store, max-age=0, must-revalidate';

export function formatEntities(ids: Iterable<string>): string {
  return [...new Set(ids)].join(',');
}

export function parseEntities(value: string | string[] | undefined): string[] {
  if (!value) return [];
  const raw = Array.isArray(value) ? value.join(',') : value;
  return [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
}
