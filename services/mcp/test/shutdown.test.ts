import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '@evidence-record/contract';
import { freePort, launchReady, type ServiceProcess } from '@evidence-record/test-support/launcher';
import { waitFor } from '@evidence-record/test-support/wait';
import { StandinGateway } from './standin-gateway';
import { mcpHeaders, rawRequest, rpc } from './harness';
import { signedAsGateway, testSigningEnv } from '@evidence-record/test-support/signing';

/**
 * The real entrypoint as a process: on SIGTERM it stops taking requests,
 * lets a tool call that is waiting on the gateway finish, and exits 0.
 */
const { key } = generateKey('test');
let gateway: StandinGateway;
let proc: ServiceProcess;
let url: string;

beforeAll(async () => {
  gateway = new StandinGateway();
  await gateway.start();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  proc = await launchReady({
    service: 'mcp',
    port,
    env: { PATH: process.env.PATH, GATEWAY_URL: gateway.url, MCP_ALLOWED_HOSTS: `127.0.0.1:${port}`, SHUTDOWN_GRACE_MS: '5000', LOG_LEVEL: 'info', ...testSigningEnv('mcp') },
  });
});

afterAll(async () => {
  proc?.kill();
  await gateway?.stop();
});

describe('graceful shutdown', () => {
  it('finishes an in-flight tool call after SIGTERM, then exits 0', async () => {
    gateway.delayMs = 1500;
    const calledBefore = gateway.calls.length;
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record.version', arguments: {} } };
    const inFlight = rpc(url, message, signedAsGateway('mcp', 'POST', '/mcp', { headers: { ...mcpHeaders, authorization: `Bearer ${key}` }, body: JSON.stringify(message) }));
    // SIGTERM once the call is in flight: the gateway stand-in has received its REST call.
    await waitFor('the tool call to reach the gateway', () => gateway.calls.length > calledBefore, 20_000, 20);
    proc.child.kill('SIGTERM');
    const answer = await inFlight;
    const exitedAt = Date.now();
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(answer.json).toMatchObject({ id: 1, result: { structuredContent: { capability: 'get_record_version' } } });
    expect((await proc.exited).code).toBe(0);
    // Well inside SHUTDOWN_GRACE_MS: the answered connection closed instead of idling until the deadline.
    expect(Date.now() - exitedAt).toBeLessThan(2500);
    expect(proc.lines.join('\n')).toContain('shut down');
    await expect(rawRequest(`${url}/healthz`, { method: 'GET' })).rejects.toThrow();
  });
});
