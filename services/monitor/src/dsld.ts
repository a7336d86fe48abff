import { z } from 'zod';

/**
 * A DSLD label (API v9, `GET {base}/label/{id}`) read into what the Record
 * keeps of it (decision 1007). Only `id` is required by the API; every other
 * field may be missing, so the schema is lenient about what it ignores and
 * strict about what it uses. The trap: an amount the label does not give is
 * `quantity: 0, unit: "NP"`, or an empty quantity list; both are amount null
 * (undisclosed), never zero.
 */
const Quantity = z.looseObject({
  servingSizeOrder: z.number().optional(),
  operator: z.string().optional(),
  quantity: z.number().nullable().optional(),
  unit: z.string().nullable().optional(),
});
const Row = z.looseObject({
  order: z.number().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  category: z.string().nullable().optional(),
  ingredientGroup: z.string().nullable().optional(),
  quantity: z.array(Quantity).optional(),
  get nestedRows() {
    return z.array(Row).optional();
  },
});
type Row = z.infer<typeof Row>;
export const DsldLabel = z.looseObject({
  id: z.number().int().positive(),
  fullName: z.string().optional(),
  brandName: z.string().optional(),
  productVersionCode: z.string().nullable().optional(),
  servingsPerContainer: z.union([z.string(), z.number()]).nullable().optional(),
  servingSizes: z
    .array(z.looseObject({ order: z.number().optional(), minQuantity: z.number().nullable().optional(), maxQuantity: z.number().nullable().optional(), unit: z.string().nullable().optional() }))
    .optional(),
  ingredientRows: z.array(Row).optional(),
  events: z.array(z.looseObject({ date: z.string().nullable().optional(), type: z.string().nullable().optional() })).optional(),
  offMarket: z.number().nullable().optional(),
  labelRelationships: z.array(z.looseObject({ type: z.string().optional(), labelId: z.number().optional() })).optional(),
});
export type DsldLabel = z.infer<typeof DsldLabel>;

export interface DeclaredLine {
  declared_name: string;
  amount: number | null;
  unit: string | null;
  /** '=' is stored as null; '<', '>' and the like are kept. */
  operator: string | null;
  blend: string | null;
}

export interface DsldReading {
  label_id: number;
  brand: string | null;
  name: string | null;
  serving: { size: number | null; unit: string | null; servings_per_container: number | null; description: string | null };
  blends: Array<{ name: string; total_amount: number | null; total_unit: string | null }>;
  ingredients: DeclaredLine[];
  facts: { dsld_label_id: number; product_version_code: string | null; events: Array<{ date: string; type: string }>; off_market: boolean | null };
}

export type DsldParse = { ok: true; reading: DsldReading } | { ok: false; outcome: 'empty' | 'unreadable'; reason: string };

const text = (v: string | null | undefined, max = 200): string | null => {
  const t = (v ?? '').replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : null;
};

/** The amount for the first serving size: null when not provided (NP, 0, or no quantity at all). */
export function amountOf(quantities: Row['quantity']): { amount: number | null; unit: string | null; operator: string | null } {
  const list = quantities ?? [];
  const q = list.find((x) => (x.servingSizeOrder ?? 1) === 1) ?? list[0];
  if (!q) return { amount: null, unit: null, operator: null };
  const unit = text(q.unit, 20);
  if (unit === null || unit.toUpperCase() === 'NP' || typeof q.quantity !== 'number' || !(q.quantity > 0)) return { amount: null, unit: null, operator: null };
  const op = text(q.operator, 4);
  return { amount: q.quantity, unit, operator: op === null || op === '=' ? null : op };
}

const isBlend = (row: Row) => /blend/i.test(row.category ?? '') || /blend|proprietary|matrix/i.test(row.name ?? row.description ?? '');

export function parseDsldLabel(body: string): DsldParse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, outcome: 'unreadable', reason: 'malformed JSON' };
  }
  const parsed = DsldLabel.safeParse(json);
  if (!parsed.success) return { ok: false, outcome: 'unreadable', reason: `not a DSLD label: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim() };
  const label = parsed.data;
  const rows = [...(label.ingredientRows ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  if (rows.length === 0) return { ok: false, outcome: 'empty', reason: 'the label has no ingredient rows' };

  const blends: DsldReading['blends'] = [];
  const ingredients: DeclaredLine[] = [];
  const blendNames = new Set<string>();
  for (const row of rows) {
    const name = text(row.name ?? row.description);
    if (!name) continue;
    const nested = [...(row.nestedRows ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    const q = amountOf(row.quantity);
    if (nested.length > 0 && isBlend(row)) {
      // A proprietary blend: its declared total, and its members (null amounts where undisclosed).
      let blendName = name;
      for (let n = 2; blendNames.has(blendName); n++) blendName = `${name} (${n})`;
      blendNames.add(blendName);
      blends.push({ name: blendName, total_amount: q.amount, total_unit: q.amount === null ? null : q.unit });
      for (const member of nested) {
        const memberName = text(member.name ?? member.description);
        if (memberName) ingredients.push({ declared_name: memberName, ...amountOf(member.quantity), blend: blendName });
      }
      continue;
    }
    ingredients.push({ declared_name: name, ...q, blend: null });
    // Rows nested under a plain ingredient (a source compound) are declared ingredients too, never dropped.
    for (const member of nested) {
      const memberName = text(member.name ?? member.description);
      if (memberName) ingredients.push({ declared_name: memberName, ...amountOf(member.quantity), blend: null });
    }
  }
  if (ingredients.length === 0) return { ok: false, outcome: 'empty', reason: 'the label has no named ingredient rows' };

  const size = [...(label.servingSizes ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0))[0];
  const min = size?.minQuantity ?? null;
  const max = size?.maxQuantity ?? min;
  const unit = text(size?.unit, 20);
  const spc = Number(typeof label.servingsPerContainer === 'string' ? label.servingsPerContainer.replace(/[^0-9.]/g, '') : label.servingsPerContainer);
  const serving = {
    size: max !== null && max > 0 && (min === null || min === max) ? max : null,
    unit: max !== null && max > 0 ? unit : null,
    servings_per_container: Number.isFinite(spc) && spc > 0 ? spc : null,
    description: min !== null && max !== null && min !== max ? `${min}-${max} ${unit ?? ''}`.trim() : null,
  };
  const events = (label.events ?? [])
    .map((e) => ({ date: (e.date ?? '').slice(0, 10), type: text(e.type, 100) ?? '' }))
    .filter((e) => /^\d{4}-\d{2}-\d{2}$/.test(e.date) && e.type)
    .slice(0, 50);
  return {
    ok: true,
    reading: {
      label_id: label.id,
      brand: text(label.brandName, 120),
      name: text(label.fullName),
      serving,
      blends,
      ingredients: ingredients.slice(0, 200),
      facts: {
        dsld_label_id: label.id,
        product_version_code: text(label.productVersionCode, 100),
        events,
        off_market: typeof label.offMarket === 'number' ? label.offMarket === 1 : null,
      },
    },
  };
}
