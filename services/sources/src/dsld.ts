import { z } from 'zod';
import { MAX_DAILY_VALUES, type DailyValue, type NetContent } from '@evidence-record/contract';
import { MAX_LABEL_STATEMENTS, MAX_OTHER_INGREDIENTS, MAX_OTHER_INGREDIENT_FORMS, MAX_STATEMENT_CHARS, type OtherServing } from '@evidence-record/curation';

/**
 * A DSLD label (API v9, `GET {base}/label/{id}`) read into what the Record
 * keeps of it (decision 1007). Only `id` is required by the API and real
 * labels carry null in most fields, so every field the Record reads may be
 * null or absent, and a field it does not read is never looked at (the
 * schemas are loose). A field it reads in a shape it cannot read makes the
 * label unreadable, with a reason naming the field.
 *
 * The amount rule (decision 1007): `quantity 0` with a real unit is a
 * declared amount of zero ("Trans Fat 0 Gram(s)"); `unit "NP"` (not
 * provided), an empty quantity list, a missing quantity or a missing unit is
 * amount null (undisclosed), never zero.
 */
const text = z.string().nullish();
const num = z.number().nullish();
const Quantity = z.looseObject({ servingSizeOrder: num, servingSizeQuantity: num, operator: text, quantity: num, unit: text });
// A form's other fields were never read before blends listed as forms were (blendMembersOf): only strings are taken
// from them, so a form in a shape the Record does not expect leaves a field out rather than refusing the label.
const anything = z.unknown().optional();
const Form = z.looseObject({ name: text, order: anything, category: anything, ingredientGroup: anything, uniiCode: anything });
type Form = z.infer<typeof Form>;
const Row = z.looseObject({
  order: num,
  name: text,
  description: text,
  notes: text,
  category: text,
  ingredientGroup: text,
  uniiCode: text,
  forms: z.array(Form).nullish(),
  quantity: z.array(Quantity).nullish(),
  get nestedRows() {
    return z.array(Row).nullish();
  },
});
type Row = z.infer<typeof Row>;
type Quantity = z.infer<typeof Quantity>;
export const DsldLabel = z.looseObject({
  id: z.number().int().positive(),
  fullName: text,
  brandName: text,
  productVersionCode: text,
  servingsPerContainer: z.union([z.string(), z.number()]).nullish(),
  servingSizes: z.array(z.looseObject({ order: num, minQuantity: num, maxQuantity: num, unit: text, notes: text })).nullish(),
  ingredientRows: z.array(Row).nullish(),
  events: z.array(z.looseObject({ date: text, type: text })).nullish(),
  entryDate: text,
  offMarket: z.union([z.number(), z.boolean()]).nullish(),
  labelRelationships: z.array(z.looseObject({ type: text, labelId: num })).nullish(),
  // Read entry by entry and never refused (netContentsOf): labels were read without it before.
  netContents: z.unknown().optional(),
  // The same (statementsOf, otherIngredientsOf): read since decision 2420, never a reason to refuse a label.
  statements: z.unknown().optional(),
  otheringredients: z.unknown().optional(),
});
export type DsldLabel = z.infer<typeof DsldLabel>;

/** An amount as declared for one serving size: null when the label gives none (never zero for undisclosed). */
export interface DeclaredAmount {
  amount: number | null;
  unit: string | null;
  /** '=' is stored as null; '<', '>' and the like are kept. */
  operator: string | null;
}

/**
 * An amount the label declares for a serving other than the one the line's own amount is for: another serving
 * size (`serving_order`), or another quantity of the same one (DSLD lists "1, 2 or 3 scoops" as one serving size
 * with an amount per quantity, `serving_quantity` in the serving's unit).
 */
export interface ServingAmount extends DeclaredAmount {
  serving_order: number;
  serving_quantity: number | null;
}

export interface DeclaredLine extends DeclaredAmount {
  /** Exactly as printed (whitespace collapsed). */
  declared_name: string;
  blend: string | null;
  /** The row's note when the label gives no amount of its own ("1.25 billion CFU"): kept as the label's words, never read as an amount. */
  amount_note: string | null;
  amounts_by_serving: ServingAmount[];
  /** What identity resolution reads besides the name: the row's FDA UNII (placeholders "0", "1", "" are null), its DSLD ingredient group and the names of its forms. */
  unii: string | null;
  ingredient_group: string | null;
  forms: string[];
  /** What the label prints as the line's % Daily Value for its own serving, per target group (decision 2440). */
  daily_values: DailyValue[];
}

export interface DeclaredBlend {
  name: string;
  total_amount: number | null;
  total_unit: string | null;
  totals_by_serving: ServingAmount[];
}


/**
 * A statement the label prints beside its Supplement Facts, in DSLD's words and under DSLD's type (decision 2420):
 * what it contains ("Each serving supplies 200 mg of caffeine."), does not contain, its precautions and its
 * directions. Line breaks are the label's; spaces within a line are collapsed.
 */
export interface LabelStatement {
  type: string;
  text: string;
}

/** An entry of the label's other ingredients, as printed, with the forms DSLD lists under it (decision 2420). */
export interface OtherIngredient {
  name: string;
  forms: string[];
}

export interface DsldReading {
  label_id: number;
  brand: string | null;
  name: string | null;
  serving: { size: number | null; unit: string | null; servings_per_container: number | null; description: string | null };
  other_servings: OtherServing[];
  /** What the label declares the container holds, in its order ("60 Caplet(s)", "520 g"). */
  net_contents: NetContent[];
  blends: DeclaredBlend[];
  ingredients: DeclaredLine[];
  facts: {
    dsld_label_id: number;
    product_version_code: string | null;
    /** The label's own date: `entryDate`, else its "Date entered into DSLD" event, else its earliest dated event. */
    entry_date: string | null;
    events: Array<{ date: string; type: string }>;
    off_market: boolean | null;
    label_relationships: Array<{ type: string; label_id: number }>;
    statements: LabelStatement[];
    other_ingredients: OtherIngredient[];
  };
}

export type DsldParse = { ok: true; reading: DsldReading } | { ok: false; outcome: 'empty' | 'unreadable'; reason: string };

/** The most blends and declared lines one reading holds (the capture bundle's limits). */
export const MAX_BLENDS = 20;
export const MAX_LINES = 200;

class Unreadable extends Error {}

const clean = (v: string | null | undefined, max = 200): string | null => {
  const t = (v ?? '').replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : null;
};

// Fields the Record began reading late (net contents, a blend's forms, statements, other ingredients) are read entry
// by entry with these, so an entry in a shape it does not expect is left out rather than refusing a readable label.
const stringOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** The objects of a list DSLD gives; anything else in it is left out, and what is not a list has none. */
const objectsIn = (raw: unknown): Array<Record<string, unknown>> =>
  Array.isArray(raw) ? (raw as unknown[]).filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null) : [];
/** DSLD's `order` of an entry; absent or not a number, 0. */
const orderOf = (v: unknown): number => {
  const order = typeof v === 'object' && v !== null ? (v as { order?: unknown }).order : null;
  return typeof order === 'number' && Number.isFinite(order) ? order : 0;
};
/** Entries in DSLD's `order`, ties in the list's order (a stable sort), each with its index in the list for a refusal's path. */
const inOrder = <T>(items: readonly T[] | null | undefined): Array<{ item: T; i: number }> =>
  (items ?? []).map((item, i) => ({ item, i })).sort((a, b) => orderOf(a.item) - orderOf(b.item));

/**
 * DSLD writes units in long form; the Record keeps the unit the label prints
 * ("Gram(s)" is "g" on the label). Only these names are rewritten; every
 * other unit (IU, mcg RAE, CFU, Scoop(s) …) is kept as DSLD gives it.
 */
const unitNames: Record<string, string> = {
  'gram(s)': 'g',
  'milligram(s)': 'mg',
  'microgram(s)': 'mcg',
  'calorie(s)': 'Calories',
  'kilocalorie(s)': 'kcal',
};
export function normalizeUnit(unit: string | null | undefined): string | null {
  // DSLD writes a unit it has no code for in braces ("{Calories}").
  const u = clean(clean(unit, 40)?.replace(/^\{(.+)\}$/, '$1'), 40);
  return u === null ? null : (unitNames[u.toLowerCase()] ?? u);
}

/**
 * `netContents[]` as the Record keeps it: each entry with a positive quantity
 * and a unit, at most ten, in the label's order. The field was never read
 * before (decision 2410), so an entry in a shape it cannot read is left out,
 * never a reason to refuse a label that was readable without it.
 */
export function netContentsOf(raw: unknown): NetContent[] {
  const out: NetContent[] = [];
  for (const { quantity, unit } of objectsIn(raw)) {
    const u = typeof unit === 'string' ? normalizeUnit(unit) : null;
    if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0 || quantity > 1e9 || u === null) continue;
    out.push({ quantity, unit: u });
    if (out.length === 10) break;
  }
  return out;
}

/**
 * The statement types the Record keeps (decision 2420): what the label says the product contains or does not, its
 * precautions and its directions. Marketing copy, structure/function claims, trademarks, storage, seals and the
 * FDA's own wording are left out: the Record does not repeat a claim.
 */
const keptStatement = /^(Formula re: Contains|Formulation re: Does NOT Contain|Precautions re: .+|Suggested\/Recommended\/Usage\/Directions)$/;

/**
 * `statements[]` as the Record keeps them: the kept types, in the label's order, at most 40. The field was never
 * read before, so an entry in a shape it cannot read is left out, never a reason to refuse a readable label; a
 * statement longer than 2,000 characters is left out whole rather than cut, so what is kept is always the label's
 * whole sentence.
 */
export function statementsOf(raw: unknown): LabelStatement[] {
  const out: LabelStatement[] = [];
  for (const { type, notes } of objectsIn(raw)) {
    const kind = clean(stringOf(type), 100);
    if (kind === null || !keptStatement.test(kind) || typeof notes !== 'string') continue;
    const text = notes
      .split(/\r?\n/)
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter((line) => line !== '')
      .join('\n');
    if (text === '' || text.length > MAX_STATEMENT_CHARS) continue;
    out.push({ type: kind, text });
    if (out.length === MAX_LABEL_STATEMENTS) break;
  }
  return out;
}

/**
 * `otheringredients.ingredients[]` as the Record keeps them (decision 2420): each entry's name as printed, in the
 * label's order, with the names of the forms DSLD lists under it (a "Contains 2% or less of" entry lists the
 * sweeteners and colors; a "Gum Blend" its gums), at most 60 entries of 40 forms. Not Supplement Facts lines: no
 * amounts, and a blend here is not a second blend (decision 1007). Never read before, so an entry in a shape the
 * Record cannot read is left out, never a reason to refuse a label.
 */
export function otherIngredientsOf(raw: unknown): OtherIngredient[] {
  const list = typeof raw === 'object' && raw !== null ? (raw as { ingredients?: unknown }).ingredients : null;
  const out: OtherIngredient[] = [];
  for (const { item: entry } of inOrder(objectsIn(list))) {
    const name = clean(stringOf(entry.name));
    if (name === null) continue;
    const forms = inOrder(objectsIn(entry.forms))
      .map(({ item: f }) => clean(stringOf(f.name)))
      .filter((f): f is string => f !== null)
      .slice(0, MAX_OTHER_INGREDIENT_FORMS);
    out.push({ name, forms });
    if (out.length === MAX_OTHER_INGREDIENTS) break;
  }
  return out;
}

const operators: Record<string, string | null> = { '=': null, '<': '<', '>': '>', '<=': '<=', '>=': '>=', '≤': '<=', '≥': '>=', '~': '~' };

/**
 * A quantity entry's `dailyValueTargetGroup[]` as the label prints it (decision 2440): each group's percent ("833%",
 * "<1%") or its footnote in its place ("Daily Value not established"). Never read before, so an entry in a shape the
 * Record cannot read (no percent and no footnote, a percent that is not a number, an operator it does not know) is
 * left out, never a reason to refuse a label. At most four.
 */
export function dailyValuesOf(quantity: unknown): DailyValue[] {
  const groups = typeof quantity === 'object' && quantity !== null ? (quantity as { dailyValueTargetGroup?: unknown }).dailyValueTargetGroup : null;
  const out: DailyValue[] = [];
  for (const g of objectsIn(groups)) {
    const percent = typeof g.percent === 'number' && Number.isFinite(g.percent) && g.percent >= 0 && g.percent <= 1e6 ? g.percent : null;
    const note = clean(stringOf(g.footnote), 120);
    const op = clean(stringOf(g.operator), 4);
    const operator = op === null ? null : operators[op];
    if ((percent === null && note === null) || operator === undefined) continue;
    out.push({ percent, ...(percent !== null && operator ? { operator: operator as DailyValue['operator'] } : {}), target_group: clean(stringOf(g.name), 120), ...(note ? { note } : {}) });
    if (out.length === MAX_DAILY_VALUES) break;
  }
  return out;
}

/** A placeholder DSLD writes where a row has no UNII. */
const uniiOf = (v: string | null | undefined): string | null => {
  const u = clean(v, 20);
  return u === null || u === '0' || u === '1' ? null : u;
};

/** One quantity entry as a declared amount (the amount rule above). `at` names the field for a refusal. */
function amountIn(q: Quantity | undefined, at: string): DeclaredAmount {
  if (!q) return { amount: null, unit: null, operator: null };
  const unit = normalizeUnit(q.unit);
  if (unit === null || unit.toUpperCase() === 'NP' || typeof q.quantity !== 'number') return { amount: null, unit: null, operator: null };
  if (!Number.isFinite(q.quantity) || q.quantity < 0) throw new Unreadable(`${at}.quantity is ${q.quantity}, not an amount`);
  const op = clean(q.operator, 4);
  const operator = op === null ? null : operators[op];
  if (operator === undefined) throw new Unreadable(`${at}.operator "${op}" is not an operator the Record reads`);
  return { amount: q.quantity, unit, operator };
}

interface Entry {
  q: Quantity;
  i: number;
  order: number;
  size: number | null;
}

/** A row's quantity entries, the line's own first: the first serving size's, at its smallest quantity. */
function entriesOf(quantities: Quantity[] | null | undefined, primary: number): Entry[] {
  const rank = (e: Entry) => [e.order === primary ? 0 : 1, e.order, e.size ?? Number.MAX_VALUE, e.i];
  return (quantities ?? [])
    .map((q, i) => ({ q, i, order: q.servingSizeOrder ?? primary, size: typeof q.servingSizeQuantity === 'number' ? q.servingSizeQuantity : null }))
    .sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
      return 0;
    });
}

/** The line's own amount: the first serving size's (order `primary`), at its smallest quantity; else the first entry. */
export function amountOf(quantities: Quantity[] | null | undefined, primary = 1, at = 'quantity'): DeclaredAmount {
  const [own] = entriesOf(quantities, primary);
  return amountIn(own?.q, `${at}.${own?.i ?? 0}`);
}

/** The amounts the row declares for every other serving (size or quantity), in serving order, once each. */
function otherAmounts(quantities: Quantity[] | null | undefined, primary: number, at: string): ServingAmount[] {
  const seen = new Set<string>();
  const out: ServingAmount[] = [];
  entriesOf(quantities, primary).forEach((e, n) => {
    const key = `${e.order}/${e.size}`;
    if (n === 0 || seen.has(key) || key === `${primary}/${entriesOf(quantities, primary)[0]!.size}`) return;
    seen.add(key);
    out.push({ serving_order: e.order, serving_quantity: e.size, ...amountIn(e.q, `${at}.${e.i}`) });
  });
  return out;
}

/**
 * A blend by DSLD's own category, its ingredient group, or (where DSLD gives no category) its name. A row DSLD files
 * under the group "Header" with rows nested under it is one too (decision 1450): a heading printing the total of the
 * rows under it ("2:1:1 BCAA 1,000 mg" over leucine, isoleucine, valine), which other labels file as a blend.
 */
const isBlend = (row: Pick<Row, 'category' | 'ingredientGroup' | 'name' | 'description' | 'nestedRows'>) =>
  (row.category ?? '').toLowerCase() === 'blend' ||
  /^(proprietary )?blend\b/i.test(row.ingredientGroup ?? '') ||
  (/^header$/i.test((row.ingredientGroup ?? '').trim()) && (row.nestedRows ?? []).length > 0) ||
  (!row.category && /blend|proprietary|matrix/i.test(row.name ?? row.description ?? ''));


/** An ISO date from DSLD's date strings ("2017-10-21", "2017-10-21T00:00:00Z"), else null. */
const isoDay = (v: string | null | undefined): string | null => {
  const d = (v ?? '').slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(d)) ? d : null;
};

export function parseDsldLabel(body: string): DsldParse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, outcome: 'unreadable', reason: 'malformed JSON' };
  }
  const parsed = DsldLabel.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, outcome: 'unreadable', reason: `not a DSLD label: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim() };
  }
  try {
    return readLabel(parsed.data);
  } catch (err) {
    if (err instanceof Unreadable) return { ok: false, outcome: 'unreadable', reason: `not a DSLD label the Record can read: ${err.message}` };
    throw err;
  }
}

function readLabel(label: DsldLabel): DsldParse {
  const sizes = [...(label.servingSizes ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const primary = sizes[0]?.order ?? 1;
  const blends: DeclaredBlend[] = [];
  const ingredients: DeclaredLine[] = [];

  const newBlend = (name: string, quantity: Quantity[] | null | undefined, at: string): string => {
    let blendName = name;
    for (let n = 2; blends.some((b) => b.name === blendName); n++) blendName = `${name} (${n})`;
    const total = amountOf(quantity, primary, `${at}.quantity`);
    blends.push({
      name: blendName,
      total_amount: total.amount,
      total_unit: total.amount === null ? null : total.unit,
      totals_by_serving: otherAmounts(quantity, primary, `${at}.quantity`),
    });
    return blendName;
  };

  // A blend without nested rows that lists forms: how DSLD files many older labels' blends ("Muscle Buffering
  // System 3.2 g: Astaxanthin, CarnoSyn"), the same members another flavor's label gives as nested rows. Each form is
  // a member the label names without an amount (undisclosed, never zero), identified by its own UNII and group; a
  // form filed as a blend ("Caffeine Blend") is a blend of its own whose total and members the label does not give.
  const blendMembersOf = (forms: Form[], blend: string, at: string) => {
    for (const { item: f, i } of inOrder(forms)) {
      const name = clean(f.name);
      if (name === null) continue;
      if (isBlend({ category: stringOf(f.category), ingredientGroup: stringOf(f.ingredientGroup), name })) {
        newBlend(name, null, `${at}.${i}`);
        continue;
      }
      ingredients.push({
        declared_name: name,
        amount: null,
        unit: null,
        operator: null,
        blend,
        amount_note: null,
        amounts_by_serving: [],
        unii: uniiOf(stringOf(f.uniiCode)),
        ingredient_group: clean(stringOf(f.ingredientGroup)),
        forms: [],
        daily_values: [],
      });
    }
  };

  // Rows in label order, nested rows after their parent at any depth: a blend's rows are its members (a blend
  // inside a blend is a blend of its own); rows under a plain row (Total Fat → Saturated Fat) are declared lines too.
  const walk = (rows: Row[] | null | undefined, at: string, blend: string | null, depth: number) => {
    if (depth > 6) throw new Unreadable(`${at} nests rows more than six deep`);
    for (const { item: row, i } of inOrder(rows)) {
      const here = `${at}.${i}`;
      const name = clean(row.name) ?? clean(row.description);
      if (name === null) throw new Unreadable(`${here}.name is missing`);
      if (isBlend(row)) {
        const blend = newBlend(name, row.quantity, here);
        if ((row.nestedRows ?? []).length > 0) walk(row.nestedRows, `${here}.nestedRows`, blend, depth + 1);
        else blendMembersOf(row.forms ?? [], blend, `${here}.forms`);
        continue;
      }
      const own = amountOf(row.quantity, primary, `${here}.quantity`);
      ingredients.push({
        declared_name: name,
        ...own,
        blend,
        amount_note: own.amount === null ? clean(row.notes, 300) : null,
        amounts_by_serving: otherAmounts(row.quantity, primary, `${here}.quantity`),
        unii: uniiOf(row.uniiCode),
        ingredient_group: clean(row.ingredientGroup),
        forms: (row.forms ?? []).map((f) => clean(f.name)).filter((f): f is string => f !== null),
        daily_values: dailyValuesOf(entriesOf(row.quantity, primary)[0]?.q),
      });
      walk(row.nestedRows, `${here}.nestedRows`, blend, depth + 1);
    }
  };
  walk(label.ingredientRows, 'ingredientRows', null, 0);

  if (blends.length === 0 && ingredients.length === 0) return { ok: false, outcome: 'empty', reason: 'the label has no ingredient rows' };
  if (blends.length > MAX_BLENDS) throw new Unreadable(`ingredientRows declare ${blends.length} blends; the Record reads at most ${MAX_BLENDS}`);
  if (ingredients.length > MAX_LINES) throw new Unreadable(`ingredientRows declare ${ingredients.length} lines; the Record reads at most ${MAX_LINES}`);

  const servingOf = (s: (typeof sizes)[number] | undefined) => {
    const min = s?.minQuantity ?? null;
    const max = s?.maxQuantity ?? min;
    const unit = clean(s?.unit, 40);
    return {
      size: max !== null && max > 0 && (min === null || min === max) ? max : null,
      unit: max !== null && max > 0 ? unit : null,
      description: min !== null && max !== null && min !== max ? `${min}-${max} ${unit ?? ''}`.trim() : null,
    };
  };
  // "30" is a count; "Not Reported", "about 30" or "30-60" is not one.
  const spcText = String(label.servingsPerContainer ?? '').trim();
  const spc = /^\d+(\.\d+)?$/.test(spcText) ? Number(spcText) : null;
  const events = (label.events ?? [])
    .map((e) => ({ date: isoDay(e.date), type: clean(e.type, 100) }))
    .filter((e): e is { date: string; type: string } => e.date !== null && e.type !== null)
    .slice(0, 50);
  const entered = events.filter((e) => /entered into dsld/i.test(e.type)).map((e) => e.date).sort()[0];
  const offMarketEvent = events.some((e) => /off market/i.test(e.type));
  const offMarket = label.offMarket === 1 || label.offMarket === true || offMarketEvent ? true : label.offMarket === 0 || label.offMarket === false ? false : null;
  return {
    ok: true,
    reading: {
      label_id: label.id,
      brand: clean(label.brandName, 120),
      name: clean(label.fullName),
      serving: { ...servingOf(sizes[0]), servings_per_container: spc !== null && spc > 0 ? spc : null },
      net_contents: netContentsOf(label.netContents),
      other_servings: sizes.slice(1, 10).map((s, i) => ({ serving_order: s.order ?? i + 2, ...servingOf(s), note: clean(s.notes, 200) })),
      blends,
      ingredients,
      facts: {
        dsld_label_id: label.id,
        product_version_code: clean(label.productVersionCode, 100),
        entry_date: isoDay(label.entryDate) ?? entered ?? events.map((e) => e.date).sort()[0] ?? null,
        events,
        off_market: offMarket,
        label_relationships: (label.labelRelationships ?? [])
          .filter((r): r is typeof r & { labelId: number } => typeof r.labelId === 'number' && Number.isInteger(r.labelId) && r.labelId > 0)
          .map((r) => ({ type: clean(r.type, 100) ?? '', label_id: r.labelId }))
          .slice(0, 50),
        statements: statementsOf(label.statements),
        other_ingredients: otherIngredientsOf(label.otheringredients),
      },
    },
  };
}
