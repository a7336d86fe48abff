import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { APPLICABLE, CONFORMANCE_VERSION, NOT_APPLICABLE, runConformance, type ScenarioResult } from './conformance';

/**
 * The official MCP conformance suite, every server scenario, against the
 * whole stack through the gateway and the key proxy (conformance.ts). The
 * scenarios that apply must pass; each of the others must fail only for
 * the reason docs/mcp.md gives (a fixture tool, resource or prompt this
 * server does not have, or a capability it does not offer), so that a
 * scenario failing for any other reason (a 400, a 401, a timeout) fails
 * this test.
 */
describe(`MCP conformance suite ${CONFORMANCE_VERSION}`, () => {
  let stack: RunningStack;
  let results: ScenarioResult[];
  let output: string;
  let key: string;

  beforeAll(async () => {
    stack = await startStack('mcp-conformance', { services: ['record', 'gateway', 'mcp'] });
    // The suite opens dozens of sessions: a plan whose protocol window it cannot reach.
    key = (await issueKey(stack, { plan: 'demo', scopes: ['framework:read'] })).key;
    ({ results, output } = await runConformance({ url: `${stack.baseUrl}/mcp`, key }));
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('ran every server scenario, each listed as applicable or not', () => {
    const ran = results.map((r) => r.scenario).sort();
    if (ran.length === 0) console.error(output);
    expect(ran).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
    expect(ran).toHaveLength(32);
  });

  it('passes dns-rebinding-protection against http://localhost:<port>/mcp as well (same origin under either loopback name)', async () => {
    const local = await runConformance({ url: `http://localhost:${stack.ports.gateway}/mcp`, key, scenario: 'dns-rebinding-protection' });
    const result = local.results.find((r) => r.scenario === 'dns-rebinding-protection');
    expect(result?.passed, JSON.stringify(result?.checks ?? local.output.slice(-2000))).toBe(true);
  }, 120_000);

  it.each(APPLICABLE)('passes %s', (scenario) => {
    const result = results.find((r) => r.scenario === scenario);
    expect(result?.passed, JSON.stringify(result?.checks)).toBe(true);
  });

  it.each(Object.keys(NOT_APPLICABLE))('%s fails only for its documented reason', (scenario) => {
    const result = results.find((r) => r.scenario === scenario)!;
    const failures = result.checks.filter((c) => c.status === 'FAILURE');
    const expected = NOT_APPLICABLE[scenario]!.fails;
    if (expected === null) {
      expect(failures, JSON.stringify(result.checks)).toEqual([]);
    } else {
      expect(failures.length, JSON.stringify(result.checks)).toBeGreaterThan(0);
      for (const f of failures) expect(f.message).toMatch(expected);
    }
  });
});
