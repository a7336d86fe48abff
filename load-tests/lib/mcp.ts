/** MCP: JSON-RPC 2.0 over Streamable HTTP (stateless), the tool calls and their checks. */
import { check } from 'k6';
import http from 'k6/http';
import type { Response } from 'k6/http';
import { expect } from './api.ts';
import { config } from './config.ts';
import { ANSWER_STATUSES, MCP_TOOLS, REQUEST_ID_PATTERN } from './contract.ts';
import type { Fixtures } from './fixtures.ts';
import { bodyObject, get, getString, header, isObject, type Json, type JsonObject } from './json.ts';
import { pick } from './mix.ts';

export function mcpHeaders(key: string | null, extra?: { [h: string]: string }): { [h: string]: string } {
  const h: { [h: string]: string } = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': config.mcpProtocolVersion,
    'User-Agent': config.userAgent,
  };
  if (key !== null && key !== '') h['Authorization'] = `Bearer ${key}`;
  if (extra) for (const k in extra) h[k] = extra[k] as string;
  return h;
}

let rpcSeq = 0;

export interface RpcResult {
  res: Response;
  /** The JSON-RPC message (from a JSON body, or the first `data:` event of an SSE body). */
  message: JsonObject | null;
  id: number;
}

/** Parse a JSON body, or fall back to the first SSE `data:` line (the spec says a POST never streams). */
export function rpcMessage(res: Response): JsonObject | null {
  const direct = bodyObject(res);
  if (direct) return direct;
  if (typeof res.body !== 'string') return null;
  for (const line of res.body.split('\n')) {
    if (line.indexOf('data:') === 0) {
      try {
        const v = JSON.parse(line.slice(5).trim()) as Json;
        if (isObject(v)) return v;
      } catch (_e) {
        return null;
      }
    }
  }
  return null;
}

export function mcpRequest(
  key: string | null,
  method: string,
  params: JsonObject | undefined,
  opts: { tags?: { [k: string]: string }; headers?: { [h: string]: string }; expectedStatuses?: number[] } = {},
): RpcResult {
  rpcSeq += 1;
  const id = __VU * 1000000 + rpcSeq;
  const payload: JsonObject = { jsonrpc: '2.0', id, method };
  if (params !== undefined) payload['params'] = params;
  const tags: { [k: string]: string } = {
    name: 'POST /mcp',
    mcp_method: method.replace(/\//g, '_'),
  };
  if (method === 'tools/call' && params && typeof params['name'] === 'string') tags['mcp_tool'] = params['name'];
  if (opts.tags) for (const k in opts.tags) tags[k] = opts.tags[k] as string;
  const res = http.post(`${config.baseUrl}/mcp`, JSON.stringify(payload), {
    headers: mcpHeaders(key, opts.headers),
    tags,
    responseCallback: expect(...(opts.expectedStatuses ?? [])),
  });
  return { res, message: rpcMessage(res), id };
}

export function mcpToolCall(
  key: string,
  tool: string,
  args: JsonObject,
  opts: { tags?: { [k: string]: string } } = {},
): RpcResult {
  return mcpRequest(key, 'tools/call', { name: tool, arguments: args }, opts);
}

/** Checks on a successful `tools/call` whose structuredContent is an answer envelope. */
export function checkToolCall(r: RpcResult, tool: string, mode: 'full' | 'lite' = 'full'): boolean {
  const m = r.message;
  const sc = get(m, 'result.structuredContent');
  const tags = { mcp_tool: tool };
  const sets: { [name: string]: (x: RpcResult) => boolean } = {
    'MCP HTTP 200': (x) => x.res.status === 200,
    'JSON-RPC 2.0 result with matching id': () => get(m, 'jsonrpc') === '2.0' && get(m, 'id') === r.id && isObject(get(m, 'result')),
    'tools/call result is not an error': () => get(m, 'result.isError') !== true,
    'structuredContent.request_id matches ^req_[0-9a-f]{24}$': () => REQUEST_ID_PATTERN.test(getString(sc, 'request_id') ?? ''),
    'structuredContent.status is an answer status': () => ANSWER_STATUSES.indexOf(getString(sc, 'status') ?? '') !== -1,
    'structuredContent.record_version present': () => (getString(sc, 'record_version') ?? '') !== '',
  };
  if (mode === 'full') {
    const cap = MCP_TOOLS[tool];
    sets['structuredContent.capability names the capability'] = () => cap === undefined || getString(sc, 'capability') === cap;
    sets['structuredContent.disclaimer present'] = () => (getString(sc, 'disclaimer') ?? '') !== '';
    sets['result.content[0] is text'] = () => getString(m, 'result.content.0.type') === 'text';
    sets['MCP response is application/json (never a stream)'] = (x) =>
      (header(x.res, 'Content-Type') ?? '').toLowerCase().indexOf('application/json') === 0;
    sets['no Mcp-Session-Id issued'] = (x) => header(x.res, 'Mcp-Session-Id') === undefined;
  }
  return check(r, sets, tags);
}

/** Arguments for the MCP tools the scenarios call (REST field names, as for products.resolve). */
export function toolArgs(tool: string, f: Fixtures): JsonObject {
  switch (tool) {
    case 'products.resolve':
      return { identifier: pick(f.productNames) };
    case 'products.get':
    case 'products.history':
    case 'products.serving_economics':
      return { product_id: pick(f.productIds) };
    case 'signals.list':
      return { limit: 10 };
    case 'record.version':
    default:
      return {};
  }
}
