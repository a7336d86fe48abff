import { z } from 'zod';
import { mcpSiteSettings } from '@evidence-record/contract';
import { baseEnv, env, loadConfig, signingKeysEnv } from '@evidence-record/platform';

const McpConfigSchema = z.object({
  ...baseEnv,
  /** This service's keys (one, or two during a rotation): it accepts only requests the gateway signed with one of them (decision 0313). Required. */
  MCP_SIGNING_KEYS: signingKeysEnv,
  PORT: env.port(8105),
  /** Where tool calls go: the gateway's REST routes, so MCP is metered exactly like REST. */
  GATEWAY_URL: env.httpUrl.default('http://127.0.0.1:8080'),
  GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Where /mcp may be called from (the contract's one rule, shared with the gateway: decision 0602). */
  ...mcpSiteSettings,
});

export type McpConfig = z.infer<typeof McpConfigSchema>;

export function loadMcpConfig(source: NodeJS.ProcessEnv = process.env): McpConfig {
  return loadConfig(McpConfigSchema, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { McpConfigSchema as configSchema };
