import http, { type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { customer, query, type Customer } from '../resilience/support/operator';

/**
 * OWASP API2:2023 Broken Authentication, between the gateway and a service
 * (decision 0313; issue 26's review measured a signed `POST /api/v1/watch`
 * replayed 20 s later with another body, and verified). A pass-through
 * placed between the real gateway and the real watch service keeps what the
 * gateway sent; the test then plays an attacker inside the cluster who saw
 * it: the same signature with another body, another content type, another
 * query, or again as it was. The watch service refuses each (401), and the
 * account's watchlist holds only what its key asked for.
 */
interface Captured {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let stack: RunningStack;
let caller: Customer;
let products: string[];
let tap: http.Server;
const captured: Captured[] = [];

beforeAll(async () => {
  // The pass-through forwards to the watch service's port, which is known once the stack has picked its ports:
  // it is given a port now, and learns where to forward when the stack is up.
  let watchPort = 0;
  tap = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      captured.push({ method: req.method!, url: req.url!, headers: { ...req.headers }, body });
      const out = http.request({ host: '127.0.0.1', port: watchPort, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  const tapPort = await freePort();
  await new Promise<void>((r) => tap.listen(tapPort, '127.0.0.1', r));
  stack = await startStack('sec-api2-signing', { services: ['watch', 'gateway'], extraEnv: { gateway: { WATCH_URL: `http://127.0.0.1:${tapPort}` } } });
  watchPort = stack.ports.watch;
  caller = await customer(stack, { plan: 'pro', scopes: ['watch:manage', 'products:read'], account: true });
  products = (await query<{ product_id: string }>(stack, `SELECT product_id FROM products WHERE retired_on IS NULL AND depth_class <> 'REGISTERED' ORDER BY product_id LIMIT 3`)).map((r) => r.product_id);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  tap?.closeAllConnections();
  await new Promise<void>((r) => (tap ? tap.close(() => r()) : r()));
});

/** Sends a captured request again, straight to the watch service, with `change` applied. */
async function replay(c: Captured, change: { body?: Buffer; headers?: Record<string, string>; url?: string } = {}): Promise<number> {
  const body = change.body ?? c.body;
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.headers)) if (v !== undefined && k !== 'connection' && k !== 'host') headers[k] = v;
  Object.assign(headers, change.headers ?? {}, { 'content-length': String(body.length) });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: stack.ports.watch, method: c.method, path: change.url ?? c.url, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const watchlist = async () => {
  const r = await send(stack.baseUrl, 'GET', '/api/v1/watch', { key: caller.key });
  expect(r.status).toBe(200);
  return (r.body.watch as { items: Array<{ product_id: string }> }).items.map((i) => i.product_id).sort();
};

describe('API2 internal signatures: a request the gateway signed cannot be reused', () => {
  it('refuses the signature with another body, content type or query, and refuses it again as it was', async () => {
    const [asked, other] = products as [string, string];
    const add = await send(stack.baseUrl, 'POST', '/api/v1/watch', { key: caller.key, body: { product_id: asked } });
    expect(add.status).toBe(200);
    const signed = captured.find((c) => c.method === 'POST' && c.url.startsWith('/api/v1/watch'));
    expect(signed, 'the gateway forwarded the POST through the pass-through').toBeDefined();
    expect(JSON.parse(signed!.body.toString())).toEqual({ product_id: asked });

    // Well inside any window the signature might have: at once.
    expect(await replay(signed!, { body: Buffer.from(JSON.stringify({ product_id: other })) }), 'another body').toBe(401);
    expect(await replay(signed!, { headers: { 'content-type': 'text/plain' } }), 'another content type').toBe(401);
    expect(await replay(signed!, { url: `${signed!.url}?product_id=${other}` }), 'another query').toBe(401);
    expect(await replay(signed!), 'the same request again').toBe(401);
    expect(await watchlist()).toEqual([asked]);
  });
});
