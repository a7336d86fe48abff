import { signRequest } from '@evidence-record/platform';
import { isServiceName, service, signingKeysEnvName, signingKeysOf } from '@evidence-record/registry';

/**
 * For tests that call one service directly, as the gateway does: a fixed
 * signing key per service to start it with (each service holds only its own,
 * as in production), and the gateway's signature on a request (decision
 * 0313). Tests about the refusal call without it.
 */
export function testSigningKey(service: string): string {
  return `test-support-${service}-signing-key-0123456789abcdef`;
}

/** The signing keys a service under test is started with: its own if it verifies; the gateway's, every service's it signs for. */
export function testSigningEnv(name: string): Record<string, string> {
  const owners = isServiceName(name) ? signingKeysOf(service(name)) : [];
  return Object.fromEntries(owners.map((o) => [signingKeysEnvName(o), testSigningKey(o)]));
}

export interface AsGateway {
  /** The request's other headers (identity, Content-Type, …): signed as they are. */
  headers?: Record<string, string>;
  /** The exact body that will be sent. */
  body?: string | Uint8Array;
  /** Another key (a test of the refusal); the service's test key otherwise. */
  key?: string;
  /** Another time (a replay, a skewed clock). */
  at?: number;
}

/** `headers` plus the gateway's timestamp, nonce, body digest and signature for this service, method, path (with its query) and body. */
export function signedAsGateway(service: string, method: string, pathAndQuery: string, opts: AsGateway = {}): Record<string, string> {
  const out = { ...(opts.headers ?? {}) };
  const body = typeof opts.body === 'string' ? Buffer.from(opts.body) : (opts.body ?? new Uint8Array());
  signRequest(opts.key ?? testSigningKey(service), { service, method, pathAndQuery, body }, out, opts.at ?? Date.now());
  return out;
}
