/**
 * MCP tool calls: JSON-RPC 2.0 over Streamable HTTP at POST /mcp, stateless
 * (no `initialize` needed, no Mcp-Session-Id), every request carrying its own
 * key and `MCP-Protocol-Version`.
 *
 * Two scenarios run in sequence:
 *   mcp_protocol  one VU, once: tools/list names the 18 tools; tools/call of
 *                 products.resolve {identifier} and record.version {} return
 *                 an answer envelope in result.structuredContent; the legacy
 *                 name service_resolve_product still works; resources and
 *                 prompts list empty; GET /mcp is 405; an unsupported protocol
 *                 version is 400 naming the supported ones; a cross-origin
 *                 Origin and a missing key are refused.
 *   mcp_load      constant arrival rate (MCP_RATE/s for MCP_DURATION) of
 *                 tools/call and tools/list, with latency SLOs per method.
 *
 *   k6 run -e BASE_URL=... -e API_KEY=sk_... load-tests/scenarios/mcp.ts
 *
 * Tool arguments use the REST field names (identifier, product_id); the spec
 * shows only products.resolve's.
 */
import http from 'k6/http';
import { check } from 'k6';
import { Rate } from 'k6/metrics';
import type { Options } from 'k6/options';
import {
  MCP_PROTOCOL_SLO,
  MCP_TOOLS,
  MCP_TOOLS_CALL_SLO,
  Api,
  checkToolCall,
  config,
  discoverFixtures,
  envInt,
  envString,
  get,
  getArray,
  getString,
  isObject,
  latencyThresholds,
  mcpHeaders,
  mcpRequest,
  mcpToolCall,
  pickWeighted,
  requireKey,
  toolArgs,
} from '../lib/common.ts';
import type { Fixtures, Weighted } from '../lib/common.ts';

const RATE = envInt('MCP_RATE', 10);
/** Share of tools/call results that are errors (result.isError or a JSON-RPC error), tagged by tool. */
const toolErrors = new Rate('mcp_tool_errors');

export const options: Options = {
  setupTimeout: '120s',
  scenarios: {
    mcp_protocol: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '1m', exec: 'protocol' },
    mcp_load: {
      executor: 'constant-arrival-rate',
      exec: 'load',
      startTime: envString('MCP_LOAD_START', '15s'),
      rate: RATE,
      timeUnit: '1s',
      duration: envString('MCP_DURATION', '5m'),
      preAllocatedVUs: envInt('PRE_VUS', Math.max(10, RATE)),
      maxVUs: envInt('MAX_VUS', Math.max(50, RATE * 5)),
    },
  },
  thresholds: {
    'checks{scenario:mcp_protocol}': ['rate==1'],
    'http_req_failed{scenario:mcp_protocol}': ['rate==0'],
    'checks{scenario:mcp_load}': ['rate>0.99'],
    'http_req_failed{scenario:mcp_load}': ['rate<0.01'],
    'mcp_tool_errors{scenario:mcp_load}': ['rate<0.01'],
    'http_req_duration{scenario:mcp_load,mcp_method:tools_call}': latencyThresholds(MCP_TOOLS_CALL_SLO),
    'http_req_duration{scenario:mcp_load,mcp_method:tools_list}': latencyThresholds(MCP_PROTOCOL_SLO),
    'http_req_duration{scenario:mcp_load,mcp_tool:products.resolve}': latencyThresholds(MCP_TOOLS_CALL_SLO),
    'http_req_duration{scenario:mcp_load,mcp_tool:record.version}': latencyThresholds(MCP_TOOLS_CALL_SLO),
  },
};

export function setup(): Fixtures {
  const key = requireKey('API_KEY', config.apiKey);
  const health = new Api(null).health();
  if (health.status !== 200) throw new Error(`health check failed: HTTP ${health.status}`);
  const f = discoverFixtures(key, 5, 0);
  if (f.productIds.length === 0) throw new Error('no product ids: set PRODUCT_IDS or PRODUCT_NAMES');
  if (f.productNames.length === 0) f.productNames = f.productIds.slice(0, 3);
  return f;
}

export function protocol(f: Fixtures): void {
  const key = config.apiKey;

  const list = mcpRequest(key, 'tools/list', {});
  const tools = getArray(list.message, 'result.tools') ?? [];
  const names = tools.map((t) => getString(t, 'name') ?? '');
  check(list, {
    'tools/list HTTP 200': (r) => r.res.status === 200,
    'tools/list lists the 18 tools': () => Object.keys(MCP_TOOLS).every((t) => names.indexOf(t) !== -1),
    'every tool has an inputSchema object': () => tools.length > 0 && tools.every((t) => isObject(get(t, 'inputSchema'))),
  });

  checkToolCall(mcpToolCall(key, 'products.resolve', { identifier: f.productNames[0] as string }), 'products.resolve');
  checkToolCall(mcpToolCall(key, 'record.version', {}), 'record.version');
  checkToolCall(mcpToolCall(key, 'products.get', { product_id: f.productIds[0] as string }), 'products.get');
  checkToolCall(
    mcpToolCall(key, 'service_resolve_product', { identifier: f.productNames[0] as string }),
    'service_resolve_product',
    'lite',
  );

  const resources = mcpRequest(key, 'resources/list', {});
  const prompts = mcpRequest(key, 'prompts/list', {});
  const ping = mcpRequest(key, 'ping', undefined);
  check(null, {
    'resources/list is empty': () => (getArray(resources.message, 'result.resources') ?? [null]).length === 0,
    'prompts/list is empty': () => (getArray(prompts.message, 'result.prompts') ?? [null]).length === 0,
    'ping answers a result': () => isObject(get(ping.message, 'result')),
  });

  const getRes = http.get(`${config.baseUrl}/mcp`, {
    headers: mcpHeaders(key),
    tags: { name: 'GET /mcp' },
    responseCallback: http.expectedStatuses(405),
  });
  check(getRes, { 'GET /mcp is 405': (r) => r.status === 405 });

  const badVersion = mcpRequest(key, 'tools/list', {}, {
    headers: { 'MCP-Protocol-Version': '1999-01-01' },
    expectedStatuses: [400],
    tags: { name: 'POST /mcp (bad version)' },
  });
  check(badVersion, {
    'unsupported MCP-Protocol-Version is 400': (r) => r.res.status === 400,
    '400 body lists the supported versions': (r) =>
      typeof r.res.body === 'string' && ['2025-06-18', '2025-03-26', '2024-11-05'].every((v) => (r.res.body as string).indexOf(v) !== -1),
  });

  const crossOrigin = mcpRequest(key, 'tools/list', {}, {
    headers: { Origin: 'https://k6-mcp.invalid' },
    expectedStatuses: [400, 403],
    tags: { name: 'POST /mcp (cross-origin)' },
  });
  check(crossOrigin, {
    'cross-origin Origin is refused': (r) => r.res.status === 403 || r.res.status === 400,
    'cross-origin refusal grants no CORS': (r) =>
      Object.keys(r.res.headers).every((h) => h.toLowerCase().indexOf('access-control-allow') !== 0),
  });

  const noKey = mcpRequest(null, 'tools/list', {}, { expectedStatuses: [401], tags: { name: 'POST /mcp (no key)' } });
  check(noKey, { 'tools/list without a key is 401': (r) => r.res.status === 401 });
}

const LOAD_MIX: Weighted<string>[] = [
  { weight: 35, value: 'products.resolve' },
  { weight: 30, value: 'products.get' },
  { weight: 25, value: 'record.version' },
  { weight: 10, value: 'tools/list' },
];

let warned = 0;

export function load(f: Fixtures): void {
  const op = pickWeighted(LOAD_MIX);
  if (op === 'tools/list') {
    const r = mcpRequest(config.apiKey, 'tools/list', {});
    check(r, {
      'tools/list HTTP 200': (x) => x.res.status === 200,
      'tools/list has tools': (x) => (getArray(x.message, 'result.tools') ?? []).length >= 18,
    });
    return;
  }
  const r = mcpToolCall(config.apiKey, op, toolArgs(op, f));
  const failed = r.res.status !== 200 || get(r.message, 'error') !== undefined || get(r.message, 'result.isError') === true;
  toolErrors.add(failed, { mcp_tool: op });
  if (failed && warned < 5) {
    warned += 1;
    const code = getString(r.message, 'result.structuredContent.error.code') ?? getString(r.message, 'error.message') ?? `http_${r.res.status}`;
    console.warn(`tools/call ${op} failed: ${code}`);
  }
  checkToolCall(r, op, 'lite');
}
