/**
 * Values the spec leaves open ("not shown"), decided once here and written
 * into the OpenAPI document and docs/decisions/. Change them only with a new
 * decision record.
 */
export const API_VERSION = '1.0.0';
export const METHODOLOGY_VERSION = 'method-2026.11';
export const SUPPORTED_CATEGORY = 'pre-workout';

/** Default and maximum page size of the Signal feed and the category snapshot. */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 25;

/** Maximum length of one category snapshot window, in days (inclusive of both ends). */
export const MAX_SNAPSHOT_WINDOW_DAYS = 92;
/** A snapshot with no `from`/`to` covers the last this-many days of releases. */
export const DEFAULT_SNAPSHOT_WINDOW_DAYS = 30;

/** search_record answers with at most this many products; it never pages. */
export const SEARCH_RESULT_CAP = 5;

/** Signal dimensions (open enum: new members may be added). */
export const signalDimensions = ['formula', 'serving', 'price', 'identity'] as const;
/** Categories (open enum). The Record covers one category today. */
export const categories = [SUPPORTED_CATEGORY] as const;

/** Product depth classes. REGISTERED products are known to exist but have no comparable label capture. */
export const depthClasses = ['REGISTERED', 'CAPTURED', 'TRACKED'] as const;

/** What a history state can support. */
export const historyStateClasses = ['comparable', 'presence_only', 'identity_only'] as const;

/** Ledger edition status values. A closed edition never changes. */
export const editionStatuses = ['open', 'closed'] as const;

/** Price basis of an observed price. Only `list` is ever called a list price. */
export const priceBases = ['list', 'promotional', 'subscription', 'unspecified'] as const;

/**
 * Source kinds in answers (decision 1008): the contract's vocabulary
 * (SourceReference.kind, source health, coverage by kind), whatever the Record
 * stores a source as. A DSLD label is the manufacturer's declared label; an
 * offer page is a retailer's.
 */
export const answerSourceKinds = ['manufacturer', 'retailer', 'regulator', 'publication'] as const;
export type AnswerSourceKind = (typeof answerSourceKinds)[number];
/**
 * Every kind the Record stores a source as (sources_kind_check admits these and no other), how answers name it, and
 * whether the source monitor reads it: a monitored kind has its reading in services/sources/src/kinds/ (TypeScript
 * refuses a monitored kind without one), and `source add`, capture import and the depth rule take their lists from
 * here. The others are sources capture import names (docs/monitor.md, "Adding a source kind").
 */
export const storedSourceKinds = {
  manufacturer: { answers_as: 'manufacturer', monitored: false },
  retailer: { answers_as: 'retailer', monitored: false },
  dsld_label: { answers_as: 'manufacturer', monitored: true },
  offer_page: { answers_as: 'retailer', monitored: true },
} as const satisfies Record<string, { answers_as: AnswerSourceKind; monitored: boolean }>;
export type StoredSourceKind = keyof typeof storedSourceKinds;
/** The kinds the source monitor reads. */
export type MonitoredSourceKind = { [K in StoredSourceKind]: (typeof storedSourceKinds)[K]['monitored'] extends true ? K : never }[StoredSourceKind];
export const storedSourceKindNames = Object.keys(storedSourceKinds) as [StoredSourceKind, ...StoredSourceKind[]];
export const monitoredSourceKinds = storedSourceKindNames.filter((k) => storedSourceKinds[k].monitored) as [MonitoredSourceKind, ...MonitoredSourceKind[]];

/** A stored source kind as every answer names it; the database admits no other kind (sources_kind_check). */
export function answerSourceKind(stored: string): AnswerSourceKind {
  const kind = Object.hasOwn(storedSourceKinds, stored) ? storedSourceKinds[stored as StoredSourceKind].answers_as : undefined;
  if (!kind) throw new Error(`source kind ${stored} has no name in answers (decision 1008)`);
  return kind;
}

/** Watch receipt period: a calendar month (of a year Postgres can hold: not 0000). */
export const periodPattern = /^(?!0000)\d{4}-(0[1-9]|1[0-2])$/;

/**
 * A cursor older than this is stale and refused as invalid_request. Two days,
 * so that a page the daily budget cut short at any time of a UTC day can be
 * followed at any time of the next one (decision 0312).
 */
export const CURSOR_TTL_SECONDS = 48 * 60 * 60;

export const DISCLAIMER =
  'The Evidence Record reports what product labels and sources declare and what prices were observed. ' +
  'It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability.';

/** Self-reported attribution header values. Recorded on usage, never used for access. */
export const serviceOrigins = ['api', 'mcp'] as const;

/** Supported MCP protocol versions, newest first. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
