import type { MonitoredSourceKind } from '@evidence-record/contract';
import type { CaptureInput, CapturePlan, PlacedCapture } from '@evidence-record/curation';
import type { Pool, PoolClient } from '@evidence-record/platform';
import type { Evidence } from '../evidence';
import type { AddressPolicy } from '../guard';
import type { LeasedSource } from '../leases';
import type { MonitorSettings } from '../settings';
import type { IngredientNames } from '../synonyms';

/**
 * A kind of source the monitor reads: everything that differs between a DSLD
 * label and a retailer's offer page, in one file per kind (dsld-label.ts,
 * offer-page.ts), registered in ./index.ts. The rest of a check is the same
 * for every kind: the lease, the host's politeness slot, robots.txt, the SSRF
 * guard, the deadline, the HTTP status rules (read.ts); the evidence store,
 * the capture path, the check row and the next due time (place.ts).
 * docs/monitor.md, "Adding a source kind".
 */
export interface SourceKind<R = unknown, C = unknown> {
  /** The stored kind (sources.kind, evidence.kind): one of the contract's monitored storedSourceKinds. */
  readonly name: MonitoredSourceKind;

  // How to request it.
  /** `source add`: throws CurationRefused for an address a source of this kind is never read from. */
  admit?(url: URL, policy: SourcePolicy): void;
  /** The address a check requests for the source's URL (e.g. with a key the source's owner issued). */
  requestUrl(url: string, settings: MonitorSettings): string;
  /** Before each redirect hop: what the next address must not carry. */
  beforeRedirect?(next: URL, settings: MonitorSettings): void;

  // How to parse it, and what of it to keep.
  /**
   * Which part of what it reads the source is, from the source and the Record (reads only): asked only when a parse
   * without it answers `needsLabel` (an offer page of several prices), so most checks never pay for it.
   */
  select?(pool: Pool, src: LeasedSource): Promise<SourceSelector>;
  /** A 2xx body as a reading, or why the source is empty or unreadable; `source` says which part of it the source reads. */
  parse(body: Buffer, source?: SourceSelector): Parse<R>;
  /** What is kept of a reading (content-addressed evidence, decision 1004): its media type and bytes. */
  evidence(body: Buffer, url: string, reading: R): { mediaType: string; content: Buffer };
  /** The reading again from kept evidence: a 304 re-reads the content last kept. */
  reread(content: Buffer, source?: SourceSelector): Parse<R>;

  // How a reading becomes a capture, and which candidates it can open.
  /** The reading as a capture's label, source facts and prices (capture import's input). */
  capture(reading: R, src: LeasedSource, names: Pick<IngredientNames, 'identify'>): Promise<Pick<CaptureInput, 'label' | 'source_facts' | 'prices'>>;
  /**
   * Where the reading goes, planned by reads only: the capture plan, and whether the change may open candidates
   * (curation's candidate rules). Throws CurationRefused when it is read but not placed today (the same-day rule).
   */
  plan(client: PoolClient, reading: { src: LeasedSource; capture: CaptureInput; evidence: Evidence; reading: R; now: Date }): Promise<KindPlan<C>>;
  /** Once the capture is written: counts what it added and opens the candidates the change opens. */
  placed(client: PoolClient, written: { src: LeasedSource; placed: PlacedCapture; plan: KindPlan<C>; reading: R }, out: PlacedCounts): Promise<void>;
}

/** Which part of what it reads a source is: an offer page's variant (a sku or GTIN the page names), or all of it. */
export interface SourceSelector {
  variant: string | null;
  /**
   * The GTINs (UPCs) the product's monitored DSLD label declares (`upcSku`), digits only: on a page of several
   * variants at different prices, a source naming no variant reads the one whose GTIN is one of these.
   */
  labelGtins?: readonly string[];
}

/**
 * What parsing a body or kept evidence gives. `needsLabel`: an offer page offers several prices and no label UPCs
 * were given to choose by; the monitor parses it again with them (`select`).
 */
export type Parse<R> = { ok: true; reading: R } | { ok: false; outcome: 'empty' | 'unreadable'; reason: string; needsLabel?: boolean };

export interface KindPlan<C> {
  plan: CapturePlan;
  /** The change may open a candidate, so the write takes a savepoint: the candidate rules can still refuse after it. */
  mayOpenCandidate: boolean;
  /** The bytes are those the newest state was read from: it is read again under the current rule, never a change (decision 1400). */
  rederive?: boolean;
  /** What the kind needs once the capture is written (the offer page: the list price before). */
  context: C;
}

/** What a placed reading added to the Record, counted on the check's summary. */
export interface PlacedCounts {
  states_created: number;
  prices_recorded: number;
  candidates_opened: number;
}

/** What `source add` admits: the SSRF guard's addresses, and where DSLD labels are read. */
export interface SourcePolicy extends AddressPolicy {
  /**
   * The origin of DSLD_BASE_URL. A dsld_label source elsewhere is refused unless its host is allow-listed (a
   * mirror): the DSLD key goes to this origin only, and a "label" read from any other site would not be DSLD's.
   */
  dsldOrigin: string;
}
