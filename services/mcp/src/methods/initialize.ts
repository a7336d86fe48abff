import { API_VERSION, MCP_PROTOCOL_VERSIONS } from '@evidence-record/contract';
import type { InitializeRequest, InitializeResult, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

export const serverInfo = { name: 'evidence-record', title: 'Evidence Record', version: API_VERSION };

/**
 * Tools, and empty resource and prompt lists (declared so that listing them
 * is an answer, not "method not found"). Nothing changes during a session
 * because there are no sessions: no list_changed notifications.
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
  'A refusal comes back as a tool result with isError true whose structuredContent.error.code says why; for rate_limited or extraction_limit_reached wait _meta.retry_after seconds.',
  'The service does no laboratory testing, gives no medical or suitability advice, and never names a winner.',
].join(' ');

/**
 * Version negotiation within the three supported versions only. A client
 * asking for one of them gets it; any other request (older or newer) gets
 * our newest, as the MCP lifecycle prescribes, and the client decides
 * whether it can continue.
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
