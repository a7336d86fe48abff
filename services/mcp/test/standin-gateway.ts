import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  METHODOLOGY_VERSION,
  buildAnswer,
  buildRefusal,
  capabilityList,
  newRequestId,
  type Capability,
  type ErrorCode,
} from '@evidence-record/contract';

/**
 * A real HTTP server standing in for the gateway's REST routes while the
 * gateway is built: it answers every capability route with a contract-valid
 * envelope (built with the contract's own buildAnswer/buildRefusal), sends
 * RateLimit headers like the gateway does, and records exactly what it
 * received so tests can check the MCP service's REST calls.
 */
export interface ReceivedCall {
  method: string;
  /** Path and query as received. */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  capability: string | null;
}

export interface ScriptedAnswer {
  status: number;
  /** Sent byte for byte. */
  text: string;
  headers?: Record<string, string>;
}

const record = {
  record_version: 'rv_00000000000000000042',
  record_as_of: '2026-11-01',
  record_timestamp: '2026-11-01T06:00:00Z',
  methodology_version: METHODOLOGY_VERSION,
};

function routeOf(cap: Capability): RegExp {
  return new RegExp(`^${cap.path.replace(/:([a-z_]+)/g, '(?<$1>[^/]+)')}$`);
}

export class StandinGateway {
  readonly calls: ReceivedCall[] = [];
  /** The next answers to send, first in first out; when empty, a supported envelope. */
  readonly script: ScriptedAnswer[] = [];
  /** Body texts of the answers sent, in order. */
  readonly sent: string[] = [];
  remaining = 1000;
  /** Answer this late, to keep a tool call in flight. */
  delayMs = 0;
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<void> {
    const routes = capabilityList.map((cap) => ({ cap, re: routeOf(cap) }));
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://standin');
        const raw = Buffer.concat(chunks).toString('utf8');
        const match = routes.find((r) => r.cap.method === req.method && r.re.test(url.pathname));
        this.calls.push({
          method: req.method ?? '',
          url: req.url ?? '',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body: raw ? (JSON.parse(raw) as unknown) : undefined,
          capability: match?.cap.name ?? null,
        });
        const answer = this.script.shift() ?? this.defaultAnswer(match?.cap ?? null);
        this.remaining -= 1;
        const rateHeaders = {
          'RateLimit-Limit': '1000',
          'RateLimit-Remaining': String(this.remaining),
          'RateLimit-Reset': '37',
          'RateLimit-Policy': 'minute',
        };
        this.sent.push(answer.text);
        // The gateway's X-Request-Id is its envelope's request_id.
        const requestId = /^\{"request_id":"(req_[0-9a-f]{24})"/.exec(answer.text)?.[1];
        const idHeader: Record<string, string> = requestId ? { 'X-Request-Id': requestId } : {};
        setTimeout(() => {
          res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...rateHeaders, ...idHeader, ...answer.headers });
          res.end(answer.text);
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private defaultAnswer(cap: Capability | null): ScriptedAnswer {
    if (!cap) return refusal('unknown', 'unsupported_capability');
    const answer = buildAnswer({
      request_id: newRequestId(),
      capability: cap.name,
      status: 'supported',
      summary: `A stand-in answer for ${cap.name}.`,
      limitations: ['Stand-in gateway answer for tests.'],
      confidence: { level: 'high', basis: 'stand-in answer' },
      record,
    });
    return { status: 200, text: JSON.stringify(answer) };
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

/** A refusal exactly as the gateway would send it, with the 429 headers when they apply. */
export function refusal(capability: string, code: ErrorCode, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): ScriptedAnswer {
  const { status, body } = buildRefusal({ request_id: newRequestId(), capability, code, details, record_version: record.record_version });
  return { status, text: JSON.stringify(body), headers };
}
