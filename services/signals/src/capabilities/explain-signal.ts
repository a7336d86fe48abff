import { Refusal, answerSourceKind, buildAnswer } from '@evidence-record/contract';
import { correctionsOf, findReleasedSignal, presentSignal, productById, productIdentity, type SignalRow } from '@evidence-record/record-store';
import { withSnapshot, type HandlerOf, type PoolClient } from '@evidence-record/platform';
import type { SignalsDeps } from '../deps';
import {
  declaredIngredients,
  historyStates,
  listPricesAroundWindow,
  priceObservations,
  stateReadings,
  type PriceRow,
  type ReadingRow,
} from '../queries/evidence';
import {
  differingIngredients,
  presentDeclaredIngredient,
  presentPrice,
  presentState,
  pricePerServing,
  type SourceReferenceOut,
} from '../present';

/**
 * explain_signal: one released Signal with both sides of the change, its
 * observation window, the readings that bound it, and what happened to it
 * since release. A Signal that is not released (open, refused, approved but
 * not yet released) is absent exactly like an invented id.
 */
export function explainSignal(deps: SignalsDeps): HandlerOf<'explain_signal'> {
  return async ({ capability, params }, ctx) =>
    withSnapshot(deps.pool, async (client, record) => {
      const row = await findReleasedSignal(client, params.signal_id);
      if (!row) throw new Refusal('not_found');

      const product = await productById(client, row.product_id);
      const corrections = (await correctionsOf(client, [row.signal_id])).get(row.signal_id) ?? [];
      const sides = await readSides(client, row);
      const signal = { ...presentSignal(row, corrections, deps.publicBaseUrl), before: sides.before, after: sides.after, evidence: sides.evidence };

      const limitations = [
        row.exact_change_date
          ? 'The change is dated to one day; the observation window still bounds when it was first seen.'
          : 'The change happened within the observation window; the Record cannot date it to a day.',
        ...(row.status === 'withdrawn' ? ['This Signal was withdrawn after release; it keeps its address and release date and says so in corrections.'] : []),
        ...(row.status === 'corrected' ? ['This Signal was corrected after release; corrections say what changed and when.'] : []),
        ...sides.limitations,
      ];
      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        status: 'supported',
        product: product ? productIdentity(product) : null,
        summary: `A confirmed ${row.dimension} change to ${row.product_name}, released ${row.released_on}${row.status === 'released' ? '' : ` and since ${row.status}`}.`,
        signals: [signal],
        history: [sides.before.state, sides.after.state].filter((s) => s !== null),
        verified_facts: [...sides.before.declared_ingredients, ...sides.after.declared_ingredients],
        commercial_facts: [...sides.before.list_prices, ...sides.after.list_prices],
        calculations: sides.calculations,
        source_references: sides.evidence,
        limitations,
        confidence: {
          level: row.status === 'withdrawn' ? 'none' : 'high',
          basis:
            row.status === 'withdrawn'
              ? 'Withdrawn after review: the change is no longer asserted.'
              : 'A human reviewer confirmed this change between two comparable captured states.',
        },
        record,
      });
      return { answer, entities: [row.signal_id] };
    });
}

interface Side {
  state_id: string | null;
  state: ReturnType<typeof presentState> | null;
  declared_ingredients: ReturnType<typeof presentDeclaredIngredient>[];
  list_prices: ReturnType<typeof presentPrice>[];
}

async function readSides(client: PoolClient, row: SignalRow) {
  const stateIds = [row.before_state_id, row.after_state_id].filter((s): s is string => s !== null);
  const states = await historyStates(client, stateIds);
  const readings = await stateReadings(client, stateIds);
  const ingredients = await declaredIngredients(client, stateIds);
  const limitations: string[] = [];

  // The last reading of the old label and the first reading of the new one bound the window.
  const beforeReadings = readings.filter((r) => r.state_id === row.before_state_id);
  const afterReadings = readings.filter((r) => r.state_id === row.after_state_id);
  const lastBefore = beforeReadings.at(-1) ?? null;
  const firstAfter = afterReadings[0] ?? null;
  const beforeState = row.before_state_id ? states.get(row.before_state_id) ?? null : null;
  const afterState = row.after_state_id ? states.get(row.after_state_id) ?? null : null;

  const diff = differingIngredients(
    ingredients.filter((d) => d.state_id === row.before_state_id),
    ingredients.filter((d) => d.state_id === row.after_state_id),
  );
  const before: Side = {
    state_id: row.before_state_id,
    state: beforeState ? presentState(beforeState) : null,
    declared_ingredients: diff.before.map((d) => presentDeclaredIngredient(d, beforeState?.observed_to ?? row.window_start, lastBefore?.url ?? null)),
    list_prices: [],
  };
  const after: Side = {
    state_id: row.after_state_id,
    state: afterState ? presentState(afterState) : null,
    declared_ingredients: diff.after.map((d) => presentDeclaredIngredient(d, afterState?.observed_from ?? row.window_end, firstAfter?.url ?? null)),
    list_prices: [],
  };

  const cited: ReadingRow[] = [beforeReadings[0], lastBefore, firstAfter].filter((r): r is ReadingRow => r !== undefined && r !== null);
  const evidence: SourceReferenceOut[] = cited.map((r) => ({ url: r.url, observed_at: r.observed_on, kind: answerSourceKind(r.kind), readable: r.readable }));
  const calculations = [];

  if (row.dimension === 'price') {
    const prices = await listPrices(client, row);
    if (prices.before) {
      before.list_prices.push(presentPrice(prices.before));
      calculations.push(pricePerServing(prices.before));
    }
    if (prices.after) {
      after.list_prices.push(presentPrice(prices.after));
      calculations.push(pricePerServing(prices.after));
    }
    for (const p of [prices.before, prices.after]) {
      if (p?.source_url) evidence.push({ url: p.source_url, observed_at: p.observed_at, kind: answerSourceKind(p.source_kind ?? 'retailer'), readable: p.source_readable });
    }
    if (!prices.before || !prices.after) limitations.push('One side of this price change has no list-price observation in the Record.');
    limitations.push('Both sides are list prices as recorded; a promotional price is never one side of a price change.');
  }
  return { before, after, evidence: dedupe(evidence), calculations, limitations };
}

async function listPrices(client: PoolClient, row: SignalRow): Promise<{ before: PriceRow | null; after: PriceRow | null }> {
  if (row.before_price_id !== null && row.after_price_id !== null) {
    const rows = await priceObservations(client, [row.before_price_id, row.after_price_id]);
    return { before: rows.get(row.before_price_id) ?? null, after: rows.get(row.after_price_id) ?? null };
  }
  return listPricesAroundWindow(client, row.product_id, row.window_start, row.window_end);
}

function dedupe(refs: SourceReferenceOut[]): SourceReferenceOut[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.url}|${r.observed_at}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
