import type { z } from 'zod';
import { bound, orderedDailyValues, type HistoryState, type VerifiedFact } from '@evidence-record/contract';
import type { BesideFacts, DeclaredRow, StateRow } from '../queries/label';

export type VerifiedFactOut = z.infer<typeof VerifiedFact>;
export type HistoryStateOut = z.infer<typeof HistoryState>;

/** The date a state's facts were read: its capture, or the end of its observation span. */
export function stateObservedAt(state: StateRow): string {
  return state.captured_on ?? state.observed_to;
}

/** Where and when every fact of a state was read: the state, the date of its newest capture, the source's address. */
const factBase = (state: StateRow) => ({ state_id: state.state_id, observed_at: stateObservedAt(state), source_url: state.source_url });

/**
 * Declared facts of one label state, in label order. A proprietary blend is
 * one fact with its declared total, placed before its members; each member
 * names its blend and keeps amount null when the label gives none.
 */
export function declaredFacts(state: StateRow, lines: DeclaredRow[]): VerifiedFactOut[] {
  const own = lines.filter((l) => l.state_id === state.state_id);
  const blends = new Map(own.filter((l) => l.row_kind === 'blend').map((b) => [b.blend_id, b]));
  const placed = new Set<number | null>();
  const base = factBase(state);
  const facts: VerifiedFactOut[] = [];
  const blendFact = (b: DeclaredRow): VerifiedFactOut => ({
    kind: 'proprietary_blend',
    value: { declared_name: b.declared_name, amount: b.amount, unit: b.unit, ingredient_id: null, blend: null, amount_disclosed: b.amount !== null, ...byServing(b) },
    ...base,
  });
  for (const line of own) {
    if (line.row_kind !== 'ingredient') continue;
    if (line.blend_id !== null && !placed.has(line.blend_id)) {
      const blend = blends.get(line.blend_id);
      if (blend) facts.push(blendFact(blend));
      placed.add(line.blend_id);
    }
    facts.push({
      kind: 'declared_ingredient',
      value: {
        declared_name: line.declared_name,
        amount: line.amount,
        unit: line.unit,
        ...bound(line.operator),
        ingredient_id: line.ingredient_id,
        blend: line.blend_name,
        amount_disclosed: line.amount !== null,
        ...(line.amount === null && line.amount_note ? { amount_note: line.amount_note } : {}),
        ...byServing(line),
        ...(line.daily_values && line.daily_values.length > 0 ? { daily_values: orderedDailyValues(line.daily_values) } : {}),
      },
      ...base,
    });
  }
  // A blend the label declares without listing members is still a declared fact.
  for (const [id, blend] of blends) if (!placed.has(id)) facts.push(blendFact(blend));
  return facts;
}

/** What the other serving sizes declare of a line, only where the label declares more than one. */
function byServing(line: DeclaredRow): Pick<VerifiedFactOut['value'], 'amounts_by_serving'> {
  const list = line.amounts_by_serving ?? [];
  return list.length === 0
    ? {}
    : { amounts_by_serving: list.map((a) => ({ serving_order: a.serving_order, serving_quantity: a.serving_quantity ?? null, amount: a.amount, unit: a.unit, ...bound(a.operator) })) };
}


/** The serving configuration a state declares, as facts (only what it declares), every serving size included. */
export function servingFacts(state: StateRow): VerifiedFactOut[] {
  const facts: VerifiedFactOut[] = [];
  const base = factBase(state);
  if (state.serving_size !== null || state.serving_description !== null) {
    facts.push({
      kind: 'serving_configuration',
      value: { declared_name: state.serving_description ?? 'serving size', amount: state.serving_size, unit: state.serving_unit },
      ...base,
    });
  }
  if (state.servings_per_container !== null) {
    facts.push({
      kind: 'serving_configuration',
      value: { declared_name: 'servings per container', amount: state.servings_per_container, unit: 'servings' },
      ...base,
    });
  }
  // Declared beside the serving, and what servings per container are derived from where the label gives none (decision 2410).
  for (const net of state.net_contents ?? []) {
    facts.push({ kind: 'serving_configuration', value: { declared_name: 'net contents', amount: net.quantity, unit: net.unit }, ...base });
  }
  for (const other of state.other_servings ?? []) {
    if (other.size === null && other.description === null) continue;
    facts.push({
      kind: 'serving_configuration',
      value: { declared_name: other.note ?? other.description ?? 'serving size', amount: other.size, unit: other.unit, serving_order: other.serving_order },
      ...base,
    });
  }
  return facts;
}

/**
 * What the label prints beside its Supplement Facts (decision 2420), one fact each, in the label's order: first its
 * other ingredients (the name as printed, with the forms DSLD lists under it), then its statements (DSLD's type as
 * `declared_name`, the words as `statement`). Neither carries an amount: the label gives none for an other ingredient,
 * and nothing is read out of a statement's words ("Each serving supplies 200 mg of caffeine." stays a sentence).
 */
export function besideLabelFacts(state: StateRow, beside: BesideFacts): VerifiedFactOut[] {
  const base = factBase(state);
  return [
    ...beside.other_ingredients.map((o) => ({
      kind: 'other_ingredient',
      value: { declared_name: o.name, amount: null, unit: null, ...(o.forms.length > 0 ? { forms: o.forms } : {}) },
      ...base,
    })),
    ...beside.statements.map((s) => ({ kind: 'label_statement', value: { declared_name: s.type, amount: null, unit: null, statement: s.text }, ...base })),
  ];
}

/** How many declared ingredients the label names without an amount of their own (a declared 0 is not one of them). */
export function undisclosedAmountCount(facts: VerifiedFactOut[]): number {
  return facts.filter((f) => f.kind === 'declared_ingredient' && f.value.amount === null).length;
}

/** How many declared ingredients the label declares as 0 ("Trans Fat 0 g"): stated amounts, not undisclosed. */
export function declaredZeroCount(facts: VerifiedFactOut[]): number {
  return facts.filter((f) => f.kind === 'declared_ingredient' && f.value.amount === 0 && f.value.operator === undefined).length;
}

/** How many declared ingredients the label states as a bound ("<1 g"): shown with their operator, never calculated with (decision 2430). */
export function boundedAmountCount(facts: VerifiedFactOut[]): number {
  return facts.filter((f) => f.kind === 'declared_ingredient' && f.value.operator !== undefined).length;
}

export function historyState(state: StateRow, comparableStates: number): HistoryStateOut {
  return {
    state_id: state.state_id,
    observed_from: state.observed_from,
    observed_to: state.observed_to,
    classification: state.classification,
    comparable: state.classification === 'comparable' && comparableStates >= 2,
    serving: {
      serving_size: state.serving_size,
      serving_unit: state.serving_unit,
      servings_per_container: state.servings_per_container,
      description: state.serving_description,
    },
    ...((state.other_servings ?? []).length > 0
      ? {
          other_servings: state.other_servings.map((o) => ({ serving_order: o.serving_order, serving_size: o.size, serving_unit: o.unit, description: o.description, note: o.note })),
        }
      : {}),
    ...((state.net_contents ?? []).length > 0 ? { net_contents: state.net_contents.map((n) => ({ quantity: n.quantity, unit: n.unit })) } : {}),
    declared_ingredient_count: state.declared_ingredient_count,
    note: state.note,
  };
}
