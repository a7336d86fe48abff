import net from 'node:net';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityList, scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { customer, type Customer } from '../resilience/support/operator';

/**
 * OWASP API7:2023 Server Side Request Forgery. By design no capability
 * takes a URL: the only outbound requests are the gateway's to its fixed,
 * configured upstreams, the MCP service's to its configured gateway, and
 * the email worker's to its configured SMTP relay. This test checks the
 * design (no request schema has a URL-shaped field) and the behaviour: a
 * canary listener's address, sent in every field of every capability, in
 * MCP tool arguments and in every routing-related header, is never
 * connected to.
 */
let stack: RunningStack;
let caller: Customer;
let canary: net.Server;
let canaryPort: number;
const connections: string[] = [];

beforeAll(async () => {
  canary = net.createServer((socket) => {
    connections.push(`${socket.remoteAddress}:${socket.remotePort}`);
    socket.destroy();
  });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', () => r()));
  canaryPort = (canary.address() as net.AddressInfo).port;
  stack = await startStack('sec-api7', { services: ['record', 'signals', 'ledger', 'watch', 'mcp', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((r) => canary.close(() => r()));
});

type JsonSchema = { type?: string; format?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema };

function fieldsOf(schema: JsonSchema, prefix = ''): Array<{ name: string; schema: JsonSchema }> {
  const out: Array<{ name: string; schema: JsonSchema }> = [];
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    out.push({ name: `${prefix}${name}`, schema: s });
    out.push(...fieldsOf(s, `${prefix}${name}.`));
    if (s.items) out.push(...fieldsOf(s.items, `${prefix}${name}[].`));
  }
  return out;
}

describe('API7 server-side request forgery', () => {
  it('has no request field that takes a URL, in any capability', () => {
    for (const cap of capabilityList) {
      for (const part of [cap.params, cap.query, cap.body]) {
        if (!part) continue;
        for (const { name, schema } of fieldsOf(z.toJSONSchema(part, { io: 'input', unrepresentable: 'any' }) as JsonSchema)) {
          expect(name, `${cap.name}.${name}`).not.toMatch(/url|uri|href|link|callback|webhook|endpoint|host|address|redirect/i);
          expect(schema.format ?? '', `${cap.name}.${name}`).not.toMatch(/uri|url|iri|hostname|ipv/);
          expect(schema.items?.format ?? '', `${cap.name}.${name}[]`).not.toMatch(/uri|url|iri|hostname|ipv/);
        }
      }
    }
  });

  it('treats URLs sent in every field, tool argument and routing header as plain strings, and fetches none', async () => {
    const target = `127.0.0.1:${canaryPort}`;
    const urls = [`http://${target}/latest/meta-data/`, `https://${target}/`, `//${target}/x`, `gopher://${target}/_x`, `http://[::ffff:127.0.0.1]:${canaryPort}/`, 'file:///etc/passwd', `http://localhost:${canaryPort}@evil.example/`];
    const replies = [];
    for (const url of urls) {
      for (const cap of capabilityList) {
        let path = cap.path.replace(/:([a-z_]+)/g, () => encodeURIComponent(url));
        const query = Object.keys((z.toJSONSchema(cap.query) as JsonSchema).properties ?? {});
        if (query.length > 0) path += `?${query.map((q) => `${q}=${encodeURIComponent(url)}`).join('&')}`;
        const body = cap.body ? Object.fromEntries(Object.keys((z.toJSONSchema(cap.body) as JsonSchema).properties ?? {}).map((f) => [f, f.endsWith('_ids') ? [url, url] : url])) : undefined;
        replies.push(await send(stack.baseUrl, cap.method, path, { key: caller.key, ...(body ? { body } : {}) }));
      }
      // Free-text fields accept it: an ordinary answer about the Record, with nothing fetched.
      const search = await send(stack.baseUrl, 'POST', '/api/v1/record/search', { key: caller.key, body: { query: url } });
      const resolve = await send(stack.baseUrl, 'POST', '/api/v1/products/resolve', { key: caller.key, body: { identifier: url } });
      expect(search.status).toBe(200);
      expect(resolve.status).toBe(200);
      expect(resolve.body.product ?? null).toBeNull();
      replies.push(search, resolve);
      // Through MCP: the tool call goes to the gateway the MCP service is configured with, never to a URL in its arguments.
      const mcp = await send(stack.baseUrl, 'POST', '/mcp', {
        key: caller.key,
        headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record.search', arguments: { query: url } } },
      });
      expect(mcp.status).toBe(200);
      replies.push(mcp);
    }
    // Headers that some proxies use to decide where a request goes.
    for (const [name, value] of [
      ['host', target],
      ['x-forwarded-host', target],
      ['x-forwarded-proto', 'http'],
      ['forwarded', `host=${target};proto=http`],
      ['x-original-url', `http://${target}/`],
      ['x-rewrite-url', `http://${target}/`],
      ['referer', `http://${target}/`],
      ['x-forwarded-for', '127.0.0.1'],
    ] as const) {
      const r = await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: caller.key, headers: { [name]: value } });
      expect(r.status, name).toBe(200);
      replies.push(r);
    }
    for (const r of replies) {
      expect(r.status, r.text.slice(0, 160)).toBeGreaterThan(0);
      expect(r.status, r.text.slice(0, 160)).toBeLessThan(500);
    }
    await new Promise((r) => setTimeout(r, 2000)); // a grace for a connection that must not come: an absence has no state to wait for
    expect(connections).toEqual([]);
  });
});
