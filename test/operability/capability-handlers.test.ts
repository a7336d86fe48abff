import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { METHODOLOGY_VERSION, buildAnswer, type CapabilityInput, type CapabilityOf } from '@evidence-record/contract';
import {
  Metrics,
  createLogger,
  createServiceApp,
  finishServiceApp,
  mountServiceCapabilities,
  type CapabilityResult,
  type HandlerOf,
  type ServiceAppOptions,
  type ServiceHandlers,
} from '@evidence-record/platform';
import { request } from './support';

/**
 * How a service wires its capabilities: one map from capability name to
 * handler, typed from the contract's rows, mounted by the platform. Each
 * handler receives the input its row's schemas parsed and its own name.
 */
const record = { record_version: 'rv_00000001', record_as_of: '2026-01-01', record_timestamp: '2026-01-01T00:00:00.000Z', methodology_version: METHODOLOGY_VERSION };

/** Answers with what the handler received, so the test reads it back. */
const echo = (input: CapabilityInput<CapabilityOf<'list_watched_products' | 'get_watch_receipt' | 'watch_product' | 'unwatch_product'>>, requestId: string): CapabilityResult => ({
  answer: buildAnswer({ request_id: requestId, capability: input.capability, status: 'supported', summary: 'Echo.', confidence: { level: 'high', basis: 'test' }, coverage: { input }, record }),
  entities: [],
});

const watchHandlers: ServiceHandlers<'watch'> = {
  list_watched_products: async (input, ctx) => echo(input, ctx.requestId),
  // The typed input: `period` is the parsed query's own field, no cast.
  get_watch_receipt: async (input, ctx) => echo({ ...input, query: { period: input.query.period ?? 'none' } }, ctx.requestId),
  watch_product: async (input, ctx) => echo({ ...input, body: { product_id: input.body.product_id } }, ctx.requestId),
  unwatch_product: async (input, ctx) => echo({ ...input, params: { product_id: input.params.product_id } }, ctx.requestId),
};

const opts: ServiceAppOptions = { name: 'watch', log: createLogger('test', 'silent'), metrics: new Metrics('test'), readiness: async () => undefined, recordVersion: async () => record.record_version };
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

async function serve(handlers: ServiceHandlers<'watch'>): Promise<string> {
  const app = createServiceApp(opts);
  mountServiceCapabilities(app, opts, 'watch', handlers);
  finishServiceApp(app, opts);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('capability handlers typed from the contract', () => {
  it('mounts every capability of the service; each handler gets its parsed input and its own name', async () => {
    const base = await serve(watchHandlers);
    const receipt = await request(`${base}/api/v1/watch/receipt?period=2026-01`);
    expect(receipt.status).toBe(200);
    expect(JSON.parse(receipt.text)).toMatchObject({ capability: 'get_watch_receipt', coverage: { input: { capability: 'get_watch_receipt', params: {}, query: { period: '2026-01' } } } });

    const added = await request(`${base}/api/v1/watch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product_id: 'prd_aaaaaaaaaaaa' }) });
    expect(JSON.parse(added.text)).toMatchObject({ capability: 'watch_product', coverage: { input: { capability: 'watch_product', body: { product_id: 'prd_aaaaaaaaaaaa' } } } });

    const removed = await request(`${base}/api/v1/watch/prd_bbbbbbbbbbbb`, { method: 'DELETE' });
    expect(JSON.parse(removed.text)).toMatchObject({ capability: 'unwatch_product', coverage: { input: { capability: 'unwatch_product', params: { product_id: 'prd_bbbbbbbbbbbb' } } } });

    const listed = await request(`${base}/api/v1/watch`);
    expect(JSON.parse(listed.text)).toMatchObject({ capability: 'list_watched_products' });
  });

  it('the handler never sees what its row refuses', async () => {
    let called = false;
    const base = await serve({ ...watchHandlers, get_watch_receipt: async (input, ctx) => ((called = true), echo(input, ctx.requestId)) });
    const bad = await request(`${base}/api/v1/watch/receipt?period=January`);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ capability: 'get_watch_receipt', error: { code: 'invalid_request' } });
    expect(called).toBe(false);
  });

  it('a handler for a capability the service does not own is refused at start', () => {
    const app = createServiceApp(opts);
    const stray: HandlerOf<'get_product_record'> = async () => {
      throw new Error('never mounted');
    };
    const withStray = { ...watchHandlers, get_product_record: stray };
    expect(() => mountServiceCapabilities(app, opts, 'watch', withStray)).toThrow('watch does not answer get_product_record');
  });

  it('a missing or a stray capability does not compile', () => {
    const { get_watch_receipt: _left, ...missing } = watchHandlers;
    // @ts-expect-error get_watch_receipt is missing
    const incomplete: ServiceHandlers<'watch'> = missing;
    const stray: HandlerOf<'get_product_record'> = async () => {
      throw new Error('never mounted');
    };
    // @ts-expect-error get_product_record is not a watch capability
    const extra: ServiceHandlers<'watch'> = { ...watchHandlers, get_product_record: stray };
    // @ts-expect-error a handler's input is its own row's: get_watch_receipt takes no body
    const wrong: HandlerOf<'get_watch_receipt'> = async (input) => echo({ ...input, body: input.body.product_id }, 'req');
    expect([incomplete, extra, wrong]).toHaveLength(3);
  });
});
