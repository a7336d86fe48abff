import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { buildAnswer, capabilityList, Refusal, type CapabilityRow, type RecordState, type ServiceName } from '@evidence-record/contract';
import { createLogger, createServiceApp, finishServiceApp, Metrics, mountCapability, requireGatewaySignature, signedBody, type CapabilityHandler } from '@evidence-record/platform';
import { testSigningKeys } from './harness';

/**
 * Small real upstream services for gateway tests: the platform's own
 * service app and mountCapability (so validation, refusal envelopes and the
 * x-budget-entities header are exactly what real services send), with
 * handlers that name predictable entities:
 *
 * - product ids starting with `prd_nf` are not in the Record (404 not_found);
 * - resolve and search name one product derived from the text;
 * - the feed pages over a fixed list of Signals, newest release first;
 * - every answer echoes, in `coverage.seen_headers`, the headers it received.
 */
const record: RecordState = {
  record_version: 'rv_00000001',
  record_as_of: '2026-11-01',
  record_timestamp: '2026-11-01T00:00:00.000Z',
  methodology_version: 'method-2026.11',
};

export const feedSignals = Array.from({ length: 60 }, (_, i) => ({
  id: `sig_${String(i).padStart(12, '0')}`,
  // One Signal released per day, newest first.
  releasedOn: new Date(Date.UTC(2026, 9, 31) - i * 86_400_000).toISOString().slice(0, 10),
}));

function productIdFor(text: string): string {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `prd_${h.toString(36).padStart(12, '0').slice(-12)}`;
}

export interface SeenRequest {
  capability: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

function handlerFor(seenById: Map<string, SeenRequest>): CapabilityHandler<CapabilityRow> {
  return async (input, ctx) => {
    let entities: string[] = [];
    let next_cursor: string | null | undefined;
    switch (input.capability) {
      case 'get_product_record':
      case 'get_formula_history':
      case 'get_serving_economics':
        if (String(input.params.product_id).startsWith('prd_nf')) throw new Refusal('not_found');
        entities = [input.params.product_id];
        break;
      case 'explain_signal':
        if (!feedSignals.some((s) => s.id === input.params.signal_id)) throw new Refusal('not_found');
        entities = [input.params.signal_id];
        break;
      case 'resolve_product':
        entities = [productIdFor(input.body.identifier)];
        break;
      case 'search_record':
        entities = [productIdFor(input.body.query)];
        break;
      case 'compare_products':
        entities = input.body.product_ids;
        break;
      case 'get_research_context':
      case 'get_regulatory_context':
        entities = input.body.ingredient_ids ?? [];
        break;
      case 'list_signal_changes': {
        // A page the gateway capped to the budget stops short, as the real feed does.
        const limit = Math.min(input.query.limit ?? 10, ctx.pageCap ?? Infinity);
        const offset = input.query.cursor ? Number(Buffer.from(input.query.cursor, 'base64url').toString()) : 0;
        const matching = feedSignals.filter((s) => (!input.query.since || s.releasedOn >= input.query.since) && (!input.query.until || s.releasedOn <= input.query.until));
        const page = matching.slice(offset, offset + limit);
        entities = page.map((s) => s.id);
        next_cursor = offset + limit < matching.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
        break;
      }
      case 'get_category_snapshot':
        entities = feedSignals.slice(0, 3).map((s) => s.id);
        break;
      case 'list_watched_products':
      case 'get_watch_receipt':
        entities = [];
        break;
      case 'watch_product':
        entities = [input.body.product_id];
        break;
      case 'unwatch_product':
        entities = [input.params.product_id];
        break;
      case 'list_ledger_editions':
      case 'get_ledger_edition':
        entities = feedSignals.slice(0, 2).map((s) => s.id);
        break;
      default:
        entities = [];
    }
    const mine = seenById.get(ctx.requestId);
    return {
      answer: buildAnswer({
        request_id: ctx.requestId,
        capability: input.capability,
        status: 'supported',
        summary: `Test answer for ${input.capability}.`,
        confidence: { level: 'high', basis: 'test upstream' },
        coverage: { entities, seen_headers: mine?.headers ?? {} },
        ...(next_cursor !== undefined ? { next_cursor } : {}),
        record,
      }),
      entities,
    };
  };
}

export interface FakeUpstreams {
  urls: Record<ServiceName | 'mcp', string>;
  seen: SeenRequest[];
  close: () => Promise<void>;
}

async function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
}

const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

/** One app per service, plus an MCP stand-in that echoes what it received. */
export async function startFakeUpstreams(): Promise<FakeUpstreams> {
  const seen: SeenRequest[] = [];
  const seenById = new Map<string, SeenRequest>();
  const servers: Server[] = [];
  const urls: Partial<Record<ServiceName | 'mcp', string>> = {};
  const log = createLogger('fake-upstream', 'silent');
  for (const service of ['record', 'signals', 'ledger', 'watch'] as const) {
    // They verify the gateway's signature like the real services: every gateway test forwards signed requests.
    const opts = { name: service, log, metrics: new Metrics(service), readiness: async () => undefined, recordVersion: async () => record.record_version, internalAuth: { service, keys: [testSigningKeys[service]] } };
    const app = createServiceApp(opts);
    app.use((req, res, next) => {
      const entry: SeenRequest = { capability: req.path, headers: { ...req.headers }, body: undefined };
      const id = String(req.headers['x-request-id']);
      seenById.set(id, entry);
      res.on('finish', () => seenById.delete(id));
      next();
    });
    for (const cap of capabilityList.filter((c) => c.service === service)) mountCapability(app, opts, cap, handlerFor(seenById));
    finishServiceApp(app, opts);
    const s = await listen(app);
    servers.push(s);
    urls[service] = urlOf(s);
  }
  const mcp = express();
  mcp.use(requireGatewaySignature({ service: 'mcp', keys: [testSigningKeys.mcp] }));
  mcp.use(express.raw({ type: () => true, limit: 16384, inflate: false, verify: signedBody }));
  mcp.all('/mcp', (req, res) => {
    seen.push({ capability: 'mcp', headers: { ...req.headers }, body: req.body?.length ? JSON.parse(req.body.toString()) : null });
    if (req.method === 'GET') return void res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
    // A misbehaving upstream header must never reach a client.
    res.set('Access-Control-Allow-Origin', '*');
    res.json({ jsonrpc: '2.0', id: 1, result: { echoed_method: req.body?.length ? JSON.parse(req.body.toString()).method : null } });
  });
  const ms = await listen(mcp);
  servers.push(ms);
  urls.mcp = urlOf(ms);
  return {
    urls: urls as Record<ServiceName | 'mcp', string>,
    seen,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
    },
  };
}
