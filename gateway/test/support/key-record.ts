import type { KeyRecord } from '../../src/access/key-record';

/** A live key of org_a bound to one account, with a small plan; override what a test is about. */
export const key = (over: Partial<KeyRecord> = {}): KeyRecord => ({
  keyId: 'aaaaaaaaaaaaaaaa',
  orgId: 'org_a',
  environment: 'live',
  secretHash: '0'.repeat(64),
  scopes: new Set(['products:read', 'watch:manage', 'ledger:read']),
  expiresAt: null,
  revoked: false,
  suspended: false,
  orgSuspended: false,
  plan: { planId: 'p', windows: { minute: 1, hour: 1, day: 1 }, budgets: { product: 1, signal: 1, ingredient: 1 }, watchLimit: 1, capabilities: new Set(['get_product_record', 'list_watched_products']) },
  accountIds: ['acc_1'],
  ...over,
});
