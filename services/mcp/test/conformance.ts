import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * Runs the official MCP conformance server scenarios against an MCP
 * endpoint that needs a key.
 *
 * The conformance CLI cannot send headers, so it talks to a local
 * pass-through proxy that adds `Authorization: Bearer <key>` to every
 * request and otherwise forwards it unchanged, Host and Origin included,
 * except that the proxy's own host stands for the target's host (the proxy
 * is the same endpoint under another port). The DNS-rebinding scenario's
 * foreign Host and Origin therefore reach the service as sent.
 *
 *   MCP_KEY=sk_test_... npx tsx services/mcp/test/conformance.ts [http://127.0.0.1:8080/mcp]
 *
 * Needs Node 22 for the CLI, fetched with `npx -p node@22`.
 */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'] as const;

export interface ScenarioResult {
  scenario: string;
  passed: boolean;
  output: string;
}

async function keyProxy(target: URL, key: string): Promise<{ url: string; close: () => Promise<void> }> {
  let own = '';
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers, authorization: `Bearer ${key}` };
    if (req.headers.host === own) headers.host = target.host;
    if (req.headers.origin === `http://${own}`) headers.origin = target.origin;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: target.pathname, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${own}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function runScenario(url: string, scenario: string): Promise<ScenarioResult> {
  return new Promise((resolve) => {
    const args = ['-y', '-p', 'node@22', '-p', CONFORMANCE_PACKAGE, 'conformance', 'server', '--url', url, '--scenario', scenario];
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MCP_KEY: '' } });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('close', (code) => {
      const clean = output.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
      const failed = /\bFAILURE\b/.test(clean) || !/\bSUCCESS\b/.test(clean);
      resolve({ scenario, passed: code === 0 && !failed, output: clean });
    });
  });
}

export async function runConformance(opts: { url: string; key: string; scenarios?: readonly string[] }): Promise<ScenarioResult[]> {
  const proxy = await keyProxy(new URL(opts.url), opts.key);
  try {
    const results: ScenarioResult[] = [];
    for (const scenario of opts.scenarios ?? SCENARIOS) results.push(await runScenario(proxy.url, scenario));
    return results;
  } finally {
    await proxy.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const key = process.env.MCP_KEY;
  if (!key) {
    console.error('set MCP_KEY to a key (any scopes: the scenarios call no tool)');
    process.exit(2);
  }
  const url = process.argv[2] ?? 'http://127.0.0.1:8080/mcp';
  const results = await runConformance({ url, key });
  for (const r of results) {
    console.log(r.output.trim());
    console.log(`${r.passed ? 'PASS' : 'FAIL'} ${r.scenario}\n`);
  }
  process.exit(results.every((r) => r.passed) ? 0 : 1);
}
