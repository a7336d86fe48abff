import { monitoredSourceKinds, type MonitoredSourceKind } from '@evidence-record/contract';
import { dsldLabel } from './dsld-label';
import type { SourceKind } from './kind';
import { offerPage } from './offer-page';

/**
 * The source kinds the monitor reads, registered: one line per kind, keyed by its stored name (the kind's own `name`;
 * services/monitor/test/source-kinds.test.ts). The contract's storedSourceKinds says which kinds are monitored;
 * TypeScript refuses a monitored kind missing here.
 */
const registered: Record<MonitoredSourceKind, SourceKind> = {
  dsld_label: dsldLabel,
  offer_page: offerPage,
};

/** The names `source add` takes, in the contract's order. */
export const sourceKinds = monitoredSourceKinds;

/** A stored kind's reading; an unknown kind is a source the monitor cannot read (the check is `unreadable`). */
export function kindOf(name: string): SourceKind {
  const kind = Object.hasOwn(registered, name) ? registered[name as MonitoredSourceKind] : undefined;
  if (!kind) throw new Error(`source kind ${name} is not one the monitor reads`);
  return kind;
}

export type { SourceKind, SourcePolicy, Parse, KindPlan, PlacedCounts } from './kind';
