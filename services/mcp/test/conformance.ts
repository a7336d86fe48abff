import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Runs the official MCP conformance suite (every server scenario) against
 * an MCP endpoint that needs a key, and says which scenarios apply.
 *
 * The suite is a devDependency (`@modelcontextprotocol/conformance`, pinned
 * by the lockfile); its CLI needs Node 22 (it uses `fs.globSync`), so it
 * runs under a Node 22 binary fetched once with `npx -p node@22` (about
 * 20 s on a cold npm cache, cached afterwards), whatever Node runs the tests.
 *
 * The CLI cannot send headers, so it talks to a local pass-through proxy
 * that adds `Authorization: Bearer <key>` to every request and otherwise
 * forwards it unchanged, Host and Origin included, except that the proxy's
 * own host stands for the target's host (the proxy is the same endpoint
 * under another port, and under the target's host name: a target at
 * http://localhost:8080 is reached as http://localhost:<proxy port>). The
 * DNS-rebinding scenario's foreign Host and Origin therefore reach the service
 * as sent, and its same-origin ones as the target's own.
 *
 *   MCP_KEY=sk_test_... npx tsx services/mcp/test/conformance.ts [http://127.0.0.1:8080/mcp] [scenario]
 */
const require = createRequire(import.meta.url);
const packageJson = require.resolve('@modelcontextprotocol/conformance/package.json');
export const CONFORMANCE_VERSION = (require(packageJson) as { version: string }).version;
const CLI = join(dirname(packageJson), 'dist', 'index.js');

/** The scenarios that apply to this server: each must pass. */
export const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'] as const;

/**
 * Scenarios that do not apply, why, and the failure that shows they failed
 * for that reason only (anything else, such as a 400 or a 401, is a defect).
 * docs/mcp.md lists the same table.
 */
export const NOT_APPLICABLE: Record<string, { why: string; fails: RegExp | null }> = {
  'server-sse-polling': { why: 'needs a session and an SSE stream; the endpoint is stateless and answers JSON', fails: null },
  'server-sse-multiple-streams': { why: 'needs a session and SSE streams; the endpoint is stateless and answers JSON', fails: null },
  'logging-set-level': { why: 'no logging capability: the server sends no log notifications', fails: /-32601: Method not found/ },
  'completion-complete': { why: 'no completions capability: no prompt or resource arguments to complete', fails: /-32601: Method not found/ },
  'tools-call-with-logging': { why: 'needs logging/setLevel and the fixture tool test_tool_with_logging', fails: /-32601: Method not found/ },
  'resources-subscribe': { why: 'no resources to subscribe to (subscribe: false)', fails: /-32601: Method not found/ },
  'resources-unsubscribe': { why: 'no resources to subscribe to (subscribe: false)', fails: /-32601: Method not found/ },
  'resources-read-text': { why: 'needs the fixture resource test://static-text; the resource list is empty by contract', fails: /-32002: Resource not found/ },
  'resources-read-binary': { why: 'needs the fixture resource test://static-binary; the resource list is empty by contract', fails: /-32002: Resource not found/ },
  'resources-templates-read': { why: 'needs the fixture template test://template/{id}/data; the list is empty by contract', fails: /-32002: Resource not found/ },
  'prompts-get-simple': { why: 'needs the fixture prompt test_simple_prompt; the prompt list is empty by contract', fails: /-32602: Invalid params: unknown prompt/ },
  'prompts-get-with-args': { why: 'needs the fixture prompt test_prompt_with_arguments', fails: /-32602: Invalid params: unknown prompt/ },
  'prompts-get-embedded-resource': { why: 'needs the fixture prompt test_prompt_with_embedded_resource', fails: /-32602: Invalid params: unknown prompt/ },
  'prompts-get-with-image': { why: 'needs the fixture prompt test_prompt_with_image', fails: /-32602: Invalid params: unknown prompt/ },
  'json-schema-2020-12': { why: 'needs the fixture tool json_schema_2020_12_tool; the 18 tools are the contract\'s', fails: /Tool 'json_schema_2020_12_tool' not found/ },
  'tools-call-simple-text': { why: 'needs the fixture tool test_simple_text', fails: /-32602: Unknown tool "test_simple_text"/ },
  'tools-call-image': { why: 'needs the fixture tool test_image_content; answers are JSON envelopes, never images', fails: /-32602: Unknown tool "test_image_content"/ },
  'tools-call-audio': { why: 'needs the fixture tool test_audio_content; answers are JSON envelopes, never audio', fails: /-32602: Unknown tool "test_audio_content"/ },
  'tools-call-embedded-resource': { why: 'needs the fixture tool test_embedded_resource', fails: /-32602: Unknown tool "test_embedded_resource"/ },
  'tools-call-mixed-content': { why: 'needs the fixture tool test_multiple_content_types', fails: /-32602: Unknown tool "test_multiple_content_types"/ },
  'tools-call-error': { why: 'needs the fixture tool test_error_handling (refusals are isError results, tested in endpoint.test.ts)', fails: /-32602: Unknown tool "test_error_handling"/ },
  'tools-call-with-progress': { why: 'needs the fixture tool test_tool_with_progress; answers are one JSON body, no progress notifications', fails: /-32602: Unknown tool "test_tool_with_progress"/ },
  'tools-call-sampling': { why: 'needs the fixture tool test_sampling; the server sends no requests to the client (stateless, no stream)', fails: /-32602: Unknown tool "test_sampling"/ },
  'tools-call-elicitation': { why: 'needs the fixture tool test_elicitation; the server sends no requests to the client', fails: /-32602: Unknown tool "test_elicitation"/ },
  'elicitation-sep1034-defaults': { why: 'needs the fixture tool test_elicitation_sep1034_defaults; no elicitation', fails: /-32602: Unknown tool "test_elicitation_sep1034_defaults"/ },
  'elicitation-sep1330-enums': { why: 'needs the fixture tool test_elicitation_sep1330_enums; no elicitation', fails: /-32602: Unknown tool "test_elicitation_sep1330_enums"/ },
};

export interface Check {
  id: string;
  status: string;
  message: string;
}

export interface ScenarioResult {
  scenario: string;
  checks: Check[];
  /** Every check passed or was informational or a warning, and at least one passed. */
  passed: boolean;
}

async function keyProxy(target: URL, key: string): Promise<{ url: string; close: () => Promise<void> }> {
  let own = '';
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers, authorization: `Bearer ${key}` };
    if (req.headers.host === own) headers.host = target.host;
    if (req.headers.origin === `http://${own}`) headers.origin = target.origin;
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: target.pathname, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `${target.hostname}:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${own}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MCP_KEY: '' } });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A Node 22 binary: the conformance CLI needs it, whatever Node runs the tests. */
async function node22(): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const { code, output } = await run('npx', ['-y', '-p', 'node@22', 'node', '-p', 'process.execPath']);
  const path = output.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !path.startsWith('/')) throw new Error(`could not get Node 22 with npx -p node@22: ${output.slice(-500)}`);
  return path;
}

/** Runs every server scenario of the suite (or one) in one CLI run (a few seconds) and reads each scenario's checks. */
export async function runConformance(opts: { url: string; key: string; scenario?: string }): Promise<{ results: ScenarioResult[]; output: string }> {
  const node = await node22();
  const proxy = await keyProxy(new URL(opts.url), opts.key);
  const dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  try {
    const which = opts.scenario ? ['--scenario', opts.scenario] : ['--suite', 'all'];
    const { output } = await run(node, [CLI, 'server', '--url', proxy.url, ...which, '--output-dir', dir]);
    const results: ScenarioResult[] = [];
    for (const entry of (await readdir(dir)).sort()) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry)?.[1];
      if (!scenario) continue;
      const raw = JSON.parse(await readFile(join(dir, entry, 'checks.json'), 'utf8')) as { id: string; status: string; errorMessage?: string; details?: { message?: string } }[];
      const checks = raw.filter((c) => c.status !== 'INFO').map((c) => ({ id: c.id, status: c.status, message: c.errorMessage ?? c.details?.message ?? '' }));
      results.push({ scenario, checks, passed: checks.some((c) => c.status === 'SUCCESS') && checks.every((c) => c.status === 'SUCCESS' || c.status === 'WARNING') });
    }
    return { results, output };
  } finally {
    await proxy.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = process.env.MCP_KEY;
  if (!key) {
    console.error('set MCP_KEY to a key (any scopes: the scenarios call no tool of ours)');
    process.exit(2);
  }
  const url = process.argv[2] ?? 'http://127.0.0.1:8080/mcp';
  const scenario = process.argv[3];
  const { results } = await runConformance({ url, key, ...(scenario ? { scenario } : {}) });
  for (const r of results) {
    const reason = NOT_APPLICABLE[r.scenario];
    const verdict = r.passed ? 'PASS' : reason ? 'n/a ' : 'FAIL';
    console.log(`${verdict} ${r.scenario}${reason && !r.passed ? ` (${reason.why})` : ''}`);
    for (const c of r.checks) if (c.status !== 'SUCCESS') console.log(`       ${c.status} ${c.id}: ${c.message}`);
  }
  const expected = scenario ? [scenario] : APPLICABLE;
  process.exit(results.every((r) => r.passed || r.scenario in NOT_APPLICABLE) && expected.every((s) => results.some((r) => r.scenario === s && r.passed)) ? 0 : 1);
}
