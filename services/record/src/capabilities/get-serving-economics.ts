import { isBound } from '@evidence-record/contract';
import { answered, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { withProductSnapshot } from '../capability-inputs';
import { commercialFact, newestPerBasis, pricePerGramOf, pricePerServing, priceRuns, servingsFor, type CalculationOut } from '../domain/economics';
import { displayName, productIdentity } from '../domain/identity';
import { distinct, limitation } from '../domain/limitations';
import { declaredLines, latestState } from '../queries/label';
import { priceHistory } from '../queries/prices';

/**
 * Price per serving of the newest observation of each price basis, and per
 * gram of each bulk ingredient the latest label declares, as calculations
 * with operands. List, promotional and subscription prices stay apart.
 * Prices over time are runs of dated observations at one price (each run's
 * first and last observation are the commercial facts), never a change date.
 */
export const getServingEconomics = (deps: RecordDeps): HandlerOf<'get_serving_economics'> => async ({ capability, params }, ctx) => {
  const productId = params.product_id;

  return withProductSnapshot(deps.pool, productId, async (db, record, product) => {
    const state = await latestState(db, productId);
    const lines = state ? await declaredLines(db, [state.state_id]) : [];
    const { rows: observations, truncated } = await priceHistory(db, productId);
    const runs = priceRuns(observations);
    const evidence = [...new Set(runs.flatMap((r) => [r.first, r.last]))].sort(
      (a, b) => b.observed_at.localeCompare(a.observed_at) || a.price_basis.localeCompare(b.price_basis) || a.retailer.localeCompare(b.retailer),
    );

    const servings = newestPerBasis(observations).map((o) => ({ o, servings: servingsFor(o, state) }));
    const perServing = servings.map(({ o, servings: s }) => pricePerServing(o, s));
    const reference = perServing.find((c) => c.price_basis === 'list' && c.result !== null) ?? perServing.find((c) => c.result !== null);
    const perGram = reference
      ? lines
          .filter((l) => l.row_kind === 'ingredient')
          .map((l) => pricePerGramOf(reference, l))
          .filter((c): c is CalculationOut => c !== null)
      : [];
    const uncalculated = perServing.some((c) => c.result === null);

    return answered(ctx, record, [productId], {
      capability,
      status: observations.length === 0 || uncalculated || product.depth_class === 'REGISTERED' ? 'partial' : 'supported',
      summary:
        observations.length === 0
          ? `The Record holds no price observation of ${displayName(product)}, so no serving economics can be calculated.`
          : `Serving economics of ${displayName(product)}: price per serving of the newest observation of each price basis, calculated by the service.`,
      product: productIdentity(product),
      commercial_facts: evidence.map(commercialFact),
      calculations: [...perServing, ...perGram],
      coverage: {
        observations: observations.length,
        first_observed_at: observations[0]?.observed_at ?? null,
        last_observed_at: observations.at(-1)?.observed_at ?? null,
        price_bases_observed: [...new Set(observations.map((o) => o.price_basis))],
        price_runs: runs.map(({ first: _f, last: _l, ...run }) => run),
        per_gram_basis: reference ? { price_basis: reference.price_basis, as_of: reference.as_of } : null,
      },
      limitations: distinct([
        product.is_demo && limitation.demoData,
        product.retired_on !== null && limitation.retired(product),
        product.depth_class === 'REGISTERED' && limitation.registered(product),
        observations.length === 0 && limitation.noPriceObservations,
        observations.length > 0 && limitation.pricePerServing,
        observations.length > 0 && limitation.promotionalIsNotAChange,
        observations.length > 0 && limitation.onlyListIsList,
        observations.some((o) => o.price_basis === 'list') && limitation.listObservationsAreDated,
        uncalculated && limitation.servingsUnknown,
        servings.some((s) => s.servings.derived) && limitation.servingsDerived,
        observations.length > 0 &&
          'Each run in coverage.price_runs is a span of dated observations at one price; commercial_facts hold the first and last observation of each run.',
        truncated && `Only the newest ${observations.length} price observations are read.`,
        perGram.length > 0 &&
          'Price per gram is given only for ingredients declared at 1 g or more per serving, not for the nutrition panel\'s figures (carbohydrates, sugars, fat, protein); it attributes the whole serving price to that ingredient.',
        reference && lines.some((l) => l.row_kind === 'ingredient' && isBound(l.operator)) &&
          'No price per gram is calculated for an amount the label states as a bound (for example "<1 g"): the bound is not a quantity.',
        reference && reference.price_basis !== 'list' && perGram.length > 0 && `Price per gram uses a ${reference.price_basis} price because the Record holds no list price with servings.`,
      ]),
      confidence:
        observations.length === 0
          ? { level: 'none', basis: 'No price observation.' }
          : uncalculated
            ? { level: 'medium', basis: 'Some observations lack servings per container.' }
            : servings.some((s) => s.servings.derived)
              ? { level: 'high', basis: 'Arithmetic on dated price observations and servings per container, declared or derived from the declared net contents and serving size.' }
              : { level: 'high', basis: 'Arithmetic on dated price observations and declared servings per container.' },
    });
  });
};
