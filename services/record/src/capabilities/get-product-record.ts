import type { AnswerStatus } from '@evidence-record/contract';
import { answered, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { withProductSnapshot } from '../capability-inputs';
import { commercialFact } from '../domain/economics';
import { besideLabelFacts, boundedAmountCount, declaredFacts, declaredZeroCount, servingFacts, undisclosedAmountCount } from '../domain/facts';
import { displayName, productIdentity } from '../domain/identity';
import { distinct, limitation } from '../domain/limitations';
import { besideFacts, declaredLines, latestState } from '../queries/label';
import { newestPricePerRetailerAndBasis } from '../queries/prices';
import { labelVersionsOfProduct, sourcesOfProduct } from '../queries/sources';

/**
 * The product record: identity, the serving configuration and declared
 * ingredients of the latest label state, the newest captured price of each
 * retailer and basis, and freshness and source health as data. An unreadable
 * manufacturer source makes the answer `stale`, never an error.
 */
export const getProductRecord = (deps: RecordDeps): HandlerOf<'get_product_record'> => async ({ capability, params }, ctx) => {
  const productId = params.product_id;

  return withProductSnapshot(deps.pool, productId, async (db, record, product) => {
    const state = await latestState(db, productId);
    const lines = state ? await declaredLines(db, [state.state_id]) : [];
    // What the label prints beside its Supplement Facts, quoted (decision 2420).
    const quoted = state ? besideLabelFacts(state, await besideFacts(db, state.state_id)) : [];
    const prices = await newestPricePerRetailerAndBasis(db, productId);
    const sources = await sourcesOfProduct(db, productId);
    const versions = await labelVersionsOfProduct(db, productId);
    const newestVersion = versions.at(-1);

    const declared = state ? declaredFacts(state, lines) : [];
    const undisclosedAmounts = undisclosedAmountCount(declared);
    const declaredZeros = declaredZeroCount(declared);
    const bounded = boundedAmountCount(declared);
    const manufacturer = sources.filter((s) => s.kind === 'manufacturer');
    const unreadable = manufacturer.find((s) => s.health === 'unreadable');

    const status: AnswerStatus =
      product.depth_class === 'REGISTERED' || !state ? 'partial' : unreadable ? 'stale' : 'supported';

    const summary =
      status === 'partial'
        ? `The Record knows ${displayName(product)} exists but holds no comparable label capture of it.`
        : status === 'stale'
          ? `The product record of ${displayName(product)} from its latest captured label; its manufacturer source is currently unreadable.`
          : `The product record of ${displayName(product)}: identity, serving configuration, declared ingredients and captured prices from the latest label state.`;

    return answered(ctx, record, [productId], {
      capability,
      status,
      summary,
      product: productIdentity(product),
      verified_facts: state ? [...servingFacts(state), ...declared, ...quoted] : [],
      commercial_facts: prices.map(commercialFact),
      source_references: sources.map((s) => ({
        url: s.url,
        observed_at: s.last_captured_on ?? s.last_read_on ?? s.health_since,
        kind: s.kind,
        readable: s.health === 'readable',
      })),
      coverage: {
        latest_state: state
          ? { state_id: state.state_id, observed_from: state.observed_from, observed_to: state.observed_to, classification: state.classification }
          : null,
        freshness: {
          label_observed_to: state?.observed_to ?? null,
          newest_price_observed_at: prices[0]?.observed_at ?? null,
        },
        label_versions: versions.map((v) => ({
          dsld_label_id: v.dsld_label_id,
          product_version_code: v.product_version_code,
          dsld_date: v.dsld_date,
          off_market: v.off_market,
          off_market_since: v.off_market_since,
          monitored: v.monitored,
          source_url: v.source_url,
        })),
        source_health: sources.map((s) => ({
          kind: s.kind,
          retailer: s.retailer,
          readable: s.health === 'readable',
          since: s.health_since,
          last_read_on: s.last_read_on,
          last_captured_on: s.last_captured_on,
        })),
      },
      limitations: distinct([
        product.is_demo && limitation.demoData,
        product.retired_on !== null && limitation.retired(product),
        (product.depth_class === 'REGISTERED' || !state) && limitation.registered(product),
        unreadable && limitation.manufacturerUnreadable(unreadable.health_since, unreadable.last_captured_on),
        state && state.classification === 'identity_only' && limitation.noLabelInLatestState(state.classification, state.observed_to),
        state?.classification === 'presence_only' && limitation.presenceOnly,
        declared.length > 0 && limitation.undisclosedNotAbsent,
        undisclosedAmounts > 0 && limitation.amountsUndisclosed(undisclosedAmounts),
        declaredZeros > 0 && limitation.declaredZero(declaredZeros),
        bounded > 0 && limitation.boundedAmounts(bounded),
        quoted.length > 0 && limitation.labelWords,
        newestVersion?.off_market === true && limitation.labelOffMarket(newestVersion.dsld_label_id, newestVersion.off_market_since),
        prices.length > 0 && limitation.onlyListIsList,
        prices.length === 0 && state && limitation.noPriceObservations,
      ]),
      confidence: confidenceOf(product.depth_class, state?.classification ?? null, Boolean(unreadable)),
    });
  });
};

function confidenceOf(depth: string, classification: string | null, unreadable: boolean): { level: 'high' | 'medium' | 'low'; basis: string } {
  if (depth === 'REGISTERED' || classification === null) return { level: 'low', basis: 'Identity only: no label state is captured.' };
  if (classification === 'identity_only') return { level: 'low', basis: 'The latest state records identity only; no label is captured in it.' };
  if (unreadable) return { level: 'medium', basis: 'Facts come from the last readable capture; the manufacturer source is unreadable now.' };
  if (classification === 'presence_only') return { level: 'medium', basis: 'Ingredients are named in the latest capture but amounts were not fully readable.' };
  return { level: 'high', basis: 'Declared facts are read from a captured label of the latest state; prices are dated observations.' };
}
