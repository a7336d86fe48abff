import type { Capability, CapabilityName } from '@evidence-record/contract';
import { capabilities } from '@evidence-record/contract';
import type { CapabilityHandler, Pool } from '@evidence-record/platform';

/** What every capability of this service reads from. */
export interface RecordDeps {
  pool: Pool;
  /** Base of the permanent public addresses answers cite (signal_url). */
  publicBaseUrl: string;
}

/** One capability: its row in the contract's table and its handler. */
export interface RecordCapability {
  capability: Capability;
  handler: (deps: RecordDeps) => CapabilityHandler;
}

export function recordCapability(name: CapabilityName, handler: RecordCapability['handler']): RecordCapability {
  const capability = capabilities[name];
  if (capability.service !== 'record') throw new Error(`${name} is not a record capability`);
  return { capability, handler };
}
