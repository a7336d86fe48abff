import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes, selfServiceScopes } from '@evidence-record/contract';
import { issueKey, serviceNames, startStack, type RunningStack, type ServiceName } from '@evidence-record/test-support/stack';
import { call, releaseSignalOn } from '@evidence-record/test-support/client';
import { declared, scrape, select, valueOf, waitFor, type Sample } from './support';

/**
 * The whole stack as processes, driven through the gateway: answers, a
 * gateway refusal, a service refusal, an MCP call, and a released Signal
 * that becomes an alert email after one temporary SMTP failure. Then every
 * service's /metrics is scraped and the named series are checked for
 * presence and for values that match what was done.
 */
let stack: RunningStack;
let pages: Record<ServiceName, { text: string; samples: Sample[] }>;
let signalId: string;

async function scrapeAll(): Promise<Record<ServiceName, { text: string; samples: Sample[] }>> {
  return Object.fromEntries(await Promise.all(serviceNames.map(async (n) => [n, await scrape(stack.ports[n])]))) as Record<ServiceName, { text: string; samples: Sample[] }>;
}

beforeAll(async () => {
  // Short SMTP backoff so the temporary failure is retried within the test.
  stack = await startStack('metrics', { extraEnv: { 'email-worker': { EMAIL_BACKOFF_BASE_MS: '200', EMAIL_BACKOFF_MAX_MS: '1000' } } });
  const pro = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'metrics pro' });
  const free = await issueKey(stack, { plan: 'free', scopes: [...selfServiceScopes], name: 'metrics free' });

  const resolved = await call(stack, pro.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' });
  expect(resolved.status).toBe(200);
  const productId = resolved.body!.product.product_id as string;
  expect((await call(stack, pro.key, 'GET', `/api/v1/products/${productId}`)).status).toBe(200);
  expect((await call(stack, pro.key, 'GET', '/api/v1/products/prd_zzzzzzzzzzzz')).status).toBe(404);
  expect((await call(stack, free.key, 'GET', '/api/v1/ledger')).status).toBe(403);
  expect((await call(stack, pro.key, 'GET', '/api/v1/ledger')).status).toBe(200);
  expect((await call(stack, pro.key, 'GET', '/api/v1/signals?limit=2')).status).toBe(200);
  expect((await call(stack, pro.key, 'POST', '/api/v1/watch', { product_id: productId })).status).toBe(200);
  const mcp = await fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${pro.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record.version', arguments: {} } }),
  });
  expect(mcp.status).toBe(200);

  // The first delivery attempt is refused for now (451); the retry delivers.
  stack.smtp.rejectWith = { code: 451, message: 'Try again later' };
  signalId = (await releaseSignalOn(stack, pro.key, productId)).signalId;
  await waitFor('a temporary SMTP failure', async () => (valueOf((await scrape(stack.ports['email-worker'])).samples, 'er_emails_failed_total', { kind: 'temporary' }) ?? 0) >= 1, 30_000, 200);
  stack.smtp.rejectWith = null;
  await waitFor('the alert email', () => stack.smtp.messages.some((m) => m.raw.includes(signalId)), 30_000, 200);
  // Lag is read from JetStream at scrape time; wait for both consumers to have settled everything.
  await waitFor('both consumers to settle', async () => {
    const [watch, worker] = await Promise.all([scrape(stack.ports.watch), scrape(stack.ports['email-worker'])]);
    return valueOf(watch.samples, 'er_jetstream_consumer_pending', { consumer: 'watch-fanout' }) === 0 && valueOf(worker.samples, 'er_jetstream_consumer_pending', { consumer: 'email-worker' }) === 0;
  }, 20_000, 200);
  pages = await scrapeAll();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('/metrics on every service', () => {
  it('labels every sample with its service and carries the process metrics', () => {
    for (const name of serviceNames) {
      const { samples } = pages[name];
      expect(samples.length, name).toBeGreaterThan(20);
      for (const s of samples) expect(s.labels.service, `${name} ${s.name}`).toBe(name);
      expect(valueOf(samples, 'process_cpu_seconds_total'), name).toBeGreaterThan(0);
    }
  });

  it('counts requests and their latency by capability and status, at the gateway and in each service', () => {
    const g = pages.gateway.samples;
    expect(valueOf(g, 'er_requests_total', { capability: 'get_product_record', status: '200', code: '' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(g, 'er_requests_total', { capability: 'get_product_record', status: '404', code: 'not_found' })).toBe(1);
    expect(valueOf(g, 'er_requests_total', { capability: 'list_ledger_editions', status: '403', code: 'insufficient_scope' })).toBe(1);
    expect(valueOf(g, 'er_requests_total', { capability: 'mcp', status: '200' })).toBeGreaterThanOrEqual(1);
    const count = valueOf(g, 'er_request_duration_seconds_count', { capability: 'get_product_record', status: '200' })!;
    expect(count).toBeGreaterThanOrEqual(1);
    expect(valueOf(g, 'er_request_duration_seconds_bucket', { capability: 'get_product_record', status: '200', le: '+Inf' })).toBe(count);
    expect(valueOf(g, 'er_request_duration_seconds_sum', { capability: 'get_product_record', status: '200' })).toBeGreaterThan(0);

    const perService: Array<[ServiceName, string]> = [
      ['record', 'get_product_record'],
      ['ledger', 'list_ledger_editions'],
      ['signals', 'list_signal_changes'],
      ['watch', 'watch_product'],
      ['mcp', 'mcp'],
    ];
    for (const [service, capability] of perService) {
      const s = pages[service].samples;
      expect(valueOf(s, 'er_requests_total', { capability, status: '200' }), `${service} ${capability}`).toBeGreaterThanOrEqual(1);
      expect(valueOf(s, 'er_request_duration_seconds_count', { capability, status: '200' }), `${service} ${capability}`).toBeGreaterThanOrEqual(1);
    }
    // The free key's ledger call never reached the ledger service.
    expect(valueOf(pages.ledger.samples, 'er_requests_total', { capability: 'list_ledger_editions', status: '403' })).toBeUndefined();
    expect(valueOf(pages.record.samples, 'er_requests_total', { capability: 'get_product_record', status: '404', code: 'not_found' })).toBe(1);
    expect(valueOf(pages.mcp.samples, 'er_mcp_messages_total', { method: 'tools/call', tool: 'record.version', outcome: 'ok' })).toBe(1);
  });

  it('counts refusals by code where they were decided', () => {
    expect(valueOf(pages.gateway.samples, 'er_refusals_total', { code: 'insufficient_scope' })).toBe(1);
    // The gateway counts the refusals it passes on too; the service counts its own.
    expect(valueOf(pages.gateway.samples, 'er_refusals_total', { code: 'not_found' })).toBe(1);
    expect(valueOf(pages.record.samples, 'er_refusals_total', { code: 'not_found' })).toBe(1);
    for (const name of serviceNames) expect(declared(pages[name].text, 'er_refusals_total', 'counter'), name).toBe(true);
  });

  it('counts the budget spent at the gateway', () => {
    expect(valueOf(pages.gateway.samples, 'er_gateway_budget_spent_total', { kind: 'product' })).toBeGreaterThanOrEqual(1);
  });

  it('has a zero-based error series for each dependency a service talks to, and no error in a healthy run', () => {
    const expected: Record<ServiceName, string[]> = {
      gateway: ['postgres', 'redis'],
      record: ['postgres'],
      signals: ['postgres', 'nats'],
      ledger: ['postgres'],
      watch: ['postgres', 'nats'],
      mcp: ['gateway'],
      'email-worker': ['postgres', 'nats', 'smtp'],
      console: ['postgres'],
      monitor: ['postgres'],
    };
    for (const [name, dependencies] of Object.entries(expected) as Array<[ServiceName, string[]]>) {
      expect(select(pages[name].samples, 'er_dependency_errors_total').map((s) => s.labels.dependency).sort(), name).toEqual([...dependencies].sort());
      for (const dependency of dependencies) expect(valueOf(pages[name].samples, 'er_dependency_errors_total', { dependency }), `${name} ${dependency}`).toBe(0);
    }
  });

  it('reports JetStream consumer lag for the fan-out and the email worker', () => {
    expect(valueOf(pages.watch.samples, 'er_jetstream_consumer_pending', { consumer: 'watch-fanout' })).toBe(0);
    expect(valueOf(pages['email-worker'].samples, 'er_jetstream_consumer_pending', { consumer: 'email-worker' })).toBe(0);
    expect(valueOf(pages.watch.samples, 'er_fanout_signals_total', { outcome: 'fanned_out' })).toBe(1);
    expect(valueOf(pages.watch.samples, 'er_fanout_alerts_created_total')).toBe(1);
  });

  it('counts emails sent and failed', () => {
    const w = pages['email-worker'].samples;
    expect(stack.smtp.messages.filter((m) => m.raw.includes(signalId))).toHaveLength(1);
    expect(valueOf(w, 'er_emails_sent_total')).toBe(1);
    expect(valueOf(w, 'er_emails_failed_total', { kind: 'temporary' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(w, 'er_email_send_duration_seconds_count')).toBe(1);
  });
});
