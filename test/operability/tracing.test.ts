import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '@evidence-record/contract';
import { issueKey, startStack, type RunningStack, type ServiceName } from '@evidence-record/test-support/stack';
import { call, releaseSignalOn } from '@evidence-record/test-support/client';
import { jsonLines, waitFor } from './support';

/**
 * W3C trace context across the stack: a client's traceparent (or the trace
 * the gateway starts) reaches the service that answers and is in its log
 * line; an MCP tool call keeps it through the REST call it makes; a Signal
 * release carries its trace through the outbox, NATS and the watch fan-out
 * to the email worker's send. Spans are exported over OTLP/HTTP only where
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (here: the gateway, record and MCP
 * services, against a collector run by the test); elsewhere the context
 * still travels.
 */
interface ExportedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: number;
}

/** An OTLP/HTTP collector: keeps every span it is sent (JSON encoding). */
class OtlpSink {
  readonly spans: ExportedSpan[] = [];
  readonly contentTypes = new Set<string>();
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.contentTypes.add(`${req.method} ${req.url} ${req.headers['content-type']}`);
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans: Array<{ spans: Array<Omit<ExportedSpan, 'service'>> }> }>;
        };
        for (const rs of body.resourceSpans) {
          const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans) for (const s of ss.spans) this.spans.push({ service, name: s.name, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', kind: s.kind });
        }
      } catch {
        // not JSON: the assertions on content types will say so
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

const sink = new OtlpSink();
let stack: RunningStack;
let pro: Awaited<ReturnType<typeof issueKey>>;
let productId: string;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** The service's JSON log lines with this message, once at least one matches `where`. */
async function logged(service: ServiceName, msg: string, where: (line: Record<string, unknown>) => boolean): Promise<Array<Record<string, unknown>>> {
  return waitFor(`${service} to log "${msg}"`, () => {
    const lines = jsonLines(stack.logs.get(service) ?? []).filter((l) => l.msg === msg && where(l));
    return lines.length > 0 ? lines : null;
  }, 20_000, 100);
}

beforeAll(async () => {
  const endpoint = await sink.start();
  const exporting = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100', LOG_LEVEL: 'info' };
  stack = await startStack('tracing', {
    extraEnv: { gateway: exporting, record: exporting, mcp: exporting, watch: { LOG_LEVEL: 'info' }, 'email-worker': { LOG_LEVEL: 'info' }, signals: { LOG_LEVEL: 'info' } },
  });
  pro = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'tracing pro' });
  const resolved = await call(stack, pro.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' });
  productId = resolved.body!.product.product_id as string;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await sink.stop();
});

describe('trace context', () => {
  it("continues a client's traceparent: the gateway and the record service log its trace id and export one tree of spans", async () => {
    const traceId = hex(16);
    const clientSpan = hex(8);
    const res = await call(stack, pro.key, 'GET', `/api/v1/products/${productId}`, undefined, { traceparent: `00-${traceId}-${clientSpan}-01` });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;

    const [gatewayLine] = await logged('gateway', 'request', (l) => l.request_id === requestId);
    const [recordLine] = await logged('record', 'request', (l) => l.request_id === requestId);
    expect(gatewayLine).toMatchObject({ trace_id: traceId, capability: 'get_product_record', status: 200, key_id: pro.keyId });
    expect(recordLine).toMatchObject({ trace_id: traceId, capability: 'get_product_record', status: 200, key_id: pro.keyId });

    const spans = await waitFor('the gateway and record spans', () => {
      const mine = sink.spans.filter((s) => s.traceId === traceId);
      return mine.length >= 2 ? mine : null;
    }, 20_000, 100);
    const gatewaySpan = spans.find((s) => s.service === 'evidence-record-gateway')!;
    const recordSpan = spans.find((s) => s.service === 'evidence-record-record')!;
    expect(gatewaySpan).toMatchObject({ name: 'get_product_record', parentSpanId: clientSpan, kind: 2 });
    expect(recordSpan).toMatchObject({ name: 'get_product_record', parentSpanId: gatewaySpan.spanId, kind: 2 });
    expect([...sink.contentTypes].every((t) => t.startsWith('POST /v1/traces application/json'))).toBe(true);
  });

  it('starts a trace at the gateway when the client sent none, and the service continues it', async () => {
    const res = await call(stack, pro.key, 'GET', '/api/v1/record/version');
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    const [gatewayLine] = await logged('gateway', 'request', (l) => l.request_id === requestId);
    const [recordLine] = await logged('record', 'request', (l) => l.request_id === requestId);
    expect(gatewayLine!.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(recordLine!.trace_id).toBe(gatewayLine!.trace_id);
  });

  it('keeps the trace through an MCP tool call: gateway → MCP service → gateway → record', async () => {
    const traceId = hex(16);
    const res = await fetch(`${stack.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${pro.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        traceparent: `00-${traceId}-${hex(8)}-01`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'record.version', arguments: {} } }),
    });
    expect(res.status).toBe(200);
    await logged('mcp', 'mcp request', (l) => l.trace_id === traceId);
    const gatewayLines = await logged('gateway', 'request', (l) => l.trace_id === traceId && l.capability === 'get_record_version');
    await logged('record', 'request', (l) => l.trace_id === traceId && l.request_id === gatewayLines[0]!.request_id);
    const spans = await waitFor('four spans of the MCP call', () => {
      const mine = sink.spans.filter((s) => s.traceId === traceId);
      return mine.length >= 4 ? mine : null;
    }, 20_000, 100);
    const byParent = new Map(spans.map((s) => [s.parentSpanId, s]));
    const outer = spans.find((s) => s.service === 'evidence-record-gateway' && s.name === 'mcp')!;
    const mcpSpan = byParent.get(outer.spanId)!;
    const inner = byParent.get(mcpSpan.spanId)!;
    const record = byParent.get(inner.spanId)!;
    expect([mcpSpan.service, inner.service, inner.name, record.service]).toEqual(['evidence-record-mcp', 'evidence-record-gateway', 'get_record_version', 'evidence-record-record']);
  });

  it("carries a release's trace through the outbox, NATS and the fan-out to the email worker's send", async () => {
    expect((await call(stack, pro.key, 'POST', '/api/v1/watch', { product_id: productId })).status).toBe(200);
    const { signalId, release } = await releaseSignalOn(stack, pro.key, productId);
    const traceId = String(release.trace_id);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const [fanout] = await logged('watch', 'Signal fanned out', (l) => l.signal_id === signalId);
    expect(fanout!.trace_id).toBe(traceId);
    const [sent] = await logged('email-worker', 'alert email sent', (l) => l.signal_id === signalId);
    expect(sent!.trace_id).toBe(traceId);
    expect(stack.smtp.messages.filter((m) => m.raw.includes(signalId))).toHaveLength(1);
  }, 60_000);
});
