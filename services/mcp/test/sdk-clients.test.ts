import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { generateKey } from '@evidence-record/contract';
import { StandinGateway } from './standin-gateway';
import { startMcp, type RunningMcp } from './harness';

/**
 * Today's official clients against the service: the newest 1.x SDK
 * (`@modelcontextprotocol/sdk`) and the newest 2.x client
 * (`@modelcontextprotocol/client`), in its default mode and in the mode
 * that probes for the 2026-07-28 revision first (docs/decisions/0604).
 * Each connects on 2025-11-25, lists the tools, calls one, and gets a bad
 * argument back as a tool result it can show the model, not as a throw.
 */
const { key } = generateKey('test');
const headers = { authorization: `Bearer ${key}` };

let gateway: StandinGateway;
let server: RunningMcp;

beforeAll(async () => {
  gateway = new StandinGateway();
  await gateway.start();
  server = await startMcp({ GATEWAY_URL: gateway.url });
});

afterAll(async () => {
  await server?.stop();
  await gateway?.stop();
});

interface AnyClient {
  listTools: () => Promise<{ tools: { name: string }[] }>;
  callTool: (p: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;
  close: () => Promise<void>;
}

async function exercise(client: AnyClient): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(18);
  const answer = (await client.callTool({ name: 'products.resolve', arguments: { identifier: 'Acme Blast' } })) as { isError?: boolean; structuredContent?: { capability?: string } };
  expect(answer.isError).toBeFalsy();
  expect(answer.structuredContent?.capability).toBe('resolve_product');
  const bad = (await client.callTool({ name: 'products.compare', arguments: { product_ids: ['prd_abc123def456'] } })) as {
    isError?: boolean;
    structuredContent?: { error?: { code?: string; details?: { field?: string } } };
  };
  expect(bad.isError).toBe(true);
  expect(bad.structuredContent?.error).toMatchObject({ code: 'invalid_request', details: { field: 'product_ids' } });
  await client.close();
}

describe('official SDK clients', () => {
  it('the newest 1.x client negotiates 2025-11-25 and works', async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    const transport = new TransportV1(new URL(`${server.url}/mcp`), { requestInit: { headers } });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe('2025-11-25');
    await exercise(client as unknown as AnyClient);
  });

  it('the newest 2.x client negotiates 2025-11-25 and works, by default and when it probes for 2026-07-28 first', async () => {
    for (const mode of ['legacy', 'auto'] as const) {
      const client = new ClientV2({ name: 'v2', version: '2.0.0' }, { versionNegotiation: { mode } });
      const transport = new TransportV2(new URL(`${server.url}/mcp`), { requestInit: { headers } });
      await client.connect(transport);
      expect(client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion, mode).toBe('2025-11-25');
      await exercise(client as unknown as AnyClient);
    }
  });
});
