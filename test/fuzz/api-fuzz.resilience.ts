import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, HealthAnswer, capabilityList, errorCatalogue, internalHeaderPrefix, requestIdPattern, scopes, statusOf, type ErrorCode } from '@evidence-record/contract';
import { createGateway, loadGatewayConfig, type Gateway } from '@evidence-record/gateway';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { recordFigures, round } from '../resilience/support/figures';
import { send, type Reply } from '../resilience/support/http';
import { customer, query, type Customer } from '../resilience/support/operator';
import { recordFingerprint, type RecordFingerprint } from '../resilience/support/record';
import { fuzzCases, type FuzzCase, type FuzzWorld } from './support/cases';

/**
 * Property-based fuzzing of the whole REST surface (and the MCP endpoint)
 * through the gateway and the real services: at least 10,000 generated
 * requests per run (derived from every capability's zod schemas, then bent
 * past them), and for each one: no 5xx, every refusal a documented error
 * code with its documented HTTP status, every 200 a valid answer envelope,
 * never a stack trace; and the Record unchanged afterwards.
 *
 * MCP cases use their own key and go the way an agent's do: through this
 * gateway to the MCP service, whose tool calls come back through the stack's
 * gateway process (default scoring; a paused key answers tool errors).
 *
 * The gateway runs in this process (so its extraction scoring can be set
 * out of reach: a fuzzer is a textbook extraction pattern, and a cooled-down
 * key would stop the cases reaching the services; scoring has its own tests
 * in test/security). Everything else is the real thing: the services as
 * processes, Postgres, Redis. FUZZ_SEED and FUZZ_CASES reproduce or widen a run.
 */
let stack: RunningStack;
let gateway: Gateway;
let server: Server;
let baseUrl: string;
let caller: Customer;
let world: FuzzWorld;
let before: RecordFingerprint;

const CASES = Number(process.env.FUZZ_CASES ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 16;
const capabilityNames = new Set<string>(capabilityList.map((c) => c.name));

beforeAll(async () => {
  stack = await startStack('fuzz', { services: ['record', 'signals', 'ledger', 'watch', 'mcp', 'gateway'] });
  const config = loadGatewayConfig({ ...stack.env, LOG_LEVEL: 'silent' });
  gateway = await createGateway({ config, scoring: { refuse_at: 1e15, suspend_at: 1e15 } });
  server = await new Promise<Server>((resolve) => {
    const s = createServer(gateway.listener).listen(0, '127.0.0.1', () => resolve(s));
  });
  // As the gateway's entrypoint sets them (platform startService): an idle keep-alive connection is not
  // closed under a client about to reuse it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
  const mcpCaller = await customer(stack, { plan: 'demo', scopes, account: true });

  const ids = async (sql: string) => (await query<{ id: string }>(stack, sql)).map((r) => r.id);
  const feed = await send(baseUrl, 'GET', '/api/v1/signals?limit=1', { key: caller.key });
  const snapshot = await send(baseUrl, 'GET', '/api/v1/category/snapshot?limit=1&from=2026-08-23&to=2026-11-21', { key: caller.key });
  expect(feed.body?.next_cursor, feed.text.slice(0, 200)).toEqual(expect.any(String));
  expect(snapshot.body?.next_cursor, snapshot.text.slice(0, 200)).toEqual(expect.any(String));
  world = {
    productIds: await ids('SELECT product_id AS id FROM products ORDER BY 1'),
    signalIds: await ids('SELECT signal_id AS id FROM signals ORDER BY 1'),
    ingredientIds: await ids('SELECT ingredient_id AS id FROM ingredients ORDER BY 1'),
    editionIds: await ids('SELECT edition_id AS id FROM ledger_editions ORDER BY 1'),
    brandIds: await ids('SELECT brand_id AS id FROM brands ORDER BY 1'),
    feedCursor: feed.body.next_cursor,
    snapshotCursor: snapshot.body.next_cursor,
    key: caller.key,
    mcpKey: mcpCaller.key,
    mcpHost: `127.0.0.1:${stack.ports.gateway}`,
  };
  before = await recordFingerprint(stack);
}, 240_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await gateway?.close();
  await stack?.stop();
});

const stackTrace = /(\n\s+at |\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+:\d+|Error: )/;

/** Everything a reply must be, whatever was asked. Returns the problems found (none: the case passed). */
function problems(c: FuzzCase, r: Reply): string[] {
  const out: string[] = [];
  if (r.transportError) return [`no HTTP answer: ${r.transportError}`];
  if (r.status >= 500) out.push(`HTTP ${r.status}`);
  for (const h of Object.keys(r.headers)) {
    if (h.startsWith('access-control-')) out.push(`CORS header ${h}`);
    if (h === 'x-budget-entities' || h.startsWith(internalHeaderPrefix) || h === 'x-powered-by') out.push(`internal header ${h} leaked`);
  }
  if (stackTrace.test(r.text)) out.push('stack trace or file path in the body');
  if (c.path === '/mcp') return out.concat(mcpProblems(r));
  if (c.method === 'HEAD') return out;
  if (!/^application\/json/.test(r.headers['content-type'] ?? '')) out.push(`content-type ${r.headers['content-type']}`);
  const path = c.path.split('?')[0];
  if (r.status === 200 && path === '/api/v1/health') {
    if (!HealthAnswer.safeParse(r.body).success) out.push('health answer shape');
    return out;
  }
  if (r.status === 200 && path === '/api/v1/openapi.json') {
    if (r.body?.openapi !== '3.1.0') out.push('OpenAPI document');
    return out;
  }
  if (r.status === 200) {
    const parsed = AnswerEnvelope.safeParse(r.body);
    if (!parsed.success) out.push(`200 is not an answer envelope: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    else if (!capabilityNames.has(parsed.data.capability)) out.push(`answer names capability ${parsed.data.capability}`);
  } else {
    const parsed = ErrorEnvelope.safeParse(r.body);
    if (!parsed.success) out.push(`${r.status} is not a refusal envelope: ${r.text.slice(0, 160)}`);
    else {
      const code = parsed.data.error.code as ErrorCode;
      if (!(code in errorCatalogue)) out.push(`undocumented code ${code}`);
      else if (statusOf(code) !== r.status) out.push(`${code} came with HTTP ${r.status}`);
    }
  }
  if (r.requestId === null || !requestIdPattern.test(r.requestId) || r.headers['x-request-id'] !== r.requestId) out.push('request id missing or not the header');
  return out;
}

/**
 * `/mcp` answers JSON-RPC (decision 0600): a JSON-RPC response or batch, or an HTTP refusal (the
 * gateway's envelope before the MCP service is reached, a JSON-RPC error after), or nothing for a
 * notification. A tool whose REST call hit a server fault would hide a 5xx inside a 200.
 */
function mcpProblems(r: Reply): string[] {
  const out: string[] = [];
  if (r.status === 202 && r.text === '') return out;
  if (r.body === null) return [`${r.status} with a body that is not JSON: ${r.text.slice(0, 120)}`];
  if (!Array.isArray(r.body) && r.body.status === 'refused') {
    if (!ErrorEnvelope.safeParse(r.body).success) out.push('gateway refusal is not an envelope');
    return out;
  }
  for (const m of Array.isArray(r.body) ? r.body : [r.body]) {
    if (m?.jsonrpc !== '2.0') out.push(`not JSON-RPC: ${JSON.stringify(m).slice(0, 120)}`);
    if (m?.error) {
      if (!Number.isInteger(m.error.code)) out.push('JSON-RPC error without an integer code');
      if (!requestIdPattern.test(String(m.error.data?.request_id))) out.push('JSON-RPC error without data.request_id');
      if (m.error.data?.code === 'internal_error') out.push(`internal_error: ${m.error.message}`);
    }
    const structured = m?.result?.structuredContent;
    if (structured?.error?.code === 'internal_error') out.push('a tool call hit internal_error');
    if (structured?.status === 'refused') {
      // A 429 tool refusal carries retry_after_seconds beside the envelope's fields (decision 0604).
      const { retry_after_seconds: wait, ...envelope } = structured as Record<string, unknown>;
      if (!ErrorEnvelope.safeParse(envelope).success) out.push('tool refusal is not an envelope');
      if (wait !== undefined && !(Number.isInteger(wait) && (wait as number) > 0)) out.push('retry_after_seconds is not a positive integer');
    }
    if (m?.result && structured && structured.status !== 'refused' && !AnswerEnvelope.safeParse(structured).success) out.push('tool answer is not an envelope');
  }
  return out;
}

describe('fuzzing every capability through the gateway', () => {
  it(`answers ${CASES} generated requests with no 5xx, only documented refusals and valid envelopes, and leaves the Record unchanged`, async () => {
    const cases = fc.sample(fuzzCases(world), { numRuns: CASES, seed: SEED });
    const failures: Array<{ case: FuzzCase; problems: string[]; status: number; body: string }> = [];
    const statuses = new Map<number, number>();
    const codes = new Map<string, number>();
    const kinds = new Map<string, number>();
    let next = 0;
    let done = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          const headers = { ...c.headers, ...(c.withKey ? { authorization: `Bearer ${caller.key}` } : {}) };
          const reply = await send(baseUrl, c.method, c.path, { headers, body: c.body, chunked: c.chunked, timeoutMs: 30_000 });
          done++;
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          if (reply.code) codes.set(reply.code, (codes.get(reply.code) ?? 0) + 1);
          const family = c.kind.split(':')[0]!;
          kinds.set(family, (kinds.get(family) ?? 0) + 1);
          const found = problems(c, reply);
          if (found.length > 0 && failures.length < 25) {
            failures.push({ case: { ...c, body: typeof c.body === 'string' ? c.body.slice(0, 300) : c.body === undefined ? undefined : `<${c.body.length} bytes>` }, problems: found, status: reply.status, body: reply.text.slice(0, 300) });
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    expect(failures, `seed ${SEED}: ${JSON.stringify(failures, null, 1).slice(0, 6000)}`).toEqual([]);
    expect(done).toBe(CASES);
    if (process.env.FUZZ_CASES === undefined) expect(done).toBeGreaterThanOrEqual(10_000);
    expect(statuses.get(200) ?? 0, 'some cases reached a service and were answered').toBeGreaterThan(CASES / 20);

    const after = await recordFingerprint(stack);
    expect(after).toEqual(before);

    await recordFigures('fuzz', {
      seed: SEED,
      cases: done,
      seconds: round(seconds, 1),
      requests_per_second: round(done / seconds),
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      refusal_codes: Object.fromEntries([...codes].sort((a, b) => b[1] - a[1])),
      case_families: Object.fromEntries([...kinds].sort((a, b) => b[1] - a[1])),
      record_version_before_and_after: before.head,
    });
  });
});
