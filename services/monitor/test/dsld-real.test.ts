import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deriveServings } from '@evidence-record/contract';
import { parseDsldLabel, type DsldReading } from '@evidence-record/sources';

/**
 * Every real DSLD label record in fixtures/dsld-real (unedited, each with its
 * provenance beside it) is read, and what the Record keeps of the cases real
 * labels raise is checked against the record itself.
 */
const dir = fileURLToPath(new URL('./fixtures/dsld-real/', import.meta.url));
const labels = readdirSync(dir).filter((f) => /^\d+\.json$/.test(f));
const read = (id: number): DsldReading => {
  const p = parseDsldLabel(readFileSync(`${dir}${id}.json`, 'utf8'));
  if (!p.ok) throw new Error(`label ${id}: ${p.reason}`);
  return p.reading;
};
const line = (r: DsldReading, name: string) => r.ingredients.find((i) => i.declared_name === name)!;

describe('real DSLD labels', () => {
  it('every real label in the folder parses, and each names its source', () => {
    // 60 gathered (docs/monitor.md "Real labels"): every one must parse.
    expect(labels.length).toBeGreaterThanOrEqual(60);
    for (const file of labels) {
      const id = Number(file.replace('.json', ''));
      const sidecar = readFileSync(`${dir}${id}.source.md`, 'utf8');
      // Provenance: the repository and the commit the bytes were taken from.
      expect(sidecar, `${id}.source.md`).toMatch(/github\.com\/[^/\s]+\/[^/\s)]+/);
      expect(sidecar, `${id}.source.md`).toMatch(/\b[0-9a-f]{40}\b/);
      const p = parseDsldLabel(readFileSync(`${dir}${file}`, 'utf8'));
      expect(p, file).toMatchObject({ ok: true, reading: { label_id: id } });
      if (p.ok) expect(p.reading.ingredients.length + p.reading.blends.length, file).toBeGreaterThan(0);
    }
  });

  it('accepts null where a label has none (a row description, servings per container) and reads the row by its name', () => {
    // 49495: description null on every row, servingsPerContainer null; 12196: description null on some rows.
    const multi = read(49495);
    expect(multi.serving).toEqual({ size: 1, unit: 'Tablet(s)', description: null, servings_per_container: null });
    expect(line(multi, 'Vitamin A')).toMatchObject({ amount: 2500, unit: 'IU', unii: '81G40H8B0T', ingredient_group: 'Vitamin A', forms: ['Beta-Carotene', 'Retinyl Acetate'] });
    expect(line(read(12196), 'Vitamin C')).toMatchObject({ amount: 60, unit: 'mg', forms: ['Ascorbic Acid'] });
  });

  it('a declared 0 with a real unit is zero; units are kept as the label prints them', () => {
    const omega = read(214224);
    expect(line(omega, 'Trans Fat')).toMatchObject({ amount: 0, unit: 'g', operator: null, blend: null });
    expect(line(omega, 'Total Fat')).toMatchObject({ amount: 2, unit: 'g' });
    expect(line(omega, 'Calories')).toMatchObject({ amount: 20, unit: 'Calories' });
  });

  it('rows nested under a plain row are declared lines after it, not blend members', () => {
    const omega = read(214224);
    expect(omega.blends).toEqual([]);
    expect(omega.ingredients.map((i) => i.declared_name)).toEqual([
      'Calories', 'Total Fat', 'Saturated Fat', 'Trans Fat', 'Vitamin D3', 'Total Omega-3 Fatty Acids', 'Eicosapentaenoic Acid', 'Docosahexaenoic Acid', 'Other Omega-3 Fatty Acids',
    ]);
    expect(line(omega, 'Docosahexaenoic Acid')).toMatchObject({ amount: 220, unit: 'mg', unii: 'ZAD9OKH9JC', blend: null });
  });

  it('placeholder UNIIs are no UNII', () => {
    expect(line(read(12196), 'Calories').unii).toBeNull(); // "1"
    expect(line(read(12196), 'Total Carbohydrates').unii).toBeNull(); // "0"
    expect(line(read(318009), 'KSM-66')).toMatchObject({ unii: null, ingredient_group: 'Ashwagandha', forms: ['Ashwagandha Root Extract'] });
  });

  it('a blend whose total is NP has an undisclosed total; an amount given only in a note stays undisclosed, the note kept', () => {
    const before = read(79324);
    expect(before.blends).toEqual([{ name: 'Advanced Multi-Billion Dophilus Complex', total_amount: null, total_unit: null, totals_by_serving: [] }]);
    expect(line(before, 'L. acidophilus, LA-5')).toMatchObject({ amount: null, unit: null, blend: 'Advanced Multi-Billion Dophilus Complex' });
    expect(line(before, 'L. acidophilus, LA-5').amount_note).toMatch(/1\.25 billion viable microorganisms/);
    const after = read(264116);
    expect(after.blends).toEqual([{ name: 'Advanced Multi-Billion Dophilus Complex', total_amount: 13, total_unit: 'mg', totals_by_serving: [] }]);
    expect(line(after, 'Lactobacillus acidophilus LA-5')).toMatchObject({ amount: null, amount_note: '1.25 billion CFU', unii: '6VBB4Z4475' });
  });

  it('a blend repeated inside otheringredients is not a second blend', () => {
    const r = read(79324);
    expect(r.blends).toHaveLength(1);
    expect(r.ingredients.map((i) => i.declared_name)).toEqual(['L. acidophilus, LA-5', 'B. lactis, BB-12', 'L. paracasei, L. CASEI 431', 'L. rhamnosus GG, LGG']);
    // It is one of the label's other ingredients, kept as printed with what DSLD lists under it (decision 2420).
    expect(r.facts.other_ingredients).toEqual([
      { name: 'Advanced Multi-Billion Dophilus Complex', forms: ['Cultures', 'Maltodextrin', 'Microcrystalline Cellulose', 'Silica', 'Sodium Alginate', 'Vegetable Magnesium Stearate'] },
      { name: 'Vegetable Cellulose', forms: [] },
    ]);
  });

  it("keeps a label's other ingredients as printed, in its order, with the forms DSLD lists under each (decision 2420)", () => {
    // LIT AF: the sweeteners and colors a pre-workout buyer looks for, nineteen entries in the label's order.
    const lit = read(219842).facts.other_ingredients;
    expect(lit).toHaveLength(19);
    expect(lit.slice(0, 4)).toEqual([
      { name: 'Natural & Artificial flavors', forms: [] },
      { name: 'Potassium Citrate', forms: [] },
      { name: 'Calcium Silicate', forms: [] },
      { name: 'Sucralose', forms: [] },
    ]);
    expect(lit.map((o) => o.name)).toEqual(expect.arrayContaining(['Acesulfame Potassium', 'FD&C Yellow #5', 'FD&C Blue #1']));
    // Precision EAA Elevated: what is under "Contains 2% or less of" is listed as that entry's forms.
    const eaa = read(219819).facts.other_ingredients;
    expect(eaa.map((o) => o.name)).toEqual(['Natural and Artificial flavors', 'Citric Acid', 'Tartaric Acid', 'Contains 2% or less of']);
    expect(eaa[3]!.forms).toHaveLength(21);
    expect(eaa[3]!.forms).toEqual(expect.arrayContaining(['Sucralose', 'FD&C Blue #1', 'FD&C Yellow #5', 'Acesulfame Potassium']));
    // Rampant's two tablet excipients; a label that prints "None" says so, in its word.
    expect(read(14168).facts.other_ingredients).toEqual([{ name: 'Cellulose', forms: [] }, { name: 'Dicalcium Phosphate', forms: [] }]);
    expect(read(270253).facts.other_ingredients).toEqual([{ name: 'None', forms: [] }]);
    // Every real label: none refused for them, and they never become Supplement Facts lines or blends.
    let entries = 0;
    for (const file of labels) {
      const r = read(Number(file.replace('.json', '')));
      entries += r.facts.other_ingredients.length;
      for (const o of r.facts.other_ingredients) expect(o.name.length, file).toBeGreaterThan(0);
    }
    expect(entries).toBeGreaterThan(300);
  });

  it('keeps the label facts the history is built from: DSLD dates, version code, relationships, off-market', () => {
    expect(read(79324).facts).toMatchObject({
      dsld_label_id: 79324,
      product_version_code: 'SOLGB70038 03B',
      entry_date: '2017-10-21',
      off_market: false,
      label_relationships: [{ type: 'Image difference, same product', label_id: 44386 }],
    });
    expect(read(264116).facts).toMatchObject({ entry_date: '2022-05-19', product_version_code: 'SOLGB70038 04C 14-10747X3S Prod 39', label_relationships: [] });
    expect(read(330088).facts.label_relationships).toEqual([{ type: 'Package size difference, same product', label_id: 330089 }]);
  });

  it('a total DSLD files as a "Header" row over rows nested under it is read like the same total filed as a blend', () => {
    // 269317 (capsules) files "2:1:1 BCAA 1,000 mg" over leucine, isoleucine and valine as group "Header", category "other";
    // 270253 (powder, same brand) files the same kind of total as a blend. Both are a declared total with its members, not a line of its own.
    const header = read(269317);
    expect(header.blends).toEqual([{ name: '2:1:1 BCAA', total_amount: 1000, total_unit: 'mg', totals_by_serving: [] }]);
    expect(header.ingredients.map((i) => [i.declared_name, i.amount, i.unit, i.blend])).toEqual([
      ['L-Leucine', 500, 'mg', '2:1:1 BCAA'],
      ['L-Isoleucine', 250, 'mg', '2:1:1 BCAA'],
      ['L-Valine', 250, 'mg', '2:1:1 BCAA'],
    ]);
    const blend = read(270253);
    expect(blend.blends).toEqual([{ name: '2:1:1 BCAA', total_amount: 6000, total_unit: 'mg', totals_by_serving: [] }]);
    expect(blend.ingredients.every((i) => i.blend === '2:1:1 BCAA')).toBe(true);
  });

  it('reads the shapes the later labels add: API records re-saved with other spacing, a ">" amount, a note beside an NP marker, a blend row with no members', () => {
    // 306183 is stored with Python's JSON spacing and escapes ("\u00ae"); 311733 with DSLD's own compact form: both are the same kind of record.
    expect(readFileSync(`${dir}306183.json`, 'utf8')).toContain('"brandIpSymbol": "\\u00ae"');
    expect(read(306183)).toMatchObject({ brand: 'Nutricost Performance', name: 'BCAA+ Peach Mango', serving: { size: 13, unit: 'Gram(s)', servings_per_container: 30 } });
    expect(line(read(306183), 'Total Sugars')).toMatchObject({ amount: 1, unit: 'g', operator: '<' });
    expect(line(read(230132), 'Protein')).toMatchObject({ amount: 1, unit: 'g', operator: '>' });
    // A standardised marker with no amount of its own: undisclosed, DSLD's note kept as the label's words.
    expect(line(read(328071), 'Silymarin')).toMatchObject({ amount: null, unit: null, amount_note: '55%, calculated as' });
    expect(line(read(328071), 'Silybin')).toMatchObject({ amount: 140, unit: 'mg' });
    // "BCAA 5,000 mg" filed as a blend with no nested rows: a blend with its total, no line.
    const intra = read(311733);
    expect(intra.blends).toEqual([{ name: 'BCAA', total_amount: 5000, total_unit: 'mg', totals_by_serving: [] }]);
    expect(line(intra, 'Caffeine, Natural')).toMatchObject({ amount: 100, unit: 'mg', unii: '3G6A5W338E', ingredient_group: 'Caffeine', blend: null });
    expect(line(intra, 'Huperzine A')).toMatchObject({ amount: 250, unit: 'mcg' });
    // A blend whose members are NP: the total is declared, each member undisclosed.
    const liquid = read(67304);
    expect(liquid.serving).toMatchObject({ size: 15, unit: 'mL' });
    expect(liquid.blends).toEqual([{ name: 'Branched-Chain Amino Acids', total_amount: 250, total_unit: 'mg', totals_by_serving: [] }]);
    expect(line(liquid, 'L-Leucine')).toMatchObject({ amount: null, blend: 'Branched-Chain Amino Acids', unii: 'GMW67QNF9C' });
    expect(line(liquid, 'Sugar')).toMatchObject({ amount: 0, unit: 'g' });
  });

  it('keeps the net contents every label declares, in its order and units', () => {
    expect(read(1179).net_contents).toEqual([{ quantity: 18.31, unit: 'oz.' }, { quantity: 1.14, unit: 'lb' }, { quantity: 520, unit: 'g' }]);
    expect(read(19173).net_contents).toEqual([{ quantity: 60, unit: 'Caplet(s)' }]);
    expect(read(219819).net_contents).toEqual([{ quantity: 14.39, unit: 'Ounce(s)' }, { quantity: 408, unit: 'g' }]);
    for (const file of labels) {
      const r = read(Number(file.replace('.json', '')));
      expect(r.net_contents.length, file).toBeGreaterThan(0);
    }
  });

  it('derives servings per container only where they agree with every real label that declares them (decision 2410)', () => {
    const declared: number[] = [];
    const derivedWhereNone: Record<number, number | null> = {};
    for (const file of labels) {
      const r = read(Number(file.replace('.json', '')));
      const derived = deriveServings(r.serving, r.net_contents);
      if (r.serving.servings_per_container === null) derivedWhereNone[r.label_id] = derived?.value ?? null;
      else if (derived) {
        expect(derived.value, `label ${r.label_id}`).toBe(r.serving.servings_per_container);
        declared.push(r.label_id);
      }
    }
    // Every count-unit label that declares servings agrees (a label whose quotient is not whole, 332924, derives nothing).
    expect(declared.length).toBeGreaterThanOrEqual(31);
    // The labels that declare none: capsules, caplets, tablets and softgels are derived; packs of several caplets,
    // a serving of 1-2 capsules and a single packet by weight are not.
    expect(derivedWhereNone).toEqual({
      15923: null, 176168: null, 184004: 30, 19173: 60, 19598: null, 200362: 60, 214982: 60,
      49495: 90, 54775: 120, 59514: 120, 74529: null, 79324: 60, 79660: 100,
    });
  });

  it("keeps what a label states about what it contains, its precautions and directions, in DSLD's words and order; not its claims (decision 2420)", () => {
    // Rampant declares its caffeine only as a member of a blend, without an amount; its statements say how much.
    const rampant = read(14168).facts.statements;
    expect(rampant.map((s) => s.type)).toEqual([
      'Precautions re: Children',
      'Formulation re: Does NOT Contain',
      'Suggested/Recommended/Usage/Directions',
      'Precautions re: All Other',
      'Formula re: Contains',
      'Precautions re: All Other',
    ]);
    expect(rampant).toContainEqual({ type: 'Formula re: Contains', text: 'Each serving supplies 200 mg of caffeine.' });
    expect(rampant).toContainEqual({ type: 'Suggested/Recommended/Usage/Directions', text: 'DIRECTIONS: As a dietary supplement, take six tablets 30 minutes before exercise.' });
    // Marketing copy and claims, trademarks, storage and the FDA's wording are not the label's facts about itself.
    expect(rampant.some((s) => /AMPLIFIER|ANABOLISM|trademark|cool, dry|Food and Drug/i.test(s.text))).toBe(false);
    // The label's line breaks are kept: four claims of content, one per line, as LIT AF prints them.
    const lit = read(219842).facts.statements;
    expect(lit).toContainEqual({ type: 'Formula re: Contains', text: '300 mg caffeine\n8 g L-citrulline malate\n400 mg peak atp\n1.5 g nitrosigine' });
    expect(lit).toContainEqual({ type: 'Precautions re: All Other', text: 'One serving supplies 300 mg of caffeine.' });
    expect(lit).toContainEqual({ type: 'Precautions re: Allergies', text: 'Contains: Soybeans.' });
    expect(lit.filter((s) => s.type === 'Formulation re: Other')).toEqual([]);
    // Every real label: only the kept types, none empty, within the limits, never a reason to refuse one.
    let kept = 0;
    for (const file of labels) {
      const statements = read(Number(file.replace('.json', ''))).facts.statements;
      kept += statements.length;
      for (const st of statements) {
        expect(st.type, file).toMatch(/^(Formula re: Contains|Formulation re: Does NOT Contain|Precautions re: .+|Suggested\/Recommended\/Usage\/Directions)$/);
        expect(st.text.length, file).toBeGreaterThan(0);
        expect(st.text, file).not.toMatch(/[ \t]{2}|^\s|\s$/);
      }
    }
    expect(kept).toBeGreaterThan(300);
  });

  it("keeps the % Daily Value each line prints for its serving, as printed, never as an amount (decision 2440)", () => {
    const adults = 'Adults and children 4 or more years of age';
    // Emergen-C (15923) prints its vitamins and minerals only as percents: DSLD's amount is "NP", so the line keeps
    // no amount, and its percent beside it.
    const emergen = read(15923);
    expect(line(emergen, 'Vitamin C')).toMatchObject({ amount: null, unit: null, daily_values: [{ percent: 833, target_group: adults }] });
    expect(line(emergen, 'Vitamin A')).toMatchObject({ amount: null, daily_values: [{ percent: 70, target_group: adults }] });
    // A percent as a bound: Transparent Labs Bulk (295773), a pre-workout, prints "<1%" beside its carbohydrates.
    expect(line(read(295773), 'Total Carbohydrates').daily_values).toEqual([{ percent: 1, operator: '<', target_group: adults }]);
    // The footnote a label prints where no Daily Value exists, and a line that prints none.
    const bcaa = read(306183);
    expect(line(bcaa, 'Coconut Water, Powder').daily_values).toEqual([{ percent: null, target_group: adults, note: 'Daily Value not established' }]);
    expect(line(bcaa, 'Calcium').daily_values).toEqual([{ percent: 6, target_group: adults }]);
    expect(line(bcaa, 'Calories').daily_values).toEqual([]);
    const all = labels.map((f) => read(Number(f.replace('.json', ''))));
    const printed = all.flatMap((r) => r.ingredients.flatMap((i) => i.daily_values));
    expect(printed.filter((d) => d.operator === '<').length).toBeGreaterThan(0);
    expect(printed.filter((d) => d.percent === null).every((d) => /Daily Value (\(DV\) )?not established/i.test(d.note ?? ''))).toBe(true);
    expect(new Set(printed.map((d) => d.target_group))).toEqual(new Set([adults]));
    // Every entry a real label prints is kept: 524 entries on the 941 quantities of the 60 labels, less a blend's own.
    expect(printed.length).toBeGreaterThan(400);
    expect(all.flatMap((r) => r.ingredients).every((i) => i.daily_values.length <= 4 && i.daily_values.every((d) => d.percent === null || d.percent >= 0))).toBe(true);
  });

  it('blends listed inside blends of a real multivitamin keep their own totals and members', () => {
    const r = read(49495);
    expect(r.blends.map((b) => [b.name, b.total_amount, b.total_unit])).toEqual([
      ['Fish Oil and Borage Oil', 5, 'mg'],
      ['Active Vegetable and Fruit Blend', 200, 'mg'],
      ['Men’s Complex Blend', 60, 'mg'],
    ]);
    expect(r.ingredients.filter((i) => i.blend === 'Men’s Complex Blend').every((i) => i.amount === null)).toBe(true);
  });
});

describe('DSLD shapes no gathered label shows (composed here, not real)', () => {
  // A composed label: field names and shapes as DSLD v9 writes them, values invented.
  const composed = (over: Record<string, unknown>) =>
    JSON.stringify({
      id: 900001,
      fullName: 'Composed Pre-Workout',
      brandName: 'Composed',
      servingSizes: [
        { order: 1, minQuantity: 1, maxQuantity: 1, unit: 'Scoop(s)', notes: null },
        { order: 2, minQuantity: 2, maxQuantity: 2, unit: 'Scoop(s)', notes: 'experienced users' },
      ],
      ingredientRows: [
        {
          order: 1,
          name: 'Caffeine Anhydrous',
          description: null,
          category: 'non-nutrient/non-botanical',
          ingredientGroup: 'Caffeine',
          uniiCode: '3G6A5W338E',
          quantity: [
            { servingSizeOrder: 1, operator: '=', quantity: 200, unit: 'mg' },
            { servingSizeOrder: 2, operator: '=', quantity: 400, unit: 'mg' },
          ],
          nestedRows: null,
          forms: null,
        },
        {
          order: 2,
          name: 'Energy Blend',
          category: 'blend',
          quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 0, unit: 'NP' }],
          nestedRows: [{ order: 3, name: 'Theacrine', quantity: [], nestedRows: [] }],
        },
      ],
      ...over,
    });

  it('keeps every serving size a label declares, with the amounts each one declares', () => {
    const p = parseDsldLabel(composed({}));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.reading.serving).toEqual({ size: 1, unit: 'Scoop(s)', description: null, servings_per_container: null });
    expect(p.reading.other_servings).toEqual([{ serving_order: 2, size: 2, unit: 'Scoop(s)', description: null, note: 'experienced users' }]);
    expect(p.reading.ingredients[0]).toMatchObject({ amount: 200, unit: 'mg', amounts_by_serving: [{ serving_order: 2, serving_quantity: null, amount: 400, unit: 'mg', operator: null }] });
    expect(p.reading.blends).toEqual([{ name: 'Energy Blend', total_amount: null, total_unit: null, totals_by_serving: [] }]);
    expect(p.reading.ingredients[1]).toMatchObject({ declared_name: 'Theacrine', amount: null, blend: 'Energy Blend' });
  });

  it('one serving size listing an amount per quantity (1, 2 or 3 scoops, as DSLD records some labels): the smallest quantity gives the line amount, the others are kept', () => {
    const p = parseDsldLabel(
      composed({
        servingSizes: [{ order: 1, minQuantity: 29.2, maxQuantity: 87.5, unit: 'Gram(s)', notes: '1-3 scoops' }],
        ingredientRows: [
          {
            order: 1,
            name: 'Calories',
            quantity: [
              { servingSizeOrder: 1, servingSizeQuantity: 58.3, operator: '=', quantity: 200, unit: '{Calories}' },
              { servingSizeOrder: 1, servingSizeQuantity: 87.5, operator: '=', quantity: 300, unit: '{Calories}' },
              { servingSizeOrder: 1, servingSizeQuantity: 29.2, operator: '=', quantity: 100, unit: '{Calories}' },
            ],
          },
        ],
      }),
    );
    expect(p.ok && p.reading.serving).toEqual({ size: null, unit: 'Gram(s)', description: '29.2-87.5 Gram(s)', servings_per_container: null });
    expect(p.ok && p.reading.ingredients[0]).toMatchObject({
      amount: 100,
      unit: 'Calories',
      amounts_by_serving: [
        { serving_order: 1, serving_quantity: 58.3, amount: 200, unit: 'Calories', operator: null },
        { serving_order: 1, serving_quantity: 87.5, amount: 300, unit: 'Calories', operator: null },
      ],
    });
  });

  it("a blend DSLD lists with its members as the blend row's forms (no nested rows) keeps them as members without amounts", () => {
    // 1179 (Ravage Fruit Punch, 2011) files its four blends so; 2219 (the same product in Grape) files the same blends
    // with nested rows. Either way the label names each member inside its blend without an amount of its own.
    const ravage = read(1179);
    expect(ravage.blends.map(({ name, total_amount, total_unit }) => ({ name, total_amount, total_unit }))).toEqual([
      { name: 'Muscle Buffering System', total_amount: 3.2, total_unit: 'g' },
      { name: 'N.O. Vasodilation Amplifier', total_amount: 3.2, total_unit: 'g' },
      { name: 'ATP Optimizing Creatine Module', total_amount: 3.1, total_unit: 'g' },
      { name: 'Thermo Energy Intensifier', total_amount: 603.3, total_unit: 'mg' },
      // A form filed as a blend of its own: a blend whose total and members this label does not give.
      { name: 'Caffeine Blend', total_amount: null, total_unit: null },
    ]);
    const members = (r: DsldReading, blend: string) => r.ingredients.filter((l) => l.blend === blend).map((l) => l.declared_name);
    expect(members(ravage, 'Muscle Buffering System')).toEqual(['Astaxanthin', 'CarnoSyn']);
    expect(members(ravage, 'Thermo Energy Intensifier')).toEqual(['Acetyl L-Carnitine', 'Capsimax Capsicum fruit extract', 'Choline Bitartrate', 'L-Phenylalanine', 'L-Taurine']);
    expect(line(ravage, 'CarnoSyn')).toEqual({
      declared_name: 'CarnoSyn', amount: null, unit: null, operator: null, blend: 'Muscle Buffering System', amount_note: null, amounts_by_serving: [],
      unii: null, ingredient_group: 'Beta-Alanine', forms: [], daily_values: [],
    });
    expect(line(ravage, 'L-Arginine, Micronized')).toMatchObject({ unii: '94ZLA3W45F', ingredient_group: 'Arginine', amount: null });
    // The other flavor, filed with nested rows, names the same members of the same blend (in label order; DSLD lists forms alphabetically).
    expect(members(read(2219), 'Muscle Buffering System').sort()).toEqual(members(ravage, 'Muscle Buffering System').sort());
    // Rampant (14168, a pre-training tablet): its 200 mg of caffeine is declared as a member of a blend's forms.
    const rampant = read(14168);
    expect(rampant.blends.map((b) => [b.name, b.total_amount, b.total_unit])).toEqual([
      ['N.O. Vasodilation Amplifier', 2060, 'mg'], ['Anabolic Muscle Primer', 801, 'mg'], ['ATP Optimizing Creatine Module', 1250, 'mg'],
      ['Muscle Buffering System', 700.05, 'mg'], ['Thermo Energy Matrix', 598.34, 'mg'],
    ]);
    expect(line(rampant, 'Caffeine Anhydrous')).toMatchObject({ amount: null, blend: 'Thermo Energy Matrix', ingredient_group: 'Caffeine' });
    expect(rampant.ingredients).toHaveLength(4 + 9 + 5 + 6 + 2 + 7);
  });

  it("reads a blend's forms as members whatever shape their fields the Record did not read before take (composed label)", () => {
    const p = parseDsldLabel(composed({ ingredientRows: [{ order: 1, name: 'Pump Blend', category: 'blend', quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 2, unit: 'Gram(s)' }],
      forms: [{ order: 2, name: 'Betaine' }, { order: 1, name: 'L-Citrulline', uniiCode: 29, ingredientGroup: ['Citrulline'], category: null }, { order: 3, name: null }] }] }));
    expect(p).toMatchObject({ ok: true });
    if (!p.ok) return;
    expect(p.reading.blends).toEqual([{ name: 'Pump Blend', total_amount: 2, total_unit: 'g', totals_by_serving: [] }]);
    expect(p.reading.ingredients.map(({ declared_name, unii, ingredient_group, blend, amount }) => ({ declared_name, unii, ingredient_group, blend, amount }))).toEqual([
      { declared_name: 'L-Citrulline', unii: null, ingredient_group: null, blend: 'Pump Blend', amount: null },
      { declared_name: 'Betaine', unii: null, ingredient_group: null, blend: 'Pump Blend', amount: null },
    ]);
    // A plain row's forms are the forms of that one ingredient, never members.
    const plain = parseDsldLabel(composed({ ingredientRows: [{ order: 1, name: 'Niacin', quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 30, unit: 'mg' }], forms: [{ name: 'Niacinamide' }] }] }));
    expect(plain).toMatchObject({ ok: true, reading: { blends: [], ingredients: [{ declared_name: 'Niacin', amount: 30, forms: ['Niacinamide'] }] } });
  });

  it('a field the Record reads in a shape it cannot read makes the label unreadable, naming the field', () => {
    expect(parseDsldLabel(composed({ ingredientRows: [{ order: 1, name: 'X', quantity: [{ servingSizeOrder: 1, quantity: '200', unit: 'mg' }] }] }))).toEqual({
      ok: false,
      outcome: 'unreadable',
      reason: expect.stringMatching(/ingredientRows\.0\.quantity\.0\.quantity/),
    });
    expect(parseDsldLabel(composed({ ingredientRows: [{ order: 1, name: 'X', quantity: [{ servingSizeOrder: 1, operator: '≈≈', quantity: 5, unit: 'mg' }] }] }))).toMatchObject({
      outcome: 'unreadable',
      reason: expect.stringMatching(/ingredientRows\.0\.quantity\.0\.operator/),
    });
    expect(parseDsldLabel(composed({ ingredientRows: [{ order: 1, name: 'X', quantity: [{ servingSizeOrder: 1, quantity: -5, unit: 'mg' }] }] }))).toMatchObject({
      outcome: 'unreadable',
      reason: expect.stringMatching(/ingredientRows\.0\.quantity\.0\.quantity is -5/),
    });
    expect(parseDsldLabel(composed({ ingredientRows: [{ order: 1, name: null, description: '', quantity: [] }] }))).toMatchObject({
      outcome: 'unreadable',
      reason: expect.stringMatching(/ingredientRows\.0\.name is missing/),
    });
    expect(parseDsldLabel(composed({ servingSizes: 'one scoop' }))).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/servingSizes/) });
  });

  it('reads statements entry by entry: an entry in a shape it cannot read, of a type it does not keep, or too long is left out, never refusing the label', () => {
    const p = parseDsldLabel(
      composed({
        statements: [
          { type: 'Formula re: Contains', notes: '  200 mg   caffeine \r\n\n 6 g citrulline ' },
          { type: 'Precautions re: All Other', notes: 7 },
          { type: ['Precautions re: All Other'], notes: 'x' },
          'Keep out of reach of children.',
          null,
          { type: 'General Statements: All Other Content', notes: 'EXTREME PUMPS' },
          { type: 'Precautions re: Children', notes: '   ' },
          { type: 'Precautions re: All Other', notes: 'y'.repeat(2001) },
          { type: 'Precautions re: Children', notes: 'Keep out of reach of children.' },
        ],
      }),
    );
    expect(p).toMatchObject({ ok: true });
    if (!p.ok) return;
    expect(p.reading.facts.statements).toEqual([
      { type: 'Formula re: Contains', text: '200 mg caffeine\n6 g citrulline' },
      { type: 'Precautions re: Children', text: 'Keep out of reach of children.' },
    ]);
    for (const statements of [null, 'none', { type: 'Formula re: Contains', notes: 'x' }]) {
      expect(parseDsldLabel(composed({ statements }))).toMatchObject({ ok: true, reading: { facts: { statements: [] } } });
    }
    const many = parseDsldLabel(composed({ statements: Array.from({ length: 45 }, (_, i) => ({ type: 'Precautions re: All Other', notes: `Warning ${i}.` })) }));
    expect(many.ok && many.reading.facts.statements.length).toBe(40);
  });

  it('reads daily values entry by entry: one in a shape it cannot read is left out, never refusing the label (decision 2440)', () => {
    const p = parseDsldLabel(
      composed({
        ingredientRows: [
          {
            order: 1,
            name: 'Vitamin B6',
            quantity: [
              {
                servingSizeOrder: 1,
                operator: '=',
                quantity: 10,
                unit: 'mg',
                dailyValueTargetGroup: [
                  { name: 'Adults and children 4 or more years of age', operator: '=', percent: 588, footnote: null },
                  { name: 'Children 1 to 3 years of age', operator: '≥', percent: 1000, footnote: null },
                  { name: 'Pregnant women', operator: '?', percent: 400 },
                  { name: 'Infants', percent: 'many' },
                  { name: 'Lactating women', percent: -1 },
                  null,
                  'x',
                  { name: null, percent: 5 },
                  { name: 'fifth kept', percent: 1 },
                  { name: 'one too many', percent: 2 },
                ],
              },
            ],
          },
          { order: 2, name: 'Caffeine', quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 200, unit: 'mg', dailyValueTargetGroup: { percent: 5 } }] },
          { order: 3, name: 'Taurine', quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 1, unit: 'g' }] },
        ],
      }),
    );
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.reading.ingredients.map((i) => i.daily_values)).toEqual([
      [
        { percent: 588, target_group: 'Adults and children 4 or more years of age' },
        { percent: 1000, operator: '>=', target_group: 'Children 1 to 3 years of age' },
        { percent: 5, target_group: null },
        { percent: 1, target_group: 'fifth kept' },
      ],
      [],
      [],
    ]);
  });

  it('reads other ingredients entry by entry: one in a shape it cannot read is left out, never refusing the label', () => {
    const p = parseDsldLabel(
      composed({
        otheringredients: {
          text: null,
          ingredients: [
            { order: 3, name: 'Sucralose', forms: null },
            { order: 1, name: '  Citric   Acid ', forms: [] },
            { order: 2, name: 'Contains 2% or less of', forms: [{ order: 2, name: 'FD&C Red #40' }, { order: 1, name: 'Silicon Dioxide' }, { name: 7 }, 'Salt', null] },
            { order: 4, name: 42 },
            { order: 5 },
            'Stevia',
            null,
          ],
        },
      }),
    );
    expect(p).toMatchObject({ ok: true });
    if (!p.ok) return;
    expect(p.reading.facts.other_ingredients).toEqual([
      { name: 'Citric Acid', forms: [] },
      { name: 'Contains 2% or less of', forms: ['Silicon Dioxide', 'FD&C Red #40'] },
      { name: 'Sucralose', forms: [] },
    ]);
    // Never a Supplement Facts line or a blend.
    expect(p.reading.ingredients.map((i) => i.declared_name)).toEqual(['Caffeine Anhydrous', 'Theacrine']);
    for (const otheringredients of [null, 'Citric Acid', { ingredients: 'Citric Acid' }, []]) {
      expect(parseDsldLabel(composed({ otheringredients }))).toMatchObject({ ok: true, reading: { facts: { other_ingredients: [] } } });
    }
    const many = parseDsldLabel(composed({ otheringredients: { ingredients: Array.from({ length: 65 }, (_, i) => ({ order: i, name: `Excipient ${i}`, forms: Array.from({ length: 45 }, (_, j) => ({ name: `Form ${j}` })) })) } }));
    expect(many.ok && many.reading.facts.other_ingredients.length).toBe(60);
    expect(many.ok && many.reading.facts.other_ingredients[0]!.forms.length).toBe(40);
  });

  it('ignores the shape of fields the Record does not read', () => {
    const p = parseDsldLabel(composed({ netContents: 'a lot', contacts: 7, statements: null, targetGroups: [{ weird: true }], hasOuterCarton: 'yes', upcSku: '' }));
    expect(p.ok).toBe(true);
  });

  it('reads a count of servings only from a number', () => {
    for (const [spc, expected] of [['30', 30], ['Not Reported', null], ['30-60', null], [45, 45], [null, null]] as const) {
      const p = parseDsldLabel(composed({ servingsPerContainer: spc }));
      expect(p.ok && p.reading.serving.servings_per_container, String(spc)).toBe(expected);
    }
  });

  it('an "Off Market" event marks the label off the market', () => {
    const p = parseDsldLabel(composed({ offMarket: 0, events: [{ date: '2014-07-14', type: 'Off Market' }, { date: '2011-10-26', type: 'Date entered into DSLD' }] }));
    expect(p.ok && p.reading.facts).toMatchObject({ off_market: true, entry_date: '2011-10-26' });
  });
});
