import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, capabilities, headers, newRequestId } from '@evidence-record/contract';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { freePort, launch, launchReady, type ServiceProcess } from '@evidence-record/test-support/launcher';
import { productId } from '@evidence-record/demo-record/ids';
import { signedAsGateway, testSigningEnv } from '@evidence-record/test-support/signing';

/**
 * The built entrypoint as a separate process, configured only by its
 * environment, driven over HTTP through every capability, then stopped with
 * SIGTERM.
 */
let db: TestDatabase;
let proc: ServiceProcess;
let base: string;

/** Nothing from this process's environment but PATH and HOME: the service is configured by `env` alone. */
const only = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...env });

beforeAll(async () => {
  db = await demoDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  proc = await launchReady({
    service: 'record',
    port,
    env: only({ DATABASE_URL: db.url, LOG_LEVEL: 'info', PUBLIC_BASE_URL: 'https://er.example', ...testSigningEnv('record') }),
    readyTimeoutMs: 10_000,
  });
});
afterAll(async () => {
  proc?.kill();
  await db?.drop();
});

async function call(method: string, path: string, body?: unknown) {
  const requestId = newRequestId();
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await fetch(`${base}${path}`, {
    method,
    // Straight to the service, signed as the gateway signs what it forwards.
    headers: signedAsGateway('record', method, path, { headers: { [headers.requestId]: requestId, ...(text === undefined ? {} : { 'content-type': 'application/json' }) }, ...(text === undefined ? {} : { body: text }) }),
    body: text,
  });
  return { res, json: (await res.json()) as Record<string, unknown>, requestId };
}

const surge = productId('ironvale-surge');
const keystone = productId('drumlin-vane-keystone');

describe('record service as a process', () => {
  it('answers every one of its nine capabilities with a valid envelope', async () => {
    const calls: Array<[string, string, unknown, (a: AnswerEnvelope, entities: string[]) => void]> = [
      ['search_record', '', { query: 'ironvale surge' }, (a, e) => { expect(a.products![0]!.product_id).toBe(surge); expect(e).toContain(surge); }],
      ['resolve_product', '', { identifier: 'IV Surge' }, (a, e) => { expect(a.product?.product_id).toBe(surge); expect(e).toEqual([surge]); }],
      ['get_product_record', surge, undefined, (a) => expect(a.verified_facts.length).toBeGreaterThan(0)],
      ['get_formula_history', surge, undefined, (a) => expect(a.signals!.every((s) => s.signal_url.startsWith('https://er.example/api/v1/signals/'))).toBe(true)],
      ['compare_products', '', { product_ids: [surge, keystone] }, (a) => expect(a.comparison).toBeDefined()],
      ['get_serving_economics', surge, undefined, (a) => expect(a.calculations.length).toBeGreaterThan(0)],
      ['get_research_context', '', { ingredient_ids: ['ing_caffeine'] }, (a, e) => { expect(a.research_context.length).toBeGreaterThan(0); expect(e).toEqual(['ing_caffeine']); }],
      ['get_regulatory_context', '', { product_id: keystone }, (a) => expect(a.product?.product_id).toBe(keystone)],
      ['get_record_version', '', undefined, (a, e) => { expect(a.coverage?.supported_category).toBe('pre-workout'); expect(e).toEqual([]); }],
    ];
    const versions = new Set<string>();
    for (const [name, id, body, check] of calls) {
      const cap = capabilities[name as keyof typeof capabilities];
      const { res, json, requestId } = await call(cap.method, cap.path.replace(':product_id', id), body);
      expect(res.status, `${name}: ${JSON.stringify(json)}`).toBe(200);
      const parsed = AnswerEnvelope.safeParse(json);
      expect(parsed.success, `${name}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`).toBe(true);
      const answer = parsed.data!;
      expect(answer.capability).toBe(name);
      expect(answer.request_id).toBe(requestId);
      expect(res.headers.get(headers.requestId)).toBe(requestId);
      expect(res.headers.get('cache-control')).toBe('private, no-store, max-age=0, must-revalidate');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      check(answer, (res.headers.get(headers.budgetEntities) ?? '').split(',').filter(Boolean));
      versions.add(answer.record_version);
    }
    expect(versions.size).toBe(1);
  });

  it('refuses with the error envelope, never a stack trace', async () => {
    for (const [method, path, body, status, code] of [
      ['GET', '/api/v1/products/prd_000000000000', undefined, 404, 'not_found'],
      ['GET', '/api/v1/products/Ironvale%20Surge/history', undefined, 400, 'invalid_request'],
      ['POST', '/api/v1/products/resolve', { identifier: '   ' }, 400, 'invalid_request'],
      ['POST', '/api/v1/record/search', { query: 'x', limit: 100 }, 400, 'invalid_request'],
      ['GET', '/api/v1/products', undefined, 404, 'unsupported_capability'],
    ] as const) {
      const { res, json } = await call(method, path, body);
      expect(res.status, path).toBe(status);
      const parsed = ErrorEnvelope.safeParse(json);
      expect(parsed.success).toBe(true);
      expect(parsed.data!.error.code).toBe(code);
      expect(JSON.stringify(json)).not.toMatch(/at .*\.ts:\d+/);
    }
    const bad = await fetch(`${base}/api/v1/products/resolve`, { method: 'POST', headers: signedAsGateway('record', 'POST', '/api/v1/products/resolve', { headers: { 'content-type': 'application/json' }, body: '{"identifier":' }), body: '{"identifier":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('serves health, readiness and metrics', async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok', service: 'record' });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/er_requests_total\{[^}]*capability="resolve_product"/);
  });

  it('stops gracefully on SIGTERM', async () => {
    proc.child.kill('SIGTERM');
    const { code } = await proc.exited;
    expect(code).toBe(0);
    expect(proc.lines.join('\n')).toMatch(/shut down/);
  });

  it('refuses to start without DATABASE_URL, naming the variable', async () => {
    const bare = launch({ service: 'record', port: await freePort(), env: only({}) });
    const { code } = await bare.exited;
    expect(code).not.toBe(0);
    expect(bare.lines.join('\n')).toContain('DATABASE_URL');
  });
});
