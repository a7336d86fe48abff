import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '@evidence-record/contract';
import { freePort } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';
import { StandinGateway } from './standin-gateway';
import { rawRequest, rpc } from './harness';
import { TEST_SIGNING_KEY, signedAsGateway } from '@evidence-record/test-support/signing';

/**
 * The real entrypoint as a process: on SIGTERM it stops taking requests,
 * lets a tool call that is waiting on the gateway finish, and exits 0.
 */
const { key } = generateKey('test');
let gateway: StandinGateway;
let child: ChildProcess;
let url: string;
const output: string[] = [];

beforeAll(async () => {
  gateway = new StandinGateway();
  await gateway.start();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'services/mcp/src/main.ts'], {
    env: { PATH: process.env.PATH, PORT: String(port), GATEWAY_URL: gateway.url, MCP_ALLOWED_HOSTS: `127.0.0.1:${port}`, SHUTDOWN_GRACE_MS: '5000', LOG_LEVEL: 'info', INTERNAL_SIGNING_KEYS: TEST_SIGNING_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  await waitFor('mcp to answer /readyz', async () => {
    if (child.exitCode !== null) throw new Error(`mcp exited:\n${output.join('')}`);
    return (await rawRequest(`${url}/readyz`, { method: 'GET' }).catch(() => null))?.status === 200;
  }, 30_000).catch((err: unknown) => {
    throw new Error(`mcp did not start (${String(err)}):\n${output.join('')}`);
  });
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await gateway?.stop();
});

describe('graceful shutdown', () => {
  it('finishes an in-flight tool call after SIGTERM, then exits 0', async () => {
    gateway.delayMs = 1500;
    const calledBefore = gateway.calls.length;
    const inFlight = rpc(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record.version', arguments: {} } }, signedAsGateway('POST', '/mcp', { authorization: `Bearer ${key}` }));
    // SIGTERM once the call is in flight: the gateway stand-in has received its REST call.
    await waitFor('the tool call to reach the gateway', () => gateway.calls.length > calledBefore, 20_000, 20);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const answer = await inFlight;
    const exitedAt = Date.now();
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(answer.json).toMatchObject({ id: 1, result: { structuredContent: { capability: 'get_record_version' } } });
    expect(await exited).toBe(0);
    // Well inside SHUTDOWN_GRACE_MS: the answered connection closed instead of idling until the deadline.
    expect(Date.now() - exitedAt).toBeLessThan(2500);
    expect(output.join('')).toContain('shut down');
    await expect(rawRequest(`${url}/healthz`, { method: 'GET' })).rejects.toThrow();
  });
});
