import { signRequest } from '@evidence-record/platform';

/**
 * For tests that call one service directly, as the gateway does: a fixed
 * signing key to start the service with, and the gateway's signature on a
 * request (decision 0313). Tests about the refusal call without it.
 */
export const TEST_SIGNING_KEY = 'test-support-signing-key-0123456789abcdef';

/** `headers` plus the gateway's timestamp and signature for this method and path (with its query). */
export function signedAsGateway(method: string, pathAndQuery: string, headers: Record<string, string> = {}, key = TEST_SIGNING_KEY, at = Date.now()): Record<string, string> {
  const out = { ...headers };
  signRequest(key, method, pathAndQuery, out, at);
  return out;
}
