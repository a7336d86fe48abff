import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '@evidence-record/contract';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { call, releaseSignalOn } from '@evidence-record/test-support/client';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * A correction keeps what was published, and tells the people who were
 * emailed: the whole stack as processes (real Postgres, NATS JetStream and
 * SMTP), driven through the operator CLI and the public API.
 */
let stack: RunningStack;
let productId = '';
let signalId = '';
let releasedSummary = '';
const accounts: Array<{ key: string; accountId: string; email: string }> = [];

/** The message as a reader sees it: quoted-printable soft line breaks and escapes undone. */
const readable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const mailsTo = (email: string, needle: string) => stack.smtp.messages.filter((m) => m.to.includes(email) && readable(m.raw).includes(needle));

beforeAll(async () => {
  stack = await startStack('corrections', { services: ['record', 'signals', 'watch', 'email-worker', 'gateway'] });
  for (let i = 0; i < 2; i++) {
    const k = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: `watcher ${i}` });
    const email = ((await stack.admin('org', 'show', k.orgId)).accounts as Array<{ email: string }>)[0]!.email;
    accounts.push({ key: k.key, accountId: k.accountId!, email });
  }
  const resolved = await call(stack, accounts[0]!.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' });
  productId = resolved.body!.product.product_id as string;
  for (const a of accounts) expect((await call(stack, a.key, 'POST', '/api/v1/watch', { product_id: productId })).status).toBe(200);
  const released = await releaseSignalOn(stack, accounts[0]!.key, productId);
  signalId = released.signalId;
  for (const a of accounts) await waitFor(`the release alert to ${a.email}`, () => mailsTo(a.email, signalId).length === 1, 30_000, 100);
  const explained = await call(stack, accounts[0]!.key, 'GET', `/api/v1/signals/${signalId}`);
  releasedSummary = explained.body!.signals[0].summary as string;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('a correction keeps what was published and tells whoever was emailed, once', () => {
  it('explain_signal and the feed show the released and the corrected summary; id, address and release date stay', async () => {
    const before = (await call(stack, accounts[0]!.key, 'GET', `/api/v1/signals/${signalId}`)).body!.signals[0] as Record<string, unknown>;
    const corrected = await stack.admin('signal', 'correct', signalId, '--note', 'The caffeine amount was re-read: 285 mg.', '--summary', 'Caffeine per serving changed to 285 mg (corrected).');
    expect(corrected).toMatchObject({ kind: 'correction', summary_before: releasedSummary, notices: 2, outbox: { nats: 'published' } });

    const after = (await call(stack, accounts[0]!.key, 'GET', `/api/v1/signals/${signalId}`)).body!.signals[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect([after.signal_id, after.signal_url, after.review]).toEqual([before.signal_id, before.signal_url, before.review]);
    expect(after.status).toBe('corrected');
    expect(after.summary).toBe('Caffeine per serving changed to 285 mg (corrected).');
    expect(after.corrections).toEqual([
      {
        kind: 'correction',
        recorded_on: new Date().toISOString().slice(0, 10),
        note: 'The caffeine amount was re-read: 285 mg.',
        summary_before: releasedSummary,
        summary_after: 'Caffeine per serving changed to 285 mg (corrected).',
      },
    ]);
    const feed = await call(stack, accounts[0]!.key, 'GET', `/api/v1/signals?product_id=${productId}&limit=10`);
    const inFeed = (feed.body!.signals as Array<Record<string, any>>).find((s) => s.signal_id === signalId)!; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(inFeed.corrections[0].summary_before).toBe(releasedSummary);
    expect(inFeed.review).toEqual(before.review);
    // The same Signal inside the product's formula history: the same corrections, summaries included.
    const history = await call(stack, accounts[0]!.key, 'GET', `/api/v1/products/${productId}/history`);
    const inHistory = (history.body!.signals as Array<Record<string, any>>).find((s) => s.signal_id === signalId)!; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(inHistory.summary).toBe(after.summary);
    expect(inHistory.corrections).toEqual(after.corrections);
  }, 60_000);

  it('sends one correction email to every account that was emailed the alert, exactly once', async () => {
    for (const a of accounts) await waitFor(`the correction email to ${a.email}`, () => mailsTo(a.email, 'Corrected summary').length === 1, 30_000, 100);
    // Re-publishing the notices (as a relay restart would) sends nothing twice.
    await stack.admin('outbox', 'drain');
    await new Promise((r) => setTimeout(r, 1_500)); // a duplicate, if any, would arrive now (an absence has no state to wait for)
    for (const a of accounts) {
      const notices = mailsTo(a.email, 'Corrected summary');
      expect(notices).toHaveLength(1);
      expect(readable(notices[0]!.raw)).toContain(signalId);
      expect(readable(notices[0]!.raw)).toContain('re-read: 285 mg');
      expect(readable(notices[0]!.raw)).toContain(releasedSummary);
    }
    const listed = await stack.admin('alert', 'list', '--account', accounts[0]!.accountId);
    expect((listed.alerts as Array<{ kind: string; status: string }>).map((x) => [x.kind, x.status]).sort()).toEqual([
      ['correction', 'sent'],
      ['release', 'sent'],
    ]);
  }, 60_000);

  it('a withdrawal likewise: one notice each, even for an account that stopped watching', async () => {
    expect((await call(stack, accounts[1]!.key, 'DELETE', `/api/v1/watch/${productId}`)).status).toBe(200);
    const withdrawn = await stack.admin('signal', 'withdraw', signalId, '--note', 'Withdrawn: the second label was a counterfeit listing.');
    expect(withdrawn).toMatchObject({ kind: 'withdrawal', notices: 2 });
    for (const a of accounts) await waitFor(`the withdrawal email to ${a.email}`, () => mailsTo(a.email, 'counterfeit listing').length === 1, 30_000, 100);
    const after = (await call(stack, accounts[0]!.key, 'GET', `/api/v1/signals/${signalId}`)).body!.signals[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(after.status).toBe('withdrawn');
    expect(after.corrections.map((c: { kind: string }) => c.kind)).toEqual(['correction', 'withdrawal']);
    expect(after.corrections[0].summary_before).toBe(releasedSummary);
    await new Promise((r) => setTimeout(r, 1_000)); // a duplicate, if any, would arrive now
    for (const a of accounts) expect(mailsTo(a.email, 'counterfeit listing')).toHaveLength(1);
  }, 60_000);
});
