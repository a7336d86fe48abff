import { API_VERSION, MCP_PROTOCOL_VERSIONS } from '@evidence-record/contract';
import type { InitializeRequest, InitializeResult, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

export const serverInfo = { name: 'evidence-record', title: 'Evidence Record', version: API_VERSION };

/**
 * Tools, and empty resource and prompt lists (the contract: "both list
 * empty"). Declared, so every method of each is served: listing answers
 * empty, resources/read answers -32002 and prompts/get -32602, the MCP
 * spec's codes for an unknown resource and an unknown prompt
 * (docs/decisions/0604). Nothing changes during a session because there are
 * no sessions: no list_changed notifications, no subscriptions.
 */
export const serverCapabilities: ServerCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
};

export const instructions = [
  'Evidence Record: a permanent, dated, evidence-backed Record of what U.S. pre-workout supplement products declare on their labels and what they cost per serving, and of confirmed changes (Signals).',
  'Resolve product names with products.resolve first and pass the returned product_id to the other tools; an "ambiguous" answer lists candidates for the user to choose from.',
  'Every answer is an envelope that keeps declared facts, commercial facts, calculations, research context, regulatory records, cautions and limitations apart: report them as such, with their dates.',
  'A refusal comes back as a tool result with isError true whose structuredContent.error.code says why: for invalid_request, error.details.field names the argument to fix; for rate_limited or extraction_limit_reached wait structuredContent.retry_after_seconds seconds, then retry once.',
  'The service does no laboratory testing, gives no medical or suitability advice, and never names a winner.',
].join(' ');

/**
 * Version negotiation within the supported versions only. A client asking
 * for one of them gets it; any other request (older or newer) gets our
 * newest, as the MCP lifecycle prescribes, and the client decides whether
 * it can continue.
 */
export function negotiateProtocolVersion(requested: string): string {
  return (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : MCP_PROTOCOL_VERSIONS[0];
}

export function initialize(params: InitializeRequest['params']): InitializeResult {
  return {
    protocolVersion: negotiateProtocolVersion(params.protocolVersion),
    capabilities: serverCapabilities,
    serverInfo,
    instructions,
  };
}
