import { z } from 'zod';
import { baseEnv, env, loadConfig, signingKeysEnv } from '@evidence-record/platform';

/** A comma-separated list; blanks dropped, entries lower-cased (hosts and origins compare case-insensitively). */
const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((raw) => [...new Set(raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))]);

const hostEntry = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;
const originEntry = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

/**
 * Host headers accepted when MCP_ALLOWED_HOSTS is unset: the local gateway,
 * this service itself, and the in-cluster service names the gateway may use.
 */
export const DEFAULT_ALLOWED_HOSTS = [
  '127.0.0.1:8080',
  'localhost:8080',
  '[::1]:8080',
  '127.0.0.1:8105',
  'localhost:8105',
  'mcp:8105',
  'evidence-record-mcp:8105',
].join(',');

const McpConfigSchema = z.object({
  ...baseEnv,
  /** This service's keys (one, or two during a rotation): it accepts only requests the gateway signed with one of them (decision 0313). Required. */
  MCP_SIGNING_KEYS: signingKeysEnv,
  PORT: env.port(8105),
  /** Where tool calls go: the gateway's REST routes, so MCP is metered exactly like REST. */
  GATEWAY_URL: env.httpUrl.default('http://127.0.0.1:8080'),
  GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Host headers accepted on /mcp (DNS-rebinding protection). */
  MCP_ALLOWED_HOSTS: list(DEFAULT_ALLOWED_HOSTS).refine((hosts) => hosts.length > 0 && hosts.every((h) => hostEntry.test(h)), {
    message: 'a comma-separated list of host[:port] entries, at least one',
  }),
  /**
   * Origin headers accepted on /mcp. Empty: only http(s)://<allowed host>.
   * A request without an Origin header (every server-side client) is not affected.
   */
  MCP_ALLOWED_ORIGINS: list('').refine((origins) => origins.every((o) => originEntry.test(o)), {
    message: 'a comma-separated list of origins such as https://app.example.com (scheme://host[:port], no path)',
  }),
});

export type McpConfig = z.infer<typeof McpConfigSchema>;

export function loadMcpConfig(source: NodeJS.ProcessEnv = process.env): McpConfig {
  return loadConfig(McpConfigSchema, source);
}
