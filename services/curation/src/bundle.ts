import { z } from 'zod';
import { IngredientId, MAX_DAILY_VALUES, ProductId, declaredOperators, historyStateClasses, priceBases, storedSourceKindNames } from '@evidence-record/contract';

/**
 * A capture bundle: what an operator (or a capture job) read from sources,
 * imported with `admin capture import --file bundle.json`. Strict at every
 * level: an unknown property is a mistake in the bundle, not something to
 * ignore.
 */
const text = (max: number) => z.string().trim().min(1).max(max);

// null: the label names the line without an amount (undisclosed). 0: the label declares zero ("Trans Fat 0 g").
const Amount = z.number().nonnegative().nullable();
const Operator = z.enum(declaredOperators).nullable().default(null);

/** The amount a serving other than the line's own declares: another serving size, or another quantity of it ("2 scoops"). */
export const ServingAmountInput = z
  .strictObject({
    serving_order: z.number().int().min(1).max(20),
    serving_quantity: z.number().positive().nullable().default(null),
    amount: Amount,
    unit: text(40).nullable().default(null),
    operator: Operator,
  })
  .refine((a) => a.amount === null || a.unit !== null, { message: 'an amount needs a unit', path: ['unit'] })
  .refine((a) => a.operator === null || a.amount !== null, { message: 'an operator needs an amount', path: ['operator'] });
const byServing = z
  .array(ServingAmountInput)
  .max(10)
  .default([])
  .refine((l) => new Set(l.map((a) => `${a.serving_order}/${a.serving_quantity}`)).size === l.length, { message: 'one amount per serving' });

export const DeclaredIngredientInput = z
  .strictObject({
    declared_name: text(200),
    ingredient_id: IngredientId.nullable().default(null),
    amount: Amount,
    unit: text(40).nullable().default(null),
    // How the amount is declared when it is not exact ("< 10 mg"); null is '='.
    operator: Operator,
    blend: text(200).nullable().default(null),
    // What the source identifies the line by (DSLD's uniiCode, ingredientGroup and forms): the identity rules read
    // them when the line names no ingredient_id (decision 1500). A placeholder UNII ("0", "1", "") is kept as none.
    unii: z.string().trim().max(40).nullable().default(null),
    ingredient_group: text(200).nullable().default(null),
    forms: z.array(text(200)).max(20).default([]),
    // The label's own words where it gives no amount ("1.25 billion CFU"): evidence, never an amount.
    amount_note: text(300).nullable().default(null),
    amounts_by_serving: byServing,
    // The % Daily Value the label prints beside the line, per target group (decision 2440): evidence, never an
    // amount and never compared. Absent (null): not read.
    daily_values: z
      .array(
        z
          .strictObject({
            percent: z.number().min(0).max(1e6).nullable(),
            operator: z.enum(declaredOperators).optional(),
            target_group: text(120).nullable(),
            note: text(120).optional(),
          })
          .refine((d) => d.percent !== null || d.note !== undefined, { message: 'a percent, or the note printed in its place', path: ['percent'] })
          .refine((d) => d.operator === undefined || d.percent !== null, { message: 'an operator needs a percent', path: ['operator'] }),
      )
      .max(MAX_DAILY_VALUES)
      .nullable()
      .default(null),
  })
  .refine((i) => i.amount === null || i.unit !== null, { message: 'an amount needs a unit', path: ['unit'] })
  .refine((i) => i.operator === null || i.amount !== null, { message: 'an operator needs an amount', path: ['operator'] })
  .refine((i) => i.amount_note === null || i.amount === null, { message: 'a note stands in only for an amount the label does not give', path: ['amount_note'] });

export const BlendInput = z.strictObject({
  name: text(200),
  total_amount: Amount.default(null),
  total_unit: text(40).nullable().default(null),
  totals_by_serving: byServing,
});

/** A serving size the label declares besides the first. */
export const OtherServingInput = z.strictObject({
  serving_order: z.number().int().min(2).max(20),
  size: z.number().positive().nullable().default(null),
  unit: text(40).nullable().default(null),
  description: text(200).nullable().default(null),
  note: text(200).nullable().default(null),
});

export const LabelInput = z
  .strictObject({
    classification: z.enum(historyStateClasses),
    serving: z
      .strictObject({
        size: z.number().positive().nullable().default(null),
        unit: text(40).nullable().default(null),
        servings_per_container: z.number().positive().nullable().default(null),
        description: text(200).nullable().default(null),
      })
      .nullable()
      .default(null),
    other_servings: z.array(OtherServingInput).max(9).default([]),
    // What the label declares the container holds ("60 Caplet(s)"), in the label's order (decision 2410).
    net_contents: z.array(z.strictObject({ quantity: z.number().positive().max(1e9), unit: text(40) })).max(10).default([]),
    blends: z.array(BlendInput).max(20).default([]),
    ingredients: z.array(DeclaredIngredientInput).max(200),
    // The source marks the product off the market (DSLD offMarket).
    off_market: z.boolean().default(false),
    note: text(500).nullable().default(null),
  })
  .refine((l) => l.ingredients.every((i) => i.blend === null || l.blends.some((b) => b.name === i.blend)), {
    message: 'every ingredient blend must name a blend in blends',
    path: ['ingredients'],
  })
  .refine((l) => new Set(l.blends.map((b) => b.name)).size === l.blends.length, { message: 'blend names must be distinct', path: ['blends'] });

export const PriceInput = z.strictObject({
  retailer: text(120),
  price_cents: z.number().int().positive(),
  // Only 'list' is ever called a list price.
  basis: z.enum(priceBases),
  servings_per_container: z.number().positive().nullable().default(null),
});

/**
 * What one label keeps of what it prints beside its Supplement Facts (decision 2420), the monitor's reading and a
 * bundle's alike: its statements and the longest kept, its other ingredients and the forms each lists.
 */
export const MAX_LABEL_STATEMENTS = 40;
export const MAX_STATEMENT_CHARS = 2000;
export const MAX_OTHER_INGREDIENTS = 60;
export const MAX_OTHER_INGREDIENT_FORMS = 40;

export const SourceFacts = z.strictObject({
  dsld_label_id: z.number().int().positive().nullable().default(null),
  product_version_code: text(100).nullable().default(null),
  // The label's own DSLD date (entryDate, else its "Date entered into DSLD" event).
  entry_date: z.iso.date().nullable().default(null),
  events: z.array(z.strictObject({ date: z.iso.date(), type: text(100) })).max(50).default([]),
  off_market: z.boolean().nullable().default(null),
  // DSLD's links to related labels ("Package size difference, same product"): how label versions find their product.
  label_relationships: z.array(z.strictObject({ type: z.string().max(100), label_id: z.number().int().positive() })).max(50).default([]),
  // What the label states beside its Supplement Facts (decision 2420): contains, does not contain, precautions,
  // directions, in DSLD's words and type. Kept with the capture that read them; not part of the state's content.
  statements: z.array(z.strictObject({ type: text(100), text: text(MAX_STATEMENT_CHARS) })).max(MAX_LABEL_STATEMENTS).default([]),
  // Its other ingredients ("Other Ingredients: …"), each as printed with the forms DSLD lists under it ("Contains 2% or
  // less of" → Sucralose, FD&C Blue #1 …). Kept with the capture too; not Supplement Facts lines.
  other_ingredients: z
    .array(z.strictObject({ name: text(200), forms: z.array(text(200)).max(MAX_OTHER_INGREDIENT_FORMS).default([]) }))
    .max(MAX_OTHER_INGREDIENTS)
    .default([]),
});

export const CaptureInput = z
  .strictObject({
    product_id: ProductId,
    source: z.strictObject({
      // Every stored kind (the contract's storedSourceKinds): the ones the source monitor reads too.
      kind: z.enum(storedSourceKindNames),
      url: z.url({ protocol: /^https?$/ }).max(2000),
      retailer: text(120).nullable().default(null),
    }),
    observed_at: z.union([z.iso.datetime({ offset: true }), z.iso.date()]),
    // Where the preserved source bytes are and their hash: operator-side only, never in an answer or an edition.
    preserved: z.strictObject({ path: text(1000), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256') }),
    label: LabelInput.nullable().default(null),
    // What the source itself says about the label it served (DSLD: label id, version code, dated events, off-market flag).
    source_facts: SourceFacts.nullable().default(null),
    prices: z.array(PriceInput).max(20).default([]),
  })
  .refine((c) => c.label !== null || c.prices.length > 0, { message: 'a capture carries a label, prices, or both', path: ['label'] });

export const CaptureBundle = z.strictObject({ captures: z.array(CaptureInput).min(1).max(1000) });

export type CaptureBundle = z.infer<typeof CaptureBundle>;
export type CaptureInput = z.infer<typeof CaptureInput>;
export type LabelInput = z.infer<typeof LabelInput>;
