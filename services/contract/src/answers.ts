import { z } from 'zod';
import { depthClasses, historyStateClasses, priceBases } from './decisions';
import type { CapabilityName } from './capabilities';

/**
 * The answer objects the spec leaves untyped ("Internal fields of the
 * coverage, comparison, ledger and watch objects: not shown"), as the
 * services fill them today. They are open objects: the spec promises
 * additive change, so a client must accept a field it does not know, and a
 * service adding a field is not a breaking change. What keeps an internal
 * field from leaving is the service that builds the object (and the strict
 * sub-records it holds), not these shapes. `answers.test` in the end-to-end
 * suite parses real answers of the demo Record against a closed copy of
 * these shapes, so a field a service adds without describing it here fails
 * a test rather than drifting silently.
 */
const date = z.iso.date();
const dateTime = z.iso.datetime({ offset: true });
const count = z.number().int().min(0);
const open = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

/** A share of a named cohort: every proportion names its denominator. */
export const Proportion = open({
  share: z.number().nullable().describe('numerator / denominator rounded to 4 places; null when the denominator is 0'),
  numerator: count,
  denominator: count,
  cohort: z.string().describe('what the denominator counts'),
}).meta({ id: 'Proportion' });

const StateRef = open({
  state_id: z.string(),
  observed_from: date,
  observed_to: date,
  classification: z.enum(historyStateClasses),
});

// --- coverage, per capability ---------------------------------------------

const SearchMatch = open({
  field: z.string().describe('name, alias, brand or declared_ingredient (open enum)'),
  value: z.string(),
  ingredient_id: z.string().optional(),
});

export const SearchCoverage = open({
  query_normalized: z.string(),
  result_cap: z.number().int().describe('search_record answers with at most this many products and never pages'),
  results: z.array(open({ rank: z.number().int().min(1), product_id: z.string(), score: z.number(), matched: z.array(SearchMatch) })),
  more_matches: z.boolean().describe('true when more products match than the cap shows'),
  ingredients_recognised: z.array(
    open({ ingredient_id: z.string(), name: z.string(), matched: z.string(), by: z.string().describe('name (a whole name or synonym) or word (one distinctive word)') }),
  ),
})
  .describe('search_record: what the question was matched as and what matched in each product')
  .meta({ id: 'SearchCoverage' });

export const ResolveCoverage = open({
  identifier_normalized: z.string(),
  matched_on: z.string().optional().describe('one match: name, alias, brand_and_name or brand_and_alias (open enum)'),
  matched_value: z.string().optional(),
  candidates_total: count.optional().describe('ambiguous: how many products carry the identifier'),
  candidates_shown: count.optional().describe('ambiguous: how many of them are in candidates'),
})
  .describe('resolve_product: how the identifier was matched, or how many candidates it names')
  .meta({ id: 'ResolveCoverage' });

export const ProductRecordCoverage = open({
  latest_state: StateRef.nullable(),
  freshness: open({ label_observed_to: date.nullable(), newest_price_observed_at: date.nullable() }),
  source_health: z
    .array(
      open({
        kind: z.string().describe('manufacturer or retailer'),
        retailer: z.string().nullable(),
        readable: z.boolean(),
        since: date.describe('the day the source entered its current health'),
        last_read_on: date.nullable(),
        last_captured_on: date.nullable(),
      }),
    )
    .describe('data-level state of each source; an unreadable source is never an API outage'),
  label_versions: z
    .array(
      open({
        dsld_label_id: z.number().int(),
        product_version_code: z.string().nullable(),
        dsld_date: date.nullable().describe("the label's own DSLD date (entryDate, else its 'Date entered into DSLD' event)"),
        off_market: z.boolean().describe('DSLD marks this label off the market (offMarket 1 or an Off Market event)'),
        off_market_since: date.nullable(),
        monitored: z.boolean().describe("only the product's newest label version is monitored; older versions are its recoverable history"),
        source_url: z.string(),
      }),
    )
    .optional()
    .describe('the DSLD label versions the Record holds of this product, oldest first (decision 1401)'),
})
  .describe('get_product_record: the latest label state, freshness, source health and DSLD label versions')
  .meta({ id: 'ProductRecordCoverage' });

export const HistoryCoverage = open({
  depth_class: z.enum(depthClasses),
  depth_of_history: open({
    class: z.string().describe('none, identity_only, presence_only, single_comparable_state or comparable_timeline (open enum)'),
    span_days: count,
  }),
  first_observed: date.nullable(),
  last_observed: date.nullable(),
  states: count,
  comparable_states: count,
  comparable_pairs: count,
  released_signals: count,
  withdrawn_signals: count,
})
  .describe('get_formula_history: how deep the recoverable history goes')
  .meta({ id: 'HistoryCoverage' });

export const ServingEconomicsCoverage = open({
  observations: count,
  first_observed_at: date.nullable(),
  last_observed_at: date.nullable(),
  price_bases_observed: z.array(z.enum(priceBases)),
  price_runs: z
    .array(
      open({
        retailer: z.string(),
        price_basis: z.enum(priceBases),
        price: z.number().describe('USD'),
        first_observed_at: date,
        last_observed_at: date,
        observations: z.number().int().min(1),
      }),
    )
    .describe('spans of dated observations at one price per retailer and basis; never a change date'),
  per_gram_basis: open({ price_basis: z.enum(priceBases).nullable(), as_of: date }).nullable(),
})
  .describe('get_serving_economics: the price observations behind the calculations')
  .meta({ id: 'ServingEconomicsCoverage' });

const FromProductLabel = open({ product_id: z.string(), state_id: z.string().nullable() })
  .nullable()
  .describe('when asked by product_id: the label state whose declared ingredients were read');

/** Entries a curator retired (decision 1601): kept in the Record, named here instead of served as current. */
const RetiredEntries = z
  .array(
    open({
      entry_id: z.string(),
      ingredient_id: z.string(),
      title: z.string(),
      authority: z.string().nullable(),
      date: z.string().nullable(),
      retired_on: date,
      note: z.string().describe('the public reason it was retired'),
    }),
  )
  .describe('entries the Record held for these ingredients and retired, with the date and the reason; not served as current context');

export const ResearchCoverage = open({
  ingredients: z.array(open({ ingredient_id: z.string(), name: z.string(), research_entries: count })),
  from_product_label: FromProductLabel,
  retired: RetiredEntries.optional(),
})
  .describe('get_research_context: the ingredients answered')
  .meta({ id: 'ResearchCoverage' });

export const RegulatoryCoverage = open({
  ingredients: z.array(open({ ingredient_id: z.string(), name: z.string(), regulatory_records: count, documented_cautions: count })),
  from_product_label: FromProductLabel,
  retired: RetiredEntries.optional(),
})
  .describe('get_regulatory_context: the ingredients answered')
  .meta({ id: 'RegulatoryCoverage' });

export const RecordVersionCoverage = open({
  record_version: z.string(),
  methodology_version: z.string(),
  supported_category: z.string(),
  counts: open({
    brands: count,
    products: count,
    products_by_depth_class: z.record(z.string(), count).describe('keyed by depth class'),
    retired_products: count,
    released_signals: count,
    withdrawn_signals: count,
    corrected_signals: count,
    ingredients: count,
    history_states: count,
  }),
  source_freshness: open({
    newest_observation_on: date.nullable(),
    newest_label_capture_on: date.nullable(),
    newest_price_observed_at: date.nullable(),
    newest_monitoring_check_on: date.nullable(),
    sources: count,
    unreadable_sources: count,
    unreadable_manufacturer_sources: count,
  }),
})
  .describe('get_record_version: coverage counts and source freshness of this record version')
  .meta({ id: 'RecordVersionCoverage' });

const share = (extra: z.core.$ZodLooseShape) => open({ ...extra, ...Proportion.shape });

export const CategorySnapshotCoverage = open({
  category: z.string(),
  window: open({ from: date, to: date, days: z.number().int().min(1), max_days: z.number().int() }).describe('release dates, both ends inclusive'),
  signals: open({
    released_in_window: count,
    by_dimension: z.array(share({ dimension: z.string() })),
    by_status: z.array(share({ status: z.string().describe('released, corrected or withdrawn') })),
  }),
  products: open({
    covered: count,
    by_depth_class: z.array(share({ depth_class: z.string() })),
    with_signals_in_window: Proportion,
  }),
  sources: open({
    total: count,
    unreadable: Proportion,
    by_kind: z.array(open({ kind: z.string(), total: count, unreadable: Proportion })),
  }),
})
  .describe('get_category_snapshot: Signals released in the window and coverage state; every proportion names its cohort')
  .meta({ id: 'CategorySnapshotCoverage' });

export const WatchReceiptCoverage = open({
  period: z.string().describe('YYYY-MM'),
  products_total: count,
  products_covered: count,
  products_partly_covered: count,
})
  .describe('get_watch_receipt: how many watched products the monitoring ledger reaches for the period')
  .meta({ id: 'WatchReceiptCoverage' });

// --- comparison ----------------------------------------------------------

export const Comparison = open({
  basis: z.string(),
  states: z.array(
    open({
      product_id: z.string(),
      state_id: z.string().nullable(),
      observed_from: date.nullable(),
      observed_to: date.nullable(),
      classification: z.enum(historyStateClasses).nullable(),
    }),
  ),
  serving: z.array(
    open({
      product_id: z.string(),
      serving_size: z.number().nullable(),
      serving_unit: z.string().nullable(),
      servings_per_container: z.number().nullable(),
      description: z.string().nullable(),
    }),
  ),
  ingredients: z
    .array(
      open({
        ingredient_id: z.string().nullable().describe('null when the Record has not mapped the declared name to an ingredient'),
        name: z.string(),
        declared: z
          .array(
            open({
              product_id: z.string(),
              declared: z.boolean().describe('false: not on the label as captured (undisclosed), never zero'),
              declared_name: z.string().nullable(),
              amount: z.number().nullable().describe('null: no amount of its own on the label; never treated as zero'),
              unit: z.string().nullable(),
              blend: z.string().nullable(),
            }),
          )
          .describe('one cell per product, in request order'),
      }),
    )
    .describe('one row per ingredient any product declares, in label order; there is no ranking'),
  blends: z.array(open({ product_id: z.string().nullable(), name: z.string(), total_amount: z.number().nullable(), total_unit: z.string().nullable() })),
  note: z.string(),
})
  .describe('compare_products: declared doses side by side in the labels\' own units. Never names a winner; absent when the comparison is refused')
  .meta({ id: 'Comparison' });

// --- ledger --------------------------------------------------------------

const editionStatus = z.string().describe('open or closed (a closed edition never changes)');

export const LedgerEditionEntry = open({
  edition_id: z.string(),
  period: z.string().describe('YYYY-MM'),
  status: editionStatus,
  data_as_of: date,
  count_released: count,
}).meta({ id: 'LedgerEditionEntry' });

export const LedgerEditionList = open({ editions: z.array(LedgerEditionEntry).describe('newest period first') })
  .describe('list_ledger_editions')
  .meta({ id: 'LedgerEditionList' });

const Cohort = open({ description: z.string(), denominator: count });

/** The published edition document: the value `edition_hash` is computed over. */
export const LedgerEditionDocument = open({
  edition_id: z.string(),
  period: z.string(),
  status: editionStatus,
  data_as_of: date,
  executive_summary: z.string(),
  confirmed_changes: z.array(
    open({
      signal_id: z.string(),
      product_id: z.string(),
      product_name: z.string(),
      dimension: z.string(),
      summary: z.string(),
      released_at: date,
      observation_window: open({ start: date, end: date, exact_change_date: date.nullable() }),
    }),
  ),
  category_benchmarks: z.array(open({ name: z.string(), value: z.number().nullable(), unit: z.string(), cohort: Cohort })),
  serving_economics: z.array(
    open({
      product_id: z.string(),
      product_name: z.string(),
      retailer: z.string(),
      observed_at: date,
      price_basis: z.string().describe('list'),
      price_cents: z.number().int(),
      servings_per_container: z.number(),
      price_per_serving_usd: z.number(),
      calculation: z.string(),
    }),
  ),
  product_comparison: z.array(
    open({
      product_id: z.string(),
      product_name: z.string(),
      state_id: z.string(),
      serving: open({ size: z.number().nullable(), unit: z.string().nullable(), servings_per_container: z.number().nullable() }).nullable(),
      declared: z.array(open({ ingredient_id: z.string().nullable(), declared_name: z.string(), amount: z.number().nullable(), unit: z.string().nullable() })),
    }),
  ),
  limitations: z.array(z.string()),
})
  .describe('the published edition document, exactly the value edition_hash is computed over; a closed edition serves it verbatim')
  .meta({ id: 'LedgerEditionDocument' });

export const LedgerEdition = open({
  edition: LedgerEditionEntry.extend({ closed_at: dateTime.nullable() }),
  document: LedgerEditionDocument,
  edition_hash: z.string().describe('SHA-256 (hex) of the canonical JSON of document'),
  hash_method: open({ algorithm: z.string(), encoding: z.string(), over: z.string(), canonical_json: z.string() }).describe('how a client recomputes edition_hash'),
})
  .describe('get_ledger_edition')
  .meta({ id: 'LedgerEdition' });

// --- watch ---------------------------------------------------------------

export const WatchItem = open({
  product_id: z.string(),
  name: z.string(),
  brand_name: z.string(),
  watched_since: dateTime,
  monitoring_state: z.string().describe('monitored, not_monitored or source_unreadable (open enum)'),
  currently_unreadable: z.boolean().nullable(),
  unreadable_since: dateTime.nullable(),
  last_read_at: dateTime.nullable(),
  last_checked_at: dateTime.nullable(),
  next_check_due: dateTime.nullable(),
  check_overdue: z.boolean().nullable(),
  check_interval_hours: z.number().int(),
}).meta({ id: 'WatchItem' });

export const WatchList = open({ items: z.array(WatchItem), count, limit: count.describe("the account's watch limit") })
  .describe('list_watched_products')
  .meta({ id: 'WatchList' });

export const WatchAdded = open({
  changed: z.boolean().describe('false when the product was already watched (idempotent)'),
  item: WatchItem,
  count,
  limit: count,
})
  .describe('watch_product')
  .meta({ id: 'WatchAdded' });

export const WatchRemoved = open({
  changed: z.boolean().describe('false when the product was not watched (idempotent)'),
  alerts_cancelled: count.describe('alerts not yet sent that the removal stopped; nothing already delivered is removed'),
  count,
  limit: count,
})
  .describe('unwatch_product')
  .meta({ id: 'WatchRemoved' });

export const WatchReceiptItem = open({
  product_id: z.string(),
  name: z.string(),
  brand_name: z.string(),
  coverage: open({
    state: z.string().describe('covered or partly_covered: a period the monitoring ledger does not reach is partly covered, never zero'),
    covered_days: count,
    days_in_period: z.number().int(),
    period_complete: z.boolean(),
  }),
  checks: open({ valid: count, empty: count, unreadable: count, recoveries: count })
    .nullable()
    .describe('null when the monitoring ledger reaches no day of the period: unknown, never zero'),
  confirmed_signals: open({ count, signal_ids: z.array(z.string()) }),
}).meta({ id: 'WatchReceiptItem' });

export const WatchReceipt = open({
  receipt: open({ period: z.string(), period_start: date, period_end: date, period_complete: z.boolean(), items: z.array(WatchReceiptItem) }),
})
  .describe('get_watch_receipt')
  .meta({ id: 'WatchReceipt' });

// --- which capability fills which --------------------------------------

export const answerObjectFields = ['coverage', 'comparison', 'ledger', 'watch'] as const;
export type AnswerObjectField = (typeof answerObjectFields)[number];

/**
 * Which answer objects each capability fills, and their shape. A capability
 * not listed for a field never fills it.
 */
export const answerObjects: Record<CapabilityName, Partial<Record<AnswerObjectField, z.ZodType>>> = {
  search_record: { coverage: SearchCoverage },
  resolve_product: { coverage: ResolveCoverage },
  get_product_record: { coverage: ProductRecordCoverage },
  get_formula_history: { coverage: HistoryCoverage },
  explain_signal: {},
  list_signal_changes: {},
  compare_products: { comparison: Comparison },
  get_serving_economics: { coverage: ServingEconomicsCoverage },
  get_research_context: { coverage: ResearchCoverage },
  get_regulatory_context: { coverage: RegulatoryCoverage },
  get_category_snapshot: { coverage: CategorySnapshotCoverage },
  list_ledger_editions: { ledger: LedgerEditionList },
  get_ledger_edition: { ledger: LedgerEdition },
  list_watched_products: { watch: WatchList },
  watch_product: { watch: WatchAdded },
  unwatch_product: { watch: WatchRemoved },
  get_watch_receipt: { watch: WatchReceipt, coverage: WatchReceiptCoverage },
  get_record_version: { coverage: RecordVersionCoverage },
};

const union = (field: AnswerObjectField) => {
  const options = [...new Set(Object.values(answerObjects).flatMap((o) => (o[field] ? [o[field]] : [])))];
  return z.union(options as [z.ZodType, z.ZodType, ...z.ZodType[]]);
};

export const Coverage = union('coverage').describe('What the answer covers; its shape depends on the capability (see each operation).').meta({ id: 'Coverage' });
export const Ledger = union('ledger').describe('list_ledger_editions and get_ledger_edition').meta({ id: 'Ledger' });
export const Watch = union('watch').describe('the watch operations').meta({ id: 'Watch' });

/** error.details: what a refusal names. Open: a code may name more. */
export const ErrorDetails = open({
  location: z.string().optional().describe('invalid_request: body, query, path or header'),
  field: z.string().optional().describe('invalid_request and not_found: the field at fault'),
  issues: z.array(open({ field: z.string(), problem: z.string() })).optional().describe('invalid_request: up to 10 problems'),
  required_scope: z.string().optional().describe('insufficient_scope: the scope the capability requires'),
  capability: z.string().optional().describe('plan_entitlement_required'),
  plan: z.string().optional().describe('plan_entitlement_required'),
  bound_accounts: count.optional().describe('account_binding_required: how many accounts the organization is bound to'),
  window: z.string().optional().describe('rate_limited: minute, hour or day'),
  budget: z.string().optional().describe('extraction_limit_reached: product, signal or ingredient'),
  limit: count.optional().describe("extraction_limit_reached: the day's budget; watch_limit_reached: the watch limit"),
  used: count.optional().describe('extraction_limit_reached: distinct entities already answered today'),
  remaining: count.optional().describe("extraction_limit_reached: what is left of the day's budget"),
  needed: count.optional().describe('extraction_limit_reached: distinct new entities the answer would have named'),
  count: count.optional().describe('watch_limit_reached: products on the watchlist'),
  allowed_methods: z.array(z.string()).optional().describe('method_not_allowed: the methods the path takes (also in the Allow header)'),
  unknown: z.array(z.string()).optional().describe('not_found on compare_products and the ingredient contexts: the ids the Record does not hold'),
  product_id: z.string().optional().describe('not_found on watch_product: the id the Record does not hold'),
})
  .describe('What the refusal names; for invalid_request the field, for insufficient_scope required_scope. Open: new members may appear.')
  .meta({ id: 'ErrorDetails' });

/**
 * A deep copy of a schema with every object closed (unknown keys refused).
 * The answer objects are open to clients; tests parse real answers and the
 * document's examples with the closed copy, so neither can carry a field
 * the contract does not describe.
 */
export function closedSchema(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) return z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, closedSchema(v as z.ZodType)])));
  if (schema instanceof z.ZodArray) return z.array(closedSchema(schema.element as z.ZodType));
  if (schema instanceof z.ZodOptional) return closedSchema(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return closedSchema(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodUnion) return z.union((schema.options as z.ZodType[]).map(closedSchema) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  if (schema instanceof z.ZodRecord) return z.record(schema.keyType as z.ZodString, closedSchema(schema.valueType as z.ZodType));
  return schema;
}
