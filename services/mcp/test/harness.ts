import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpApp, type McpApp } from '../src/app';
import { loadMcpConfig } from '../src/config';

export interface RunningMcp {
  url: string;
  host: string;
  mcp: McpApp;
  /** Every log line the service wrote (debug and up). */
  logs: string[];
  stop: () => Promise<void>;
}

/** The MCP service in-process on a free port, logging at debug into memory. */
export async function startMcp(env: NodeJS.ProcessEnv): Promise<RunningMcp> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const host = `127.0.0.1:${port}`;
  const config = loadMcpConfig({ MCP_ALLOWED_HOSTS: `${host},localhost:${port}`, MCP_SIGNING_KEYS: 'mcp-test-signing-key-'.padEnd(40, 'x'), ...env });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const mcp = createMcpApp(config, { log: pino({ level: 'debug' }, sink) });
  server.on('request', mcp.app);
  return {
    url: `http://${host}`,
    host,
    mcp,
    logs,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      mcp.gateway.close();
    },
  };
}

/** The official SDK client over Streamable HTTP, with the key in the request headers. */
export async function connectClient(baseUrl: string, headers: Record<string, string>): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'evidence-record-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A raw HTTP request, so tests control every header (Host included) and see every response header. */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
  client: { abortAfterMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = undefined;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    // A client that gives up waiting: the connection is closed with the request unanswered.
    if (client.abortAfterMs !== undefined) setTimeout(() => req.destroy(new Error('client gave up')), client.abortAfterMs);
    req.end(opts.body);
  });
}

/** POST one JSON-RPC message to /mcp with the standard headers plus `headers`. */
export function rpc(baseUrl: string, message: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(`${baseUrl}/mcp`, { headers: { ...mcpHeaders, ...headers }, body: JSON.stringify(message) });
}

export function accessControlHeaders(headers: http.IncomingHttpHeaders): string[] {
  return Object.keys(headers).filter((h) => h.toLowerCase().startsWith('access-control-'));
}
