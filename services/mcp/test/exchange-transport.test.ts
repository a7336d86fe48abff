import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ExchangeTransport, type Caller } from '../src/exchange-transport';
import { McpMetrics } from '../src/metrics';

/**
 * The transport alone, with the test playing the SDK server: what reaches
 * the server, under which ids, and how answers find their HTTP request.
 */
function setup() {
  const metrics = new McpMetrics();
  const transport = new ExchangeTransport(metrics);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void received.push(message);
  return { metrics, transport, received };
}

const log = pino({ level: 'silent' });
const caller = (requestId: string): Caller => ({
  requestId,
  context: { key: { headers: { authorization: 'Bearer k' }, keyId: requestId }, log, requestId, recordVersion: 'rv_test', toolNames: 'contract', meter: { restAnswers: [] } },
});
const labels = { method: 'tools/list', tool: '' };
const idOf = (m: JSONRPCMessage): RequestId => (m as { id: RequestId }).id;

describe('ExchangeTransport', () => {
  it('gives every request an id of its own, restores the client id on the answer and finds the caller by it', async () => {
    const { transport, received } = setup();
    const a = transport.dispatch(caller('req_a'), [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], [labels])!;
    const b = transport.dispatch(caller('req_b'), [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], [labels])!;
    const [first, second] = received.map(idOf);
    expect(first).not.toBe(second);
    expect(transport.callerOf(first!)?.requestId).toBe('req_a');
    expect(transport.callerOf(second!)?.requestId).toBe('req_b');
    expect(transport.callerOf(Number(second) + 1)).toBeUndefined();

    await transport.send({ jsonrpc: '2.0', id: second!, result: { tools: ['b'] } });
    await transport.send({ jsonrpc: '2.0', id: first!, result: { tools: ['a'] } });
    expect(await a.answered).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: ['a'] } }]);
    expect(await b.answered).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: ['b'] } }]);
    expect(transport.callerOf(first!)).toBeUndefined();
  });

  it('answers a batch once every request is answered, in the order of the requests; notifications pass through', async () => {
    const { transport, received } = setup();
    const pending = transport.dispatch(
      caller('req_c'),
      [
        { jsonrpc: '2.0', id: 'x', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'x', method: 'tools/list' },
      ],
      [labels, labels, labels],
    )!;
    expect(received.map((m) => ('id' in m ? 'request' : 'notification'))).toEqual(['request', 'notification', 'request']);
    let settled = false;
    void pending.answered.then(() => (settled = true));
    await transport.send({ jsonrpc: '2.0', id: idOf(received[2]!), result: { second: true } });
    await Promise.resolve();
    expect(settled).toBe(false);
    await transport.send({ jsonrpc: '2.0', id: idOf(received[0]!), result: { first: true } });
    expect(await pending.answered).toEqual([
      { jsonrpc: '2.0', id: 'x', result: { first: true } },
      { jsonrpc: '2.0', id: 'x', result: { second: true } },
    ]);
  });

  it('returns null for a POST without requests', () => {
    const { transport, received } = setup();
    expect(transport.dispatch(caller('req_d'), [{ jsonrpc: '2.0', method: 'notifications/initialized' }], [labels])).toBeNull();
    expect(received).toHaveLength(1);
  });

  it('shapes errors with data.request_id and data.code and counts the outcome', async () => {
    const { transport, received, metrics } = setup();
    const pending = transport.dispatch(caller('req_e'), [{ jsonrpc: '2.0', id: 7, method: 'nope' }], [{ method: 'other', tool: '' }])!;
    await transport.send({ jsonrpc: '2.0', id: idOf(received[0]!), error: { code: -32601, message: 'MCP error -32601: Method not found' } });
    expect(await pending.answered).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found', data: { request_id: 'req_e', code: 'method_not_found' } } }]);
    expect(await metrics.base.registry.getSingleMetricAsString('er_mcp_messages_total')).toMatch(/method="other",tool="",outcome="method_not_found".* 1/);
  });

  it('forgets the requests of an abandoned HTTP request: their callers are gone and late answers go nowhere', async () => {
    const { transport, received } = setup();
    const pending = transport.dispatch(caller('req_f'), [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], [labels])!;
    const serverId = idOf(received[0]!);
    pending.abandon();
    expect(transport.callerOf(serverId)).toBeUndefined();
    await transport.send({ jsonrpc: '2.0', id: serverId, result: {} });
    let settled = false;
    void pending.answered.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
  });
});
