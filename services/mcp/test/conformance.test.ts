import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { SCENARIOS, runConformance } from './conformance';

/**
 * The official MCP conformance server scenarios that apply to a server
 * without test fixtures, run against the whole stack through the gateway.
 * Opt-in (MCP_CONFORMANCE=1): the CLI needs Node 22 and the npm registry,
 * fetched with `npx -p node@22`.
 */
describe.skipIf(process.env.MCP_CONFORMANCE !== '1')('MCP conformance scenarios', () => {
  let stack: RunningStack;
  let key: string;

  beforeAll(async () => {
    stack = await startStack('mcp-conformance', { services: ['record', 'gateway', 'mcp'] });
    key = (await issueKey(stack, { plan: 'free', scopes: ['framework:read'] })).key;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it(`passes ${SCENARIOS.join(', ')}`, { timeout: 600_000 }, async () => {
    const results = await runConformance({ url: `${stack.baseUrl}/mcp`, key });
    for (const r of results) {
      if (!r.passed || process.env.MCP_CONFORMANCE_VERBOSE === "1") console.error(r.output);
      expect(r.passed, r.scenario).toBe(true);
    }
    expect(results.map((r) => r.scenario)).toEqual([...SCENARIOS]);
  });
});
