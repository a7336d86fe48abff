/**
 * DSLD-shaped labels for fictional products, in the API v9 shape (field names
 * as in knorby/nih-dsld-client's Label model; read against a trimmed real
 * label). Only what tests and the demo need is varied.
 */
export interface LabelOptions {
  id: number;
  brand: string;
  name: string;
  caffeineMg?: number | null;
  betaAlanineG?: number;
  /** A proprietary blend whose members are undisclosed (NP). */
  blend?: { name: string; totalMg: number; members: string[] } | null;
  /** An ingredient with an empty quantity list. */
  emptyQuantity?: string | null;
  servingsPerContainer?: number;
  scoopG?: number;
  offMarket?: boolean;
  productVersionCode?: string;
  events?: Array<{ date: string; type: string }>;
}

const q = (quantity: number, unit: string) => [{ servingSizeOrder: 1, operator: '=', quantity, unit, dailyValueTargetGroup: [] }];

export function dsldLabel(o: LabelOptions): Record<string, unknown> {
  const rows: Array<Record<string, unknown>> = [];
  let order = 1;
  rows.push({ order: order++, name: 'Beta-Alanine', category: 'amino acid', ingredientGroup: 'Beta-Alanine', quantity: q((o.betaAlanineG ?? 3.2) * 1000, 'mg'), forms: [], nestedRows: [] });
  if (o.caffeineMg !== undefined) {
    rows.push({
      order: order++,
      name: 'Caffeine Anhydrous',
      category: 'non-nutrient/non-botanical',
      ingredientGroup: 'Caffeine',
      // null: named, amount not provided (DSLD writes 0 "NP").
      quantity: o.caffeineMg === null ? [{ servingSizeOrder: 1, operator: '=', quantity: 0, unit: 'NP' }] : q(o.caffeineMg, 'mg'),
      forms: [],
      nestedRows: [],
    });
  }
  if (o.blend) {
    rows.push({
      order: order++,
      name: o.blend.name,
      category: 'blend',
      ingredientGroup: 'Proprietary Blend (Combination)',
      quantity: q(o.blend.totalMg, 'mg'),
      forms: [],
      nestedRows: o.blend.members.map((m, i) => ({ order: i + 1, name: m, quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 0, unit: 'NP' }], forms: [], nestedRows: [] })),
    });
  }
  if (o.emptyQuantity) rows.push({ order: order++, name: o.emptyQuantity, category: 'botanical', quantity: [], notes: 'amount given only in a note', forms: [], nestedRows: [] });
  return {
    id: o.id,
    fullName: `${o.brand} ${o.name}`,
    brandName: o.brand,
    upcSku: `0 00000 ${String(o.id).padStart(5, '0')} 0`,
    productVersionCode: o.productVersionCode ?? '1',
    servingsPerContainer: String(o.servingsPerContainer ?? 30),
    servingSizes: [{ order: 1, minQuantity: 1, maxQuantity: 1, unit: 'Scoop(s)', inSFB: true }],
    netContents: [{ order: 1, quantity: (o.scoopG ?? 10) * (o.servingsPerContainer ?? 30), unit: 'Gram(s)', display: `${(o.scoopG ?? 10) * (o.servingsPerContainer ?? 30)} Gram(s)` }],
    physicalState: { langualCode: 'E0162', langualCodeDescription: 'Powder' },
    productType: { langualCode: 'A1305', langualCodeDescription: 'Amino acid/Protein' },
    events: o.events ?? [{ date: '2026-01-15', type: 'Date entered into DSLD' }],
    labelRelationships: [],
    ingredientRows: rows,
    otheringredients: { text: 'Citric Acid, Natural Flavors', ingredients: [{ order: 1, name: 'Citric Acid' }, { order: 2, name: 'Natural Flavors' }] },
    // Statement types and wording as DSLD files real pre-workout labels' (219842, 14168); the Record keeps the first two and a caffeine precaution, not the claim (decision 2420).
    statements: [
      { type: 'Suggested/Recommended/Usage/Directions', notes: 'Directions: Mix one scoop in 10 fl. oz. of cold water and consume 20 minutes before training.' },
      { type: 'Precautions re: Children', notes: 'Keep out of reach of children.' },
      ...(typeof o.caffeineMg === 'number' ? [{ type: 'Precautions re: All Other', notes: `One serving supplies ${o.caffeineMg} mg of caffeine. Do not exceed one serving daily.` }] : []),
      { type: 'General Statements: All Other Content', notes: 'Fuel every rep.' },
    ],
    offMarket: o.offMarket ? 1 : 0,
    entryDate: '2026-01-15',
  };
}
