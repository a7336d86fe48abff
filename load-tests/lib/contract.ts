/**
 * What the scenarios check against, from the contract: the operations and
 * their MCP tools (derived: ./capabilities.ts is generated from the
 * contract's capability modules) and the envelope constants of the spec.
 */
import { operations } from './capabilities.ts';

/** An operation of the API: a capability (its spec name), or `health` and `openapi`. */
export type Capability = keyof typeof operations;

/** The MCP tools and the capability each one calls, from the contract's capability modules. */
export const MCP_TOOLS: { [tool: string]: Capability } = mcpTools();

function mcpTools(): { [tool: string]: Capability } {
  const out: { [tool: string]: Capability } = {};
  for (const name in operations) {
    const tool = operations[name as Capability].tool;
    if (tool !== null) out[tool] = name as Capability;
  }
  return out;
}

export const REQUEST_ID_PATTERN = /^req_[0-9a-f]{24}$/;
export const CACHE_CONTROL = 'private, no-store, max-age=0, must-revalidate';
export const ANSWER_STATUSES = ['supported', 'partial', 'stale', 'under_review', 'ambiguous', 'unsupported', 'refused'];
/** Envelope arrays that are always present ("yes" in the Required column). */
export const REQUIRED_ARRAYS = [
  'verified_facts',
  'commercial_facts',
  'calculations',
  'research_context',
  'regulatory_records',
  'documented_cautions',
  'limitations',
  'source_references',
];
export const REQUIRED_STRINGS = [
  'request_id',
  'capability',
  'status',
  'summary',
  'record_version',
  'record_as_of',
  'record_timestamp',
  'methodology_version',
  'disclaimer',
];
