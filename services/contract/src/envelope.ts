import { z } from 'zod';
import { DISCLAIMER, depthClasses, historyStateClasses, priceBases } from './decisions';
import { errorCatalogue, errorCodes, documentationFor, statusOf, type ErrorCode } from './errors';
import { requestIdPattern } from './ids';
import { Comparison, Coverage, ErrorDetails, Ledger, Watch, answerObjects } from './answers';

/**
 * The answer envelope and its sub-records (spec: Resources and their fields).
 * Field lists the spec does not show are this project's decisions; they are
 * documented in the OpenAPI document generated from these schemas.
 * Sub-records are strict so that no internal field (capture ids, review
 * notes, source hashes, storage paths) can leave a service by accident.
 */
const date = z.iso.date();
const dateTime = z.iso.datetime({ offset: true });

export const answerStatuses = ['supported', 'partial', 'stale', 'under_review', 'ambiguous', 'unsupported', 'refused'] as const;
export type AnswerStatus = (typeof answerStatuses)[number];

export const ProductIdentity = z.strictObject({
  product_id: z.string(),
  name: z.string(),
  brand_id: z.string(),
  brand_name: z.string(),
  category: z.string(),
  form: z.string().describe('powder, capsule, ready_to_drink'),
  depth_class: z.enum(depthClasses),
  retired: z.boolean(),
  retired_on: date.nullable(),
}).meta({ id: 'ProductIdentity' });

export const ServingConfiguration = z.strictObject({
  serving_size: z.number().nullable(),
  serving_unit: z.string().nullable(),
  servings_per_container: z.number().nullable(),
  description: z.string().nullable(),
}).meta({ id: 'ServingConfiguration' });

/** A serving size a label declares besides its first (decision 1007): present only where the label declares more than one. */
export const OtherServing = z.strictObject({
  serving_order: z.number().int().describe("the label's order of this serving size (the first is `serving`)"),
  serving_size: z.number().nullable(),
  serving_unit: z.string().nullable(),
  description: z.string().nullable(),
  note: z.string().nullable().describe("the label's own words for this serving size (\"children (age 6+)\")"),
}).meta({ id: 'OtherServing' });

/**
 * A declared amount the label states as a bound ("Total Carbohydrates <1 g", "Protein >1 g"; decision 2430): the
 * operator, present only then. The amount beside it is the bound, not a quantity, and the service never calculates
 * with it.
 */
export const declaredOperators = ['<', '>', '<=', '>=', '~'] as const;
export type DeclaredOperator = (typeof declaredOperators)[number];
/** Whether a stored operator states a bound (decision 2430); '=' and none are the amount itself. */
export const isBound = (operator: string | null | undefined): operator is DeclaredOperator => (declaredOperators as readonly string[]).includes(operator ?? '');
/** A stored operator as an answer shows it: present only for a bound. */
export const bound = (operator: string | null | undefined): { operator?: DeclaredOperator } => (isBound(operator) ? { operator } : {});
const declaredBound = z
  .enum(declaredOperators)
  .optional()
  .describe(
    'present only when the label states the amount as a bound or an approximation: "<" with amount 1 and unit "g" is the label\'s "<1 g" (less than 1 g), never 1 g. Absent when the label states the amount itself. A bounded amount is shown, never used in a calculation (decision 2430)',
  );

/** The most % Daily Value entries one line keeps (one per target group the label prints; decision 2440). */
export const MAX_DAILY_VALUES = 4;
export const DailyValue = z
  .strictObject({
    percent: z.number().nullable().describe('the percent of the Daily Value the label prints for the line\'s serving (833 for "833%"); null where it prints a note instead'),
    operator: declaredBound,
    target_group: z.string().nullable().describe('whose Daily Value, as DSLD names it ("Adults and children 4 or more years of age")'),
    note: z.string().optional().describe('what the label prints in the percent\'s place ("Daily Value not established")'),
  })
  .meta({ id: 'DailyValue' });
export type DailyValue = z.infer<typeof DailyValue>;
/** Daily values in the one field order answers and comparisons use (jsonb keeps keys in its own order). */
export const orderedDailyValues = (list: readonly DailyValue[]): DailyValue[] =>
  list.map((d) => ({ percent: d.percent, ...(d.operator ? { operator: d.operator } : {}), target_group: d.target_group, ...(d.note ? { note: d.note } : {}) }));

/** The amount a serving other than the line's own declares: another serving size, or another quantity of it. */
export const ServingAmount = z.strictObject({
  serving_order: z.number().int(),
  serving_quantity: z
    .number()
    .nullable()
    .describe('where one serving size lists amounts for several quantities of it (1, 2 or 3 scoops): the quantity, in the serving unit'),
  amount: z.number().nullable().describe('null: not declared for this serving size; 0: declared as zero'),
  unit: z.string().nullable(),
  operator: declaredBound,
}).meta({ id: 'ServingAmount' });

export const HistoryState = z.strictObject({
  state_id: z.string(),
  observed_from: date,
  observed_to: date,
  classification: z.enum(historyStateClasses),
  comparable: z.boolean().describe('true when this state can be compared with another comparable state of the same product'),
  serving: ServingConfiguration.nullable(),
  other_servings: z.array(OtherServing).optional().describe('the serving sizes the label declares besides `serving`; absent when it declares one'),
  net_contents: z
    .array(z.strictObject({ quantity: z.number(), unit: z.string() }).meta({ id: 'NetContent' }))
    .optional()
    .describe('what the label declares the container holds ("60 Caplet(s)", "520 g"), in its order; absent when the Record holds none for this state (decision 2410)'),
  declared_ingredient_count: z.number().int(),
  note: z.string().nullable(),
}).meta({ id: 'HistoryState' });

export const VerifiedFact = z.strictObject({
  kind: z
    .string()
    .describe(
      "declared_ingredient, proprietary_blend, serving_configuration (the serving size, servings per container, each other serving size, and each net contents entry the label declares as declared_name 'net contents', amount and unit as printed: 60 Caplet(s), 520 g; decision 2410), other_ingredient (get_product_record: an entry of the label's other ingredients, as printed, with the forms DSLD lists under it in forms; no amount; not a Supplement Facts line; decision 2420), label_statement (get_product_record: what the label states beside its Supplement Facts, under DSLD's type as declared_name: 'Formula re: Contains', 'Formulation re: Does NOT Contain', 'Precautions re: …', 'Suggested/Recommended/Usage/Directions'; its words in statement; decision 2420). Open: clients ignore kinds they do not know",
    ),
  value: z.strictObject({
    declared_name: z.string(),
    amount: z
      .number()
      .nullable()
      .describe('null: the label names it without an amount (undisclosed). 0: the label declares zero ("Trans Fat 0 g"), a declared fact. Always null on an other_ingredient (the label gives none) and on a label_statement (words, never read as an amount).'),
    unit: z.string().nullable(),
    operator: declaredBound,
    ingredient_id: z
      .string()
      .nullable()
      .optional()
      .describe('The canonical ingredient the line is identified as (its UNII, then its DSLD group and form, then its name); null when none or two match. May change at a later record_version; the declared facts never do.'),
    blend: z.string().nullable().optional().describe('name of the proprietary blend this ingredient is declared in'),
    amount_disclosed: z.boolean().optional().describe('true for any declared amount, 0 included; false when the label gives none'),
    amount_note: z
      .string()
      .optional()
      .describe('where the label gives no amount of its own, its words for one ("1.25 billion CFU"), kept as evidence; amount stays null'),
    amounts_by_serving: z.array(ServingAmount).optional().describe('what the serving sizes besides the first declare of this line; absent when the label declares one serving size'),
    daily_values: z
      .array(DailyValue)
      .optional()
      .describe(
        "get_product_record, declared_ingredient: the % Daily Value the label prints beside the line for its serving, per target group, as printed; never converted into an amount (a line printed only as \"Vitamin C 833%\" keeps amount null beside it). Absent when the label prints none or the Record has not read it (decision 2440)",
      ),
    serving_order: z.number().int().optional().describe('serving_configuration: which of the serving sizes the label declares (absent: the first)'),
    forms: z
      .array(z.string())
      .optional()
      .describe('other_ingredient: the names DSLD lists under the entry, in order ("Contains 2% or less of" → "Sucralose", "FD&C Blue #1" …; "Gum Blend" → its gums); absent when it lists none'),
    statement: z
      .string()
      .optional()
      .describe('label_statement: the statement as the label prints it (its line breaks kept), e.g. "Each serving supplies 200 mg of caffeine."; a precaution is the label\'s words, never the service\'s advice'),
  }),
  state_id: z.string().nullable(),
  observed_at: date,
  source_url: z.string().nullable(),
}).meta({ id: 'VerifiedFact' });

export const CommercialFact = z.strictObject({
  kind: z.string().describe('price_observation'),
  product_id: z.string(),
  observed_at: date,
  retailer: z.string(),
  price: z.strictObject({ amount: z.number(), currency: z.literal('USD') }),
  price_basis: z.enum(priceBases).describe('list only when the Record recorded the price as a list price'),
  servings_per_container: z
    .number()
    .nullable()
    .describe("as declared: the observation's own, else its matched label state's; never a figure the service derives from net contents (decision 2410)"),
  source_url: z.string().nullable(),
  offer_variant: z
    .string()
    .optional()
    .describe(
      'the variant (the sku, GTIN or MPN the page gives it) of a retailer page offering several sizes or flavours that this price was read for; present when its source names one, absent when the page offers one price (decision 1008)',
    ),
}).meta({ id: 'CommercialFact' });

export const Operand = z.strictObject({
  name: z.string(),
  value: z.union([z.number(), z.string(), z.null()]),
  unit: z.string().nullable(),
  source: z
    .string()
    .nullable()
    .describe(
      "which fact the operand comes from; a servings_per_container the label does not declare but the service derives says so: 'derived from the … label state: net contents 60 Caplet(s) ÷ serving size 1 Caplet(s)' (decision 2410)",
    ),
}).meta({ id: 'Operand' });

export const Calculation = z.strictObject({
  name: z.string().describe('price_per_serving, price_per_gram_of_ingredient, …'),
  result: z.number().nullable(),
  unit: z.string(),
  formula: z.string(),
  operands: z.array(Operand),
  as_of: date,
  price_basis: z.enum(priceBases).nullable().optional(),
  product_id: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
}).meta({ id: 'Calculation' });

export const Reference = z.strictObject({
  title: z.string(),
  year: z.number().int().nullable(),
  kind: z.string(),
  url: z.string().nullable().describe('an https address on the allow-list of authorities\' and publishers\' domains (decision 1601); null for entries recorded before references were required'),
  date: z.string().nullable().optional().describe('the date cited, as precise as the source gives it: YYYY, YYYY-MM or YYYY-MM-DD'),
}).meta({ id: 'Reference' });

const correctedValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** A correction of a research or regulatory entry: like a Signal's, it keeps what it replaced beside what it put in place. */
export const ContextCorrection = z.strictObject({
  recorded_on: date,
  note: z.string().describe('the public note saying why'),
  changes: z
    .array(z.strictObject({ field: z.string(), before: correctedValue, after: correctedValue }))
    .describe('each field corrected (authority, kind, record_kind, date, title, evidence, what_it_is, url, reference_title, documented_caution, range_low, range_high, range_unit, range_basis, population), with the value it had and the one it has now'),
}).meta({ id: 'ContextCorrection' });

export const ResearchContext = z.strictObject({
  ingredient_id: z.string(),
  ingredient_name: z.string(),
  studied_range: z
    .strictObject({ low: z.number().nullable(), high: z.number().nullable(), unit: z.string(), basis: z.string() })
    .nullable(),
  population: z.string().nullable(),
  evidence: z.string(),
  references: z.array(Reference),
  note: z.string(),
  entry_id: z.string().optional().describe('permanent id of this research entry (rsc_…)'),
  authority: z.string().nullable().optional().describe('who published what is cited, where that is an organisation'),
  date: z.string().nullable().optional().describe('the date cited: YYYY, YYYY-MM or YYYY-MM-DD'),
  corrections: z.array(ContextCorrection).optional().describe('corrections of this entry, oldest first; empty when it reads as first recorded'),
}).meta({ id: 'ResearchContext' });

export const RegulatoryRecord = z.strictObject({
  ingredient_id: z.string(),
  ingredient_name: z.string(),
  record_kind: z.string().describe('warning_letter, import_alert, consumer_advisory, guidance, rule, …'),
  authority: z.string(),
  year: z.number().int().nullable(),
  title: z.string(),
  what_it_is: z.string().describe('what the filing is, never worded as an approval, a product warning or a finding of harm'),
  reference: Reference.nullable(),
  entry_id: z.string().optional().describe('permanent id of this regulatory entry (reg_…)'),
  date: z.string().nullable().optional().describe('the date of the filing: YYYY, YYYY-MM or YYYY-MM-DD'),
  documented_caution: z.boolean().optional().describe('true: the authority\'s own published caution (listed in documented_cautions)'),
  note: z.string().optional().describe('what this record is and is not: never an approval, a warning about a product or a finding of harm; a caution is the authority\'s own'),
  corrections: z.array(ContextCorrection).optional().describe('corrections of this entry, oldest first; empty when it reads as first recorded'),
}).meta({ id: 'RegulatoryRecord' });

export const SourceReference = z.strictObject({
  url: z.string(),
  observed_at: date,
  kind: z.string().describe('manufacturer, retailer, regulator, publication'),
  readable: z.boolean().nullable(),
}).meta({ id: 'SourceReference' });

export const Confidence = z.strictObject({
  level: z.enum(['high', 'medium', 'low', 'none']),
  basis: z.string(),
}).meta({ id: 'Confidence' });

export const ObservationWindow = z.strictObject({
  start: date,
  end: date,
  exact_change_date: date.nullable(),
}).meta({ id: 'ObservationWindow' });

export const SignalCorrection = z.strictObject({
  kind: z.enum(['correction', 'withdrawal']),
  recorded_on: date,
  note: z.string(),
  // Every answer that carries a Signal gives both (get_ledger_edition since issue 27): one presenter, the Record store's.
  summary_before: z
    .string()
    .nullable()
    .describe('the summary as it read before this correction (for the first correction: as released and emailed); null when the correction kept the summary'),
  summary_after: z.string().nullable().describe('the summary this correction put in place; null when the correction kept the summary'),
}).meta({ id: 'SignalCorrection' });

/**
 * One side of a Signal. Every form names the history state on that side;
 * explain_signal also gives the state itself, the declared ingredients on
 * this side that differ from the other side (not the whole label), and for
 * price Signals the list-price observations compared.
 */
export const SignalSide = z.strictObject({
  state_id: z.string().nullable().describe('the history state on this side; null for a price Signal recorded without one'),
  state: HistoryState.nullable().optional().describe('explain_signal: the history state itself'),
  declared_ingredients: z.array(VerifiedFact).optional().describe('explain_signal: declared ingredients on this side that differ from the other side'),
  list_prices: z.array(CommercialFact).optional().describe('explain_signal, price Signals: the list-price observations compared'),
}).meta({ id: 'SignalSide' });

export const Signal = z.strictObject({
  signal_id: z.string(),
  product: z.strictObject({ product_id: z.string(), name: z.string(), brand_id: z.string(), brand_name: z.string() }),
  dimension: z.string(),
  category: z.string(),
  summary: z.string(),
  status: z.enum(['released', 'corrected', 'withdrawn']),
  observation_window: ObservationWindow,
  review: z.strictObject({ released_at: date, reviewed: z.literal(true) }),
  signal_url: z.string(),
  before: SignalSide.nullable().optional(),
  after: SignalSide.nullable().optional(),
  evidence: z.array(SourceReference).optional(),
  corrections: z.array(SignalCorrection),
}).meta({ id: 'Signal' });

/**
 * The answer objects are checked against their shapes (answers.ts), but typed
 * as plain records here, so a service builds them from its own row types
 * without index signatures; the answer-object test proves the two agree.
 */
const asRecord = (schema: z.ZodType) => schema as unknown as z.ZodType<Record<string, unknown>>;

const recordState = {
  record_version: z.string().describe('Record data-state id: two answers sharing it came from one committed state. Cache on your side keyed on it.'),
  record_as_of: date.describe('The UTC date of the committed Record state the answer was read from (the day that state was committed).'),
  record_timestamp: dateTime.describe('The newest dated observation the Record holds in that state (capture, price or monitoring check); not the current time.'),
  methodology_version: z.string().describe('The method the answer was produced under; get_record_version reports it.'),
};

export const AnswerEnvelope = z.strictObject({
  request_id: z.string().regex(requestIdPattern),
  capability: z.string(),
  status: z.enum(answerStatuses),
  product: ProductIdentity.nullable().optional(),
  products: z.array(ProductIdentity).optional(),
  candidates: z.array(ProductIdentity).optional(),
  summary: z.string().min(1),
  history: z.array(HistoryState).optional(),
  signals: z.array(Signal).optional(),
  comparison: asRecord(Comparison).optional(),
  coverage: asRecord(Coverage).optional(),
  ledger: asRecord(Ledger).optional(),
  watch: asRecord(Watch).optional(),
  next_cursor: z.string().nullable().optional(),
  verified_facts: z.array(VerifiedFact),
  commercial_facts: z.array(CommercialFact),
  calculations: z.array(Calculation),
  research_context: z.array(ResearchContext),
  regulatory_records: z.array(RegulatoryRecord),
  documented_cautions: z.array(RegulatoryRecord),
  limitations: z.array(z.string()),
  source_references: z.array(SourceReference),
  confidence: Confidence,
  ...recordState,
  disclaimer: z.string().min(1),
});
export type AnswerEnvelope = z.infer<typeof AnswerEnvelope>;

export const ErrorEnvelope = z.strictObject({
  request_id: z.string().regex(requestIdPattern),
  capability: z.string(),
  status: z.literal('refused'),
  error: z.strictObject({
    code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: asRecord(ErrorDetails),
    documentation: z.string(),
  }),
  limitations: z.array(z.string()),
  record_version: z.string(),
  disclaimer: z.string(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export const HealthAnswer = z.strictObject({ status: z.literal('ok'), api_version: z.string() });

/** The data state an answer was read from (one repeatable-read snapshot). */
export interface RecordState {
  record_version: string;
  record_as_of: string;
  record_timestamp: string;
  methodology_version: string;
}

type ArrayFields =
  | 'verified_facts'
  | 'commercial_facts'
  | 'calculations'
  | 'research_context'
  | 'regulatory_records'
  | 'documented_cautions'
  | 'limitations'
  | 'source_references';

export type AnswerInput = Omit<AnswerEnvelope, ArrayFields | keyof RecordState | 'disclaimer' | 'request_id'> &
  Partial<Pick<AnswerEnvelope, ArrayFields>> & { request_id: string; record: RecordState };

/** The envelope's fact arrays, each present and empty (fresh arrays each call): an answer's starting point. */
export function emptyFactArrays(): Pick<AnswerEnvelope, ArrayFields> {
  return {
    verified_facts: [],
    commercial_facts: [],
    calculations: [],
    research_context: [],
    regulatory_records: [],
    documented_cautions: [],
    limitations: [],
    source_references: [],
  };
}

/**
 * The envelope of one capability: its answer objects (coverage, comparison,
 * ledger, watch) in that capability's shape, and none it does not fill.
 * Tests check real answers with it; the OpenAPI document gives each
 * operation these shapes.
 */
export function answerEnvelopeOf(capability: string): typeof AnswerEnvelope {
  return envelopeOf.get(capability) ?? AnswerEnvelope;
}

const undescribed = z.never();
const envelopeOf = new Map(
  Object.entries(answerObjects).map(([name, objects]) => [
    name,
    AnswerEnvelope.extend({
      comparison: (objects.comparison ?? undescribed).optional(),
      coverage: (objects.coverage ?? undescribed).optional(),
      ledger: (objects.ledger ?? undescribed).optional(),
      watch: (objects.watch ?? undescribed).optional(),
    }) as unknown as typeof AnswerEnvelope,
  ]),
);

/**
 * What buildAnswer checks before an answer leaves a service: the envelope,
 * its strict sub-records, and the answer objects as plain objects, as before
 * they had shapes. Their shapes are proven against real answers by the
 * answer-object test rather than enforced here, so a path no test reaches
 * can never turn an answer into a 500 (answers stay what they were).
 */
const plainObject = z.record(z.string(), z.unknown());
const WireEnvelope = AnswerEnvelope.extend({
  comparison: plainObject.optional(),
  coverage: plainObject.optional(),
  ledger: plainObject.optional(),
  watch: plainObject.optional(),
});

export class ContractViolation extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(`answer violates the envelope contract: ${issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    this.name = 'ContractViolation';
  }
}

/**
 * Builds the one answer envelope every capability returns. Fact arrays that
 * a capability does not fill are present and empty; everything else must be
 * given, and the result is validated so that a malformed answer never leaves.
 */
export function buildAnswer(input: AnswerInput): AnswerEnvelope {
  const { record, ...rest } = input;
  const candidate = {
    ...emptyFactArrays(),
    ...rest,
    record_version: record?.record_version,
    record_as_of: record?.record_as_of,
    record_timestamp: record?.record_timestamp,
    methodology_version: record?.methodology_version,
    disclaimer: DISCLAIMER,
  };
  const parsed = WireEnvelope.safeParse(candidate);
  if (!parsed.success) throw new ContractViolation(parsed.error.issues);
  return parsed.data;
}

export function buildRefusal(input: {
  request_id: string;
  capability: string;
  code: ErrorCode;
  message?: string;
  details?: Record<string, unknown>;
  limitations?: string[];
  record_version: string;
}): { status: number; body: ErrorEnvelope } {
  const body: ErrorEnvelope = {
    request_id: input.request_id,
    capability: input.capability,
    status: 'refused',
    error: {
      code: input.code,
      message: input.message ?? defaultMessage(input.code),
      details: input.details ?? {},
      documentation: documentationFor(input.code),
    },
    limitations: input.limitations ?? [],
    record_version: input.record_version,
    disclaimer: DISCLAIMER,
  };
  return { status: statusOf(input.code), body };
}


function defaultMessage(code: ErrorCode): string {
  return errorCatalogue[code].message;
}

/** Turns zod issues into invalid_request details that name the field. */
export function validationDetails(issues: z.core.$ZodIssue[], location: 'body' | 'query' | 'path'): Record<string, unknown> {
  const first = issues[0];
  const field = first && first.path.length > 0 ? first.path.join('.') : first && first.code === 'unrecognized_keys' ? (first as { keys: string[] }).keys.join(',') : location;
  return {
    location,
    field,
    issues: issues.slice(0, 10).map((i) => ({
      field: i.code === 'unrecognized_keys' ? (i as { keys: string[] }).keys.join(',') : i.path.join('.') || location,
      problem: i.code === 'unrecognized_keys' ? 'unknown property' : i.message,
    })),
  };
}
